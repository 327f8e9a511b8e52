import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings


def logistic(pop, steps=40):
    # The logistic map, iterated: each pass is three tiny elementwise operations.
    for _ in range(steps):
        pop = 3.7 * pop * (1.0 - pop)
    return pop


start = jnp.linspace(0.05, 0.95, 2_000)
compiled = jax.jit(logistic)
compiled(start).block_until_ready()  # warm-up: this call traces and compiles

eqns = record("eqns", len(jax.make_jaxpr(logistic)(start).eqns))
t = timings({"eager": lambda: logistic(start), "jitted": lambda: compiled(start)}, repeat=7)
eager, jitted = t["eager"], t["jitted"]
ratio = record("ratio", eager / jitted, kind="ratio")
claim("ratio", ">=", 5, says="the jitted function is at least 5 times faster")
print(f"operations in the recording: {eqns}")
print(f"eager {eager}, jitted {jitted}: {ratio} times faster")
