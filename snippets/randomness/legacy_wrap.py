import jax


def draw(k):
    return jax.random.uniform(k, (4,))


for name, k in [
    ("typed", jax.random.key(42)),
    ("legacy", jax.random.PRNGKey(42)),
]:
    closed = jax.make_jaxpr(draw)(k)
    print(f"{name:6}  inputs: {closed.in_avals}")
    print(
        f"{name:6}  top-level equations: "
        f"{[e.primitive.name for e in closed.eqns]}"
    )
