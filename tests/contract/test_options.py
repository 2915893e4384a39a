"""Declarative game options (kernels/_common/options.py): one table gives OPTIONS, resolve_options and the
values setup stores, for every game."""

import numpy as np
import pytest

from tabletop_zoo import registry
from tabletop_zoo.kernels._common import contract, options

TABLE = options.Options(
    "toy",
    options.Choice("ruleset", ("seed", "published"), "which rules"),
    options.Flag("house_rule", "a flag whose default follows the ruleset", options.by_ruleset(False, True)),
    options.Integer("limit", "an int stored as int8", np.int8, options.by_ruleset(10, 15), lo=1, hi=30),
    options.Choice("theme", ("plain", "fancy"), "labels", default="fancy"),
)


def test_defaults_follow_the_ruleset_and_explicit_values_win():
    assert TABLE.resolve() == {"ruleset": "seed", "house_rule": False, "limit": 10, "theme": "fancy"}
    assert TABLE.resolve(ruleset="published") == {
        "ruleset": "published",
        "house_rule": True,
        "limit": 15,
        "theme": "fancy",
    }
    got = TABLE.resolve(ruleset="published", house_rule=False, limit=3)
    assert (got["house_rule"], got["limit"]) == (False, 3)
    assert TABLE.resolve(limit=None)["limit"] == 10  # None asks for the default


@pytest.mark.parametrize(
    "given, message",
    [
        ({"colour": 1}, r"unknown option\(s\) \['colour'\] for toy; allowed: \{'ruleset'"),
        ({"ruleset": "house"}, r"ruleset must be one of \('seed', 'published'\), got 'house'"),
        ({"house_rule": 1}, r"house_rule must be True or False, got 1"),
        ({"limit": 31}, r"limit must be an int in 1\.\.30 \(stored as int8\), got 31"),
        ({"limit": True}, r"limit must be an int in 1\.\.30"),
        ({"theme": 0}, r"theme must be one of \('plain', 'fancy'\), got 0"),
    ],
)
def test_bad_values_raise_one_line_naming_what_is_allowed(given, message):
    with pytest.raises(ValueError, match=message):
        TABLE.resolve(**given)


def test_values_are_what_setup_stores_in_declaration_order():
    resolved = TABLE.resolve(ruleset="published", theme="plain")
    assert TABLE.values(resolved) == (1, 1, 15, 0)
    assert TABLE.values(resolved, "theme", "limit") == (0, 15)
    assert TABLE.doc == {
        "ruleset": "which rules",
        "house_rule": TABLE.by_name["house_rule"].doc,
        "limit": "an int stored as int8",
        "theme": "labels",
    }


def test_every_game_lists_exactly_the_options_it_resolves(game_id):
    k = registry.kernel(game_id)
    assert list(k.resolve_options()) == list(k.OPTIONS)
    assert "ruleset" in k.OPTIONS and set(k.RULESETS) >= {"seed"}


def test_the_contract_names_a_game_whose_options_table_and_resolver_disagree():
    class Fake:
        OPTIONS = {"ruleset": "which rules", "speed": "never resolved"}

        @staticmethod
        def resolve_options():
            return {"ruleset": "seed"}

    assert contract._options_problems(Fake) == [
        "resolve_options() fills ['ruleset'] but OPTIONS lists ['ruleset', 'speed']"
    ]
