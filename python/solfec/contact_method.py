"""CONTACT_METHOD: overlap contact points (default) or node-to-face contact for
FINITE_ELEMENT meshes (docs/deck-language.md, src/contact/README.md)."""

from . import _args as A
from . import _solfec
from .model import SOLFEC

__all__ = ["CONTACT_METHOD"]


def CONTACT_METHOD(solfec, method, margin=None, depth=0.2):
    """CONTACT_METHOD(solfec, method | margin, depth): 'OVERLAP' (contact points from shape
    overlaps) or 'NODE_TO_FACE' (pairs with a FINITE_ELEMENT mesh body: its surface nodes
    against the faces of the other body; closest-point projection). `margin` [m]: a node
    closer to a face than max(margin, h * approach speed) is in contact (default 1e-4 times
    the slave surface's mean face diameter); `depth`: deepest captured penetration as a fraction of the face
    size."""
    r = "CONTACT_METHOD"
    A.instance(solfec, SOLFEC, r, "solfec")
    A.choice(method, r, "method", ("OVERLAP", "NODE_TO_FACE"))
    m = -1.0 if margin is None else A.positive(margin, r, "margin", allow_zero=True)
    d = A.positive(depth, r, "depth")
    if d > 1.0:
        raise ValueError(f"{r}: argument 'depth' must lie in (0, 1] (a fraction of the face "
                         f"size), got {depth!r}")
    _solfec.set_contact_method(solfec._domain, method, m, d)
