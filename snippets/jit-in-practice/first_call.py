import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings  # hidden

# leaky_squash is the function of the first block
x = jnp.linspace(-3.0, 3.0, 2_000)
squash_jit = jax.jit(leaky_squash)


def first_call():
    # forget the compiled program: this call traces and compiles
    jax.clear_caches()
    return squash_jit(x)


# fastest, the helper of the first block, calls each function once before it
# starts the clock, then times them in turns; a later call finds the program
# the last first call compiled
t = fastest({"first": first_call, "steady": lambda: squash_jit(x)}, repeat=5)
t = timings({"first": first_call, "steady": lambda: squash_jit(x)}, repeat=5)  # fmt: skip  # hidden
t_first, t_steady = t["first"], t["steady"]
ratio = t_first / t_steady
# hidden: begin
ratio = record("ratio", ratio, kind="ratio")
claim(
    "ratio",
    ">=",
    20,
    says="the first call takes at least 20 times the steady state",
)
# hidden: end
print(
    f"first call {t_first * 1e3:.0f} ms, "
    f"later calls {t_steady * 1e6:.0f} µs: {ratio:,.0f} times as long"
)
