"""The inputs calculators need, read from a question (pure): areas, dates and times, rain, offenses and how
long they went on, the activity or electrical work described. `read_slots` reads them all once."""

from __future__ import annotations

import math
import re
from datetime import date, timedelta

SQFT_PER_ACRE = 43_560
MM_PER_INCH = 25.4

_NUM_WORDS = {"half": 0.5, "a quarter": 0.25, "quarter": 0.25, "one": 1, "two": 2, "three": 3, "four": 4,
              "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "an": 1, "a": 1}
_FRACTIONS = {"three quarters": 0.75, "two thirds": round(2 / 3, 4), "a third": round(1 / 3, 4), "third": round(1 / 3, 4),
              "a tenth": 0.1, "tenth": 0.1}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
             "fifth": 5, "5th": 5, "sixth": 6, "6th": 6, "seventh": 7, "7th": 7, "eighth": 8, "8th": 8, "ninth": 9,
             "9th": 9, "tenth": 10, "10th": 10, "eleventh": 11, "11th": 11, "twelfth": 12, "12th": 12}
_NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"


def _num(s: str) -> float:
    return float(s.replace(",", ""))


# What sides written "10x12" with no unit measure: a structure named beside them.
_STRUCTURES = r"(?:sheds?|decks?|garages?|rooms?|additions?|patios?|slabs?|structures?|buildings?|barns?|sunrooms?|pool ?houses?|cabanas?|gazebos?|pergolas?|greenhouses?|carports?|pavilions?|studios?|cottages?|coops?|kennels?|trailers?|cabins?|lots?|parcels?|plots?|yards?|backyards?)"


_THRESHOLD_NAMED = re.compile(r"\b(?:the|that|this|an?)\s+(?:one|five|\d+(?:\.\d+)?)\s*(?:acres?|square feet|sq\.? ?ft\.?)\s+"
                              r"(?:mark|threshold|cut ?off|line|trigger|limit|rule|minimum|requirement|standard)\b|"
                              # "a phasing limit of one acre at a time": the rule's figure, not the site's
                              r"\b(?:limit|cap|maximum|max|rule|restriction)\s+of\s+(?:one|an?|\d+(?:\.\d+)?)\s*acres?\b")


# "plus a separate 1,200 sq ft patch for a shed, same job": a second part of the same work
_MORE_AREA = re.compile(r"\b(?:another|a further|an additional|an extra|(?:plus|and)\s+an?\s+(?:separate|second|further|additional|extra)|"
                        r"plus(?:\s+an?)?)\s+(?:about\s+|roughly\s+)?" + _NUMBER +
                        r"\s*(acres?|ac\b|square feet|square foot|sq\.? ?ft\.?|sf\b|ft2|sqft)")
SQFT_PER_SQ_METER = 10.763910417  # (1 / 0.3048) ** 2
ACRES_PER_HECTARE = 2.471053815
SQFT_PER_SQ_YARD = 9
# Units of area the calculators take converted: metric ones, and "about 4,700 square yards" (9 sq ft to a yard; no
# metric unit's spelling has a "y")
_METRIC = (r"square met(?:er|re)s?\b|sq\.? ?m\b|m2\b|m\u00b2|hectares?\b|ha\b|"
           r"square yards?\b|sq\.? ?yds?\b\.?|yd2\b|yd\u00b2")


def metric_area(n: float, unit: str) -> tuple[str, float]:
    """A converted area as the calculators take it: square meters in whole square feet, square yards in square
    feet, hectares in acres (to the thousandth, so 0.405 ha is still over an acre: 1.001 acres)."""
    if unit.startswith(("h", "ha")):
        return "acres", round(n * ACRES_PER_HECTARE, 3)
    if "y" in unit:
        return "sq_ft", n * SQFT_PER_SQ_YARD
    return "sq_ft", float(round(n * SQFT_PER_SQ_METER))


def metric_unit(q: str) -> str | None:
    """"square meters", "hectares" or "square yards" when the question gives its area in that unit (one the
    calculators take converted), else None."""
    m = re.search(_NUMBER + r"\s*(" + _METRIC + r")", q.lower())
    if m is None:
        return None
    return "hectares" if m.group(2).startswith("h") else "square yards" if "y" in m.group(2) else "square meters"


def _unhyphened(q: str) -> str:
    """The question lower-cased with "2-acre", "half-acre" read as "2 acre" (same length: offsets still hold); a
    minus sign in front of a number stays (the calculator refuses it)."""
    return re.sub(r"(?<=[\da-z])-(?=[a-z])", " ", q.lower())


def _unit(word: str) -> str:
    """"acres" for an acre's word ("acre", "ac"), "sq_ft" for a square foot's ("sq ft", "sf")."""
    return "acres" if word.startswith("ac") else "sq_ft"


def _in_unit(n: float, unit: str, to: str) -> float:
    """An area `n` in `unit` ("acres" or "sq_ft") expressed in `to`."""
    return n if unit == to else n * SQFT_PER_ACRE if to == "sq_ft" else n / SQFT_PER_ACRE


def _word_number(word: str) -> float:
    """"half" -> 0.5, "two thirds" -> 0.6667, "three" -> 3."""
    return float(_FRACTIONS.get(word, _NUM_WORDS.get(word, 0)))


# The asker says no land is disturbed: "no site work, no soil touched at all", "not touching the ground".
_NO_DISTURBANCE = re.compile(r"\bno (?:soil|dirt|ground|earth|land)\b[^.?!,;]{0,20}?\b(?:touched|disturbed|moved|dug|graded)\b|"
                             r"\bno (?:site ?work|ground disturbance|soil disturbance|land disturbance|earth ?work|earth moving)\b|"
                             # "gutting the inside of a factory ... No outside work, no digging at all"
                             r"\bno (?:outside|exterior) work\b|\bno (?:digging|excavation|excavating|grading) (?:at all|whatsoever)\b|"
                             r"\bnot (?:touching|disturbing|moving|digging up) (?:the |any )?(?:soil|ground|dirt|earth|land)\b", re.I)


# A rectangle's sides in feet ("30 x 60 ft") and what follows one that is left alone ("garage on it stays untouched")
# a side may be written with a thousands comma: "1,100 ft by 40 ft" is 44,000 sq ft, not 100 by 40
_SIDE = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_SIDES_FT = _SIDE + r"\s*(?:'|ft\.?|feet|foot)?\s*(?:x|by|\u00d7)\s*" + _SIDE + r"\s*(?:'|ft\b|feet\b|foot\b)"
_RECTANGLE = re.compile(r"(?<![\d.,])" + _SIDES_FT)
_NEXT_RECTANGLE = re.compile(r"\s*(?:,\s*|\s+)?(?:and|plus|\+|&)\s+(?:another\s+|a\s+)?" + _SIDES_FT)
_RECTANGLE_METERS = re.compile(r"(?<![\d.,])" + _SIDE + r"\s*(?:m|met(?:er|re)s?)?\s*(?:x|by|\u00d7)\s*" + _SIDE + r"\s*(?:m|met(?:er|re)s?)\b")
_RECTANGLE_YARDS = re.compile(r"(?<![\d.,])" + _SIDE + r"\s*(?:yards?|yds?\.?)?\s*(?:x|by|\u00d7)\s*" + _SIDE + r"\s*(?:yards?|yds?)\b")
_UNTOUCHED = re.compile(r"[^.?!;]{0,40}?\b(?:(?:stays?|remains?|is left|will be left|left)\s+(?:\w+\s+)?(?:untouched|undisturbed|alone|as is)|"
                        r"untouched|undisturbed|(?:won't|will not|isn't|is not) (?:be )?(?:touched|disturbed))\b")
_FEET = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(?:feet|foot|ft\b\.?|')"
# a strip or lot given by its length and width: "2,400 feet of road ... a 20 foot wide work strip", "a 20 foot wide
# strip 2,400 feet long", "180 ft along the street, 260 ft along the back line, and 200 ft deep" (a trapezoid)
_LONG_WIDE = re.compile(r"(?:\btrapezoid\b[^.?!]{0,30}?" + _FEET + r"[^.?!\d]{0,40}?" + _FEET + r"[^.?!\d]{0,40}?" + _FEET + r"\s+deep\b)|"
                        # "1,100 feet long with a 40-foot-wide work corridor"
                        + _FEET + r"\s+(?:(?:long\s+)?(?:of|along)\b|long\b)[^.?!\d]{0,60}?" + _FEET + r"\s+wide\b")
_WIDE_LONG = re.compile(_FEET + r"\s+wide\b[^.?!\d]{0,40}?" + _FEET + r"\s+(?:long|deep)\b")
# a lot by its frontage and its depth: "250 ft along the street, 170 ft deep measured straight back" (a parallelogram's
# area is its base times its depth too); a second side "along" another line makes it a trapezoid, read above
_ALONG_DEEP = re.compile(_FEET + r"\s+(?:along|of frontage|frontage|on the street)\b[^.?!\d]{0,40}?" + _FEET + r"\s+deep\b")
# a round area by its diameter or radius: "a round retention area 236 feet across", "a circle with a radius of 120 ft"
_ROUND = r"\b(?:round|circular|circle|cul de sac|turnaround)\b[^.?!\d]{0,60}?"
_CIRCLE = re.compile(_ROUND + _FEET + r"\s*(?:across|in diameter|diameter|wide)\b|" +
                     _ROUND + r"\b(?:diameter (?:of |is )?(?:about |roughly )?" + _FEET +
                     r"|radius (?:of |is )?(?:about |roughly )?" + _FEET + r")|" +
                     # "a cul-de-sac circle with a 90-ft radius", "a circle 90 feet in radius"
                     _ROUND + _FEET + r"\s*(?:in\s+)?radius\b")
# a ring between two circles: "a ring around the pond, outer edge 130 ft from the center, inner edge 60 ft"
_RING = re.compile(r"\b(?:ring|annulus|annular|donut|doughnut)\b[^.?!]{0,80}?\bouter\b[^.?!\d]{0,40}?" + _FEET +
                   r"([^.?!\d]{0,40}?)\binner\b[^.?!\d]{0,40}?" + _FEET + r"([^.?!\d]{0,20})")
# "we'll disturb 95% of it", "90 percent of the lot will be graded": the share of the area told that is worked
_SHARE = re.compile(r"\b(?:disturb\w*|grad(?:e|es|ed|ing)|regrad\w*|clear\w*|excavat\w*|strip(?:s|ped|ping)?|dig\w*|work(?:s|ed|ing)? on)\s+"
                    r"(?:about\s+|roughly\s+|around\s+|only\s+|approximately\s+)?(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)\s+of\s+"
                    r"(?:it|that|this|the (?:lot|site|parcel|property|land|area|whole thing|total))\b|"
                    r"\b(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)\s+of\s+(?:it|that|this|the (?:lot|site|parcel|property|land|area))\s+"
                    r"(?:will be|would be|gets?|is|being|to be)\s+(?:disturbed|graded|regraded|cleared|excavated|stripped|dug|worked)\b")

# a strip that runs into a round area: the road and its turnaround are both built
_ENDS_IN = re.compile(r"\b(?:roads?|roadway|street|drive(?:way)?|lane|strip|corridor|path|access)\b[^.?!]{0,30}\b(?:ends?|ending|end(?:s)? (?:in|at|with)|"
                      r"terminat\w*|leads? (?:in)?to|opens? (?:in)?to|plus|with)\b")

# an oval by its two widths: "an oval dog run roughly 250 ft by 220 ft across", "180 x 140 ft (an ellipse)"
_OVAL = re.compile(r"\b(?:oval|elliptical|ellipse)\b[^.?!\d]{0,60}?" + _SIDES_FT + r"|"
                   r"(?<![\d.,])" + _SIDES_FT + r"(?:\s*across)?\s*\(?(?:an? )?(?:oval|elliptical|ellipse)\b")

# "well under an acre", "less than 20,000 sq ft": the area written is a bound the work stays below, not its size
_UNDER = re.compile(r"\b(?:under|less than|below|fewer than|smaller than|short of|shy of|not (?:even|quite))\s+"
                    r"(?:about\s+|roughly\s+|approximately\s+|around\s+)?$")


# "... from 0.8 acre to 1.4 acres": the second figure, after the first
_GREW_TO = re.compile(r"\s+(?:up\s+)?to\s+(?:about\s+|roughly\s+|around\s+)?" + _NUMBER + r"\s*(acres?|ac\b|square feet|square foot|sq\.? ?ft\.?|sf\b|ft2|sqft)")


def extract_area(q: str) -> tuple[str, float] | None:
    """('acres', 2.0) or ('sq_ft', 20000.0) as the user wrote it; None when no area is given."""
    found = extract_area_bound(q)
    return found[:2] if found else None


# Several like things, each of the area given: "three side-by-side lots, each 110 x 130 ft", "two 60 x 80 ft pads",
# "four lots of 0.3 acre each", "two lots of the subdivision, 0.3 acre each". The count (group 1) and the things
# (group 2) before the area ...
_COUNT = r"\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+"
_THINGS = (r"(lots|parcels|plots|pads|buildings|houses|homes|units|sites|properties|townhouses|slabs|foundations|"
           r"warehouses|garages|sheds)\b")
_COUNTED_EACH = re.compile(_COUNT + r"(?:[\w]+\s+){0,4}?" + _THINGS + r"[^.?!\d]{0,25}?\beach\b[^.?!\d]{0,25}$")
_COUNTED_BEFORE = re.compile(_COUNT + r"(?:[\w]+\s+){0,4}?" + _THINGS + r"[^.?!\d]{0,40}?$")
_COUNT_JUST_BEFORE = re.compile(_COUNT + r"(?:(?:about|roughly|approximately|identical|similar|separate|adjacent)\s+)?$")
# ... and after it ("... 0.3 acre each", "... 60 x 80 ft pads")
_EACH_AFTER = re.compile(r"(?:[^.?!,;]|\.(?=\d)){0,30}?\beach\b")
_THINGS_AFTER = re.compile(r"(?:[^.?!,;]|\.(?=\d)){0,30}?\b" + _THINGS)


def counted(low: str, start: int) -> tuple[int, str] | None:
    """(how many, of what) when the area starting at `start` in `low` is that of each of several like things."""
    before, after = low[:start], low[start:]
    m = _COUNTED_EACH.search(before)
    if m is None:
        m = _COUNTED_BEFORE.search(before)
        m = m if m and _EACH_AFTER.match(after) else None
    if m is None:
        m = _COUNT_JUST_BEFORE.search(before)
        things = _THINGS_AFTER.match(after) if m else None
        m = m if things else None
        noun = things.group(1) if things else ""
    else:
        noun = m.group(2)
    if m is None:
        return None
    n = int(m.group(1)) if m.group(1).isdigit() else int(_word_number(m.group(1)))
    return (n, noun) if n >= 2 else None


def extract_area_bound(q: str) -> tuple[str, float, bool] | None:
    """extract_area's (unit, area) and whether the area written is a bound the work stays under ("well under an
    acre": less than 1 acre disturbed). The area of each of several like things is multiplied by their number."""
    found = _area_at(q)
    return _area_bound(found, counted(found[2], found[3])) if found is not None else None


def _area_bound(found: tuple[str, float, str, int], several: tuple[int, str] | None) -> tuple[str, float, bool]:
    """_area_at's area as extract_area_bound gives it, `several` (counted's) multiplying it."""
    unit, n, low, start = found
    if several is not None:
        n = round(n * several[0], 6)
    share = _SHARE.search(low, start)
    percent = float(share.group(1) or share.group(2)) if share else 0.0
    if 0 < percent <= 100:
        n = round(n * percent / 100, 6)
    return unit, n, bool(_UNDER.search(low[:start]))


FEET_PER_MILE = 5280
_MILES = re.compile(r"\b(?:(?:a |one )?(?P<quarter>quarter|half)(?: of)?(?: a| one)? mile|(?P<n>\d+(?:\.\d+)?|\.\d+) miles?)\b")


def _miles(m: re.Match) -> float:
    return {"quarter": 0.25, "half": 0.5}[m["quarter"]] if m["quarter"] else float(m["n"])


def _area_at(q: str) -> tuple[str, float, str, int] | None:
    """The area, the question as read (lower case, the law's own figures blanked) and where the area starts in it."""
    low = _unhyphened(q)
    # "a site that doesn't hit the one acre mark": the law's line, not the site's area
    low = _THRESHOLD_NAMED.sub(" ", low)
    # "30k square feet": thousands
    low = re.sub(r"\b(\d+(?:\.\d+)?)\s?k(?=\s*(?:square|sq|sf\b|ft2))", lambda k: f"{float(k.group(1)) * 1000:g}", low)
    # "a quarter mile long and 35 ft wide", "1.5 miles long": a length in miles, in feet (read then as any length)
    low = _MILES.sub(lambda m: f"{_miles(m) * FEET_PER_MILE:g} ft", low)
    # "7/8 of an acre", "3/4 acre": a written fraction of an acre (not a date: the acre follows)
    low = re.sub(r"(?<![\d/.])(\d{1,2})/(\d{1,2})\s+(?:of\s+)?(?:an?\s+)?(?=acres?\b)",
                 lambda f: f"{int(f.group(1)) / int(f.group(2)):.4g} " if int(f.group(2)) else f.group(0), low)
    # "one and a half acres", "an acre and a half", "2 and a half acres": the whole number and a half
    m = re.search(r"\b(\d+|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:and\s+a\s+half\s+acres?|acres?\s+and\s+a\s+half)\b", low)
    if m:
        return "acres", (_num(m.group(1)) if m.group(1).isdigit() else _word_number(m.group(1))) + 0.5, low, m.start()  # "an" is 1
    m = re.search(r"(-\s*)?" + _NUMBER + r"\s*(?:\+\s*)?(acres?|ac\b|square feet|square foot|sq\.? ?ft\.?|sf\b|ft2|sqft)", low)
    if m:
        unit = _unit(m.group(3))
        n = -_num(m.group(2)) if m.group(1) else _num(m.group(2))
        grew = _GREW_TO.match(low, m.end()) if re.search(r"\bfrom\s*$", low[:m.start()]) else None
        if grew and _unit(grew.group(2)) == unit and not m.group(1):
            # "grew from 0.8 acre to 1.4 acres over the project": the area it came to
            return unit, _num(grew.group(1)), low, grew.start(1)
        # "0.7 acre this spring and another 0.6 acre next year": the parts add up
        # "7/8 of an acre plus a 6,000 sq ft staging area": a part told in the other unit is converted
        more = [_in_unit(_num(x.group(1)), _unit(x.group(2)), unit)
                for x in _MORE_AREA.finditer(low, m.end())]
        return unit, round(n + sum(more), 6) if more and n > 0 else n, low, m.start()
    # "4,200 square meters", "half a hectare", "4,700 square yards": converted (the law's line is one acre)
    m = re.search(r"(-\s*)?" + _NUMBER + r"\s*(" + _METRIC + r")", low)
    if m:
        n = -_num(m.group(2)) if m.group(1) else _num(m.group(2))
        return (*metric_area(n, m.group(3)), low, m.start())
    # "75 yards by 65 yards", "75 x 65 yd": the sides of a rectangle in yards, 9 square feet to a square yard
    m = _RECTANGLE_YARDS.search(low)
    if m:
        return "sq_ft", _num(m.group(1)) * _num(m.group(2)) * SQFT_PER_SQ_YARD, low, m.start()
    # "70 m by 58 m", "70 x 58 meters": the sides of a rectangle in meters
    m = _RECTANGLE_METERS.search(low)
    if m:
        return (*metric_area(_num(m.group(1)) * _num(m.group(2)), "square meters"), low, m.start())
    m = _OVAL.search(low)
    if m:  # an ellipse's area: pi times its two half-widths
        a, b = (_num(x) for x in m.groups() if x is not None)
        return "sq_ft", float(round(math.pi * a * b / 4)), low, m.start()
    # "8 by 10 feet", "10' x 12'", "20x30 ft": the sides of a rectangle, in feet.
    m = _RECTANGLE.search(low)
    # "a 10x12 shed", "my shed is 8x10": sides with no unit, written with an x next to what they measure
    m = m or re.search(r"\b" + _STRUCTURES + r"\s+(?:(?:is|was|will be|measures|measuring|of|about|roughly|approximately|"
                       r"only|just)\s+){0,2}(\d+(?:\.\d+)?)\s*(?:x|\u00d7)\s*(\d+(?:\.\d+)?)(?![\d.]*\s*(?:'|ft|feet|foot))", low)
    m = m or re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:x|\u00d7)\s*(\d+(?:\.\d+)?)(?=\s+(?:[\w-]+\s+){0,2}" + _STRUCTURES + r"\b)", low)
    if m:
        sq_ft = _num(m.group(1)) * _num(m.group(2))
        # "lot is 190 x 235 ft. A 30 x 60 ft garage on it stays untouched": the part left alone is not disturbed
        kept = [_num(r.group(1)) * _num(r.group(2)) for r in _RECTANGLE.finditer(low, m.end())
                if _UNTOUCHED.match(low, r.end())]
        # "two parcels: 110 x 200 ft and 100 x 216 ft": rectangles listed one after another add up
        end = m.end()
        while (r := _NEXT_RECTANGLE.match(low, end)) and not _UNTOUCHED.match(low, r.end()):
            sq_ft, end = sq_ft + _num(r.group(1)) * _num(r.group(2)), r.end()
        return "sq_ft", max(0.0, sq_ft - sum(kept)), low, m.start()
    m = _RING.search(low)
    if m:  # told by its radii ("130 ft from the center") or, across or in diameter, by twice them
        outer, after_outer, inner, after_inner = m.groups()
        halve = 2 if re.search(r"\b(?:across|diameter|wide)\b", after_outer + after_inner) else 1
        ro, ri = _num(outer) / halve, _num(inner) / halve
        if ro > ri:
            return "sq_ft", float(round(math.pi * (ro * ro - ri * ri))), low, m.start()
    circle = _CIRCLE.search(low)
    # "2,400 feet of road with a 20-foot-wide work strip", "180 ft wide and 240 ft deep": length times width
    m = _LONG_WIDE.search(low) or _WIDE_LONG.search(low)
    sides = [_num(x) for x in m.groups() if x is not None] if m else []
    if circle:
        across, diameter, radius, radius_after = circle.groups()
        r = _num(radius or radius_after) if radius or radius_after else _num(across or diameter) / 2
        round_area = float(round(math.pi * r * r))
        if m and len(sides) == 2 and m.end() <= circle.start() and _ENDS_IN.search(low[m.end():circle.start()]):
            # "a 700 ft long, 40 ft wide roadway that ends in a cul-de-sac circle with a 90 ft radius": both are worked
            return "sq_ft", sides[0] * sides[1] + round_area, low, m.start()
        return "sq_ft", round_area, low, circle.start()
    if m:
        if len(sides) == 3:  # a trapezoid: the mean of its parallel sides times its depth
            return "sq_ft", (sides[0] + sides[1]) / 2 * sides[2], low, m.start()
        return "sq_ft", sides[0] * sides[1], low, m.start()
    m = _ALONG_DEEP.search(low)
    if m and len(re.findall(r"\b(?:feet|foot|ft)\.?\s+along\b", low)) == 1:
        return "sq_ft", _num(m.group(1)) * _num(m.group(2)), low, m.start()
    # "half an acre", "a third of an acre", "three quarters of an acre", "two acres"
    m = re.search(r"\b(three quarters|two thirds|half|a quarter|quarter|a third|third|a tenth|tenth|one|two|three|four|five|"
                  r"six|seven|eight|nine|ten|an)\s+(?:(?:of\s+)?an?\s+)?acres?\b", low)
    if m:
        return "acres", _word_number(m.group(1)), low, m.start()
    return None


# A lot's area: its amount (group 1 a number, group 2 a word) and its unit (group 3), as area_beyond_lot reads them
_LOT_AMOUNT = (r"(?:" + _NUMBER + r"|(three quarters|two thirds|half|a quarter|quarter|a third|one|two|three|four|five|"
               r"six|seven|eight|nine|ten|an))\s*")
_LOT_UNIT = r"(acres?|ac\b|square feet|square foot|sq\.? ?ft\.?|sf\b|sqft)"
_LOT_AREA = re.compile(_LOT_AMOUNT + _LOT_UNIT + r"\s+"
                       r"(?:(?:residential|vacant|empty|corner|wooded|commercial|building)\s+)?(?:lot|parcel|property|plot)s?\b")


# "our lot in Hewlett is 1.2 acres, but we'll only disturb about 0.3 acre": the lot's area told after it
_LOT_IS = re.compile(r"\b(?:lot|parcel|property|plot)\b[^.?!,;]{0,30}?\b(?:is|was|measures|totals|covers)\s+(?:about\s+|roughly\s+|"
                     r"approximately\s+|around\s+|nearly\s+|almost\s+|just over\s+)?" + _LOT_AMOUNT + r"(?:of\s+an?\s+)?" + _LOT_UNIT)


_COMPARED_AREA = re.compile(r"\b(?:under|over|less than|more than|below|above|at least|exceed\w*|than)\s+(?:an?|one|1)\s*acres?\b")


def _beside_lot(q: str) -> tuple[re.Match[str], str, tuple[str, float, bool] | None] | None:
    """The lot's area as the question writes it ("a quarter-acre lot"), the question without it, and the other
    area that text gives (None when none); None when no lot's area is written."""
    low = _unhyphened(q)
    m = _LOT_AREA.search(low) or _LOT_IS.search(low)
    if m is None:
        return None
    others = low[:m.start()] + " " + low[m.end():]
    return m, others, extract_area_bound(others)


def area_beyond_lot(q: str) -> tuple[str, str] | None:
    """("5,000 acres", "quarter-acre lot") when the question disturbs more land than the lot it names has ("a
    5,000-acre driveway on a quarter-acre lot"): the disturbed area and the lot as written; else None."""
    beside = _beside_lot(q)
    if beside is None:
        return None
    m, others, rest = beside
    if rest is None or _COMPARED_AREA.search(others):
        return None  # "a half-acre lot; does being under an acre get us out?" names the law's line, not the work
    n = _num(m.group(1)) if m.group(1) else _word_number(m.group(2))
    lot_acres = _in_unit(n, _unit(m.group(3)), "acres")
    acres = _in_unit(rest[1], rest[0], "acres")
    if lot_acres <= 0 or acres <= lot_acres:
        return None
    unit = {"acres": "acres", "sq_ft": "sq ft"}
    # as written (_unhyphened keeps offsets); "lot ... is 1.2 acres" is said "1.2 acres lot"
    lot = re.sub(r"^an?\s+", "", q[m.start():m.end()] if m.re is _LOT_AREA else
                 f"{q[m.start(1 if m.group(1) else 2):m.end(3)]} lot", flags=re.I)
    return f"{rest[1]:,g} {unit[rest[0]]}", lot


def extract_inches(q: str) -> float | None:
    low = q.lower()
    # "0.6 in" counts as inches only before rain words or at the end; "May 4 in Hempstead" is a date and a place.
    m = re.search(_NUMBER + r"\s*(?:\"|inch(?:es)?\b|in\.?(?=\s+(?:of\s+)?(?:rain|precip))|in\.?(?=\s*(?:[?.!,;]|$)))", low)
    if m:
        return _num(m.group(1))
    # "half an inch" is 0.5 (not the "an inch" inside it); "an inch and a half" is 1.5.
    m = re.search(r"\b(?:a\s+)?(half|quarter|three[- ]quarters?)\s+(?:of\s+)?an?\s+inch", low)
    if m:
        return {"half": 0.5, "quarter": 0.25}.get(m.group(1), 0.75)
    # "four tenths of an inch", "three-tenths of an inch": tenths
    m = re.search(r"\b(a|one|two|three|four|five|six|seven|eight|nine)[- ]tenths?\s+(?:of\s+)?an?\s+inch", low)
    if m:
        return round(float(_NUM_WORDS[m.group(1)]) / 10, 2)
    m = re.search(r"\b(an|one|two|three)\s+inch(?:es)?(\s+and\s+a\s+half)?", low)
    if m:
        return float(_NUM_WORDS[m.group(1)]) + (0.5 if m.group(2) else 0.0)
    m = re.search(r"\b(?:a\s+)?half[- ]inch", low)
    if m:
        return 0.5
    # "we got 12 mm of rain": millimetres or centimetres of rain, in inches (25.4 mm to the inch)
    for m in re.finditer(_NUMBER + r"\s*(mm|millimet(?:er|re)s?|cm|centimet(?:er|re)s?)\b", low):
        if re.search(r"\b(?:rain\w*|precip\w*|storms?|downpours?)\b", low[max(0, m.start() - 40):m.end() + 40]):
            return round(_num(m.group(1)) * (10 if m.group(2).startswith("c") else 1) / MM_PER_INCH, 4)
    return None


_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], start=1)}
_MONTHS.update({k[:3]: v for k, v in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
# "ended Tues 4pm", "Fri. morning": a day typed short; the short forms that are words ("sat", "wed", "sun") count
# only before a time of day.
_WEEKDAY_SHORT = (r"tues|weds|thurs|thur|(?:mon|tue|wed|thu|fri|sat|sun)(?=\.?\s*(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m|p\.m)|"
                  r"morning|afternoon|evening|night|noon)\b)|(?:mon|tue|thu|fri)(?=\.)")


def impossible_dates(q: str) -> list[str]:
    """Numeric dates written in the question that do not exist ("2/30/2026", "2026-13-01")."""
    bad = []
    for m in re.finditer(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b|\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b", q):
        y, mo, d = (m[1], m[2], m[3]) if m[1] else (m[6], m[4], m[5])
        y = int(y) + (2000 if len(y) == 2 else 0)
        try:
            date(y, int(mo), int(d))
        except ValueError:
            bad.append(m.group(0))
    return bad


def _weekday_index(word: str) -> int:
    """Monday 0 ... Sunday 6, from a day's name or its first three letters ("thurs" -> 3)."""
    return next(i for i, day in enumerate(_WEEKDAYS) if day.startswith(word[:3]))


def _year_of_weekday(before: str, month: int, day: int, today: date) -> int:
    """The year of a date written without one: this year, unless the weekday written just before it ("Thursday
    June 12") falls on that date only in a nearby year (the nearest, the earlier on a tie; within six years)."""
    m = re.search(r"\b((?:mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|rs|r|urday)?)\.?,?\s*$", before)
    if m is None:
        return today.year
    wd = _weekday_index(m[1])
    for k in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6):
        try:
            if date(today.year + k, month, day).weekday() == wd:
                return today.year + k
        except ValueError:
            continue  # February 29 in a year without one
    return today.year


def extract_dates(q: str, today: date, anchor: date | None = None) -> list[date]:
    """Dates written as 2026-03-03, 3/3/2026, March 3rd (2026), 'Tuesday' (the most recent), today, yesterday.
    A bare weekday told after a written date is the first such day after it ("the report was Thursday April 9,
    and Saturday we got rain": April 11); `anchor` is a written date told before the text."""
    return [d for _, d in dates_at(q, today, anchor)]


# A notice told by its day relative to the milestone's, with no date of its own: "if I call the village the morning
# before, is that enough notice?", "we'll notify them two days before"
NOTICE_DAYS_BEFORE = re.compile(r"\b(?:call|calls|calling|called|phon\w+|notif\w*|tell|tells|told|e-?mail\w*|text|texts|texted|"
                                r"inform\w*|let (?:\w+ ){1,3}know|give (?:\w+ ){0,2}(?:notice|heads[- ]up)|gave (?:\w+ ){0,2}(?:notice|heads[- ]up))\b"
                                r"[^.?!]{0,60}?\b(?:(?:the|a) )?(?P<n>(?:two|2|three|3) (?:full )?days?|(?:day|morning|afternoon|evening|night)) "
                                r"(?:before|prior|earlier|ahead)\b", re.I)
_DAYS_BEFORE = {"two": 2, "2": 2, "three": 3, "3": 3}


def notice_days_before(q: str) -> int | None:
    """How many days before the milestone a notice is told as given, when it is told only that way ("the morning
    before" -> 1, "two days before" -> 2); None when it is not."""
    m = NOTICE_DAYS_BEFORE.search(q)
    return None if m is None else _DAYS_BEFORE.get(m.group("n").split()[0].lower(), 1)


# "I emailed the official at 3 pm Wednesday; we close Friday at noon. Was that enough notice?": whether the notice told of was in time
ENOUGH_NOTICE = re.compile(r"\b(?:enough|sufficient|adequate|timely)\s+(?:notice|heads[- ]up|warning|lead time)\b|"
                           r"\b(?:notice|heads[- ]up|notif\w*|e-?mail\w*|call)\b[^.?!]{0,40}\b(?:enough|in time|on time|sufficient|early enough)\b|"
                           r"\b(?:is|was) (?:that|this|it) (?:enough|in time|early enough|sufficient)\b|"
                           # "gave the village notice Wednesday at 9 am that we'd finish Friday at 8 am. Are we OK?"
                           r"\b(?:notice|notif\w*|heads[- ]up)\b[^?]{0,200}\b(?:are we|am i|were we|is (?:that|this|it)|"
                           r"was (?:that|this|it))\s+(?:ok|okay|good|fine|alright|all right|covered)\b", re.I)


# A date's words from where it starts ("april 9, 2027", "2027-04-09", "the 16th", "friday")
_DATE_SPAN = re.compile(r"[a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|"
                        r"the\s+\d{1,2}(?:st|nd|rd|th)|[a-z]+")
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)|\b(noon|midday|midnight)\b")


def dated_times(q: str, today: date) -> list[tuple[date, tuple[int, int] | None]]:
    """Each date written, in order, with the clock time told beside it ("Friday, April 9, 2027 at 4 pm that we
    start Monday, April 12 at 7 am": 16:00 on April 9, 07:00 on April 12); a time goes to the nearest date."""
    low = q.lower()
    spans = [(pos, pos + (len(m.group(0)) if (m := _DATE_SPAN.match(low, pos)) else 1), d) for pos, d in dates_at(q, today)]
    times: dict[int, tuple[int, int]] = {}
    for t in _CLOCK.finditer(low):
        if t[4]:
            hm = (0 if t[4] == "midnight" else 12, 0)
        elif 1 <= int(t[1]) <= 12 and int(t[2] or 0) <= 59:
            hm = (int(t[1]) % 12 + (12 if t[3].startswith("p") else 0), int(t[2] or 0))
        else:
            continue
        near = min(range(len(spans)), key=lambda i: spans[i][0] - t.end() if spans[i][0] >= t.end() else max(0, t.start() - spans[i][1]),
                   default=None)
        if near is not None:
            times.setdefault(near, hm)
    return [(d, times.get(i)) for i, (_, _, d) in enumerate(spans)]


def dates_at(q: str, today: date, anchor: date | None = None) -> list[tuple[int, date]]:
    """extract_dates' dates with where each starts in `q`."""
    low = q.lower()
    out: list[tuple[int, date]] = []

    def add(pos: int, d: date | None) -> None:
        if d is not None:
            out.append((pos, d))

    def safe(y: int, m: int, d: int) -> date | None:
        try:
            return date(y, m, d)
        except ValueError:
            return None

    for m in re.finditer(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", low):
        add(m.start(), safe(int(m[1]), int(m[2]), int(m[3])))
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b", low):
        y = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
        add(m.start(), safe(y, int(m[1]), int(m[2])))
    month_names = "|".join(sorted(_MONTHS, key=len, reverse=True))
    for m in re.finditer(r"\b(" + month_names + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b", low):
        prior = [d for pos, d in out if pos < m.start()]
        # "from March 28 through April 4, 2027": the year written at the span's end is its start's too
        until = re.match(r"\s*(?:through|thru|to|until|till|and|-|\u2013)\s+(?:(?:mon|tue|wed|thu|fri|sat|sun)\w*\.?,?\s+)?(" +
                         month_names + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b", low[m.end():])
        if m[3]:
            y = int(m[3])
        elif until and safe(int(until[3]), _MONTHS[until[1]], int(until[2])):
            end = date(int(until[3]), _MONTHS[until[1]], int(until[2]))
            start = safe(end.year, _MONTHS[m[1]], int(m[2]))
            y = end.year if start is None or start <= end else end.year - 1
        elif prior and not re.search(r"\b(?:mon|tue|wed|thu|fri|sat|sun)\w*\.?,?\s*$", low[:m.start()]):
            # "served Thursday, April 1, 2027. Today's April 14": the year that puts it nearest the date told before
            y = min((prior[-1].year + k for k in (0, 1, -1) if safe(prior[-1].year + k, _MONTHS[m[1]], int(m[2]))),
                    key=lambda yy: abs((date(yy, _MONTHS[m[1]], int(m[2])) - prior[-1]).days), default=today.year)
        else:
            y = _year_of_weekday(low[:m.start()], _MONTHS[m[1]], int(m[2]), today)
        add(m.start(), safe(y, _MONTHS[m[1]], int(m[2])))
    for m in re.finditer(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\s+(?:" + month_names + r"))", low):
        # "noon on Friday, December 18 ... at 3 pm Wednesday the 16th": that day of the month told before
        prior = [d for pos, d in out if pos < m.start()] or ([anchor] if anchor else [])
        if prior:
            add(m.start(), safe(prior[-1].year, prior[-1].month, int(m[1])))
    for m in re.finditer(r"\b(?:in\s+)?(" + month_names + r")\.?\s+(\d{4})\b", low):  # "in March 2026", "issued Feb 2026"
        add(m.start(), safe(int(m[2]), _MONTHS[m[1]], 1))
    written = sorted(out)  # the dates written out, which a bare weekday told after them follows
    for m in re.finditer(r"\b(today|yesterday|tomorrow|last night)\b", low):
        if m[1] == "today" and re.match(r"(?:'s|\s+is)\s+(?:(?:mon|tue|wed|thu|fri|sat|sun)\w*,?\s+)?(?:" + month_names + r"|\d)", low[m.end():]):
            continue  # "Today's April 14": the date written says which day today is
        delta = {"today": 0, "yesterday": -1, "last night": -1, "tomorrow": 1}[m[1]]
        add(m.start(), today + timedelta(days=delta))
    for m in re.finditer(r"\b(?:(next|this|last)\s+)?(" + "|".join(_WEEKDAYS) + r"|" + _WEEKDAY_SHORT + r")\b", low):
        if re.match(r"\.?,?\s+(?:(?:" + month_names + r")\b|\d{1,4}[/-]\d|the\s+\d{1,2}(?:st|nd|rd|th)\b)", low[m.end():]):
            continue  # "Monday June 8, 2026", "Wednesday the 16th": the date that follows says which Monday
        wd = _weekday_index(m[2])
        told = [d for pos, d in written if pos < m.start()] or ([anchor] if anchor else [])
        if m[1] is None and told:
            add(m.start(), told[-1] + timedelta(days=(wd - told[-1].weekday()) % 7 or 7))
        elif m[1] == "next" or re.search(r"\b(starting|start|will|going to|begin)\b", low[: m.start()]):
            days = (wd - today.weekday()) % 7 or 7
            add(m.start(), today + timedelta(days=days))
        else:
            days = (today.weekday() - wd) % 7
            add(m.start(), today - timedelta(days=days))
    return sorted(out)


# The verbs that date the event a deadline runs from ("if I called the inspector Friday", "the NOV was served on
# the 3rd", "it rained Tuesday").
_EVENT_VERB = re.compile(r"\b(?:notif\w*|told|called|informed|served|received|got|issued|dated|rained|poured|stormed|ended|stopped|"
                         r"finished|completed|left|quit|disqualified|registered|accepted)\b", re.I)


def event_dates(q: str, today: date) -> list[date]:
    """The dates written in the clause of a verb that dates an event ("close up Sunday if I called Friday" ->
    Friday), in text order; [] when no such clause holds a date."""
    out: list[date] = []
    for m in _EVENT_VERB.finditer(q):
        clause = re.split(r"[,;?.!]|\b(?:and|but|so|can|could|when|if)\b", q[m.start():], maxsplit=1, flags=re.I)[0]
        out += [d for d in extract_dates(clause, today) if d not in out]
    return out


_SENTENCE_END = re.compile(r"[?!]|\.(?:\s+(?=[A-Z])|\s*$)")


def dates_told_with(q: str, pattern: str, today: date) -> list[date]:
    """The dates told with `pattern`'s first match whose sentence holds any: those after the match, up to the
    sentence's end ("1.3 inches of rain fell, ending Thursday, September 3"), else the last one before it in the
    sentence ("on Monday it rained"); [] when no such sentence holds a date."""
    for m in re.finditer(pattern, q, re.I):
        end = _SENTENCE_END.search(q, m.end())
        # (a sentence ends at a stop before a space: "0.7 inches" is inside one)
        start = max((x.end() for x in re.finditer(r"[?!]|\.(?=\s)", q[:m.start()])), default=0)
        anchor = max(extract_dates(q[:start], today), default=None)  # a bare weekday follows a date told before
        if after := extract_dates(q[m.start():end.start() if end else len(q)], today, anchor):
            return after
        if before := extract_dates(q[start:m.start()], today, anchor):
            return before[-1:]
    return []


def extract_time(q: str) -> tuple[int, int] | None:
    m = re.search(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)", q.lower())
    if not m:
        # "at 8:00", "at 14:30": a clock time with no am/pm is read as written, on the 24-hour clock
        clock = re.search(r"(?:\bat|@)\s*([01]?\d|2[0-3]):([0-5]\d)\b", q.lower())
        if clock:
            return int(clock[1]), int(clock[2])
        word = re.search(r"\b(noon|midday|midnight)\b", q.lower())  # "around noon on Thursday"
        return ((0 if word[1] == "midnight" else 12), 0) if word else None
    hour, minute = int(m[1]), int(m[2] or 0)
    if not 1 <= hour <= 12 or minute > 59:
        return None  # not a clock time ("13 pm", "9:75 am")
    return hour % 12 + (12 if m[3].startswith("p") else 0), minute


# A question about how many violations there are, not the fine: "how many violations is that?", "is that one
# offense or ten?", "does each day count separately?".
COUNTING = re.compile(r"\b(?:how many|separate\w*|each (?:day|week)|count(?:s|ed)?|"
                      r"(?:one|a single|single) (?:offen[cs]e|violation|ticket|charge|count) or)\b", re.I)


def extract_offense_number(q: str) -> int | None:
    low = q.lower()
    # "second conviction; the first offense was two years before": the highest named is this one
    named = [n for word, n in _ORDINALS.items() if re.search(
        r"\b" + word + r"\b(?!\s+of\b)[\s-]+(?:[\w'&-]+\s+){0,4}?(?:offen[cs]e|violation|conviction|time|strike|infraction|citation|ticket)", low)]
    if re.search(r"\b(?:offen[cs]es?|violations?|convict\w*)\b", low):
        # "offenses in 2020, 2023 and now 2025 ... range for the third one?", "my first violation was in 2023, now
        # I'm facing a second one": "one" stands for the offense
        named += [n for word, n in _ORDINALS.items() if re.search(r"\b" + word + r"\s+one\b", low)]
    if named:
        return max(named)
    m = re.search(r"\b(\d+|one|two|three|four)\s+prior", low)
    if m:
        return int(_NUM_WORDS.get(m[1], m[1])) + 1  # type: ignore[arg-type]
    # "convicted twice", "ticketed three times": that many.
    m = re.search(r"\b(?:convict\w*|cited|caught|fined|ticketed|violat\w*)\b[^.?!]{0,30}?\b(twice|two times|three times|four times)\b", low)
    if m:
        return {"twice": 2, "two times": 2, "three times": 3, "four times": 4}[m[1]]
    # One more than the offenses dated before the word (at least one): "convicted in 2022 and again this year" is
    # the 2nd, "offenses in September 2022 and January 2024, and now convicted again" the 3rd, "convicted of a
    # violation in 2023 and committed another one in 2026" the 2nd, "offenses in June 2023 and May 2025 and now
    # another in April 2027" the 3rd.
    m = re.search(r"\b(?:convict\w*|offen[cs]es?|violat\w*|cited|caught|fined)\b[^.?!]{0,100}?\b(again)\b", low) or \
        re.search(r"\b(?:convict\w*|cited|caught|fined)\b[^.?!]{0,60}\b(another|one more)\s+(?:one|offen[cs]e|violation)\b", low) or \
        re.search(r"\b(?:offen[cs]es|violations|convictions)\b[^.?!]{0,100}?\b(?:and|now|then) (?:now |then )?(another)\b", low)
    if m:
        return max(1, len(re.findall(r"\b(?:19|20)\d{2}\b", low[:m.start(1)]))) + 1
    return None


def extract_years_window(q: str) -> float | None:
    m = re.search(r"\b(?:within|in|over)(?: the last| the past| past| last)?\s+(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:years?|yrs?)\b", q.lower())
    if m:
        return float(_NUM_WORDS.get(m[1], m[1]))  # type: ignore[arg-type]
    # "six years ago", "six years apart", "7 yrs later", "a gap of six years between them"
    m = re.search(r"\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:years?|yrs?)\s+"
                  r"(?:ago|apart|later|after(?:wards?)?|between)\b", q.lower())
    if m:
        return float(_NUM_WORDS.get(m[1], m[1]))  # type: ignore[arg-type]
    return None


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = r"(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|\.)?"
_WEEKDAY_SPAN = re.compile(r"\b(?:from )?" + _WEEKDAY + r"\s*(?:through|thru|to|until|till|-|\u2013)\s*" + _WEEKDAY + r"(?![\w])")


_JAIL_AFTER = re.compile(r"\s+(?:(?:in|of|behind)\s+)?(?:jail|prison|imprisonment|bars|incarcerat\w*)\b")
_JAIL_BEFORE = re.compile(r"\b(?:jail|prison|imprison\w*|incarcerat\w*|sentence[ds]?)\s+(?:(?:for|of|term of)\s+)?(?:up to\s+|not to exceed\s+|at most\s+)?$")


def extract_duration_days(q: str) -> int | None:
    # "kept working on it Monday through Friday": the days from one weekday to the next, both counted
    m = _WEEKDAY_SPAN.search(q.lower())
    if m and m[1][:3] != m[2][:3]:  # ("Monday to Monday" may be one day or eight)
        first, last = (next(i for i, d in enumerate(_WEEKDAYS) if d.startswith(x[:3])) for x in (m[1], m[2]))
        return (last - first) % 7 + 1
    low = q.lower()
    for m in re.finditer(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:(?:more|additional|further|straight|"
                         r"consecutive|full|whole|entire) )?(days?|weeks?|months?)\b", low):
        # "six months in jail", "imprisonment of up to 15 days": a sentence, not how long the violation ran
        if not _JAIL_AFTER.match(low, m.end()) and not _JAIL_BEFORE.search(low[:m.start()]):
            break
    else:
        return None
    n = int(_NUM_WORDS.get(m[1], m[1]))  # type: ignore[arg-type]
    return n * {"d": 1, "w": 7, "m": 30}[m[2][0]]


_ELECTRICAL = re.compile(r"\b(electric(?:al|ian)?|wiring|wire|wired|(?:dis|re)connect(?:ed|ing|ion|s)?|rewir(?:e|ed|es|ing)|fuse|fuses|switch(?:es)?|outlets?|receptacles?|circuits?|subpanel|"
                         r"panel|lamp sockets?|ceiling lights?|sconces?|junction box(?:es)?|romex|drop cords?|journeym[ae]n|sheetrock over|breakers?|ceiling fans?|"
                         r"light(?:ing)? fixtures?|(?:wired|electrical) fixtures?|string lights|recessed (?:lights?|lighting|cans?|fixtures?)|pot lights?|can lights?|"
                         r"\d+[- ]?volts?|voltage|generators?|(?:temporary|temp) (?:power|service|lighting)|ev chargers?|car chargers?|solar (?:panels?|arrays?|systems?|pv)|photovoltaic|pv|"
                         # "a 50-amp outdoor pedestal", "100 amp service"
                         r"\d+[- ]?amps?|amperes?|amperage|transformers?|meter sockets?|electric meters?|"
                         # "hardwired heat cable along my roof edge"
                         r"hard-?wir(?:e|ed|es|ing)|heat(?:ing)? (?:cables?|tapes?|mats?|trace))\b", re.I)


# "does every day count as a new violation like with electrical?": the electrical code is what the question
# measures against, not its subject; "No electrical changes at all": electrical work is denied.
NOT_ELECTRICAL = re.compile(r"\b(?:like|as|unlike) (?:with|in|for|under|on) (?:the )?(?:electrical|electric|wiring)\b"
                            r"(?: (?:code|chapter|side|rules?|laws?|permits?|violations?))?|"
                            r"\b(?:no|without(?: any)?|nothing|not any) (?:electrical|electric|wiring)\b(?: (?:changes?|work|involved))?"
                            r"(?! (?:permit|code|inspect\w*|contractor))", re.I)


ACTIVITY_KEYWORDS: list[tuple[str, str]] = [
    (r"landing area|log haul|haul road", "silviculture_landing_or_haul_road"),
    (r"\b(silvicultur\w*|logging|timber|forestry)\b", "silviculture"),
    # "a new barn on our farm": the definition of agricultural activity leaves out "the construction of new
    # structures associated with agricultural activities"
    (r"^(?=.*\b(?:farm\w*|agricultur\w*|livestock|orchards?|vineyards?)\b)(?=.*\b(?:build\w*|construct\w*|erect\w*|new|project|"
     r"put(?:ting)? up|add(?:ing)?)\b).*\b(?:barns?|silos?|stables?|greenhouses?|sheds?|pole barns?|(?:farm |equipment |storage )?"
     r"buildings?|structures?|farm ?stands?|farmhouses?)\b", "agricultural_structures"),
    (r"\b((?<!solar )(?<!wind )(?<!server )farm\w*|agricultur\w*|livestock|crops?|grazing|orchards?|vineyards?|pastures?|hay ?fields?|growing beds|"
     r"(?:plant|tree|shrub|wholesale) nurser(?:y|ies)|nursery (?:beds?|stock|fields?|rows?))\b", "agriculture"),
    # "widen and deepen a drainage ditch so it carries more water ... routine maintenance?": maintenance keeps "the
    # original line and grade, hydraulic capacity or original purpose"; changing the capacity is not it
    (r"^(?=.*\b(?:maint\w*|routine|upkeep|exempt\w*)\b).*(?:\b(?:widen\w*|deepen\w*|enlarg\w*|expand\w*|upsiz\w*)\b[^.?!]{0,30}"
     r"\b(?:ditch|swale|channel|culvert|basin|pond|pipe)(?:e?s)?\b|\b(?:ditch|swale|channel|culvert|basin|pond|pipe)(?:e?s)?\b"
     r"[^.?!]{0,20}\b(?:widen\w*|deepen\w*|enlarg\w*|upsiz\w*)|\b(?:carr(?:y|ies)|hold|holds|handle|handles|take|takes) more "
     r"(?:water|flow|runoff|stormwater)\b|\b(?:increas\w*|add\w*|more|bigger|greater) (?:its |the |their )?(?:hydraulic )?capacity\b)",
     "capacity_change"),
    (r"\b(routine (?:maintenance|upkeep|repairs? and maintenance)|maintain(?:ing)? the original|back to (?:how|the way) it was|original (?:line|grade|profile|contours?|shape|cross[- ]?section|dimensions|depths?)|"
     # "repaving the existing lot at the same grade"
     r"(?:same|existing) (?:line and )?grade|"
     # "reset the culvert to the line and grade it always had"
     r"line and grade (?:it|they|that|this) (?:always |originally |already |once )?(?:had|has|have)|"
     # "landfill cap regrade back to design grades"
     r"back to (?:the |its |their |there )?(?:original |design(?:ed)? |as-built |permitted )(?:line|grades?|contours?|elevations?)|"
     # "regrading the ballfield back to the grade it was built at"
     r"back to (?:the )?(?:line|grades?|contours?|elevations?) (?:it|they) (?:was|were|had been|originally had) (?:built|constructed|designed|graded|laid out)?|"
     r"(?:fix|fixing|clean|cleaning|regrad\w*) (?:an |the |our )?existing (?:ditch|swale|drainage|channel)|"
     # "clearing out a clogged drainage channel to restore its original capacity"
     r"restor\w* (?:its |the |their )?original (?:capacity|purpose|line|grade|flow)|original (?:hydraulic )?capacity|"
     r"(?:clear|clean|dredg|unclog)\w*(?: out)? (?:an? |the |our |that )?(?:clogged |existing |old |silted )*"
     r"(?:ditch|swale|drainage (?:ditch|channel|swale)|channel|culvert)s?)\b", "routine_maintenance"),
    (r"\b(repair\w* (?:to )?(?:the |a |an |our )?(?:stormwater|smp|drainage|detention|retention|basin|pond)|"
     # "rebuilding a collapsed drywell the SMO told us to fix"
     # "the SMO told our condo to unclog and rebuild part of our swale"
     r"(?:rebuild\w*|fix\w*|repair\w*|replac\w*|reconstruct\w*) (?:(?:part|a section|a portion|sections|parts) of )?(?:a |an |the |our |that |this )?(?:collapsed |broken |failed |failing |"
     r"clogged |damaged |caved[- ]in |sunken )?(?:dry ?wells?|catch basins?|leaching (?:pools?|basins?)|recharge basins?|bioswales?|(?:grass(?:ed)? )?swales?|"
     r"rain gardens?|(?:stormwater|detention|retention) (?:tanks?|chambers?|vaults?|systems?))|"
     # "our leaching pools are failing. If we replace them ..."
     r"(?:dry ?wells?|catch basins?|leaching (?:pools?|basins?)|recharge basins?)\b[^?!]{0,80}?\b(?:rebuild|fix|repair|replac)\w* (?:them|it)\b)\b",
     "smp_repair"),
    # "new paved lanes and a visitor parking lot" at a cemetery are not "cemetery graves"
    (r"^(?!.*\b(?:graves?|burials?|burial plots?|interments?)\b)(?=.*\bcemeter(?:y|ies)\b).*\b(?:lanes?|roads?|roadways?|"
     r"driveways?|parking|paved|paving|chapel|office|maintenance (?:building|garage|shed))\b", "cemetery_other_work"),
    (r"\b(cemetery|graves?|burial)\b", "cemetery_graves"),
    # "a 30x40 pole barn": a building on poles, not the installation of "posts or poles"
    (r"\bpole[- ]?(?:barns?|buildings?|sheds?|garages?|structures?)\b", "pole_building"),
    # "sign" the plan is a verb, not the exempt activity: signs count as things put up.
    (r"\b(fences?|signage|billboards?|(?:an?|the|my|our|new|business|store|shop|yard|street) signs?\b(?! (?:the|off|it|this|that|a|an|for|here)\b)|"
     r"(?<!to )(?<!must )(?<!who )(?<!will )(?<!and )(?<!can )signs\b(?! (?:the|off|it|this|that|a|an|for|here)\b)|poles?|posts?(?![- ]?construction)|flagpole)\b", "fence_sign_pole"),
    # "the fire department bulldozed a firebreak across my lot during a brush fire": work done to fight the fire
    (r"\b(emergenc\w*|water main (?:broke|break|burst)|(?:main|pipe) burst|burst (?:water )?(?:main|pipe)|fire ?breaks?|fire ?lines? (?:bulldozed|cut|dug)|"
     r"(?:put out|fight|fighting|contain|containing|stop|stopping) (?:a |the )?(?:brush |wild|forest )?fires?|(?:brush|forest) fires?|wildfires?)\b", "emergency"),
    (r"\b(vegetable garden|veggie garden|home garden\w*|gardening|flower beds?|"
     r"growing (?:flowers|vegetables)|"
     r"grow(?:ing)? (?:\w+ )?(?:flowers|vegetables|veggies|tomatoes|peppers|herbs|lettuce|plants) (?:\w+ ){0,3}for (?:the|my|our) family|"
     # "dig up half the lawn for tomatoes and herbs, just for the family"
     r"(?:tomatoes|veggies|vegetables|herbs|lettuce|peppers)\b[^.?!]{0,40}\bfor (?:the|my|our) (?:own )?family)\b",
     "home_gardening"),
    # A landscape architect prepares plans; landscaping is the activity.
    # "rip out the lawn and replant it as native meadow": relandscaping
    # "building a new 1.3-acre facility: can we leave the landscaping out of the SWPPP?": the new building's own
    # landscaping is part of its development, not landscaping "in connection with an existing structure"
    (r"^(?!.*\b(?:build\w*|construct\w*|putting up|erect\w*) (?:a |an |our |the )?(?:brand[- ]new|new)\b)"
     r".*?\b((?:re-?)?landscap\w*(?! architect)|native (?:meadows?|plantings?|grasses|wildflowers)|(?:rip|tear)(?:ping|ing)? out (?:the |our |my )?(?:lawn|grass)|horticultur\w*|planting shrubs|planting beds?|shrubs|shrubbery|hedges?|foundation plantings?|mulch\w*|"
     # "planting a tree buffer around the existing office building"
     r"(?:tree|evergreen|shrub) (?:buffers?|screens?|borders?|plantings?)|planting (?:new )?trees)\b", "landscaping_existing_structure"),
]


def _first_key(table: list[tuple[str, str]], text: str) -> str | None:
    """The key of the first pattern in a (pattern, key) table that matches the lower-cased text."""
    low = text.lower()
    return next((key for pattern, key in table if re.search(pattern, low)), None)


def extract_activity(q: str) -> str | None:
    return _first_key(ACTIVITY_KEYWORDS, q)


MINOR_REPAIR_KEYWORDS: list[tuple[str, str]] = [
    (r"\bfuses?\b(?!\s*(?:box|boxes|panel|panels|board))", "replacing_fuses"),  # a fuse box is a panel
    (r"\b(?:flush|snap|light|wall)?\s*switch(?:es)?\b", "repairing_switches"),
    (r"\b(?:lamp sockets?|light sockets?|receptacles?|outlets?)\b", "changing_lamp_sockets_and_receptacles"),
    (r"\btap(?:e|ing)\b.*\bjoints?\b|\bbare joints?\b", "taping_bare_joints"),
    (r"\b(?:drop|extension) cords?\b", "repairing_drop_cords"),
    (r"\bplug(?:ging)? in\b|\bportable (?:device|appliance)s?\b", "connecting_portable_devices"),
]


_PLUG_INTO = re.compile(r"\bplug(?:s|ged|ging)?\b(?: (?!in\b|into\b)[\w'-]+){0,5} in(?:to)?\b|\bportable (?:device|appliance)s?\b")
_NEW_WIRING = re.compile(r"\b(?:new|add(?:s|ed|ing)?|install\w*|extra|more|another|dedicated|hard-?wir\w*)\b"
                         r"(?: (?!into\b|to\b|in\b|on\b|for\b)[\w'-]+){0,2} (?:outlets?|receptacles?|circuits?|wiring|wires?|lines?)\b"
                         r"|\bhard-?wir\w*|\b(?:panel|breaker|fuse box|transfer switch|back-?feed\w*|generator)s?\b"
                         # "install a 50-amp outdoor pedestal for the truck to plug into": what is plugged into is new work
                         r"|\b(?:install\w*|put(?:ting)? in|mount\w*|run(?:ning)? (?:a|an|new)|wire (?:up|in))\b")


_INSTALLED_BEFORE = re.compile(r"\b(?:was|were|been|already|previously)\s+(?:\w+\s+)?(?:put in|installed|wired in|mounted)\b")


def extract_minor_repair(q: str) -> str | None:
    """The listed minor repair (§ 7-5(a)(1)) a question describes, only for repair/replace wording."""
    low = q.lower()
    # "plug a new window air conditioner into the outlet that's already in the wall": a (new) portable
    # device connected to a receptacle already installed, unless new wiring or a new receptacle is asked for;
    # "plugging our portable generator into the inlet that was put in with a permit years ago": the generator is
    # the portable device and the inlet's installation is done
    kept = re.sub(r"\bportable generators?\b|\bgenerator (?=(?:power )?(?:inlets?|receptacles?|hook-?ups?|outlets?)\b)",
                  "portable device ", low)
    kept = _INSTALLED_BEFORE.sub(" ", kept)
    if _PLUG_INTO.search(low) and not _NEW_WIRING.search(kept):
        return "connecting_portable_devices"
    # "the outlet cracked, want to put in a new one": a broken part replaced is a repair
    if not re.search(r"\b(replac\w*|repair\w*|fix\w*|chang\w*|swap\w*|tap\w*|plug\w*|connect\w*|crack\w*|broke\w*|busted|"
                     r"damaged|burn(?:ed|t) out)\b", low):
        return None
    if re.search(r"\b(new(?! one)|add(?:ing)?|install(?:ing)?|extra|more)\b", low) and not re.search(r"\bfuse", low):
        return None
    return _first_key(MINOR_REPAIR_KEYWORDS, low)


# "I'm a licensed plumber", "I don't have an electrical contractor registration": another trade's licence, or the
# electrical one denied, is not a registered electrical contractor doing the work
_NOT_REGISTERED_ELECTRICIAN = re.compile(
    r"\b(?:licen[cs]ed|registered|certified) (?:master )?(?:plumbers?|hvac \w+|carpenters?|roofers?|masons?|"
    r"home improvement contractors?|general contractors?|gcs?)\b|"
    r"\b(?:don'?t|do not|doesn'?t|does not|didn'?t|never) (?:have|hold|got) (?:an? |any |the )?(?:electrical |electrician'?s? )?"
    r"(?:contractor'?s? )?(?:registration|licen[cs]e|certificate)\b|\bnot (?:a )?(?:registered|licensed)(?: electricians?| electrical contractors?)?\b")


# "I'm a journeyman working for a registered contractor ... can I pull the permit in my own name?": the asker is an
# employee; the registration named is the employer's, not the asker's
_ASKER_EMPLOYED = re.compile(r"\b(?:i'?m|i am|as) an? (?:journeym[ae]n|apprentice|(?:electrician'?s? )?helper)(?: electrician)?\b"
                             r"[^.?!]{0,20}\b(?:work(?:s|ing)?|employed) (?:for|by)\b")


def extract_performed_by(q: str) -> str | None:
    low = _NOT_REGISTERED_ELECTRICIAN.sub(" ", q.lower())
    if _ASKER_EMPLOYED.search(low):
        return "other"
    if re.search(r"\b(utilit(?:y|ies)|con ?ed|con edison|(?:power|phone|telephone|cable|electric|gas|telecom) (?:company|utility)|"
                 r"verizon)\b", low):
        return "utility"
    if re.search(r"\b(on staff|in[- ]house|employ(?:s|ed|ing)? (?:[\w-]+ ){0,3}(?:journeym[ae]n|electricians)|our (?:own )?electricians|"
                 r"staff (?:journeym[ae]n|electricians)|(?:our|its|their) (?:own )?(?:\w+ )?journeym[ae]n|"
                 r"with (?:\w+ ){0,2}(?:full[- ]time )?journeym[ae]n)\b", low) or \
            re.search(r"\bjourneym[ae]n\b[^.?!]{0,40}\b(?:on (?:the |our )?payroll|on staff|full[- ]time|employ\w*|work(?:s|ing)? for us)\b", low):
        return "in_house_journeyman"
    # "can I get a permit myself, or does it have to be a registered electrician?": the asker does it; the
    # registered electrician is the alternative asked about
    if re.search(r"\b(myself|ourselves|do it myself|diy)\b", low) and \
            not re.search(r"\b(?:i'?m|i am|we'?re|we are) (?:an? )?(?:registered|licensed)\b", low):
        return "homeowner"
    if re.search(r"\b(registered|licensed|electrical contractor|my electrician|an electrician|hire)\b", low):
        return "registered_contractor"
    if re.search(r"\b(homeowner|i do it|i'm doing|my house|my home)\b", low):  # ("myself", "diy": above)
        return "homeowner"
    return None


_IN_VIOLATION = re.compile(r"\b(?:violat\w*|out of compliance|non-?complian\w*|offen[cs]es?|fine[sd]?)\b", re.I)


def _violation_span_days(q: str, found: list[tuple[int, date]]) -> int | None:
    """The days between two of the dates `found` (dates_at) that a violation ran ("out of compliance from Monday,
    March 15 to Monday, May 10, 2027": 56); None when the question tells no such span."""
    if len(found) < 2 or not _IN_VIOLATION.search(q):
        return None
    low = q.lower()
    for (p1, d1), (p2, d2) in zip(found, found[1:]):
        if d2 > d1 and re.search(r"\bfrom\s+(?:(?:mon|tue|wed|thu|fri|sat|sun)\w*,?\s+)?$", low[:p1]) and \
                re.search(r"\s(?:to|through|thru|until|till)\s+(?:(?:mon|tue|wed|thu|fri|sat|sun)\w*,?\s+)?$", low[p1:p2]):
            # "from Monday Sept 28 through Wednesday Oct 14": both days told are in the span
            through = re.search(r"\s(?:through|thru)\s", low[p1:p2]) is not None
            return (d2 - d1).days + through
    return None


def read_slots(q: str, today: date) -> tuple[dict, dict[str, str]]:
    """Every calculator input the question states, read once: {slot: value} and {slot: the words read}.
    Values are JSON data (dates as ISO strings); a slot the question does not state is absent."""
    low = q.lower()
    slots: dict = {}
    words: dict[str, str] = {}

    def put(name: str, value, match: str | None) -> None:
        slots[name] = value
        words[name] = match or ""

    found = _area_at(q)
    several = counted(found[2], found[3]) if found is not None else None
    area = _area_bound(found, several) if found is not None else None
    beside = _beside_lot(q) if area else None
    if beside is not None and beside[2] is not None:
        area = beside[2]  # "a home on a 2-acre wooded lot, clearing about 1.5 acres": the work's area, not the lot's
    if area and _NO_DISTURBANCE.search(q):
        area = (area[0], 0.0, False)  # "gutting the inside of a 2-acre warehouse, no soil touched": no area disturbed
    if area:
        put("area_unit", area[0], None)
        put("area", area[1], f"{'under ' if area[2] else ''}{area[1]:g} {area[0]}")
        if area[2]:
            put("area_under", True, "under")
    beyond = area_beyond_lot(q)
    if beyond:
        put("area_beyond_lot", list(beyond), " on a ".join(beyond))
    # "Condition C leaves out agricultural properties. Does Condition B ...?": what the law says is no fact of the project
    story = _LAW_STATEMENT.sub(" ", q)
    act = extract_activity(story)
    if act:
        put("activity", act, act)
    story_low = story.lower()
    for name, pattern in _FLAG_SLOTS.items():
        # (the lots whose areas were added up are the whole project, not part of a larger plan)
        m = next((m for m in re.finditer(pattern, story_low)
                  if not (name == "part_of_common_plan" and several and m.group(0) == several[1])), None)
        if m:
            put(name, True, m.group(0))
    if re.search(r"(?:\bnot|n't|\bno longer) (?:a )?part of (?:any|a|an)\s+(?:[\w-]+\s+){0,2}?(?:subdivision|larger|common|"
                 r"development|plan|project)|\bstand[- ]?alone\b|\bon its own\b", low) and not re.search(
                     # "does this first phase need a SWPPP on its own?" asks whether the part alone does
                     r"\b(?:need|needs|require|requires|trigger|triggers|count|counts)\b[^.?!]{0,60}\bon its own\b[^.?!]*\?", low):
        put("part_of_common_plan", False, "not part of")
    if slots.get("discharges_to_impaired_water") and re.search(r"\b(?:no|not|nothing|none|never|any)\W+(?:[\w'-]+\W+){0,4}impaired|"
                                                              r"n't\W+(?:[\w'-]+\W+){0,4}impaired", low):
        del slots["discharges_to_impaired_water"]
    n = extract_offense_number(q)
    if n:
        put("offense_number", n, str(n))
    years = extract_years_window(q)
    if years is not None:
        put("years_window", years, f"{years:g} years")
    found = dates_at(q, today)
    days = extract_duration_days(q) or _violation_span_days(q, found)
    if days:
        put("duration_days", days, f"{days} days")
    bad = impossible_dates(q)
    if bad:
        put("impossible_dates", bad, bad[0])
    dates = [d for _, d in found]
    if dates:
        put("dates", [d.isoformat() for d in dates], ", ".join(d.isoformat() for d in dates))
    inches = extract_inches(q)
    if inches is not None:
        put("inches", inches, f"{inches:g} inches")
    hm = extract_time(q)
    if hm:
        put("time", f"{hm[0]:02d}:{hm[1]:02d}", f"{hm[0]:02d}:{hm[1]:02d}")
    for name, pattern in _EVENT_SLOTS:
        if re.search(pattern, low):
            put("event", name, name)
            break
    repair = extract_minor_repair(q)
    if repair:
        put("minor_repair", repair, repair)
    by = extract_performed_by(q)
    if by:
        put("performed_by", by, by)
    if (wired := _ELECTRICAL.search(NOT_ELECTRICAL.sub(" ", q))):
        put("electrical", True, wired.group(0))
    same = re.search(r"\b(same|identical|alike|match|differ\w*|different)\b", low)
    if same:  # "are they the same?" (True) or "do they differ?" (False)
        put("asks_same", not same.group(1).startswith("differ"), same.group(0))
    counting = COUNTING.search(low)
    if counting:  # "how many violations is that?": a question about counting, not the fine
        put("counting", True, counting.group(0))
    return slots, words


# A sentence telling what a part of the law says ("Condition C leaves out agricultural properties.", "The article
# exempts farms.")
_LAW_STATEMENT = re.compile(r"(?:^|(?<=[.!?;:]\s))\s*(?:condition [a-c]|the (?:law|article|chapter|code|ordinance|town|village|"
                            r"exemption|exclusion)|(?:\u00a7|section|subsection) ?[\w().-]+)\s+(?:also |only )?(?:leaves? out|excludes?|"
                            r"exempts?|carves? out|says?|lists?|covers?|mentions?)\b[^.?!]*[.!;](?=\s|$)", re.I)


_FLAG_SLOTS = {
    # "does the single-family exclusion in Condition C cover us?" names the law's words, not the project
    "single_family_residence": r"(?:single|one)[- ]family(?! (?:residences? )?(?:exclusions?|exemptions?|exceptions?|carve[- ]?outs?|"
                               r"clauses?|language|wording|provisions?|rules?)\b)|my (?:house|home)|a house\b|one (?:house|home)\b|"
                               r"(?:a|one|single) (?:new |brand[- ]new |custom |small )(?:house|home)\b|"
                               r"(?:house|home) for (?:my|our) (?:own )?family|our (?:own )?(?:family )?(?:house|home)\b",
    # "a development" is a subdivision; "land development (activity)" is the law's own term, not a plan.
    # "lots of runoff" is a quantity; "the last lots of a subdivision" are lots
    "part_of_common_plan": r"\b(subdivision|lots(?!\s+of\s+(?!(?:a|an|the|this|that|our|my|his|their)\b))|phases|phased|(?:larger|bigger|overall) (?:common )?plan|common plan|(?:campus |site )?master plan|"
                           # "this first phase is only 0.6 acres"
                           r"(?:first|second|third|next|later|initial|early|this) phase|phase (?:one|two|three|1|2|3|i|ii|iii)|(?<!land )development(?! activit)|"
                           r"one of (?:the )?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|a few) (?:houses|homes|lots|"
                           r"units|buildings)|same developer|same (?:[\w-]+ ){0,3}plan\b|campus plan|"
                           # "the developer is doing 12 of them over three years as one plan"
                           r"(?:as|under|in) (?:one|a single|a single overall|one overall|one big) (?:plan|project)\b|"
                           # "my half-acre lot is one of 12 the developer is selling off"
                           r"one of (?:the )?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|a few)\b"
                           r"(?=[^.?]{0,40}\b(?:lots?|parcels?|developer|builder|sell\w*|sold)\b))",
    "discharges_to_impaired_water": r"\b(impaired\b|303\s?\(d\)|tmdl\b)",  # "303(d)-listed": no word boundary after ")"
    "site_plan_review": r"\b(site plan|special permit|subdivision review)\b",
    # Condition C leaves out "construction activities at agricultural properties"
    "agricultural_property": r"\b(agricultural (?:property|properties|land|parcel|site|lot|operation)|farm ?(?:land|property|parcel)|"
                             r"(?:on|at) (?:a|the|our|my|his|her|their) (?:working |dairy |horse |family )?farm\b|"
                             # "a farm ... is building a farm market with parking on its own land"
                             r"\b(?:a|the|our|my) (?:working |dairy |horse |family )?farm\b(?:[^.?!]|\.(?=\d)){0,80}\bon (?:its|their|our|my|his|her) "
                             r"own (?:land|property|acreage|ground)\b)",
}
# "no storms since", "without rain", "assuming no big storms": no storm happened.
STORM = r"(?<!\bno )(?<!\bwithout )(?<!\bno big )(?<!\bno major )(?<!\bno heavy )(?<!\bno large )(?<!\bno real )\b(rain|storm(?!water)|precip|it (?:poured|was pouring|is pouring|'s pouring)\b|downpour|pouring rain)"
# The dated event a deadline question is about, first match wins.
_EVENT_SLOTS: list[tuple[str, str]] = [
    ("storm", STORM),
    ("last_report", r"\b(?:last|previous|latest|most recent)\b(?:\s+(?!day\b|date\b|days\b)[\w&-]+){0,4}\s+"
                    r"(?:reports?|inspections?(?!\s+(?:firms?|compan\w+|agenc\w+|agents?)))\b"),
    ("violation_notice", r"\b(nov(?!\.?\s*\d)|notice of violation|violation notice|served)\b"),  # not "Nov 25"
    ("wiring_concealment", r"\b(conceal\w*|sheetrock|drywall|cover(?:ing)? (?:up )?(?:the )?(?:wiring|wires|walls)|close (?:up )?the walls|"
                           # "called in the in-wall wiring Saturday ... when can we close up?"
                           r"wiring\b.{0,200}\bclos(?:e|ing) (?:it |them |everything |things )?(?:up|in)\b|"
                           r"(?:wiring|wires)\b[^.?!]{0,40}\b(?:covered|closed (?:up|in)|(?:ready|ok|okay) to (?:be )?(?:cover|close)\w*))\b"),
    ("disqualified", r"\b(?:disqualif\w*|dq(?:'?d|ed)?\b)"),
    ("supervisor_left", r"\b(supervis\w*|master electrician)\b.*\b(left|leaves|leaving|quit|quits|leave|gone|retired|retiring|fired|"
                        r"terminated|died|last day|resign\w*|depart\w*)\b"),
    ("registration", r"\b(registration|registered|license|licence)\b"),
    ("final_acceptance", r"\b(final acceptance|guarantee|bond|escrow|letter of credit)\b"),
    ("construction_start", r"\b(start|starts|starting|begin|begins|beginning|commenc\w*|kick(?:s|ing)? off|break(?:ing|s)? ground|mobiliz\w*)\b"),
]

EVENT_PATTERNS = dict(_EVENT_SLOTS)
