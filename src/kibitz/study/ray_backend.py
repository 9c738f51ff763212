"""Run study batches on a Ray cluster (``pip install kibitz[cluster]``).

The same batches as the local backend, each a Ray task; rows come back to the
coordinating process, which alone writes the store.
"""

from __future__ import annotations

from typing import Any, Callable

from kibitz.study.runner import StudyPlan, solve_batch
from kibitz.study.store import Row


def ray_runner(address: str | None = None) -> Callable[[StudyPlan, list[list[int]], Callable[[list[Row]], None]], None]:
    """A batch runner on the Ray cluster at ``address`` (a new local cluster when ``None``)."""

    def run(plan: StudyPlan, work: list[list[int]], deliver: Callable[[list[Row]], None]) -> None:
        try:
            import ray
        except ImportError:
            raise SystemExit("the ray backend needs Ray: pip install 'kibitz[cluster]'") from None
        started_here = not ray.is_initialized()
        if started_here:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address is None and plan.workers:
                options["num_cpus"] = plan.workers
            ray.init(address=address, **options)
        try:
            task: Any = ray.remote(solve_batch)
            pending = [task.remote(plan.game, plan.ruleset, batch, plan.timeout, plan.nodes) for batch in work]
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                for reference in finished:
                    deliver(ray.get(reference))
        except BaseException:
            for reference in locals().get("pending", []):
                ray.cancel(reference, force=True)
            raise
        finally:
            if started_here:
                ray.shutdown()

    return run
