"""Copying state records from Python.

``ndarray.copy()`` of a structured record copies field by field (numpy 2.x), which takes longer than a whole
game step; going through the bytes is one memcpy.
Inside numba ``s.copy()`` is already a memcpy; this is for Python callers.
"""

from __future__ import annotations

import numpy as np


def copy_record(record: np.ndarray) -> np.ndarray:
    """A writable, independent copy of a state record (same dtype and shape)."""
    return np.frombuffer(bytearray(record.tobytes()), record.dtype).reshape(record.shape)
