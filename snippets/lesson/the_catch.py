import jax


@jax.jit
def clip_negative(x):
    if x < 0:  # Python needs True or False now; x is a tracer
        return 0.0
    return x


clip_negative(-3.0)
