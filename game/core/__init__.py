"""The rules core: state, actions, dice, geometry verdicts. Never imports pygame, pytmx or pymunk."""
