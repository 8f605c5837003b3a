"""Agents that play sides: the random baseline now; Zone Hostiles and the crew autopilot later."""
