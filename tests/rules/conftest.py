import pytest

from fate_royal.cards import RuleSet, load_card_db


@pytest.fixture(scope="session")
def rules_off(profile):
    """The base rules: no errata rule, no patch."""
    return RuleSet.base(profile, name="base")


@pytest.fixture(scope="session")
def db_off(rules_off):
    return load_card_db(rules=rules_off)


def db_loader(rules, extra):
    return load_card_db(extra=extra or None, rules=rules)


@pytest.fixture(name="db_loader")
def db_loader_fixture():
    return db_loader
