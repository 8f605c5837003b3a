"""Line of sight and cover (GEO-10..GEO-14): the exact verdicts, their compiled kernels and the naive reference."""
