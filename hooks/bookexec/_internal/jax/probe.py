"""What JAX's runtime runs inside a worker (named by `JaxRuntime`, imported by the worker).

It stays light: the worker imports it before the first block, and a snippet must not notice.
"""

from __future__ import annotations

import contextlib
import sys


def flush_effects() -> None:
    """Wait for `jax.debug.print`, which runs on XLA's callback thread, before the capture is
    read; in the worker, after each block."""
    jax = sys.modules.get("jax")
    if jax is not None:
        with contextlib.suppress(Exception):
            jax.effects_barrier()


def probe() -> dict[str, str | int]:
    """In the worker, after the last block (when it is safe): the backend JAX ran the page on
    and how many devices it has; "none" and 0 when the page never imported JAX."""
    jax = sys.modules.get("jax")
    if jax is None:
        return {"backend": "none", "devices": 0}
    try:
        backend = jax.default_backend()
    except Exception as exc:
        return {"backend": f"unavailable ({type(exc).__name__})", "devices": 0}
    try:
        devices = jax.device_count()
    except Exception:
        devices = 0
    return {"backend": backend, "devices": devices}
