import jax
import jax.numpy as jnp
from jax.test_util import check_grads


@jax.custom_jvp
def softplus_ok(x):
    return jnp.where(x > 30.0, x, jnp.log1p(jnp.exp(x)))


@softplus_ok.defjvp
def softplus_ok_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return softplus_ok(x), jax.nn.sigmoid(x) * dx


@jax.custom_jvp
def softplus_wrong(x):
    return jnp.log1p(jnp.exp(x))


# wrong on purpose: exp's slope, not softplus's
@softplus_wrong.defjvp
def softplus_wrong_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return softplus_wrong(x), jnp.exp(x) * dx


check_grads(softplus_ok, (0.5,), order=2, modes=("fwd", "rev"))
print("softplus_ok: check_grads passes, orders 1 and 2, forward and reverse")
try:
    check_grads(softplus_wrong, (0.5,), order=1, modes=("fwd",))
except AssertionError as err:
    print("softplus_wrong:", type(err).__name__)
    print(str(err).strip())
