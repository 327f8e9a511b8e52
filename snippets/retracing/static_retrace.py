import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

traced = []


@jax.jit(static_argnums=1)
def power_scaled(x, n):
    traced.append(n)
    y = x
    for _ in range(n - 1):
        y = y * x
    return y * n


compiles = []  # one entry per XLA compilation of power_scaled


def on_event(event, seconds, fun_name="", **details):
    if (
        event == "/jax/core/compile/backend_compile_duration"
        and "power_scaled" in fun_name
    ):
        compiles.append(fun_name)


jax.monitoring.register_event_duration_secs_listener(on_event)

x = jnp.arange(3.0)
ns = [2, 3, 3, 2, 5, 3]
for n in ns:
    print(f"n={n}:", power_scaled(x, n))
record("calls", len(ns))  # hidden
record("traces", len(traced))  # hidden
record("compiles", len(compiles))  # hidden
print("traced for n in", traced)
print(len(compiles), "XLA compilations")
jax.monitoring.unregister_event_duration_listener(on_event)  # done counting

# a static value is looked up by its hash: a tuple has one, a list does not
reshape = jax.jit(lambda x, shape: x.reshape(shape), static_argnums=1)
print("tuple (2, 3):", reshape(jnp.arange(6.0), (2, 3)).shape)
try:
    reshape(jnp.arange(6.0), [2, 3])
except ValueError as err:
    print("list [2, 3]:", type(err).__name__, str(err).split(".")[0])
