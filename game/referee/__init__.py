"""The Zone referee: judges every hostile decision of a game against RULES.md's ZONE HOSTILE AI and re-derives the
A.I. memory on its own (game.referee.zone.ZoneChecker); it never imports the agents."""
