"""The battlefield geometry in inches (GEO-*): distances, terrain, sight and cover, templates, movement."""
