"""The Class page's address: the class a student joins (``join=CODE``) and, once joined, who they are
(``student=ID``), so a phone that reloads the tab comes back to the class under the same name. Nothing in an
address makes anyone the teacher: that key stays in the teacher's session.

>>> warnings = []
>>> read_class_link({"join": "abc23", "student": "<script>"}, warnings), warnings
(('ABC23', None), ['student=<script>: not a student of a class'])
"""

from __future__ import annotations

from collections.abc import Mapping

from live_class.rules import is_student_id, read_code

JOIN_PARAM = "join"
STUDENT_PARAM = "student"


def class_params(code: str | None, student: str | None = None) -> dict[str, str]:
    """
    >>> class_params("ABC23", "s" * 16)
    {'join': 'ABC23', 'student': 'ssssssssssssssss'}
    """
    params = {JOIN_PARAM: code} if code else {}
    if code and student:
        params[STUDENT_PARAM] = student
    return params


def read_class_link(params: Mapping[str, str], warnings: list[str]) -> tuple[str | None, str | None]:
    """The class code and student id an address gives (None for what is absent or malformed, then warned)."""
    code = student = None
    if JOIN_PARAM in params:
        code = read_code(params[JOIN_PARAM])
        if code is None:
            warnings.append(f"{JOIN_PARAM}={params[JOIN_PARAM][:40]}: not a class code")
    if STUDENT_PARAM in params:
        if code and is_student_id(params[STUDENT_PARAM]):
            student = params[STUDENT_PARAM]
        else:
            warnings.append(f"{STUDENT_PARAM}={params[STUDENT_PARAM][:40]}: not a student of a class")
    return code, student
