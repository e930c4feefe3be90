"""TBF Masterpoint Kitapçığı v2.0: the worked examples that were not yet tests.

Examples 1-4 of section 8, section 9, section 11 (twelve mastery figures) and section 13
(8-pair Howell) are in ``test_tr_tbf.py``.  Every test quotes its sentence; ``quote``
checks it is in the seed text (``docs/sources/001_...``).
"""

from __future__ import annotations

import pytest

from xlbridge import award, awards


@pytest.fixture(scope="module")
def quote(quotes):
    return quotes("001")


def test_section8_80_boards_distribute_two_and_a_half_tournaments(quote):
    quote("Her 32 bord için bir ikili turnuvada dağıtılacak puan kadar masterpoint dağıtılması temel olarak alınır. "
          "Örneğin 80 bordluk bir turnuvada 2,5 adet ikili turnuvaya eşdeğer masterpoint dağıtılır.")
    single = award("tr.club", 1, 40).points  # 20 tables: 0.82
    assert single == 0.82
    assert award("tr.club", 1, 40, sessions=2, boards=40).points == round(2.5 * single, 4)
    assert award("tr.club", 1, 40, sessions=4, boards=20).points == round(2.5 * single, 4)


def test_section8_mitchell_direction_thirds_and_the_rest_alike(quote):
    quote("Yön üçüncüleri genel beşinci ve altıncının ortalaması kadar puan alır,",
          "Diğer derecelerin puanlaması da aynı şekilde olur.")
    overall = [a.points for a in awards("tr.club", list(range(1, 27)))]
    mitchell = [a.points for a in awards("tr.club", list(range(1, 14)) * 2, movement="mitchell")]
    # 13 tables: overall 5th 2 x 0.62 / 4 = 0.31, 6th 2 x 0.62 / 5 = 0.248 -> direction third 0.279
    assert mitchell[2] == round((overall[4] + overall[5]) / 2, 4) == 0.279
    for place in range(1, 14):  # k-th of a direction: the mean of overall places 2k - 1 and 2k
        low = overall[2 * place - 1] if 2 * place - 1 < 26 else 0
        assert mitchell[place - 1] == pytest.approx((overall[2 * place - 2] + low) / 2, abs=1e-4)
        assert mitchell[13 + place - 1] == mitchell[place - 1]


def test_section8_fewer_than_24_boards(quote):
    quote("24 borddan daha az oynanan turnuvalara normalden daha az masterpoint verilir. (Birincinin Alacağı "
          "Masterpoint = (Normalde Alacağı Masterpoint * Bord Sayısı)/24)")
    assert award("tr.club", 1, 40, boards=18).points == round(0.82 * 18 / 24, 4)


def test_tablo1_scale_b_places_3_4_and_5_on(quote):
    quote("| 3. | %70 |", "| 4. | %60 |", "| 5. ve sonrası | 2 * Birincinin Aldığı MP / (Sıralamadaki Yeri - 1) |")
    first, second, third, fourth, fifth, sixth = (a.points for a in awards("tr.club", list(range(1, 61)))[:6])
    assert (second, third, fourth) == (round(0.8 * first, 4), round(0.7 * first, 4), round(0.6 * first, 4))
    assert (fifth, sixth) == (round(2 * first / 4, 4), round(2 * first / 5, 4))
