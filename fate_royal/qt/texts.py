"""Words for the table: engine codes, actions, cards and pending decisions in the UI language.

The engine emits codes (reason codes, step names, decision kinds); this module turns them into text
through ``i18n.tr``. A code with no catalog entry is shown as itself rather than as ``[key]``, so a
new engine reason never produces an empty message.
"""

from __future__ import annotations

from typing import Any

from fate_royal.cards.model import CardDef, Effect
from fate_royal.cards.vocabulary import CLASSES
from fate_royal.qt.i18n import current_language, has_key, tr
from fate_royal.rules.actions import (
    Action, ChooseAttack, ChooseEncounterTarget, Choose, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)


def lang() -> str:
    return current_language()


#: UI strings of the table that the shipped catalogs may not have yet: key -> (ja, en).
#: The same keys are appended to ``assets/i18n/*.yaml``; the catalog wins when it has the key.
LOCAL: dict[str, tuple[str, str]] = {
    "table.pending.priority": ("対応ウィンドウ（優先権）", "response window (priority)"),
    "table.pending.attack": ("攻撃の種類を選ぶ", "choose the attack type"),
    "table.pending.encounter_target": ("遭遇戦の相手を選ぶ", "choose the encounter opponent"),
    "table.pending.discard": ("捨てるカードを選ぶ", "choose a card to discard"),
    "table.pending.rise_cards": ("ライズにするカードを選ぶ", "choose cards to turn Rise"),
    "table.pending.choose_hero": ("英霊を選ぶ", "choose a hero"),
    "table.pending.choose_class": ("クラスを選ぶ", "choose a class"),
    "table.group.pass": ("パス", "Pass"),
    "table.group.decision": ("選択", "Decision"),
    "table.group.raid": ("襲撃", "Raid"),
    "table.group.play": ("サーヴァントの座に置く", "Put on the servant seat"),
    "table.group.effect": ("効果を使う", "Use an effect"),
    "table.group.spell": ("令呪", "Command spells"),
    "table.group.unavailable": ("今はできないこと", "Not allowed now"),
    "table.action.play_code": ("{card}をサーヴァントの座に置く", "Put {card} on the servant seat"),
    "table.action.play_scene": ("{card}を裏向きで座に置く", "Put {card} face down on the seat"),
    "table.command_spell_item": ("令呪", "command spell"),
    "table.negated": ("打ち消し済み", "negated"),
    "table.turn": ("手番", "Turn"),
    "table.deciding": ("選択中", "Deciding"),
    "table.raider": ("襲撃側", "Raider"),
    "table.interceptor": ("迎撃側", "Interceptor"),
    "table.dropped": ("脱落", "Out"),
    "table.proxy": ("代理：{chip}", "proxy: {chip}"),
    "table.hand_of": ("{name}さんの手札", "{name}'s hand"),
    "table.unusable": ("使用不可", "Unusable"),
    "table.no_actions": ("今できることはありません", "No actions now"),
    "table.close": ("閉じる", "Close"),
    "table.names_differ": ("プレイヤー名は重複できません。", "Player names must differ."),
    "table.rule_reconstructed": ("D ルールは出典のない再構成の既定値です（ルールプロファイルで変更可）。",
                                 "D rules are reconstructed defaults (changeable in the rules profile)."),
    "table.errata_switch": ("エラッタ{state}", "errata {state}"),
    "reason.bad_target": ("その対象は選べません", "that target is not allowed"),
    "reason.card_down": ("このカードはダウン状態です", "this card is Down"),
    "reason.card_reverse": ("このカードはリバース（裏向き）です", "this card is Reverse (face down)"),
    "reason.class_reverse": ("クラスカードがリバースです", "the class card is Reverse"),
    "reason.condition": ("条件を満たしていません", "its condition is not met"),
    "reason.constant": ("常時効果は使用するものではありません", "a constant effect is not used"),
    "reason.cost_discard": ("手札が足りません（コスト）", "not enough cards in hand (cost)"),
    "reason.cost_mana": ("魔力が足りません（コスト）", "not enough mana (cost)"),
    "reason.cost_die": ("ダイスコストを払えません", "the die cost cannot be paid"),
    "reason.danger_constant_only": ("デンジャー状態：常時効果しか使えません",
                                    "Danger: only constant effects work"),
    "reason.effect_lost": ("この効果は失われています", "this effect is lost"),
    "reason.encounter_this_turn": ("このターンは遭遇戦が起きたので襲撃を宣言できません",
                                   "an encounter happened this turn: no raid declaration"),
    "reason.hero_reverse": ("サーヴァントがリバース：英霊カードの効果は使えません",
                            "the servant is Reverse: hero effects are unusable"),
    "reason.no_command_spells": ("令呪が残っていません", "no command spells left"),
    "reason.no_decision": ("選択待ちはありません", "no decision is pending"),
    "reason.no_servant": ("サーヴァントがいません", "no servant"),
    "reason.no_such_card": ("そのカードはありません", "no such card"),
    "reason.no_such_effect": ("その効果はありません", "no such effect"),
    "reason.not_allowed_now": ("今はできません", "not allowed now"),
    "reason.not_your_card": ("あなたのカードではありません", "not your card"),
    "reason.not_your_turn": ("あなたの選択番ではありません", "it is not your decision"),
    "reason.once_per_step": ("起動効果は1ステップに1回まで", "each activated effect once per step"),
    "reason.one_raid": ("襲撃の宣言は1ターンに1回まで", "one raid declaration per turn"),
    "reason.out": ("脱落しています", "dropped out"),
    "reason.play_first": ("先にサーヴァントの座に置く必要があります", "put it on the servant seat first"),
    "reason.play_ritual_step": ("礼装は儀式ステップに置きます", "mystic codes are put on the seat in the ritual step"),
    "reason.proxy_already": ("すでに代理戦闘中です", "a proxy already fights"),
    "reason.proxy_engagement_only": ("代理戦闘は交戦プロセスでのみ使えます",
                                     "proxy combat is used in the engagement process"),
    "reason.proxy_suppressed": ("代理戦闘中：英霊・クラスの自己対象効果は適用されません",
                                "while a proxy fights, hero and class self-effects do not apply"),
    "reason.raid_combat_step": ("襲撃は戦闘ステップに宣言します", "a raid is declared in the combat step"),
    "reason.remove_coin_errata": ("特殊コインの除去はエラッタのルールです", "removing a special coin is an errata rule"),
    "reason.ritual_own_turn": ("儀式ステップの効果は自分のターンのみ", "ritual-step effects only on your own turn"),
    "reason.scene_on_field": ("シーンを場に置けるのはエラッタありのときだけ",
                              "scenes are placed on the field only with the errata"),
    "reason.seat_full": ("サーヴァントの座に空きがありません", "the servant seat is full"),
    "reason.servant_danger": ("デンジャー状態のサーヴァントは襲撃を宣言できません",
                              "a Danger servant cannot declare a raid"),
    "reason.servant_down": ("ダウン状態のサーヴァントは襲撃を宣言できません",
                            "a Down servant cannot declare a raid"),
    "reason.servant_down_codes": ("ダウン中：礼装は常時効果しか使えません",
                                  "servant Down: mystic codes work only as constants"),
    "reason.servant_reverse": ("リバース状態のサーヴァントは襲撃を宣言できません",
                               "a Reverse servant cannot declare a raid"),
    "reason.spell_vs_coins": ("特殊コインを置く効果は令呪で打ち消せません",
                              "an effect that places special coins cannot be negated"),
    "reason.tap_needs_rise": ("コスト「T」にはライズ状態が必要です", "the T cost needs the card Rise"),
    "reason.unqualified_class": ("クラス適性がありません：クラスの効果は使えません",
                                 "unqualified class: its effects are unusable"),
    "reason.window_combat": ("戦闘中にのみ使えます", "usable only in combat"),
    "reason.window_ritual": ("儀式ステップにのみ使えます", "usable only in the ritual step"),
    "reason.window_damage": ("ダメージ判定プロセスにのみ使えます", "usable only in a damage process"),
    "reason.window_engagement": ("交戦プロセスにのみ使えます", "usable only in the engagement process"),
    "reason.window_raid": ("襲撃プロセスにのみ使えます", "usable only in the raid process"),
    "reason.nothing_to_undo": ("元に戻す操作はありません", "nothing to undo"),
    "reason.nothing_to_redo": ("やり直す操作はありません", "nothing to redo"),
    "table.attack_word.physical": ("物理", "physical"),
    "table.attack_word.magic": ("魔術", "magic"),
    "table.errata_word.on": ("あり", "on"),
    "table.errata_word.off": ("なし", "off"),
    "table.log.step_ended": ("{step}終了", "{step} ends"),
    "why.destroyed": ("サーヴァント撃破", "servant destroyed"),
    "why.no command spells": ("令呪がなくなった", "no command spells left"),
}


def tr_or(key: str, fallback: str, **kwargs: Any) -> str:
    """``tr(key)`` if the catalog has the key, else the table's own text, else ``fallback``."""
    if has_key(key):
        return tr(key, **kwargs)
    local = LOCAL.get(key)
    text = (local[0] if lang() == "ja" else local[1]) if local else None
    if text is None and has_key(key, "en"):
        return tr(key, **kwargs)
    if text is None:
        text = fallback
    try:
        return text.format(**kwargs) if kwargs else text
    except (KeyError, IndexError, ValueError):
        return text


def card_name(card: CardDef) -> str:
    if lang() == "en" and card.name_en:
        return card.name_en
    return card.name


def effect_name(effect: Effect) -> str:
    if lang() == "en" and effect.name_en:
        return effect.name_en
    return effect.name


def class_label(name: str) -> str:
    if lang() == "en":
        return CLASSES.get(name, name)
    return name


def reason_text(code: str) -> str:
    """A refusal reason code (``servant_down``) in words."""
    return tr_or(f"reason.{code}", code.replace("_", " "))


def step_text(step: str) -> str:
    return tr_or(f"step.{step}", step)


def process_text(process: str) -> str:
    return tr_or(f"process.{process}", process)


def state_text(state: str) -> str:
    return tr_or(f"state.{state}", state)


def coin_text(coin: str) -> str:
    return tr_or(f"coin.{coin}", coin)


def attack_text(kind: str) -> str:
    return tr_or(f"action.attack_{kind}", kind)


def pending_text(game: Any) -> str:
    """What the game waits for, e.g. "Aさんが選択中 — 対応ウィンドウ"."""
    pend = game.pending
    if pend is None:
        return ""
    who = tr("panel.stack.decides", name=game.pname(pend.player))
    what = tr_or(f"table.pending.{pend.kind}", pend.kind)
    return f"{who} — {what}"


def _item_label(game: Any, index: int) -> str:
    s = game.state
    if not 0 <= index < len(s.stack):
        return str(index)
    item = s.stack[index]
    if item.card < 0:
        return tr_or("table.command_spell_item", "command spell")
    card = game.card_of(item.card)
    return effect_name(card.effects[item.effect - 1])


def targets_text(game: Any, action: UseEffect) -> str:
    if not action.targets:
        return ""
    eff = game.card_of(action.card).effects[action.effect - 1]
    kind = eff.target.kind
    parts = []
    for t in action.targets:
        if kind in ("servant", "player", "dropped_player"):
            parts.append(game.pname(t))
        elif kind == "card":
            parts.append(card_name(game.card_of(t)))
        elif kind == "stack_effect":
            parts.append(_item_label(game, t))
        else:
            parts.append(str(t))
    return "、".join(parts) if lang() == "ja" else ", ".join(parts)


def option_text(game: Any, option: Any) -> str:
    d = game.state.decision
    if d is not None and d.kind in ("rise_cards", "choose_hero", "choose_class") and isinstance(option, int) \
            and option in game.state.cards:
        card = game.card_of(option)
        if card.kind == "class" and card.class_name:
            return class_label(card.class_name)
        return card_name(card)
    return str(option)


def action_label(game: Any, action: Action) -> str:
    """The text of an action-panel button or a card-menu entry."""
    if isinstance(action, Pass):
        return tr("action.pass")
    if isinstance(action, DeclareRaid):
        return tr("action.raid", target=game.pname(action.target))
    if isinstance(action, ChooseEncounterTarget):
        return tr("action.encounter", target=game.pname(action.target))
    if isinstance(action, ChooseAttack):
        return attack_text(action.type)
    if isinstance(action, PlayCard):
        card = game.card_of(action.card)
        key = "table.action.play_scene" if card.kind == "scene" else "table.action.play_code"
        return tr_or(key, tr("action.play", card=card_name(card)), card=card_name(card))
    if isinstance(action, Discard):
        return tr("action.discard", card=card_name(game.card_of(action.card)))
    if isinstance(action, UseEffect):
        card = game.card_of(action.card)
        eff = card.effects[action.effect - 1]
        text = tr("action.use_effect", card=card_name(card), effect=effect_name(eff))
        tg = targets_text(game, action)
        return f"{text} → {tg}" if tg else text
    if isinstance(action, CommandSpell):
        if action.spell == "negate":
            return tr("action.command_negate", effect=_item_label(game, action.target))
        return tr("action.command_remove_coin", player=game.pname(action.target),
                  coin=tr_or(f"coin.{action.coin}.short", coin_text(action.coin)))
    if isinstance(action, Choose):
        return tr("action.choose", option=option_text(game, action.option))
    return action.kind


#: Order of the action panel's groups (pass first: it is the most frequent answer).
GROUPS = ("pass", "decision", "raid", "play", "effect", "spell")


def action_group(action: Action) -> str:
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, (ChooseAttack, ChooseEncounterTarget, Discard, Choose)):
        return "decision"
    if isinstance(action, DeclareRaid):
        return "raid"
    if isinstance(action, PlayCard):
        return "play"
    if isinstance(action, UseEffect):
        return "effect"
    return "spell"


def group_title(group: str) -> str:
    return tr_or(f"table.group.{group}", group)


def event_line(event: Any, language: str | None = None) -> str:
    """An engine event in words, with step, process, state and attack codes translated."""
    from fate_royal.rules.events import MESSAGES

    language = language or lang()
    if event.code == "StepStarted" and isinstance(event.args.get("step"), str):
        return step_text(event.args["step"])
    if event.code == "StepEnded" and isinstance(event.args.get("step"), str):
        return tr_or("table.log.step_ended", "{step} ends", step=step_text(event.args["step"]))
    templates = MESSAGES.get(event.code)
    if templates is None:
        return event.text(language)
    args = dict(event.args)
    for key, fn in (("step", step_text), ("process", process_text),
                    ("type", lambda t: tr_or(f"table.attack_word.{t}", t)),
                    ("before", state_text), ("after", state_text), ("state", state_text)):
        if isinstance(args.get(key), str):
            args[key] = fn(args[key])
    if isinstance(args.get("why"), str):
        args["why"] = tr_or(f"why.{args['why']}", args["why"])
    if isinstance(args.get("errata"), str):
        args["errata"] = tr_or(f"table.errata_word.{args['errata']}", args["errata"])
    template = templates[1] if language == "ja" else templates[0]
    try:
        return template.format(**args)
    except (KeyError, IndexError, ValueError):
        return event.text(language)
