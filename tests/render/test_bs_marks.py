# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""A catalog text's emphasis marks print as emphasis on the cards, never as marks (issue 18).

The 40k data marks words in its characteristics and rule texts (``**^^Psyker^^**``: a keyword
in bold). The translation dropped the marks of a rule's text (and the emphasis with them) and
kept those of a characteristic, which the card printed as they are. Now both print the words
bold (a keyword also in small capitals, ``*…*`` in italics) without the marks; a mark that is
not one of a pair (``0**/0``) and a name print as written, and everything else is escaped.
The PDF's text and its fonts' weights are read back with pypdfium2.
"""

from __future__ import annotations

import pytest
from bs_tiny import render_legal, tiny_library

from armybuilder.catalog import Library
from armybuilder.render.html import export_html
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes>
    <profileType id="kw" name="Keywords">
      <characteristicTypes><characteristicType id="a1b2-0002" name="Keywords"/><characteristicType id="a1b2-0003" name="Range"/></characteristicTypes>
    </profileType>
  </profileTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="captain" name="Captain *Star*" type="unit" hidden="false">
      <profiles>
        <profile id="p-kw" name="Captain" typeId="kw" hidden="false">
          <characteristics><characteristic name="Keywords" typeId="a1b2-0002">Infantry, ^^**Adeptus Astartes^^**</characteristic><characteristic name="Range" typeId="a1b2-0003">0**/0 &lt;b&gt;</characteristic></characteristics>
        </profile>
      </profiles>
      <rules>
        <rule id="r-oath" name="Oath" hidden="false"><description>Each time a **^^Psyker^^** unit is chosen, *roll* a D6 &amp; &lt;i&gt;.</description></rule>
      </rules>
      <costs><cost name="pts" typeId="pts" value="80"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

ROSTER = "name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: captain\n"


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory, GST, CAT)


def test_the_html_styles_the_marks_and_escapes_the_rest(library: Library) -> None:
    roster = Roster.from_text(ROSTER, "<test>")
    html = export_html(evaluate_roster(roster, library.system(roster.system)))
    assert '<strong><span class="keyword">Psyker</span></strong>' in html
    assert '<strong><span class="keyword">Adeptus Astartes</span></strong>' in html
    assert "<em>roll</em>" in html
    assert "a D6 &amp; &lt;i&gt;." in html
    assert "0**/0 &lt;b&gt;" in html
    assert "^^" not in html
    assert "Captain *Star*" in html  # (a name is never read for marks)


def _font(page: object, index: int) -> str:
    """The name of the font the PDF's character ``index`` of a text page is drawn in."""
    import ctypes

    import pypdfium2.raw as raw

    name = ctypes.create_string_buffer(200)
    flags = ctypes.c_int()
    raw.FPDFText_GetFontInfo(page, index, name, 200, ctypes.byref(flags))
    return name.value.decode("ascii", "replace")


def test_the_pdf_prints_the_marked_words_bold_without_the_marks(library: Library) -> None:
    import pypdfium2 as pdfium

    pdf = render_legal(library, ROSTER)
    doc = pdfium.PdfDocument(pdf)
    fonts: dict[str, str] = {}
    text = ""
    for i in range(len(doc)):
        page = doc[i].get_textpage()
        got = page.get_text_range()
        text += got
        for word in ("Psyker", "Adeptus", "Each time", "Infantry", "unit is chosen", "roll"):
            at = got.find(word)
            if at >= 0:
                fonts[word] = _font(page.raw, at + 1)
    assert "Each time a Psyker unit is chosen, roll a D6 & <i>." in " ".join(text.split())
    assert "Infantry, Adeptus Astartes" in text
    assert "0**/0 <b>" in text
    assert "^^" not in text
    assert len(fonts) == 6, fonts
    bold = {word for word, font in fonts.items() if "Bold" in font}
    assert bold == {"Psyker", "Adeptus"}, fonts
    assert "Oblique" in fonts["roll"] or "Italic" in fonts["roll"], fonts
