import io

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# The commands you would type at the (jdb) prompt, given as a string. `stdin=` is a keyword
# jax.debug.breakpoint accepts but does not document: it may change in another release.
commands = io.StringIO("p x\np y\np scale\nc\n")


@jax.jit
def log_total(x, scale):
    y = jnp.log(x) * scale
    jax.debug.breakpoint(stdin=commands)  # stop here, at run time, with this call's values
    return y.sum()


total = log_total(jnp.array([1.0, 2.0, 0.0]), 2.0)
jax.effects_barrier()
print()  # the last (jdb) prompt ends without a newline
print("total:", total)
record("total", str(total))  # hidden
print(jax.make_jaxpr(log_total)(jnp.ones(3), 2.0))
