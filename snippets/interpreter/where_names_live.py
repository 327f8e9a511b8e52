import jax
import jax.extend as jex

names = (
    "eval_jaxpr",
    "jaxpr_as_fun",
    "jaxprs_in_params",
    "Jaxpr",
    "Literal",
    "Effect",
)
print("jax.core has:       ", [n for n in names if hasattr(jax.core, n)])
print("jax.extend.core has:", [n for n in names if hasattr(jex.core, n)])
promise = next(
    line for line in jex.__doc__.splitlines() if "guarantee" in line
)
print("jax.extend's docstring:", promise.strip())
undocumented = [
    f.__qualname__
    for f in (
        jax.core.eval_jaxpr,
        jex.core.jaxpr_as_fun,
        jex.core.jaxprs_in_params,
        jex.core.Primitive.bind,
        jex.core.Primitive.get_bind_params,
    )
    if not f.__doc__
]
print("no docstring:", undocumented)
