"""Starting Ray for the ``--backend ray`` runs (arena, self-play and az training), with one clear line on failure."""

from __future__ import annotations


def start_ray(address: str | None, cpus: int):
    """``(ray, started)``: Ray, initialised here (``started``) unless it already was. A missing Ray or a cluster
    that cannot be started or joined (under load, a wrong address) is one ValueError saying what failed and what
    to try, instead of Ray's page of traceback."""
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'tabletop-zoo[distributed]'") from None
    if ray.is_initialized():
        return ray, False
    try:
        ray.init(
            address=address,
            num_cpus=None if address else cpus,
            include_dashboard=False,
            ignore_reinit_error=True,
            log_to_driver=False,
        )
    except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError, TimeoutError...
        where = f"joining the Ray cluster at {address!r}" if address else f"starting a local Ray with {cpus} CPUs"
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        fix = "check --address (a running cluster's, e.g. 10.0.0.5:6379)" if address else "retry when less loaded"
        raise ValueError(f"the ray backend failed {where}: {reason}; {fix}, or use --backend local") from None
    return ray, True
