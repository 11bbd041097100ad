"""Integration points of Solfec-1.0's MESH methods surface_integration_points and
volume_integration_points (fem.c rules): natural points and weights, shape functions of the
tetrahedron, pyramid, wedge, hexahedron and the boundary triangle and quadrilateral, and the
points and weights of a mesh (numpy)."""

import numpy as np

from .meshfile import LOCAL_FACES

__all__ = []

_RULES = None


def rules():
    """Natural coordinates and weights {k: (points (m, d), weights (m,))} of Solfec-1.0's
    element rules (fem.c, order 2 for volumes) and face rules (triangle order 1, quad 2);
    the pyramid rule is 2 x 2 Gauss in x, y scaled by 1 - z times the 2-point Gauss-Jacobi
    rule for the weight (1 - z)^2 on [0, 1] (nodes 1/3 -+ sqrt(2/45))."""
    global _RULES
    if _RULES is not None:
        return _RULES
    g = 1.0 / np.sqrt(3.0)
    a, b = (5.0 - np.sqrt(5.0)) / 20.0, (5.0 + 3.0 * np.sqrt(5.0)) / 20.0
    tet = np.array([[a, a, a], [a, a, b], [a, b, a], [b, a, a]])
    zp = np.array([1 / 3 + np.sqrt(2 / 45), 1 / 3 - np.sqrt(2 / 45)])
    wz = np.linalg.solve([[1.0, 1.0], zp], [1 / 3, 1 / 12])  # moments of (1-z)^2 on [0,1]
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=float)
    pyr = np.vstack([np.column_stack((sq * g * (1 - z), np.full(4, z))) for z in zp])
    tri = np.array([[2 / 3, 1 / 6], [1 / 6, 2 / 3], [1 / 6, 1 / 6]])
    wed = np.vstack([np.column_stack((tri, np.full(3, z))) for z in (-g, g)])
    hexa = np.vstack([np.column_stack((sq * g, np.full(4, z))) for z in (-g, g)])
    rules = {4: (tet, np.full(4, 1 / 24)), 5: (pyr, np.repeat(wz, 4)),
             6: (wed, np.full(6, 1 / 6)), 8: (hexa, np.ones(8)),
             3: (np.array([[1 / 3, 1 / 3]]), np.array([0.5])), 40: (sq * g, np.ones(4))}
    _RULES = rules
    return rules

def shape_functions(k, P):
    """Shape functions (m, k) and their natural derivatives (m, k, d) at points P (m, d)
    of Solfec-1.0's elements (k = 4, 5, 6, 8) and faces (k = 3, 40 for the quad)."""
    x, y = P[:, 0], P[:, 1]
    one, zero = np.ones_like(x), np.zeros_like(x)
    if k == 3:  # triangle: node 0 at (1, 0), 1 at (0, 1), 2 at (0, 0)
        return (np.column_stack((x, y, 1 - x - y)),
                np.stack([np.column_stack((one, zero)), np.column_stack((zero, one)),
                          np.column_stack((-one, -one))], axis=1))
    if k == 40:  # quadrilateral [-1, 1]^2
        sx, sy = np.array([-1, 1, 1, -1.0]), np.array([-1, -1, 1, 1.0])
        fx, fy = 1 + np.outer(x, sx), 1 + np.outer(y, sy)
        return fx * fy / 4, np.stack((sx * fy / 4, sy * fx / 4), axis=2)
    z = P[:, 2]
    if k == 4:
        N = np.column_stack((1 - x - y - z, x, y, z))
        dN = np.broadcast_to(np.array([[-1.0, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
                             (len(P), 4, 3))
        return N, dN
    if k == 8:
        s = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                      [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)
        f = 1 + P[:, None, :] * s[None, :, :]  # (m, 8, 3)
        dN = np.stack((s[:, 0] * f[..., 1] * f[..., 2], s[:, 1] * f[..., 0] * f[..., 2],
                       s[:, 2] * f[..., 0] * f[..., 1]), axis=2) / 8
        return f.prod(axis=2) / 8, dN
    if k == 6:  # triangle (x, y) times z in [-1, 1]
        L = np.column_stack((1 - x - y, x, y))
        dL = np.array([[-1.0, -1], [1, 0], [0, 1]])
        lo, hi = (1 - z) / 2, (1 + z) / 2
        N = np.column_stack((L * lo[:, None], L * hi[:, None]))
        dN = np.empty((len(P), 6, 3))
        for j, (h, dh) in enumerate(((lo, -0.5), (hi, 0.5))):
            dN[:, 3 * j:3 * j + 3, :2] = dL[None] * h[:, None, None]
            dN[:, 3 * j:3 * j + 3, 2] = L * dh
        return N, dN
    # k == 5: Solfec-1.0's pyramid, base nodes at (1, 1), (-1, 1), (-1, -1), (1, -1), z = 0
    # and the apex at z = 1, with the rational term r = x y z / (1 - z)
    q = 1 - z
    r, rx, ry, rz = x * y * z / q, y * z / q, x * z / q, x * y / q ** 2
    bx, by = np.array([1, -1, -1, 1.0]), np.array([1, 1, -1, -1.0])
    sr = np.array([1, -1, 1, -1.0])
    fx, fy = 1 + np.outer(x, bx), 1 + np.outer(y, by)
    N = np.column_stack(((fx * fy - z[:, None] + np.outer(r, sr)) / 4, z))
    dN = np.zeros((len(P), 5, 3))
    dN[:, :4, 0] = (bx * fy + np.outer(rx, sr)) / 4
    dN[:, :4, 1] = (by * fx + np.outer(ry, sr)) / 4
    dN[:, :4, 2] = (-1 + np.outer(rz, sr)) / 4
    dN[:, 4, 2] = 1
    return N, dN

def integration(s, kind, ident):
    """(points (n, 3), weights (n,)) of the volume or surface rule over the elements with
    volume id / faces with surface id `ident` (None: all) of the core shape `s` (one mesh);
    weights are the rule weights
    times the Jacobian (volume) or area (surface) factor, so sum(w f(x)) integrates f."""
    X = np.array(s.mesh_nodes(), dtype=float).reshape(-1, 3)
    if kind == "volume":
        cells = s.mesh_elements()
        order = surface_elements_first(cells)
    else:
        cells = s.mesh_boundary_faces()
        order = np.arange(len(cells))
    rank = np.empty(len(cells), dtype=int)
    rank[order] = np.arange(len(cells))
    table = rules()
    pts, wts, keys = [], [], []
    for k in sorted({len(c[0]) for c in cells}):
        sel = [i for i, (idx, cid) in enumerate(cells)
               if len(idx) == k and (ident is None or cid == ident)]
        if not sel:
            continue
        rk = 40 if kind == "surface" and k == 4 else k
        P, W = table[rk]
        N, dN = shape_functions(rk, P)
        Xe = X[np.array([cells[i][0] for i in sel])]  # (ne, k, 3)
        pts.append(np.einsum("mk,ekd->emd", N, Xe).reshape(-1, 3))
        J = np.einsum("ekd,mka->emda", Xe, dN)  # dx_d / dxi_a
        if kind == "volume":
            jac = np.linalg.det(J)
        else:
            jac = np.linalg.norm(np.cross(J[..., 0], J[..., 1]), axis=-1)
        wts.append((jac * W).reshape(-1))
        # order key: the cell's rank, then the point within the cell (< 100 points)
        keys.append((rank[sel][:, None] * 100 + np.arange(len(W))).reshape(-1))
    if not pts:
        return np.zeros((0, 3)), np.zeros(0)
    keys = np.concatenate(keys)
    o = np.argsort(keys, kind="stable")
    return np.concatenate(pts)[o], np.concatenate(wts)[o]

def surface_elements_first(cells):
    """Element indices with those having a boundary face first, then the others, each in
    element order (Solfec-1.0's surface and bulk element lists)."""
    faces, owner = [], []
    for e, (idx, _) in enumerate(cells):
        for f in LOCAL_FACES[len(idx)]:
            key = sorted(idx[i] for i in f)
            faces.append(key + [-1] * (4 - len(key)))
            owner.append(e)
    _, inverse, counts = np.unique(np.array(faces), axis=0, return_inverse=True,
                                   return_counts=True)
    on_boundary = np.zeros(len(cells), dtype=bool)
    on_boundary[np.array(owner)[counts[inverse.reshape(-1)] == 1]] = True
    return np.concatenate((np.flatnonzero(on_boundary), np.flatnonzero(~on_boundary)))
