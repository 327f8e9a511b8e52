import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing  # hidden

# leaky_squash is the function of the first block
x = jnp.linspace(-3.0, 3.0, 2_000)
squash_jit = jax.jit(leaky_squash)


def first_call():
    # forget the compiled program: this call traces and compiles
    jax.clear_caches()
    return squash_jit(x)


# fastest, the helper of the first block, calls each function once before it
# starts the clock
t_first = fastest({"first": first_call}, repeat=3)["first"]
t_steady = fastest({"steady": lambda: squash_jit(x)}, repeat=50)["steady"]
t_first = timing("first", first_call, repeat=3)  # hidden
t_steady = timing("steady", lambda: squash_jit(x), repeat=50)  # hidden
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
