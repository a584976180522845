"""A job's worker process: ``python -m jobs.worker JOB_FD MESSAGE_FD [MODULE ...]`` (started by ``jobs.runner``).

It imports the modules named while it waits, then reads its memory ceiling and takes it, then reads one job (a
function of this project and its arguments), runs it and sends back what happened as one message: ("result",
value), ("error", a ValueError's sentence) or ("memory", None); ("progress", (done, total)) messages come first if
the job reports progress.
"""

from __future__ import annotations

import importlib
import resource
import sys
from multiprocessing.connection import Connection


def serve_one_job(jobs: Connection, messages: Connection) -> None:
    ceiling = jobs.recv() * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    try:
        function, args, kwargs, reports_progress = jobs.recv()
        if reports_progress:
            kwargs = {**kwargs, "progress": lambda done, total: messages.send(("progress", (done, total)))}
        message = ("result", function(*args, **kwargs))
    except MemoryError:
        message = ("memory", None)
    except ValueError as error:  # the function refused its input: its sentence goes back
        message = ("error", str(error))
    try:
        messages.send(message)
    except MemoryError:  # the result itself does not fit under the ceiling
        messages.send(("memory", None))


if __name__ == "__main__":
    for module in sys.argv[3:]:
        importlib.import_module(module)
    serve_one_job(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))
