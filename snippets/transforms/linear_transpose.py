# wobble, x, ones, pullback and push come from the block above
import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# transpose the linear map: cotangent in, cotangent out
pull = jax.linear_transpose(push, x)
print(jax.make_jaxpr(pull)(ones))
(by_transpose,) = pull(ones)
(by_vjp,) = pullback(ones)
print("transpose of linearize:", by_transpose)
print("vjp's pullback:        ", by_vjp)
record("same_as_vjp", str(bool(jnp.allclose(by_transpose, by_vjp))))  # fmt: skip  # hidden
