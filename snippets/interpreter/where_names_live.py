import jax
import jax.extend as jex

# what this chapter's blocks reach for, by the names they use
used = {
    "jax.make_jaxpr": jax.make_jaxpr,
    "jax.core.eval_jaxpr": jax.core.eval_jaxpr,
    "jax.extend.core.jaxpr_as_fun": jex.core.jaxpr_as_fun,
    "jax.extend.core.Jaxpr": jex.core.Jaxpr,
    "jax.extend.core.ClosedJaxpr": jex.core.ClosedJaxpr,
    "jax.extend.core.Literal": jex.core.Literal,
    "jax.lax.dot_general_p": jax.lax.dot_general_p,
}
for name, obj in used.items():
    if isinstance(obj, jex.core.Primitive):  # an object, not a function or a class
        print(f"{name:29} is a {type(obj).__module__}.{type(obj).__qualname__}")
    else:
        print(f"{name:29} is {obj.__module__}.{obj.__qualname__}")
same = jax.lax.dot_general_p is jex.core.primitives.dot_general_p
print("jax.lax.dot_general_p is jax.extend.core.primitives.dot_general_p:", same)
names = ("eval_jaxpr", "jaxpr_as_fun", "Jaxpr", "ClosedJaxpr", "Literal", "Var", "Primitive")
print("of these, jax.core has:", [n for n in names if hasattr(jax.core, n)])
print("jax.extend.core has:   ", [n for n in names if hasattr(jex.core, n)])
promise = next(line for line in jex.__doc__.splitlines() if "guarantee" in line)
print("jax.extend's docstring:", promise)
calls = ("jit_p", "custom_jvp_call_p", "custom_vjp_call_p", "remat_p", "random_bits_p")
only_extend = [n for n in calls if hasattr(jex.core.primitives, n) and not hasattr(jax.lax, n)]
print("in jax.extend.core.primitives, not in jax.lax:", only_extend)
