"""One simulated student that speaks Streamlit's own protocol instead of driving a browser.

Like the browser it first loads the page (which gives it the balancer's replica cookie), then opens the
websocket ``/_stcore/stream`` with that cookie and its origin, and for every action sends a ``BackMsg`` with
``rerun_script`` (the page's ``page_script_hash``, the query string, the widget states it set) and reads
``ForwardMsg``s until the run's ``script_finished``. Widgets are found by kind and label in the run's
``new_element`` deltas, as a user finds them on screen, so their ids may change with the app.
"""

from __future__ import annotations

import asyncio
import html
import http.client
import re
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Common_pb2 import FileUploaderState, UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

if TYPE_CHECKING:
    from bench.classroom.cluster import Classroom

SAMPLE = (Path(__file__).resolve().parents[2] / "data" / "kjv_sample.txt").read_text(encoding="utf-8")
PARAGRAPH = SAMPLE[:600]  # what the browser load test encodes
XSRF_COOKIE = "_streamlit_xsrf"  # Streamlit's cookie whose token an upload carries back in a header
ACTION_TIMEOUT = 180.0  # seconds one action may take before the student gives up
RUN_OVER = {
    ForwardMsg.FINISHED_SUCCESSFULLY,
    ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
}


def html_text(body: str) -> str:
    """What an ``st.html`` body shows: its text without the style sheet and tags, entities read.

    >>> html_text("<style>.a{}</style><div>a &lt;b&gt;</div><span>c</span>")
    'a <b> c'
    """
    return html.unescape(" ".join(re.sub(r"<style>.*?</style>|<[^>]*>", " ", body, flags=re.DOTALL).split()))


TEXT_FIELDS = {
    "markdown": "body",
    "alert": "body",
    "heading": "body",
    "code": "code_text",
    "text": "body",
    "html": "body",
}


class ActionFailed(RuntimeError):
    """The app showed an exception, the script did not compile, or a widget was not on the page."""


class Student:
    """One browser tab's worth of session: its replica cookie, its websocket, what the last run showed.
    ``source_address``: the address on this machine it connects from (127.0.0.N; empty: the system's choice), so
    that nginx sees it as a visitor of its own; ``headers``: sent with every request (an X-Forwarded-For of its own
    writing, say)."""

    def __init__(self, base_url: str, source_address: str = "", headers: dict[str, str] | None = None):
        self.base_url = base_url
        self.source_address = source_address
        self.headers = headers or {}
        self.cookies: dict[str, str] = {}
        self.replica = ""  # the replica that served the page, as the balancer's X-Replica header names it
        self.websocket = None
        self.pages: dict[str, str] = {}  # page title -> page_script_hash, from the navigation message
        self.page_hash = ""
        self.query_string = ""
        self.widget_values: dict[str, WidgetState] = {}  # what this student typed or chose on the current page
        self.elements: list = []  # the Element protos the last run sent, in order
        self.expanders: dict[str, str] = {}  # label -> widget id of the last run's expanders that rerun when toggled
        self.session_id = ""  # the server's id of this session (uploads name it)
        self.auto_rerun = ""  # the fragment the page asks the browser to run again and again (st.fragment run_every)
        self.times: dict[str, float] = {}
        self.problems: list[str] = []
        self.received = 0  # bytes of every ForwardMsg read, as Streamlit sends them (before any compression)

    # -- the connection ------------------------------------------------------------------

    def request_headers(self) -> dict[str, str]:
        """This tab's own headers with its cookies."""
        cookies = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return {**self.headers, **({"Cookie": cookies} if cookies else {})}

    def http_request(self, method: str, path: str, body: bytes = b"", headers: dict | None = None) -> bytes:
        """One HTTP request to the app as this tab's browser sends it (its cookies, from its address); keeps the
        cookies the answer sets and which replica answered (the balancer's X-Replica header). Raises on a status
        of 400 or more."""
        url = urllib.parse.urlsplit(self.base_url)
        source = (self.source_address, 0) if self.source_address else None
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=ACTION_TIMEOUT, source_address=source)
        try:
            connection.request(method, path, body=body, headers={**self.request_headers(), **(headers or {})})
            response = connection.getresponse()
            answer = response.read()
        finally:
            connection.close()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        self.replica = response.headers.get("X-Replica", self.replica)
        if response.status >= 400:
            raise ActionFailed(f"{method} {path}: HTTP {response.status} {answer[:200]!r}")
        return answer

    def load_front_page(self) -> None:
        """GET the app's page as a browser does, with the cookies it has: the first answer sets the replica
        cookie."""
        self.http_request("GET", "/")

    async def enter(self) -> None:
        """Load the page, open the websocket on the same replica and run the default page."""
        await self.connect()
        await self.rerun()

    async def connect(self) -> None:
        """Load the page and open the websocket on the same replica (a browser's reload, before its first run)."""
        await asyncio.to_thread(self.load_front_page)
        self.websocket = await connect(
            self.base_url.replace("http", "ws", 1) + "/_stcore/stream",
            subprotocols=["streamlit"],
            origin=self.base_url,
            additional_headers=self.request_headers(),
            max_size=None,
            ping_interval=None,
            open_timeout=ACTION_TIMEOUT,
            **({"local_addr": (self.source_address, 0)} if self.source_address else {}),
        )
        socket_replica = self.websocket.response.headers.get("X-Replica", "")
        if socket_replica != self.replica:
            raise ActionFailed(f"the page came from {self.replica or '?'} but the websocket from {socket_replica}")

    async def leave(self) -> None:
        if self.websocket is not None:
            await self.websocket.close()

    # -- script runs -------------------------------------------------------------------------

    async def rerun(self, trigger: str = "", fragment: str = "") -> None:
        """Ask for a run of the current page (or of one ``fragment`` of it) with this student's widget values (and
        ``trigger``, a button's id, pressed) and read the answer until the run is over."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_hash
        if fragment:
            state.fragment_id = fragment
            state.is_auto_rerun = not trigger
        state.widget_states.widgets.extend(self.widget_values.values())
        if trigger:
            state.widget_states.widgets.add(id=trigger, trigger_value=True)
        await self.websocket.send(message.SerializeToString())
        self.elements, self.expanders = [], {}
        async with asyncio.timeout(ACTION_TIMEOUT):
            while not await self.read_one():
                pass

    async def read_one(self) -> bool:
        """Read one ForwardMsg; True once it ends the run."""
        message, data = ForwardMsg(), await self.websocket.recv()
        self.received += len(data)
        message.ParseFromString(data)
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.session_id = message.new_session.initialize.session_id
        elif kind == "navigation":
            self.pages = {page.page_name: page.page_script_hash for page in message.navigation.app_pages}
            self.page_hash = message.navigation.page_script_hash
        elif kind == "auto_rerun":
            self.auto_rerun = message.auto_rerun.fragment_id
        elif kind == "page_info_changed":
            self.query_string = message.page_info_changed.query_string  # the address bar the browser would show
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            self.elements.append(element)
            if element.WhichOneof("type") == "exception":
                raise ActionFailed(f"exception on the page: {element.exception.type}: {element.exception.message}")
        elif kind == "delta" and message.delta.WhichOneof("type") == "add_block":
            block = message.delta.add_block
            if block.WhichOneof("type") == "expandable" and block.expandable.id:
                self.expanders[block.expandable.label] = block.expandable.id
        elif kind == "script_finished":
            if message.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                raise ActionFailed("the page's script did not compile")
            return message.script_finished in RUN_OVER
        return False

    async def open_page(self, title: str, query_string: str = "") -> None:
        """Click a page in the sidebar (or open its address with ``query_string``): a run of that page with no
        widget values."""
        if title not in self.pages:
            raise ActionFailed(f"no page titled {title!r}; pages: {list(self.pages)}")
        self.page_hash, self.query_string, self.widget_values = self.pages[title], query_string, {}
        await self.rerun()

    def widget(self, kind: str, label: str):
        """The widget of this kind ("button", "text_area", "selectbox", ...) and label the last run showed."""
        for element in self.elements:
            if element.WhichOneof("type") == kind and getattr(element, kind).label == label:
                return getattr(element, kind)
        raise ActionFailed(f"no {kind} labelled {label!r} on the page")

    async def press(self, label: str, fragment: str = "") -> None:
        await self.rerun(trigger=self.widget("button", label).id, fragment=fragment)

    async def submit(self, fields: dict[str, str], button: str) -> None:
        """Fill a form's text inputs (by label) and press its submit button: one run with all of them."""
        for label, text in fields.items():
            box = self.widget("text_input", label)
            self.widget_values[box.id] = WidgetState(id=box.id, string_value=text)
        await self.press(button)

    async def type_text(self, label: str, text: str) -> None:
        """Type into a text area and leave it (the browser's Ctrl+Enter or blur): one run with the new text."""
        area = self.widget("text_area", label)
        self.widget_values[area.id] = WidgetState(id=area.id, string_value=text)
        await self.rerun()

    async def choose(self, label: str, option: str) -> None:
        box = self.widget("selectbox", label)
        if option not in box.options:
            raise ActionFailed(f"{option!r} is not an option of {label!r}: {list(box.options)}")
        self.widget_values[box.id] = WidgetState(id=box.id, string_value=option)
        await self.rerun()

    async def open_expander(self, label: str) -> None:
        """Open a folded section whose opening reruns the page (``st.expander(on_change="rerun")``): one run."""
        if label not in self.expanders:
            raise ActionFailed(f"no expander labelled {label!r} on the page; expanders: {list(self.expanders)}")
        expander = self.expanders[label]
        self.widget_values[expander] = WidgetState(id=expander, bool_value=True)
        await self.rerun()

    async def put_file(self, label: str, name: str, data: bytes) -> None:
        """Drop one file on a file uploader (by label) as the browser does: the file goes up to the session's
        upload address (PUT, with the XSRF cookie's token, which the health check hands out); the next run sends
        the uploader's state naming it."""
        uploader = self.widget("file_uploader", label)
        file_id = uuid.uuid4().hex
        await asyncio.to_thread(self.http_request, "GET", "/_stcore/health")  # sets the XSRF cookie
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n"
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers = {
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": self.cookies.get(XSRF_COOKIE, ""),
            "Origin": self.base_url,
        }
        path = f"/_stcore/upload_file/{self.session_id}/{file_id}"
        await asyncio.to_thread(self.http_request, "PUT", path, body, headers)
        files = FileUploaderState(uploaded_file_info=[UploadedFileInfo(file_id=file_id, name=name, size=len(data))])
        self.widget_values[uploader.id] = WidgetState(id=uploader.id, file_uploader_state_value=files)

    def alerts(self) -> list[str]:
        """The texts of the last run's alerts (``st.error``, ``warning``, ``info``, ``success``), as shown."""
        return [re.sub(r"\\(.)", r"\1", e.alert.body) for e in self.elements if e.WhichOneof("type") == "alert"]

    def shown_text(self) -> str:
        """The texts of the last run (Markdown, captions, alerts, headings, code, HTML), one per line, as the reader
        sees them: without the backslashes that escape them from Markdown."""
        texts = []
        for element in self.elements:
            kind = element.WhichOneof("type")
            if kind in TEXT_FIELDS:
                text = getattr(getattr(element, kind), TEXT_FIELDS[kind])
                texts.append(html_text(text) if kind == "html" else text)
        return re.sub(r"\\(.)", r"\1", "\n".join(texts))

    # -- the tour ------------------------------------------------------------------------------

    async def timed(self, name: str, action) -> None:
        start = time.monotonic()
        await action
        self.times[name] = time.monotonic() - start

    async def classroom_tour(self) -> None:
        """The browser load test's tour (bench/loadtest.py): load the app (its root, Start), open Train and train
        the sample with the default settings, open Merges, open Encode and encode a paragraph, open Compare. A
        failure is recorded in ``problems`` (the other students carry on); the websocket is closed at the end either
        way."""
        try:
            await self.timed("load the app", self.enter())
            await self.timed("open the Train page", self.open_page("Train"))
            await self.timed("train the sample", self.press("Train"))
            await self.timed("open the Merges page", self.open_page("Merges"))
            await self.timed("open the Encode page", self.open_page("Encode / Decode"))
            await self.timed("encode a paragraph", self.type_text("Text to encode", PARAGRAPH))
            await self.timed("open the Compare page", self.open_page("Compare"))
        except Exception as error:  # a timeout, a closed socket, an exception box: count it
            self.problems.append(f"{type(error).__name__}: {str(error)[:200]}")
        finally:
            await self.leave()


SEATING_TRIES = 20  # front-page loads per student allowed to find a seat on a given replica


async def seat_on_every_replica(classroom: Classroom, per_replica: int, make=None) -> list:
    """Students (``make()``, a plain ``Student`` by default) whose replica cookies spread them evenly,
    ``per_replica`` on each replica (in replica order, then round by round). Students get a random replica from the
    balancer, so this loads the front page until each replica has its share (bounded)."""
    seats: dict[str, list] = {replica.address: [] for replica in classroom.replicas}
    for _ in range(SEATING_TRIES * per_replica * len(seats)):
        if all(len(students) == per_replica for students in seats.values()):
            return [students[round_] for round_ in range(per_replica) for students in seats.values()]
        student = make() if make else Student(classroom.url)
        await asyncio.to_thread(student.load_front_page)
        if student.replica in seats and len(seats[student.replica]) < per_replica:
            seats[student.replica].append(student)
    seated = {address: len(students) for address, students in seats.items()}
    raise RuntimeError(f"the balancer did not spread students over every replica: {seated}")
