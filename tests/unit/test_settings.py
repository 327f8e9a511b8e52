"""A build's settings: the plugin's options, each overridden by its environment variable."""

from __future__ import annotations

import dataclasses

import pytest

from bookexec._internal import settings
from bookexec._internal.errors import BookError
from bookexec._internal.execute.limits import Limits

pytestmark = pytest.mark.engine

OPTIONS = {
    "execute": True,
    "jobs": 3,
    "cache": "on",
    "slow": 2.5,
    "limits": {"timeout": 30, "output": 1000, "memory": 2**30},
    "serve": {"background": False, "refresh": 0, "wait": 1.5},
}


def test_the_options_are_the_settings_when_no_variable_is_set():
    read = settings.read(OPTIONS, {})
    assert read.mode == "check" and read.execute and read.cache is True
    assert (read.jobs, read.slow, read.hash_seed, read.auto) == (3, 2.5, "0", ())
    assert read.limits == Limits(timeout=30.0, output=1000, memory=2**30)
    assert read.serve == settings.Serve(background=False, refresh=0.0, wait=1.5)


def test_each_variable_overrides_its_option():
    environ = {
        "GOLDEN": "update",
        "BOOK_EXEC": "off",
        "BOOK_CACHE": "auto",
        "BOOK_JOBS": "1",
        "BOOK_SLOW": "9",
        "BOOK_BLOCK_TIMEOUT": "7",
        "BOOK_OUTPUT_LIMIT": "50",
        "BOOK_MEMORY_LIMIT": "512M",
        "BOOK_HASH_SEED": "11",
        "BOOK_SERVE_BACKGROUND": "yes",
        "BOOK_SERVE_REFRESH": "4",
        "BOOK_SERVE_WAIT": "0",
        "MARKDOWN_EXEC_AUTO": "python, py",
    }
    read = settings.read(OPTIONS, environ)
    assert read.mode == "update" and not read.execute and read.cache is None
    assert (read.jobs, read.slow, read.hash_seed, read.auto) == (1, 9.0, "11", ("python", "py"))
    assert read.limits == Limits(timeout=7.0, output=50, memory=512 * 2**20)
    assert read.serve == settings.Serve(background=True, refresh=4.0, wait=0.0)


def test_missing_options_take_the_defaults():
    read = settings.read({}, {})
    assert read == settings.Settings()
    assert read.limits == Limits()


def test_the_settings_hold_the_environment_as_it_was_and_cannot_change():
    environ = {"HOME": "/home/reader"}
    read = settings.read({}, environ)
    environ["HOME"] = "/elsewhere"
    assert read.environ["HOME"] == "/home/reader"
    with pytest.raises(TypeError):
        read.environ["HOME"] = "/x"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.jobs = 4  # type: ignore[misc]


def test_the_cache_key_follows_what_can_change_an_output():
    base = settings.read({}, {}).key()
    assert settings.read({"limits": {"timeout": 5}}, {}).key() != base
    assert settings.read({}, {"BOOK_HASH_SEED": "3"}).key() != base
    assert settings.read({"jobs": 1, "slow": 1}, {"BOOK_CACHE": "on"}).key() == base


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("BOOK_JOBS", "-2", "BOOK_JOBS='-2' is not a whole number of pages"),
        ("BOOK_SERVE_WAIT", "soon", "BOOK_SERVE_WAIT='soon' is not a number of seconds"),
        ("BOOK_MEMORY_LIMIT", "lots", "BOOK_MEMORY_LIMIT='lots' is not a size"),
        ("BOOK_HASH_SEED", "seven", "BOOK_HASH_SEED='seven' is not a hash seed"),
        ("GOLDEN", "upgrade", "GOLDEN='upgrade' is not a mode"),
        # Issue 38: the worker's clock overflowed on such a number of seconds.
        (
            "BOOK_BLOCK_TIMEOUT",
            "1e13",
            "BOOK_BLOCK_TIMEOUT='1e13' is not a positive number of seconds, at most 86400",
        ),
        (
            "BOOK_OUTPUT_LIMIT",
            "1000000000000",
            "BOOK_OUTPUT_LIMIT='1000000000000' is not a positive number of characters, at most "
            "1000000000",
        ),
        ("BOOK_MEMORY_LIMIT", "1e30T", "BOOK_MEMORY_LIMIT='1e30T' is not a size"),
    ],
)
def test_a_bad_variable_is_a_book_error_naming_it(name, value, says):
    with pytest.raises(BookError) as raised:
        settings.read({}, {name: value})
    assert str(raised.value).startswith(says)


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("timeout", 1e13, "expected a number of seconds, more than 0 and at most 86400"),
        ("output", 10**12, "expected a whole number of characters, more than 0 and at most"),
        ("memory", "2048T", "got '2048T'; a size may be at most 1024T"),
    ],
)
def test_a_plugin_limit_past_its_range_is_refused_by_the_config_check(option, value, says):
    """The same ranges as the fence options' (`bookexec._internal.discover.options`)."""
    from bookexec._internal.plugin import LimitsConfig

    config = LimitsConfig()
    config.load_dict({option: value})
    failed, _ = config.validate()
    assert [(name, says in str(error)) for name, error in failed] == [(option, True)]


def test_the_glossary_option_names_its_page_and_the_pages_it_skips():
    options = {"glossary": {"page": "glossary.md", "skip": ["guide/*"], "ignore": ["key"]}}
    read = settings.read(options, {})
    assert (read.glossary, read.glossary_skip) == ("glossary.md", ("guide/*",))
    assert read.glossary_ignore == ("key",)
    assert (settings.read({}, {}).glossary, settings.read({}, {}).glossary_skip) == ("", ())


def test_the_shown_line_length_is_off_unless_set_and_reaches_the_reading_of_pages():
    assert settings.read({}, {}).reading().shown_line_length == 0
    assert settings.read({"shown_line_length": 77}, {}).reading().shown_line_length == 77


@pytest.mark.parametrize("value", [-1, 7.5, "wide"])
def test_a_shown_line_length_that_is_no_whole_number_is_refused_by_the_config_check(value):
    from bookexec._internal.plugin import BookConfig

    config = BookConfig()
    config.load_dict({"shown_line_length": value})
    failed, _ = config.validate()
    assert [
        (name, "expected a whole number of characters" in str(error)) for name, error in failed
    ] == [("shown_line_length", True)]
