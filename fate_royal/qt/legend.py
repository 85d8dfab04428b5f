"""The legend: every mark, icon, badge and colour the table draws, with what it means (Help menu)."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from fate_royal.qt.i18n import FollowsLanguage, tr
from fate_royal.qt.screen import resize_on_screen
from fate_royal.qt.zoom import mark_img

#: (icon: an SVG asset name, or "#rrggbb" for a colour swatch, or "" for a text badge; badge text
#: key or None; meaning key)
ENTRIES: tuple[tuple[str, str | None, str], ...] = (
    ("errata", None, "legend.errata"),
    ("provisional", None, "legend.provisional"),
    ("entered", None, "legend.entered"),
    ("#2c4f7c", "card.generated_tag", "legend.generated"),
    ("", "state.rise", "legend.rise"),
    ("", "state.down", "legend.down"),
    ("", "state.danger", "legend.danger"),
    ("", "state.reverse", "legend.reverse"),
    ("mana", None, "legend.mana"),
    ("mana_empty", None, "legend.mana_empty"),
    ("command_spell", None, "legend.command_spell"),
    ("active_master", None, "legend.active_master"),
    ("assassination", None, "legend.assassination"),
    ("proxy", None, "legend.proxy"),
    ("#b9a6c9", None, "legend.suppressed"),
    ("deck", None, "legend.deck"),
    ("discard", None, "legend.discard"),
    ("grail", None, "legend.grail"),
    ("#e8c36a", "table.turn", "legend.turn"),
    ("#5fd4ff", "table.deciding", "legend.deciding"),
    ("#ff5a4f", "table.raider", "legend.raider"),
    ("#6fa8ff", "table.interceptor", "legend.interceptor"),
    ("#9a9a9a", "table.dropped", "legend.dropped"),
    ("#7dffb0", None, "legend.playable"),
    ("#ffe066", None, "legend.highlight"),
    ("#ff9ad5", None, "legend.last"),
)


def legend_html() -> str:
    rows = []
    for icon, badge, meaning in ENTRIES:
        if icon.startswith("#"):
            label = html.escape(tr(badge)) if badge else "&nbsp;&nbsp;&nbsp;&nbsp;"
            ink = "#ffffff" if icon == "#2c4f7c" else "#14100c"
            mark = (f"<span style='background:{icon}; color:{ink}; font-weight:bold'>"
                    f"&nbsp;{label}&nbsp;</span>")
        elif icon:
            mark = mark_img(icon, 24)
        else:
            mark = f"<b>{html.escape(tr(badge))}</b>"
        rows.append(f"<tr><td style='padding:3px 10px 3px 0' align='center'>{mark}</td>"
                    f"<td style='padding:3px 0'>{html.escape(tr(meaning))}</td></tr>")
    return (f"<h3 style='color:#e8c36a'>{html.escape(tr('legend.title'))}</h3>"
            f"<p>{html.escape(tr('legend.intro'))}</p><table>{''.join(rows)}</table>")


class LegendDialog(FollowsLanguage, QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        self.body = QTextBrowser()
        lay.addWidget(self.body)
        self.retranslate()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)
        resize_on_screen(self, 640, 720)

    def retranslate(self) -> None:
        self.setWindowTitle(tr("legend.title"))
        self.body.setHtml(legend_html())

    def text(self) -> str:
        return self.body.toPlainText()


def show_legend(parent: Any) -> LegendDialog:
    dlg = LegendDialog(parent)
    dlg.show()
    return dlg
