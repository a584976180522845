"""Compare's "Languages" view: what each tokenizer charges each language for the same text (the token premium,
``bpe_core.premium``), over the bundled preambles (``bpe_core.languages``) and, if the user names its language,
their own text. A dot plot (languages down, premium across, a dot per tokenizer) and a table, sorted by the premium
under one tokenizer; on a narrow screen (a phone, a projector) the table shows that tokenizer alone.

Pure: token counts in, rows, escaped HTML and a plotly figure out.

>>> labels = {"eng": Label("English", "Latin"), "hin": Label("Hindi", "Devanagari")}
>>> premiums = premiums_by_tokenizer({"GPT-2": {"eng": 4, "hin": 10}}, {"eng": "abcd", "hin": "कखगघ"}, "eng")
>>> one_tokenizer_rows(premiums["GPT-2"], ["hin", "eng"], labels)[0]
{'Language': 'Hindi', 'Script': 'Devanagari', 'Tokens': '10', 'Premium': '2.50×'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import plotly.graph_objects as go

from bpe_core.languages import bundled_languages
from bpe_core.premium import PremiumRow, rows_from_counts
from drawing.card_table import card_table_html
from drawing.describe import plural
from drawing.escape import html_text, plotly_text
from pages.compare.views.curves import LINE_COLOURS, SIZE_COLOURS

YOURS = "yours"  # the user's own text among the languages' codes (ISO 639-3 codes have three letters)
ALL_SCRIPTS = "All scripts"
OWN_SCRIPT = "your text"  # the script column of the user's own row
# A column per tokenizer needs a wide screen: a phone and a projector (853 px) read one tokenizer at a time
_NARROW, _WIDE = "(max-width:1000px)", "(min-width:1001px)"
WIDE_TABLE, PHONE_TABLE = "bpe-lang-all", "bpe-lang-one"  # the tables' classes: all tokenizers, or the one chosen
# The one-tokenizer table stays a table on a phone (four short columns fit), rather than a card per language
_ONE = f".bpe-table.{PHONE_TABLE}"  # two classes: more specific than the card table's own phone rules
_STYLE = f"""<style>
@media {_NARROW}{{.{WIDE_TABLE}{{display:none}}
  {_ONE} table{{display:table}} {_ONE} thead{{display:table-header-group}}
  {_ONE} tbody{{display:table-row-group}} {_ONE} tr{{display:table-row;padding:0}}
  {_ONE} th,{_ONE} td{{display:table-cell;width:auto;padding:3px 6px;border-bottom:1px solid #e6e8ec;text-align:left}}
  {_ONE} .num{{text-align:right}} {_ONE} td::before{{content:none}}}}
@media {_WIDE}{{.{PHONE_TABLE}{{display:none}}}}
</style>"""


class Label(NamedTuple):
    """A language as the view names it."""

    name: str
    script: str


def language_labels(own_name: str = "") -> dict[str, Label]:
    """Every bundled language's name and script by its code, then the user's text (``YOURS``) if it is named.

    >>> labels = language_labels("Scots")
    >>> labels["eng"], labels[YOURS], len(labels)
    (Label(name='English', script='Latin'), Label(name='Scots (your text)', script='your text'), 59)
    """
    labels = {language.code: Label(language.name, language.script) for language in bundled_languages()}
    if own_name.strip():
        labels[YOURS] = Label(f"{own_name.strip()} (your text)", OWN_SCRIPT)
    return labels


def scripts() -> list[str]:
    """The bundled languages' scripts, the most used first (then by name): the script filter's options.

    >>> scripts()[:4]
    ['Latin', 'Cyrillic', 'Arabic', 'Devanagari']
    """
    languages = bundled_languages()
    used = {language.script: sum(other.script == language.script for other in languages) for language in languages}
    return sorted(used, key=lambda script: (-used[script], script))


def premiums_by_tokenizer(
    counts: Mapping[str, Mapping[str, int]], texts: Mapping[str, str], reference: str
) -> dict[str, dict[str, PremiumRow]]:
    """Each tokenizer's rows (``counts``: tokens of each text by language code, by the tokenizer's title), by code,
    the cheapest first. A ValueError in words for a text of no tokens or a reference without a text."""
    return {
        title: {row.language: row for row in rows_from_counts(by_language, texts, reference)}
        for title, by_language in counts.items()
    }


def shown_languages(rows: Mapping[str, PremiumRow], labels: Mapping[str, Label], script: str) -> list[str]:
    """The codes to show, in ``rows``' order (one tokenizer's, the cheapest first): those of ``script`` (every one
    for ``ALL_SCRIPTS``), and the user's own text whatever the script.

    >>> labels = {"eng": Label("English", "Latin"), "rus": Label("Russian", "Cyrillic"), YOURS: Label("Mine", "")}
    >>> shown_languages(dict.fromkeys(["rus", YOURS, "eng"]), labels, "Latin")
    ['yours', 'eng']
    """
    return [code for code in rows if script in (ALL_SCRIPTS, labels[code].script) or code == YOURS]


def premium_text(premium: float) -> str:
    """A premium as the view writes it.

    >>> premium_text(2.5), premium_text(13.0461)
    ('2.50×', '13.05×')
    """
    return f"{premium:.2f}×"


def one_tokenizer_rows(
    rows: Mapping[str, PremiumRow], codes: Sequence[str], labels: Mapping[str, Label]
) -> list[dict[str, str]]:
    """One tokenizer's table: a row per language of ``codes``, its tokens and premium."""
    return [
        {
            "Language": labels[code].name,
            "Script": labels[code].script,
            "Tokens": f"{rows[code].tokens:,}",
            "Premium": premium_text(rows[code].premium),
        }
        for code in codes
    ]


def all_tokenizers_rows(
    premiums: Mapping[str, Mapping[str, PremiumRow]], codes: Sequence[str], labels: Mapping[str, Label]
) -> list[dict[str, str]]:
    """Every tokenizer's table: a row per language of ``codes``, a column per tokenizer (its tokens, its premium).

    >>> premiums = premiums_by_tokenizer({"A": {"eng": 4, "fra": 6}, "B": {"eng": 2, "fra": 2}}, {"eng": "a",
    ...     "fra": "b"}, "eng")
    >>> all_tokenizers_rows(premiums, ["fra"], {"fra": Label("French", "Latin")})
    [{'Language': 'French', 'Script': 'Latin', 'A': '6 (1.50×)', 'B': '2 (1.00×)'}]
    """
    return [
        {"Language": labels[code].name, "Script": labels[code].script}
        | {title: f"{rows[code].tokens:,} ({premium_text(rows[code].premium)})" for title, rows in premiums.items()}
        for code in codes
    ]


def tables_html(
    premiums: Mapping[str, Mapping[str, PremiumRow]], chosen: str, codes: Sequence[str], labels: Mapping[str, Label]
) -> str:
    """Both tables, escaped, each shown on its own screens: every tokenizer on a wide screen, ``chosen`` alone on
    a phone or a projector (a column per tokenizer would not fit)."""
    wide = card_table_html(
        all_tokenizers_rows(premiums, codes, labels),
        "Tokens and premium of each language, per tokenizer",
        numeric=set(premiums),
        name=WIDE_TABLE,
        tall=True,
    )
    phone = card_table_html(
        one_tokenizer_rows(premiums[chosen], codes, labels),
        f"Tokens and premium of each language under {chosen}",
        numeric={"Tokens", "Premium"},
        name=PHONE_TABLE,
        tall=True,
    )
    return _STYLE + wide + phone


def costliest_sentence(title: str, rows: Mapping[str, PremiumRow], labels: Mapping[str, Label], reference: str) -> str:
    """Which language ``title`` charges most and least, against the reference (plain text: escape it to show it).

    >>> rows = {row.language: row for row in [PremiumRow("eng", 4, 1.0, 1, 1), PremiumRow("hin", 10, 2.5, 1, 1)]}
    >>> print(costliest_sentence("GPT-2", rows, {"eng": Label("English", ""), "hin": Label("Hindi", "")}, "eng"))
    ... # doctest: +NORMALIZE_WHITESPACE
    Under GPT-2, Hindi needs the most tokens for the same text: 10, 2.50× as many as English (4). English needs the
    fewest.
    """
    ordered = list(rows.values())
    cheapest, dearest = ordered[0], ordered[-1]
    return (
        f"Under {title}, {labels[dearest.language].name} needs the most tokens for the same text: "
        f"{dearest.tokens:,}, {premium_text(dearest.premium)} as many as {labels[reference].name} "
        f"({rows[reference].tokens:,}). {labels[cheapest.language].name} needs the fewest."
    )


PREMIUM_TICKS = (0.25, 0.5, 1, 2, 3, 5, 10, 20, 50)  # a log scale's marks (plotly's own add unlabelled 2 to 9s)
_PUBLISHED_SYMBOLS = ("diamond", "square", "triangle-up", "cross")  # the user's model is drawn in circles
_SYMBOL_GLYPHS = {"circle": "●", "diamond": "◆", "square": "■", "triangle-up": "▲", "cross": "✚"}  # in the key


class DotStyle(NamedTuple):
    colour: str
    symbol: str  # plotly's name


def dot_styles(titles: Sequence[str], own: Sequence[str]) -> dict[str, DotStyle]:
    """Each tokenizer's dots: the user's model at its sizes (``own``) in circles of the colours the Compression tab
    marks sizes with; the published ones in other colours, then other symbols.

    >>> styles = dot_styles(["Mine at 7", "A", "B", "C", "D", "E"], ["Mine at 7"])
    >>> styles["Mine at 7"], styles["A"], styles["E"]
    (DotStyle(colour='#6b7080', symbol='circle'), DotStyle(colour='#2b59c3', symbol='diamond'), \
DotStyle(colour='#2b59c3', symbol='square'))
    """
    published = [title for title in titles if title not in own]
    styles = {title: DotStyle(SIZE_COLOURS[index % len(SIZE_COLOURS)], "circle") for index, title in enumerate(own)}
    for index, title in enumerate(published):
        symbol = _PUBLISHED_SYMBOLS[index // len(LINE_COLOURS) % len(_PUBLISHED_SYMBOLS)]
        styles[title] = DotStyle(LINE_COLOURS[index % len(LINE_COLOURS)], symbol)
    return styles


def dot_key_html(styles: Mapping[str, DotStyle]) -> str:
    """The key above the dot plot, as escaped HTML that wraps on a phone (plotly's legend cannot sit above an axis
    drawn on top).

    >>> dot_key_html({"A<b>": DotStyle("#2b59c3", "diamond")})  # doctest: +NORMALIZE_WHITESPACE
    '<div class="bpe-lang-key" style="display:flex;flex-wrap:wrap;gap:2px 16px;font-size:.875rem;color:#31333f">\
<span><span style="color:#2b59c3" aria-hidden="true">◆</span> A&lt;b&gt;</span></div>'
    """
    items = "".join(
        f'<span><span style="color:{style.colour}" aria-hidden="true">{_SYMBOL_GLYPHS[style.symbol]}</span> '
        f"{html_text(title)}</span>"
        for title, style in styles.items()
    )
    return (
        '<div class="bpe-lang-key" style="display:flex;flex-wrap:wrap;gap:2px 16px;font-size:.875rem;'
        f'color:#31333f">{items}</div>'
    )


def premium_figure(
    premiums: Mapping[str, Mapping[str, PremiumRow]],
    codes: Sequence[str],
    labels: Mapping[str, Label],
    reference: str,
    chosen: str,
    styles: Mapping[str, DotStyle],
) -> go.Figure:
    """A dot plot: a row per language of ``codes`` (the first at the top), a dot per tokenizer (``styles``) at its
    premium on a log scale, a line at 1 (the reference's cost). The ``chosen`` tokenizer's dots are large, the
    others' small and faded, so that a phone reads one tokenizer at a time.

    >>> premiums = premiums_by_tokenizer({"A": {"eng": 4, "fra": 6}}, {"eng": "a", "fra": "b"}, "eng")
    >>> fig = premium_figure(premiums, ["eng", "fra"], {"eng": Label("English", "Latin"), "fra": Label("French",
    ...     "Latin")}, "eng", "A", dot_styles(["A"], []))
    >>> list(fig.data[0].x), list(fig.data[0].y), list(fig.layout.yaxis.ticktext)
    ([1.0, 1.5], [0, 1], ['English', 'French'])
    """
    fig = go.Figure()
    for title, rows in premiums.items():
        fig.add_scatter(
            x=[rows[code].premium for code in codes],
            y=list(range(len(codes))),  # positions, not names: a name the user gave may repeat a bundled one
            mode="markers",
            name=plotly_text(title),
            marker=dict(
                color=styles[title].colour,
                symbol=styles[title].symbol,
                size=12 if title == chosen else 7,
                opacity=1 if title == chosen else 0.5,
            ),
            hovertext=[_dot_hover(title, rows[code], labels[code], labels[reference].name) for code in codes],
            hoverinfo="text",
        )
    fig.add_vline(x=1, line=dict(color="#6b7080", dash="dot", width=1))
    fig.update_layout(
        height=60 + 17 * len(codes),
        margin=dict(l=4, r=8, t=56, b=10),
        showlegend=False,  # the key is HTML above (dot_key_html)
        xaxis=dict(  # on top: a tall plot's bottom is a screen away
            type="log",
            side="top",
            title=plotly_text(f"tokens ÷ {labels[reference].name}'s tokens"),
            tickvals=PREMIUM_TICKS,
            ticktext=[f"{tick:g}×" for tick in PREMIUM_TICKS],
        ),
        yaxis=dict(
            tickvals=list(range(len(codes))),
            ticktext=[plotly_text(labels[code].name) for code in codes],
            range=[len(codes) - 0.5, -0.7],  # the first language at the top
        ),
    )
    return fig


def _dot_hover(title: str, row: PremiumRow, label: Label, reference_name: str) -> str:
    return "<br>".join(
        (
            f"<b>{plotly_text(label.name)}</b> ({plotly_text(label.script)}) · {plotly_text(title)}",
            f"{plural(row.tokens, 'token')}, {premium_text(row.premium)} {plotly_text(reference_name)}",
            f"{row.bytes_per_token:.2f} bytes, {row.characters_per_token:.2f} characters a token",
        )
    )
