import jax
import jax.numpy as jnp


class SafeInterval:  # the same check, but unflatten no longer runs it
    def __init__(self, lo, hi):
        lo, hi = jnp.asarray(lo), jnp.asarray(hi)
        if jnp.any(lo > hi):
            raise ValueError("lo must not exceed hi")
        self.lo, self.hi = lo, hi


def unflatten(_, children):
    # skip __init__: children may be tracers or placeholders
    iv = object.__new__(SafeInterval)
    iv.lo, iv.hi = children
    return iv


jax.tree_util.register_pytree_node(
    SafeInterval, lambda iv: ((iv.lo, iv.hi), None), unflatten
)

unit = SafeInterval(jnp.zeros(2), jnp.ones(2))
print("jit:     ", jax.jit(lambda iv: iv.hi - iv.lo)(unit))
print("tree.map:", jax.tree.map(lambda leaf: leaf.dtype, unit).lo)
jac = jax.jacobian(lambda iv: iv.hi - iv.lo)(unit)
print("jacobian:", type(jac).__name__, "d/dhi", jac.hi.tolist())
try:
    SafeInterval(1.0, 0.0)
except ValueError as err:
    print("direct call still checks:", err)
