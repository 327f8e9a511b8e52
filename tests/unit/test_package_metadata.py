"""What the package index shows of the engine, read from hooks/pyproject.toml and its README
with no build: the version the book pins and the changelog announces, a status that says the
API is stable, and project URLs that lead to the adopter's guide on the book's published site.

The site is published to GitHub Pages by .github/workflows/deploy.yml, whose address follows
the repository's: https://OWNER.github.io/REPO/ for https://github.com/OWNER/REPO.
"""

from __future__ import annotations

import re
import tomllib

import yaml

from conftest import REPO

ENGINE = REPO / "hooks" / "pyproject.toml"
REPOSITORY = re.compile(r"https://github\.com/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)/")
ADOPT = "guide/adopt.md"


def engine() -> dict:
    return tomllib.loads(ENGINE.read_text())["project"]


def test_the_book_pins_the_engine_s_version_and_the_changelog_announces_it():
    version = engine()["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{version}: not a final release"
    book = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    assert [d for d in book if d.startswith("executed-book")] == [
        f"executed-book[jax,figures,images]=={version}"
    ]
    assert f"\n## [{version}] - " in (REPO / "CHANGELOG.md").read_text()


def test_the_status_says_the_api_is_stable():
    statuses = [c for c in engine()["classifiers"] if c.startswith("Development Status")]
    assert statuses == ["Development Status :: 4 - Beta"]


def site_of(urls: dict[str, str]) -> str:
    """The GitHub Pages address of the repository the Source URL names."""
    found = REPOSITORY.match(urls["Source"])
    assert found, urls["Source"]
    return f"https://{found['owner'].lower()}.github.io/{found['repo']}/"


def page_url(site: str, page: str) -> str:
    """A page's address on the site, as MkDocs writes it (`use_directory_urls`)."""
    return site + page.removesuffix(".md") + "/"


def test_the_project_urls_lead_to_the_repository_and_the_adopter_s_guide():
    urls = engine()["urls"]
    assert sorted(urls) == ["Changelog", "Documentation", "Homepage", "Issues", "Source"]
    repository = REPOSITORY.match(urls["Source"])
    assert repository
    base = repository[0]
    assert urls["Changelog"] == f"{base}blob/main/CHANGELOG.md"
    assert urls["Issues"] == base + "issues"
    assert urls["Source"] == f"{base}tree/main/hooks"
    assert urls["Homepage"] == site_of(urls)
    assert urls["Documentation"] == page_url(site_of(urls), ADOPT)


def guide_pages() -> list[str]:
    config = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    pages: list[str] = []

    def walk(items: object) -> None:
        for item in items if isinstance(items, list) else []:
            for value in item.values() if isinstance(item, dict) else [item]:
                walk(value) if isinstance(value, list) else pages.append(value)

    walk(config["nav"])
    return pages


def test_the_adopter_s_guide_is_a_page_of_the_site_and_the_readme_links_it():
    assert ADOPT in guide_pages() and (REPO / "docs" / ADOPT).is_file()
    assert "guide/adopt-api.md" in guide_pages()
    readme = (REPO / "hooks" / "README.md").read_text()
    assert f"<{engine()['urls']['Documentation']}>" in readme
    # An address, never a path of the repository: the package index shows no repository.
    assert "docs/guide/" not in readme


def test_the_url_check_sees_a_guide_at_another_address():
    """The check above can fail: a Documentation URL that is not the guide's page is seen."""
    urls = {**engine()["urls"], "Documentation": "https://example.org/docs/"}
    assert urls["Documentation"] != page_url(site_of(urls), ADOPT)
