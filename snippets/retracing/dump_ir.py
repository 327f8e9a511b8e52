import pathlib
import tempfile

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def deep(x):
    for _ in range(50):  # a Python loop: 50 copies of its body in the trace
        x = jnp.tanh(x) * 2.0
    return x


def shallow(x):
    return x + 1.0


# made before the dump starts, so its own small programs are not dumped
x = jnp.ones(4)
dump_dir = tempfile.mkdtemp()
jax.config.update("jax_dump_ir_to", dump_dir)
jax.config.update("jax_dump_ir_modes", "eqn_count_pprof")
jax.jit(deep)(x)
jax.jit(shallow)(x)
jax.config.update("jax_dump_ir_to", "")  # stop dumping

# Each name is jax_<counter>_<function>.<mode>; drop the counter, which
# counts every dump.
names = sorted(
    path.name.split("_", 2)[2] for path in pathlib.Path(dump_dir).iterdir()
)
print(names)
record("n_dumped", len(names))  # hidden
print("deep traced to", len(jax.make_jaxpr(deep)(x).eqns), "equations")
