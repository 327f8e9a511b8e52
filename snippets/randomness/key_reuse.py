import jax
import jax.numpy as jnp


@jax.jit
def two_draws(key):
    # the same key, twice
    return jax.random.normal(key) + jax.random.uniform(key)


print("without the check:", two_draws(jax.random.key(0)))
with jax.debug_key_reuse(True):  # track which keys have been consumed
    try:
        two_draws(jax.random.key(0))
    except jax.errors.KeyReuseError as err:
        print(f"{type(err).__name__}: {err}")


@jax.jit
def same_noise_twice(key):  # a reuse on purpose: clone says so
    return jax.random.normal(jax.random.clone(key)) - jax.random.normal(key)


with jax.debug_key_reuse(True):
    print("with clone, accepted:", same_noise_twice(jax.random.key(0)))


@jax.jit
# fold_in derives a key, and leaves the key it is given unconsumed
def per_step(key):
    return jnp.stack(
        [
            jax.random.normal(jax.random.fold_in(key, step))
            for step in range(3)
        ]
    )


with jax.debug_key_reuse(True):
    print("fold_in per step, accepted:", per_step(jax.random.key(0)))


@jax.jit
# a draw from key, then a key folded from the same key
def draw_then_fold(key):
    return jax.random.normal(key) + jax.random.normal(
        jax.random.fold_in(key, 1)
    )


with jax.debug_key_reuse(True):
    print("draw, then fold_in, accepted:", draw_then_fold(jax.random.key(0)))


@jax.jit
# the same integer folded in twice: the same key twice
def fold_twice(key):
    return jax.random.normal(jax.random.fold_in(key, 1)) - jax.random.normal(
        jax.random.fold_in(key, 1)
    )


with jax.debug_key_reuse(True):
    print("fold_in(key, 1) twice, accepted:", fold_twice(jax.random.key(0)))
    # the check tracks typed keys only: a raw PRNGKey used twice passes
    print("raw key used twice, accepted:", two_draws(jax.random.PRNGKey(0)))

# passing the check is not proof of independence: with Threefry keys,
# fold_in(key, i) is the same key as split(key, n)[i]
key = jax.random.key(0)
folded = jax.random.key_data(jax.random.fold_in(key, 1))
child = jax.random.key_data(jax.random.split(key, 3)[1])
print("fold_in(key, 1) == split(key, 3)[1]:", bool((folded == child).all()))
