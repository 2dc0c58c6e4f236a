"""Roster content is untrusted: every value is escaped, and the renderer loads nothing but files
of the template folders."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from render_helpers import Rendered

from armybuilder.paths import bundled_dir
from armybuilder.render import export, render_pdf
from armybuilder.render.safety import resolve_asset
from armybuilder.rules.engine import Evaluation

IMG = '<img src="file:///etc/passwd">'
STYLE = "</style><style>body { background: url(http://127.0.0.1:9/x.png) }</style>"
SCRIPT = "<script>alert(1)</script>"
JINJA = "{{ roster.name }}{% raw %}"
MARKDOWN = "[click](http://127.0.0.1:9/) **bold** | cell"
CONTROL = "Bell\x07 and \x1b[31mred\x1b[0m"
#: The same, as a YAML double-quoted string (escapes \a and \e).
CONTROL_YAML = '"Bell\\a and \\e[31mred\\e[0m"'

HOSTILE = f"""\
format: 1
system: infantry-ops
faction: inner-sphere
name: 'Hostile {IMG}'
notes: '{SCRIPT}'
selections:
  - entry: platoon
    name: '{IMG}'
    notes: '{STYLE}'
    selections:
      - entry: foot
      - entry: squad
        name: '{JINJA}'
        count: 4
        selections:
          - entry: trooper
            name: '{MARKDOWN}'
            count: 7
            selections: [{{entry: auto-rifle}}, {{entry: kevlar-vest}}]
  - entry: platoon
    name: {CONTROL_YAML}
    selections:
      - entry: foot
      - entry: squad
        name: '<link rel="stylesheet" href="file:///etc/passwd">'
        count: 4
        selections:
          - entry: trooper
            count: 7
            selections: [{{entry: auto-rifle}}, {{entry: kevlar-vest}}]
"""


@pytest.fixture(scope="module")
def hostile(
    write_roster: Callable[[str, str], Path], evaluate_file: Callable[[Path], Evaluation]
) -> tuple[Path, Evaluation]:
    path = write_roster("hostile.yaml", HOSTILE)
    return path, evaluate_file(path)


def test_html_export_escapes_every_value(hostile: tuple[Path, Evaluation]) -> None:
    html = export(hostile[1], "html")
    assert "<img" not in html
    assert "<script" not in html
    assert "<link" not in html
    assert html.count("</style>") == 1  # only our own stylesheet's end
    assert "&lt;img src=&#34;file:///etc/passwd&#34;&gt;" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # template syntax in a name is text, not template
    assert "{{ roster.name }}{% raw %}" in html
    # the name goes into the outline through an attribute, escaped there too
    assert 'data-bookmark="&lt;img src=&#34;file:///etc/passwd&#34;&gt;"' in html


def test_pdf_prints_hostile_names_as_text_and_fetches_nothing(
    hostile: tuple[Path, Evaluation], render: Callable[..., Rendered]
) -> None:
    pdf = render(hostile[0])
    assert pdf.result.refused == []  # nothing was even asked for: the tags are text
    text = re.sub(r"\s+", " ", pdf.text())
    assert 'Hostile <img src="file:///etc/passwd">' in text
    assert "root:" not in text  # no /etc/passwd content
    assert "</style><style>body" in text
    titles = [t for _, t, _ in pdf.outline()]
    assert IMG in titles


def test_text_and_markdown_exports_are_inert(hostile: tuple[Path, Evaluation]) -> None:
    text = export(hostile[1], "text")
    assert "\x1b" not in text and "\x07" not in text
    assert "Bell and [31mred[0m" in text
    md = export(hostile[1], "markdown")
    assert "<img" not in md and "<script" not in md and "<link" not in md
    assert '&lt;img src="file:///etc/passwd"&gt;' in md
    assert "\\[click\\](http://127.0.0.1:9/) \\*\\*bold\\*\\* \\| cell" in md
    assert "\x1b" not in md


def test_fetcher_serves_template_files_only(tmp_path: Path) -> None:
    from armybuilder.render.pdf import TemplateFetcher

    bundled = bundled_dir("templates")
    user = tmp_path / "user"
    (user / "img").mkdir(parents=True)
    (user / "img" / "logo.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    (user / "link.txt").symlink_to(secret)
    fetcher = TemplateFetcher([user, bundled])

    served = fetcher.fetch((bundled / "base.css").as_uri())
    assert b"@page" in served.read()
    # a path under the bundled folder that only the user's folder has (user overrides)
    assert fetcher.fetch((bundled / "img" / "logo.svg").as_uri()).read().startswith(b"<svg")
    data = fetcher.fetch("data:text/plain,hello")
    assert data.read() == b"hello"
    for url in (
        "file:///etc/passwd",
        secret.as_uri(),
        (user / "link.txt").as_uri(),  # a link out of the folder
        (bundled / ".." / ".." / "etc" / "passwd").as_uri(),
        bundled.as_uri() + "/../../../../etc/passwd",
        "http://127.0.0.1:9/x.png",
        "https://example.invalid/x.css",
        "ftp://127.0.0.1/x",
        "file://remotehost/etc/passwd",
    ):
        with pytest.raises(ValueError):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 9


def test_resolve_asset() -> None:
    bundled = bundled_dir("templates")
    assert (
        resolve_asset((bundled / "base.css").as_uri(), [bundled])
        == (bundled / "base.css").resolve()
    )
    assert resolve_asset(bundled.as_uri(), [bundled]) is None
    assert resolve_asset("base.css", [bundled]) is None
    assert resolve_asset("javascript:alert(1)", [bundled]) is None


def test_a_template_that_asks_for_a_file_is_refused(
    tmp_path: Path, evaluate_file: Callable[[Path], Evaluation]
) -> None:
    # A shared template (someone else's) is not trusted either.
    folder = tmp_path / "shared-templates"
    (folder / "generic").mkdir(parents=True)
    (folder / "infantry-ops").mkdir()
    sheet = (
        '<section class="sheet"><p>Shared sheet</p>'
        '<img src="file:///etc/passwd"><img src="http://127.0.0.1:9/x.png">'
        '<div style="background: url(file:///etc/hostname)">x</div></section>'
    )
    (folder / "infantry-ops" / "sheet.html").write_text(sheet)
    ev = evaluate_file(bundled_dir("examples") / "infantry-ops" / "rifle-platoon.yaml")
    result = render_pdf(ev, template_dir=folder, jobs=1)
    assert set(result.refused) == {
        "file:///etc/passwd",
        "http://127.0.0.1:9/x.png",
        "file:///etc/hostname",
    }
    assert result.pages == 2
