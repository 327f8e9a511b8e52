import dataclasses

import jax
import jax.numpy as jnp


# no __hash__ or __eq__ of its own: it hashes and compares by identity
class Config:
    def __init__(self, scale):
        self.scale = scale


@jax.jit(static_argnums=1)
def apply(x, cfg):
    return x * cfg.scale


cfg = Config(2.0)
print("mutable, scale 2: ", apply(jnp.ones(2), cfg))
cfg.scale = 10.0  # changed in place: the same object, so the same cache key
print("mutable, scale 10:", apply(jnp.ones(2), cfg))


# hashes and compares by value, and cannot be changed
@dataclasses.dataclass(frozen=True)
class FrozenConfig:
    scale: float


print("frozen,  scale 2: ", apply(jnp.ones(2), FrozenConfig(2.0)))
print("frozen,  scale 10:", apply(jnp.ones(2), FrozenConfig(10.0)))
