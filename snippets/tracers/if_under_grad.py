import jax


def kink(x):
    if x > 0:  # a Python if on the value of x
        return x * x
    return -x


print("grad at  3.0:", jax.grad(kink)(3.0))
print("grad at -2.0:", jax.grad(kink)(-2.0))
# hidden: begin
from bookexec.facts import record  # noqa: E402

record("at_3", str(jax.grad(kink)(3.0)))
record("at_minus_2", str(jax.grad(kink)(-2.0)))
# hidden: end
