# bump comes from the block above
import re

import jax

from bookexec.facts import record  # hidden


def fused_ops(fn, *args):
    """The opcodes in each fusion: a throwaway aid that parses XLA's text,
    which can change."""
    text = fn.lower(*args).compile().as_text()
    bodies = re.findall(r"^%fused\S* \(.*?\n(.*?)\n\}", text, re.S | re.M)
    ops = [re.findall(r"= \S+ (\w+)\(", body) for body in bodies]
    return [[op for op in body if op != "parameter"] for body in ops]


both = jax.jit(jax.grad(jax.jit(bump)))  # an outer jit around the two halves
calls = both.lower(0.5).as_text().count(" = call @")
fusions = fused_ops(both, 0.5)
print("calls in the lowered program:", calls)
print("fusions after XLA:", fusions)
record("calls", calls)  # hidden
record("fusions", len(fusions))  # hidden
