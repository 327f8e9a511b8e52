import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden

x = jnp.linspace(0.5, 2.0, 3)
w = jnp.arange(3.0)
# each function applies one primitive to x
one_primitive = {
    "sin": lax.sin,
    "exp": lax.exp,
    "integer_pow": lambda v: lax.integer_pow(v, 3),
    "mul": lambda v: lax.mul(v, w),
    "neg": lax.neg,
    "add": lambda v: lax.add(v, v),
    "dot_general": lambda v: lax.dot(w, v),
}
# each transformation needs one kind of rule
needs_rule = {
    "lower": lambda f: jax.jit(f).lower(x),
    "batch": lambda f: jax.vmap(f)(jnp.stack([x, x])),
    "jvp": lambda f: jax.jvp(f, (x,), (x,)),
    "transpose": lambda f: jax.linear_transpose(f, x)(f(x)),
}


def has_rule(transform, f):
    try:
        transform(f)
    except NotImplementedError:  # the rule is missing
        return False
    return True


print("primitive    " + "  ".join(needs_rule))
untransposed = []  # hidden
for name, f in one_primitive.items():
    marks = [has_rule(t, f) for t in needs_rule.values()]
    cells = "  ".join(f"{'yes' if m else '-':5}" for m in marks)
    print(f"  {name:12} {cells}".rstrip())
    if not marks[3]:  # hidden
        untransposed.append(name)  # hidden
record("no_transpose", ", ".join(f"`{n}`" for n in untransposed))  # fmt: skip  # hidden
try:
    jax.linear_transpose(lax.sin, x)(x)
except NotImplementedError as err:
    print("linear_transpose(sin):", err)
