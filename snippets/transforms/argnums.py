import jax
import jax.numpy as jnp


# potential energy m·g·h of a point at height position[1]
def energy(position, mass, g):
    return mass * g * position[1]


where, m, g = jnp.array([3.0, 2.0]), 5.0, 9.8
print("d/d position (default argnums=0):", jax.grad(energy)(where, m, g))
print(
    "d/d mass     (argnums=1):        ",
    jax.grad(energy, argnums=1)(where, m, g),
)
by_both = jax.grad(energy, argnums=(0, 1))(where, m, g)
d_position, d_mass = by_both
print(
    "argnums=(0, 1):",
    type(by_both).__name__,
    "of",
    len(by_both),
    "->",
    d_position,
    d_mass,
)


# the same energy, reporting what it was called with
def energy_seen(position, mass, g):
    names = [type(value).__name__ for value in (position, mass, g)]
    print("  position: {}  mass: {}  g: {}".format(*names))
    return energy(position, mass, g)


print("what grad(argnums=1) passes in:")
jax.grad(energy_seen, argnums=1)(where, m, g)
print("the same under an outer jit:")
jax.jit(jax.grad(energy_seen, argnums=1))(where, m, g)
