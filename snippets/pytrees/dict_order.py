import jax


def spread(bounds):
    return bounds["upper"] - bounds["lower"]


bounds = {"upper": 5.0, "lower": 2.0}  # written upper first
print(jax.tree.leaves(bounds))
print(jax.make_jaxpr(spread)(bounds))
