import gc
import weakref

import jax
import jax.numpy as jnp

traced, compiled = [], []


def smooth(x):
    traced.append(jax.typeof(x))
    return 2.0 * jnp.tanh(x)


def on_event(event, seconds, fun_name="", **details):
    if (
        event == "/jax/core/compile/backend_compile_duration"
        and fun_name == "jit(smooth)"
    ):
        compiled.append(fun_name)


jax.monitoring.register_event_duration_secs_listener(on_event)


def report(what):
    print(f"{what:<30} traces: {len(traced)}  compiles: {len(compiled)}")


f = jax.jit(smooth)
x = jnp.ones(8)
f(x)
report("f(x)")
f(x)
report("f(x) again")
jax.jit(smooth)(x)
report("a new jax.jit(smooth), (x)")
f.lower(x).compile()  # jit's stages run by hand
report("f.lower(x).compile()")
# onto the device x is already on: same type, same sharding
xc = jax.device_put(x, jax.devices()[0])
print("same type:", jax.typeof(xc) == jax.typeof(x), end=" | ")
print("same sharding:", xc.sharding == x.sharding, end=" | ")
print("committed:", x.committed, "->", xc.committed)
f(xc)
report("f(xc)")


def shift(v):
    return v + 1


# traced and compiled: jit's cache now has an entry for shift
jax.jit(shift)(x)
alive = weakref.ref(shift)
del shift  # the last name for the function
gc.collect()
print("shift collected, cache or not:", alive() is None)
jax.monitoring.unregister_event_duration_listener(on_event)  # done counting
# hidden: begin
from bookexec.facts import record  # noqa: E402

record("traces", len(traced))
record("compiles", len(compiled))
record("collected", str(alive() is None))
# hidden: end
