"""The pygame-ce client: the only code that draws to a window (issue 17). It computes no rule: what it shows comes
from core queries and events. Importing this package (or `game.client.play_cli`) imports no pygame, pymunk or
pygame_gui; the modules that draw import pygame themselves."""
