"""How students reach the app, as escaped HTML: the address to type, large enough to read across a room, and its
QR code for a phone's camera; or why students cannot reach this server yet.

>>> from pages.classroom.views.address import ClassAddress
>>> html_out = reach_html(ClassAddress("http://10.0.0.7:8501/"))
>>> '">http://10.0.0.7:8501/</div>' in html_out and '<img class="bpe-qr"' in html_out
True
"""

from __future__ import annotations

from drawing.escape import attribute, html_text
from pages.classroom.views.address import ClassAddress, qr_svg_data_uri

_STYLE = """<style>
.bpe-reach{display:flex;flex-wrap:wrap;align-items:center;gap:1.5rem}
.bpe-reach .bpe-qr{width:min(240px,60vw,40vh);height:auto;image-rendering:pixelated;border:1px solid #d5d9e3}
.bpe-reach .bpe-where{flex:1 1 14rem;container-type:inline-size}
.bpe-reach .bpe-say{font-size:1rem;color:#3d4152}
.bpe-reach .bpe-url{font:600 1.3rem/1.2 ui-monospace,Menlo,Consolas,monospace;color:#1f2335;
  overflow-wrap:anywhere}
.bpe-reach .bpe-problem{font-size:1.05rem;color:#8a1c1c}
.bpe-reach .bpe-here{font-size:.95rem;color:#3d4152;overflow-wrap:anywhere}
.bpe-reach .bpe-here .bpe-url{font-size:1rem}
</style>"""


def _one_line(url: str) -> str:
    """As large as the address fits on one line of its box (a monospace character is about 0.6 em wide), at most
    2.4rem: an address broken in the middle of its numbers is misread across a room.

    >>> _one_line("http://10.0.0.7:8501/")
    'font-size:max(0.9rem,min(2.4rem,calc(100cqi / 13.0)))'
    """
    return f"font-size:max(0.9rem,min(2.4rem,calc(100cqi / {0.62 * len(url):.1f})))"


def reach_html(address: ClassAddress) -> str:
    """The address and its QR code side by side (stacked on a phone); or the problem in words, and the address
    only this machine can open (another window of it tries the class) without a QR code no phone could follow.

    >>> print(reach_html(ClassAddress(None, "Start it with <make class>."))[len(_STYLE):])
    <div class="bpe-reach"><div class="bpe-problem">Start it with &lt;make class&gt;.</div></div>
    >>> here = reach_html(ClassAddress("http://localhost:8501/Class?join=ABCDE", "Phones cannot reach it."))
    >>> "<img" in here, '<div class="bpe-url">http://localhost:8501/Class?join=ABCDE</div>' in here
    (False, True)
    """
    problem = f'<div class="bpe-problem">{html_text(address.problem)}</div>' if address.problem else ""
    if address.url is None:
        return f'{_STYLE}<div class="bpe-reach">{problem}</div>'
    if problem:
        return (
            f'{_STYLE}<div class="bpe-reach"><div class="bpe-where">{problem}<div class="bpe-here">'
            f'To try the class on this machine, open it in another window:<div class="bpe-url">'
            f"{html_text(address.url)}</div></div></div></div>"
        )
    qr = attribute(qr_svg_data_uri(address.url))
    label = attribute(f"QR code of {address.url}")
    return (
        f'{_STYLE}<div class="bpe-reach"><img class="bpe-qr" src="{qr}" alt="{label}">'
        '<div class="bpe-where"><div class="bpe-say">'
        "Students open this address on the room's network, or scan the code:</div>"
        f'<div class="bpe-url" style="{_one_line(address.url)}">{html_text(address.url)}</div></div></div>'
    )
