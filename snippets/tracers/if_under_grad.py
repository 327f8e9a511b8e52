import jax

from bookexec.facts import record


def kink(x):
    if x > 0:  # a Python if on the value of x
        return x * x
    return -x


print("grad at  3.0:", record("at_3", str(jax.grad(kink)(3.0))))
print("grad at -2.0:", record("at_minus_2", str(jax.grad(kink)(-2.0))))
