"""Rules content as validated TOML data."""
