"""A classroom on one machine: N Streamlit replicas of the app on 127.0.0.1 behind Debian's nginx, which reaches
them from an address of its own (``PROXY_ADDRESS``, 127.0.0.2), the one they trust to name the visitor
(``BPE_TRUSTED_PROXY``): so a visitor is the address nginx saw, and a browser beside the server is not nginx.

nginx gets its own config (rendered from ``deploy/nginx.conf.template``), pid file, logs and temp paths in a
temporary folder, so nothing under /etc/nginx is read or written. Every replica runs with the deployment's
Streamlit settings (``deploy/streamlit/config.toml``) and one shared cookie secret, so a cookie signed by one
replica is valid on another. Leaving ``running_classroom`` stops every process it started.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from bench.servers import answers_ok, free_port, log_tail, start_streamlit
from bench.servers import running_redis as redis_in  # renamed: running_redis here wraps it
from live_class.choose import STORE_ENV
from live_class.limits import TRUSTED_PROXY_ENV
from pages.classroom.views.address import CLASS_URL_ENV

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
NGINX_TEMPLATE = DEPLOY / "nginx.conf.template"
STREAMLIT_SETTINGS = DEPLOY / "streamlit" / "config.toml"
NGINX = "/usr/sbin/nginx"
START_TIMEOUT = 120.0  # seconds for every replica and the balancer to answer their health checks
STOP_TIMEOUT = 10.0
MAX_REPLICAS = 8
PROXY_ADDRESS = "127.0.0.2"  # where nginx connects to the replicas from: all of 127.0.0.0/8 is this machine's


class ClassroomDidNotStart(RuntimeError):
    """A replica or nginx exited or stayed silent; the message ends with its log."""


@dataclass
class Server:
    """One process of the classroom: a replica or the balancer."""

    name: str
    address: str  # host:port it listens on
    process: subprocess.Popen
    log: Path

    @property
    def health_url(self) -> str:
        return f"http://{self.address}/_stcore/health"


@dataclass
class Classroom:
    url: str  # the balancer, where students go
    replicas: list[Server]
    balancer: Server
    folder: Path  # configs and logs
    environment: dict[str, str]  # what every replica is started with (the cookie secret, the class store, ...)

    @property
    def replica_pids(self) -> list[int]:
        return [replica.process.pid for replica in self.replicas]


def deployment_flags(settings_file: Path = STREAMLIT_SETTINGS) -> list[str]:
    """The deployment's Streamlit settings as ``streamlit run`` flags (``--server.headless true``, ...)."""
    flags = []
    for section, options in tomllib.loads(settings_file.read_text(encoding="utf-8")).items():
        for name, value in options.items():
            flags += [f"--{section}.{name}", str(value).lower() if isinstance(value, bool) else str(value)]
    return flags


def nginx_config(listen: str, upstreams: list[str], run_dir: Path, proxy_address: str = PROXY_ADDRESS) -> str:
    """``deploy/nginx.conf.template`` filled in for nginx listening on ``listen``, reaching ``upstreams`` from
    ``proxy_address``, with paths in ``run_dir``."""
    values = {
        "@PROXY_ADDRESS@": proxy_address,
        "@RUN_DIR@": str(run_dir),
        "@ERROR_LOG@": str(run_dir / "error.log"),
        "@ACCESS_LOG@": str(run_dir / "access.log"),
        "@LISTEN@": listen,
        "@UPSTREAM_SERVERS@": "\n".join(f"        server {address};" for address in upstreams),
    }
    text = NGINX_TEMPLATE.read_text(encoding="utf-8")
    for placeholder, value in values.items():
        text = text.replace(placeholder, value)
    if leftover := re.findall(r"@[A-Z_]+@", text):
        raise ValueError(f"{NGINX_TEMPLATE.name} has placeholders nobody fills in: {leftover}")
    return text


def start_replica(index: int, folder: Path, environment: dict[str, str], port: int | None = None) -> Server:
    """Replica ``index`` on ``port`` (a free one if None), its output appended to its log."""
    port = port or free_port()
    log = folder / f"replica-{index}.log"
    process = start_streamlit("app.py", port, deployment_flags(), log, environment, append=True)
    return Server(f"replica {index}", f"127.0.0.1:{port}", process, log)


def restart_replica(classroom: Classroom, index: int) -> None:
    """Kill replica ``index`` (1-based) as a crash would (SIGKILL: no goodbye to its sessions), then start it again
    on the same address, so nginx sends its students back to it, and wait until it answers."""
    old = classroom.replicas[index - 1]
    old.process.kill()
    old.process.wait(timeout=STOP_TIMEOUT)
    port = int(old.address.rpartition(":")[2])
    new = start_replica(index, classroom.folder, classroom.environment, port)
    classroom.replicas[index - 1] = new
    wait_until_healthy([new], time.monotonic() + START_TIMEOUT)


def start_balancer(upstreams: list[str], folder: Path, port: int, listen: str, proxy_address: str) -> Server:
    if not os.access(NGINX, os.X_OK):
        raise ClassroomDidNotStart(f"{NGINX} not found: apt-get install nginx (make classroom does it as root)")
    run_dir = folder / "nginx"
    run_dir.mkdir()
    config = run_dir / "nginx.conf"
    config.write_text(nginx_config(f"{listen}:{port}", upstreams, run_dir, proxy_address), encoding="utf-8")
    log = run_dir / "error.log"
    # -e: the error log from the first moment (before the config is read nginx would use /var/log/nginx).
    command = [NGINX, "-p", str(run_dir), "-c", str(config), "-e", str(log)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    host = "127.0.0.1" if listen == "0.0.0.0" else listen
    return Server("nginx", f"{host}:{port}", process, log)


def wait_until_healthy(servers: list[Server], deadline: float) -> None:
    waiting = list(servers)
    while waiting:
        for server in list(waiting):
            if server.process.poll() is not None:
                raise ClassroomDidNotStart(
                    f"{server.name} exited with code {server.process.returncode}.\n{log_tail(server.log)}"
                )
            if answers_ok(server.health_url):
                waiting.remove(server)
        if waiting and time.monotonic() > deadline:
            raise ClassroomDidNotStart(
                f"{waiting[0].name} did not answer {waiting[0].health_url} in time.\n{log_tail(waiting[0].log)}"
            )
        time.sleep(0.25)


def stop(servers: list[Server]) -> None:
    for server in servers:
        if server.process.poll() is None:
            server.process.terminate()  # nginx: fast shutdown; Streamlit: closes its sessions
    for server in servers:
        try:
            server.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=STOP_TIMEOUT)


@contextlib.contextmanager
def running_classroom(
    replicas: int,
    port: int | None = None,
    keep_logs: bool = False,
    listen: str = "127.0.0.1",
    class_url: str = "",
    class_store: str = "",
    proxy_address: str = PROXY_ADDRESS,
):
    """Yields a ``Classroom`` of ``replicas`` app processes behind nginx on ``listen``:``port`` (a free port if
    None; ``0.0.0.0`` for every interface, ``class_url`` then the address students type), sharing the live class's
    store ``class_store`` (``BPE_CLASS_STORE``; empty: the environment's, else the SQLite default), nginx reaching
    them from ``proxy_address`` (which they trust), once all of them answer their health checks; stops them all on
    exit and removes the temporary folder unless ``keep_logs``."""
    if not 1 <= replicas <= MAX_REPLICAS:
        raise ValueError(f"replicas must be 1-{MAX_REPLICAS}, not {replicas}")
    folder = Path(tempfile.mkdtemp(prefix="bpe-classroom-"))
    folder.chmod(0o711)  # nginx's workers run as another user when started by root and must reach their temp paths
    started: list[Server] = []
    classroom = None
    try:
        # The secret goes through the environment, out of sight of `ps`.
        environment = {"STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32), TRUSTED_PROXY_ENV: proxy_address}
        if class_url:  # the Class page shows the balancer's address, the one students type
            environment[CLASS_URL_ENV] = class_url
        if class_store:
            environment[STORE_ENV] = class_store
        started += [start_replica(index, folder, environment) for index in range(1, replicas + 1)]
        upstreams = [replica.address for replica in started]
        balancer = start_balancer(upstreams, folder, port or free_port(), listen, proxy_address)
        started.append(balancer)
        wait_until_healthy(started, time.monotonic() + START_TIMEOUT)
        classroom = Classroom(f"http://{balancer.address}", started[:-1], balancer, folder, environment)
        yield classroom
    finally:
        if classroom is not None:  # a restarted replica is a new process
            started += [replica for replica in classroom.replicas if replica not in started]
        stop(started)
        if not keep_logs:
            shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def running_redis(folder: Path | None = None):
    """Debian's redis-server for the replicas' live class; yields its ``redis://`` URL. With ``folder`` its
    append-only file lives there, so a restarted server loses no class and no vote; without, in a temporary folder
    and nothing written (a test's class)."""
    if shutil.which("redis-server") is None:
        raise ClassroomDidNotStart("redis-server not found: apt-get install redis-server (make does it as root)")
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        with redis_in(folder, durable=True) as url:
            yield url
        return
    with tempfile.TemporaryDirectory(prefix="bpe-redis-") as temporary, redis_in(Path(temporary)) as url:
        yield url
