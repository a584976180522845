"""A reviewer's checks written as tests: no dangerous calls, and raw HTML only from escaping builders.

Every ``st.html(...)`` or ``...markdown(..., unsafe_allow_html=True)`` call in the app must get its text from a
builder of ``drawing``, ``session`` or a page's ``views`` (which escapes what it is given), from ``html.escape``,
from string literals, or from numbers formatted with a numeric format spec, joined with ``+`` or an f-string.
Anything else (a variable, a ``str.format``, user text) fails the test, so a new call site has to be written the safe
way or looked at.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support.paths import REPO_ROOT

APP_FOLDERS = (
    "pages",
    "session",
    "drawing",
    "bpe_core",
    "live_class",
    "jobs",
)  # every folder of the app, subfolders included
APP_SOURCES = sorted(
    [REPO_ROOT / "app.py", *(path for folder in APP_FOLDERS for path in (REPO_ROOT / folder).rglob("*.py"))]
)
FORBIDDEN = {
    "components": re.compile(r"\bcomponents\s*\."),  # st.components.html, .v1, .v2: only in COMPONENTS
    "unsafe_allow_javascript": re.compile(r"unsafe_allow_javascript"),
    "pickle": re.compile(r"\bpickle\b|\bshelve\b|\bmarshal\.loads"),
    "eval(": re.compile(r"\beval\s*\("),
    "exec(": re.compile(r"\bexec\s*\("),
}
NUMERIC_FORMAT = re.compile(r"[,_]?(\.\d+)?[dfe%]?")


def relative(path: Path) -> str:
    return str(path.relative_to(REPO_ROOT))


# The app's only components (invisible, a constant script each, no HTML from data): the live text box, the step keys,
# the class's cookies, the scroll to a press's result, the sidebar folded after a page is chosen on a phone
COMPONENTS = (
    REPO_ROOT / "app.py",
    REPO_ROOT / "pages" / "encode" / "live_text.py",
    REPO_ROOT / "pages" / "merges" / "step_keys.py",
    REPO_ROOT / "pages" / "classroom" / "class_cookies.py",
    REPO_ROOT / "session" / "result_scroll.py",
)


@pytest.mark.parametrize("path", APP_SOURCES, ids=relative)
def test_no_forbidden_calls(path):
    source = path.read_text(encoding="utf-8")
    found = [
        name
        for name, pattern in FORBIDDEN.items()
        if pattern.search(source) and not (name == "components" and path in COMPONENTS)
    ]
    assert not found, f"{relative(path)} uses {', '.join(found)}"


@pytest.mark.parametrize("path", COMPONENTS, ids=relative)
def test_each_component_has_constant_html_css_and_script(path):
    """Its html, css and js are module-level string literals: nothing a user typed can become its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("components.v2.component")
    ]
    assert len(calls) == 1
    code = {keyword.arg: keyword.value for keyword in calls[0].keywords if keyword.arg in ("html", "css", "js")}
    assert set(code) == {"html", "css", "js"} and not calls[0].args[1:]
    assert all(isinstance(value, ast.Name) and value.id in constants for value in code.values())


def is_builder_module(module: str) -> bool:
    """What pages share (``drawing``, ``session``) and a page's ``views`` and ``state``: modules whose functions
    escape what they are given. A page's script and sections are not: their text is checked where it is sent."""
    parts = module.split(".")
    if parts[0] in ("drawing", "session"):
        return True
    return parts[0] == "pages" and len(parts) > 2 and parts[2] in ("views", "state")


def viz_names(tree: ast.Module) -> set[str]:
    """Names in a module that refer to builders or their modules (``tv``, ``render_tokens``, ...)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.update(
                alias.asname or alias.name
                for alias in node.names
                if is_builder_module(node.module) or is_builder_module(f"{node.module}.{alias.name}")
            )
        elif isinstance(node, ast.Import):
            names.update(alias.asname or alias.name for alias in node.names if is_builder_module(alias.name))
    return names - {"state"}  # session.state holds session data, not HTML builders


def callee_root(call: ast.Call) -> str:
    """``tv`` for ``tv.chips_html(...)``, ``render_tokens`` for ``render_tokens(...)``, ``html`` for ``html.escape``."""
    func = call.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return func.id if isinstance(func, ast.Name) else ""


def is_safe(node: ast.expr, builders: set[str]) -> bool:
    """Whether ``node`` can only produce escaped or literal text."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Call):
        if ast.unparse(node.func) == "html.escape":
            return True
        return callee_root(node) in builders
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_safe(node.left, builders) and is_safe(node.right, builders)
    if isinstance(node, ast.JoinedStr):
        return all(is_safe(part, builders) for part in node.values)
    if isinstance(node, ast.FormattedValue):
        if node.format_spec is not None:  # a number such as {count:,} or {ratio:.2f}: no markup possible
            spec = ast.unparse(node.format_spec)[2:-1]  # f'...' -> ...
            return bool(spec) and NUMERIC_FORMAT.fullmatch(spec) is not None
        return is_safe(node.value, builders)
    return False


def raw_html_calls(tree: ast.Module) -> list[ast.Call]:
    calls = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        unsafe = any(
            k.arg == "unsafe_allow_html" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
            for k in node.keywords
        )
        if node.func.attr == "html" or (node.func.attr == "markdown" and unsafe):
            calls.append(node)
    return calls


PAGE_SOURCES = [  # app.py and each page's script and sections (its folder's top)
    path
    for path in APP_SOURCES
    if path.relative_to(REPO_ROOT).parts[0] == "pages" and len(path.relative_to(REPO_ROOT).parts) == 3
] + [REPO_ROOT / "app.py"]


@pytest.mark.parametrize("path", PAGE_SOURCES, ids=relative)
def test_raw_html_comes_only_from_escaping_builders(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    builders = viz_names(tree)
    unsafe = [
        f"line {call.lineno}: {ast.unparse(call)[:120]}"
        for call in raw_html_calls(tree)
        if not call.args or not is_safe(call.args[0], builders)
    ]
    assert not unsafe, f"{relative(path)} sends text that no builder escaped:\n" + "\n".join(unsafe)


def test_the_checker_catches_unsafe_calls():
    unsafe_source = (
        "import streamlit as st\nfrom drawing import token_html as th\n"
        "st.html(user_text)\n"
        "st.markdown(f'<b>{name}</b>', unsafe_allow_html=True)\n"
        "st.markdown('x' + th.render(a) + text, unsafe_allow_html=True)\n"
        "st.html(f'{name:>10}')\n"
    )
    safe_source = (
        "import html\nimport streamlit as st\nfrom drawing import token_html as th\nfrom pages.x.views.y import chips\n"
        "st.html(th.render(text))\n"
        "st.markdown('**a**  \\n' + chips(t), unsafe_allow_html=True)\n"
        "st.markdown(f'{html.escape(h)} {n:,} {r:.2f}', unsafe_allow_html=True)\n"
        "st.markdown(user_text)\n"
    )
    for source, expected in ((unsafe_source, False), (safe_source, True)):
        tree = ast.parse(source)
        calls = raw_html_calls(tree)
        assert calls
        assert all(is_safe(call.args[0], viz_names(tree)) == expected for call in calls), source


def streamlit_caches(tree: ast.Module) -> list[ast.expr]:
    """Every ``@st.cache_data`` / ``@st.cache_resource`` decorator (bare or called) in a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if ast.unparse(target) in ("st.cache_data", "st.cache_resource"):
                    found.append(decorator)
    return found


def test_every_streamlit_cache_is_bounded():
    """A classroom of sessions must not grow a cache without limit: each one has max_entries or ttl."""
    unbounded, total = [], 0
    for path in APP_SOURCES:
        for decorator in streamlit_caches(ast.parse(path.read_text(encoding="utf-8"))):
            total += 1
            keywords = {k.arg for k in decorator.keywords} if isinstance(decorator, ast.Call) else set()
            if not keywords & {"max_entries", "ttl"}:
                unbounded.append(f"{relative(path)} line {decorator.lineno}")
    assert total >= 10  # the pages' and session.state's caches were all found
    assert not unbounded, "caches without max_entries or ttl: " + ", ".join(unbounded)


def test_every_folder_is_checked():
    """The engine's and the views' subfolders are read too, not only their top level."""
    checked = {relative(path) for path in APP_SOURCES}
    assert {
        "bpe_core/formats/hf_json.py",
        "bpe_core/pipeline/tokenizer.py",
        "pages/merges/state.py",
        "pages/train/page.py",
        "pages/compare/tabs.py",
    } <= checked
    pages = {relative(path) for path in PAGE_SOURCES}  # checked for raw HTML: the pages and their sections
    assert {"app.py", "pages/encode/page.py", "pages/train/form_section.py"} <= pages
    assert not any("views" in page or page.startswith(("drawing/", "session/")) for page in pages)
