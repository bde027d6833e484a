"""Spending insight (core rules, "Insight points").

Each way to spend insight is listed with its cost and, when it cannot be
taken now, the reason, so the UI can grey it out with an explanation.
The costs come from ``character.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.attributes import ATTRS, Attr
from rules.character import MAX_PROFICIENCY, MAX_SCORE, Character
from rules.checks import RuleError
from rules.content.schema_tables import InsightSpend


@dataclass(frozen=True)
class SpendOption:
    rule: str
    name: str
    cost: int
    targets: tuple[str, ...]  # what it can apply to (attributes, skills, traumas)
    unavailable: str | None = None  # why not, or None


def spend_options(
    ch: Character, spends: list[InsightSpend], learnable_skills: list[str], *, at_creation: bool = False
) -> list[SpendOption]:
    """Every way to spend insight now, with targets or the reason it is unavailable.

    At creation scores stay within 0..3 and proficiencies within 0..2.
    """
    out: list[SpendOption] = []
    score_cap = MAX_SCORE if at_creation else 99
    prof_cap = MAX_PROFICIENCY if at_creation else 99
    scores = {a: ch.attrs[a].score for a in ATTRS}
    for sp in spends:
        targets: tuple[str, ...] = ()
        why: str | None = None
        if sp.rule == "move_attribute_score":
            top = max(scores.values())
            targets = tuple(
                f"{h.value}>{lo.value}"
                for h in ATTRS
                if scores[h] == top
                for lo in ATTRS
                if scores[lo] < top and scores[lo] < score_cap
            )
            if not targets:
                why = "no attribute is lower than the highest"
        elif sp.rule == "learn_skill":
            targets = tuple(s for s in learnable_skills if not ch.has_skill(s))
            if not targets:
                why = "no skill left to learn"
        elif sp.rule == "heal_trauma":
            targets = tuple(sorted(ch.traumas))
            if not targets:
                why = "no trauma to heal"
        elif sp.rule == "increase_lowest_score":
            low = min(scores.values())
            targets = tuple(a.value for a in ATTRS if scores[a] == low and scores[a] < score_cap)
            if not targets:
                why = "every score is at its maximum"
        elif sp.rule == "increase_score":
            targets = tuple(a.value for a in ATTRS if scores[a] < score_cap)
            if not targets:
                why = "every score is at its maximum"
        elif sp.rule == "increase_proficiency":
            targets = tuple(a.value for a in ATTRS if ch.attrs[a].proficiency < prof_cap)
            if not targets:
                why = "every proficiency is at its maximum"
        else:
            why = f"unknown insight rule {sp.rule!r}"
        if why is None and ch.insight < sp.cost:
            why = f"needs {sp.cost} insight, {ch.name} has {ch.insight}"
        out.append(SpendOption(sp.rule, sp.name, sp.cost, targets, why))
    return out


def learnable_skills(ch: Character, skills: list[tuple[str, str | None]]) -> list[str]:
    """Skills ``ch`` may learn: basic ones not known, and advanced ones whose basic skill is known.

    ``skills``: (name, advanced_of) for every skill.
    """
    out = []
    for name, basic in skills:
        if ch.has_skill(name):
            continue
        if basic is None or ch.has_skill(basic):
            out.append(name)
    return out


def spend(ch: Character, option: SpendOption, target: str, *, upgrades: dict[str, str] | None = None) -> str:
    """Apply one insight spend to ``target``; returns a line for the log.

    ``upgrades`` maps an advanced skill to the basic skill it replaces.
    """
    if option.unavailable:
        raise RuleError(option.unavailable)
    if target not in option.targets:
        raise RuleError(f"{option.name}: {target!r} is not a valid choice")
    ch.spend_insight(option.cost)
    if option.rule == "move_attribute_score":
        src, dst = (Attr(x) for x in target.split(">"))
        ch.attrs[src].score -= 1
        ch.attrs[dst].score += 1
        ch.attrs[src].fit()
        return f"{ch.name} moves a point of {src.value} to {dst.value}"
    if option.rule == "learn_skill":
        basic = (upgrades or {}).get(target)
        if basic is not None and ch.has_skill(basic):
            ch.skills[[x.lower() for x in ch.skills].index(basic.lower())] = target
            return f"{ch.name} masters {basic}: now {target}"
        ch.skills.append(target)
        return f"{ch.name} learns {target}"
    if option.rule == "heal_trauma":
        ch.traumas.discard(target)
        return f"{ch.name} heals {target}"
    if option.rule in ("increase_lowest_score", "increase_score"):
        ch.attrs[Attr(target)].score += 1
        return f"{ch.name}'s {target} score rises to {ch.attrs[Attr(target)].score}"
    if option.rule == "increase_proficiency":
        ch.attrs[Attr(target)].proficiency += 1
        return f"{ch.name}'s {target} proficiency rises to {ch.attrs[Attr(target)].proficiency}"
    raise RuleError(f"unknown insight rule {option.rule!r}")
