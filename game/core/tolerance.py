"""The one length tolerance of the battlefield in inches (GEO-1): a value within EPS of a limit meets it."""
from __future__ import annotations

EPS = 1e-6  # GEOMETRY: a value within EPS of a limit counts as meeting it
