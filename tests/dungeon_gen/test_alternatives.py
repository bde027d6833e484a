"""A feature's drawn parts change its words, never its effect (issue #15): the GM reads a feature's success and
failure for what they do (``rules.gm.freeform.plain_effects``: wounds, afflictions, noise, doom), so every
alternative of a ``[a|b|c]`` part must state the same effects, or one dungeon's feature would hurt where another's
does not.  ("Something wraps round the adventurer's wrist" and "seizes the adventurer's collar" both pull them in.)
"""

from __future__ import annotations

import itertools
import re

from dungeon_gen.themes import load_themes
from rules.gm import freeform

_PART = re.compile(r"\[([^\[\]]*\|[^\[\]]*)\]")


def _readings(template: str, limit: int = 400) -> list[str]:
    """The template with every combination of its parts' alternatives (phrase banks and placeholders left as
    they are), at most ``limit`` of them."""
    parts = [m[1].split("|") for m in _PART.finditer(template)]
    pieces = _PART.split(template)
    out = []
    for choice in itertools.islice(itertools.product(*parts), limit):
        text = "".join(p if i % 2 == 0 else choice[i // 2] for i, p in enumerate(pieces))
        out.append(re.sub(r" {2,}", " ", text))
    return out


def _effects(text: str, failure: bool) -> frozenset[tuple[str, str, str, int, str]]:
    return frozenset(
        (p.kind, p.who, p.name, p.amount, str(p.attr)) for p in freeform.plain_effects(text, failure=failure)
    )


def test_every_alternative_of_a_feature_outcome_does_the_same() -> None:
    differ = []
    for tid, t in load_themes().items():
        for k in t.room_kinds:
            for f in k.features:
                for failure, template in ((False, f.success), (True, f.failure)):
                    if not template or "[" not in template:
                        continue
                    seen = {_effects(r, failure) for r in _readings(template)}
                    if len(seen) > 1:
                        differ.append(f"{tid}: {k.id}: {f.name}: {template}: {sorted(map(sorted, seen))}")
    assert not differ, "\n".join(differ)
