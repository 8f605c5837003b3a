"""The rules: `apply`, the turn machine, one module per action family, and every target number."""
