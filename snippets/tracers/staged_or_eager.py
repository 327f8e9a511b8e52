import jax
import jax.numpy as jnp

from bookexec.facts import record


def counted(runs):
    """A cube that counts how often its Python body runs."""

    def cube(x):
        runs.append(1)
        return x**3

    return cube


def body_runs(make, args_for_call):
    runs = []
    transformed = make(counted(runs))
    for value in (1.0, 2.0, 3.0):
        transformed(*args_for_call(value))
    return len(runs)


scalar = lambda v: (v,)  # noqa: E731
ways = {
    "grad": (jax.grad, scalar),
    "jvp": (lambda f: lambda x, t: jax.jvp(f, (x,), (t,)), lambda v: (v, 1.0)),
    "vmap": (jax.vmap, lambda v: (jnp.full(4, v),)),
    "jit": (jax.jit, scalar),
    "jit(grad)": (lambda f: jax.jit(jax.grad(f)), scalar),
}
for name, (make, args_for_call) in ways.items():
    runs = body_runs(make, args_for_call)
    key = name.replace("(", "_").replace(")", "")
    print(f"{name:9} 3 calls, body ran {record(key + '_runs', runs)} times")
