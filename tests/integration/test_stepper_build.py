"""The trace stepper through the real build: a hidden call records the mapping, the golden
keeps it, the page shows it (whole without JavaScript) with the plugin's own assets, and a JAX
that records an equation at another line fails the strict build naming the block."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import REPO

pytestmark = pytest.mark.build

PAGE = """\
# Stepper

```python exec="on" id="relu"
--8<-- "snippets/stepper/relu.py"
```

{{stepper:relu.steps}}
"""

SNIPPET = """\
import jax.numpy as jnp

from bookexec.jax.stepper import stepper  # hidden


def relu_affine(x):
    y = 2 * x + 1
    print("tracing with", x)
    return jnp.maximum(y, 0)


print(relu_affine(2.0))
stepper("steps", relu_affine, 2.0, again=[(3.0,)])  # hidden
"""
HOOK = REPO / "tests" / "mutations" / "sitecustomize.py"


def stepper_book(site):
    site.page("stepper.md", PAGE)
    site.snippet("stepper/relu.py", SNIPPET)
    written = site.build("update")
    assert written.returncode == 0, written.output


@pytest.fixture
def stepped(prebuilt, tmp_path):
    return prebuilt(stepper_book, tmp_path)


def numbers(site) -> tuple[int, int]:
    """The lines of `y = 2 * x + 1` and of the `return`, as the reader's copy numbers them
    (the hidden lines left out), read from the recorded mapping."""
    golden = site.goldens()["stepper/relu.txt"]
    steps = json.loads(golden.split("steps = stepper ", 1)[1].splitlines()[0])
    by_text = {line["text"].strip(): line["number"] for line in steps["source"]}
    return by_text["y = 2 * x + 1"], by_text["return jnp.maximum(y, 0)"]


def test_the_golden_records_the_mapping_and_the_page_shows_it_whole(stepped):
    golden = stepped.goldens()["stepper/relu.txt"]
    assert "steps = stepper {" in golden
    affine, maximum = numbers(stepped)
    assert f"steps_lines = {affine}: mul add | {affine + 1}: print | {maximum}: max\n" in golden
    assert "JitTracer" not in golden.split("--- facts ---")[0]  # kept, not printed twice
    html = (stepped.root / "site" / "stepper" / "index.html").read_text()
    assert 'class="executed-book-stepper"' in html
    # every equation labelled with its line, every line saying what it recorded: no script
    assert f'<li class="eb-jx eb-eqn" data-line="{affine}"><code>    b:f32[] = mul' in html
    assert f'data-line="{maximum}"><code>    d:f32[] = max' in html
    assert f'<span class="eb-label">line {maximum}</span>' in html
    assert "records 2 equations" in html and "records nothing, prints tracing with" in html
    assert "nothing traced, nothing printed" in html
    # the plugin's own assets, linked from the page and written into the site
    for name in ("stepper.js", "stepper.css"):
        assert f"assets/executed-book/{name}" in html
        assert (stepped.root / "site" / "assets" / "executed-book" / name).is_file()


def test_an_equation_jax_records_at_another_line_fails_the_strict_build(stepped, tmp_path):
    affine, maximum = numbers(stepped)
    hook = tmp_path / "hook"
    hook.mkdir()
    shutil.copy(HOOK, hook / "sitecustomize.py")
    plan = {"source_line": [{"snippet": "stepper/relu.py", "old": maximum, "new": affine}]}
    (hook / "mutation_plan.txt").write_text(repr(plan))
    before = stepped.goldens()
    result = stepped.build(PYTHONPATH=str(hook), BOOK_CACHE="off")
    assert result.returncode != 0, result.output
    assert "page docs/stepper.md, block 'relu'" in result.output
    # the short line says what moved: the `max` now recorded by the line of `y = 2 * x + 1`
    assert f"+steps_lines = {affine}: mul add max | {affine + 1}: print\n" in result.output
    print(result.output)  # the drift as the author sees it, for the record
    assert stepped.goldens() == before


def test_a_stepper_the_block_did_not_record_fails_naming_page_and_line(stepped):
    stepped.page("stepper.md", PAGE.replace("relu.steps", "relu.nosuch"))
    result = stepped.build()
    assert result.returncode != 0
    assert "docs/stepper.md:7: block 'relu' recorded no stepper 'nosuch'" in result.output
