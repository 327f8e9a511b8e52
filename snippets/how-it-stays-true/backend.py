import jax

print("backend:", jax.default_backend())
print("devices:", jax.device_count())
