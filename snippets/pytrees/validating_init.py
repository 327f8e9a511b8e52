import jax
import jax.numpy as jnp


class Interval:
    def __init__(self, lo, hi):
        lo, hi = jnp.asarray(lo), jnp.asarray(hi)
        if jnp.any(lo > hi):  # a check that runs on every construction
            raise ValueError("lo must not exceed hi")
        self.lo, self.hi = lo, hi


jax.tree_util.register_pytree_node(
    Interval,
    lambda iv: ((iv.lo, iv.hi), None),
    # unflatten goes through __init__
    lambda _, children: Interval(*children),
)

unit = Interval(jnp.zeros(2), jnp.ones(2))
attempts = {
    "jit": lambda: jax.jit(lambda iv: iv.hi - iv.lo)(unit),
    "tree.map to dtypes": lambda: jax.tree.map(
        lambda leaf: leaf.dtype, unit
    ),
    "jacobian": lambda: jax.jacobian(lambda iv: iv.hi - iv.lo)(unit),
}
for name, attempt in attempts.items():
    try:
        attempt()
        print(f"{name:19} ok")
    except Exception as err:
        print(f"{name:19} {type(err).__name__}: {str(err).splitlines()[0]}")
