"""Pictures of a battlefield and the overlays that show geometry verdicts (map pictures now, the client later)."""
