import jax
from jax.experimental import io_callback

log = []


def write(x):
    # a side effect the program must not drop or reorder
    log.append(float(x))


@jax.jit
def step(x):
    io_callback(write, None, x, ordered=True)
    return x * 2.0


step(1.0)
step(3.0)
# the calls run asynchronously, on the host: wait for them before reading
jax.effects_barrier()
print("log:", log)
# inside the jit equation
body = jax.make_jaxpr(step)(1.0).jaxpr.eqns[0].params["jaxpr"]
print(body)
(eqn,) = [e for e in body.eqns if e.primitive.name == "io_callback"]
print(
    "ordered:",
    eqn.params["ordered"],
    "effects:",
    sorted(type(e).__name__ for e in eqn.effects),
)
