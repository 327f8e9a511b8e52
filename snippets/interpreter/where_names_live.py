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
in_lax = {n for n in dir(jax.lax) if n.endswith("_p")}
in_extend = {n for n in dir(jex.core.primitives) if n.endswith("_p")}
both = sorted(in_lax & in_extend)
alike = all(getattr(jax.lax, n) is getattr(jex.core.primitives, n) for n in both)
print(f"primitives both export: {len(both)}, each the same object in both: {alike}")
print("in jax.lax, not in jax.extend.core.primitives:", sorted(in_lax - in_extend))
names = ("eval_jaxpr", "jaxpr_as_fun", "Jaxpr", "ClosedJaxpr", "Literal", "Var", "Primitive")
print("of these, jax.core has:", [n for n in names if hasattr(jax.core, n)])
print("jax.extend.core has:   ", [n for n in names if hasattr(jex.core, n)])
promise = next(line for line in jex.__doc__.splitlines() if "guarantee" in line)
print("jax.extend's docstring:", promise)
extra = sorted(in_extend - in_lax)
linalg = [n for n in extra if getattr(jax.lax.linalg, n, None) is getattr(jex.core.primitives, n)]
print(f"in jax.extend.core.primitives, not in jax.lax: {len(extra)}, of which")
print("  in jax.lax.linalg:", linalg)
print("  in neither:", [n for n in extra if n not in linalg])
rules = jax.custom_derivatives
custom = [n for n in extra if n.startswith("custom_")]
same = [n for n in custom if getattr(rules, n, None) is getattr(jex.core.primitives, n)]
print("of the custom-rule ones, jax.custom_derivatives has:", same)
