# Acts and weights come from the blocks above
import jax


def project(a, w):
    return a @ w


jax.make_jaxpr(project)(acts, weights)
