import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# Python's keywords: each one asks its operand for a real True or False.
keyword_forms = {
    "(x > 0) and (x < 1)": lambda x: (x > 0) and (x < 1),
    "(x < 0) or (x > 1)": lambda x: (x < 0) or (x > 1),
    "not (x > 0)": lambda x: not (x > 0),
    # a chained comparison is an `and` in disguise
    "0 < x < 1": lambda x: 0 < x < 1,
}
errors = set()  # hidden
for text, fn in keyword_forms.items():
    try:
        jax.jit(fn)(0.5)
    except Exception as err:
        errors.add(type(err).__name__)  # hidden
        print(f"{text:21} -> {type(err).__name__}")
record("keyword_error", " ".join(sorted(errors)))  # hidden

# The array operators: each one is an operation, recorded like any other.
x = jnp.array([-0.5, 0.5, 1.5])
inside = jax.jit(lambda x: (x > 0) & (x < 1))
print("(x > 0) & (x < 1)     ->", inside(x))
print("(x < 0) | (x > 1)     ->", jax.jit(lambda x: (x < 0) | (x > 1))(x))
print("~(x > 0)              ->", jax.jit(lambda x: ~(x > 0))(x))
print(
    "jnp.logical_and(...)  ->",
    jax.jit(lambda x: jnp.logical_and(x > 0, x < 1))(x),
)
mask = jnp.array([0, 1, 1])  # an integer 0/1 mask, not a boolean one
print("~mask                 ->", ~mask)  # bitwise on integers
print("jnp.logical_not(mask) ->", jnp.logical_not(mask))
try:
    both = (x > 0) and (x < 1)  # eagerly, on three elements
except ValueError as err:
    print("(x > 0) and (x < 1), eager on an array -> ValueError:", err)
try:
    # no parentheses: & binds tighter than > and <
    jax.jit(lambda x: x > 0 & x < 1)(x)
except TypeError as err:
    print("x > 0 & x < 1         -> TypeError:", err)
closed = jax.make_jaxpr(lambda x: ((x > 0) & (x < 1)) | ~(x > 2))(x)
print(closed)
# hidden: begin
names = sorted({e.primitive.name for e in closed.jaxpr.eqns})
codes = [f"`{n}`" for n in names]
record("primitives", ", ".join(codes[:-1]) + " and " + codes[-1])
# hidden: end
