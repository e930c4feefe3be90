"""The worksheet functions through xlwings' own Office.js dispatch
(xlwings.server.custom_functions_call / custom_functions_meta)."""

from __future__ import annotations

from xlwings import server

from xlbridge.excel import functions

PINNED = {"AWARD", "AWARD_UNIT", "AWARDS", "TBF_MASTERY", "TBF_TITLE"}


def test_meta_lists_the_functions_with_their_help():
    meta = {f["name"]: f for f in server.custom_functions_meta(functions)["functions"]}
    assert PINNED <= set(meta)
    assert meta["AWARD"]["description"] == functions.award.__doc__
    params = [p["name"] for p in meta["AWARD"]["parameters"]]
    assert params == ["scheme", "place", "field", "options"]
    assert meta["AWARD"]["parameters"][3].get("optional") is True
    assert "Scheme id" in meta["AWARD"]["parameters"][0]["description"]


def test_award_single_cell(call):
    assert call("award", "tr.club", 1.0, 26.0, "boards=24") == [[0.62]]
    assert call("award_unit", "tr.club", 1.0, 26.0, None) == [["green"]]


def test_award_omitted_options_is_null(call):
    # 6-table Howell, second: 0.28 (section 8, example 2)
    assert call("award", "tr.club", 2.0, 12.0, None) == [[0.28]]


def test_award_field_as_a_range_of_places(call):
    places = [[1.0], [2.0], [2.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0], [12.0]]
    # 2nd and 3rd tied: (0.8 + 0.7) * 0.35 / 2 = 0.2625
    assert call("award", "tr.club", 2.0, places, None) == [[0.2625]]


def test_awards_spills_points_and_unit(call):
    ranks = [[1.0], [2.0], [""], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0]]
    result = call("awards", "tr.club", ranks, "boards=24")
    assert len(result) == 12 and all(len(row) == 2 for row in result)
    assert result[0] == [0.35, "green"]
    assert result[2][0] == 0.0


def test_blank_cells_after_the_last_place_are_no_pairs(call):
    """A ranks range taken longer than the field (the How-to's D9:D28 for 14 pairs, a whole column: Excel sends
    its empty cells as empty strings) counts the pairs that are there; a blank between places is a pair
    without a place, counted in the field (section 8: 14 pairs are 7 tables, 0.4 for the first on 26 boards)."""
    fourteen = [[float(place)] for place in range(1, 15)]
    assert call("awards", "tr.club", fourteen, "boards=26")[0] == [0.4, "green"]
    longer = call("awards", "tr.club", fourteen + [[""]] * 6, "boards=26")
    assert len(longer) == 14 and longer[0] == [0.4, "green"]
    assert call("award", "tr.club", 1.0, fourteen + [[""]] * 6, "boards=26") == [[0.4]]
    assert call("award", "tr.club", 1.0, fourteen[:7] + [[""]] + fourteen[7:] + [[""]], "boards=26") == [[0.42]]


def test_bad_argument_shows_a_readable_message(call):
    assert call("award", "tr.club", 1.0, 5.0, None) == [["#xlbridge: tr.club needs at least 3 tables; got 2.5"]]
    assert call("award", "tr.clb", 1.0, 26.0, None) == [["#xlbridge: unknown scheme 'tr.clb'; did you mean tr.club?"]]
    assert call("award", "tr.club", 1.0, 26.0, "boards") == [["#xlbridge: option 'boards' must look like name=value"]]


def test_mastery_and_title(call):
    assert call("tbf_mastery", 0.0, 0.0, 100.0, None, None) == [[69.3147]]
    assert call("tbf_title", 125.0, 20.0) == [["Bronz Usta"]]
    assert call("tbf_title", 10.0, None) == [[""]]


def test_mastery_reads_text_cells_as_title_does(call):
    # a total typed as text with a decimal comma, and include_white as text, read as the engine's options are
    assert call("tbf_mastery", "1,5", None, None, None, None) == [[1.5]]
    assert call("tbf_mastery", 0.0, 0.0, 0.0, 100.0, "FALSE") == [[0.0]]
    assert call("tbf_mastery", 0.0, 0.0, 0.0, 100.0, "hayır") == [[0.0]]
    assert call("tbf_mastery", 0.0, 0.0, 0.0, 100.0, "evet") == call("tbf_mastery", 0.0, 0.0, 0.0, 100.0, None)
    assert call("tbf_mastery", 0.0, 0.0, 0.0, 100.0, "x") == [
        ["#xlbridge: TBF_MASTERY option include_white must be yes or no; got 'x'"]]


def test_swedish_class_and_ranking(call):
    assert call("se_class", 0.0, 0.0, 2000.0) == [["Rutermästare"]]
    points = [[22.5], [12.0]]
    units = [["gp"], ["sp"]]
    events = [["gold"], [""]]
    dates = [["2025-03-01T00:00:00.000Z"], ["2025-06-01T00:00:00.000Z"]]
    assert call("se_ranking", points, units, events, dates, None) == [[350.0]]


def test_blank_cells_read_as_the_scorer_knows_them(call):
    """A blank cell is 'an empty cell' in a message, never Python's None nor a TypeError's text; BM_FINAL on a
    blank row is that row's blank place (a per-row =BM_FINAL(I17,J17,K17) showed 'unexpected TypeError')."""
    assert call("bm_final", [[""]], [[""]], [[""]], None, None, None) == [[""]]
    ranks = ([[1.0], [2.0], [""]], [[2.0], [1.0], [""]], [[1.0], [1.0], [""]])
    assert call("bm_final", *ranks, [[8.0], [7.0], [""]], None, None) == [[2], [1], [""]]  # (a row not eligible)
    assert call("bm_final", *ranks, [[8.0], [""], [""]], None, None) == [
        ["#xlbridge: BM_FINAL: played is empty in row 2, a pair with its three places: type its number"]]
    assert call("heeg_pct", 5.0, "", "", None, None, None) == [
        ["#xlbridge: maximum MP must be a number above 0; got an empty cell"]]
    assert call("se_ranking", [[12.0]], [["sp"]], [["silver"]], [[""]], None) == [
        ["#xlbridge: SE_RANKING: an empty cell is not a date"]]
    assert call("se_ranking", [[12.0]], [[""]], [["silver"]], [[45000.0]], None) == [
        ["#xlbridge: SE_RANKING: unit must be gp, sp or bp; got an empty cell"]]
    assert call("se_ranking", [[12.0], [1.0]], [["sp"]], [["silver"]], [[45000.0]], None) == [
        ["#xlbridge: SE_RANKING: points, units, events and dates must be ranges of the same size; got 2, 1, 1, 1"]]


def test_a_date_where_a_number_belongs_is_shown_as_a_date():
    """Classic xlwings sends a date cell as a datetime: the field showed 'unexpected TypeError: float() argument
    must be ...'; now the engine's message with the date as Excel shows it."""
    import datetime as dt

    assert functions.award("tr.club", 1.0, dt.datetime(2020, 1, 31)) == (
        "#xlbridge: tr.club: field must be the number of units or the list of places; got 2020-01-31")
    assert functions.award_unit("tr.club", 1.0, dt.date(2020, 1, 31)).endswith("; got 2020-01-31")
