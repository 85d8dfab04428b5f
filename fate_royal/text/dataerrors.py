"""Data-file problems in the reader's language.

The loaders word their problems in English: the command line prints them as they are, next to the
file and line they name. The table shows the same problems in its own language:
``localize(message, lang)`` rewords one, keeping every value, key, card id and path exactly as the
loader wrote it; ``localize_error`` a loader's error (one ``file:line: problem`` a line) and
``localize_lines`` such an error already made text. Worded here: the YAML reader's problems (any
data file), the card loader's and its errata patches', the rule-set reader's and its profile's, the
setup checker's (a scenario's players and start, a save's setup), the scenario loader's and runner's
(a demo step that cannot be played as written) and the engine's checks of a start position. A
message with no wording here stays as the loader wrote it (``known`` says which).

A rewording is a pattern over the loader's sentence and a catalog key (``dataerror.*``,
``yamlerror.*``, ``setuperror.*``) whose placeholders are the pattern's named groups; the keys and
values a file must spell (``state``, ``reverse``) stay as written. Qt-free.
"""

from __future__ import annotations

import re
from typing import Callable

from fate_royal.text.catalog import tr_in

__all__ = ["known", "localize", "localize_error", "localize_lines"]

_Q = r"'(?P<{}>[^']*)'"  # a value the loader quoted with repr()


def _p(pattern: str) -> re.Pattern:
    """``{Q:name}`` in ``pattern`` stands for a quoted value captured as ``name``."""
    return re.compile("^" + re.sub(r"\{Q:(\w+)\}", lambda m: _Q.format(m.group(1)), pattern) + "$")


#: (pattern over the loader's sentence, catalog key); the first that matches the whole sentence wins
_WORDINGS: tuple[tuple[re.Pattern, str], ...] = tuple((_p(p), k) for p, k in (
    (r"value (?P<value>-?\d+) above the maximum (?P<maximum>-?\d+)", "dataerror.above_maximum"),
    (r"value (?P<value>-?\d+) below the minimum (?P<minimum>-?\d+)", "dataerror.below_minimum"),
    (r"(?P<what>'[^']*' in (?:[\w ]+|operation '[^']*')|\w+ \([A-Z][\w.]*\)): value (?P<value>-?\d+) above the maximum "
     r"(?P<maximum>-?\d+)", "dataerror.above_maximum_of"),
    (r"(?P<what>'[^']*' in (?:[\w ]+|operation '[^']*')|\w+ \([A-Z][\w.]*\)): value (?P<value>-?\d+) below the minimum "
     r"(?P<minimum>-?\d+)", "dataerror.below_minimum_of"),
    (r"(?P<what>'[^']*' in [\w ']+|\w+ \([A-Z][\w.]*\)) must be at least (?P<minimum>-?\d+), got "
     r"(?P<value>-?\d+)", "dataerror.below_minimum_of"),
    (r"unknown operation {Q:op}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_operation"),
    (r"unknown condition {Q:cond}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_condition"),
    (r"unknown keyword {Q:word} in (?P<what>.+) \(known: (?P<known>[^()]*)\)(?P<near> \(did you mean "
     r"'[^']*'\?\))?", "dataerror.unknown_keyword"),
    (r"missing required key {Q:field} in (?P<what>.+)", "dataerror.missing_key"),
    (r"(?P<field>\w+) is required", "dataerror.required"),
    (r"'(?P<field>[^']*)' in (?P<what>[\w ]+) is empty", "dataerror.empty"),
    (r"(?P<path>\S+|the card) has no item {Q:item}", "dataerror.no_item"),
    (r"key {Q:name} is read as (?P<reading>.+), not text: write it in quotes \('[^']*'\)", "dataerror.key_not_text"),
    (r"required key {Q:field} in (?P<what>.+) has no value", "dataerror.key_without_value"),
    (r"unknown key {Q:field} in (?P<what>.+?)(?P<near> \(did you mean '[^']*'\?\)| \(keys: [^()]*\))?",
     "dataerror.unknown_key"),
    (r"wrong type for (?P<name>.+): expected (?P<expected>.+), got (?P<got>.+)", "dataerror.wrong_type"),
    (r"(?P<value>.+) is not allowed for (?P<name>.+) \(one of: (?P<choices>[^()]*)\)"
     r"(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.not_allowed"),
    (r"a provisional value needs a note saying why \(e\.g\. note: printed text unknown\)",
     "dataerror.provisional_needs_note"),
    (r"a hero needs classes: its qualified classes \(クラス適性\)", "dataerror.hero_needs_classes"),
    (r"a class card needs class_name \(e\.g\. セイバー\)", "dataerror.class_needs_name"),
    (r"only hero cards have classes \(qualified classes\)", "dataerror.only_heroes_have_classes"),
    (r"only class cards have class_name", "dataerror.only_classes_have_class_name"),
    (r"unknown class {Q:cls} \(classes are written in Japanese: (?P<classes>[^)]*)\)"
     r"(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_class_in_classes"),
    (r"unknown class {Q:cls}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_class"),
    (r"card id {Q:card} does not match kind {Q:kind} \((?P=kind) ids start with (?P<prefix>\S+)\)",
     "dataerror.id_kind_mismatch"),
    (r"duplicate card id (?P<card>\S+) \(also in (?P<where>.+)\)", "dataerror.duplicate_card"),
    (r"duplicate card id (?P<card>\S+) in the extra cards", "dataerror.duplicate_extra_card"),
    (r"a 常時 \(constant\) effect has no cost \(B4\)", "dataerror.constant_no_cost"),
    (r"a 常時 \(constant\) effect has no window", "dataerror.constant_no_window"),
    (r"operation {Q:op} cannot be used in a 常時 \(constant\) effect", "dataerror.op_not_in_constant"),
    (r"operation {Q:op} can only be used in a 常時 \(constant\) effect", "dataerror.op_only_in_constant"),
    (r"operation {Q:op} needs parameter {Q:param}", "dataerror.op_needs_parameter"),
    (r"unknown parameter {Q:param} for operation {Q:op}(?P<near> \(did you mean '[^']*'\?\))?",
     "dataerror.op_unknown_parameter"),
    (r"operation {Q:op} acts on the effect's target, but the effect has no target "
     r"\(add target: \{kind: \.\.\.\}\)", "dataerror.op_needs_target"),
    (r"operation {Q:op} needs a target of kind {Q:wanted}, not {Q:got}", "dataerror.op_target_kind"),
    (r"unless_target_has needs a target", "dataerror.unless_needs_target"),
    (r"effect {Q:effect} has no ops \(and no script; an effect the vocabulary cannot express is "
     r"marked unplayable: true with its text:\)", "dataerror.effect_without_ops"),
    (r"an effect marked unplayable \(not yet playable\) has no ops and no script",
     "dataerror.unplayable_has_ops"),
    (r"a not yet playable effect keeps its printed text: add text: \(the card's Japanese text\)",
     "dataerror.unplayable_needs_text"),
    (r"die face (?P<face>\S+) is not 1 to 6", "dataerror.die_face"),
    (r"die face (?P<face>\S+) is already in outcome (?P<outcome>\S+)", "dataerror.die_face_twice"),
    # a card file and the errata patches over it (cards/loader.py): a patch that no longer fits the
    # card is what a group meets when someone corrects a card the errata changes
    (r"card id {Q:card} does not match the file name {Q:stem} \(name the file (?P<file>\S+)\)",
     "dataerror.file_name"),
    (r"card files end in \.yaml \(this \.yml file is not read\)", "dataerror.yml"),
    (r"(?P<path>\S+) has no item {Q:item} \(it has (?P<n>\d+)\)", "dataerror.no_item_of"),
    (r"the card has no (?P<path>\S+)", "dataerror.card_has_no"),
    (r"empty segment in path {Q:path}", "dataerror.empty_segment"),
    (r"(?P<path>\S+) is not a mapping or list", "dataerror.not_a_container"),
    (r"patch (?P<patch>\S+) names card {Q:card}, which does not exist(?P<near> \(did you mean '[^']*'\?\))?",
     "dataerror.patch_no_card"),
    (r"patch (?P<patch>\S+) makes (?P<card>\S+) invalid: class (?P<cls>\S+) already has the class card "
     r"(?P<other>\S+)", "dataerror.patch_class_taken"),
    (r"patch (?P<patch>\S+) makes (?P<card>\S+) invalid: (?P<inner>.+)", "dataerror.patch_invalid"),
    (r"patch (?P<patch>\S+): (?P<path>\S+) is not a list, cannot append", "dataerror.patch_not_list"),
    (r"patch (?P<patch>\S+): an append patch expects \{count: N\}, the number of items already at the path",
     "dataerror.patch_append_expect"),
    (r"patch (?P<patch>\S+): expected (?P<count>\d+) item\(s\) at (?P<at>.+\)) (?P<path>\S+), found (?P<n>\d+) "
     r"\(the card changed; check the patch against it\)", "dataerror.patch_count"),
    (r"patch (?P<patch>\S+): (?P<card>\S+) already has (?P<shown>'.*'|\".*\") at (?P<path>\S+)", "dataerror.patch_has"),
    (r"patch (?P<patch>\S+): (?P<at>.+\)) (?P<path>\S+) is (?P<current>.+), not the expected (?P<wanted>.+) "
     r"\(the card changed; check the patch against it\)", "dataerror.patch_expected"),
    (r"patch (?P<patch>\S+): (?P<inner>.+), in (?P<at>.+)", "dataerror.patch_at"),
    # a rule set file and its rules profile (cards/rulesets.py, cards/ruleset.py, cards/profile.py)
    (r"a rule set must be a mapping \(title, without, readings…\)", "dataerror.ruleset_mapping"),
    (r"from must be house or base, got (?P<got>.+)", "dataerror.ruleset_from"),
    (r"(?P<field>without|with) must be a list of rule ids such as \[E8, E9\.3\]", "dataerror.ruleset_list"),
    (r"unknown errata rule or patch {Q:rule}(?P<near> \(did you mean '[^']*'\?\))? \(errata rules are "
     r"E1\.1 … E9\.7; patches (?:are listed in|as in) cards/errata/\)", "dataerror.unknown_switch"),
    (r"readings must be a mapping like \{R1: kept\}", "dataerror.readings_mapping"),
    (r"unknown reading {Q:reading}(?P<near> \(did you mean '[^']*'\?\))? \(readings: (?P<choices>[^()]*)\)",
     "dataerror.unknown_reading_of"),
    (r"unknown reading {Q:reading}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_reading"),
    (r"reading (?P<reading>\S+) \((?P<param>\w+)\) must be one of (?P<choices>[^;]+); got (?P<got>.+)",
     "dataerror.reading_value"),
    (r"unknown rules-profile parameter {Q:param}(?P<near> \(did you mean '[^']*'\?\))?", "dataerror.unknown_param"),
    (r"(?P<param>\w+) \((?P<rule>D\d+)\) must be one of (?P<choices>[^;]+); got (?P<got>.+)", "dataerror.param_choice"),
    (r"(?P<param>\w+) \((?P<rule>D\d+)\) names a value twice: (?P<got>.+)", "dataerror.param_twice"),
    (r"(?P<param>\w+) \((?P<rule>D\d+)\) must be (?P<type>int|bool|str|list\[int\]), got \w+ (?P<got>.+)",
     "dataerror.param_type"),
    (r"start_mana (?P<mana>-?\d+) is above mana_limit (?P<limit>-?\d+)", "dataerror.start_mana_above_limit"),
    (r"no shipped rule set {Q:ruleset} \(shipped: (?P<choices>[^()]*)\)", "dataerror.no_shipped_ruleset"),
    (r"rules must name a rule set \(house, base, a file\) or list switches like \[errata, -E9\.3\]",
     "dataerror.rules_spec"),
    # --- the YAML of any data file: a card, a rule set, a scenario (cards/yamlsrc.py)
    (r"YAML syntax error: (?P<problem>.+)", "yamlerror.syntax"),
    (r"YAML error: (?P<problem>.+)", "yamlerror.other"),
    (r"not UTF-8 text \(byte (?P<byte>0x[0-9a-f]{2})\)", "yamlerror.not_utf8"),
    (r"lists and mappings nested too deeply \(more than (?P<n>\d+) levels\)", "yamlerror.too_deep"),
    (r"empty file", "yamlerror.empty"),
    (r"YAML tag (?P<tag>\S+) is not allowed in data files \(only text, numbers, true/false, null, lists and "
     r"mappings; quote it to make it text\)", "yamlerror.scalar_tag"),
    (r"YAML tag (?P<tag>\S+) is not allowed in data files", "yamlerror.tag"),
    (r"text holds half of a UTF-16 surrogate pair \((?P<escape>\\u[0-9a-f]{4})\), which is not a character",
     "yamlerror.surrogate"),
    (r"(?P<shown>'.*'|\".*\") is not a valid (?P<tag>!!\w+)", "yamlerror.not_valid"),
    (r"recursive YAML alias", "yamlerror.recursive_alias"),
    (r"this list or mapping is anchored \(&name\) and used again through an alias \(\*name\); aliases of "
     r"lists or mappings are not allowed in data files", "yamlerror.alias"),
    (r"duplicate key (?P<shown>'.*'|\".*\") \(first at line (?P<line>\d+)\)", "yamlerror.duplicate_key"),
    # --- a game's setup: a scenario's players and start, a save's setup (rules/setup.py), what a
    # scenario file itself holds (rules/scenario.py), the engine's checks of a start position
    # (rules/invariants.py); the keys and values are quoted as the file wrote them
    (r"unknown card {Q:card}", "setuperror.unknown_card"),
    (r"(?P<card>\S+) is not a hero card", "setuperror.not_a_hero"),
    (r"(?P<card>\S+) cannot be in the deck", "setuperror.not_in_deck"),
    (r"(?P<card>\S+) cannot sit on a servant seat", "setuperror.not_on_seat"),
    (r"(?P<card>\S+) cannot be in a hand", "setuperror.not_in_hand"),
    (r"(?P<player>.+)'s servant gives a (?P<given>hero|class) but no (?P<missing>hero|class): give both, "
     r"or neither to have one dealt", "setuperror.half_servant"),
    (r"player name (?P<shown>.+) is not valid text: it holds half of a UTF-16 surrogate pair \(an escape "
     r"such as \\ud800\); type the name again", "setuperror.name_surrogate"),
    (r"a player name is empty", "setuperror.name_empty"),
    (r"player name (?P<shown>.+) is (?P<n>\d+) characters long, above the maximum (?P<maximum>\d+)",
     "setuperror.name_long"),
    (r"player name (?P<shown>.+) starts or ends with a space", "setuperror.name_space"),
    (r"player name (?P<shown>.+) holds a control or invisible character \((?P<code>U\+[0-9A-F]+)\)",
     "setuperror.name_control"),
    (r"name must be text, got (?P<got>.+)", "setuperror.name_not_text"),
    (r"two players are called (?P<shown>.+)", "setuperror.name_twice"),
    (r"player names (?P<shown>.+) and (?P<other>.+) read the same: names must differ", "setuperror.names_alike"),
    (r"seed must be a whole number from 0 to 2\^63 - 1", "setuperror.seed"),
    (r"(?P<part>.+) must be a whole number from (?P<low>-?\d+) to (?P<high>-?\d+), got (?P<got>.+)",
     "setuperror.whole_number"),
    (r"(?P<part>.+) (?P<value>\S+) is below the minimum (?P<minimum>-?\d+)", "setuperror.below_minimum"),
    (r"(?P<part>.+) (?P<value>\S+) is above the maximum (?P<maximum>-?\d+)", "setuperror.above_maximum"),
    (r"(?P<part>.+) must be a card id such as M-006, got (?P<got>.+)", "setuperror.card_id"),
    (r"(?P<part>.+) must be a list of card ids such as \[M-006, S-001\], got (?P<got>.+)",
     "setuperror.card_list"),
    (r"(?P<part>.+) holds (?P<n>\d+) cards, above the maximum (?P<maximum>\d+)", "setuperror.too_many_cards"),
    (r"the setup must be a mapping, got (?P<got>.+)", "setuperror.setup_mapping"),
    (r"players must be a list of 2 to 7 players, got (?P<got>.+)", "setuperror.players_list"),
    (r"a game needs 2 to 7 players, got (?P<n>\d+)", "setuperror.player_count"),
    (r"a player must be a mapping with a name, got (?P<got>.+)", "setuperror.player_mapping"),
    (r"each player needs a name", "setuperror.player_needs_name"),
    (r"dice must be a list of die results 1\.\.6, got (?P<got>.+)", "setuperror.dice_list"),
    (r"dice holds (?P<n>\d+) results, above the maximum (?P<maximum>\d+)", "setuperror.too_many_dice"),
    (r"(?P<field>\w+) must be true or false, got (?P<got>.+)", "setuperror.bool_got"),
    (r"(?P<field>\w+) must be true or false", "setuperror.bool"),
    (r"unknown uid_order {Q:value} \(uid orders: (?P<choices>[^()]*)\)", "setuperror.uid_order"),
    (r"mana (?P<mana>-?\d+) is above the mana limit (?P<limit>-?\d+)", "setuperror.mana_above_limit"),
    (r"coins must be a mapping like \{assassination: 1\}, got (?P<got>.+)", "setuperror.coins_mapping"),
    (r"unknown coin {Q:coin} \(coins: (?P<choices>[^()]*)\)", "setuperror.unknown_coin"),
    (r"servant must be a mapping \{hero, class, state\}, got (?P<got>.+)", "setuperror.servant_mapping"),
    (r"servant (?P<field>state|class_state) must be (?P<choices>[a-z, ]+) or (?P<last>[a-z]+), got (?P<got>.+)",
     "setuperror.servant_state"),
    (r"seat must be a list of cards \(M-006 or \{card: M-006, state: down\}\), got (?P<got>.+)",
     "setuperror.seat_list"),
    (r"a seat card needs card: \(an id such as M-006\)", "setuperror.seat_card_needs_card"),
    (r"a seat card is (?P<choices>[a-z, ]+) or (?P<last>[a-z]+), got (?P<got>.+)", "setuperror.seat_card_state"),
    (r"start must be a mapping \{player, step, turn\}, got (?P<got>.+)", "setuperror.start_mapping"),
    (r"unknown start player (?P<value>.+?)(?P<near> \(did you mean '[^']*'\?\)| \(players: [^()]*\))?",
     "setuperror.unknown_start_player"),
    (r"start step must be one of (?P<choices>.+), got (?P<got>.+)", "setuperror.start_step"),
    (r"unknown start step (?P<value>.+?)(?P<near> \(did you mean '[^']*'\?\)| \(steps: [^()]*\))?",
     "setuperror.unknown_start_step"),
    (r"(?P<field>title|title_en|description|description_en) must be text", "setuperror.text"),
    (r"give either errata: or a rule set in rules:, not both \(a list in rules: such as \[errata, -E8\] "
     r"may follow errata:\)", "setuperror.errata_and_rules"),
    (r"cards must be a list of card definitions", "setuperror.cards_list"),
    (r"options must be a mapping such as \{auto_pass: false\}", "setuperror.options_mapping"),
    (r"profile must be a mapping of rules-profile parameters", "setuperror.profile_mapping"),
    (r"steps must be a list", "setuperror.steps_list"),
    (r"a step must be one of: (?P<choices>.+)", "setuperror.step_kind"),
    (r"unknown step key {Q:word}(?P<near> \(did you mean '[^']*'\?\))?", "setuperror.unknown_step_key"),
    (r"expect_illegal needs \{do: \{\.\.\.\}, rule: ID\}", "setuperror.expect_illegal_needs"),
    (r"expect needs a mapping of checks", "setuperror.expect_needs"),
    (r"advance to a step or combat process; got (?P<got>.+?)(?P<near> \(did you mean '[^']*'\?\))?",
     "setuperror.advance_to"),
    (r"do needs \{action: …\} \((?P<choices>[^()]*)\)", "setuperror.do_needs_action"),
    (r"unknown action {Q:action}(?P<near> \(did you mean '[^']*'\?\))?", "setuperror.unknown_action"),
    (r"a scenario must be a mapping \(title, players, steps…\)", "setuperror.scenario_mapping"),
    (r"a scenario file is at most (?P<maximum>\d+) KB \(this one is (?P<size>\d+) KB\)",
     "setuperror.scenario_too_large"),
    (r"cannot read file: (?P<reason>.+)", "setuperror.cannot_read"),
    (r"no such scenario file: (?P<path>.+)", "setuperror.no_scenario_file"),
    (r"no rule set {Q:ruleset}: not a shipped set \((?P<choices>[^()]*)\) nor a file", "setuperror.no_rule_set"),
    # a demo's step that cannot be played as written (rules/scenario_run.py)
    (r"unknown step (?P<word>\w+)", "setuperror.unknown_step"),
    (r"resolve did not finish", "setuperror.resolve_unfinished"),
    (r"never reached (?P<target>\w+)", "setuperror.never_reached"),
    (r"no player called {Q:player}(?P<near> \(did you mean '[^']*'\?\))?", "setuperror.no_player"),
    (r"no card {Q:card}(?P<near> \(did you mean '[^']*'\?\))?", "setuperror.no_card"),
    (r"{Q:card}: a copy number after # must be 1, 2, …", "setuperror.copy_number"),
    (r"(?P<card>[^\s']+)(?P<copy> \(copy \d+\))? is not in (?P<player>.+)'s hand", "setuperror.not_in_hand_of"),
    (r"(?P<card>[^\s']+)(?P<copy> \(copy \d+\))? is not among (?P<player>.+)'s cards",
     "setuperror.not_among_cards_of"),
    (r"(?P<card>[^\s']+)(?P<copy> \(copy \d+\))? is not on (?P<player>.+)'s seat", "setuperror.not_on_seat_of"),
    (r"(?P<card>[^\s']+)(?P<copy> \(copy \d+\))? is not a choice offered", "setuperror.not_offered"),
    (r"(?P<card>[^\s']+)(?P<copy> \(copy \d+\))? is not on a servant seat", "setuperror.not_on_any_seat"),
    (r"the game is over: nobody can act", "setuperror.game_over"),
    (r"attack type must be physical or magic", "setuperror.attack_type"),
    (r"(?P<card>\S+) has (?P<n>\d+) usable effects: name one", "setuperror.name_the_effect"),
    (r"(?P<card>\S+) has no effect {Q:effect}(?P<near> \(did you mean '[^']*'\?\))?", "setuperror.no_effect"),
    (r"spell kind must be negate or remove_coin", "setuperror.spell_kind"),
    (r"no choice is pending", "setuperror.no_choice"),
    (r"this effect takes no target \(got (?P<got>.+)\)", "setuperror.no_target"),
    (r"no effect {Q:effect} waits on the stack", "setuperror.not_on_stack"),
    (r"expect (?P<field>\w+) needs player:", "setuperror.check_needs_player"),
    (r"(?P<field>\w+) needs card:", "setuperror.check_needs_card"),
    (r"no stat {Q:stat} \(pa, pd, ma, md\)", "setuperror.no_stat"),
    # the engine's invariants over a start position (rules/invariants.py)
    (r"card #(?P<uid>\d+) \((?P<card>[^()]*)\) is in (?P<n>\d+) places", "setuperror.card_places"),
    (r"unknown card #(?P<uid>\d+) in a zone", "setuperror.card_unknown_uid"),
    (r"card states recorded for cards not in play, or missing: (?P<cards>.+)", "setuperror.card_states"),
    (r"(?P<player>.+): mana (?P<mana>-?\d+) outside 0\.\.(?P<limit>-?\d+)", "setuperror.mana_outside"),
    (r"(?P<player>.+): command spells (?P<n>-?\d+) < 0", "setuperror.spells_negative"),
    (r"(?P<player>.+): a coin count is not positive: (?P<coins>.+)", "setuperror.coins_not_positive"),
    (r"(?P<player>.+) dropped out but still holds something", "setuperror.out_holds"),
    (r"the winner has dropped out", "setuperror.winner_out"),
))

_NEAR = re.compile(r"^ \(did you mean '([^']*)'\?\)$")
#: the setup checker lists what there is when nothing is near: " (keys: name, servant, …)"
_ALL = re.compile(r"^ \((?P<kind>keys|players|steps): (?P<items>[^()]*)\)$")
#: a problem of one player (by name, else by number), and the frames around a setup's problems
_PLAYER = re.compile(r"^player (?P<who>'[^']*'|\"[^\"]*\"|\d+): (?P<rest>.+)$", re.S)
_FRAMES = (("cannot set up: ", "setuperror.cannot_set_up"),
           ("impossible start position: ", "setuperror.impossible_start"),
           ("cannot set up the position: ", "setuperror.cannot_set_up_position"),
           ("cannot set up the game: ", "setuperror.cannot_set_up_game"))
#: a problem placed in its file ("scenarios/x.yaml:12: …"), as a scenario's error reads
_PLACED = re.compile(r"^(?P<place>\S[^\n]*?:\d+): (?P<rest>.+)$", re.S)
#: "path: sentence" (a problem found in data given as plain mappings, e.g. the editor's form)
_PATH = re.compile(r"^(?P<path>[a-z_]+(?:\.[0-9A-Za-z_]+)*): (?P<rest>.+)$", re.S)


#: the parts of card data the loader names ("… in effect", "'pa' in stats", "item of classes")
_PARTS = ("card", "effect", "cost", "target", "stats", "outcome", "chip", "chip sheet", "errata pack",
          "errata patch", "provenance wrapper", "condition", "classes", "skills", "ops")
_KEY_IN = re.compile(r"^'(?P<key>[^']*)' in (?P<rest>.+)$")
_ITEM_OF = re.compile(r"^item of (?P<rest>.+)$")
_OPERATION = re.compile(r"^operation '(?P<op>[^']*)'$")


def _what(text: str, lang: str) -> str:
    """A part of the data as the loader names it, in ``lang`` (unchanged when not known)."""
    m = _KEY_IN.match(text)
    if m:
        return tr_in(lang, "dataerror.part.key_in", field=m.group("key"), part=_what(m.group("rest"), lang))
    m = _ITEM_OF.match(text)
    if m:
        return tr_in(lang, "dataerror.part.item_of", part=_what(m.group("rest"), lang))
    m = _OPERATION.match(text)
    if m:
        return tr_in(lang, "dataerror.part.operation", op=m.group("op"))
    if text in _PARTS:
        return tr_in(lang, "dataerror.part." + text.replace(" ", "_"))
    if text in _SETUP_PARTS:
        return tr_in(lang, "setuperror.part." + _SETUP_PARTS[text])
    m = _EACH_CARD_OF.match(text)
    if m:
        return tr_in(lang, "setuperror.part.each_card_of", field=m.group("field"))
    m = _ACTION.match(text)
    if m:
        return tr_in(lang, "setuperror.part.action", action=m.group("action"))
    return text


def _part(text: str, lang: str) -> str:
    """A part of a setup or a scenario as the engine names it: in words, or a key of the file as
    written (mana, coins.assassination)."""
    if _KEY.match(text) and text not in _SETUP_PARTS:
        return tr_in(lang, "setuperror.part.key", field=text)
    return _what(text, lang)


#: the parts of a setup or a scenario the engine names ("unknown key 'x' in a player", "start turn")
_SETUP_PARTS = {"scenario": "scenario", "a rule set": "rule_set", "the setup": "setup", "a player": "player",
                "a servant": "servant",
                "a seat card": "seat_card", "each seat card": "seat_card", "a die result": "die_result",
                "start player": "start_player", "start turn": "start_turn", "servant hero": "servant_hero",
                "servant class": "servant_class"}
_EACH_CARD_OF = re.compile(r"^each card of (?P<field>\w+)$")
_ACTION = re.compile(r"^action (?P<action>\w+)$")
_KEY = re.compile(r"^[a-z_]+(?:\.[a-z_]+)?$")


#: how the loader names a type or a value it did not expect
_TYPES = {"text": "text", "an integer": "integer", "true or false": "bool", "a list of integers":
          "int_list", "a list of text": "text_list", "a number": "number", "a mapping": "mapping",
          "a list": "list", "null": "null"}
_VALUE = re.compile(r"^(?P<kind>boolean|integer|number|text) (?P<value>.+)$")


def _value(text: str, lang: str) -> str:
    """A type or a described value ("text 'x'", "integer 5") in ``lang``."""
    if text in _TYPES:
        return tr_in(lang, "dataerror.type." + _TYPES[text])
    m = _VALUE.match(text)
    if m:
        return tr_in(lang, "dataerror.value." + m.group("kind"), value=m.group("value"))
    if text == "a number of thousands of digits":
        return tr_in(lang, "setuperror.type.long_number")
    return _quoted(text, lang)


def _quoted(text: str, lang: str) -> str:
    """A value the engine quoted with repr() ('x' or "it's"), quoted as the language quotes."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return tr_in(lang, "setuperror.quoted", value=text[1:-1])
    return text


def _reword(sentence: str, lang: str, label: Callable[[str], str] | None = None) -> str | None:
    framed = _reword_framed(sentence, lang, label)
    if framed is not None:
        return framed
    for pattern, key in _WORDINGS:
        m = pattern.match(sentence)
        if m:
            values = {k: (v or "") for k, v in m.groupdict().items()}
            if label is not None and values.get("field"):  # a form names its fields in words
                values["field"] = label(values["field"])
            near = _NEAR.match(values.get("near", ""))
            every = _ALL.match(values.get("near", ""))
            if near:
                values["near"] = tr_in(lang, "dataerror.did_you_mean", word=near.group(1))
            elif every:
                values["near"] = tr_in(lang, "setuperror.all." + every.group("kind"), items=every.group("items"))
            for name in ("what", "name"):
                if name in values:
                    values[name] = _what(values[name], lang)
            if "part" in values:
                values["part"] = _part(values["part"], lang)
            for name in ("expected", "got", "value", "shown", "other"):
                if name in values:
                    values[name] = _value(values[name], lang)
            if values.get("copy"):  # "M-006 (copy 2)": the second of its copies there
                values["copy"] = tr_in(lang, "setuperror.copy", nth=re.sub(r"\D", "", values["copy"]))
            if "inner" in values:  # a problem inside a patch's: worded as it is on its own
                values["inner"] = _reword(values["inner"], lang, label) or values["inner"]
            if "problem" in values and values["problem"] in _YAML_PROBLEMS:
                values["problem"] = tr_in(lang, "yamlerror.problem." + _YAML_PROBLEMS[values["problem"]],
                                          open="{", close="}")
            if "last" in values:  # "a, b or c": the list as the language lists
                values["choices"] = tr_in(lang, "setuperror.comma").join(values["choices"].split(", "))
            if "type" in values:
                values["type"] = tr_in(lang, "dataerror.param_type." + values["type"].replace("[int]", "_list"))
            for name in ("given", "missing"):
                if name in values:
                    values[name] = tr_in(lang, "setuperror.half." + values[name])
            return tr_in(lang, key, **values)
    return None


#: what the YAML reader (libyaml) says of the mistakes people make typing YAML by hand
_YAML_PROBLEMS = {
    "found character that cannot start any token": "bad_character",
    "could not find expected ':'": "no_colon",
    "mapping values are not allowed in this context": "colon_here",
    "mapping values are not allowed here": "colon_here",
    "found unexpected end of stream": "unexpected_end",
    "did not find expected ',' or ']'": "unclosed_list",
    "did not find expected ',' or '}'": "unclosed_mapping",
    "did not find expected key": "no_key",
    "did not find expected node content": "no_value",
    "found undefined alias": "undefined_alias",
    "found unknown escape character": "unknown_escape",
    "but found another document": "two_documents",
    "found incompatible YAML document": "incompatible",
    "found invalid Unicode character escape code": "bad_escape_code",
}


def _reword_framed(sentence: str, lang: str, label: Callable[[str], str] | None) -> str | None:
    """A player's problem ("player 'A': …"), or the problems of a setup that cannot be played
    ("cannot set up: …", "impossible start position: a; b"): the frame, then each problem as it is
    worded (a problem with no wording as the engine wrote it)."""
    m = _PLAYER.match(sentence)
    if m:
        rest = _reword(m.group("rest"), lang, label)
        if rest is None:
            return None
        who = m.group("who")
        if who.isdigit():
            return tr_in(lang, "setuperror.player_number", n=who, problem=rest)
        return tr_in(lang, "setuperror.player_named", name=who[1:-1], problem=rest)
    for prefix, key in _FRAMES:
        if sentence.startswith(prefix):
            problems = sentence[len(prefix):].split("; ")
            worded = [_placed(p, lang, label) for p in problems]
            return tr_in(lang, key, problems=tr_in(lang, "setuperror.separator").join(worded))
    return None


def _placed(problem: str, lang: str, label: Callable[[str], str] | None) -> str:
    """A problem inside a frame, with its ``file:line:`` kept in front when it has one; as
    written when it has no wording."""
    m = _PLACED.match(problem)
    if m:
        rest = _reword(m.group("rest"), lang, label)
        return problem if rest is None else f"{m.group('place')}: {rest}"
    return _reword(problem, lang, label) or problem


def localize(message: str, lang: str, label: Callable[[str], str] | None = None) -> str:
    """``message`` (a loader problem, with or without its ``path:`` in front) in ``lang``; sentences
    without a wording come back unchanged, and so does English unless ``label`` is given.

    ``label`` is a form's own name for a field key (``"rule"`` → "エラッタのルール"): a form words
    a missing or empty field by the name it shows beside it, and in English it gets the catalog's
    sentence (the loader's English quotes Japanese terms a form does not show)."""
    if lang == "en" and label is None:
        return message
    m = _PATH.match(message)
    if m:  # the path first: a sentence pattern could otherwise swallow it into a value
        rest = _reword(m.group("rest"), lang, label)
        if rest is not None:
            return f"{m.group('path')}: {rest}"
    got = _reword(message, lang, label)
    return message if got is None else got


def known(message: str) -> bool:
    """Whether ``message`` has a wording (with or without its path)."""
    m = _PATH.match(message)
    return _reword(message, "en") is not None or (m is not None and _reword(m.group("rest"), "en") is not None)


def localize_error(error: BaseException, lang: str) -> str:
    """A data file's problems as the table shows them: one ``file:line: problem`` a line (as the
    loader placed it), each problem in ``lang``. A scenario's (``ScenarioError``) and a loader's
    (``DataError``, ``DataErrors``) carry their places; anything else comes back as it reads."""
    from fate_royal.cards.yamlsrc import MAX_SHOWN_ERRORS, DataErrors, where

    problems = list(error.errors) if isinstance(error, DataErrors) else [error]
    if not all(isinstance(getattr(p, "message", None), str) and hasattr(p, "file") for p in problems):
        return localize(str(error), lang)
    lines = [where(p.file, p.line, localize(p.message, lang)) for p in problems[:MAX_SHOWN_ERRORS]]
    if len(problems) > MAX_SHOWN_ERRORS:
        lines.append(tr_in(lang, "setuperror.more", n=len(problems) - MAX_SHOWN_ERRORS))
    return "\n".join(lines)


def localize_lines(text: str, lang: str) -> str:
    """Problems as a loader's error reads (``file:line: problem`` a line, as ``str(DataErrors)``
    gives them) in ``lang``; a line with no wording stays as written."""
    if lang == "en":
        return text
    return "\n".join(_placed(line, lang, None) for line in text.split("\n"))
