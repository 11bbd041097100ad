// First-order isoparametric elements (TET4, PYR5, WED6, HEX8): shape functions, natural
// derivatives, Gauss rules, the inverse isoparametric map and an "outside" measure.
#pragma once

#include <vector>

#include "base/types.h"

namespace solfec::body::fem {

// Node orderings follow geometry::MeshElement (manual Figure 4.1). Natural coordinates:
// TET4 r, s, t >= 0, r + s + t <= 1 (N = 1-r-s-t, r, s, t); WED6 triangle (r, s) x t in
// [-1, 1]; HEX8 and PYR5 (collapsed hexahedron, apex at zeta = 1) xi in [-1, 1]^3.
struct GaussPoint {
  Vec3 xi;
  double weight;
};

// Shape function values N (size num_nodes) and natural derivatives dN (num_nodes x 3).
void ShapeFunctions(int num_nodes, const Vec3& xi, VecX& N, MatX3& dN);

// Gauss rule exact for the element mass of an undistorted element: TET4 1 point (constant
// strain), WED6 1x2 (triangle centroid x 2-point line) -> 3x2, HEX8 2x2x2, PYR5 2x2x2 on the
// collapsed cube.
const std::vector<GaussPoint>& GaussRule(int num_nodes);

// Shape functions N and natural derivatives Nr, Ns of a boundary face of n = 3 or 4 nodes
// (CCW seen from outside) at (r, s): triangle N = (1 - r - s, r, s); quadrilateral bilinear
// on [-1, 1]^2 with the nodes at (-1, -1), (1, -1), (1, 1), (-1, 1).
void FaceShapeFunctions(int n, double r, double s, double* N, double* Nr, double* Ns);

// Natural coordinates of the element centre (the Newton start).
Vec3 NaturalCentre(int num_nodes);

// Distance-like measure of how far xi lies outside the reference element (0 inside).
double OutsideMeasure(int num_nodes, const Vec3& xi);

// A point of the reference element near xi (xi itself when inside): coordinates clipped to
// the element's bounds (TET4/WED6 triangle: negative coordinates zeroed, then scaled onto
// r + s (+ t) <= 1).
Vec3 ClampToElement(int num_nodes, const Vec3& xi);

// x d = sum_a x_a d_a^T for the 3 x k node matrix x and a k x 3 matrix of shape-function
// gradients d (the deformation gradient x dN/dX, the Jacobian X dN/dxi), summed node by node
// with its three columns in registers: Eigen's product of these dynamic sizes goes through a
// general kernel and memory (and a Mat3 accumulated in place stalls on partial stores).
inline Mat3 ElementGradient(const Eigen::Ref<const Mat3X>& x, const MatX3& d) {
  Vec3 c0 = Vec3::Zero(), c1 = Vec3::Zero(), c2 = Vec3::Zero();
  for (Eigen::Index a = 0; a < d.rows(); ++a) {
    const Vec3 xa = x.col(a);
    c0 += d(a, 0) * xa;
    c1 += d(a, 1) * xa;
    c2 += d(a, 2) * xa;
  }
  Mat3 g;
  g << c0, c1, c2;
  return g;
}

// Deformation gradient F = x dN (X dN)^-1 at natural coordinates xi of an element with
// referential nodes X and current nodes x (3 x num_nodes each).
Mat3 DeformationGradient(int num_nodes, const Vec3& xi, const Eigen::Ref<const Mat3X>& X,
                         const Eigen::Ref<const Mat3X>& x);

// Solves x(xi) = sum N_a(xi) x_a for xi by Newton (nodes = 3 x num_nodes); returns false when
// the Jacobian is singular or Newton does not converge in 30 iterations.
bool InverseMap(int num_nodes, const Eigen::Ref<const Mat3X>& nodes, const Vec3& x, Vec3& xi);

}  // namespace solfec::body::fem
