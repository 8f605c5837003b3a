"""The Zone's agent: plays every hostile force under the book's four A.I. rules and RULES.md's AI-D/AI-S defaults,
each decision with its reason (ZONE HOSTILE AI). `ZoneAgent` is the entry point (game.ai.zone.agent)."""
