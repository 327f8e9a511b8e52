# block (sin of sin), stack and step (a scan over layers) come from the blocks above
import jax
import jax.numpy as jnp


def barriers_recomputed(grad, args, op):
    """Barriers in the lowered gradient, and how many `op`s XLA left in its backward pass."""
    lowered = jax.jit(grad).lower(*args)
    barriers = lowered.as_text().count("stablehlo.optimization_barrier")
    compiled = lowered.compile().as_text().splitlines()
    # each instruction's metadata names its transformation: transpose(...) is the backward pass
    backward = sum(f" {op}(" in line and "transpose(" in line for line in compiled)
    return barriers, backward


def alone(cse):  # block's value is read, so the forward pass computes it
    return jax.grad(lambda x: jnp.sum(jax.checkpoint(block, prevent_cse=cse)(x) ** 2))


for cse in (True, False):
    in_scan = jax.grad(stack(jax.checkpoint(step, prevent_cse=cse)))
    print(f"prevent_cse={cse}:")
    print("  alone:   barriers, sines recomputed", barriers_recomputed(alone(cse), [x], "sine"))
    print("  in scan: barriers, tanhs recomputed", barriers_recomputed(in_scan, [ws, x], "tanh"))
