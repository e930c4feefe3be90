"""TBF Masterpoint Kitapçığı v2.0: the schemes -- one per row of Tablo-2, and the team match.

Document: *Masterpoint Kitapçığı v2.0*, Türkiye Briç Federasyonu, in force from
1 January 2015 (``docs/sources/001_f6c92b37b6e7abbd.txt``).

Sections implemented here:

- 4 (Masterpoint tipleri): the colour of each event (the ``unit``);
- 5 (Dağıtım kuralları): first place fixed / by tables / by tables and boards, one
  third of the field, team-player eligibility (:func:`team_player_eligible`);
- 6 (Tablo-2, Tablo-3): one scheme per row of Tablo-2 (:class:`TbfEvent`);
- 7 (Özel bölgesel festivaller): ``tr.festival`` and :func:`festival_violations`;
- 8 (club and other regional events): boards, team players without segment records
  (:func:`team_player_share`), multi-session, Lehman, Mitchell, examples 1-4;
- 9 (session prizes): option ``session_boards``;
- 10 (team match awards, Tablo-4): ``tr.match.regional``, ``tr.match.national``
  (:class:`TbfMatch`).

References:
    Türkiye Briç Federasyonu, Masterpoint Kitapçığı v2.0 (2015), sections 4-10, Tablo-2;
    ``xlbridge/rules/data/tr_tablo2.csv``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from xlbridge.rules.base import (
    Award, Option, Ranks, RuleError, SchemeBase, check_competition_ranking, concerning, load_table, option_problem,
    round_half_up, share_ties,
)
from xlbridge.rules.tr_tbf.tables import (
    DECIMALS, SOURCE, UNITS_PER_TABLE, board_factor, boundary_fraction, festival_mp, match_award, place_share,
    session_first, table_weight, third_boundary,
)

#: The most tables an event can have: the largest field (:data:`xlbridge.rules.MAX_UNITS`,
#: 100,000 units) at two units a table.  The option ``tables`` beyond it is a RuleError
#: (tables=1e9 made one call run for minutes).
MAX_TABLES = 50_000

_COMMON_OPTIONS = {
    "scale": Option("scale", "str", "b", "Tablo-1 scale: b = 100/80/70/60 % then 2*first/(place-1); a = 100/70 % then first/(place-1)", ("a", "b")),
    "share": Option("share", "float", 1 / 3, "part of the field that gets MP (section 5: one third; TBF may announce more)"),
    "tables": Option("tables", "float", None, "number (or average number) of tables, overriding field / units per table"),
    "kind": Option("kind", "str", None, "pairs, teams or individual: how the field turns into tables", ("pairs", "teams", "individual")),
}
_TEAM_OPTIONS = {
    "players": Option("players", "int", 4, "players in the team (section 8: more than 4 without segment records share four players' MP)"),
    "segment_records": Option("segment_records", "bool", True, "were the players of every segment recorded? (section 8)"),
}
_BOARD_OPTIONS = {
    "boards": Option("boards", "float", None, "boards per session (empty = a normal 24-32 board session)"),
    "sessions": Option("sessions", "int", 1, "sessions of a multi-session pairs event (section 8)"),
    "movement": Option("movement", "str", "howell", "howell (one ranking) or mitchell (two directions, section 8)", ("howell", "mitchell")),
    "ns": Option("ns", "int", None, "with movement=mitchell: how many of the ranks belong to the first direction (default: half, rounded up)"),
    "lehman_sessions": Option("lehman_sessions", "int", None, "Lehman period: number of sessions; the ranking is then the Lehman ranking (section 8)"),
}
_SESSION_OPTIONS = {
    "session_boards": Option("session_boards", "float", None, "award a session ranking: boards of the session (section 9, first = MP x B / 500)"),
    "first_mp": Option("first_mp", "float", None, "with session_boards: the overall winner's MP, if not computed from this event"),
}


class TbfEvent(SchemeBase):
    """One row of Tablo-2: an event kind with its distribution rule and colour."""

    directions_apart = False  # section 8: a direction's k-th gets the mean of the overall 2k-1 and 2k

    def __init__(self, row: Mapping[str, str]):
        self.id = row["id"]
        self.name = row["name"]
        self.group = row["group"]
        self.rule = row["rule"]
        self.mp = float(row["mp"]) if row["mp"] else None
        self.colour = row["colour"]
        self.default_kind = row["kind"]
        self.title = f"{row['name']} ({row['group']})"
        self.units = (self.colour,)
        self.source = SOURCE
        self.section = "Tablo-2" if self.rule != "festival" else "section 7"
        options = dict(_COMMON_OPTIONS, **_TEAM_OPTIONS)  # section 8: club and regional team events too
        if self.rule == "tables_boards":
            options.update(_BOARD_OPTIONS)
        elif self.default_kind == "pairs":
            options.update(_SESSION_OPTIONS)
        self.options = options

    # -- the first place -------------------------------------------------------
    def tables(self, units: int, options: Mapping[str, Any]) -> float:
        if options["tables"] is not None:
            if options["tables"] <= 0:
                raise RuleError("tr.tables.not-positive", "{scheme}: tables must be more than 0; got {value:g}",
                                scheme=self.id, option="tables", value=options["tables"])
            if options["tables"] > MAX_TABLES:  # (the tables of the largest field, xlbridge.rules.MAX_UNITS)
                raise RuleError("tr.tables.too-many", "{scheme}: tables {value:g} is more than {maximum:,}, the "
                                "largest that makes sense", scheme=self.id, option="tables", value=options["tables"],
                                maximum=MAX_TABLES)
            return float(options["tables"])
        kind = options["kind"] or self.default_kind
        return units / UNITS_PER_TABLE[kind]

    def first_place(self, units: int, options: Mapping[str, Any]) -> float:
        """MP of the overall first place, unrounded (Tablo-2, Tablo-3, sections 5, 7, 8)."""
        tables = self.tables(units, options)
        if self.rule == "fixed":
            return float(self.mp)
        try:
            if self.rule == "festival":
                return festival_mp(tables, self.id)
            first = float(self.mp) * table_weight(tables, self.id)
        except RuleError as error:  # too few tables: the field, or the option tables when given
            about = {"option": "tables", "argument": None} if options["tables"] is not None else {"argument": "field"}
            raise concerning(error, scheme=self.id, **about) from None
        if self.rule == "tables_boards":
            first *= self.boards_factor(options)
        return first

    def boards_factor(self, options: Mapping[str, Any]) -> float:
        """Sections 5 and 8: the boards' effect on the first place (options ``boards``, ``sessions``)."""
        boards = options["boards"]
        if boards is not None and boards <= 0:
            raise RuleError("tr.boards.not-positive", "{scheme}: boards must be more than 0; got {value:g}",
                            scheme=self.id, option="boards", value=boards)
        sessions = options["sessions"]
        if sessions < 1:
            raise RuleError("tr.sessions.too-few", "{scheme}: sessions must be 1 or more; got {value}",
                            scheme=self.id, option="sessions", value=sessions)
        if sessions > 1 and boards is None:
            raise RuleError("tr.sessions.needs-boards",
                            "{scheme}: a multi-session event needs boards= (boards per session)",
                            scheme=self.id, option="boards")
        return board_factor(boards, sessions)

    # -- ranks -----------------------------------------------------------------
    def default_ranks(self, field: int, options: Mapping[str, Any]) -> Ranks:
        if options.get("movement") == "mitchell":
            first = options["ns"] if options["ns"] is not None else (field + 1) // 2
            return [float(p) for p in range(1, first + 1)] + [float(p) for p in range(1, field - first + 1)]
        return super().default_ranks(field, options)

    def _directions(self, ranks: Ranks, options: Mapping[str, Any]) -> tuple[Ranks, Ranks]:
        first = options["ns"] if options["ns"] is not None else (len(ranks) + 1) // 2
        if not 0 < first < len(ranks):
            about = {"option": "ns"} if options["ns"] is not None else {"argument": "field"}
            raise RuleError("tr.mitchell.ns", "{scheme}: ns must be between 1 and {most} for {count} pairs; got {value}",
                            scheme=self.id, most=len(ranks) - 1, count=len(ranks), value=first, **about)
        return ranks[:first], ranks[first:]

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        if options.get("movement") == "mitchell":
            for direction in self._directions(ranks, options):
                check_competition_ranking(self.id, direction)
        else:
            check_competition_ranking(self.id, ranks)

    # -- the awards --------------------------------------------------------------
    def _share(self, options: Mapping[str, Any]) -> Fraction:
        """The share of the field that is paid (one third unless the option says otherwise)."""
        share = options["share"]
        if not 0 < share <= 1:
            raise RuleError("tr.share.range", "{scheme}: share must be more than 0 and at most 1; got {value:g}",
                            scheme=self.id, option="share", value=share)
        return Fraction(share).limit_denominator(1000)

    def _overall(self, first: float, units: int, options: Mapping[str, Any]):
        boundary = third_boundary(units, self._share(options))
        scale = options["scale"]
        return lambda place: first * place_share(place, scale) * boundary_fraction(place, boundary)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        units = len(ranks)
        if options.get("lehman_sessions") is not None:
            raw = self._lehman(ranks, options)
        elif options.get("session_boards") is not None:
            raw = self._session(ranks, options)
        elif options.get("movement") == "mitchell":
            raw = self._mitchell(ranks, options)
        else:
            overall = self._overall(self.first_place(units, options), units, options)
            raw = share_ties(ranks, overall)
        factor = 1.0
        if (options["kind"] or self.default_kind) == "teams":
            try:
                factor = team_player_share(1.0, options["players"], options["segment_records"])
            except RuleError as error:  # its argument players is this scheme's option players
                raise option_problem(error, self) from None
        elif options["players"] != 4 or not options["segment_records"]:
            raise RuleError("tr.team.not-teams", "{scheme}: players and segment_records are for team events "
                            "(kind=teams); this one is {kind}", scheme=self.id, option="players",
                            kind=options["kind"] or self.default_kind)
        return [Award(round_half_up(value * factor, DECIMALS), self.colour) for value in raw]

    def _mitchell(self, ranks: Ranks, options: Mapping[str, Any]) -> list[float]:
        """Section 8: the k-th of a direction gets the mean of overall 2k-1 and 2k."""
        units = len(ranks)
        overall = self._overall(self.first_place(units, options), units, options)
        direction_value = lambda k: (overall(2 * k - 1) + overall(2 * k)) / 2  # noqa: E731
        first, second = self._directions(ranks, options)
        return share_ties(first, direction_value) + share_ties(second, direction_value)

    def session_total(self, tables: float, options: Mapping[str, Any]) -> float:
        """Total MP of one single-session pairs tournament of ``tables`` tables,
        counted per player (two players a pair), as section 8 example 3 counts it,
        shown to 2 decimals as the booklet shows it (1.31)."""
        single = dict(options, sessions=1, tables=tables)
        first = self.first_place(0, single)
        pairs = tables * UNITS_PER_TABLE["pairs"]
        # (the share checked first: a Lehman period computed this before any other check, and share=1e9
        # made the sum below run for minutes; found by tools/fuzz_awards)
        boundary = third_boundary(1, self._share(options)) * Fraction(pairs).limit_denominator(10_000)
        per_pair = sum(
            first * place_share(p, options["scale"]) * boundary_fraction(p, boundary)
            for p in range(1, math.ceil(boundary) + 1)
        )
        return round_half_up(2 * per_pair, 2)

    def lehman_total(self, options: Mapping[str, Any]) -> float:
        """Section 8: half of the equivalent single sessions' total.

        Example 3: 16 sessions of 10 boards, 7.72 tables on average -> 1.31 per
        session, 1.31 x 16 / 2 = 10.48.
        """
        if options["tables"] is None:
            raise RuleError("tr.lehman.needs-tables", "{scheme}: a Lehman period needs tables= (the average number of tables)",
                            scheme=self.id, option="tables")
        if options["boards"] is None:
            raise RuleError("tr.lehman.needs-boards", "{scheme}: a Lehman period needs boards= (boards per session)",
                            scheme=self.id, option="boards")
        sessions = options["lehman_sessions"]
        if sessions < 1:
            raise RuleError("tr.lehman.sessions", "{scheme}: lehman_sessions must be 1 or more; got {value}",
                            scheme=self.id, option="lehman_sessions", value=sessions)
        return self.session_total(options["tables"], options) * sessions / 2

    def _lehman(self, ranks: Ranks, options: Mapping[str, Any]) -> list[float]:
        """Distribute the Lehman total over one third of the Lehman ranking with
        the Tablo-1 proportions."""
        total = self.lehman_total(options)
        units = len(ranks)
        shape = self._overall(1.0, units, options)
        weight = sum(shape(p) for p in range(1, units + 1))
        return share_ties(ranks, lambda p: total * shape(p) / weight)

    def _session(self, ranks: Ranks, options: Mapping[str, Any]) -> list[float]:
        """Section 9: a session's first gets MP x B / 500; the session ranking is
        distributed like a tournament (Tablo-1, one third)."""
        units = len(ranks)
        general_first = options["first_mp"]
        if general_first is None:
            general_first = self.first_place(units, options)
        elif general_first <= 0:
            raise RuleError("tr.session.first-mp", "{scheme}: first_mp must be more than 0; got {value:g}",
                            scheme=self.id, option="first_mp", value=general_first)
        boards = options["session_boards"]
        if boards <= 0:
            raise RuleError("tr.session.boards", "{scheme}: session_boards must be more than 0; got {value:g}",
                            scheme=self.id, option="session_boards", value=boards)
        overall = self._overall(session_first(general_first, boards), units, options)
        return share_ties(ranks, overall)


class TbfMatch(SchemeBase):
    """Section 10, Tablo-4: MP per player of the team that wins a match.

    The ranking is the match result: ``[1, 2]`` (the winner first or second),
    ``[1, 1]`` a draw (no winner, no MP).
    """

    def __init__(self, level: str):
        self.level = level
        self.id = f"tr.match.{level}"
        self.title = f"Takım maçı ödülü ({'Bölgesel' if level == 'regional' else 'Ulusal'} Turnuvalar)"
        self.colour = "red" if level == "regional" else "yellow"
        self.units = (self.colour,)
        self.source = SOURCE
        self.section = "section 10, Tablo-4"
        self.options = {
            "boards": Option("boards", "float", None, "boards of the match (Tablo-4 rows 8-64; between rows interpolated)"),
            "walkover": Option("walkover", "bool", False, "won by walkover or not played: no MP (section 10)"),
            "segments": Option("segments", "int", 1, "segments the player played in the match: at least 1 for MP (section 10)"),
        }

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        if len(ranks) != 2:
            raise RuleError("tr.match.two-teams", "{scheme}: a match has 2 teams; got {count}",
                            scheme=self.id, argument="field", count=len(ranks))
        check_competition_ranking(self.id, ranks)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        if options["boards"] is None:
            raise RuleError("tr.match.needs-boards", "{scheme} needs boards= (boards of the match)",
                            scheme=self.id, option="boards")
        try:
            value = match_award(options["boards"], self.level, won=True, walkover=options["walkover"],
                                segments=options["segments"])
        except RuleError as error:  # its arguments boards and segments are this scheme's options
            raise option_problem(error, self) from None
        winners = [r == 1.0 for r in ranks]
        if all(winners) or None in ranks:
            value = 0.0  # a draw or an unfinished match has no winner
        return [Award(round_half_up(value if w else 0.0, DECIMALS), self.colour) for w in winners]


SCHEMES: tuple[SchemeBase, ...] = tuple(TbfEvent(row) for row in load_table("tr_tablo2")) + (
    TbfMatch("regional"),
    TbfMatch("national"),
)


def team_player_eligible(boards_played: float, boards_total: float, team_size: int,
                         final_played: float | None = None, final_total: float | None = None) -> bool:
    """Section 5: may a team player get MP from the overall ranking?

    Teams of at most 6 players: at least 1/3 of the boards, else at least 1/4 --
    both over the whole event and over the part after the qualification
    (``final_*``) when there is one.

    >>> team_player_eligible(40, 120, 6), team_player_eligible(39, 120, 6), team_player_eligible(30, 120, 7)
    (True, False, True)
    """
    if team_size < 1 or boards_total <= 0:
        raise RuleError("tr.team.eligibility", "team eligibility needs a team size and boards; got {players} players, "
                        "{boards:g} boards", argument="team_size" if team_size < 1 else "boards_total",
                        players=team_size, boards=boards_total)
    need = Fraction(1, 3) if team_size <= 6 else Fraction(1, 4)
    checks = [(boards_played, boards_total)]
    if final_total:
        checks.append((final_played or 0, final_total))
    return all(Fraction(played).limit_denominator(10_000) >= need * Fraction(total).limit_denominator(10_000)
               for played, total in checks)


def team_player_share(award_per_player: float, players: int, segment_records: bool = True) -> float:
    """Section 8: a team of more than four players ranked without segment
    records shares the MP of four players equally.

    >>> team_player_share(3.0, 6, segment_records=False), team_player_share(3.0, 6)
    (2.0, 3.0)
    """
    if players < 1:
        raise RuleError("tr.team.players", "a team needs at least 1 player; got {players}",
                        argument="players", players=players)
    if players > 4 and not segment_records:
        return award_per_player * 4 / players
    return award_per_player


def festival_violations(*, kind: str, tables: float, consecutive_years: int,
                        sessions: int = 0, boards_per_session: float = 0, total_boards: float = 0) -> list[str]:
    """Section 7: why an event is not a special regional festival (yellow MP).

    Returns readable violations; an empty list means the extra conditions hold.

    >>> festival_violations(kind="pairs", tables=32, consecutive_years=4, sessions=2, boards_per_session=24)
    []
    >>> festival_violations(kind="teams", tables=28, consecutive_years=3, total_boards=30)
    ['held under the same conditions at least 4 years in a row; got 3', 'at least 30 tables; got 28', 'team events need at least 32 boards; got 30']
    """
    problems = []
    if consecutive_years < 4:
        problems.append(f"held under the same conditions at least 4 years in a row; got {consecutive_years}")
    if kind == "pairs":  # "at least 2 sessions of at least 24 boards, or equivalent boards and sessions" (D12)
        if sessions < 2:
            problems.append(f"pairs events need at least 2 sessions; got {sessions}")
        if sessions * boards_per_session < 48:
            problems.append(f"pairs events need at least 2 x 24 = 48 boards over their sessions; got "
                            f"{sessions} x {boards_per_session:g}")
    if tables < 30:
        problems.append(f"at least 30 tables; got {tables:g}")
    if kind == "teams" and total_boards < 32:
        problems.append(f"team events need at least 32 boards; got {total_boards:g}")
    return problems
