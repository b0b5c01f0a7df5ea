"""Input checks shared by every learner: shapes, finiteness, label conventions.

Every check raises ``ValueError`` with a message a student can act on (rounds, features and
experts counted from 1, as a reader counts them); nothing
here copies an array that is already float64 and C-contiguous.

>>> as_labels([1, -1, 1], "pm1", 3, "perceptron")
array([ 1., -1.,  1.])
>>> as_labels([1, 0, 1], "pm1", 3, "perceptron")
Traceback (most recent call last):
...
ValueError: perceptron: labels y must be -1 or +1; found 0 at round 2
"""
from __future__ import annotations

import numpy as np

__all__ = ["as_matrix", "as_labels", "bad_label", "as_vector", "check_binary", "first_bad"]


def first_bad(mask: np.ndarray) -> int:
    """Index of the first True entry of a boolean array (rows flattened)."""
    return int(np.flatnonzero(mask.reshape(mask.shape[0], -1).any(axis=1))[0])


def real_matrix(X, algorithm: str, *, name: str = "X", column: str = "feature") -> np.ndarray:
    """X as a real numeric (T, d) array in its own dtype, T >= 1 and d >= 1 (``column`` names a column)."""
    try:
        A = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{algorithm}: {name} is not a rectangular array ({exc})") from None
    if A.dtype == object or A.dtype.kind in "USVMm":
        raise ValueError(f"{algorithm}: {name} must hold numbers, not {A.dtype.name} values")
    if A.ndim != 2:
        raise ValueError(f"{algorithm}: {name} must be a 2-D array (rounds × {column}s); got shape {A.shape}")
    if A.shape[0] == 0:
        raise ValueError(f"{algorithm}: the stream is empty ({name} has 0 rows); give at least one round")
    if A.shape[1] == 0:
        raise ValueError(f"{algorithm}: {name} has 0 columns; give at least one {column}")
    if A.dtype.kind == "c":
        raise ValueError(f"{algorithm}: {name} must be real, not complex")
    return A


def as_matrix(X, algorithm: str, *, name: str = "X", check_finite: bool = True) -> np.ndarray:
    """X as a float64 C-contiguous (T, d) array with T >= 1 and d >= 1."""
    A = np.ascontiguousarray(real_matrix(X, algorithm, name=name), dtype=np.float64)
    if check_finite and not np.isfinite(A).all():
        t = first_bad(~np.isfinite(A))
        raise ValueError(f"{algorithm}: {name} has a NaN or infinite value at round {t + 1}")
    return A


def as_labels(y, convention: str, T: int, algorithm: str, *, check_values: bool = True) -> np.ndarray:
    """Labels as float64 (T,), checked against the convention ("pm1" or "01").

    ``check_values=False`` leaves the value check to a compiled loop that reads y anyway
    (it must then report the first bad round with :func:`bad_label`)."""
    try:
        v = np.asarray(y)
    except Exception as exc:
        raise ValueError(f"{algorithm}: labels y are not an array ({exc})") from None
    if v.dtype == object or v.dtype.kind in "USV":
        raise ValueError(f"{algorithm}: labels y must be numbers, not {v.dtype.name} values")
    if v.ndim != 1:
        raise ValueError(f"{algorithm}: labels y must be 1-D; got shape {v.shape}")
    if v.shape[0] != T:
        raise ValueError(f"{algorithm}: X has {T} rounds but y has {v.shape[0]} labels")
    v = np.ascontiguousarray(v, dtype=np.float64)
    if not check_values:
        return v
    if convention == "pm1":
        bad = np.abs(v) != 1.0
    else:
        bad = (v != 0.0) & (v != 1.0)
    if bad.any():
        bad_label(v, int(np.flatnonzero(bad)[0]), convention, algorithm)
    return v


def bad_label(v: np.ndarray, t: int, convention: str, algorithm: str):
    """Raise the ValueError for the label at round t."""
    shown = "-1 or +1" if convention == "pm1" else "0 or 1"
    raise ValueError(f"{algorithm}: labels y must be {shown}; found {_num(v[t])} at round {t + 1}")


def as_vector(u, d: int, algorithm: str, name: str) -> np.ndarray:
    """A finite float64 vector of length d."""
    try:
        a = np.asarray(u, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{algorithm}: {name} must be a vector of {d} numbers") from None
    if a.ndim != 1 or a.shape[0] != d:
        raise ValueError(f"{algorithm}: {name} must be a vector of length {d}; got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{algorithm}: {name} has a NaN or infinite entry")
    return np.ascontiguousarray(a)


def check_binary(A: np.ndarray, algorithm: str, name: str = "X") -> None:
    """Every entry of A is 0 or 1."""
    bad = (A != 0.0) & (A != 1.0)
    if bad.any():
        t = first_bad(bad)
        j = int(np.flatnonzero(bad[t])[0])
        raise ValueError(f"{algorithm}: {name} must be 0/1; found {_num(A[t, j])} at round {t + 1}, feature {j + 1}")


def _num(x: float) -> str:
    return f"{x:g}"
