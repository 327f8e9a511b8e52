# ring comes from the first block
import jax

print("process", jax.process_index(), "of", jax.process_count())
print(
    "devices:",
    len(jax.devices()),
    "local devices:",
    len(jax.local_devices()),
)
print("every device is local:", jax.devices() == jax.local_devices())
print(
    "processes owning the ring:",
    sorted({d.process_index for d in ring.devices.flat}),
)
