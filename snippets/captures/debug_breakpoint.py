import io  # hidden
import sys  # hidden

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# hidden: begin
# The commands a reader types at the (jdb) prompt, echoed as a terminal shows
# them: input() writes the prompt and reads the line from sys.stdin, which is
# not a terminal here.


class _Typed(io.StringIO):
    def readline(self, size=-1):
        line = super().readline(size)
        sys.stdout.write(line)
        return line


sys.stdin = _Typed("p x\np y\np scale\nc\n")
# hidden: end


@jax.jit
def log_total(x, scale):
    y = jnp.log(x) * scale
    jax.debug.breakpoint()  # stop here, at run time, with this call's values
    return y.sum()


total = log_total(jnp.array([1.0, 2.0, 0.0]), 2.0)
jax.effects_barrier()
sys.stdin = io.StringIO("")  # hidden
print("total:", total)
record("total", str(total))  # hidden
print(log_total.trace(jnp.ones(3), 2.0).jaxpr)
