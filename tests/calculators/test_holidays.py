"""New York legal holidays (General Construction Law § 24) and hour counting that skips them."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from codeassist.calculators.holidays import (
    add_hours_excluding,
    election_day,
    is_legal_holiday,
    is_sunday_or_legal_holiday,
    ny_legal_holidays,
)


def test_2024_holidays():
    assert sorted(ny_legal_holidays(2024)) == [
        date(2024, 1, 1), date(2024, 1, 15), date(2024, 2, 12), date(2024, 2, 19), date(2024, 5, 27),
        date(2024, 6, 9), date(2024, 6, 19), date(2024, 7, 4), date(2024, 9, 2), date(2024, 10, 14),
        date(2024, 11, 5), date(2024, 11, 11), date(2024, 11, 28), date(2024, 12, 25),
    ]


@pytest.mark.parametrize(("day", "holiday"), [
    (date(2023, 1, 2), True),  # New Year's day 2023 was a Sunday: Monday is a holiday
    (date(2022, 12, 26), True),  # Christmas 2022 on Sunday
    (date(2022, 6, 20), True),  # Juneteenth 2022 on Sunday
    (date(2018, 11, 12), True),  # Veterans' day 2018 on Sunday
    (date(2023, 2, 13), True),  # Lincoln's birthday 2023 on Sunday
    (date(2021, 12, 24), False),  # Christmas 2021 on Saturday: § 24 does not move it to Friday
    (date(2021, 12, 31), False),  # New Year's day 2022 on Saturday
    (date(2020, 6, 19), False),  # Juneteenth counted from 2021 (L. 2020, ch. 249)
    (date(2021, 6, 18), False),
    (date(2021, 6, 19), True),
    (date(1984, 1, 16), False),  # MLK day counted from 1985
    (date(1985, 1, 21), True),
    (date(2026, 11, 3), True),  # general election day
    (date(2024, 6, 10), False),  # Flag day (a Sunday) never moves to Monday
    (date(2024, 3, 29), False),
])
def test_sunday_rule_and_history(day, holiday):
    assert is_legal_holiday(day) is holiday


def test_election_day():
    assert election_day(2024) == date(2024, 11, 5)
    assert election_day(2026) == date(2026, 11, 3)  # Nov 1 is a Sunday: first Monday is Nov 2
    assert election_day(2022) == date(2022, 11, 8)  # Nov 1 is a Tuesday: not election day


@pytest.mark.parametrize("year", [1900, 1999, 2024, 2100, 2199])
def test_any_year(year):
    days = ny_legal_holidays(year)
    assert 13 <= len(days) <= 19
    assert all(d.year == year for d in days)


@pytest.mark.parametrize(("start", "expected"), [
    # Saturday before a Monday holiday (Labor day 2024): Sunday and Monday do not count.
    (datetime(2024, 8, 31, 10, 0), datetime(2024, 9, 3, 10, 0)),
    # An ordinary Friday afternoon: Saturday counts.
    (datetime(2024, 3, 15, 15, 0), datetime(2024, 3, 16, 15, 0)),
    # Saturday afternoon: 9 hours Saturday, Sunday skipped, 15 hours Monday.
    (datetime(2024, 3, 16, 15, 0), datetime(2024, 3, 18, 15, 0)),
    # Notice given on a Sunday: counting starts Monday 00:00.
    (datetime(2024, 3, 17, 10, 0), datetime(2024, 3, 19, 0, 0)),
    # Christmas Eve: Christmas day skipped.
    (datetime(2024, 12, 24, 9, 0), datetime(2024, 12, 26, 9, 0)),
    # Saturday before a Sunday Christmas and its Monday holiday (2022).
    (datetime(2022, 12, 24, 12, 0), datetime(2022, 12, 27, 12, 0)),
    # Wednesday before Thanksgiving.
    (datetime(2024, 11, 27, 16, 30), datetime(2024, 11, 29, 16, 30)),
    # Exactly midnight.
    (datetime(2024, 3, 13, 0, 0), datetime(2024, 3, 14, 0, 0)),
])
def test_24_hours_exclusive_of_sundays_and_legal_holidays(start, expected):
    assert add_hours_excluding(start, 24) == expected


def test_sunday_check():
    assert is_sunday_or_legal_holiday(date(2024, 3, 17))
    assert not is_sunday_or_legal_holiday(date(2024, 3, 16))
