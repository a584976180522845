"""What a live class shows, as escaped HTML and a plotly figure: the banner students follow ("Step N" and the
teacher's model), the tally of a question, the room's names and the scoreboard. Names and choices come from
students and corpora: every one is escaped here.

>>> print(votes_line(3, 5))
3 votes from 5 students
>>> "&lt;b&gt;" in names_html(["<b>Bo</b>"])
True
"""

from __future__ import annotations

import plotly.graph_objects as go

from drawing.describe import plural
from drawing.escape import attribute, html_text, plotly_text
from live_class.bidi import isolated
from live_class.rules import closest_guesses
from pages.classroom.views.address import ClassAddress, qr_svg_data_uri

POLL_SECONDS = 1.0  # how often the projector and every student's screen ask the store what changed
RIGHT_COLOUR = "#1a7f37"  # the revealed answer (green: read as "right" in a room)
VOTE_COLOUR = "#8da9c4"  # every bar before the reveal, and the other bars after it
PICK_COLOUR = "#3451d1"  # a student's own choice once the answer is out: white on it is 6.5:1 (AA asks 4.5:1)
CHOICES_KEY = "class_choices"  # the box of a phone's choice buttons (its class: st-key-class_choices)
CONTROLS_KEY = "class_controls"  # the row of the teacher's controls
_LOCKED_SAYS = "The teacher has closed the class to new students."  # the Locked mark's tooltip

_STYLE = """<style>
.bpe-follow{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:baseline}
.bpe-follow .bpe-step{font:700 2rem/1.1 system-ui,sans-serif;color:#1f2335}
.bpe-follow .bpe-ask{font-size:1.25rem;font-weight:600;color:#1f2335}
.bpe-model{color:#3d4152;font-size:.9rem;overflow-wrap:anywhere}
.bpe-how,.bpe-how summary{display:inline;cursor:pointer}
.bpe-how summary{text-decoration:underline dotted;text-underline-offset:.2em}
.bpe-how[open] summary::after{content:": "}
.bpe-join{display:flex;align-items:center;gap:.8rem;font-size:1.1rem;color:#3d4152;overflow-wrap:anywhere}
.bpe-join code{font:600 1.1rem ui-monospace,Menlo,Consolas,monospace;color:#1f2335}
.bpe-join .bpe-code{font:700 2rem/1 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.12em;color:#1f2335}
.bpe-join .bpe-qr-small{width:5rem;height:5rem;image-rendering:pixelated;flex:none}
.bpe-join .bpe-locked{display:inline-block;margin-left:.5rem;padding:0 .5rem;border:2px solid #8a1c1c;
  border-radius:.3rem;color:#8a1c1c;font-weight:700}
.bpe-names{display:flex;flex-wrap:wrap;gap:.35rem}
.bpe-names span{border:1px solid #c9cedb;border-radius:1rem;padding:.1rem .6rem;overflow-wrap:anywhere}
.bpe-sentence{font-size:1.3rem;border-left:4px solid #8da9c4;padding:.3rem .8rem;overflow-wrap:anywhere}
.bpe-waiting .bpe-voted{font:700 1.6rem/1.2 system-ui,sans-serif;color:#1f2335}
.bpe-waiting ul{list-style:none;padding:0;margin:.3rem 0;font-size:1.15rem}
.bpe-waiting li{padding:.1rem 0;overflow-wrap:anywhere}
.bpe-waiting .bpe-later{color:#3d4152;font-size:.9rem}
.bpe-score{border-collapse:collapse;width:100%;max-width:36rem}
.bpe-score td,.bpe-score th{padding:.2rem .6rem;border-bottom:1px solid #e3e6ee;text-align:left;overflow-wrap:anywhere}
.bpe-score td.bpe-points{text-align:right;font-variant-numeric:tabular-nums}
</style>"""


def votes_line(votes: int, students: int) -> str:
    """
    >>> votes_line(1, 1)
    '1 vote from 1 student'
    """
    return f"{plural(votes, 'vote')} from {plural(students, 'student')}"


def follow_html(code: str, step: int, model_caption: str, asking: str = "") -> str:
    r"""The banner on every screen of the class: the step the teacher shows, what is asked (the projector adds the
    number of votes), then the class and the teacher's model in small type: in words first, its settings (the
    caption's second line, ``questions.model_caption``) folded under "settings", and as its tooltip.

    >>> banner = follow_html("ABCDE", 4, "our model: 3 merges\nwhitespace split", "Which pair merges next? 3 votes")
    >>> 'Step 4</span><span class="bpe-ask">Which pair merges next? 3 votes' in banner
    True
    >>> print(banner[banner.index('<div class="bpe-model">') :].replace(" <details", "\n<details"))
    <div class="bpe-model">Class ABCDE · our model: 3 merges
    <details class="bpe-how"><summary title="whitespace split">settings</summary>whitespace split</details></div>
    """
    step_text = f"Step {step}" if step else "Waiting for the teacher"
    words, _, settings = model_caption.partition("\n")
    folded = (
        f' <details class="bpe-how"><summary title="{attribute(settings)}">settings</summary>'
        f"{html_text(settings)}</details>"
        if settings
        else ""
    )
    return (
        f'{_STYLE}<div class="bpe-follow"><span class="bpe-step">{html_text(step_text)}</span>'
        f'<span class="bpe-ask">{html_text(asking)}</span></div>'
        f'<div class="bpe-model">Class {html_text(code)} · {html_text(words)}{folded}</div>'
    )


def join_line_html(join_address: ClassAddress, code: str, locked: bool = False) -> str:
    """How a latecomer joins, once the large QR code has made way for the questions: a small QR code, the Class
    page's address and the class's code large (typed into the page's code box: shorter than the whole link to
    copy from a wall). Said to be this machine's only when phones cannot reach it (``ClassAddress.problem``: no QR
    code then); marked "Locked", without a QR code, while the teacher lets no one new join, so that the room sees
    why a late phone is refused.

    >>> line = join_line_html(ClassAddress("http://10.0.0.7:8501/Class?join=ABCDE"), "ABCDE")[len(_STYLE) :]
    >>> '<img class="bpe-qr-small"' in line, line.split("</div>")[0].split("<div>")[1]
    (True, 'Join at <code>http://10.0.0.7:8501/Class</code> with the code <strong class="bpe-code">ABCDE</strong>')
    >>> here = join_line_html(ClassAddress("http://localhost/Class?join=ABCDE", "No phone reaches it."), "ABCDE")
    >>> "<img" in here, '<small title="No phone reaches it.">(this machine only)</small>' in here
    (False, True)
    >>> locked = join_line_html(ClassAddress("http://10.0.0.7:8501/Class?join=ABCDE"), "ABCDE", locked=True)
    >>> "<img" in locked, locked.split("</strong>")[1]
    (False, ' <strong class="bpe-locked" title="The teacher has closed the class to new students.">Locked')
    """
    url, problem = join_address.url or "", join_address.problem
    here_only = f' <small title="{attribute(problem)}">(this machine only)</small>' if problem else ""
    mark = f' <strong class="bpe-locked" title="{_LOCKED_SAYS}">Locked</strong>' if locked else ""
    qr = ""
    if url and not problem and not locked:
        qr = (
            f'<img class="bpe-qr-small" src="{attribute(qr_svg_data_uri(url))}" alt="{attribute(f"QR code of {url}")}">'
        )
    page = url.split("?", 1)[0]
    return (
        f'{_STYLE}<div class="bpe-join">{qr}<div>Join at <code>{html_text(page)}</code> with the code '
        f'<strong class="bpe-code">{html_text(code)}</strong>{here_only}{mark}</div></div>'
    )


def names_html(names: list[str]) -> str:
    """The students who joined, as name tags the projector shows (escaped: names are typed by students)."""
    if not names:
        return f'{_STYLE}<div class="bpe-names">Nobody has joined yet.</div>'
    tags = "".join(f"<span>{html_text(name)}</span>" for name in names)
    return f'{_STYLE}<div class="bpe-names">{tags}</div>'


def scoreboard_text(rows: list[tuple[str, int]]) -> str:
    r"""The scoreboard as plain text to copy: a heading line, then a name and its points a line, a tab between (a
    spreadsheet takes it as two columns). Names are kept as typed: this text is shown in a code box, never as HTML.

    >>> scoreboard_text([("Ada", 3), ("<b>Bo</b>", 0)])
    'Name\tPoints\nAda\t3\n<b>Bo</b>\t0'
    """
    return "\n".join(["Name\tPoints", *(f"{name}\t{points}" for name, points in rows)])


def scoreboard_html(rows: list[tuple[str, int]]) -> str:
    """The scoreboard as a table, best first.

    >>> '<tr><td>Ada</td><td class="bpe-points">2</td></tr></table>' in scoreboard_html([("Ada", 2)])
    True
    """
    body = "".join(f'<tr><td>{html_text(name)}</td><td class="bpe-points">{points}</td></tr>' for name, points in rows)
    return f'{_STYLE}<table class="bpe-score"><tr><th>Name</th><th>Points</th></tr>{body}</table>'


def waiting_html(labels: list[str], votes: int, students: int) -> str:
    """A question of choices before its reveal, as the projector shows it: how many have voted and the choices,
    without a tally, so that a student still to vote cannot follow the room's majority (the bars come at Reveal).
    ``labels``: the choices as their buttons read (escaped here).

    >>> block = waiting_html(["A · a + n", "<b>"], votes=2, students=5)[len(_STYLE) :]
    >>> block.split("<ul>")[0], "<li>A · a + n</li><li>&lt;b&gt;</li></ul>" in block
    ('<div class="bpe-waiting"><div class="bpe-voted">2 of 5 voted</div>', True)
    """
    choices = "".join(f"<li>{html_text(label)}</li>" for label in labels)
    return (
        f'{_STYLE}<div class="bpe-waiting"><div class="bpe-voted">{votes:,} of {students:,} voted</div>'
        f'<ul>{choices}</ul><div class="bpe-later">The votes for each choice show at Reveal.</div></div>'
    )


def final_line(rows: list[tuple[str, int]], name: str) -> str:
    """A student's line of a class's final scoreboard (``rows``, best first), in words: their points and their place,
    shared with those on as many points; empty when they are not on it (escape it where it is shown).

    >>> rows = [("Ada", 3), ("Bo", 1), ("Cy", 1), ("Di", 0)]
    >>> final_line(rows, "Ada"), final_line(rows, "Cy"), final_line(rows, "Ed")
    ('Your points: 3, place 1 of 4.', 'Your points: 1, place 2 of 4, shared with 1 other.', '')
    """
    mine = [points for row_name, points in rows if row_name == name]
    if not mine:
        return ""
    place = 1 + sum(points > mine[0] for _, points in rows)
    shared = sum(points == mine[0] for _, points in rows) - 1
    with_others = f", shared with {plural(shared, 'other')}" if shared else ""
    return f"Your points: {mine[0]:,}, place {place} of {len(rows)}{with_others}."


def tally_figure(tally: list[tuple[str, int]], answer: str | None = None) -> go.Figure:
    """How the room voted, one bar per choice in the choices' order (top to bottom); after the reveal the answer's
    bar is green and named so.

    >>> figure = tally_figure([("a + n", 2), ("<b>", 1)], answer="a + n")
    >>> list(figure.data[0].y), list(figure.data[0].x), figure.data[0].marker.color
    (['<span style="color:#1a7f37"><b>a + n ✓</b></span>', '&lt;b&gt;'], [2, 1], ('#1a7f37', '#8da9c4'))
    """
    labels = [
        f'<span style="color:{RIGHT_COLOUR}"><b>{plotly_text(choice)} ✓</b></span>'
        if choice == answer
        else plotly_text(choice)
        for choice, _ in tally
    ]
    counts = [count for _, count in tally]
    colours = [RIGHT_COLOUR if choice == answer else VOTE_COLOUR for choice, _ in tally]
    figure = go.Figure(
        go.Bar(
            x=counts,
            y=labels,
            orientation="h",
            marker_color=colours,
            text=counts,
            textposition="outside",  # inside, plotly shrinks a count to its bar's thickness
            textangle=0,
            textfont=dict(size=18),  # a size a projected room reads
            cliponaxis=False,  # the longest bar's count stands past the axis' end
            hoverinfo="skip",
        )
    )
    figure.update_layout(
        height=50 + 40 * len(tally),
        margin=dict(l=10, r=40, t=10, b=30),
        yaxis=dict(autorange="reversed", automargin=True, tickfont=dict(size=18)),
        xaxis=dict(rangemode="tozero", dtick=1 if max(counts, default=0) <= 10 else None, title="votes"),
        showlegend=False,
    )
    return figure


def controls_css() -> str:
    """The teacher's row of controls a little tighter than Streamlit draws buttons (smaller type, less padding), so
    that it stays one row on a projector's 853 pixels in presentation mode and leaves the room's first screen to the
    question. A constant: nothing from outside reaches it.

    >>> controls_css().startswith("<style>.st-key-class_controls button{")
    True
    """
    buttons = f".st-key-{CONTROLS_KEY} button"
    return f"<style>{buttons}{{padding:.25rem .5rem;gap:.3rem}}{buttons} p{{font-size:.9rem}}</style>"


def revealed_choices_css() -> str:
    """Once the answer is out a phone's choice buttons take no tap, and Streamlit greys every one alike and faintly:
    this keeps them readable (dark on white) and the student's own (the primary button) filled in ``PICK_COLOUR``.
    A constant: nothing from outside reaches it.

    >>> revealed_choices_css().count(":disabled")
    2
    """
    buttons = f".st-key-{CHOICES_KEY} button:disabled"
    return (
        f"<style>{buttons}{{opacity:1;color:#3d4152;background:#fff;border-color:#c9cedb}}"
        f'{buttons}[kind="primary"]{{color:#fff;background:{PICK_COLOUR};border-color:{PICK_COLOUR}}}</style>'
    )


def sentence_html(sentence: str) -> str:
    """The count question's sentence, large and escaped (the teacher typed it).

    >>> sentence_html("a <b>")[len(_STYLE) :]
    '<div class="bpe-sentence">a &lt;b&gt;</div>'
    """
    return f'{_STYLE}<div class="bpe-sentence">{html_text(sentence)}</div>'


def count_result(answer_is: str, answer: int, votes: dict[str, str], students: dict[str, str]) -> str:
    """A count question's answer (after its kind's ``answer_is``) and who came closest, in plain words (escape it
    where it is shown).

    >>> count_result("GPT-4 uses", 7, {"s1": "5", "s2": "9", "s3": "12"}, {"s1": "Ada", "s2": "Bo", "s3": "Cy"})
    'GPT-4 uses 7 tokens. Closest: Ada (5), Bo (9).'
    >>> count_result("Our model uses", 1, {}, {})
    'Our model uses 1 token. Nobody guessed.'
    """
    winners = closest_guesses(answer, votes)
    closest = [
        f"{isolated(students.get(student, '?'))} ({guess})" for student, guess in votes.items() if student in winners
    ]
    who = f"Closest: {', '.join(closest)}." if closest else "Nobody guessed."
    return f"{answer_is} {plural(answer, 'token')}. {who}"
