import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings  # hidden


# leaky_squash's body, run 200 times instead of 12
def squash_many(x, steps=200):
    for _ in range(steps):
        x = 0.9 * x + 0.1 * x * x
        x = jnp.where(x > 0, x, 0.5 * x)
    return x


# the same loop as one lax.scan: its body is traced once
def squash_scanned(x, steps=200):
    def body(x, _):
        x = 0.9 * x + 0.1 * x * x
        return jnp.where(x > 0, x, 0.5 * x), None

    return jax.lax.scan(body, x, length=steps)[0]


x = jnp.linspace(-3.0, 3.0, 2_000)


def cold(fn):
    def run():
        jax.clear_caches()  # as in a fresh process: no program compiled yet
        return fn(x)

    return run


# fastest is the helper of the first block
runs = {
    "eager": cold(squash_many),
    "jit": cold(jax.jit(squash_many)),
    "scan": cold(jax.jit(squash_scanned)),
}
t = fastest(runs, repeat=3)
t = timings(runs, repeat=3)  # hidden
jit_over_eager = t["jit"] / t["eager"]
# hidden: begin
jit_over_eager = record("jit_over_eager", jit_over_eager, kind="ratio")
jit_over_scan = record("jit_over_scan", t["jit"] / t["scan"], kind="ratio")
claim(
    "jit_over_eager",
    ">=",
    1.5,
    says="from cold, jit of the 200-pass loop takes 1.5 times eager",
)
claim(
    "jit_over_scan",
    ">=",
    3,
    says="from cold, jit of the unrolled loop takes 3 times jit of scan",
)
# hidden: end
print(
    f"from cold: eager {t['eager']:.3g}, jit {t['jit']:.3g}, jit of the "
    f"scan {t['scan']:.3g}"
)
print(
    f"jit of the unrolled loop took {jit_over_eager:.3g} times as long as "
    "eager"
)
same = jnp.allclose(jax.jit(squash_scanned)(x), squash_many(x))
print("the scan gives the same result:", bool(same))
