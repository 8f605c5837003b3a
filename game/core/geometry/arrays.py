"""Type names for the flat arrays the geometry and its kernels compute with: inches, ids and verdicts (GEO-1)."""
from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

Floats: TypeAlias = NDArray[np.float64]
Ints: TypeAlias = NDArray[np.int64]
Bools: TypeAlias = NDArray[np.bool_]
FloatSeq: TypeAlias = Sequence[float] | Floats  # flat floats a kernel reads: a Python list or a numpy array
IntSeq: TypeAlias = Sequence[int] | Ints
FloatBuf: TypeAlias = MutableSequence[float] | Floats  # scratch floats a kernel writes
