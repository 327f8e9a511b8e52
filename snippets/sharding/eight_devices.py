import jax

# Before anything touches a device: the CPU backend reads this once, when it
# starts.
jax.config.update("jax_num_cpu_devices", 8)

devices = jax.devices()
print(len(devices), "devices")
print(devices)
