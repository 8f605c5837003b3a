"""The rules core. Its direct modules are the data model: `state` (the game state, plain data that round-trips
through JSON), `actions` (every decision, named after the rulebook), `events` (what `apply` reports, citing rule
IDs), `dice` (the seeded PRNG, scripted dice, D10 pools), `settings` (the house settings of RULES.md CFG), `record`
(replays and versioned saves), `battlefield` (the immutable table, the seam to geometry), `tolerance` (GEO-1) and
`catalog/` (rules content from game/data with the settings applied). This face is import-free: importing
`game.core` loads no subpackage, so import from the module that defines a name (`game.core.rules.apply`, not
`game.core`). The layers point one way, data model < geometry < rules < odds: each imports only the layers below
it, and nothing in the core imports pygame, pytmx, pymunk or a client.
"""
