import jax
import jax.numpy as jnp


def energy(position, mass, g):  # potential energy m·g·h of a point at height position[1]
    return mass * g * position[1]


where, m, g = jnp.array([3.0, 2.0]), 5.0, 9.8
print("d/d position (default argnums=0):", jax.grad(energy)(where, m, g))
print("d/d mass     (argnums=1):        ", jax.grad(energy, argnums=1)(where, m, g))
by_both = jax.grad(energy, argnums=(0, 1))(where, m, g)
d_position, d_mass = by_both
print("argnums=(0, 1):", type(by_both).__name__, "of", len(by_both), "->", d_position, d_mass)
