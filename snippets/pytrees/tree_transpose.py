import jax

# one dict of metrics per step, as a training loop logs them
steps = [
    {"loss": 0.9, "acc": 0.5},
    {"loss": 0.7, "acc": 0.6},
    {"loss": 0.4, "acc": 0.8},
]
outer = jax.tree.structure([0, 0, 0])
inner = jax.tree.structure({"loss": 0, "acc": 0})
print(jax.tree.transpose(outer, inner, steps))
print(jax.tree.transpose(outer, None, steps))  # inner structure inferred

ragged = [*steps[:2], {"loss": 0.4}]  # the last step logged no accuracy
try:
    jax.tree.transpose(outer, None, ragged)
except TypeError as err:
    print(f"TypeError: {err}")
