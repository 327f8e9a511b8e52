import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings  # hidden


# leaky_squash's body, run `steps` times
def squash_many(x, steps):
    for _ in range(steps):
        x = 0.9 * x + 0.1 * x * x
        x = jnp.where(x > 0, x, 0.5 * x)
    return x


# the same loop as one lax.scan: its body is traced once
def squash_scanned(x, steps):
    def body(x, _):
        x = 0.9 * x + 0.1 * x * x
        return jnp.where(x > 0, x, 0.5 * x), None

    return jax.lax.scan(body, x, length=steps)[0]


x = jnp.linspace(-3.0, 3.0, 2_000)


def cold(fn, steps):
    def run():
        jax.clear_caches()  # as in a fresh process: no program compiled yet
        return fn(x, steps)

    return run


def compare(steps):
    """From cold, seconds for the loop eagerly, jitted, and jitted as a
    scan; fastest is the helper of the first block."""
    runs = {
        "eager": cold(squash_many, steps),
        "jit": cold(jax.jit(squash_many, static_argnums=1), steps),
        "scan": cold(jax.jit(squash_scanned, static_argnums=1), steps),
    }
    t = fastest(runs, repeat=3)
    # hidden: begin
    named = {f"{name}_{steps}": run for name, run in runs.items()}
    t = timings(named, repeat=3)
    t = {name: t[f"{name}_{steps}"] for name in runs}
    # hidden: end
    print(
        f"{steps} passes from cold: eager {t['eager'] * 1e3:.0f} ms, jit "
        f"{t['jit'] * 1e3:.0f} ms, jit of the scan {t['scan'] * 1e3:.0f} ms"
    )
    jit_over_eager = t["jit"] / t["eager"]
    # hidden: begin
    jit_over_eager = record(
        f"jit_over_eager_{steps}", jit_over_eager, kind="ratio"
    )
    record(f"jit_over_scan_{steps}", t["jit"] / t["scan"], kind="ratio")
    # hidden: end
    print(f"  jit took {jit_over_eager:.3g} times as long as eager")


compare(12)  # as in leaky_squash
compare(200)
# hidden: begin
claim(
    "jit_over_eager_12",
    "<",
    1,
    says="from cold, jit of the 12-pass loop is faster than eager",
)
claim(
    "jit_over_eager_200",
    ">=",
    1.5,
    says="from cold, jit of the 200-pass loop takes 1.5 times eager",
)
claim(
    "jit_over_scan_200",
    ">=",
    3,
    says="from cold, jit of the unrolled loop takes 3 times jit of scan",
)
# hidden: end
same = jnp.allclose(
    jax.jit(squash_scanned, static_argnums=1)(x, 200), squash_many(x, 200)
)
print("the scan gives the same result:", bool(same))
