"""Run study batches on a Ray cluster (``pip install kibitz[cluster]``).

The same batches as the local backend, each a Ray task running the plan's job; rows come
back to the coordinating process, which alone writes the store. Any plan runs on it: a
study's (:class:`~kibitz.study.runner.StudyPlan`) or the odds' (:mod:`kibitz.study.odds`).
"""

from __future__ import annotations

from typing import Any, Callable

from kibitz.study.runner import Plan, RowT, run_job


class RayRunner:
    """A batch runner on the Ray cluster at ``address`` (a new local cluster when ``None``).

    Ray starts (or is joined) at the first plan and stays up for the next ones, so that a
    command running several plans (``kibitz study all --ruleset all``) starts it once;
    :meth:`close` shuts down what this runner started.
    """

    def __init__(self, address: str | None = None) -> None:
        self.address = address
        self.started = False

    def __call__(self, plan: Plan[RowT], work: list[list[int]], deliver: Callable[[list[RowT]], None]) -> None:
        try:
            import ray
        except ImportError:
            raise SystemExit("the ray backend needs Ray: pip install 'kibitz[cluster]'") from None
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address is None and plan.workers:
                options["num_cpus"] = plan.workers
            ray.init(address=self.address, **options)
            self.started = True
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
            self.close()
            raise

    def close(self) -> None:
        """Shut down the Ray runtime this runner started (a cluster joined stays up: only
        this process leaves it)."""
        if self.started:
            import ray
            ray.shutdown()
            self.started = False

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def ray_runner(address: str | None = None) -> RayRunner:
    """A batch runner on the Ray cluster at ``address`` (a new local cluster when ``None``)."""
    return RayRunner(address)
