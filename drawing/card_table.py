"""Tables as light HTML that fit any screen: a plain table on a wide screen; on a phone each row becomes a card of
"column  value" lines (the column names as data, drawn by CSS), so nothing scrolls sideways. Long texts wrap in
their cell instead of widening the table. Used by Compare's size and Real tokenizers tables and Encode's token table.

Pure: rows of plain text in, escaped HTML out, for ``st.html``.

>>> out = card_table_html([{"id": 7, "text": "<b>"}], "Ids", numeric={"id"})
>>> out[out.index("<table>"):].split("</tr>")  # doctest: +NORMALIZE_WHITESPACE
['<table><thead><tr><th class="num">id</th><th>text</th>',
'</thead><tbody><tr><td class="num" data-column="id">7</td><td data-column="text">&lt;b&gt;</td>',
'</tbody></table></div>']
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from drawing.escape import attribute, html_text, scroll_box

# Numbers keep to one line and to the right; texts break anywhere and headers between words, rather than push the
# table past the screen. A tall table scrolls down inside its own box, its header row kept in view. At most 520 px
# wide (a phone), rows are cards.
_STYLE = """<style>
.bpe-table{overflow-x:auto;max-width:100%;margin:10px 0 4px}
.bpe-table.tall{max-height:26rem;overflow-y:auto}
.bpe-table table{border-collapse:collapse;font-size:.875rem;color:#31333f}
.bpe-table th,.bpe-table td{padding:4px 12px;border-bottom:1px solid #e6e8ec;text-align:left;vertical-align:top}
.bpe-table td{overflow-wrap:anywhere}
.bpe-table .num{text-align:right}
.bpe-table td.num{white-space:nowrap}
.bpe-table th{font-weight:600;color:#5f6470;border-bottom-color:#c9ccd3;background:#fff}
.bpe-table.tall th{position:sticky;top:0}
@media (max-width:520px){
  .bpe-table thead{display:none}
  .bpe-table table,.bpe-table tbody,.bpe-table tr,.bpe-table td{display:block;width:100%}
  .bpe-table tr{border-bottom:1px solid #c9ccd3;padding:4px 0}
  .bpe-table td{display:flex;justify-content:space-between;gap:1rem;border:0;padding:2px 4px;white-space:normal;
    text-align:right}
  .bpe-table td::before{content:attr(data-column);color:#5f6470;text-align:left;flex:0 0 auto;max-width:45%}
}
</style>"""


def card_table_html(
    rows: Sequence[Mapping[str, object]], label: str, numeric: Collection[str] = (), name: str = "", tall: bool = False
) -> str:
    """``rows`` (dicts with the same keys, the columns; each value shown as ``str(value)``) as a table, escaped, in a
    box named ``label`` that Tab reaches (it may scroll: ``drawing.escape.scroll_box``).

    ``numeric``: the columns aligned right and kept to one line; ``name``: a class of the table's own (for its
    tests and CSS); ``tall``: the table scrolls down inside a box of its own instead of lengthening the page.
    """
    columns = list(rows[0]) if rows else []
    number = {column: ' class="num"' if column in numeric else "" for column in columns}
    head = "".join(f"<th{number[column]}>{html_text(column)}</th>" for column in columns)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td{number[column]} data-column="{attribute(column)}">{html_text(str(row[column]))}</td>'
            for column in columns
        )
        + "</tr>"
        for row in rows
    )
    classes = attribute(" ".join(filter(None, ("bpe-table", name, "tall" if tall else ""))))
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f'{_STYLE}<div class="{classes}" {scroll_box(label)}>{table}</div>'
