"""Run study batches on a Ray cluster (``pip install kibitz[cluster]``).

The same batches as the local backend, each a Ray task running the plan's job; rows come
back to the coordinating process, which alone writes the store. Any plan runs on it: a
study's (:class:`~kibitz.study.runner.StudyPlan`) or the odds' (:mod:`kibitz.study.odds`).
"""

from __future__ import annotations

from typing import Any, Callable

from kibitz.study.runner import Plan, RowT, run_job


class RayRunner:
    """A batch runner on the Ray cluster at ``address`` (a new local cluster when ``None``)."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address

    def __call__(self, plan: Plan[RowT], work: list[list[int]], deliver: Callable[[list[RowT]], None]) -> None:
        try:
            import ray
        except ImportError:
            raise SystemExit("the ray backend needs Ray: pip install 'kibitz[cluster]'") from None
        started_here = not ray.is_initialized()
        if started_here:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address is None and plan.workers:
                options["num_cpus"] = plan.workers
            ray.init(address=self.address, **options)
        pending: list[Any] = []
        try:
            task: Any = ray.remote(run_job)
            job = ray.put(plan.job())
            pending = [task.remote(job, batch) for batch in work]
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                for reference in finished:
                    deliver(ray.get(reference))
        except BaseException:
            for reference in pending:
                ray.cancel(reference, force=True)
            raise
        finally:
            if started_here:
                ray.shutdown()


def ray_runner(address: str | None = None) -> RayRunner:
    """A batch runner on the Ray cluster at ``address`` (a new local cluster when ``None``)."""
    return RayRunner(address)
