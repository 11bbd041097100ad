"""Evaluation of FINITE_ELEMENT results with numpy: TET4/PYR5/WED6/HEX8 shape functions (the
same natural coordinates as src/body/fem/elements.cc), point location in the referential
mesh, and the motion, deformation gradient and Saint Venant-Kirchhoff stress at a point or
at element centres from a frame's q (current node coordinates) and u (node velocities)."""

import math

import numpy as np

__all__ = ["shape_functions", "natural_centre", "FeMesh"]

_HEX_SIGN = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                      [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)


def _hex(xi):
    f = 1.0 + _HEX_SIGN * xi  # (8, 3)
    N = f.prod(axis=1) / 8.0
    dN = np.empty((8, 3))
    dN[:, 0] = _HEX_SIGN[:, 0] * f[:, 1] * f[:, 2] / 8.0
    dN[:, 1] = _HEX_SIGN[:, 1] * f[:, 0] * f[:, 2] / 8.0
    dN[:, 2] = _HEX_SIGN[:, 2] * f[:, 0] * f[:, 1] / 8.0
    return N, dN


def shape_functions(k, xi):
    """(N (k,), dN/dxi (k, 3)) of a k-node element at natural coordinates xi: TET4
    (r, s, t) with N = (1-r-s-t, r, s, t); PYR5 a hexahedron collapsed into the apex;
    WED6 triangle (r, s) x t in [-1, 1]; HEX8 xi in [-1, 1]^3."""
    xi = np.asarray(xi, dtype=float)
    if k == 8:
        return _hex(xi)
    if k == 5:
        Nh, dNh = _hex(xi)
        N = np.concatenate((Nh[:4], [Nh[4:].sum()]))
        dN = np.vstack((dNh[:4], dNh[4:].sum(axis=0)))
        return N, dN
    if k == 6:
        r, s, t = xi
        L = np.array([1 - r - s, r, s])
        dLr, dLs = np.array([-1.0, 1, 0]), np.array([-1.0, 0, 1])
        z, dz = np.array([(1 - t) / 2, (1 + t) / 2]), np.array([-0.5, 0.5])
        N = np.concatenate((L * z[0], L * z[1]))
        dN = np.vstack([np.column_stack((dLr * z[j], dLs * z[j], L * dz[j])) for j in (0, 1)])
        return N, dN
    if k == 4:
        N = np.array([1 - xi.sum(), xi[0], xi[1], xi[2]])
        dN = np.array([[-1.0, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
        return N, dN
    raise ValueError(f"fe_eval: unknown element size {k}")


def natural_centre(k):
    return {4: np.array([0.25, 0.25, 0.25]), 5: np.array([0.0, 0.0, -0.5]),
            6: np.array([1 / 3, 1 / 3, 0.0]), 8: np.zeros(3)}[k]


def _outside(k, xi):
    """0 inside the reference element, else a distance-like measure (as elements.cc)."""
    if k == 4:
        return max(0.0, -min(1 - xi.sum(), xi[0], xi[1], xi[2]))
    if k == 6:
        return max(0.0, -min(1 - xi[0] - xi[1], xi[0], xi[1]), abs(xi[2]) - 1)
    if k == 5:
        s = max(0.5 * (1 - xi[2]), 1e-12)
        a = max(abs(xi[0]), abs(xi[1])) * s
        return max(0.0, abs(xi[2]) - 1, a - s)
    return max(0.0, np.abs(xi).max() - 1)


def _inverse_map(k, X, p):
    """Natural coordinates of p in the element with nodes X (k, 3) by Newton, or None."""
    xi = natural_centre(k).copy()
    scale = np.linalg.norm(X.max(axis=0) - X.min(axis=0))
    for _ in range(30):
        N, dN = shape_functions(k, xi)
        r = N @ X - p
        if np.linalg.norm(r) <= 1e-13 * max(scale, 1e-300):
            return xi
        J = X.T @ dN
        try:
            xi = xi - np.linalg.solve(J, r)
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(xi)):
            return None
    N, _ = shape_functions(k, xi)
    return xi if np.linalg.norm(N @ X - p) <= 1e-8 * max(scale, 1e-300) else None


class FeMesh:
    """A referential mesh: nodes (n, 3) and elements as (node index list) per element."""

    def __init__(self, nodes, elements, volids=None):
        self.nodes = np.asarray(nodes, dtype=float).reshape(-1, 3)
        self.elements = [np.asarray(e, dtype=np.int64) for e in elements]
        self.volids = (np.zeros(len(self.elements), np.int64) if volids is None
                       else np.asarray(volids, np.int64))
        lo = np.array([self.nodes[e].min(axis=0) for e in self.elements])
        hi = np.array([self.nodes[e].max(axis=0) for e in self.elements])
        pad = 0.05 * np.linalg.norm(hi - lo, axis=1)[:, None]
        self._lo, self._hi = lo - pad, hi + pad
        self._centroids = np.array([self.nodes[e].mean(axis=0) for e in self.elements])

    @classmethod
    def from_records(cls, nodes, records):
        """From /shapes/vertices rows and /shapes/mesh_elements records."""
        els = [r["nodes"][:int(r["num_nodes"])] for r in records]
        return cls(nodes, els, [int(r["volid"]) for r in records])

    def locate(self, X):
        """(element, natural coordinates) of referential point X: the element containing it,
        else the one it is least outside of (extrapolation), as FeBody::LocateReferential."""
        X = np.asarray(X, dtype=float)
        best, elem, xi_best = math.inf, None, None

        def consider(e):
            nonlocal best, elem, xi_best
            k = len(self.elements[e])
            xi = _inverse_map(k, self.nodes[self.elements[e]], X)
            if xi is None:
                return
            m = _outside(k, xi)
            if m < best:
                best, elem, xi_best = m, e, xi
        inside = np.nonzero(np.all((self._lo <= X) & (X <= self._hi), axis=1))[0]
        for e in inside:
            consider(int(e))
            if best == 0.0:
                return elem, xi_best
        if best < 0.5:
            return elem, xi_best
        nearest = int(np.argmin(((self._centroids - X) ** 2).sum(axis=1)))
        consider(nearest)
        if elem is None:
            elem = nearest
            xi_best = natural_centre(len(self.elements[nearest]))
        return elem, xi_best

    def point_operator(self, X):
        """(node indices, N, dN/dX) at referential point X: x = N @ q[idx], F = q[idx].T @ dNdX."""
        e, xi = self.locate(X)
        idx = self.elements[e]
        N, dN = shape_functions(len(idx), xi)
        J0 = self.nodes[idx].T @ dN
        return idx, N, dN @ np.linalg.inv(J0)

    def centre_operators(self):
        """point_operator at every element's natural centre (list over elements)."""
        out = []
        for idx in self.elements:
            N, dN = shape_functions(len(idx), natural_centre(len(idx)))
            J0 = self.nodes[idx].T @ dN
            out.append((idx, N, dN @ np.linalg.inv(J0)))
        return out

    def cell_gradients(self, q):
        """Deformation gradients (m, 3, 3) at the element centres for node coordinates q."""
        x = np.asarray(q, dtype=float).reshape(-1, 3)
        if not hasattr(self, "_centre_ops"):
            self._centre_ops = self.centre_operators()
        return np.array([x[idx].T @ dNdX for idx, _, dNdX in self._centre_ops])
