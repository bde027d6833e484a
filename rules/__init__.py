"""Blacksalt's pure rules engine for Dead Weight (Pedro Medeiros, CC BY 4.0).

No Qt, no SQLAlchemy, no I/O besides reading ``resources/``.  Every random
call takes an explicit :class:`random.Random`.
"""
