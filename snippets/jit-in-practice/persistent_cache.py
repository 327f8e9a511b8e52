import tempfile
from time import perf_counter

import jax
import jax.numpy as jnp
from jax.experimental.compilation_cache import compilation_cache

from bookexec.facts import claim, record  # hidden


# a long chain of small steps: a program that takes a while to compile
def deep(x):
    for i in range(120):
        x = jnp.sin(x) * 1.01 + jnp.cos(x * i)
    return x


x = jnp.ones(100)
# cache every program, however quick to compile
min_secs = jax.config.jax_persistent_cache_min_compile_time_secs
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)


def compile_time(cache_dir):
    """Seconds to compile `deep` with the persistent cache in `cache_dir`."""
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    # the cache stays with the first folder it used: reopen it at the new one
    compilation_cache.reset_cache()
    jax.clear_caches()  # and forget everything held in memory
    lowered = jax.jit(deep).lower(x)
    start = perf_counter()
    lowered.compile()
    return perf_counter() - start


shared = tempfile.mkdtemp()
# the first compile writes the executable into the folder
compile_time(shared)
cold, warm = [], []
for _ in range(3):  # alternate, so that a busy moment slows both kinds alike
    # a new, empty folder each time
    cold.append(compile_time(tempfile.mkdtemp()))
    warm.append(compile_time(shared))  # read back from the folder
t_cold, t_warm = min(cold), min(warm)  # the fastest of each
# hidden: begin
t_cold = record("cold", t_cold, kind="timing")
t_warm = record("warm", t_warm, kind="timing")
# hidden: end
speedup = t_cold / t_warm
# hidden: begin
speedup = record("speedup", speedup, kind="ratio")
claim(
    "speedup",
    ">=",
    3,
    says="a compile found in the persistent cache is at least 3 times faster",
)
# hidden: end
print(
    f"compile with an empty cache {t_cold * 1e3:.0f} ms, from the cache "
    f"{t_warm * 1e3:.0f} ms:",
    end=" ",
)
print(f"{speedup:.3g} times faster")
# later blocks compile as before
jax.config.update("jax_compilation_cache_dir", None)
jax.config.update("jax_persistent_cache_min_compile_time_secs", min_secs)
compilation_cache.reset_cache()
