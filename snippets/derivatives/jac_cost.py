from time import perf_counter

import jax
import jax.numpy as jnp

from bookexec.facts import claim, record  # hidden

m = 2000  # inputs of the wide map, outputs of the tall one


def wide(x):  # from R^2000 to R^1: one output
    return jnp.sum(jnp.sin(x) * jnp.cos(x), keepdims=True)


def tall(t):  # from R^1 to R^2000: one input
    return jnp.sin(t * jnp.arange(m, dtype=jnp.float32))


cases = {
    "wide_fwd": (jax.jit(jax.jacfwd(wide)), jnp.linspace(0.0, 1.0, m)),
    "wide_rev": (jax.jit(jax.jacrev(wide)), jnp.linspace(0.0, 1.0, m)),
    "tall_fwd": (jax.jit(jax.jacfwd(tall)), jnp.ones(1)),
    "tall_rev": (jax.jit(jax.jacrev(tall)), jnp.ones(1)),
}
small, big = (
    len(jax.make_jaxpr(jax.jacfwd(wide))(jnp.ones(k)).eqns) for k in (3, m)
)
print("jacfwd(wide) equations, 3 inputs:", small, f" {m} inputs:", big)
samples: dict[str, list[float]] = {name: [] for name in cases}
for name, (jac, arg) in cases.items():
    print(name, "Jacobian shape:", jac(arg).shape)  # the first call compiles
for _ in range(7):  # alternate, so that a busy moment slows every kind alike
    for name, (jac, arg) in cases.items():
        start = perf_counter()
        jax.block_until_ready(jac(arg))
        samples[name].append(perf_counter() - start)
# each one's fastest run
t = {name: min(runs) for name, runs in samples.items()}
t = {name: record(name, took, kind="timing") for name, took in t.items()}  # fmt: skip  # hidden
wide_ratio = t["wide_fwd"] / t["wide_rev"]
tall_ratio = t["tall_rev"] / t["tall_fwd"]
# hidden: begin
wide_ratio = record("wide_ratio", wide_ratio, kind="ratio")
tall_ratio = record("tall_ratio", tall_ratio, kind="ratio")
# A bound of 10, far below a quiet machine's ratio: pinned to one busy core,
# a call as short as the wide map's jacrev waits for the CPU as long as it
# runs, and the ratio falls to about 30.
claim(
    "wide_ratio",
    ">=",
    10,
    says="on the wide map jacrev is at least 10 times faster",
)
claim(
    "tall_ratio",
    ">=",
    20,
    says="on the tall map jacfwd is at least 20 times faster",
)
# hidden: end
print(f"wide map: jacrev {wide_ratio:.0f} times faster;", end=" ")
print(f"tall map: jacfwd {tall_ratio:.0f} times faster")
