import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp

from bookexec.files import write_atomic
from bookexec.goldens.compare import compare
from bookexec.goldens.report import Report
from bookexec.jax.runtime import JaxRuntime


def layer(x):
    return jnp.tanh(x) * 2.0


def layer_changed(x):  # the same layer, but its body now differs by one primitive
    return jnp.sin(x) * 2.0


x = jnp.ones(3)
with tempfile.TemporaryDirectory() as folder:
    root = Path(folder)
    goldens = root / "tests" / "golden"
    page, block, snippet = "demo.md", "layer", "snippets/demo/layer.py"

    # What GOLDEN=update does: record the block's output as its golden.
    first = compare(goldens, page, block, snippet, f"{jax.make_jaxpr(layer)(x)}\n")
    write_atomic(first.path, first.actual)

    # What the check mode does on the next build, when the output has changed; the book's
    # runtime reads the jaxprs as programs to class the drift.
    changed = f"{jax.make_jaxpr(layer_changed)(x)}\n"
    later = compare(goldens, page, block, snippet, changed, classify=JaxRuntime().classify)
    report = Report(root, goldens, [later], stale=[])
    for line in report.check_lines():
        print(line)
    print(report.summary())
