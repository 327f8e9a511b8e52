import ast
import importlib.util
import pathlib
from collections import Counter

from bookexec.facts import claim, record

# Locate the installed package without importing it.
root = pathlib.Path(importlib.util.find_spec("jax").origin).parent


def raised_name(node):
    exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
    return exc.attr if isinstance(exc, ast.Attribute) else getattr(exc, "id", None)


sites = Counter()
for path in sorted(root.rglob("*.py")):
    source = path.read_text(encoding="utf-8")
    if "ShardingTypeError" not in source:
        continue
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc and raised_name(node) == "ShardingTypeError":
            sites[path.relative_to(root.parent).as_posix()] += 1

for file, count in sorted(sites.items(), key=lambda kv: (-kv[1], kv[0])):  # ties by path
    print(f"{count:3}  {file}")
total = record("raise_sites", sum(sites.values()))
print(total, "raise sites in", record("files", len(sites)), "files")
record("in_lax_py", sites["jax/_src/lax/lax.py"])
claim("in_lax_py", ">", total / 2, says="most raise sites sit in jax/_src/lax/lax.py")
