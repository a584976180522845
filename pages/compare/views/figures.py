"""Plotly figures for the Compare page's other tabs: vocabulary usage and the published tokenizers' counts (the
compression curves are light HTML and SVG: ``pages.compare.views.curves``).

Pure builders (no Streamlit): data from ``pages.compare.views.data`` in, a figure out.
Token strings in hover text are ``html.escape``d, because plotly reads hover
text as HTML and a token like ``</w>`` would otherwise vanish as a tag.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from drawing.describe import plural
from drawing.escape import plotly_text
from drawing.readable import token_text
from pages.compare.views.curves import LINE_COLOURS, SIZE_COLOURS
from pages.compare.views.data import VocabularyUsage

USED_COLOUR = "#2a9d8f"
UNUSED_COLOUR = "#d5d9e0"


def usage_figure(usage: VocabularyUsage, byte_level: bool = False) -> go.Figure:
    """Stacked bars per bin of merge steps: vocabulary entries the text used vs never used; the hover names the
    most used tokens (a byte-level model's as the text they spell, ``byte_level``).

    >>> from pages.compare.views.data import UsageBin, VocabularyUsage
    >>> bins = [UsageBin(0, 0, 5, 1, 1, (("d", 1),)), UsageBin(1, 6, 6, 2, 2, (("ana_", 1),))]
    >>> fig = usage_figure(VocabularyUsage(bins, vocabulary=11, used=3, never_used=8, text_tokens=3))
    >>> [trace.name for trace in fig.data], list(fig.data[0].y), list(fig.data[1].y)
    (['used by the text', 'never used'], [1, 2], [4, 4])
    """
    labels = [usage_bin.label for usage_bin in usage.bins]
    hovers = [_usage_hover(usage_bin, byte_level) for usage_bin in usage.bins]
    fig = go.Figure()
    fig.add_bar(
        x=labels,
        y=[b.used for b in usage.bins],
        name="used by the text",
        marker_color=USED_COLOUR,
        hovertext=hovers,
        hoverinfo="text",
    )
    fig.add_bar(
        x=labels,
        y=[b.tokens - b.used for b in usage.bins],
        name="never used",
        marker_color=UNUSED_COLOUR,
        hovertext=hovers,
        hoverinfo="text",
    )
    fig.update_layout(
        barmode="stack",
        height=360,
        margin=dict(l=10, r=10, t=30, b=10),
        bargap=0.15,
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, traceorder="normal"),
        xaxis=dict(title="the merge steps that made them", type="category"),  # short, to fit a phone
        yaxis=dict(title="vocabulary entries"),
    )
    return fig


def _usage_hover(usage_bin, byte_level: bool) -> str:
    steps = "step" if usage_bin.first_step == usage_bin.last_step else "steps"
    where = "base symbols" if usage_bin.last_step == 0 else f"tokens made in {steps} {usage_bin.label}"
    lines = [
        f"<b>{where}</b>",
        f"{usage_bin.used:,} of {usage_bin.tokens:,} used · {plural(usage_bin.uses, 'token')} of the text",
    ]
    if usage_bin.top:
        examples = ", ".join(
            f"{html.escape(token_text(token, byte_level))} ×{count:,}" for token, count in usage_bin.top
        )
        lines.append(f"most used: {examples}")
    return "<br>".join(lines)


def tokenizers_figure(rows: Sequence[Mapping]) -> go.Figure:
    """Horizontal bars of ``tokenizer_rows``: tokens per tokenizer, fewest at the top, each bar labelled with its
    count and characters per token. Titles go above their bar, so a 390 px phone keeps the whole width for bars.

    >>> rows = [{"Tokenizer": "A<b>", "Tokens": 9, "Characters per token": 1.0, "Vocabulary": 5},
    ...         {"Tokenizer": "GPT-2", "Tokens": 3, "Characters per token": 3.0, "Vocabulary": 50257}]
    >>> fig = tokenizers_figure(rows)
    >>> list(fig.data[0].x), list(fig.data[0].text)
    ([9, 3], ['9 tokens · 1.00 chars/token', '3 tokens · 3.00 chars/token'])
    >>> [note.text for note in fig.layout.annotations]
    ['A&lt;b&gt; (vocabulary 5)', 'GPT-2 (vocabulary 50,257)']
    """
    ordered = sorted(rows, key=lambda row: -row["Tokens"])  # plotly draws the first bar at the bottom
    ratios = [f"{row['Characters per token']:.2f}" if row["Characters per token"] else "–" for row in ordered]
    fig = go.Figure(
        go.Bar(
            x=[row["Tokens"] for row in ordered],
            y=list(range(len(ordered))),
            orientation="h",
            width=0.45,
            marker_color=[LINE_COLOURS[0] if index else SIZE_COLOURS[2] for index in range(len(ordered) - 1, -1, -1)],
            text=[f"{plural(row['Tokens'], 'token')} · {ratio} chars/token" for row, ratio in zip(ordered, ratios)],
            textposition="auto",
            textfont=dict(size=12),
            hovertext=[plotly_text(row["Tokenizer"]) for row in ordered],
            hoverinfo="text+x",
            cliponaxis=False,
        )
    )
    for index, row in enumerate(ordered):  # the title just above its bar, left-aligned
        fig.add_annotation(
            x=0,
            y=index + 0.32,
            xref="x",
            yref="y",
            xanchor="left",
            yanchor="bottom",
            showarrow=False,
            text=plotly_text(f"{row['Tokenizer']} (vocabulary {row['Vocabulary']:,})"),
            font=dict(size=12, color="#1f2335"),
        )
    fig.update_layout(
        height=60 + 52 * len(ordered),
        margin=dict(l=4, r=4, t=10, b=40),
        showlegend=False,
        xaxis=dict(title="tokens for your text (fewer is better)", rangemode="tozero"),
        yaxis=dict(visible=False, range=[-0.5, len(ordered) - 0.2]),
    )
    return fig
