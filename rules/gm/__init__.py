"""The automated GM: campaign state, legal actions, events, decisions, and every procedure of the rules.

Pure like the rest of ``rules/``: no Qt, no SQLAlchemy.  Dungeons arrive as
:class:`rules.gm.site.Site` data that ``dungeon_gen`` provides; saves are the
desktop's business (``desktop/persistence``), which stores
:meth:`rules.gm.state.Campaign.to_dict` after every step.
"""
