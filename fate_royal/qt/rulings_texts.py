"""UI strings of the rulings features (demo mode, errata comparison, card inspector, saves).

The same keys are appended to ``assets/i18n/ja.yaml`` and ``en.yaml``; ``t`` takes the catalog's text
when it has the key and falls back to the table below, so a catalog edit never leaves a blank label.
"""

from __future__ import annotations

from typing import Any

from fate_royal.qt.i18n import current_language, has_key, tr

#: key -> (ja, en)
STRINGS: dict[str, tuple[str, str]] = {
    "rulings.menu.open_scenario": ("シナリオを開く(&D)…", "Open &scenario…"),
    "rulings.menu.open_save": ("保存したゲームを開く(&O)…", "&Open saved game…"),
    "rulings.menu.open_replay": ("リプレイとして開く(&R)…", "Open as &replay…"),
    "rulings.menu.save": ("保存(&S)", "&Save"),
    "rulings.menu.save_as": ("名前を付けて保存(&A)…", "Save &as…"),
    "rulings.menu.export_png": ("テーブルをPNGで書き出す(&P)…", "Export table as &PNG…"),
    "rulings.menu.export_log": ("ログを書き出す(&L)…", "Export &log…"),
    "rulings.menu.reload_cards": ("カードを再読み込み(&C)", "Reload &cards"),
    "rulings.menu.inspector": ("カード詳細(&I)", "Card &inspector"),
    "rulings.menu.comparison": ("エラッタ比較(&E)", "&Errata comparison"),
    "rulings.menu.presenter": ("プレゼンター表示(&P)", "&Presenter view"),
    "rulings.menu.demo": ("デモ(&D)", "&Demo"),
    "rulings.menu.demo_forward": ("次のステップへ(&F)", "Step &forward"),
    "rulings.menu.demo_back": ("前のステップへ(&B)", "Step &back"),
    "rulings.menu.demo_restart": ("最初から(&R)", "&Restart"),
    "rulings.menu.demo_close": ("デモを終了(&C)", "&Close demo"),
    "rulings.file": ("ファイル(&F)", "&File"),
    "rulings.demo.panel": ("デモ", "Demo"),
    "rulings.demo.replay": ("リプレイ（読み取り専用）", "Replay (read-only)"),
    "rulings.demo.step_of": ("ステップ {index} / {total}", "Step {index} / {total}"),
    "rulings.demo.start": ("開始局面", "Start position"),
    "rulings.demo.forward": ("次へ ▶", "Forward ▶"),
    "rulings.demo.back": ("◀ 戻る", "◀ Back"),
    "rulings.demo.passed": ("確認 OK", "Check passed"),
    "rulings.demo.failed": ("確認 NG", "Check failed"),
    "rulings.demo.summary": ("確認 {passed} 件成功・{failed} 件失敗", "{passed} checks passed, {failed} failed"),
    "rulings.demo.step_log": ("このステップのログ", "This step's log"),
    "rulings.demo.rules": ("適用されたルール", "Rules applied"),
    "rulings.demo.done": ("シナリオの最後です", "End of the scenario"),
    "rulings.demo.errata": ("エラッタ：{state}", "Errata: {state}"),
    "rulings.demo.action": ("{player}の行動：{action}", "{player}: {action}"),
    "rulings.demo.replay_step": ("{index}手目：{action}", "Action {index}: {action}"),
    "rulings.presenter.title": ("プレゼンター表示", "Presenter view"),
    "rulings.presenter.keys": ("→ / PageDown 次へ　← / PageUp 戻る　Esc 終了",
                               "→ / PageDown forward   ← / PageUp back   Esc close"),
    "rulings.hands.title": ("全員の手札（公開）", "Every hand (revealed)"),
    "rulings.hands.empty": ("（なし）", "(none)"),
    "rulings.compare.title": ("エラッタ比較", "Errata comparison"),
    "rulings.compare.current": ("現在の局面", "Current position"),
    "rulings.compare.on": ("エラッタあり", "Errata on"),
    "rulings.compare.off": ("エラッタなし", "Errata off"),
    "rulings.compare.upto": ("比較するステップ数", "Steps to compare"),
    "rulings.compare.refresh": ("再計算", "Recompute"),
    "rulings.compare.same": ("違いはありません", "No differences"),
    "rulings.compare.count": ("違い {count} 件", "{count} difference(s)"),
    "rulings.compare.what": ("項目", "What"),
    "rulings.compare.rules": ("ルール", "Rules"),
    "rulings.compare.only_on": ("エラッタありでのみ適用：", "Applied only with errata on: "),
    "rulings.compare.only_off": ("エラッタなしでのみ適用：", "Applied only with errata off: "),
    "rulings.compare.stopped": ("途中で停止：{why}", "Stopped early: {why}"),
    "rulings.compare.none": ("比較するゲームがありません", "No game to compare"),
    "rulings.field.servant": ("サーヴァント", "servant"),
    "rulings.field.servant_state": ("サーヴァントの状態", "servant state"),
    "rulings.field.class_state": ("クラスカードの状態", "class card state"),
    "rulings.field.card_states": ("座の{card}の状態", "state of {card} on the seat"),
    "rulings.field.seat_size": ("座の礼装の数", "cards on the seat"),
    "rulings.field.mana": ("魔力", "mana"),
    "rulings.field.mana_limit": ("魔力の上限", "mana limit"),
    "rulings.field.command_spells": ("令呪", "command spells"),
    "rulings.field.coins": ("{coin}コイン", "{coin} coins"),
    "rulings.field.hand_size": ("手札の枚数", "hand size"),
    "rulings.field.out": ("脱落", "dropped out"),
    "rulings.field.stats": ("能力値", "stats"),
    "rulings.field.zones": ("{card}の場所", "where {card} is"),
    "rulings.field.deck_size": ("山札の枚数", "deck size"),
    "rulings.field.discard_size": ("捨て札の枚数", "discard size"),
    "rulings.field.grail_size": ("聖杯の座の枚数", "grail seat size"),
    "rulings.field.stack_size": ("スタックの数", "stack size"),
    "rulings.field.turn": ("ターン", "turn"),
    "rulings.field.turn_player": ("ターンプレイヤー", "turn player"),
    "rulings.field.step": ("ステップ", "step"),
    "rulings.field.process": ("戦闘プロセス", "combat process"),
    "rulings.field.active_master": ("アクティブマスター", "Active Master"),
    "rulings.field.over": ("ゲーム終了", "game over"),
    "rulings.field.winner": ("勝者", "winner"),
    "rulings.value.yes": ("はい", "yes"),
    "rulings.value.no": ("いいえ", "no"),
    "rulings.inspector.title": ("カード詳細", "Card inspector"),
    "rulings.inspector.choose": ("カード：", "Card:"),
    "rulings.inspector.effective": ("現在の能力値（{player}）", "Effective stats ({player})"),
    "rulings.inspector.not_in_play": ("場に出ていません（印刷された能力値）", "Not in play (printed stats)"),
    "rulings.inspector.source": ("出どころ", "Source"),
    "rulings.inspector.total": ("合計", "Total"),
    "rulings.inspector.provenance": ("各項目の出典", "Provenance of each field"),
    "rulings.inspector.field": ("項目", "Field"),
    "rulings.inspector.value": ("値", "Value"),
    "rulings.inspector.mark": ("出典", "Provenance"),
    "rulings.inspector.errata": ("エラッタ前と後", "Before and after errata"),
    "rulings.inspector.no_errata": ("このカードにエラッタはありません", "This card has no errata"),
    "rulings.inspector.errata_off": ("エラッタなしで遊んでいます（エラッタ後の定義も表示）",
                                     "Playing without errata (the errata'd definition is shown too)"),
    "rulings.inspector.patch": ("{rule}：{path}", "{rule}: {path}"),
    "rulings.inspector.source_text": ("出典：{source}", "Source: {source}"),
    "rulings.inspector.file": ("定義：{file}:{line}", "Defined in {file}:{line}"),
    "rulings.inspector.hover": ("テーブル上のカードにマウスを乗せると表示します",
                                "Hover over a card on the table to inspect it"),
    "rulings.save.filter": ("Fate/Ace Royal の保存ファイル (*.json);;すべてのファイル (*)",
                            "Fate/Ace Royal saves (*.json);;All files (*)"),
    "rulings.scenario.filter": ("シナリオ (*.yaml *.yml);;すべてのファイル (*)",
                                "Scenarios (*.yaml *.yml);;All files (*)"),
    "rulings.png.filter": ("PNG画像 (*.png)", "PNG images (*.png)"),
    "rulings.log.filter": ("テキスト (*.txt)", "Text (*.txt)"),
    "rulings.save.saved": ("{path} に保存しました", "Saved to {path}"),
    "rulings.save.opened": ("{path} を開きました", "Opened {path}"),
    "rulings.save.refused": ("開けませんでした。現在のゲームはそのままです。\n\n{reason}",
                             "Could not open the file. The current game is unchanged.\n\n{reason}"),
    "rulings.save.changed_cards": ("このゲームの保存後にカードデータが変更されています。\n"
                                   "現在のカードで再生して開きますか？\n\n{path}",
                                   "The card data changed since this game was saved.\n"
                                   "Replay it with the current cards anyway?\n\n{path}"),
    "rulings.save.open_anyway": ("それでも開く", "Open anyway"),
    "rulings.save.failed": ("保存できませんでした：{reason}", "Could not save: {reason}"),
    "rulings.autosave.failed": ("自動保存できませんでした：{reason}", "Autosave failed: {reason}"),
    "rulings.reload.ok": ("カードとルールプロファイルを再読み込みしました（{count}手を再生）",
                          "Cards and rules profile reloaded ({count} actions replayed)"),
    "rulings.reload.data_error": ("カードデータにエラーがあります。前回正しく読み込めたデータで続けます。\n\n{errors}",
                                  "The card data has errors. The game continues on the last good data.\n\n{errors}"),
    "rulings.reload.replay_failed": ("新しいデータでは {index} 手目（{action}）ができません：{reason}\n"
                                     "元のゲームをそのまま続けます。",
                                     "With the new data, action {index} ({action}) is not allowed: "
                                     "{reason}\nThe old game continues unchanged."),
    "rulings.export.png_done": ("テーブルを {path} に書き出しました", "Table exported to {path}"),
    "rulings.export.log_done": ("ログを {path} に書き出しました", "Log exported to {path}"),
    "rulings.export.failed": ("書き出せませんでした：{reason}", "Could not export: {reason}"),
    "rulings.scenario.failed": ("シナリオを開けませんでした：\n\n{reason}", "Could not open the scenario:\n\n{reason}"),
    "rulings.log.header": ("Fate/Ace Royal ログ — {title}", "Fate/Ace Royal log — {title}"),
}


def t(key: str, **kwargs: Any) -> str:
    """The catalog's string for ``key`` if it has one, else this module's own."""
    if has_key(key):
        return tr(key, **kwargs)
    ja, en = STRINGS.get(key, (f"[{key}]", f"[{key}]"))
    text = ja if current_language() == "ja" else en
    try:
        return text.format(**kwargs) if kwargs else text
    except (KeyError, IndexError, ValueError):
        return text
