import jax
import jax.numpy as jnp

from bookexec.facts import claim, record  # hidden

key = jax.random.key(2024)
left, right = jax.random.split(key)
print("left: ", jax.random.normal(left, (4,)))
print("right:", jax.random.normal(right, (4,)))

# Splitting is itself a pure function: the same parent gives the same
# children.
again, _ = jax.random.split(key)
same = jax.random.key_data(again) == jax.random.key_data(left)
print("split is repeatable:", bool(same.all()))

# Large samples from the two children look unrelated.
n = 100_000
u = jax.random.uniform(left, (n,))
v = jax.random.uniform(right, (n,))
corr = abs(float(jnp.corrcoef(u, v)[0, 1]))
record("abs_corr", corr, kind="ratio")  # hidden
claim("abs_corr", "<=", 0.02, says="draws from split keys are uncorrelated")  # fmt: skip  # hidden
record("abs_corr_shown", f"{corr:.4f}")  # hidden
print(f"|correlation| over {n} pairs: {corr:.4f}")

# A loop that needs a fresh key at every step carries the key: each step
# splits it, keeps one child as the key for the next step and consumes the
# other.


def step(key, _):
    key, subkey = jax.random.split(key)
    return key, jax.random.normal(subkey)


_, steps = jax.lax.scan(step, key, length=4)
print("one draw per step:", steps)
