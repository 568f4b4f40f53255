"""GameSpec: what a game module declares, and the typed pieces it is made of.

A game module exports ``Rules`` (a ``typing.NamedTuple`` whose fields are annotated with
:class:`Switch`), ``POLICY_FIELDS``, ``VARIANTS``, ``POLICIES``, the outcome names of each
mode, ``check`` and one kernel per mode, and ties them together in one ``SPEC``.  Everything
the analyzer shows or parses is read from here, so adding a game needs no code in
``analyzer/``.
"""

from __future__ import annotations

import enum
import importlib
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np


class Mode(enum.IntEnum):
    """What a kernel plays: hands (one deal each) or whole games.  ADVICE and SOLVE are no
    modes of a game's own: advice runs (sims.advice) and solve sweeps (sims.solve) play
    deals through the engine under them."""

    HANDS = 0
    GAMES = 1
    ADVICE = 2
    SOLVE = 3


MODE_NAMES: dict[int, str] = {Mode.HANDS: "hands", Mode.GAMES: "games", Mode.ADVICE: "deals", Mode.SOLVE: "deals"}


@dataclass(frozen=True)
class Switch:
    """Annotation of one rule field: its help text and its allowed values.

    ``choices`` names the values of an int-coded enum in code order (CLI spelling, kebab
    case); ``lo``/``hi`` bound an integer; a ``bool`` field needs neither.  ``games_only``
    marks a rule that acts only across the deals of a whole game (lives, a target score,
    who deals next), so hand mode plays the same with any value of it.  ``stake`` marks a
    rule that sets what is paid (an ante, a fee, an extra, a bonus) rather than how the
    cards are played: reports show those apart, since a bigger stake moves every chip
    figure.  ``simulation`` marks a setting of the simulation rather than a rule of the
    game (a cap on a game's length, which hand a hand-mode run samples): reports show it
    apart from the rules of play too.
    """

    help: str
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    games_only: bool = False
    stake: bool = False
    simulation: bool = False


@dataclass(frozen=True)
class RuleField:
    """One rule switch as the analyzer sees it."""

    key: str
    kind: str  # "choice", "int" or "bool"
    default: int
    help: str
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    games_only: bool = False  # acts only in whole games (see Switch)
    stake: bool = False  # sets what is paid, not how the cards are played (see Switch)
    simulation: bool = False  # a setting of the simulation, not a rule of the game (see Switch)

    def value_text(self, code: int) -> str:
        if self.kind == "choice":
            return self.choices[code]
        if self.kind == "bool":
            return "true" if code else "false"
        return str(code)

    def value_json(self, code: int) -> str | bool | int:
        """A value as JSON carries it: a choice's name, true/false, or the number."""
        if self.kind == "choice":
            return self.choices[int(code)]
        if self.kind == "bool":
            return bool(code)
        return int(code)

    def allowed_text(self) -> str:
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "bool":
            return "true | false"
        return f"{self.lo}..{self.hi}"


def rule_fields(rules_type: Any) -> tuple[RuleField, ...]:
    """The :class:`RuleField` of every field of a ``Rules`` NamedTuple, in field order."""
    hints = typing.get_type_hints(rules_type, include_extras=True)
    fields = []
    for key in rules_type._fields:
        hint = hints[key]
        base, switch = typing.get_args(hint)[0], typing.get_args(hint)[1]
        default = int(rules_type._field_defaults[key])
        if switch.choices:
            kind = "choice"
        elif base is bool:
            kind = "bool"
        else:
            kind = "int"
        fields.append(
            RuleField(
                key,
                kind,
                default,
                switch.help,
                switch.choices,
                switch.lo,
                switch.hi,
                switch.games_only,
                switch.stake,
                switch.simulation,
            )
        )
    return tuple(fields)


def indices(fields: Any, *keys: str) -> tuple[int, ...]:
    """The positions of ``keys`` among ``fields``: a ``Rules`` NamedTuple type (its field
    order is the kernels' rules array), ``POLICY_FIELDS`` (the policy matrix's columns) or
    a tuple of outcome names.  Kernels derive their ``R_*``/``P_*``/column constants with
    it, so a field added or moved cannot leave an index behind (``ValueError`` names an
    unknown key at import)."""
    names = list(fields._fields) if hasattr(fields, "_fields") else [getattr(f, "key", f) for f in fields]
    missing = [key for key in keys if key not in names]
    if missing:
        raise ValueError(f"no field {', '.join(missing)} among {', '.join(names)}.")
    return tuple(names.index(key) for key in keys)


def check_rule_values(rules) -> None:
    """Raise ``ValueError`` when a rule of a ``Rules`` NamedTuple holds a value its field
    does not allow (the command line refuses these when parsing; this guards direct calls
    such as a stacked-deck test's)."""
    for rule, value in zip(rule_fields(type(rules)), rules):
        code = int(value)
        allowed = (
            0 <= code < len(rule.choices)
            if rule.kind == "choice"
            else code in (0, 1)
            if rule.kind == "bool"
            else (rule.lo is None or rule.lo <= code) and (rule.hi is None or code <= rule.hi)
        )
        if code != value or not allowed:
            raise ValueError(f"rule {rule.key} takes {rule.allowed_text()}, not {value}.")


@dataclass(frozen=True)
class PolicyField:
    """One column of the per-seat policy matrix."""

    key: str
    default: float
    lo: float
    hi: float
    help: str
    integer: bool = False
    choices: tuple[str, ...] = ()  # names of integer codes, when the field is an enum

    def value_text(self, value: float) -> str:
        """A value as a user writes it: a choice's name, else the number."""
        if self.choices and float(value).is_integer() and 0 <= value < len(self.choices):
            return self.choices[int(value)]
        return f"{value:g}"

    def value_json(self, value: float) -> str | int | float:
        """A value as JSON carries it: a choice's name, a whole number for an integer
        field, else the number."""
        if self.choices and float(value).is_integer() and 0 <= value < len(self.choices):
            return self.choices[int(value)]
        return int(value) if self.integer and float(value).is_integer() else float(value)

    def allowed_text(self) -> str:
        if self.choices:
            return " | ".join(self.choices)
        if self.integer:
            return f"{int(self.lo)}..{int(self.hi)}"
        return f"{self.lo:g}..{self.hi:g}"


def check_policy_values(fields: Sequence[PolicyField], policy: np.ndarray, n_seats: int) -> None:
    """Raise ``ValueError`` when a policy matrix is not one row of ``fields`` per seat, or
    holds a value outside its field's range, or a fraction in an integer column."""
    # columns past the fields are strategy tables' blocks (sims.core.table), read by their own checks
    if np.ndim(policy) != 2 or np.shape(policy)[0] != n_seats or np.shape(policy)[1] < len(fields):
        raise ValueError(
            f"the policy must have one row of {len(fields)} fields per seat ({n_seats} seats), "
            f"not shape {np.shape(policy)}."
        )
    for seat, row in enumerate(policy):
        for column, value in zip(fields, row):
            if not column.lo <= value <= column.hi or (column.integer and value != int(value)):
                raise ValueError(
                    f"policy field {column.key} of seat {seat} takes {column.allowed_text()}, not {value:g}."
                )


@dataclass(frozen=True)
class Variant:
    """A named rule preset; ``players`` and ``policy`` are suggested defaults for it."""

    rules: Mapping[str, int]
    help: str
    players: int | None = None
    policy: str | None = None


@dataclass(frozen=True)
class PolicyPreset:
    """A named policy: ``base`` for every seat, ``seats`` overrides (negative = from the end)."""

    base: Mapping[str, float]
    help: str
    seats: Mapping[int, Mapping[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcomes:
    """Accumulator columns of one mode.

    Seat rows hold ``seat`` columns, the extra last row holds ``table`` columns.  A column
    named ``X_sq`` is the sum of squares of ``X`` (used for standard errors); a column
    without one is a 0/1 indicator.  A column ``X_count`` makes ``X`` a conditional mean:
    averaged over that count instead of over all hands.  ``scale`` divides stored
    integers into user units.  ``odds`` names probabilities whose fair odds against are
    also shown; ``groups`` names families ``X_<label>`` shown together as one small table
    (title, labels).  ``signed`` names the general quantities that may be negative (net
    chips); every other ``X_sq`` quantity is a count or total that cannot be, and its
    interval never goes below zero.  ``conserved`` names the seat quantities the game
    neither makes nor loses: in every hand (or game) their sum over the seats is zero, or,
    where the name maps to a table column, minus that column (chips left in a pool that
    carries on); the conformance tests check it for every game that declares one.

    A ratio over games (a conditional mean whose observations come in groups: chips per
    deal over games of several deals) has ``X`` and ``X_sq`` summed per game, ``X_count``
    the denominator per game, and ``X_count_sq`` and ``X_cross``, the sums over games of
    the denominator squared and of ``X`` times the denominator: its standard error is then
    the ratio estimator's (delta method), not that of independent observations.
    """

    seat: tuple[str, ...]
    table: tuple[str, ...]
    scale: Mapping[str, int] = field(default_factory=dict)
    help: Mapping[str, str] = field(default_factory=dict)
    odds: Mapping[str, str] = field(default_factory=dict)
    groups: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    limbs: Mapping[str, int] = field(default_factory=dict)
    maxima: tuple[str, ...] = ()
    lower_is_better: tuple[str, ...] = ()  # outcomes a player wants small (a lost life, exposure)
    signed: tuple[str, ...] = ()  # quantities that may be negative (net chips); the others cannot
    conserved: Mapping[str, str | None] = field(default_factory=dict)  # zero-sum seat columns (their balance)
    # groups whose indicators split every hand (or game) into bins: drawn as histograms
    distributions: tuple[str, ...] = ()
    # groups whose labels are a row part then a column part (Five Hundred's "7nt": "7" + "nt"):
    # group -> (row parts, column parts); labels that fit no cell are shown apart
    grids: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)

    def nonnegative(self, name: str) -> bool:
        """True for a general quantity (with ``X_sq``) that cannot be negative."""
        return name not in self.signed

    @staticmethod
    def companion(name: str) -> bool:
        """True for a column that serves another one's estimate (``_sq``, ``_count``,
        ``_count_sq``, ``_cross``) rather than being an estimate itself."""
        return name.endswith(("_sq", "_count", "_cross"))

    def estimated(self, columns: Sequence[str]) -> list[str]:
        """The columns of ``columns`` that are estimates a user sees: not the companions,
        not the largest-value columns."""
        return [name for name in columns if not self.companion(name) and name not in self.maxima]

    def squares_follow(self) -> bool:
        """True when every ``X_sq`` column comes right after its ``X`` (kernels that write
        the square at X's column + 1 assert this)."""
        return all(
            columns[i + 1] == name + "_sq"
            for columns in (self.seat, self.table)
            for i, name in enumerate(columns)
            if name + "_sq" in columns
        )

    @property
    def width(self) -> int:
        """Columns of the decoded sums (one per outcome name)."""
        return max(len(self.seat), len(self.table))

    def kernel_columns(self, columns: tuple[str, ...]) -> tuple[str, ...]:
        """The kernel's column names: each wide column followed by its extra limbs."""
        return tuple(
            name
            for column in columns
            for name in (column,) + tuple(f"{column}_limb{k}" for k in range(1, self.limbs.get(column, 1)))
        )

    @property
    def kernel_width(self) -> int:
        """Columns of a kernel's output (wide columns take one per limb)."""
        return max(len(self.kernel_columns(self.seat)), len(self.kernel_columns(self.table)))

    def decode(self, raw: np.ndarray) -> np.ndarray:
        """Kernel output -> sums with one column per outcome: the same int64 array when
        there are no wide columns, else an object array of exact Python integers."""
        if not self.limbs:
            return raw
        rows = raw.shape[0]
        sums = np.zeros((rows, self.width), dtype=object)
        for row in range(rows):
            columns = self.seat if row < rows - 1 else self.table
            k = 0
            for i, column in enumerate(columns):
                value = 0
                for limb in range(self.limbs.get(column, 1)):
                    value += int(raw[row, k]) << (32 * limb)
                    k += 1
                sums[row, i] = value
        return sums

    def zeros(self, n_seats: int) -> np.ndarray:
        """Empty decoded sums for a table of ``n_seats``."""
        return np.zeros((n_seats + 1, self.width), dtype=object if self.limbs else np.int64)

    def combine(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The decoded sums of two disjoint runs: sums add, maxima take the larger."""
        total = a + b
        for name in self.maxima:
            if name in self.seat:
                i = self.seat.index(name)
                total[:-1, i] = np.maximum(a[:-1, i], b[:-1, i])
            if name in self.table:
                i = self.table.index(name)
                total[-1, i] = max(a[-1, i], b[-1, i])
        return total


_FIXED_KERNELS: dict[tuple, dict] = {}  # (game, mode) -> {key: fixed-rules kernel}


def kernel_around_loop(new_hand_table: Callable, loop: Callable) -> Callable:
    """A hand kernel ``(rules, policy, n, seed, first, count) -> sums`` made of two compiled
    parts: ``new_hand_table(rules, policy, n)`` allocates ``(tables, out)`` and
    ``loop(tables, out, n, seed, first, count)`` fills ``out``.  Fixed-rules kernels are
    built this way because a compiled kernel holding the loop (a closure over a
    dispatcher) would miss Numba's cache in every process.  ``.loop`` is the compiled
    loop, for inspection; ``.parts`` both compiled parts."""

    def simulate_hands_fixed(rules, policy, n, seed, first, count):
        tables, out = new_hand_table(rules, policy, n)
        loop(tables, out, n, seed, first, count)
        return out

    simulate_hands_fixed.loop = loop  # type: ignore[attr-defined]  # the parts, for the kernel cache check
    simulate_hands_fixed.parts = (new_hand_table, loop)  # type: ignore[attr-defined]
    return simulate_hands_fixed


@dataclass(frozen=True)
class GameSpec:
    """Everything the analyzer needs to know about one game."""

    name: str  # CLI name, e.g. "chase-ace"
    title: str
    summary: str
    rules_type: type
    policy_fields: tuple[PolicyField, ...]
    variants: Mapping[str, Variant]
    policies: Mapping[str, PolicyPreset]
    outcomes: Mapping[int, Outcomes]  # by mode
    headline: Mapping[int, str]  # the outcome a strategy question is about, by mode
    min_players: int
    max_players: int
    default_players: int
    kernel_version: int
    # the game's own checks of a table within the player range (rules that need a table
    # size, policy values): raise ValueError with a sentence; :meth:`check` calls it
    check_table: Callable[[Any, np.ndarray, int], None]
    # by mode: njit(nogil=True) kernel(rules, policy, n_seats, seed, first, count) -> int64 sums
    kernels: Mapping[int, Callable]
    # by mode: (key(rules_array) -> hashable, make(key) -> kernel, keys to use it for): a
    # kernel compiled for fixed rule values, used in place of the mode's kernel for rules
    # whose key is listed (see kernel_for); the same sums, faster, one compile per key
    fixed_kernels: Mapping[int, tuple] = field(default_factory=dict)
    twin: str | None = None  # module of the plain-Python player: simulate(), replay_lines()
    exact: str | None = None  # module of the exact enumerator, where the game has one
    advice: str | None = None  # module of the advice: DECISIONS, situation(), advise_nb (sims.advice)
    # module of the strategy tables: TABLES, policy_table() (sims.core.table, sims.solve)
    tables: str | None = None
    solve: str | None = None  # module of the tables' solve kernel, ``solve_nb`` (sims.solve)
    # "module:function" that built this spec from the game's (an advice or solve run's:
    # sims.advice, sims.solve), called as function(spec, rules_array, n_seats) by a cluster
    # worker to build it again; None for a game's own spec
    derived_by: str | None = None
    players_why: str = ""  # why the player range is what it is ("one card each and one to cut")
    bench_players: tuple[int, ...] = ()  # table sizes `analyze bench` measures
    last_seat_role: str = "dealer"  # who sits in the last seat in hand mode
    # (rules, n_seats) -> a sentence the output shows for a table the rules only tolerate
    warning: Callable[[Any, int], str | None] | None = None
    # strategy questions: the policy fields a player really decides (swept and optimised in
    # reports, the first is `analyze optimize`'s default), the mode whose headline decides
    # them, and the table sizes a report finds best responses for
    strategy_fields: tuple[str, ...] = ()
    strategy_mode: int = Mode.HANDS
    report_players: tuple[int, ...] = ()

    def kernel_for(self, mode: int, rules_array) -> Callable:
        """The kernel that plays ``mode`` under ``rules_array``: the fixed-rules kernel
        where the game has one for these rules (made once per process), else the mode's
        kernel.  Both give the same sums."""
        fixed = self.fixed_kernels.get(mode)
        if fixed is None:
            return self.kernels[mode]
        key_of, make, keys = fixed
        key = key_of(rules_array)
        if key not in keys:
            return self.kernels[mode]
        cache = _FIXED_KERNELS.setdefault((self.name, mode), {})
        if key not in cache:
            cache[key] = make(key)
        return cache[key]

    def check_players(self, n_seats: int) -> None:
        """``ValueError`` with one sentence unless ``n_seats`` is in the game's range
        (``min_players`` to ``max_players``, why in ``players_why``): the one place the
        range is checked."""
        if not self.min_players <= n_seats <= self.max_players:
            allowed = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            why = f" ({self.players_why})" if self.players_why else ""
            raise ValueError(f"{self.title} takes {allowed} players{why}, not {n_seats}.")

    def check(self, rules, policy: np.ndarray, n_seats: int) -> None:
        """``ValueError`` with one sentence when the table cannot be played: the player
        range (:meth:`check_players`), then the game's own checks (``check_table``)."""
        self.check_players(n_seats)
        self.check_table(rules, policy, n_seats)

    def table_module(self):
        """The game's strategy-table module (imported on demand); ``ValueError`` without one."""
        if not self.tables:
            raise ValueError(f"{self.name} has no strategy tables yet.")
        return importlib.import_module(self.tables)

    def solve_kernel(self) -> Callable:
        """The compiled ``solve_nb`` of the game's tables (imported on demand, so reading
        a table compiles nothing)."""
        if not self.solve:
            raise ValueError(f"{self.name} has no strategy tables yet.")
        return importlib.import_module(self.solve).solve_nb

    def twin_module(self):
        """The game's plain-Python slow twin (imported on demand), or None."""
        return importlib.import_module(self.twin) if self.twin else None

    def exact_module(self):
        """The game's exact enumerator (imported on demand), or None where it has none."""
        return importlib.import_module(self.exact) if self.exact else None

    def advice_module(self):
        """The game's advice module (imported on demand); ``ValueError`` without one."""
        if not self.advice:
            raise ValueError(f"{self.name} has no advice yet.")
        return importlib.import_module(self.advice)

    def decisions(self) -> tuple:
        """The decisions ``analyze advise`` answers (:class:`sims.core.advice.Decision`)."""
        return tuple(self.advice_module().DECISIONS) if self.advice else ()

    def terms(self) -> dict[str, str]:
        """The terms a user meets in this game's advice and policies (every advice
        outcome's name, a policy's scale such as All-Fours' trump strength) with their
        definitions: ``TERMS`` of the advice module (``analyze rules`` shows them)."""
        return dict(getattr(self.advice_module(), "TERMS", {})) if self.advice else {}

    def guides(self) -> tuple:
        """The game's decision guides (:mod:`sims.core.guide`): ``GUIDES`` of the
        ``guide.py`` beside its advice module, or none."""
        if not self.advice:
            return ()
        package = self.advice.rsplit(".", 1)[0]
        try:
            module = importlib.import_module(package + ".guide")
        except ModuleNotFoundError as problem:
            if problem.name != package + ".guide":
                raise
            return ()
        return tuple(module.GUIDES)

    def table_decisions(self) -> tuple:
        """The decisions a seat may play from a table (:class:`sims.core.table.TableDecision`)."""
        return tuple(self.table_module().TABLES) if self.tables else ()

    def policy_width(self) -> int:
        """Columns of a policy matrix carrying tables: the fields, then the table blocks."""
        from sims.core.table import table_width

        return len(self.policy_fields) + table_width(self.table_decisions())

    def lower_is_better(self, mode: int, outcome: str) -> bool:
        """True when a player wants ``outcome`` of ``mode`` to be small."""
        return outcome in self.outcomes[mode].lower_is_better

    def policy_field(self, key: str) -> PolicyField:
        """The policy field called ``key`` (``KeyError`` with the known keys otherwise)."""
        for candidate in self.policy_fields:
            if candidate.key == key:
                return candidate
        raise KeyError(
            f"unknown policy field '{key}' for {self.name}; the fields are: "
            f"{', '.join(f.key for f in self.policy_fields)}."
        )

    def warnings(self, rules, n_seats: int) -> list[str]:
        """The warnings a run's output shows (an empty list for most tables)."""
        message = self.warning(rules, n_seats) if self.warning else None
        return [message] if message else []

    @property
    def rules(self) -> tuple[RuleField, ...]:
        return rule_fields(self.rules_type)

    @property
    def modes(self) -> tuple[int, ...]:
        return tuple(sorted(self.outcomes))

    def default_rules(self):
        return self.rules_type()

    def rules_array(self, rules) -> np.ndarray:
        """The rules as the kernel takes them: an int64 array in field order."""
        return np.asarray([int(v) for v in rules], dtype=np.int64)

    def policy_matrix(self, rows: Sequence[Mapping[str, float]]) -> np.ndarray:
        """A float64 ``[n_seats, n_fields]`` matrix from one mapping per seat."""
        keys = [f.key for f in self.policy_fields]
        return np.asarray([[float(row[k]) for k in keys] for row in rows], dtype=np.float64)

    def default_policy(self, n_seats: int, preset: str = "default") -> np.ndarray:
        """The matrix of a named policy preset for ``n_seats`` seats."""
        chosen = self.policies[preset]
        base = {f.key: f.default for f in self.policy_fields}
        base.update(chosen.base)
        rows = [dict(base) for _ in range(n_seats)]
        for seat, values in chosen.seats.items():
            if -n_seats <= seat < n_seats:
                rows[seat].update(values)
        return self.policy_matrix(rows)
