"""The hand-transcribed Swedish data files, re-read against the sentences of the seed text.

Each test formats the CSV's figures back into the document's own wording and
looks for that text in docs/sources/000_*.txt: a wrong figure in a CSV fails.
"""

from __future__ import annotations

import pytest

from xlbridge.rules.base import load_table


@pytest.fixture(scope="module")
def seed(source_text):
    return " ".join(source_text("000").split())


def values(name, **where):
    return [r for r in load_table(name) if all(r[k] == v for k, v in where.items())]


def scale(name):
    return [r["points"] for r in values("se_fixed_scales", scale=name)]


def test_fixed_scales_are_in_the_text(seed):
    g1 = scale("G1-bonus")
    assert f"1:a plats: {g1[0]} poäng 2:a plats {g1[1]} poäng 3:e plats {g1[2]} poäng" in seed
    assert f"8 lag {'-'.join(scale('G2-8'))} gp, 9-12 lag {'-'.join(scale('G2-9-12'))} gp minst 13 lag {'-'.join(scale('G2-13'))} gp" in seed
    h = scale("H1-2A")
    assert f"{', '.join(h[:-1])} och {h[-1]} samt brons till och med 18:e plats" in seed
    assert f"I omgång 2B utdelas {'-'.join(scale('H1-2B'))} gp om minst 100 par" in seed
    h2, mixed = scale("H2"), scale("H2-mixed")
    assert "Seniorer, Damer, Juniorer: " + " ".join(f"{i}:{s} plats {p} poäng" for i, s, p in zip("1234", ["a", "a", "e", "e"], h2)) in seed
    assert "Mixed: " + " ".join(f"{i}:{s} plats {p} poäng" for i, s, p in zip("1234", ["a", "a", "e", "e"], mixed)) in seed
    for name, title in (("DM-team", "DM-final/SM-kval lag, öppen klass"), ("DM-pairs", "DM-par/SM-kval, öppen klass"),
                        ("DM-other", "Övriga DM-finaler")):
        a, b, c = scale(name)
        assert f"{title} 1:a plats {a} poäng per spelare 2:a plats {b} poäng per spelare 3:e plats {c} poäng per spelare" in seed
    e = scale("gold-enhanced")
    assert f"fyra par/lag får {e[0]}, {e[1]}, {e[2]} och {e[3]} guldpoäng" in seed
    r1, r2, r3 = scale("rally-96"), scale("rally-101"), scale("rally-201")
    assert (f"{r1[0]} gp 96-100 par {r2[0]} och {r2[1]} gp 101-200 par {r3[0]}, {r3[1]} och {r3[2]} gp över 200 par") in seed


def _points(table, divisions="0", division="0", **extra):
    rows = values("se_match_points", table=table, divisions=divisions, division=division, **extra)
    assert len(rows) == 1, (table, divisions, division, extra)
    return rows[0]["points"]


def test_match_points_are_in_the_text(seed):
    assert f"För vunnen match erhåller laget {_points('B2')} poäng" in seed
    assert f"För vunnen match erhåller laget {_points('B4')} poäng. Vid oavgjord" in seed
    b3 = {d: [_points("B3", str(d), str(k)) for k in range(1, d + 1)] for d in range(2, 7)}
    assert f"Vid två divisioner tävlas i ettan om {b3[2][0]} poäng och i tvåan om {b3[2][1]} poäng" in seed
    assert f"Vid tre divisioner tävlas i ettan om {b3[3][0]}, i tvåan om {b3[3][1]} och i trean om {b3[3][2]} poäng" in seed
    assert f"Vid fyra divisioner tävlas i ettan om {b3[4][0]}, i tvåan om {b3[4][1]}, i trean om {b3[4][2]} och i fyran om {b3[4][3]} poäng" in seed
    assert (f"Vid fem divisioner tävlas i ettan om {b3[5][0]}, i tvåan om {b3[5][1]}, i trean om {b3[5][2]}, i fyran om "
            f"{b3[5][3]} och i femman om {b3[5][4]} poäng") in seed
    assert (f"Vid sex divisioner tävlas i ettan om {b3[6][0]}, i tvåan om {b3[6][1]}, i trean om {b3[6][2]}, i fyran om "
            f"{b3[6][3]}, i femman om {b3[6][4]} och i sexan om {b3[6][5]} poäng") in seed
    assert f"Segrarpoängen utgår med {_points('E2')} per vunnen match" in seed
    e3 = {d: [_points("E3", str(d), str(k)) for k in range(1, d + 1)] for d in range(2, 7)}
    assert f"I div I tävlas om {e3[2][0]} poäng i varje match och i div II om {e3[2][1]} poäng" in seed
    assert f"I div I tävlas om {e3[3][0]} poäng per match, i div II om {e3[3][1]} poäng och i div III om {e3[3][2]} poäng" in seed
    six = e3[6]
    assert (f"I div I tävlas om {six[0]} poäng per match, i div II om {six[1]} poäng, i div III om {six[2]} poäng, i div IV om "
            f"{six[3]} poäng, i div V om {six[4]} poäng och i div VI om {six[5]} poäng") in seed
    assert e3[4] == six[:4] and e3[5] == six[:5]  # 'Vid fyra, fem eller sex divisioner'
    assert f"I varje match spelas om {_points('E4', min_boards='12')} poäng" in seed
    assert f"dvs man spelar om {_points('E4', min_boards='6')} poäng/ match" in seed
    assert f"I varje match spelas om {_points('E5')} poäng" in seed
    assert f"spelas om {_points('E6')} poäng om minst 20 brickor" in seed
    assert f"I div III spelas om {_points('E7', division='3')} poäng per match och i div IV {_points('E7', division='4')}" in seed
    assert f"erhåller laget {_points('G1', min_boards='20')} gp" in seed
    assert f"Vid 24 brickor utan halvtidspaus {_points('G1', min_boards='24')} gp" in seed
    assert f"I div I spelas om {_points('G3', division='1')} poäng per match och i div II {_points('G3', division='2')}" in seed


def test_vp_definition_is_in_the_text(seed):
    rows = load_table("se_vp_results")
    won = " ".join(f"{r['win_min']}-{int(r['scale']) - int(r['win_min'])}" for r in rows)
    drawn = " ".join(
        f"{a}-{int(r['scale']) - a}"
        for r in rows
        for a in range(int(r["scale"]) - int(r["draw_min"]), (int(r["scale"]) + 1) // 2 - 1, -1)
    )
    assert f"Vunnen {won} Eller större marginal Oavgjord {drawn} " in seed


def _kr(text):
    n = int(text)
    return f"{n // 1000} {n % 1000:03d}" if n >= 1000 else str(n)


def test_classes_are_in_the_text(seed):
    base = {r["class"]: r for r in values("se_classes", stars="0")}
    assert f"Klöver-/Klubbmästare {base['Klövermästare']['min_mp']} -" in seed
    ruter, hjarter = base["Rutermästare"], base["Hjärtermästare"]
    assert f"Ruter-/Kretsmästare* {ruter['min_mp']} {ruter['min_sp']}sp / {ruter['min_gp']}gp" in seed
    assert f"Hjärter-/Regionmästare** {hjarter['min_mp']} {hjarter['min_sp']}sp / {hjarter['min_gp']}gp" in seed
    assert f"Spader-/Riksmästare** {base['Spadermästare']['min_mp']} {base['Spadermästare']['min_gp']}gp" in seed
    assert f"Stormästare** {base['Stormästare']['min_mp']} {base['Stormästare']['min_gp']} gp" in seed
    klover = [_kr(r["min_bp"]) for r in values("se_classes", **{"class": "Klövermästare"}) if r["min_bp"]]
    assert (f"Enstjärnig {klover[0]} bp Tvåstjärig {klover[1]} bp Trestjärig {klover[2]} bp Fyrstjärnig {klover[3]} bp "
            f"Femstjärnig {klover[4]} bp") in seed
    names = ["Enstjärning", "Tvåstjärnig", "Trestjärning"]
    for cls, mark in (("Hjärtermästare", "**"), ("Spadermästare", "**"), ("Stormästare", "***")):
        for r in values("se_classes", **{"class": cls}):
            if r["stars"] == "0":
                continue
            req = f"{r['min_sp']}sp / {r['min_gp']}gp" if r["min_sp"] else f"{r['min_gp']} gp"
            assert f"{names[int(r['stars']) - 1]}{mark} {_kr(r['min_mp'])} mp {req}" in seed, r


def test_fees_and_minima_are_in_the_text(seed):
    fee = {(r["level"], r["kind"]): r["kr"] for r in load_table("se_fees")}
    assert (f"Brons {fee['bronze', 'pairs']} kr {fee['bronze', 'teams']} kr Silver {fee['silver', 'pairs']} kr "
            f"{fee['silver', 'teams']} kr* Guld {fee['gold', 'pairs']} kr {fee['gold', 'teams']} kr") in seed
    assert f"Lagbarometer har samma kostnad som partävling silver, {int(float(fee['silver', 'barometer']))} kronor/spelare" in seed
    m = {r["kind"]: r for r in load_table("se_silver_minima")}
    assert (f"Par {m['pairs']['min_units']} {m['pairs']['min_boards']} Par {m['pairs']['min_units']} "
            f"{m['pairs']['half_scale_from']}-{int(m['pairs']['min_boards']) - 1}* Mästerskapkval. "
            f"{m['championship']['min_units']} {m['championship']['min_boards']} Lag {m['teams']['min_units']} "
            f"{m['teams']['min_boards']} Lagbaromter {m['barometer']['min_units']} {m['barometer']['min_boards']} "
            f"Individuellt {m['individual']['min_units']} {m['individual']['min_boards']}") in seed
