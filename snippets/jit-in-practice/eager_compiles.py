import logging

import jax

from bookexec.facts import record  # hidden

# normalise_once and x from the one-shot block above
compiled = []


class Names(logging.Handler):
    def emit(self, rec):
        words = rec.getMessage().split()
        # "Compiling jit(<name>) with global shapes and types ..."
        if words[0] == "Compiling":
            compiled.append(words[1])


names = Names()
logging.getLogger("jax").addHandler(names)
jax.clear_caches()  # forget the programs the earlier eager calls left behind
with jax.log_compiles():
    normalise_once(x)  # eagerly, no jax.jit
logging.getLogger("jax").removeHandler(names)
print(len(compiled), "programs compiled by one eager call:")
print(" ".join(compiled))
record("count", len(compiled))  # hidden
record("programs", ", ".join(f"`{name}`" for name in compiled))  # hidden
