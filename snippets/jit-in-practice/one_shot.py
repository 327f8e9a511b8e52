import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing, timings  # hidden


def normalise_once(x):
    centred = x - jnp.mean(x)
    scaled = centred / jnp.std(x)
    clipped = jnp.clip(scaled, -3.0, 3.0)
    return jnp.round(clipped * 100) / 100


x = jnp.linspace(-3.0, 3.0, 10_000) ** 3


def eager_cold():
    jax.clear_caches()  # as in a fresh process: no program compiled yet
    return normalise_once(x)


def jit_cold():
    jax.clear_caches()
    return jax.jit(normalise_once)(x)


# fastest is the helper of the first block
cold = fastest({"eager": eager_cold, "jit": jit_cold}, repeat=5)
cold = timings({"eager": eager_cold, "jit": jit_cold}, repeat=5)  # hidden
# caches kept from here on
warm = fastest({"eager": lambda: normalise_once(x)}, repeat=20)
warm = {"eager": timing("eager_warm", lambda: normalise_once(x), repeat=20)}  # fmt: skip  # hidden
cold_ratio = cold["eager"] / cold["jit"]
warm_ratio = cold["jit"] / warm["eager"]
# hidden: begin
cold_ratio = record("cold_ratio", cold_ratio, kind="ratio")
warm_ratio = record("warm_ratio", warm_ratio, kind="ratio")
claim(
    "cold_ratio",
    ">=",
    1.5,
    says="from cold, eager takes at least 1.5 times jit and one call",
)
claim(
    "warm_ratio",
    ">=",
    3,
    says="jit and one call from cold take at least 3 times warm eager",
)
# hidden: end
print(
    f"from cold: eager {cold['eager'] * 1e3:.0f} ms, "
    f"jit + one call {cold['jit'] * 1e3:.0f} ms"
)
print(f"  eager took {cold_ratio:.3g} times as long")
print(
    f"eager with its programs already compiled: {warm['eager'] * 1e6:.0f} µs"
)
print(f"  jit + one call from cold took {warm_ratio:,.0f} times as long")
