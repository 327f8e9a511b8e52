"""Where JAX keeps what tests/e2e/test_mutation.py changes: run by it in a subprocess, prints JSON.

Arguments: primitive names, then `--errors` and exception class names. For each primitive, every
(module, attribute) of a module that a plain `import jax` loads where a Primitive of that name
lives, and whether it returns several results; for each error class, the module defining it
(`jax.errors` names them all). A worker preloads `import jax`, so a module found here is
patched, by the mutation hook, before any block runs.
"""

from __future__ import annotations

import json
import sys

import jax

loaded = set(sys.modules)  # what every worker has before its first block

import jax.errors  # noqa: E402
from jax._src.core import Primitive  # noqa: E402

args = sys.argv[1:]
split = args.index("--errors") if "--errors" in args else len(args)
wanted, errors = set(args[:split]), args[split + 1 :]

primitives: dict[str, list[dict]] = {name: [] for name in sorted(wanted)}
for module_name in sorted(loaded):
    module = sys.modules[module_name]
    if not module_name.startswith("jax._src.") or module is None:
        continue
    for attr, value in sorted(vars(module).items()):
        if isinstance(value, Primitive) and value.name in wanted and attr.endswith("_p"):
            primitives[value.name].append(
                {"module": module_name, "attr": attr, "multiple": bool(value.multiple_results)}
            )

copy = [
    {"module": m, "attr": a}
    for m in sorted(loaded)
    if m.startswith("jax._src.lax")
    for a, v in sorted(vars(sys.modules[m]).items())
    if isinstance(v, Primitive) and v.name == "copy"
]

error_modules = {}
for name in errors:
    cls = getattr(jax.errors, name, None)
    if isinstance(cls, type) and issubclass(cls, Exception) and cls.__module__ in loaded:
        error_modules[name] = cls.__module__

print(json.dumps({"primitives": primitives, "copy": copy, "errors": error_modules}))
