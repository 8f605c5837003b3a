"""Tiled maps: the only pytmx user (game.maps.loader turns a .tmx into an immutable Battlefield), the safe XML
reader, the map schema and the linter. The face offers `load_map` (file -> Battlefield), `read_map` (file ->
ParsedMap, every object with its typed properties), `MapError` and `MapProblem` (each problem names the file,
the object, what is wrong and how to fix it) and `lint_map` (every problem and the map's statistics). The
package may import game.core, defusedxml, numpy and shapely, and pytmx inside the loader only when a map is read;
never pygame, game.render, game.ai or game.sim, so maps load headless and without a display.
"""
from game.maps.lint import lint_map
from game.maps.loader import MapError, MapProblem, load_map, read_map

__all__ = ["MapError", "MapProblem", "lint_map", "load_map", "read_map"]
