import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

print("bits of 1.0f:", hex(np.array(1.0, np.float32).view(np.uint32)))

key = jax.random.key(42)
# the same 32 random bits per draw
bits = jax.random.bits(key, (4,), jnp.uint32)
# keep the top 23 bits
mantissa = lax.shift_right_logical(bits, jnp.uint32(9))
# exponent of 1.0, sign +
pattern = lax.bitwise_or(mantissa, jnp.uint32(0x3F800000))
# a float in [1, 2)
in_one_two = lax.bitcast_convert_type(pattern, jnp.float32)
by_hand = in_one_two - 1.0  # a float in [0, 1)

for name, row in [
    ("bits", bits),
    ("shifted", mantissa),
    ("or 1.0f", pattern),
]:
    print(f"{name:8}", " ".join(f"{int(b):#010x}" for b in row))
print("as float", in_one_two)
print("minus 1 ", by_hand)
print("uniform ", jax.random.uniform(key, (4,)))
print("equal:", bool((by_hand == jax.random.uniform(key, (4,))).all()))
