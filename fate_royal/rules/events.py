"""Log events: what happened, named in the past tense, with the rule ids applied and the card effect.

The core emits a code and arguments; ``event_text`` turns an event into words (ja or en) for the
command line and the GUI. Every event carries the ids of the rules it applied: the log is how a
ruling is explained.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    code: str  # e.g. ServantDowned, DieRolled
    args: dict[str, Any] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    card: str = ""  # card id involved, if any
    effect: str = ""  # effect name involved, if any
    turn: int = 0
    step: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "args": dict(self.args), "rules": list(self.rules),
                "card": self.card, "effect": self.effect, "turn": self.turn, "step": self.step}

    def text(self, lang: str = "en") -> str:
        return event_text(self, lang)


# Templates: code -> (en, ja). Arguments are already-rendered names (players, cards, effects).
MESSAGES: dict[str, tuple[str, str]] = {
    "GameStarted": ("Game started: {players} players, errata {errata}, seed {seed}",
                    "ゲーム開始：{players}人、エラッタ{errata}、シード{seed}"),
    "DeckBuilt": ("Deck built: {size} cards ({padded} padding copies)",
                  "山札を作成：{size}枚（水増し{padded}枚）"),
    "ServantDealt": ("{player} receives a servant (face down)", "{player}にサーヴァントが配られた（裏向き）"),
    "ServantChosen": ("{player} chose a servant (hidden)", "{player}がサーヴァントを選んだ（非公開）"),
    "ActiveMasterChosen": ("{player} takes the Active Master coin and the first turn",
                           "{player}がアクティブマスターコインを受け取り先攻"),
    "TurnStarted": ("Turn {turn}: {player}", "ターン{turn}：{player}"),
    "ActiveMasterPassed": ("{player} receives the Active Master coin",
                           "{player}がアクティブマスターコインを受け取った"),
    "StepStarted": ("{step} step", "{step}"),
    "StepEnded": ("{step} step ends", "{step}終了"),
    "CardRisen": ("{player}'s {card} turns Rise", "{player}の{card}がライズ状態になった"),
    "CardStateChanged": ("{player}'s {card}: {before} → {after}", "{player}の{card}：{before}→{after}"),
    "StateChangeIgnored": ("{player}'s {card} is Reverse and cannot become {state}",
                           "{player}の{card}はリバース状態なので{state}にならない"),
    "CardDrawn": ("{player} draws a card", "{player}がカードを1枚引いた"),
    "DrawFailed": ("{player} draws nothing: deck and discard are empty",
                   "{player}は引けない：山札も捨て札もない"),
    "DrawNothing": ("{player} draws nothing: the deck is empty", "{player}は引けない：山札がない"),
    "DeckRebuilt": ("Deck rebuilt from the discard pile ({size} cards)",
                    "捨て札を切り直して山札を再作成（{size}枚）"),
    "CardDiscarded": ("{player} discards {card}", "{player}が{card}を捨てた"),
    "CardPlayed": ("{player} puts {card} on the servant seat ({state})",
                   "{player}が{card}をサーヴァントの座に置いた（{state}）"),
    "DieRolled": ("{player} rolls the die: {value}{scripted}", "{player}がダイスを振った：{value}{scripted}"),
    "EncounterHappened": ("Encounter! {player} must fight", "遭遇戦発生！{player}は戦闘を行う"),
    "NoEncounter": ("No encounter", "遭遇戦なし"),
    "EncounterTargetChosen": ("{player}'s servant raids {target} (encounter)",
                              "{player}のサーヴァントが{target}を襲撃（遭遇戦）"),
    "RaidDeclared": ("{player} declares a raid on {target}", "{player}が{target}への襲撃を宣言"),
    "ProcessStarted": ("— {process}", "— {process}"),
    "ServantRevealed": ("{player}'s servant is revealed: {hero} / {klass}",
                        "{player}のサーヴァントが公開：{hero}／{klass}"),
    "EngagementEstablished": ("Engagement established", "交戦成立"),
    "AttackChosen": ("{player} attacks with {type} attack", "{player}は{type}攻撃を行う"),
    "AttackSwitched": ("{player} switches to {type} attack", "{player}は{type}攻撃に切り替えた"),
    "FirstStrike": ("{player} strikes first (先制)", "{player}が先制攻撃"),
    "DamageDealt": ("{attacker} deals {damage} damage to {defender} ({attack} vs {defense})",
                    "{attacker}が{defender}に{damage}ダメージ（{attack}対{defense}）"),
    "NoDamage": ("{attacker}'s attack deals no damage ({attack} vs {defense})",
                 "{attacker}の攻撃はダメージなし（{attack}対{defense}）"),
    "ManaLost": ("{player} loses {amount} mana ({mana} left)", "{player}の魔力が{amount}減少（残り{mana}）"),
    "ManaRecovered": ("{player} recovers {amount} mana ({mana})", "{player}の魔力が{amount}回復（{mana}）"),
    "ManaExcessLost": ("{player} loses {amount} mana above the limit {limit}",
                       "{player}は上限{limit}を超えた魔力{amount}を失った"),
    "ServantDestroyed": ("{player}'s servant is destroyed", "{player}のサーヴァントが脱落"),
    "ProxyRemoved": ("{player}'s proxy {chip} is removed", "{player}の代理{chip}が除去された"),
    "ProxySummoned": ("{player}'s {chip} fights by proxy combat", "{player}の{chip}が代理戦闘を行う"),
    "ProxySuppressed": ("While {player}'s proxy fights, {card}'s {effect} does not apply",
                        "{player}の代理戦闘中、{card}の{effect}は適用されない"),
    "ProxyLost": ("{player}'s proxy is lost: {what}", "{player}の代理戦闘が失われた：{what}"),
    "CombatVoid": ("The combat counts as never having happened", "戦闘はなかったものとなる"),
    "ServantDowned": ("{player}'s servant retreats Down", "{player}のサーヴァントが撤退しダウン状態に"),
    "CardStolen": ("{player} takes a random card from {victim}'s hand",
                   "{player}が{victim}の手札から1枚ランダムに奪った"),
    "CombatEnded": ("Combat ends", "戦闘終了"),
    "EffectUsed": ("{player} uses {effect} of {card}{targets}", "{player}が{card}の{effect}を使用{targets}"),
    "CostPaid": ("{player} pays {cost}", "{player}がコストを支払った：{cost}"),
    "DieCostFailed": ("The die shows {value}: {effect} does nothing", "ダイス{value}：{effect}は効果なし"),
    "EffectResolved": ("{effect} of {card} resolves", "{card}の{effect}を解決"),
    "EffectNegated": ("{effect} of {card} is negated", "{card}の{effect}は打ち消された"),
    "EffectFizzled": ("{effect} of {card} does nothing ({why})", "{card}の{effect}は効果なし（{why}）"),
    "EffectCancelled": ("{effect} fails: {target} has {keyword}", "{effect}は失敗：{target}は{keyword}を持つ"),
    "StatsModified": ("{player}'s fighter gets {change} from {effect}",
                      "{player}の戦闘者に{change}（{effect}）"),
    "KeywordGranted": ("{player}'s fighter gains {keyword} from {effect}",
                       "{player}の戦闘者が{keyword}を得た（{effect}）"),
    "SameNameIgnored": ("{effect} already applies to {player}: the later one is ignored",
                        "同名の効果{effect}は{player}に重複しない：後のものは無視"),
    "CoinsPlaced": ("{amount} {coin} coin(s) placed on {player}", "{player}に{coin}コインを{amount}枚置いた"),
    "CoinRemoved": ("A {coin} coin is removed from {player}", "{player}の{coin}コインを1枚取り除いた"),
    "CoinUpkeep": ("{player}'s {count} assassination coin(s) remove {amount} mana",
                   "{player}の暗殺コイン{count}枚で魔力{amount}減少"),
    "CommandSpellUsed": ("{player} spends a command spell ({left} left): {what}",
                         "{player}が令呪を使用（残り{left}）：{what}"),
    "CardsRisen": ("{player} turns {count} card(s) Rise", "{player}がカード{count}枚をライズ状態にした"),
    "PlayerDroppedOut": ("{player} drops out ({why})", "{player}が脱落（{why}）"),
    "SeatCleared": ("{player}'s seat cards go to the discard pile", "{player}のサーヴァントの座のカードを捨て札へ"),
    "PlayerRevived": ("{player} returns to the game with a new servant",
                      "{player}が新たなサーヴァントでゲームに復帰"),
    "HandLimit": ("{player} must discard down to {limit}", "{player}は手札を{limit}枚まで捨てる"),
    "ModifiersExpired": ("Effects until end of turn expire", "ターン終了までの効果が終了"),
    "GameWon": ("{player} wins the Holy Grail War", "{player}が聖杯戦争に勝利"),
    "NoWinner": ("The last servants destroyed each other: no winner",
                 "最後のサーヴァント同士が相討ち：勝者なし"),
    "Passed": ("{player} passes", "{player}はパス"),
    "AutoPassed": ("{player} has nothing to do and passes", "{player}は使える効果がないのでパス"),
    "ProxyKept": ("While {player}'s proxy fights, {card}'s {effect} still applies",
                  "{player}の代理戦闘中も{card}の{effect}は適用される"),
    "EffectLost": ("{player}'s {effect} ({card}) is lost", "{player}の{card}の{effect}は失われた"),
    "StackResolving": ("All passed: the top of the stack resolves", "全員パス：スタックの一番上を解決"),
}


#: Codes the engine puts in event arguments, in words: code -> (en, ja).
TERMS: dict[str, tuple[str, str]] = {
    # steps (D5)
    "rise": ("Rise", "ライズステップ"), "draw": ("Draw", "ドローステップ"),
    "ritual": ("Ritual", "儀式ステップ"), "encounter": ("Encounter", "遭遇戦ステップ"),
    "combat": ("Combat", "戦闘ステップ"), "end": ("End", "エンドステップ"),
    # combat processes (B6, D9, B7)
    "disclosure": ("disclosure", "開示プロセス"), "engagement": ("engagement", "交戦プロセス"),
    "raid": ("raid", "襲撃プロセス"), "raider_damage": ("raider damage", "襲撃側ダメージ判定プロセス"),
    "interception": ("interception", "迎撃プロセス"),
    "interceptor_damage": ("interceptor damage", "迎撃側ダメージ判定プロセス"),
    "retreat": ("retreat", "撤退プロセス"),
    # attack types
    "physical": ("physical", "物理"), "magic": ("magic", "魔術"),
    # errata switch
    "on": ("on", "あり"), "off": ("off", "なし"),
    # why a player dropped out
    "destroyed": ("servant destroyed", "サーヴァント脱落"),
    "no command spells": ("no command spells left", "令呪をすべて失った"),
}
STATE_TERMS: dict[str, tuple[str, str]] = {
    "reverse": ("Reverse", "リバース"), "rise": ("Rise", "ライズ"),
    "down": ("Down", "ダウン"), "danger": ("Danger", "デンジャー"),
}
_CODED_ARGS = {"step", "process", "type", "errata", "why"}
_STATE_ARGS = {"state", "before", "after"}


def _words(args: dict[str, Any], lang: str) -> dict[str, Any]:
    i = 1 if lang == "ja" else 0
    out = dict(args)
    for key, value in args.items():
        if key in _CODED_ARGS and isinstance(value, str) and value in TERMS:
            out[key] = TERMS[value][i]
        elif key in _STATE_ARGS and isinstance(value, str) and value in STATE_TERMS:
            out[key] = STATE_TERMS[value][i]
    return out


def event_text(event: Event, lang: str = "en") -> str:
    templates = MESSAGES.get(event.code)
    if templates is None:
        return f"{event.code} {event.args}"
    template = templates[1] if lang == "ja" else templates[0]
    try:
        return template.format(**_words(event.args, lang))
    except (KeyError, IndexError):
        return f"{template} {event.args}"


def format_line(event: Event, lang: str = "en") -> str:
    """The log line printed by the command line: text, then the rule ids in brackets."""
    rules = f"  [{', '.join(event.rules)}]" if event.rules else ""
    return f"{event_text(event, lang)}{rules}"
