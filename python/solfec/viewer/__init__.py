"""The browser viewer of `solfec -v deck.py` (docs/viewer.md): a local HTTP server rendering
the deck's SOLFEC objects and their results with three.js."""

from .server import serve

__all__ = ["serve"]
