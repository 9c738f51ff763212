"""The game registry: names and aliases from the rules, metadata, rulesets and lookup errors."""

from __future__ import annotations

import pytest

import kibitz
from kibitz import registry
from kibitz.errors import UnknownGameError
from kibitz.rules import GameInfo

# slug: (name, aliases, packs, redeals, PySolFC id), as RULES.md gives them.
RULES = {
    "grand-duchess": ("Grand Duchess", ("Duchess of Luynes", "La Duchesse de Luynes", "One to Six"),
                      2, 3, 557),
    "parisienne": ("Parisienne", ("La Parisienne", "Parisian"), 2, 3, 617),
    "duchess": ("Duchess", ("Glenwood",), 1, 1, 282),
    "tournament": ("Tournament", ("Maréchal Saxe",), 2, 2, 303),
    "napoleons-flank": ("Napoleon's Flank", ("La Nivernaise", "Nivernaise"), 2, 2, 304),
    "cicely": ("Cicely", (), 2, 0, 341),
    "kingsdown-eights": ("Kingsdown Eights", (), 2, 0, 386),
}
ALL_NAMES = [(slug, name) for slug, (title, aliases, *_) in RULES.items()
             for name in (slug, title, *aliases)]


def test_the_seven_games_in_rules_order() -> None:
    """Exactly the seven games, in the order of the rules."""
    assert [info.slug for info in kibitz.games()] == list(RULES)


@pytest.mark.parametrize("slug", list(RULES))
def test_metadata(slug: str) -> None:
    """Name, packs, redeals and PySolFC id are those of the rules."""
    name, aliases, packs, redeals, pysolfc_id = RULES[slug]
    info = kibitz.find(slug)
    assert info.slug == slug
    assert info.name == name
    assert info.packs == packs
    assert info.redeals == redeals
    assert info.pysolfc_id == pysolfc_id
    assert set(aliases) <= set(info.aliases)
    assert info.description
    assert info.rules_version >= 1


@pytest.mark.parametrize("slug,name", ALL_NAMES)
def test_found_by_every_name(slug: str, name: str) -> None:
    """The slug, the name and every alias find the game, in any case."""
    assert kibitz.find(name).slug == slug
    assert kibitz.find(name.upper()).slug == slug
    assert kibitz.find(name.lower()).slug == slug
    assert kibitz.find(f"  {name}\t").slug == slug
    assert kibitz.game(name).slug == slug


@pytest.mark.parametrize("name,slug", [
    ("duchess of luynes", "grand-duchess"),
    ("Duchess-of-Luynes", "grand-duchess"),
    ("LA DUCHESSE DE LUYNES", "grand-duchess"),
    ("one to six", "grand-duchess"),
    ("grand duchess", "grand-duchess"),
    ("Grand_Duchess", "grand-duchess"),
    ("parisian", "parisienne"),
    ("la parisienne", "parisienne"),
    ("glenwood", "duchess"),
    ("GLENWOOD", "duchess"),
    ("Maréchal Saxe", "tournament"),
    ("marechal saxe", "tournament"),
    ("MARÉCHAL SAXE", "tournament"),
    ("Mare\u0301chal Saxe", "tournament"),
    ("maréchal-saxe", "tournament"),
    ("LA NIVERNAISE", "napoleons-flank"),
    ("nivernaise", "napoleons-flank"),
    ("Napoleon's Flank", "napoleons-flank"),
    ("Napoleon\u2019s Flank", "napoleons-flank"),
    ("napoleons flank", "napoleons-flank"),
    ("NAPOLEON'S  FLANK", "napoleons-flank"),
    ("kingsdown eights", "kingsdown-eights"),
    ("Kingsdown  Eights", "kingsdown-eights"),
    ("CICELY", "cicely"),
])
def test_name_variations(name: str, slug: str) -> None:
    """Accents, apostrophes, case, spaces, hyphens and underscores do not matter."""
    assert kibitz.find(name).slug == slug


def test_duchess_is_not_grand_duchess() -> None:
    """Two games share a word; each name finds its own."""
    assert kibitz.find("duchess").slug == "duchess"
    assert kibitz.find("grand duchess").slug == "grand-duchess"
    assert kibitz.find("duchess of luynes").slug == "grand-duchess"


@pytest.mark.parametrize("name", ["freecell", "", "   ", "duchess luynes", "tournaments",
                                  "napoleon", "grand", "557", "Klondike"])
def test_unknown_game(name: str) -> None:
    """An unknown name raises UnknownGameError quoting it and listing the games."""
    with pytest.raises(UnknownGameError) as caught:
        kibitz.find(name)
    message = str(caught.value)
    assert repr(name) in message
    for slug in RULES:
        assert slug in message
    with pytest.raises(UnknownGameError):
        kibitz.game(name)


@pytest.mark.parametrize("slug", list(RULES))
def test_both_rulesets(slug: str) -> None:
    """Every game has the standard and pysolfc rulesets, each a distinct game of the same info."""
    assert kibitz.RULESETS == ("standard", "pysolfc")
    standard = kibitz.game(slug, "standard")
    pysolfc = kibitz.game(slug, "pysolfc")
    assert standard.ruleset == "standard" and pysolfc.ruleset == "pysolfc"
    assert standard is not pysolfc
    assert standard.info is pysolfc.info is kibitz.find(slug)
    assert kibitz.game(slug) is standard
    assert kibitz.game(RULES[slug][0], "pysolfc") is pysolfc


@pytest.mark.parametrize("ruleset", ["", "house", "pysol", "py-solfc"])
def test_unknown_ruleset(ruleset: str) -> None:
    """An unknown ruleset raises UnknownGameError quoting it and listing the rulesets."""
    with pytest.raises(UnknownGameError) as caught:
        kibitz.game("duchess", ruleset)
    message = str(caught.value)
    assert repr(ruleset) in message
    assert "standard" in message and "pysolfc" in message


def test_unknown_game_error_is_a_value_error() -> None:
    """Callers may catch lookup errors as ValueError."""
    assert issubclass(UnknownGameError, ValueError)


def test_packs_match_the_deal() -> None:
    """The number of cards dealt agrees with the packs of each game."""
    for info in kibitz.games():
        state = kibitz.game(info.slug).deal(1)
        assert sum(len(pile) for pile in state.piles) == 52 * info.packs


def test_failed_registration_changes_nothing() -> None:
    """A game whose alias collides with another game's is refused, and none of its names stay behind."""
    duchess = registry._REGISTRY["duchess"]
    rules = {name: game.rules for name, game in duchess.rulesets.items()}
    clash = GameInfo(slug="test-clash", name="Test Clash", aliases=("Glenwood",), packs=1,
                     redeals=1, pysolfc_id=0, description="A game whose alias is taken.")
    with pytest.raises(ValueError, match="Glenwood"):
        registry.register(clash, rules)
    for name in ("test-clash", "Test Clash"):
        with pytest.raises(UnknownGameError):
            kibitz.find(name)
    assert kibitz.find("Glenwood").slug == "duchess"
    assert [info.slug for info in kibitz.games()] == list(RULES)


def test_registration_needs_both_rulesets() -> None:
    """A game must come with exactly the two rulesets."""
    duchess = registry._REGISTRY["duchess"]
    info = GameInfo(slug="test-half", name="Test Half", aliases=(), packs=1, redeals=0,
                    pysolfc_id=0, description="Only one ruleset.")
    with pytest.raises(ValueError, match="rulesets"):
        registry.register(info, {"standard": duchess.rulesets["standard"].rules})
    with pytest.raises(UnknownGameError):
        kibitz.find("test-half")
