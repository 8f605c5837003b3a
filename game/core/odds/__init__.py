"""Exact odds of declared attacks, computed from the rules' own numbers (COMBAT-4.*)."""
