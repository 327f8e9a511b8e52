"""The jaxpr lexer: found by Pygments under its name, lossless, and marking the parts of a jaxpr."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import pytest
from pygments.lexers import get_lexer_by_name
from pygments.token import Error, Keyword, Name, Number, Operator, Punctuation, Text, Whitespace

from bookexec._internal.goldens.store import parse as parse_golden
from bookexec._internal.jax.parse import JaxprSyntaxError, split_output


def tokens(text: str) -> list[tuple]:
    return list(get_lexer_by_name("jaxpr").get_tokens(text))


def test_a_real_jaxpr_round_trips_and_its_parts_are_marked():
    text = str(jax.make_jaxpr(lambda W, x: jnp.tanh(x @ W + 1.0))(jnp.ones((3, 4)), jnp.ones(3)))
    found = tokens(text)
    assert "".join(value for _, value in found) == text + "\n"
    kinds = {value: kind for kind, value in found}
    assert kinds["dot_general"] is Name.Function and kinds["tanh"] is Name.Function
    assert kinds["f32[3,4]"] is Keyword.Type
    assert kinds["dimension_numbers"] is Name.Attribute
    assert kinds["{ lambda"] is Keyword and kinds["let"] is Keyword


def marked(text: str) -> list[tuple]:
    """The non-blank tokens of a text, as (token type, value) pairs."""
    return [(kind, value) for kind, value in tokens(text) if value.strip()]


@pytest.mark.parametrize(
    "written",
    [
        "f32[]",
        "~f32[]",
        "f32[4,8]",
        "f32[8@x,16@y]",
        "float32<host>[8@x,16@y]",
        "f32[2]<host>",
        "key<fry>[]",
        "bool[4]",
        "i32[3]",
        "bf16[2,2]",
    ],
)
def test_each_form_of_type_is_one_type_token(written):
    assert marked(f"a:{written}") == [
        (Name.Variable, "a"),
        (Punctuation, ":"),
        (Keyword.Type, written),
    ]


def test_underscore_binders_and_typed_literals():
    found = marked("_:f32[] = mul a 2.0:f32[]")
    assert found == [
        (Name.Variable, "_"),
        (Punctuation, ":"),
        (Keyword.Type, "f32[]"),
        (Operator, "="),
        (Name.Function, "mul"),
        (Name, "a"),
        (Number, "2.0"),
        (Punctuation, ":"),
        (Keyword.Type, "f32[]"),
    ]


def test_top_level_definitions_and_nested_jaxprs():
    text = (
        "let wave = { lambda ; a:f32[]. let b:f32[] = sin a in (b,) } in\n"
        "{ lambda ; c:f32[]. let\n"
        "    d:f32[] = pjit[name=wave jaxpr=wave] c\n"
        "    e:f32[] = cond[\n"
        "      branches=(\n"
        "        { lambda ; f:f32[]. let g:f32[] = neg f in (g,) }\n"
        "        { lambda ; h:f32[]. let i:f32[] = cos h in (i,) }\n"
        "      )\n"
        "    ] 0:i32[] d\n"
        "    j:f32[] = scan[jaxpr={ lambda ; k:f32[]. let  in (k,) } length=3] e\n"
        "  in (j,) }"
    )
    found = marked(text)
    assert found[:3] == [(Keyword, "let"), (Name.Function, "wave"), (Operator, "=")]
    functions = [value for kind, value in found if kind is Name.Function]
    assert functions == ["wave", "sin", "pjit", "cond", "neg", "cos", "scan"]
    attributes = [value for kind, value in found if kind is Name.Attribute]
    assert attributes == ["name", "jaxpr", "branches", "jaxpr", "length"]
    assert [value for kind, value in found if kind is Keyword].count("{ lambda") == 5
    assert (Number, "0") in found
    assert not [value for kind, value in found if kind in Text or kind in Error]


def test_plain_text_passes_through_unchanged():
    text = "first:  [ 0. 10. 20.]\ntracing scaled with (3,) float32\n"
    assert "".join(value for _, value in tokens(text)) == text


# -- every jaxpr the book prints ----------------------------------------------------------------

from conftest import REPO, jaxpr_goldens  # noqa: E402

GOLDEN_OUTPUTS = jaxpr_goldens()
# Inside a jaxpr, every character must be something the lexer recognised: plain Text means
# a construct it does not know, and Error a character it could not place.
UNRECOGNISED = (Text, Error)


def jaxpr_spans(text: str) -> list[tuple[int, int]]:
    """Where each outermost `{ lambda ... }` starts and ends, by matching braces."""
    spans, start = [], text.find("{ lambda ")
    while start != -1:
        depth, end = 0, start
        for end in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        spans.append((start, end + 1))
        start = text.find("{ lambda ", end + 1)
    return spans


def _prints_a_jaxpr(golden) -> bool:
    """Whether a golden's output prints a jaxpr (its facts may quote one: a trace stepper's
    mapping holds the program's text, which the page does not show as an output)."""
    return "{ lambda " in parse_golden(golden.read_text()).output


@pytest.mark.parametrize(
    "golden", [p for p in GOLDEN_OUTPUTS if _prints_a_jaxpr(p)], ids=lambda p: p.stem
)
def test_every_golden_jaxpr_lexes_with_every_part_recognised(golden):
    output = parse_golden(golden.read_text()).output
    spans = jaxpr_spans(output)
    assert spans, golden
    unrecognised = []
    for position, kind, value in get_lexer_by_name("jaxpr").get_tokens_unprocessed(output):
        assert kind not in Error, f"{golden}: error token {value!r} at {position}"
        inside = any(start <= position < end for start, end in spans)
        if inside and value.strip() and any(kind in bad for bad in UNRECOGNISED):
            unrecognised.append(value)
    assert unrecognised == [], f"{golden.relative_to(REPO)}: unrecognised {unrecognised[:10]}"


def test_the_goldens_hold_jaxprs_to_check():
    assert sum(_prints_a_jaxpr(p) for p in GOLDEN_OUTPUTS) >= 10


def test_a_jaxpr_fence_written_by_hand_is_highlighted_by_the_books_markdown():
    import markdown

    html = markdown.markdown(
        "```jaxpr\n{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }\n```\n",
        extensions=["pymdownx.superfences", "pymdownx.highlight"],
        extension_configs={"pymdownx.highlight": {"pygments_lang_class": True}},
    )
    assert "language-jaxpr" in html
    assert '<span class="nf">sin</span>' in html
    assert '<span class="kt">f32[]</span>' in html


# -- forms the parser learned from the corpus (tests/unit/test_jaxpr_corpus.py) --------------------


def kinds_of(text: str) -> dict[str, set]:
    found: dict[str, set] = {}
    for kind, value in marked(text):
        found.setdefault(value, set()).add(kind)
    return found


def test_a_hyphenated_primitive_is_one_primitive():
    text = str(jax.make_jaxpr(lambda x, i: x.at[i].add(1.0))(jnp.ones(4), jnp.arange(2)))
    assert "scatter-add" in text
    assert kinds_of(text)["scatter-add"] == {Name.Function}


def test_complex_literals_and_vma_types():
    text = str(jax.make_jaxpr(lambda z: z * 1j + (2 - 0.5j))(jnp.ones(3, jnp.complex64)))
    found = kinds_of(text)
    assert found["1j"] == {Number} and found["(2-0.5j)"] == {Number}
    vma = "a:f32[2,2]{V:(x,y)}"
    assert marked(f"{{ lambda ; {vma}. let  in (a,) }}")[2:5] == [
        (Name.Variable, "a"),
        (Punctuation, ":"),
        (Keyword.Type, "f32[2,2]{V:(x,y)}"),
    ]


def test_a_variable_named_like_a_primitive_or_a_keyword_is_a_variable():
    """JAX names its 191st variable `ge` and its 222nd `in`; position tells them apart."""

    def chain(x):
        for i in range(120):
            x = jnp.sin(x) + float(i)
        return x >= 0.5

    text = str(jax.make_jaxpr(chain)(jnp.ones(3)))
    assert re.search(r"\bin:f32\[3\] = sin", text) and re.search(r"\bge:f32\[3\] = ", text)
    found = list(get_lexer_by_name("jaxpr").get_tokens(text))
    assert (Name.Variable, "in") in found and (Name, "in") in found  # defined, then read
    assert (Name.Variable, "ge") in found and (Name.Function, "ge") in found
    assert [v for k, v in found if k is Keyword and v == "in"] == ["in"]  # the one keyword


# -- outputs that mix text with a jaxpr -------------------------------------------------------

# Where a jaxpr of an output starts: a top-level definition's `let name = `, or `{ lambda`.
_JAXPR_START = re.compile(r"(?:let [A-Za-z_]\w* = )?\{ lambda ")


def outside_jaxprs(text: str) -> list[tuple[int, int]]:
    """The stretches of `text` outside its jaxprs (with a definition's trailing ` in`)."""
    out, at = [], 0
    for found in _JAXPR_START.finditer(text):
        if found.start() < at:  # a nested jaxpr, inside the last one
            continue
        start, depth, end = found.start(), 0, found.start()
        for end in range(text.index("{", start), len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        end += 1
        end += 3 if text.startswith(" in", end) else 0
        out.append((at, start))
        at = end
    return [*out, (at, len(text))]


def coloured_outside(text: str) -> list[tuple[str, str]]:
    """Each token outside the jaxprs of `text` that has a colour: (its text, its kind)."""
    stretches = outside_jaxprs(text)
    return [
        (value, str(kind))
        for position, kind, value in get_lexer_by_name("jaxpr").get_tokens_unprocessed(text)
        if value.strip()
        and kind not in (Text, Whitespace)
        and any(start <= position < end for start, end in stretches)
    ]


def test_only_the_jaxpr_of_a_mixed_output_is_coloured():
    """The words around a jaxpr are the block's prose: `handed in:` is no keyword, `= 0x3f`
    no equation, however much they look like a jaxpr's parts."""
    jaxpr = str(jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(1.0))
    text = (
        "handed in: GradTracer(primal=3.0, typeof(tangent)=f32[])\n"
        f"{jaxpr}\n"
        "or constant: 1065353216 = 0x3f800000\n"
        "appears in the printout: True\n"
    )
    assert coloured_outside(text) == []
    kinds = kinds_of(text)
    assert kinds["sin"] == {Name.Function} and kinds["{ lambda"] == {Keyword}
    assert "".join(value for _, value in tokens(text)) == text


def test_every_golden_colours_nothing_outside_its_jaxprs():
    coloured = {
        golden.relative_to(REPO).as_posix(): found[:5]
        for golden in GOLDEN_OUTPUTS
        if _prints_a_jaxpr(golden)
        and (found := coloured_outside(parse_golden(golden.read_text()).output))
    }
    assert coloured == {}


def test_a_jaxpr_fragment_written_alone_is_still_coloured():
    """A hand-written `jaxpr` fence of one equation holds no `{ lambda`: all of it is jaxpr."""
    assert marked("b:f32[] = sin a")[3:5] == [(Operator, "="), (Name.Function, "sin")]


def test_text_before_a_jaxpr_the_parser_cannot_read_stays_plain():
    text = "handed in: a tracer\n{ lambda ; a:f32[]. let b:f32[] = sin a in (b,\n"
    with pytest.raises(JaxprSyntaxError):  # cut short: the parser gives up
        split_output(text)
    found = list(get_lexer_by_name("jaxpr").get_tokens_unprocessed(text))
    assert found[0] == (0, Text, "handed in: a tracer\n")
    assert (Name.Function, "sin") in [(kind, value) for _, kind, value in found]
