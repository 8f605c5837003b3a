"""Tiled maps: the only pytmx user, the safe XML reader, the map schema and the linter."""
