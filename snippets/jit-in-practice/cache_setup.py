import os

import jax

# Once, at start-up (or set JAX_COMPILATION_CACHE_DIR instead): the cache
# stays with the first folder it uses.
jax.config.update(
    "jax_compilation_cache_dir", os.path.expanduser("~/.cache/jax")
)

print("stores programs that took at least", end=" ")
print(jax.config.jax_persistent_cache_min_compile_time_secs, "s to compile")
print(
    "size limit:",
    jax.config.jax_compilation_cache_max_size,
    "bytes (-1: none)",
)
