"""The gazetteer of places outside the corpus, on the real corpus/_places/places.toml and eval questions."""

import json
import re
import tomllib
from pathlib import Path

import pytest

from codeassist.places import PlacesFile, load_gazetteer, normalize
from codeassist.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def gazetteer():
    return load_gazetteer(Settings().corpus_dir)


@pytest.fixture(scope="module")
def ours(corpus):
    """What the caller passes: every corpus municipality's names and aliases, lower case."""
    return sorted({a for m in corpus.municipalities.values() for a in (*m.aliases, m.name.lower(),
                                                                        m.short_name.lower(), m.id)})


@pytest.mark.parametrize("text, place", [
    ("Chicago", "Chicago"),
    ("can I build a deck in chicago without a permit", "Chicago"),
    ("stormwater rules in oyster bay", "Oyster Bay"),
    ("stormwater rules for a 2 acre site in the Town of Oyster Bay?", "Oyster Bay"),
    ("the town of oyster bay", "Oyster Bay"),
    ("N. Hempstead erosion control", "North Hempstead"),
    ("Schenectady", "Schenectady"),
    ("getting an electrical permit in Yonkers: how?", "Yonkers"),
    ("are Yonkers' rules the same?", "Yonkers"),
    ("what does new jersey require", "New Jersey"),
    ("North Hempstead", "North Hempstead"),
    ("Town of North Hempstead", "North Hempstead"),
    ("Hempstead Village permit fees", "Village of Hempstead"),
    ("the Village of Hempstead", "Village of Hempstead"),
    ("New Hempstead village code", "New Hempstead"),
    ("my house in Hicksville", "Hicksville"),
    ("a fence in Garden City", "Garden City"),
    ("village of freeport", "Freeport"),
    ("Scarsdale", "Scarsdale"),
    ("Mt. Kisco", "Mount Kisco"),
    ("croton on hudson", "Croton-on-Hudson"),
    ("Suffolk County", "Suffolk County"),
    ("St. Lawrence County", "St. Lawrence County"),
    ("Orange County", "Orange County"),
    ("nyc", "NYC"),
    ("in the Bronx", "The Bronx"),
    ("Brooklyn brownstone", "Brooklyn"),
    ("city of new york", "City of New York"),
    ("the Hamptons", "The Hamptons"),
    ("Toronto? no: Canada", "Canada"),
    ("a lot in Union, NY", "Union"),
    ("town of union", "Union"),
    ("permits in Rye?", "Rye"),
    ("a deck in Rye with a fence", "Rye"),
    ("Mobile, AL", "Mobile"),
    ("the town of Smithfield stormwater rules", "Smithfield"),
    ("village of Foxborough's fees", "Foxborough"),
    ("Buffalo", "Buffalo"),
    ("White Plains", "White Plains"),
    ("erosion rules in fairfax county, Virginia", "Virginia"),  # a state that is also a first name, after "County,"
    ("erosion rules in Fairfax County, Virginia", "Fairfax County"),  # a county with capitals that is not New York's
    ("Austin TX stormwater requirements for a new subdivision?", "Austin"),  # a state's code without the comma
    ("Austin, TX stormwater", "Austin"),
    ("stormwater permit thresholds in Miami-Dade County?", "Miami-Dade County"),  # any county not New York's
    ("Cook County rules", "Cook County"),
    # an ambiguous name written as a name before the words of a local law or its offices
    ("Sea Cliff stormwater rules for building on a steep lot?", "Sea Cliff"),
    ("is the Rye building code stricter?", "Rye"),
])
def test_other_places(gazetteer, ours, text, place):
    assert gazetteer.other_place(text, ours) == place


@pytest.mark.parametrize("text", [
    # ours
    "Hempstead", "Town of Hempstead", "town of hempstead's stormwater law", "hempstead town", "Tuckahoe",
    "the village", "the village of Tuckahoe", "Village of Tuckahoe's fine", "the town", "Nassau County",
    "westchester county", "county of Nassau",
    # hamlets the Town of Hempstead governs (Levittown lies partly in Oyster Bay too)
    "West Hempstead", "my house in Levittown", "I live in Elmont", "Uniondale", "Franklin Square", "Oceanside",
    "South Hempstead",
    # the state and regions around both
    "New York", "New York State DEC", "the State of New York", "NYS", "Long Island", "Long Island Sound", "NY",
    # roads and rivers named after places
    "Jericho Turnpike", "Hudson River", "Bronx River Parkway", "on Central Park Avenue", "the Harlem line",
    # everyday words
    "I hope the union rep signs", "a sign on the pole", "clay soil", "the bay window", "reading the plan",
    "the stormwater law", "march 3", "may I", "a new deck", "my lot", "the building inspector", "long driveway",
    "a mobile home", "in the rain", "what's the fine?", "the fine in tuckahoe", "a greenfield site",
    "dry wells", "a summit meeting", "grant a waiver", "independence day", "a surprise inspection",
    "jersey barriers", "orange fence", "rye bread", "chili", "the gates", "a rush job", "sandy soil",
    "a temple", "the ridge line", "natural springs", "a bath fan", "hunter green", "in a day", "purchase a permit",
    "bend the conduit", "sparks from the panel", "in reading the plan", "a union electrician", "liberty",
    "DC wiring", "direct current", "concord grapes", "the county of residence", "city of residence",
    "the town of the applicant", "Can the town stop work?", "Does the village inspect?", "a Washington plan",
    "the Lincoln log cabin", "eagle scout project", "a Kent sofa", "warren of pipes", "essex street",
    "Virginia from the county, my neighbor",
    # a first name before capitals that are no state ("SMO"), or written lower case
    "my builder Austin said", "Austin SMO visit", "austin tx",
    # an ambiguous word opening a sentence before a law word, or not written as a name
    "Union rules on overtime?", "our union rules say", "the sea cliff rules", "Summit stormwater permit?",
    "The County says", "What does the County Clerk record?", "the Nassau County Police Department",
])
def test_not_other_places(gazetteer, ours, text):
    assert gazetteer.other_place(text, ours) is None


def test_mask(gazetteer, ours):
    assert gazetteer.mask("North Hempstead or Hempstead?", ours) == "############### or Hempstead?"
    assert gazetteer.mask("the Village of Hempstead", ours) == "the ####################"
    assert gazetteer.mask("Town of Hempstead", ours) == "Town of Hempstead"
    assert gazetteer.mask("in Yonkers and Tuckahoe", ours) == "in ####### and Tuckahoe"


@pytest.mark.parametrize("text, place", [
    ("permits in Hempstead, Texas", "Hempstead, Texas"),
    ("hempstead tx drainage", None),  # a lower-case code is too weak a cue
    ("Hempstead, TX drainage", "Hempstead, Texas"),   # the state's name, not its code
    ("Tuckahoe, NJ fees", "Tuckahoe, New Jersey"),
    ("Hempstead, NY", None),
    ("Hempstead CO requirements", None),  # certificate of occupancy
])
def test_our_names_in_another_state(gazetteer, ours, text, place):
    assert gazetteer.other_place(text, ours) == place


def test_governing_town(gazetteer, ours):
    assert gazetteer.governing_town("my lot in Elmont", ours) == "hempstead"
    assert gazetteer.governing_town("a deck in West Hempstead", ours) == "hempstead"
    assert gazetteer.governing_town("my lot in Hempstead", ours) is None  # named directly, not through a hamlet
    assert gazetteer.governing_town("my lot in Hicksville", ours) is None


def test_ours_comes_from_the_caller(gazetteer):
    """Nothing in the data or the code decides which municipalities are ours."""
    assert gazetteer.other_place("Hempstead", ["tuckahoe"]) == "Hempstead"
    assert gazetteer.other_place("Yonkers", ["yonkers"]) is None
    assert gazetteer.other_place("my house in Elmont", ["tuckahoe"]) == "Elmont"


def test_all_places_named_in_order(gazetteer, ours):
    assert gazetteer.other_places("Yonkers, Hempstead or North Hempstead?", ours) == ["Yonkers", "North Hempstead"]


def test_ordinance_text_names_no_other_place(gazetteer, ours, corpus):
    flagged = {p.id: gazetteer.other_place(p.text, ours) for m in corpus.municipalities
               for p in corpus.provisions(m)}
    assert {pid: place for pid, place in flagged.items() if place} == {}


def _gold():
    return [json.loads(line) for line in (ROOT / "eval" / "gold.jsonl").read_text().splitlines() if line.strip()]


def test_gold_questions_not_flagged(gazetteer, ours):
    """A question about our municipalities never reads as another place. A place named beside one of ours
    ("I'm licensed in White Plains; can I work in Tuckahoe?") is flagged; the router keeps such a question."""
    ours_re = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(o) for o in ours) + r")(?![\w-])")
    wrong = []
    for q in _gold():
        if q["category"] == "out_of_scope":
            continue
        place = gazetteer.other_place(q["question"], ours)
        if place and not ours_re.search(gazetteer.mask(q["question"], ours).lower()):
            wrong.append((q["id"], q["question"], place))
    assert wrong == []


def test_gold_other_municipalities_flagged(gazetteer, ours):
    other = [q for q in _gold() if q["category"] == "out_of_scope" and "other municipality" in q["notes"].lower()]
    assert other
    assert all(gazetteer.other_place(q["question"], ours) for q in other)


def test_data_is_tidy():
    """No name twice in a list; every ambiguous name is lower case and names a listed place (catches typos)."""
    data = PlacesFile(**tomllib.loads((Settings().corpus_dir / "_places" / "places.toml").read_text()))
    listed = set()
    for field in ("ny_regions", "boroughs", "us_states", "us_cities", "countries", "ny_counties", "ny_cities",
                  "ny_towns", "ny_villages", "ambiguous", "neutral", "name_stop_words", "not_place_after"):
        names = [normalize(n) for n in getattr(data, field)]
        assert len(names) == len(set(names)), field
        if field not in ("ambiguous", "neutral", "name_stop_words", "not_place_after"):
            listed.update(names)
    for town, hamlets in data.ny_hamlets.items():
        assert len(hamlets) == len(set(hamlets)), town
        listed.update(normalize(h) for h in hamlets)
    assert all(a == a.lower() for a in data.ambiguous)
    assert sorted(a for a in data.ambiguous if normalize(a) not in listed) == []
    assert {normalize(c) for c in data.ny_counties_not_bare} <= {normalize(c) for c in data.ny_counties}
    assert len(data.ny_counties) == 62
    assert len(data.ny_cities) == 61  # the 62nd, New York, is in boroughs


@pytest.mark.parametrize("text, outside", [
    ("My electrical license is from New Jersey.", True),
    ("I have a license from Stamford, CT", True),
    ("Hempstead, Texas drainage", True),
    ("licensed in Miami-Dade County", True),
    ("licensed in White Plains", False),
    ("the town of Kent", False),
    ("Suffolk County", False),
    ("my house in Hempstead", False),
])
def test_outside_new_york(gazetteer, ours, text, outside):
    assert gazetteer.outside_new_york(text, ours) is outside


@pytest.mark.parametrize("text, kind, same", [
    ("Oyster Bay marina SWPPP - what does the town want?", "town", True),
    ("electrician from Yonkers, what does the village need from me?", "village", False),  # a city, and an origin
    ("I moved from the town of Oyster Bay. Does the town require a plan?", "town", False),  # where they came from
    ("he's in Florida this month; can I use his license in the village?", "village", False),  # the state, not the NY village
    # a name that is a town and a village in New York is either kind
    ("Scarsdale homeowner here: what does the village fine for muddy runoff?", "village", True),
    ("Scarsdale homeowner here: what does the town fine for muddy runoff?", "town", True),
])
def test_the_town_may_mean_another_town_named(gazetteer, ours, text, kind, same):
    assert (kind in gazetteer.kinds_named(text, ours)) is same


@pytest.mark.parametrize("text, outside", [
    ("CT DEEP construction stormwater general permit - how do we register?", True),
    ("NJ DEP rules for silt fence?", True),
    ("DC EV charger in my garage - permit?", False),  # direct current, not the District
    ("is it OK GFCI outlets are missing?", False),
])
def test_another_states_code_before_an_agencys_initials(gazetteer, ours, text, outside):
    assert gazetteer.outside_new_york(text, ours) is outside


@pytest.mark.parametrize("text, state", [
    ("I hold a Pennsylvannia electrical license; good in the village?", "Pennsylvania"),
    ("we moved here from Massachusets last year", "Massachusetts"),
])
def test_a_long_state_name_misspelled_is_that_state(gazetteer, ours, text, state):
    assert gazetteer.other_place(text, ours) == state and gazetteer.outside_new_york(text, ours)


def test_a_misspelled_state_survives_its_cache_being_cleared_by_another_thread(gazetteer, ours, monkeypatch):
    class ClearedByAnotherThread(dict):  # another thread empties the cache right after each store
        def __setitem__(self, key, value):
            self.clear()

    monkeypatch.setattr(gazetteer, "_typos", ClearedByAnotherThread())
    assert gazetteer.other_place("we moved here from Massachusets last year", ours) == "Massachusetts"


def test_words_near_a_state_name_are_not_one(gazetteer, ours):
    assert gazetteer.other_place("a colorful missionary connection: delivery of collateral for the bond", ours) is None


def test_a_states_code_is_shown_as_its_name(gazetteer, ours):
    assert gazetteer.other_place("CT DEEP construction stormwater general permit - how do we register?", ours) == "Connecticut"
