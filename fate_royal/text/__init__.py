"""Words: every user-visible string, from one catalog per language (``assets/i18n/<lang>.yaml``).

The engine (``fate_royal.rules``) emits codes; ``Words`` turns events, actions and refusal reasons
into sentences in Japanese or English for the table, the command line and the demos alike. Qt-free.
The catalogs themselves: ``fate_royal.text.catalog``.
"""

from fate_royal.text.catalog import LANGUAGES, tr_in, tr_or_in
from fate_royal.text.words import Words

__all__ = ["LANGUAGES", "Words", "tr_in", "tr_or_in"]
