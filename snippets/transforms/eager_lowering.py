import logging

import jax
from jax import lax
from jax.extend.core import primitives

# what runs when sin_p is applied to ordinary arrays
impl = primitives.sin_p.impl
print("sin_p's eager implementation:", impl.func.__name__, impl.args)


class CompileLog(logging.Handler):
    def emit(self, record):
        message = record.getMessage()
        # the name, not the shapes and timings after it
        if message.startswith("Compiling "):
            print("  log:", message.split(" with ")[0])


handler = CompileLog()
logging.getLogger("jax").addHandler(handler)
# forget programs compiled earlier, so that sin's is compiled anew
jax.clear_caches()
with jax.log_compiles():
    print("lax.sin(1.0) =", lax.sin(1.0))
logging.getLogger("jax").removeHandler(handler)
