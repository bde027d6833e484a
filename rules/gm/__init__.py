"""The automated GM: campaign state, legal actions, events, decisions, and every procedure of the rules.

Pure like the rest of ``rules/``: no Qt, no SQLAlchemy.  Dungeons arrive as
:class:`rules.gm.site.Site` data that ``dungeon_gen`` provides; saves are the
desktop's business (``desktop/persistence``), which stores
:meth:`rules.gm.state.Campaign.to_dict` after every step.  The autoplay, a
player of this GM, is :mod:`rules.autoplay`; the GM never imports it.

The map, top to bottom.  Imports only point down; the import-linter contract
"The automated GM in layers" in ``pyproject.toml`` keeps it so (annotations
under ``TYPE_CHECKING`` may name any layer's types).

=====================  ==========================================================================
layer                  modules
=====================  ==========================================================================
facade                 ``engine``: :class:`~rules.gm.engine.GM` with the procedures wired in, the
                       step (``legal_actions``, ``apply``, ``fork``); what clients import
interlude              ``interlude``: days in a settlement, the market, the night, the job board
exploration            ``exploration``: the turn in a dungeon, doors, loot, traps, doom steps (a
                       handler per kind); starts fights and camps, and the interlude when the
                       party walks out
beside exploration     ``camp`` (setup, camp actions, the ambush), ``freeform`` (features, the
                       Die of Fate, listening), ``exploration_use`` (items, spells, prayers out of
                       a fight), ``item_rules`` (what items are for in a dungeon — lockpicks,
                       spikes, the pole, maps, ashes — a handler per item rule, registered in
                       ``powers.ITEM_RULES``), ``rearrange`` (hands and packs), ``purse`` (silver
                       between adventurers)
rewards                ``rewards``: what a room feature gives on a success, a handler per kind
encounters             ``encounters``: attitudes, parley, bribes, wanderers
combat                 ``combat`` (entry points) > ``manoeuvres`` (a handler per manoeuvre, registered
                       in ``powers.MANOEUVRES``) > ``combat_actions`` (the adventurers' actions; the
                       attack modes a manoeuvre strikes with, a handler per mode in
                       ``ATTACK_MODES``) > ``powers`` (the registries of the content's powers, keyed by
                       its names: what spells and prayers do, in and out of a fight, the
                       manoeuvres, the item rules and the item effects; ``blacksalt validate``
                       refuses content with no handler) > ``combat_flow`` (setup,
                       the turn loop, the end) > ``combat_foes`` (enemy sheets, damage to
                       enemies, their AI) > ``combat_core`` (fighters, harm, stun) >
                       ``combat_gear`` (weapons and shields) | ``combat_grid`` (tiles)
services               ``services``: :class:`~rules.gm.services.GM` — tests, fatigue, harm,
                       afflictions, death, the doom and omens trackers, decay, table rows, the
                       player's decisions (:class:`~rules.gm.services.Decider`); it hands over to
                       the procedures above only through ``GM.procedures``, which the facade fills
gear, places, alchemy  ``gear`` (kits, items spent, light, losses) | ``places`` (doors, who is in a
                       room, keys, hidden loot, secrets found) | ``alchemy`` (extracts from the
                       dead, the recipes' mixes, potions as items)
state                  ``campaign`` (a new campaign) > ``state`` (the campaign: plain dataclasses,
                       saved whole) > ``combat_state`` (the saved fight) | ``table`` (a phase's
                       actions by kind) > ``events`` (actions and events) | ``serial`` (to and
                       from JSON) | ``site`` (the dungeon as data)
=====================  ==========================================================================

Each phase lists and applies its actions through an
:class:`~rules.gm.table.ActionTable`: small functions registered by action
kind (``exploration.TABLE``; ``camp.SETUP_TABLE`` and ``camp.CAMP_TABLE``;
``interlude.DAY``, ``MARKET``, ``NIGHT`` and ``FREE``; ``combat_actions.TABLE``,
per fighter).  Where to add things: a new action is a lister and an applier
registered in the table of the module that owns its kind; a new spell or prayer
a :class:`~rules.gm.powers.Power` in ``powers``; a manoeuvre a handler in
``manoeuvres``; an item rule a handler in ``item_rules`` (or, played inside
another procedure, a line saying where in ``powers.ITEM_RULES``); an attack
mode a handler in ``combat_actions.ATTACK_MODES``; a rule every procedure
shares goes into ``services``; anything the GM must remember between steps
goes into ``state`` (it is saved as it is).  Two more kinds of content have
handlers outside ``powers``: a room feature's rewards (``rewards.HANDLERS``, which
the theme loader checks) and the doom steps (``exploration.DOOM_EVENTS``, held to
the generator's kinds by a test).
"""
