import jax
import jax.numpy as jnp

from bookexec.facts import record, timings  # hidden

# jnp.matmul is itself a jitted function, the same kind as jax.jit returns
matmul_jit = jax.jit(jnp.matmul)
print("jnp.matmul is jitted:", type(jnp.matmul) is type(matmul_jit))
record("matmul_jitted", str(type(jnp.matmul) is type(matmul_jit)))  # hidden

a = jnp.ones((1000, 1000))
# one operation: one dispatch either way; fastest is the helper of the first
# block
# "eager again" times the same product twice: the noise of the measurement
runs = {
    "eager": lambda: a @ a,
    "jitted": lambda: matmul_jit(a, a),
    "eager again": lambda: a @ a,
}
t = fastest(runs, repeat=20)
# hidden: begin
t = timings(
    {
        "eager": lambda: a @ a,
        "jitted": lambda: matmul_jit(a, a),
        "again": lambda: a @ a,
    },
    repeat=20,
)
t["eager again"] = t["again"]
# hidden: end
t_eager, t_jit = t["eager"], t["jitted"]
ratio = t_eager / t_jit
noise = t["eager again"] / t_eager
# hidden: begin
ratio = record("ratio", ratio, kind="ratio")
noise = record("noise", noise, kind="ratio")
# hidden: end
print(
    f"one 1000 by 1000 product: eager {t_eager * 1e3:.1f} ms, "
    f"jitted {t_jit * 1e3:.1f} ms, a ratio of {ratio:.2f}"
)
print(f"the eager product timed again: a ratio of {noise:.2f}")


def entry(compiled):
    """The top-level computation XLA runs, without the source locations."""
    lines = compiled.as_text().split("ENTRY")[1].strip().splitlines()
    return "\n".join(line.split(", metadata=")[0] for line in lines)


# eager a @ a runs jnp.matmul's own compiled program
eager_program = entry(jnp.matmul.lower(a, a).compile())
jit_program = entry(matmul_jit.lower(a, a).compile())
print(jit_program)
print("the same program as eager a @ a:", jit_program == eager_program)
record("same_program", str(jit_program == eager_program))  # hidden
