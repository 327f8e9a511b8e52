import functools

import jax
import jax.numpy as jnp

from bookexec.facts import record

traced = []


@functools.partial(jax.jit, static_argnums=1)
def power_scaled(x, n):
    traced.append(n)
    y = x
    for _ in range(n - 1):
        y = y * x
    return y * n


compiles = []  # one entry per XLA compilation of power_scaled


def on_event(event, seconds, fun_name="", **details):
    if event == "/jax/core/compile/backend_compile_duration" and "power_scaled" in fun_name:
        compiles.append(fun_name)


jax.monitoring.register_event_duration_secs_listener(on_event)

x = jnp.arange(3.0)
ns = [2, 3, 3, 2, 5, 3]
for n in ns:
    print(f"n={n}:", power_scaled(x, n))
record("calls", len(ns))
record("traces", len(traced))
record("compiles", len(compiles))
print("traced for n in", traced)
print(len(compiles), "XLA compilations")
