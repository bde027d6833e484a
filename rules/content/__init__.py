"""Game content (every table of the rule texts) loaded from ``resources/content``."""
