"""Which engine runs the kernels (numba when it imports, else their numpy twins), how a kernel is compiled,
and the one worker thread the kernels share. Every kernel module imports this one; it imports none of them.

``OLC_CORE_ENGINE=numpy`` in the environment makes "auto" mean numpy; ``OLC_CORE_THREADS=1`` keeps
every kernel on the caller's thread.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

try:  # pragma: no cover - numba is optional (the `fast` extra); depends on the environment
    import numba
except Exception:  # ImportError, or a numba that fails with this numpy
    numba = None

__all__ = ["numba", "available", "resolve_engine", "jit", "compile_seconds", "KERNELS", "COMPILE_SECONDS",
           "threads", "worker"]

#: The compiled kernels of this process by name (each compiled, or loaded from numba's cache, on first use).
KERNELS: dict[str, object] = {}
#: Seconds spent compiling (or loading from numba's cache) each kernel in this process, by name.
COMPILE_SECONDS: dict[str, float] = {}


def available() -> bool:
    return numba is not None


def resolve_engine(engine: str) -> str:
    """'auto' -> 'numba' when numba is importable (and not disabled), else 'numpy'."""
    if engine == "auto":
        if os.environ.get("OLC_CORE_ENGINE", "").lower() == "numpy" or not available():
            return "numpy"
        return "numba"
    if engine == "numba" and not available():
        raise ValueError("engine='numba' was asked for but numba is not installed; use engine='numpy'")
    return engine


def compile_seconds() -> dict[str, float]:
    """Seconds spent compiling (or loading from numba's cache) each kernel in this process."""
    return dict(COMPILE_SECONDS)


def jit(fn):
    """``fn`` compiled by numba (cached on disk, releasing the GIL)."""
    try:
        return numba.njit(cache=True, nogil=True)(fn)
    except Exception:  # read-only install: no cache locator
        return numba.njit(nogil=True)(fn)


def threads() -> int:
    """Threads the compiled kernels may use: 2 when this process may run on two or more
    CPUs, else 1; ``OLC_CORE_THREADS=1`` in the environment forces 1."""
    if os.environ.get("OLC_CORE_THREADS", "") == "1":
        return 1
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        n = os.cpu_count() or 1
    return 2 if n >= 2 else 1


_pool: ThreadPoolExecutor | None = None


def worker() -> ThreadPoolExecutor:
    """The one worker thread the kernels share (started on first use)."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="olc-core")
    return _pool
