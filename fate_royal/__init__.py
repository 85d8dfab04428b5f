"""fate_royal: a desktop table for Fate/Ace Royal under a group's house-rule errata.

Layers (imports only point down): ``qt`` -> ``rules`` -> ``cards``. Only ``fate_royal.qt`` imports Qt.
"""

__version__ = "0.1.0"
