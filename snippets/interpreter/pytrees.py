# evaluate, w and x come from the blocks above
import jax
import jax.numpy as jnp


def interpret(f):
    """Our evaluator as a transformation that takes and returns pytrees, as
    JAX's do."""

    def wrapped(*args):
        closed, out_shape = jax.make_jaxpr(f, return_shape=True)(*args)
        flat_out = evaluate(closed, closed.consts, *jax.tree.leaves(args))
        return jax.tree.unflatten(jax.tree.structure(out_shape), flat_out)

    return wrapped


def predict(params, x):
    return {"y": jnp.tanh(params["w"] @ x + params["b"]), "total": x.sum()}


params = {"w": w, "b": jnp.zeros(2)}
print("arguments:", jax.tree.structure((params, x)))
print(
    "jaxpr inputs:",
    [str(v.aval) for v in jax.make_jaxpr(predict)(params, x).invars],
)
ours, theirs = interpret(predict)(params, x), predict(params, x)
print("ours:", ours)
print(
    "same tree and values:",
    jax.tree.all(jax.tree.map(jnp.array_equal, ours, theirs)),
)
