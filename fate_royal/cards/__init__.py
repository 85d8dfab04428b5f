"""Card data: the model, the effect vocabulary, loading and validation of ``cards/``.

Public API::

    load_card_db(root=None, errata=True, extra=None, rules=None) -> CardDB
    errata_patches(root=None) -> [(patch id, rule id, card id, source)]
    RuleSet: which errata rules and patches are in force, readings, D parameters
    load_profile(path=None, overrides=None) -> RulesProfile
    read_data_file(path) -> YAML value with line numbers (safe loading)
    DataError, DataErrors
"""

from fate_royal.cards.loader import (
    errata_patches, load_card_db, load_profile, profile_fingerprint, read_data_file,
)
from fate_royal.cards.model import AppliedPatch, CardDB, CardDef, Chip, Cost, Effect, Op, Stats, Target
from fate_royal.cards.profile import PARAMETERS, RulesProfile
from fate_royal.cards.ruleset import ERRATA_RULES, READINGS, RuleSet
from fate_royal.cards.yamlsrc import DataError, DataErrors

__all__ = [
    "AppliedPatch", "CardDB", "CardDef", "Chip", "Cost", "DataError", "DataErrors", "Effect",
    "ERRATA_RULES", "Op", "PARAMETERS", "READINGS", "RuleSet", "RulesProfile", "Stats", "Target",
    "errata_patches", "load_card_db", "load_profile", "profile_fingerprint", "read_data_file",
]
