import jax

key = jax.random.key(0)
folded = jax.random.key_data(jax.random.fold_in(key, 1))
child = jax.random.key_data(jax.random.split(key, 3)[1])
print("fold_in(key, 1) == split(key, 3)[1]:", bool((folded == child).all()))
