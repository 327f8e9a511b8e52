import jax
import jax.numpy as jnp


def layer(x):
    return jnp.tanh(x) * 2.0


# the same layer, but its body now differs by one primitive
def layer_changed(x):
    return jnp.sin(x) * 2.0


x = jnp.ones(3)
print(jax.make_jaxpr(layer)(x))  # what the golden recorded
print(jax.make_jaxpr(layer_changed)(x))  # what the next build printed
# hidden: begin
# The book's own check, on exactly these two outputs: the report the prose
# quotes.
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

from bookexec.facts import record  # noqa: E402
from bookexec.files import write_atomic  # noqa: E402
from bookexec.goldens.compare import compare  # noqa: E402
from bookexec.goldens.report import Report  # noqa: E402
from bookexec.jax.runtime import JaxRuntime  # noqa: E402

with tempfile.TemporaryDirectory() as folder:
    root = Path(folder)
    goldens = root / "tests" / "golden"
    page, block, snippet = "demo.md", "layer", "snippets/demo/layer.py"
    # What GOLDEN=update does: record the block's output as its golden.
    first = compare(
        goldens, page, block, snippet, f"{jax.make_jaxpr(layer)(x)}\n"
    )
    write_atomic(first.path, first.actual)
    # What the check mode does on the next build; the book's runtime classes
    # the drift.
    changed = f"{jax.make_jaxpr(layer_changed)(x)}\n"
    later = compare(
        goldens,
        page,
        block,
        snippet,
        changed,
        classify=JaxRuntime().classify,
    )
    report = Report(root, goldens, [later], stale=[])
    lines = "\n".join(report.check_lines()).splitlines()
    record("headline", next(ln for ln in lines if ln.startswith("DRIFTED")))
    record(
        "change",
        next(
            ln.strip()
            for ln in lines
            if ln.strip().startswith("structural:")
        ),
    )
    record(
        "by_class",
        next(ln for ln in lines if ln.startswith("drift by class")),
    )
    record("summary", report.summary())
# hidden: end
