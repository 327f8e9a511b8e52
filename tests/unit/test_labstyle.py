"""The labs' shared stylesheet (jaxbook.labstyle): taken out of each page, pruned to the rules
a lab's markup can match."""

from __future__ import annotations

from jaxbook import labstyle

PAGE = (
    '<style type="text/css">.a{color:red}</style><div class="jp-Cell x">'
    '<style type="text/css">.b{color:blue}</style></div>'
)


def test_a_page_loses_its_inline_sheets_and_keeps_its_markup():
    content, sheets = labstyle.take_styles(PAGE)
    assert sheets == [".a{color:red}", ".b{color:blue}"]
    assert content == '<div class="jp-Cell x"></div>'
    assert labstyle.classes(content) == {"jp-Cell", "x"}


def test_only_rules_a_lab_can_match_are_kept():
    css = (
        ".jupyter-wrapper{--used: 1px;--unused: url(data:image/svg+xml;base64,AAA);}"
        ".jupyter-wrapper .jp-Cell{margin:var(--used)}"
        ".jupyter-wrapper .jp-Widget{color:red}"
        ".jupyter-wrapper .jp-Cell:not(.jp-mod-active){opacity:1}"
        ":is(.jp-Cell, .nowhere) h1,.nowhere p{color:blue}"
        "@media (max-width:760px){.jp-Cell{padding:0}.jp-Widget{padding:0}}"
    )
    sheet = labstyle.shared_sheet([css, css], {"jupyter-wrapper", "jp-Cell"})
    assert ".jp-Widget" not in sheet  # no lab shows a widget
    assert "--unused" not in sheet and "--used: 1px" in sheet  # nothing reads --unused
    assert ".jp-Cell:not(.jp-mod-active){opacity:1}" in sheet
    assert ":is(.jp-Cell, .nowhere) h1{color:blue}" in sheet  # the list split at its own commas
    assert "@media (max-width:760px){.jp-Cell{padding:0}}" in sheet
    assert sheet.count(".jupyter-wrapper .jp-Cell{") == 1  # the same sheet of two pages, once
