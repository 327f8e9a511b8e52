import logging

import jax
from jax import lax
from jax.extend.core import primitives

impl = primitives.sin_p.impl  # what runs when sin_p is applied to ordinary arrays
print("sin_p's eager implementation:", impl.func.__name__, impl.args)


class CompileLog(logging.Handler):
    def emit(self, record):
        message = record.getMessage()
        if message.startswith("Compiling "):  # the name, not the shapes and timings after it
            print("  log:", message.split(" with ")[0])


handler = CompileLog()
logging.getLogger("jax").addHandler(handler)
jax.clear_caches()  # forget programs compiled earlier, so that sin's is compiled anew
with jax.log_compiles():
    print("lax.sin(1.0) =", lax.sin(1.0))
logging.getLogger("jax").removeHandler(handler)
