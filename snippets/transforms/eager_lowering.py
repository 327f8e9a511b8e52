import logging
import sys

import jax
import numpy as np
from jax import lax
from jax.extend.core import primitives

# what runs when sin_p is applied to ordinary arrays (.impl is internal,
# version-bound: for looking only)
impl = primitives.sin_p.impl
print("sin_p's eager implementation:", impl.func.__name__, impl.args)

# JAX's compile log, printed here; only its "Compiling" lines, since the
# others report timings
log = logging.StreamHandler(sys.stdout)
log.addFilter(lambda record: record.getMessage().startswith("Compiling"))
logging.getLogger("jax").addHandler(log)
# a float16 scalar: a type sin has not met yet, so its program compiles now
with jax.log_compiles():
    print("lax.sin(float16 1.0) =", lax.sin(np.float16(1.0)))
