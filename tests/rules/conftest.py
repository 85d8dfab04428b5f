import pytest

from fate_royal.cards import load_card_db, load_profile


@pytest.fixture(scope="session")
def db():
    return load_card_db()


@pytest.fixture(scope="session")
def db_off():
    return load_card_db(errata=False)


@pytest.fixture(scope="session")
def profile():
    return load_profile()


def db_loader(errata, extra):
    return load_card_db(errata=errata, extra=extra or None)


@pytest.fixture(name="db_loader")
def db_loader_fixture():
    return db_loader
