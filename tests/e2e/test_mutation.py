"""A real change is always caught: mutations on the execution side turn the strict build red,
each naming the right block with the right drift class (issue 24).

Nothing here edits a golden. A scratch copy of the repository (the book's own mkdocs.yml, pages,
snippets and goldens) is built with the cache off and the mutation hook
(`tests/mutations/sitecustomize.py`) on PYTHONPATH, with a plan that changes, inside the
workers, one output of every kind the
  book has. The targets are found in the goldens when the test runs (a primitive that only
  one golden holds, a block that declares a JAX error no other golden prints, a claim between
  two timings, a figure, a fact the prose quotes, ...), each on a block of its own, so the
  report must list exactly the predicted (block, class) pairs and no other block may drift.

The mutated build runs only the chapters its mutations touch (the copy is cut to them and
their labs: `conftest.cut_book`), under the same other hash seed as the suite's one cold build
of the whole book (`built_book`), which judges the book's determinism: there every chapter block
and lab cell runs cold under that seed and equals its golden. So the whole book runs cold once
per suite.

The control is that shared green build: its pages are what the mutated pages are compared
with. That the hook without a plan changes nothing a block can see is shown on the
interpreter itself (`test_the_hook_without_a_plan_leaves_a_plain_interpreter`).

Each kind is a test of its own (`test_mutation_is_caught[<kind>]`), and the whole plan is
printed as a table: kind, target, expected class, class caught.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bookexec._internal.discover.blocks import Block, scan_page
from bookexec._internal.files import CachePaths
from bookexec._internal.goldens.store import Parsed, golden_path, parse
from bookexec._internal.jax.parse import is_jaxpr, split_output
from bookexec._internal.render.figures import parse_spec
from bookexec._internal.render.prose import REFERENCE, parse_reference
from bookexec._internal.render.stepper_html import parse_spec as parse_stepper
from conftest import MKDOCS, OTHER_SEED, REPO, cut_book
from jaxbook.labs import scan_lab

pytestmark = [pytest.mark.build, pytest.mark.timeout(3600)]

HOOK = REPO / "tests" / "mutations" / "sitecustomize.py"
INTROSPECT = REPO / "tests" / "mutations" / "introspect.py"
GOLDENS = REPO / "tests" / "golden"
# Every kind of output the book has; each must have a mutation that the build catches.
KINDS = (
    "jaxpr-renamed-primitive",
    "jaxpr-added-equation",
    "error-message",
    "plain-text",
    "count",
    "timing-claim",
    "fact-in-prose",
    "figure",
    "stepper-line",
    "lab-cell",
)
SLOWER = 50  # one side of a timing claim is made this many times slower
CLEAR_MARGIN = 3  # ... and the claim must fail by at least this factor
SUMMARY = re.compile(r"golden check: (\d+) blocks checked, (\d+) failed, (\d+) drifted")


@dataclass
class Mutation:
    """One change the plan makes, and what the report must say about it."""

    kind: str
    target: str  # in words, for the table
    plan_key: str  # the sitecustomize plan's list it goes into
    change: dict
    expected: set[tuple[str, str, str]]  # (page, block id, drift class)
    # Text that the drift's notes or aligned diff must hold (the change itself, named).
    named: str = ""
    extra: dict = field(default_factory=dict)


@dataclass
class Book:
    """The book's blocks with their parsed goldens, read once."""

    blocks: list[Block]
    goldens: dict[tuple[str, str], Parsed]
    texts: dict[tuple[str, str], str]  # the whole golden file of each block

    @classmethod
    def read(cls) -> Book:
        blocks = []
        for page in sorted((REPO / "docs").glob("*.md")):
            blocks += scan_page(page.name, page.read_text(), REPO)
        for lab in sorted((REPO / "docs" / "labs").glob("*.ipynb")):
            blocks += scan_lab(f"labs/{lab.name}", lab)
        texts = {(b.page, b.id): golden_path(GOLDENS, b.page, b.id).read_text() for b in blocks}
        return cls(blocks, {key: parse(text) for key, text in texts.items()}, texts)

    def holding(self, word: str) -> set[tuple[str, str]]:
        """The blocks whose golden holds `word` as a whole word, anywhere in the file."""
        pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
        return {key for key, text in self.texts.items() if pattern.search(text)}

    def naming(self, word: str) -> set[tuple[str, str]]:
        """The blocks whose code holds `word` as a whole word inside a string literal: code
        that looks a primitive up by its name (`"all_gather" in names`) behaves otherwise when
        the primitive is renamed, though its golden never prints the name."""
        pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
        return {(b.page, b.id) for b in self.blocks if any(map(pattern.search, _strings(b.code)))}

    def primitives(self) -> dict[str, set[tuple[str, str]]]:
        """Each primitive of a printed jaxpr, with the blocks whose goldens print it."""
        found: dict[str, set[tuple[str, str]]] = {}
        for key, golden in self.goldens.items():
            if not is_jaxpr(golden.output):
                continue
            try:
                segments = split_output(golden.output)
            except ValueError:  # a report quoting jaxpr lines as a diff: not a jaxpr
                continue
            for segment in segments:
                if segment.program:
                    jaxprs = [segment.program.main, *segment.program.defs.values()]
                    for name in _primitives_in(jaxprs):
                        found.setdefault(name, set()).add(key)
        return found


def _strings(code: str) -> list[str]:
    """Every string literal of a block's code (quoted spans of any line it cannot parse)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:  # a cell with IPython syntax: every quoted span of it
        return re.findall(r"(['\"])(.*?)\1", code)
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _primitives_in(jaxprs) -> set[str]:
    names: set[str] = set()
    todo = list(jaxprs)
    while todo:
        jaxpr = todo.pop()
        for eqn in jaxpr.eqns:
            names.add(eqn.primitive)
            for value in eqn.params.values():
                parts = value if isinstance(value, tuple) else (value,)
                todo += [part for part in parts if hasattr(part, "eqns")]
                todo += [
                    p for part in parts for p in getattr(part, "parts", ()) if hasattr(p, "eqns")
                ]
    return names


def _introspect(primitives: list[str], errors: list[str]) -> dict:
    proc = subprocess.run(
        [sys.executable, str(INTROSPECT), *primitives, "--errors", *errors],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(proc.stdout)


def _deepest(places: list[dict]) -> dict:
    """The module that makes an object rather than one that imports it: the longest name."""
    return max(places, key=lambda place: (place["module"].count("."), place["module"]))


def plan_mutations(book: Book) -> list[Mutation]:
    """One mutation per kind of output, each on blocks no other mutation touches."""
    used: set[tuple[str, str]] = set()
    mutations: list[Mutation] = []

    def take(mutation: Mutation) -> None:
        keys = {(page, block) for page, block, _ in mutation.expected}
        assert not keys & used, f"{mutation.kind}: {keys & used} already mutated"
        used.update(keys)
        mutations.append(mutation)

    # Primitives only one golden holds, as a primitive and as a word, and that no other
    # block's code names in a string (a lab check asking for the primitive by name).
    primitives = book.primitives()
    single = sorted(
        name
        for name, keys in primitives.items()
        if len(keys) == 1 and book.holding(name) == keys and book.naming(name) <= keys
    )
    raises: dict[str, set[tuple[str, str]]] = {}  # error class -> the blocks declaring it
    for b in book.blocks:
        if "raises" in b.options:
            raises.setdefault(b.options["raises"].rpartition(".")[2], set()).add((b.page, b.id))
    found = _introspect(single, sorted(raises))
    where = {
        name: _deepest([p for p in places if not p["multiple"]])
        for name, places in found["primitives"].items()
        if any(not p["multiple"] for p in places)
    }
    candidates = [name for name in single if name in where]
    assert len(candidates) >= 2, f"no two primitives held by one golden each: {single}"
    renamed = candidates[0]
    (key,) = primitives[renamed]
    new_name = f"{renamed}_mutated"
    take(
        Mutation(
            "jaxpr-renamed-primitive",
            f"primitive {renamed} ({where[renamed]['module']}.{where[renamed]['attr']}) "
            f"renamed {new_name}",
            "rename",
            {**where[renamed], "name": new_name},
            {(*key, "structural")},
            named=new_name,
        )
    )
    copy = _deepest(found["copy"])
    added = next(n for n in candidates[1:] if not primitives[n] & used)
    (key,) = primitives[added]
    take(
        Mutation(
            "jaxpr-added-equation",
            f"every bind of {added} binds one more primitive (copy)",
            "add_eqn",
            {**where[added], "extra_module": copy["module"], "extra_attr": copy["attr"]},
            {(*key, "structural")},
            named="= copy ",  # the added equation, in the aligned diff
        )
    )

    # A JAX error that only the goldens of the blocks declaring it with raises= print.
    # Other blocks may name the class (a table of what raises what) but not print its
    # message, which is what the mutation changes: `Cls: message` is never in their goldens.
    def others_print_no_message(cls: str) -> bool:
        others = book.holding(cls) - raises[cls]
        return all(f"{cls}:" not in book.texts[key] for key in others)

    for cls in sorted(
        found["errors"], key=lambda c: (len(book.holding(c) - raises[c]), len(raises[c]), c)
    ):
        keys = raises[cls]
        if keys <= book.holding(cls) and others_print_no_message(cls) and not keys & used:
            prefix = "mutated message: "
            names = ", ".join(sorted(block for _, block in keys))
            take(
                Mutation(
                    "error-message",
                    f"{cls}'s message starts with {prefix!r} (raises={cls}: {names})",
                    "error",
                    {"module": found["errors"][cls], "cls": cls, "prefix": prefix},
                    {(*key, "text") for key in keys},
                    named=prefix,
                )
            )
            break
    timing_claim(book, used, take)
    figure(book, used, take)
    stepper_line(book, used, take)
    quoted = fact_in_prose(book, used, take)
    count(book, used, take, quoted)
    printed(book, used, take, labs=False)
    printed(book, used, take, labs=True)
    missing = set(KINDS) - {m.kind for m in mutations}
    assert not missing, f"no target in the book for: {sorted(missing)}"
    return mutations


def timing_claim(book: Book, used: set, take) -> None:
    """A claim between two timings of one block, with one side made SLOWER times slower:
    the side that must stay smaller, chosen where the claim then fails by the widest margin."""
    best = None
    for block in book.blocks:
        key = (block.page, block.id)
        golden = book.goldens[key]
        timings = {f.name: float(f.value) for f in golden.facts if f.kind == "timing"}
        for claim in golden.claims:
            if key in used or claim.left not in timings or claim.right not in timings:
                continue
            big, small = (claim.left, claim.right) if ">" in claim.op else (claim.right, claim.left)
            margin = SLOWER * timings[small] / timings[big]
            if best is None or margin > best[0]:
                best = (margin, block, claim, small)
    assert best is not None, "no claim between two timings of one block"
    margin, block, claim, slowed = best
    assert margin >= CLEAR_MARGIN, f"{block.id}: {SLOWER}x slower breaks the claim by only {margin}"
    take(
        Mutation(
            "timing-claim",
            f"{slowed} of block {block.id} made {SLOWER}x slower: claim "
            f"{claim.left} {claim.op} {claim.right} must fail (by x{margin:.1f})",
            "timing",
            {"snippet": block.snippet, "name": slowed, "factor": SLOWER},
            {(block.page, block.id, "text")},
            named=slowed,
            extra={"claim": f"{claim.left} {claim.op} {claim.right}"},
        )
    )


def figure(book: Book, used: set, take) -> None:
    """A figure's data: its last x value moved by one."""
    for block in book.blocks:
        key = (block.page, block.id)
        for fact in book.goldens[key].facts:
            spec = parse_spec(fact)
            if key not in used and spec is not None:
                moved = [*spec["x"][:-1], spec["x"][-1] + 1]
                take(
                    Mutation(
                        "figure",
                        f"figure {fact.name} of block {block.id}: last x value + 1",
                        "figure",
                        {"snippet": block.snippet, "name": fact.name, "dx": 1},
                        {(block.page, block.id, "text")},
                        named=f'"x": {json.dumps(moved)}',  # in the new spec the report quotes
                        extra={"page": block.page, "figure": fact.name},
                    )
                )
                return


def stepper_line(book: Book, used: set, take) -> None:
    """A trace stepper's mapping: the line JAX records for one equation moved to the line
    above it, as a JAX that attributed equations differently would; the printed jaxpr is the
    same, so only the stepper's facts can catch it."""
    for block in book.blocks:
        key = (block.page, block.id)
        for fact in book.goldens[key].facts:
            spec = parse_stepper(fact)
            if key in used or spec is None:
                continue
            numbers = [line["number"] for line in spec["source"]]
            lines = sorted({row["line"] for row in spec["jaxpr"] if row["eqn"] and row["line"]})
            moves = [(old, old - 1) for old in lines if old - 1 in numbers]
            if not moves:
                continue
            old, new = moves[-1]
            take(
                Mutation(
                    "stepper-line",
                    f"stepper {fact.name} of block {block.id}: equations of line {old} "
                    f"recorded at line {new}",
                    "source_line",
                    {"snippet": block.snippet, "old": old, "new": new},
                    {(block.page, block.id, "text")},
                    named=f"{fact.name}_lines = ",  # the summary line, in the added lines
                )
            )
            return


def _prose_references() -> dict[tuple[str, str, str], str]:
    """(page, block, name) of every fact the prose quotes -> the page quoting it."""
    quoted = {}
    for page in sorted((REPO / "docs").glob("*.md")):
        for match in REFERENCE.finditer(page.read_text()):
            try:
                target, block, name, release = parse_reference(match["ref"], page.name)
            except ValueError:
                continue
            if release is None:
                quoted.setdefault((target, block, name), page.name)
    return quoted


def _counts(book: Book, key: tuple[str, str]) -> list[tuple[str, int]]:
    """The block's recorded counts: exact values that are whole numbers (a golden keeps every
    exact value as text)."""
    return [
        (f.name, int(str(f.value)))
        for f in book.goldens[key].facts
        if f.kind == "exact" and re.fullmatch(r"-?\d+", str(f.value))
    ]


def fact_in_prose(book: Book, used: set, take) -> set[tuple[str, str, str]]:
    """A count the prose quotes, changed by one: the block drifts, and the page's sentence
    shows the new value."""
    quoted = _prose_references()
    for block in book.blocks:
        key = (block.page, block.id)
        for name, value in _counts(book, key):
            if key not in used and (block.page, block.id, name) in quoted:
                take(
                    Mutation(
                        "fact-in-prose",
                        f"count {name} of block {block.id} ({value} -> {value + 1}), quoted "
                        f"in docs/{quoted[(block.page, block.id, name)]}",
                        "record",
                        {"snippet": block.snippet, "name": name, "delta": 1},
                        {(block.page, block.id, "text")},
                        named=f"{name} = {value} -> {value + 1}",
                        extra={"page": quoted[(block.page, block.id, name)], "old": value},
                    )
                )
                return set(quoted)
    return set(quoted)


def count(book: Book, used: set, take, quoted: set) -> None:
    """A recorded count no sentence quotes, changed by one; a trace counter if there is one."""
    found = [
        (not name.startswith("trace"), block.page, block.id, name, value, block)
        for block in book.blocks
        for name, value in _counts(book, (block.page, block.id))
        if (block.page, block.id) not in used and (block.page, block.id, name) not in quoted
    ]
    assert found, "no recorded count outside the prose"
    _, page, block_id, name, value, block = min(found, key=lambda f: f[:4])
    take(
        Mutation(
            "count",
            f"count {name} of block {block_id} ({value} -> {value + 1})",
            "record",
            {"snippet": block.snippet, "name": name, "delta": 1},
            {(page, block_id, "text")},
            named=f"{name} = {value} -> {value + 1}",
        )
    )


def printed(book: Book, used: set, take, labs: bool) -> None:
    """A word in plain printed text (no jaxpr, no recorded values, no error), which no other
    golden holds and which the block's code passes to `print`: written in other letters."""
    others_text = "\n".join(book.texts.values())
    for block in book.blocks:
        key = (block.page, block.id)
        golden = book.goldens[key]
        is_lab = block.page.endswith(".ipynb")
        if key in used or is_lab != labs or "raises" in block.options:
            continue
        if golden.facts or golden.claims or is_jaxpr(golden.output):
            continue
        print_lines = "\n".join(line for line in block.code.splitlines() if "print(" in line)
        for word in sorted(set(re.findall(r"\b[a-z]{5,}\b", golden.output))):
            if word in print_lines and others_text.count(word) == book.texts[key].count(word):
                take(
                    Mutation(
                        "lab-cell" if labs else "plain-text",
                        f"{'lab ' + block.page + ', cell' if labs else 'block'} {block.id}: "
                        f"printed word {word!r} written {word.upper()!r}",
                        "print",
                        {"snippet": block.snippet, "old": word, "new": word.upper()},
                        {(block.page, block.id, "text")},
                        named=word.upper(),
                    )
                )
                return


def test_the_hook_without_a_plan_leaves_a_plain_interpreter(tmp_path):
    """What the census blocks count (modules, import hooks) is the same with the inert hook on
    PYTHONPATH as without it: what the mutated build changes comes from its plan alone."""
    shutil.copy(HOOK, tmp_path / "sitecustomize.py")
    probe = (
        "import json, sys; print(json.dumps([sorted(sys.modules), list(map(repr, sys.meta_path))]))"
    )
    seen = []
    for path in ("", str(tmp_path)):
        env = {**os.environ, "PYTHONPATH": path}
        out = subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
        )
        assert out.stderr == "", out.stderr  # an error in sitecustomize is printed, not raised
        # An import hook's repr may hold its address (setuptools' distutils finder does),
        # which differs between two processes: the hooks are compared without it.
        seen.append(json.loads(re.sub(r" at 0x[0-9a-fA-F]+", "", out.stdout)))
    assert seen[0] == seen[1]


# -- the two builds ----------------------------------------------------------------------------


def scratch_copy(root: Path) -> Path:
    """The repository as it stands, without its venv, caches, built site or git folder."""
    ignore = shutil.ignore_patterns(
        ".venv",
        ".cache",
        "site",
        ".git",
        "__pycache__",
        ".pytest_cache",
        ".ruff_cache",
        ".mypy_cache",
    )
    shutil.copytree(REPO, root, ignore=ignore, symlinks=True)
    return root


def build(root: Path, hook_dir: Path, site_dir: Path, log: Path) -> tuple[int, str, dict | None]:
    """The real strict check, cache off, under the other hash seed, with the hook folder on
    PYTHONPATH."""
    path = os.pathsep.join(filter(None, [str(hook_dir), os.environ.get("PYTHONPATH")]))
    env = {
        **os.environ,
        "GOLDEN": "check",
        "BOOK_CACHE": "off",
        "BOOK_HASH_SEED": OTHER_SEED,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONPATH": path,
    }
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(site_dir)],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=1800,
    )
    log.write_text(proc.stdout)
    report = CachePaths(root).report
    data = json.loads(report.read_text()) if report.is_file() else None
    return proc.returncode, proc.stdout, data


@dataclass
class Run:
    blocks: int  # the chapters' the mutated build runs, labs included
    mutations: list[Mutation]
    mutated: tuple[int, str, dict | None]
    control_site: Path
    mutated_site: Path


@pytest.fixture(scope="module")
def run(tmp_path_factory, built_book) -> Run:
    base = tmp_path_factory.mktemp("mutation")
    book = Book.read()
    mutations = plan_mutations(book)
    plan: dict[str, list[dict]] = {}
    for mutation in mutations:
        plan.setdefault(mutation.plan_key, []).append(mutation.change)
    active = base / "hook-active"
    active.mkdir()
    shutil.copy(HOOK, active / "sitecustomize.py")
    (active / "mutation_plan.txt").write_text(repr(plan))
    root = scratch_copy(base / "book")
    # Only the chapters (and labs) the mutations touch run: a chapter and its lab share a stem.
    chapters = {Path(page).stem for m in mutations for page, _, _ in m.expected}
    cut_book(root, chapters)
    blocks = sum(1 for b in book.blocks if Path(b.page).stem in chapters)
    mutated = build(root, active, base / "site-mutated", base / "mutated.log")
    print(f"\nplan: {plan}\nchapters: {sorted(chapters)}\nlog: {base / 'mutated.log'}")
    return Run(blocks, mutations, mutated, built_book, base / "site-mutated")


def _entries(data: dict | None) -> list[dict]:
    assert data is not None, "the failed build left no report"
    return data["entries"]


def test_the_mutated_build_is_red_and_lists_exactly_the_mutated_blocks(run):
    """Exactly the mutated blocks drift, each as predicted; every other block of the chapters
    it runs, cold under the other hash seed, equals its golden."""
    code, log, report = run.mutated
    entries = _entries(report)
    caught = {(e["page"], e["block_id"], e["kind"]) for e in entries}
    expected = set().union(*(m.expected for m in run.mutations))
    rows = []
    for m in run.mutations:
        for page, block, kind in sorted(m.expected):
            got = sorted(k for p, b, k in caught if (p, b) == (page, block)) or ["(not caught)"]
            rows.append(
                f"| {m.kind} | {m.target} | docs/{page}#{block} | {kind} | {', '.join(got)} |"
            )
    print("\n| output | mutation | block | expected | caught |\n| --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    assert code != 0, log[-3000:]
    failed = [e["notes"] for e in entries if e["kind"] == "failed"]
    assert failed == [], failed
    assert caught == expected, f"not predicted: {caught - expected}; missed: {expected - caught}"
    (summary,) = SUMMARY.findall(log)[-1:]
    assert int(summary[1]) == 0 and int(summary[2]) == len(expected), summary
    assert int(summary[0]) == run.blocks > 50, summary  # those chapters ran, labs included


@pytest.mark.parametrize("kind", KINDS)
def test_mutation_is_caught(run, kind):
    (mutation,) = [m for m in run.mutations if m.kind == kind]
    entries = _entries(run.mutated[2])
    for page, block, drift_class in mutation.expected:
        listed = [e for e in entries if (e["page"], e["block_id"]) == (page, block)]
        assert len(listed) == 1, f"{mutation.target}: docs/{page}#{block} not caught"
        (entry,) = listed
        assert entry["kind"] == drift_class, (mutation.target, entry["notes"])
        # The change itself, in what the report says: the notes, the aligned or the text diff
        # (its added lines only: context lines hold what the golden had anyway).
        added = [line for line in entry["diff"].splitlines() if line.startswith("+")]
        said = "\n".join([*entry["notes"], entry["aligned"], *added])
        assert mutation.named in said, (mutation.target, said)
        line = f"DRIFTED ({drift_class}): "
        assert line in run.mutated[1] and f"'{block}'" in run.mutated[1]
        if kind == "timing-claim":  # the claim itself is named as broken, never accepted
            assert any(mutation.extra["claim"] in broken for broken in entry["broken"]), entry
    if kind == "fact-in-prose":
        _prose_shows_the_new_value(run, mutation)
    if kind == "figure":
        _figure_is_drawn_from_the_new_data(run, mutation)


def _built(site: Path, page: Path) -> bool:
    return (site / ("" if page.stem == "index" else page.stem) / "index.html").is_file()


def _page_html(site: Path, page: str) -> str:
    stem = Path(page).with_suffix("")
    return (site / ("" if stem.name == "index" else stem) / "index.html").read_text()


_MEASURED = re.compile(r'(<span class="executed-book-(?:measured|build-date)"[^>]*>).*?(</span>)')


_CARD = re.compile(
    r'<span class="executed-book-card".*?executed-book-card-taught.*?</a></span>', re.S
)


def _paragraphs(html: str) -> list[str]:
    """The words of the paragraphs and list items of the page's article: not its nav, which
    the cut copy the mutated build ran has fewer pages in."""
    article = re.search(r"<article\b.*?</article>", html, re.S)
    assert article, "the page has no article"
    found = re.findall(r"<(p|li)\b[^>]*>(.*?)</\1>", article[0], re.S)
    # Their words, without the glossary's cards: a link to, and a card's "taught in", a
    # chapter the cut copy left out are rendered otherwise.
    words = [_CARD.sub("", _MEASURED.sub(r"\1…\2", text)) for _, text in found]
    return [re.sub(r"<[^>]+>", "", text) for text in words]


def _prose_shows_the_new_value(run: Run, mutation: Mutation) -> None:
    """The sentence quoting the count says the new value: the reader would read it."""
    page, old = mutation.extra["page"], mutation.extra["old"]
    before = _paragraphs(_page_html(run.control_site, page))
    after = _paragraphs(_page_html(run.mutated_site, page))
    assert len(before) == len(after)
    changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    digits = re.compile(r"\d+")
    assert any(
        str(old) in b and str(old + 1) in a and digits.sub("#", b) == digits.sub("#", a)
        for b, a in changed
    ), changed


def _figure_is_drawn_from_the_new_data(run: Run, mutation: Mutation) -> None:
    """The figure on the page is drawn from the perturbed data, not from the golden's."""
    name = mutation.extra["figure"]
    figure_html = re.compile(rf'<figure\b[^>]*\bid="figure-{name}".*?</figure>', re.S)
    drawn = []
    # The chapters the mutated build ran (the cut copy's), on both sites.
    ran = [p.name for p in sorted((REPO / "docs").glob("*.md")) if _built(run.mutated_site, p)]
    for site in (run.control_site, run.mutated_site):
        pages = [_page_html(site, page) for page in ran]
        drawn.append([m[0] for html in pages if (m := figure_html.search(html))])
    assert len(drawn[0]) == len(drawn[1]) == 1, f"figure {name} is not on exactly one page"
    assert drawn[0] != drawn[1], f"figure {name} is drawn as before"
