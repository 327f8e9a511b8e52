"""What an accelerator prints differently, classified (jaxbook.backends); the committed
records and the page generated from them (tests/other-backends/, docs/accelerators.md)."""

from __future__ import annotations

import pytest

from bookexec._internal.errors import BookError
from conftest import REPO, open_fixture
from jaxbook import backends
from jaxbook.backends import Record, classify, line_class


def record(output: str, result: str = "ok") -> Record:
    return Record("chapter/block", result, 0.1, output)


@pytest.mark.parametrize(
    ("cpu", "tpu", "kind"),
    [
        # the devices under the accelerator's names
        (
            "[CpuDevice(id=0)]",
            "[TpuDevice(id=0, process_index=0, coords=(0,0,0), core_on_chip=0)]",
            "device names",
        ),
        ("on cpu: 2.0", "on tpu: 2.0", "device names"),
        ("[CpuDevice(id=0), CpuDevice(id=1)]", "[TpuDevice(id=0, coords=(0,0,0))]", "device count"),
        ("8 devices", "1 devices", "device count"),
        # measured, with a unit
        ("eager: 1.52 ms per call", "eager: 3.90 ms per call", "timings"),
        ("jit is 14.3x faster", "jit is 2.1x faster", "timings"),
        # the last digits of a float32, and a TPU's default matmul precision
        ("[0.7615942 0.9640276]", "[0.7615941 0.9640275]", "float digits"),
        ("[[0.5403023 1.7551651]]", "[[0.5390625 1.7578125]]", "precision"),
        # a different value or truth
        ("jacfwd equals jacrev: True", "jacfwd equals jacrev: False", "real"),
        ("[1. 2.]", "[1. 3.]", "real"),
        ("has a while loop: True", "has a while loop: False", "real"),
    ],
)
def test_a_line_s_difference_has_its_class(cpu, tpu, kind):
    assert line_class(cpu, tpu) == kind


def test_a_block_s_classes_are_every_line_s_from_the_least_to_the_most_serious():
    cpu = "[CpuDevice(id=0)]\nvalue: [0.5403023]\nsame: True\ntook 1.0 ms\n"
    tpu = "[TpuDevice(id=0)]\nvalue: [0.5390625]\nsame: False\ntook 9.0 ms\n"
    assert classify(record(cpu), record(tpu)) == ("device names", "timings", "precision", "real")
    assert classify(record(cpu), record(cpu)) == ()


def test_object_ids_and_addresses_are_not_differences():
    cpu = "VmapTracer with object id 140 was created\n<function f at 0x7f01>\n"
    tpu = "VmapTracer with object id 977 was created\n<function f at 0x7e99>\n"
    assert classify(record(cpu), record(tpu)) == ()


def test_a_block_that_raises_on_one_backend_only_is_an_error():
    cpu = record("ok\n")
    tpu = record("ValueError: Number of devices 1 must be >= 8\n", "raised ValueError")
    assert classify(cpu, tpu) == ("error",)


def test_lines_only_one_backend_prints_are_real_unless_they_list_devices():
    assert classify(record("a\n"), record("a\nb\n")) == ("real",)
    more = record("CpuDevice(id=0)\nCpuDevice(id=1)\n")
    assert classify(more, record("TpuDevice(id=0)\n")) == ("device count",)


def write_records(root, key: str, cpu: str, tpu: str) -> None:
    """One block's record on each backend, as the runner writes it."""
    chapter, block = key.split("/")
    for name, text in ((backends.BASE, cpu), (backends.ACCELERATOR, tpu)):
        (root / backends.RECORDS / name / chapter).mkdir(parents=True)
        (root / backends.RECORDS / name / chapter / f"{block}.txt").write_text(
            f"block: docs/{chapter}.md#{block}\nresult: ok\nseconds: 0.1\n---\n{text}"
        )


def test_a_note_whose_block_prints_the_same_on_both_backends_fails(tmp_path):
    write_records(tmp_path, "derivatives/jacobians", "True\n", "True\n")
    (tmp_path / backends.NOTES).write_text(
        '[[note]]\ntitle = "A flip"\ntext = "..."\nblocks = ["derivatives/jacobians"]\n'
    )
    with pytest.raises(BookError, match="printed the same on both backends"):
        backends.render_page(open_fixture(tmp_path))
    assert "printed the same" in (backends.problems(open_fixture(tmp_path)) or "")


def test_a_chapter_note_quoting_a_line_the_record_lacks_fails(tmp_path):
    write_records(tmp_path, "derivatives/hvp", "same: True\n", "same: False\n")
    book = open_fixture(tmp_path)
    backends.write_page(book)
    note = (
        '!!! note "On a TPU"\n    <!-- on-accelerator: derivatives/hvp -->\n'
        "    It prints:\n\n    ```text\n    same: {}\n    ```\n"
    )
    (tmp_path / "docs" / "derivatives.md").write_text(note.format("False"))
    assert backends.problems(book) is None
    (tmp_path / "docs" / "derivatives.md").write_text(note.format("True"))
    assert "does not hold: 'same: True'" in (backends.problems(book) or "")


@pytest.mark.skipif(
    not (REPO / backends.RECORDS / backends.ACCELERATOR).is_dir(), reason="no records yet"
)
def test_the_committed_page_and_notes_match_the_committed_records():
    assert backends.problems(open_fixture(REPO)) is None


def test_the_drift_watch_says_when_the_records_are_another_jax_s(tmp_path):
    folder = tmp_path / backends.RECORDS / backends.ACCELERATOR
    folder.mkdir(parents=True)
    (folder / "RECORDED").write_text("name: tpu-v5e\njax: 0.10.2\ndate: 2026-12-06\n")
    said = backends.records_note(tmp_path, "0.12.0.1") or ""
    assert "made under JAX 0.10.2 on 2026-12-06, not 0.12.0.1" in said
    assert backends.records_note(tmp_path, "0.10.2") is None


# -- the committed records of a real TPU v5e and its machine's CPU, one JAX -----------------


def committed() -> tuple[dict[str, Record], dict[str, Record]]:
    folder = REPO / backends.RECORDS
    return backends.read_records(folder / backends.BASE), backends.read_records(
        folder / backends.ACCELERATOR
    )


def test_the_records_hold_every_block_of_every_chapter_on_both_backends():
    base, tpu = committed()
    assert len(base) > 300 and base.keys() == tpu.keys()
    made = backends.recorded(REPO / backends.RECORDS / backends.ACCELERATOR)
    assert (
        made["backend"] == "tpu"
        and made["jax"] == backends.recorded(REPO / backends.RECORDS / backends.BASE)["jax"]
    )


def test_every_chapter_runs_on_the_tpu_as_a_reader_pastes_it():
    """A block raises on the TPU only where it raises on the CPU, but for the two whose
    difference is the point: a kernel the CPU cannot compile, a lowering the TPU lacks."""
    base, tpu = committed()
    differ = sorted(k for k in base if base[k].result != tpu[k].result)
    assert differ == ["leaving-the-trace/export-checks", "leaving-the-trace/pallas-compiled"]
    assert tpu["leaving-the-trace/pallas-compiled"].result == "ok"


def test_the_multi_device_chapters_print_their_pages_outputs_on_the_tpu():
    base, tpu = committed()
    for key in base:
        if key.startswith(("sharding/", "collectives/")):
            assert set(classify(base[key], tpu[key])) <= {"device names"}, key


def test_the_four_flips_are_classified_from_the_records():
    base, tpu = committed()
    kinds = {key: classify(base[key], tpu[key]) for key in base}
    assert kinds["derivatives/jacobians"] == ("device names", "precision", "real")
    assert kinds["derivatives/hvp"] == ("timings", "real")
    assert kinds["derivatives/hvp-variants"] == ("real",)
    assert kinds["randomness/bits-lowering"] == ("real",)
    # the remedy the chapter shows: full precision prints the CPU's output on the TPU
    assert kinds["derivatives/jacobians-precision"] == ()
