"""Names for the flat numpy arrays the geometry computes with: coordinates in inches, ids and verdicts (GEO-1)."""
from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

Floats: TypeAlias = NDArray[np.float64]
Ints: TypeAlias = NDArray[np.int64]
Bools: TypeAlias = NDArray[np.bool_]
