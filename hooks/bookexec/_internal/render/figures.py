"""Figures drawn at build time from recorded values: deterministic SVG made with matplotlib.

A snippet describes a chart with `bookexec.facts.figure` (its data are facts the same block
recorded, so the golden checks them under their bands), and the prose places it with
``{{figure:block-id.name}}`` on a line of its own. The build draws it here:

- the same data give byte-identical SVG: no date in the metadata, text kept as text
  (`svg.fonttype = "none"`, so no glyph outlines with generated ids), and the ids matplotlib
  derives from hashes are salted with the figure's name instead of a random salt;
- in a check build the data are the golden's recorded values, which this build's own
  measurement has just confirmed within their bands, so two builds draw the same file; the
  update mode, or a golden that is missing or drifted, draws this build's values;
- the alt text, which the snippet writes, is the SVG's `<title>` and the image's label.
"""

from __future__ import annotations

import html
import io
import json
import re
from typing import TYPE_CHECKING, Any

from bookexec._internal.goldens.measured import Fact

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

PREFIX = "figure "
REFERENCE = re.compile(r"^\{\{\s*figure:(?P<ref>[^{}\s]+)\s*\}\}\s*$")
REFERENCE_ANYWHERE = re.compile(r"\{\{\s*figure:(?P<ref>[^{}\s]+)\s*\}\}")


def parse_spec(fact: Fact) -> dict[str, Any] | None:
    """The chart a fact describes, or None when the fact is not a figure."""
    if fact.kind != "exact" or not str(fact.value).startswith(PREFIX):
        return None
    spec: dict[str, Any] = json.loads(str(fact.value)[len(PREFIX) :])
    return spec


def draw_svg(name: str, spec: dict[str, Any], values: dict[str, float]) -> str:
    """The chart as SVG text; the same spec and values always give the same bytes."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    style: dict[RcKeyType, Any] = {
        "svg.hashsalt": f"executed-book-{name}",
        "svg.fonttype": "none",
        "svg.image_inline": True,
        "font.family": "sans-serif",
        "font.size": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
    }
    markers = "os^Dv"
    with matplotlib.rc_context(style):
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        try:
            for i, (label, names) in enumerate(spec["series"].items()):
                ys = [values[n] for n in names]
                ax.plot(spec["x"], ys, marker=markers[i % len(markers)], label=label)
            ax.set_xlabel(spec["xlabel"])
            ax.set_ylabel(spec["ylabel"])
            ax.set_ylim(bottom=0)
            ax.grid(True, alpha=0.3)
            ax.legend(frameon=False)
            fig.tight_layout()
            out = io.StringIO()
            fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
        finally:
            plt.close(fig)
    return out.getvalue()


def figure_html(name: str, spec: dict[str, Any], values: dict[str, float], caption: str) -> str:
    """The figure as one raw HTML line for the page: inline SVG labelled by its alt text."""
    # At the precision a golden records them, so a value drawn as measured and the same
    # value read back from its golden give the same picture.
    values = {n: float(f"{v:.4g}") for n, v in values.items()}
    svg = draw_svg(name, spec, values)
    svg = svg[svg.index("<svg") :]  # drop the XML declaration and doctype: it is inline
    alt = html.escape(spec["alt"])
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{alt}" ', 1)
    svg = re.sub(r"(<svg[^>]*>)", rf"\1<title>{alt}</title>", svg, count=1)
    # matplotlib's ids (figure_1, axes_1, clip paths...) are unique within one SVG; inline,
    # two figures share a page, so each figure's ids get its name as a prefix.
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{name}-\1"', svg)
    svg = re.sub(r'(xlink:href="|url\()#', rf"\1#{name}-", svg)
    # One line, so Markdown passes it through as a single raw HTML block.
    svg = " ".join(line.strip() for line in svg.splitlines() if line.strip())
    return (
        f'<figure class="executed-book-figure" id="figure-{name}">{svg}'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )
