import jax
import jax.extend as jex
import jax.numpy as jnp


def logged(x):
    # an ordered effect: keeps its place
    jax.debug.print(ordered=True)("x = {}", x)
    jax.debug.print("again {}", x)  # unordered
    return jnp.sin(x)


traced = jax.make_jaxpr(logged)(1.0)
print(
    "the jaxpr's effects:", sorted(type(e).__name__ for e in traced.effects)
)
for eqn in traced.eqns:
    print(
        f"{eqn.primitive.name:12} effects: "
        f"{[type(e).__name__ for e in eqn.effects]}"
    )
every = all(isinstance(e, jex.core.Effect) for e in traced.effects)
print("each one a jax.extend.core.Effect:", every)
last = traced.eqns[-1]
# eqn.ctx is undocumented: what jax.core.eval_jaxpr enters around each bind
print("sin traced under the abstract mesh:", last.ctx.cur_abstract_mesh)
with last.ctx.manager:
    print(
        last.primitive.bind(
            jnp.float32(1.0), **last.primitive.get_bind_params(last.params)
        )
    )
