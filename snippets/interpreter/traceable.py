# evaluate and closed come from the earlier blocks
import jax


def replay(w, x):
    return evaluate(closed, closed.consts, w, x)[0]


# binding inside a trace records the same equations
print(jax.make_jaxpr(replay)(w, x))
print(jax.grad(lambda w, x: replay(w, x).sum())(w, x))
