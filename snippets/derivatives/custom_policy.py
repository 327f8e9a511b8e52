# two_layers, w, x and backward come from the blocks above
import jax
from jax.ad_checkpoint import print_saved_residuals

asked = []


def save_tanh(prim, *avals, **params):
    """Keep every output of tanh; recompute everything else."""
    asked.append(
        f"{prim.name}({', '.join(map(str, avals))}) {sorted(params)}"
    )
    return prim.name == "tanh"


print_saved_residuals(jax.checkpoint(two_layers, policy=save_tanh), w, x)
print("the policy was asked about:", *asked, sep="\n  ")
policies = jax.checkpoint_policies
for label, policy in (
    ("default", None),
    ("save_tanh", save_tanh),
    ("everything_saveable", policies.everything_saveable),
):
    starts, dots = backward(two_layers, policy)
    print(f"{label}: backward starts {starts}, {dots} dot_generals lowered")
