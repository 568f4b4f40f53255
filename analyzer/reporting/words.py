"""A report's labels in words: a distribution's bins ("1 to 16", "23 or more" for the
labels ``1_16`` and ``23_up``), a house rule switched ("`opp_cap=0`" with what the rule
means), lists that read as a sentence, and the assumptions a decision guide was played
under (the rules and the field's policy, every choice by its name)."""

from __future__ import annotations

import re

from analyzer.present.advice_words import policy_words, rule_pairs


def bin_text(label: str) -> str:
    """A distribution bin's label in words: ``1_16`` -> "1 to 16" (``1_2`` -> "1 or 2"), ``23_up`` -> "23 or
    more", ``under_50`` -> "under 50", ``length_9_up`` -> "9 or more" (and ``5-8``,
    ``33+`` the same way); any other label
    with its underscores as spaces."""
    label = re.sub(r"^(?!under_)[a-z]+_(?=\d)", "", label)  # an outcome's full name: its family's prefix
    if found := re.fullmatch(r"(\d+)[_-](\d+)", label):
        low, high = found.groups()
        return f"{low} or {high}" if int(high) == int(low) + 1 else f"{low} to {high}"
    if found := re.fullmatch(r"(\d+)(_up|\+)", label):
        return f"{found.group(1)} or more"
    if found := re.fullmatch(r"under_(\d+)", label):
        return f"under {found.group(1)}"
    return label.replace("_", " ")


def listed(items: list[str], last: str = "and") -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"; an item that holds a
    comma of its own ("low trump, king") in quotation marks, so it reads as one."""
    shown = [f"“{item}”" if "," in item else item for item in items]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + f" {last} " + shown[-1]


def sentence(text: str) -> str:
    """``text`` with a capital first letter (a card or a call such as ``7H`` unchanged)."""
    return text[:1].upper() + text[1:] if text else text


def switch_key(label: str) -> str:
    """The rule a house-rules switch changes: ``opp_cap=0`` -> ``opp_cap``."""
    return label.split("=")[0]


def switch_meaning(spec, label: str) -> str:
    """What a house-rules switch means, for a reader who has not learnt the rule's key:
    the rule's help and the standard value it replaces."""
    key, _, value = label.partition("=")
    fields = {f.key: f for f in spec.rules}
    if key not in fields:
        return ""
    field = fields[key]
    standard = field.value_text(spec.default_rules()[[f.key for f in spec.rules].index(key)])
    return f"{field.help}; {value} instead of the standard {standard}"


def switch_text(spec, label: str) -> str:
    """A switch named with its meaning: "`opp_cap=0` (the most a side can reach …; 0
    instead of the standard 490)"."""
    meaning = switch_meaning(spec, label)
    return f"`{label}` ({meaning})" if meaning else f"`{label}`"


def switches_legend(spec, labels: list[str]) -> str:
    """One paragraph saying what each switched rule means and its standard value."""
    fields = {f.key: f for f in spec.rules}
    seen: list[str] = []
    for label in labels:
        key = switch_key(label)
        if key in fields and key not in seen:
            seen.append(key)
    rules = spec.default_rules()
    keys = [f.key for f in spec.rules]
    parts = [
        f"`{key}`: {fields[key].help} (standard: {fields[key].value_text(rules[keys.index(key)])})" for key in seen
    ]
    return "What the switched rules mean: " + "; ".join(parts) + "." if parts else ""


def policy_text(spec, policy_row) -> str:
    """One seat's policy as a user writes it (the advice answer's words, the same)."""
    return policy_words(spec, policy_row)


def rules_text(spec, rules) -> str:
    """A rule set as a user writes it: ``target=11, gift_then=play, …``."""
    return ", ".join(rule_pairs(spec, rules))


def field_text(spec, players: int) -> str:
    """The field a guide's cells were played against, in words: "a field playing the
    default policy: threshold=7, informed=0" (every seat the same), or each seat's where
    the default differs by seat."""
    policy = spec.default_policy(players)
    rows = [policy_text(spec, row) for row in policy]
    if len(set(rows)) == 1:
        return f"a field playing the default policy: {rows[0]}"
    return "a field playing the default policy: " + "; ".join(f"seat {s} {row}" for s, row in enumerate(rows))


def main_field_text(spec, players: int) -> str:
    """The field's policy by its main strategy fields only (a verdict's short form):
    "a field playing the default policy: threshold=7"."""
    keys = [f.key for f in spec.policy_fields]
    main = [key for key in spec.strategy_fields if key in keys] or keys[:3]
    policy = spec.default_policy(players)
    rows = {
        ", ".join(f"{key}={spec.policy_field(key).value_text(row[keys.index(key)])}" for key in main) for row in policy
    }
    if len(rows) == 1:
        return f"a field playing the default policy: {rows.pop()}"
    return "a field playing the default policy"
