"""The theme files' room features are reviewed for what their success words promise (issue #13).

A feature whose success words promise something to carry away, a way or a place carries ``rewards`` that the
GM plays (``rules.gm.rewards``); the few whose words only look like a promise are named here with why.
"""

from __future__ import annotations

import re

from dungeon_gen.themes import load_themes

#: success words that promise something to carry away, a way or a place
PROMISE = re.compile(
    r"\b(coins?|silver\b(?! (?:coin|circle|star))|worth|valuable|rations?|purse|wages|loot\b|ring\b|rings\b|"
    r"hidden door|reveals a door|stair|deeper level|deepest|rare|contraband|weapon|armour|piece|oil\b|wine|lamp|"
    r"tonic|herbs|helmet|shield|spikes|knife|candles?|artifact|hoard)",
    re.IGNORECASE,
)

#: features whose success words match PROMISE but give nothing to carry: the words explain why
NOT_A_GAIN = {
    "Silver star marks",  # the sign of the silver star: lore
    "Painted walls",  # a camp quality
    "Named bars",
    "Wardens' ledger",
    "Cracked silver circle",  # spends a coin
    "Book of a name",  # a power in the final fight, not yet played
    "Wet inkwell",
    "Rusty portcullis",
    "Salt sacks",
    "Buyers' tags",
    "Half-written letter",
    "Prisoner's scrap",
    "Captain's table",  # tells where cargo is hidden elsewhere: not played yet
    "Tapping wall",  # tells where silver is hidden elsewhere: not played yet
    "Begging skeletons",  # spends a coin
    "Binding medallions",  # worth silver but taking one raises the corpse: not played yet
    "Siege tally",
    "Ransom prisoner",
    "Pitch pot",
    "Murder hole",
    "Hanging cages",
    "Embroidered blankets",
    "Cairn of tags",
    "Company banners",
    "Ship's bell",
    "Moving chains",
    "Cracked lead",
    "Last binding circle",
    "Blood circle",
    "Tipped cart",  # a shield or a bridge to use here
    "Overturned cart",  # a cart to use here
}


def test_every_feature_whose_success_promises_a_gain_has_a_reward() -> None:
    missing = []
    for tid, t in load_themes().items():
        for k in t.room_kinds:
            for f in k.features:
                if PROMISE.search(f.success) and not f.rewards and f.name not in NOT_A_GAIN:
                    missing.append(f"{tid}: {k.id}: {f.name}: {f.success}")
    assert not missing, "\n".join(missing)
