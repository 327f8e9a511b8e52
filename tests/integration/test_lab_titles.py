"""A lab's title comes from one place, the nav of mkdocs.yml, as a Markdown page's does: a
clean build and a rebuild that does not render the lab (`mkdocs serve --dirty`) show the same
(issue 41: under serve some pages named a lab by its nav title, others by its notebook's)."""

from __future__ import annotations

import re

import pytest
from test_labs import configure_labs

pytestmark = pytest.mark.build

NAV = "nav:\n  - Home: index.md\n  - Labs:\n      - 'Demo: square a number': labs/demo.ipynb\n"


def titles(html: str) -> tuple[str, list[str]]:
    """The page's <title>, and the texts of the nav's entries for the lab (the fixture's theme
    is MkDocs' own: a dropdown item, marked active on the lab's own page)."""
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    assert title, html[:500]
    items = re.findall(
        r'<a href="(?:[^"]*labs/demo/|\./)" class="dropdown-item[^"]*"[^>]*>([^<]*)<', html
    )
    return title[1].strip(), [item.strip() for item in items]


def test_a_lab_is_titled_by_its_nav_entry_on_every_page(site):
    configure_labs(site)
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text().replace("plugins:", NAV + "plugins:", 1))
    built = site.build("update")
    assert built.returncode == 0, built.output
    lab_title, lab_nav = titles((site.root / "site" / "labs" / "demo" / "index.html").read_text())
    _, home_nav = titles((site.root / "site" / "index.html").read_text())
    # The notebook's own heading ("Lab: demo") stays its page's first heading, not its title.
    assert lab_title.startswith("Demo: square a number"), lab_title
    assert home_nav and all(text == "Demo: square a number" for text in home_nav), home_nav
    assert lab_nav and all(text == "Demo: square a number" for text in lab_nav), lab_nav
