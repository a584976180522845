"""Plotly figures for the Compare page: compression curves and vocabulary usage.

Pure builders (no Streamlit): data from ``viz.compare_data`` in, a figure out.
Token strings in hover text are ``html.escape``d, because plotly reads hover
text as HTML and a token like ``</w>`` would otherwise vanish as a tag.

>>> fig = compression_figure({"corpus": ("sample text", [11, 7, 5])}, lambda merges: 8 + merges, marked_sizes=[1])
>>> len(fig.data), list(fig.data[0].x), [shape.x0 for shape in fig.layout.shapes]
(2, [8, 9, 10], [9, 9])
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from viz.compare_data import VocabularyUsage, chars_per_token
from viz.escape import plotly_text
from viz.readable import readable_symbol

LINE_COLOURS = ("#2b59c3", "#e4572e", "#2a9d8f", "#8e5bb5")  # one per text
SIZE_COLOURS = ("#6b7080", "#c77d00", "#1b7f4b", "#b0306a")  # one per compared size
USED_COLOUR = "#2a9d8f"
UNUSED_COLOUR = "#d5d9e0"
MARKER_LABEL_STEP = 0.06  # of the panel's height between the labels of two marked sizes: one line of 11 px text
MAX_CURVE_POINTS = 400  # per line: a point per pixel or two of a panel, so it looks the same as every merge


def sampled_steps(total_merges: int, keep: Sequence[int] = (), limit: int = MAX_CURVE_POINTS) -> list[int]:
    """Merge counts to plot: all of ``0..total_merges`` when few, else an even spread plus ``keep``.

    The values at the kept points are exact, so the marked sizes sit on the curve.

    >>> sampled_steps(4)
    [0, 1, 2, 3, 4]
    >>> sampled_steps(1000, keep=[333], limit=5)
    [0, 250, 333, 500, 750, 1000]
    """
    if total_merges + 1 <= limit:
        return list(range(total_merges + 1))
    spread = {round(total_merges * index / (limit - 1)) for index in range(limit)}
    return sorted(spread | {k for k in keep if 0 <= k <= total_merges})


def compression_figure(
    curves: Mapping[str, tuple[str, list[int]]],
    vocabulary_after: Callable[[int], int],
    marked_sizes: Sequence[int] = (),
) -> go.Figure:
    """Tokens needed (left) and characters per token (right) against the vocabulary size.

    ``curves`` maps a legend name to ``(text, token_counts)`` where ``token_counts[k]`` is the token count with
    the first ``k`` merges (from ``tokens_by_merge_count``); ``vocabulary_after(k)`` is the vocabulary of the
    first ``k`` merges (``VocabularyScale.after``), where the point is drawn. Each marked size (a number of
    merges) gets a dotted vertical line in both panels, labelled with its vocabulary.
    """
    total_merges = max((len(counts) - 1 for _, counts in curves.values()), default=0)
    steps = sampled_steps(total_merges, keep=marked_sizes)
    # A short held-out text beside a 1 MB corpus would lie flat on a shared axis, and a log axis flattens both
    # curves: each text's tokens are then drawn as a share of its own count before any merge.
    starts = [counts[0] for _, counts in curves.values() if counts and counts[0]]
    relative = bool(starts) and max(starts) > 10 * min(starts)
    fig = make_subplots(
        rows=1, cols=2, horizontal_spacing=0.09,
        subplot_titles=(
            "Tokens, % of unmerged" if relative else "Tokens needed",
            "Characters per token",  # short: on a phone the two titles share 350 pixels
        ),
    )
    fig.update_annotations(font_size=13)  # the two panel titles (the size labels come later, at 11)
    for index, (name, (text, counts)) in enumerate(curves.items()):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        shown = [k for k in steps if k < len(counts)]
        tokens = [counts[k] for k in shown]
        ratios = chars_per_token(text, tokens)
        common = dict(x=[vocabulary_after(k) for k in shown], mode="lines", legendgroup=name,
                      line=dict(color=colour, width=2, shape="hv"))
        legend_name = html.escape(name)
        if relative:
            tokens_trace = dict(y=[100 * count / counts[0] if counts[0] else 0.0 for count in tokens],
                                customdata=tokens, hovertemplate="%{customdata:,} tokens (%{y:.0f}%)")
        else:
            tokens_trace = dict(y=tokens, hovertemplate="%{y:,} tokens")
        tokens_trace["hovertemplate"] += "<extra>" + legend_name + "</extra>"
        fig.add_trace(go.Scatter(name=name, **tokens_trace, **common), row=1, col=1)
        fig.add_trace(
            go.Scatter(y=ratios, name=name, showlegend=False,
                       hovertemplate="%{y:.2f} characters per token<extra>" + legend_name + "</extra>", **common),
            row=1, col=2,
        )
    for index, size in enumerate(marked_sizes):
        line = dict(color=SIZE_COLOURS[index % len(SIZE_COLOURS)], width=1.5, dash="dot")
        vocabulary = vocabulary_after(size)
        fig.add_vline(x=vocabulary, row=1, col=1, line=line)
        fig.add_vline(x=vocabulary, row=1, col=2, line=line)
        # each label a line lower than the one before: close sizes (62 and 262 of 2,062) would print over each other
        fig.add_annotation(x=vocabulary, xref="x", y=1 - MARKER_LABEL_STEP * index, yref="y domain", xanchor="left",
                           yanchor="top", showarrow=False, text=f"{vocabulary:,}", bgcolor="rgba(255,255,255,0.8)",
                           font=dict(color=line["color"], size=11))
    # a linear vocabulary axis from the base vocabulary: most of what merges buy comes early, and shows there
    fig.update_xaxes(title_text="vocabulary size", unifiedhovertitle=dict(text="vocabulary %{x:,}"),
                     separatethousands=True)
    fig.update_yaxes(rangemode="tozero", separatethousands=True)
    if relative:
        fig.update_yaxes(ticksuffix="%", row=1, col=1)
    fig.update_layout(
        height=400, margin=dict(l=10, r=10, t=60, b=10), hovermode="x unified",
        legend=dict(orientation="h", yanchor="bottom", y=1.1, x=0),
    )
    return fig


def usage_figure(usage: VocabularyUsage) -> go.Figure:
    """Stacked bars per bin of merge steps: vocabulary entries the text used vs never used.

    >>> from viz.compare_data import UsageBin, VocabularyUsage
    >>> bins = [UsageBin(0, 0, 5, 1, 1, (("d", 1),)), UsageBin(1, 6, 6, 2, 2, (("ana_", 1),))]
    >>> fig = usage_figure(VocabularyUsage(bins, vocabulary=11, used=3, never_used=8, text_tokens=3))
    >>> [trace.name for trace in fig.data], list(fig.data[0].y), list(fig.data[1].y)
    (['used by the text', 'never used'], [1, 2], [4, 4])
    """
    labels = [usage_bin.label for usage_bin in usage.bins]
    hovers = [_usage_hover(usage_bin) for usage_bin in usage.bins]
    fig = go.Figure()
    fig.add_bar(
        x=labels, y=[b.used for b in usage.bins], name="used by the text", marker_color=USED_COLOUR,
        hovertext=hovers, hoverinfo="text",
    )
    fig.add_bar(
        x=labels, y=[b.tokens - b.used for b in usage.bins], name="never used", marker_color=UNUSED_COLOUR,
        hovertext=hovers, hoverinfo="text",
    )
    fig.update_layout(
        barmode="stack", height=360, margin=dict(l=10, r=10, t=30, b=10), bargap=0.15,
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, traceorder="normal"),
        xaxis=dict(title="the merge steps that made them", type="category"),  # short, to fit a phone
        yaxis=dict(title="vocabulary entries"),
    )
    return fig


def _usage_hover(usage_bin) -> str:
    where = "base symbols" if usage_bin.last_step == 0 else f"tokens made in steps {usage_bin.label}"
    lines = [
        f"<b>{where}</b>",
        f"{usage_bin.used:,} of {usage_bin.tokens:,} used · {usage_bin.uses:,} tokens of the text",
    ]
    if usage_bin.top:
        examples = ", ".join(f"{html.escape(readable_symbol(token))} ×{count:,}" for token, count in usage_bin.top)
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
    fig = go.Figure(go.Bar(
        x=[row["Tokens"] for row in ordered], y=list(range(len(ordered))), orientation="h", width=0.45,
        marker_color=[LINE_COLOURS[0] if index else SIZE_COLOURS[2] for index in range(len(ordered) - 1, -1, -1)],
        text=[f"{row['Tokens']:,} tokens · {ratio} chars/token" for row, ratio in zip(ordered, ratios)],
        textposition="auto", textfont=dict(size=12),
        hovertext=[plotly_text(row["Tokenizer"]) for row in ordered], hoverinfo="text+x", cliponaxis=False))
    for index, row in enumerate(ordered):  # the title just above its bar, left-aligned
        fig.add_annotation(x=0, y=index + 0.32, xref="x", yref="y", xanchor="left", yanchor="bottom", showarrow=False,
                           text=plotly_text(f"{row['Tokenizer']} (vocabulary {row['Vocabulary']:,})"),
                           font=dict(size=12, color="#1f2335"))
    fig.update_layout(height=60 + 52 * len(ordered), margin=dict(l=4, r=4, t=10, b=40), showlegend=False,
                      xaxis=dict(title="tokens for your text (fewer is better)", rangemode="tozero"),
                      yaxis=dict(visible=False, range=[-0.5, len(ordered) - 0.2]))
    return fig
