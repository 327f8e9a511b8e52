import re

import jax


def draw(k):
    return jax.random.uniform(k, (4,))


hlo = jax.jit(draw).lower(jax.random.key(42)).as_text()
print("functions:", re.findall(r"func\.func \w+ @(\w+)", hlo))
print("has a while loop:", "stablehlo.while" in hlo)
