"""Heavy work as jobs: each runs in a worker process of its own under a budget (memory and time), a few at once per
server, and stops when its page stops waiting for it. Standard library only.

``run_job(function, *args, budget=..., slots=..., visitor=...)`` is the whole interface (``jobs.runner``);
``Budget`` and ``Slots`` (``jobs.budget``) say how much one job may take, how many run at once, and how the others
wait: fairly between visitors, a few each at most (``TooManyJobs`` refuses one more).
"""

from jobs.budget import Budget, Slots, TooManyJobs
from jobs.runner import JobStopped, run_job

__all__ = ["Budget", "JobStopped", "Slots", "TooManyJobs", "run_job"]
