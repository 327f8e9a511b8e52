import jax


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
    # the check tracks typed keys only: a raw PRNGKey used twice passes
    print("raw key used twice, accepted:", two_draws(jax.random.PRNGKey(0)))


@jax.jit
def same_noise_twice(key):  # a reuse on purpose: clone says so
    return jax.random.normal(jax.random.clone(key)) - jax.random.normal(key)


with jax.debug_key_reuse(True):
    print("with clone, accepted:", same_noise_twice(jax.random.key(0)))
