"""Card data: the model, the effect vocabulary, loading and validation of ``cards/``.

Public API::

    load_card_db(root=None, errata=True, extra=None) -> CardDB
    load_profile(path=None, overrides=None) -> RulesProfile
    read_data_file(path) -> YAML value with line numbers (safe loading)
    DataError, DataErrors
"""

from fate_royal.cards.loader import load_card_db, load_profile, profile_fingerprint, read_data_file
from fate_royal.cards.model import AppliedPatch, CardDB, CardDef, Chip, Cost, Effect, Op, Stats, Target
from fate_royal.cards.profile import PARAMETERS, RulesProfile
from fate_royal.cards.yamlsrc import DataError, DataErrors

__all__ = [
    "AppliedPatch", "CardDB", "CardDef", "Chip", "Cost", "DataError", "DataErrors", "Effect", "Op",
    "PARAMETERS", "RulesProfile", "Stats", "Target", "load_card_db", "load_profile",
    "profile_fingerprint", "read_data_file",
]
