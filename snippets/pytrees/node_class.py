import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Affine:
    def __init__(self, scale, shift):
        self.scale, self.shift = scale, shift

    def __call__(self, x):
        return self.scale * x + self.shift

    def tree_flatten(self):  # children, static data
        return (self.scale, self.shift), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


layer = Affine(jnp.float32(2.0), jnp.float32(1.0))
print("structure:", jax.tree.structure(layer))
grads = jax.grad(lambda f, x: f(x) ** 2)(layer, 3.0)
print(
    "grad:     ",
    type(grads).__name__,
    "scale",
    grads.scale,
    "shift",
    grads.shift,
)
