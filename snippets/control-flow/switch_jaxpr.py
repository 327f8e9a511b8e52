import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden

branches = (jnp.sin, jnp.cos, jnp.tanh)


def pick(i, x):
    return lax.switch(i, branches, x)


for i in (0, 2, 7, -1):  # 7 and -1 are out of range
    print(f"switch({i:2}):", pick(i, 1.0))
closed = jax.make_jaxpr(pick)(0, 1.0)
print(closed)
# hidden: begin
(cond_eqn,) = [
    eqn for eqn in closed.jaxpr.eqns if eqn.primitive.name == "cond"
]
record("branches", len(cond_eqn.params["branches"]))
# hidden: end
