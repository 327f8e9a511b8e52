import jax
import jax.numpy as jnp


@jax.jit
# fold_in derives a key, and leaves the key it is given unconsumed
def per_step(key):
    return jnp.stack(
        [
            jax.random.normal(jax.random.fold_in(key, step))
            for step in range(3)
        ]
    )


@jax.jit
# a draw from key, then a key folded from the same key
def draw_then_fold(key):
    return jax.random.normal(key) + jax.random.normal(
        jax.random.fold_in(key, 1)
    )


@jax.jit
# the same integer folded in twice: the same key twice
def fold_twice(key):
    return jax.random.normal(jax.random.fold_in(key, 1)) - jax.random.normal(
        jax.random.fold_in(key, 1)
    )


with jax.debug_key_reuse(True):
    print("fold_in per step, accepted:", per_step(jax.random.key(0)))
    print("draw, then fold_in, accepted:", draw_then_fold(jax.random.key(0)))
    print("fold_in(key, 1) twice, accepted:", fold_twice(jax.random.key(0)))
