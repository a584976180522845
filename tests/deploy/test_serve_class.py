"""make class: the app on every interface, the students' address printed first, XSRF protection kept on."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from support.paths import REPO_ROOT

from bench.servers import answers_ok, free_port, log_tail
from pages.classroom.views.address import network_address

SERVE_CLASS = REPO_ROOT / "deploy" / "serve_class.py"


def upload_without_token(url: str) -> int:
    """The status of an upload that carries no XSRF token: 403 while Streamlit's XSRF protection is on."""
    request = urllib.request.Request(f"{url}_stcore/upload_file/session/file", data=b"x", method="PUT")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_make_class_serves_the_room_s_network_with_xsrf_protection_on(tmp_path):
    host = network_address()
    if host is None:
        pytest.skip("this machine has only loopback: no room's network to serve")
    port, log = free_port(), tmp_path / "class.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, str(SERVE_CLASS), "--port", str(port)], stdout=output, stderr=subprocess.STDOUT
        )
    url = f"http://{host}:{port}/"
    try:
        deadline = time.monotonic() + 60
        while not answers_ok(f"{url}_stcore/health"):  # reached at the network address, not at localhost
            assert process.poll() is None and time.monotonic() < deadline, log_tail(log)
            time.sleep(0.25)
        lines = log.read_text(encoding="utf-8").splitlines()
        assert lines[0] == f"Students open {url} on the room's network, or scan:"
        assert set(lines[3]) <= set("█▀▄ ") and "▄" in lines[3]  # the QR code's first row of modules
        assert upload_without_token(url) == 403
    finally:
        process.terminate()
        process.wait(timeout=15)


@pytest.mark.parametrize("port", ["abc", "0", "70000", "-1"])
def test_a_bad_port_is_one_line_of_usage(port):
    result = subprocess.run(
        [sys.executable, str(SERVE_CLASS), "--port", port], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"PORT must be a whole number from 1 to 65535, not {port!r}" in result.stderr
