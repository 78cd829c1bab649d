"""New York legal (public) holidays under General Construction Law § 24, for any year.

§ 24 lists: New Year's day (Jan 1); Dr. Martin Luther King, Jr. day (third Monday of January);
Lincoln's birthday (Feb 12); Washington's birthday (third Monday of February); Memorial day (last
Monday of May); Flag day (second Sunday of June); Juneteenth (June 19); Independence day (July 4);
Labor day (first Monday of September); Columbus day (second Monday of October); Veterans' day
(Nov 11); Thanksgiving day (fourth Thursday of November); Christmas day (Dec 25); "and if any of such
days except Flag day is Sunday, the next day thereafter"; and each general election day (the Tuesday
after the first Monday of November, held every year under Election Law § 8-100).

Observed-day rule, as written: only a Sunday moves (to Monday), and Flag day never moves. A holiday
that falls on a Saturday is NOT moved to Friday by § 24 (that is a practice of some employers, not
the statute), so the Friday before is an ordinary day here.

History: Juneteenth was added by L. 2020, ch. 249 (enacted after June 19, 2020), so it is counted
from 2021; Dr. Martin Luther King, Jr. day was in the list amended by L. 1984, ch. 347, counted from
1985. Older years are computed with the current list otherwise.

Not computable and therefore not included: days the President or the Governor appoints "as a day of
general thanksgiving, general fasting and prayer, or other general religious observances". Saturday
afternoons are "half-holidays" under § 24, not public holidays, and are not excluded.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import lru_cache

JUNETEENTH_FROM = 2021
MLK_FROM = 1985

UNLISTED_CAVEAT = (
    "Legal holidays follow NY General Construction Law § 24 (with its Sunday-to-Monday rule); a day "
    "the President or the Governor appoints for thanksgiving, fasting or prayer also counts but cannot be "
    "computed in advance."
)


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """n-th (1-based) weekday (Mon=0) of the month."""
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _last_weekday(year: int, month: int, weekday: int) -> date:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    last = nxt - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def election_day(year: int) -> date:
    """The Tuesday next after the first Monday of November."""
    return _nth_weekday(year, 11, 0, 1) + timedelta(days=1)


@lru_cache(maxsize=512)
def ny_legal_holidays(year: int) -> dict[date, str]:
    """Every NY public holiday in `year` (plus a Monday observed for a Sunday holiday), date -> name."""
    listed: list[tuple[date, str]] = [(date(year, 1, 1), "New Year's day")]
    if year >= MLK_FROM:
        listed.append((_nth_weekday(year, 1, 0, 3), "Dr. Martin Luther King, Jr. day"))
    listed += [
        (date(year, 2, 12), "Lincoln's birthday"),
        (_nth_weekday(year, 2, 0, 3), "Washington's birthday"),
        (_last_weekday(year, 5, 0), "Memorial day"),
    ]
    if year >= JUNETEENTH_FROM:
        listed.append((date(year, 6, 19), "Juneteenth"))
    listed += [
        (date(year, 7, 4), "Independence day"),
        (_nth_weekday(year, 9, 0, 1), "Labor day"),
        (_nth_weekday(year, 10, 0, 2), "Columbus day"),
        (date(year, 11, 11), "Veterans' day"),
        (_nth_weekday(year, 11, 3, 4), "Thanksgiving day"),
        (date(year, 12, 25), "Christmas day"),
    ]
    out: dict[date, str] = {}
    for day, name in listed:
        out.setdefault(day, name)
        if day.weekday() == 6:  # Sunday: "the next day thereafter" is a public holiday too
            out.setdefault(day + timedelta(days=1), f"{name} (Sunday; observed Monday)")
    out.setdefault(_nth_weekday(year, 6, 6, 2), "Flag day")  # second Sunday of June; never moved
    out.setdefault(election_day(year), "General election day")
    return dict(sorted(out.items()))


def holiday_name(day: date) -> str | None:
    return ny_legal_holidays(day.year).get(day)


def is_legal_holiday(day: date) -> bool:
    return day in ny_legal_holidays(day.year)


def is_sunday_or_legal_holiday(day: date) -> bool:
    return day.weekday() == 6 or is_legal_holiday(day)


def add_hours_excluding(start: datetime, hours: float, excluded=is_sunday_or_legal_holiday) -> datetime:
    """The moment `hours` counted hours after `start`, not counting any hour of an excluded day.

    Counting starts at `start`; if `start` falls on an excluded day, counting starts at the next
    midnight that opens a counted day.
    """
    remaining = timedelta(hours=hours)
    t = start
    while True:
        day_end = datetime.combine(t.date() + timedelta(days=1), time(0), tzinfo=t.tzinfo)
        if excluded(t.date()):
            t = day_end
            continue
        if remaining <= day_end - t:
            return t + remaining
        remaining -= day_end - t
        t = day_end
