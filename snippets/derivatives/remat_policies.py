# two_layers, w and x come from the block above
import jax
from jax.ad_checkpoint import print_saved_residuals

from bookexec.facts import record  # hidden

policies = jax.checkpoint_policies

names = sorted(n for n in dir(policies) if not n.startswith("_"))
print("policies:", ", ".join(names))
record("policies", ", ".join(names))  # hidden
for old, new in (
    ("checkpoint_dots", "dots_saveable"),
    (
        "checkpoint_dots_with_no_batch_dims",
        "dots_with_no_batch_dims_saveable",
    ),
):
    print(
        f"{old} is {new}:", getattr(policies, old) is getattr(policies, new)
    )
for label, policy in (
    (
        "dots_with_no_batch_dims_saveable",
        policies.dots_with_no_batch_dims_saveable,
    ),
    (
        "save_any_names_but_these('hidden')",
        policies.save_any_names_but_these("hidden"),
    ),
    ("everything_saveable", policies.everything_saveable),
):
    print(label + ":")
    print_saved_residuals(jax.checkpoint(two_layers, policy=policy), w, x)
