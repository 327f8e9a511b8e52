import jax
import jax.numpy as jnp
import numpy as np


def ask(what, how):
    def f(x):
        how(x)
        return x

    try:
        jax.jit(f)(jnp.arange(3.0))
    except Exception as err:
        caught = isinstance(err, jax.errors.ConcretizationTypeError)
        print(f"{what:14} {type(err).__name__:27} {caught}")


print(f"{'code':14} {'raises':27} a ConcretizationTypeError?")
ask("x.tolist()", lambda x: x.tolist())
ask("float(x[0])", lambda x: float(x[0]))
ask("if x[0] > 0:", lambda x: bool(x[0] > 0))  # what a Python `if` calls
ask("np.asarray(x)", lambda x: np.asarray(x))
ask("np.sin(x)", lambda x: np.sin(x))
