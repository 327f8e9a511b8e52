# ring, xs and P come from the first block
import jax


def forgot_psum(block):
    return block * 2.0  # a different block on each device


# jit is not needed for the check: called directly, shard_map raises the
# same error, but its message names an internal wrapper, not forgot_psum.
jax.jit(
    jax.shard_map(forgot_psum, mesh=ring, in_specs=P("i"), out_specs=P())
)(xs)
