"""rde: the thin command-line client of RDE, a recruiting data engine sold in credits."""

__version__ = "0.2.0"
