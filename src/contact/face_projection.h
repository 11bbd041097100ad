// Closest-point projection of a point onto a triangle or a bilinear quadrilateral in the
// face's isoparametric space (paper eqs. 47-49): natural coordinates, point, normal, gap.
#pragma once

#include "base/types.h"

namespace solfec::contact {

// Natural coordinates: triangle S = (1 - s - t) x0 + s x1 + t x2, inside iff s, t >= 0 and
// s + t <= 1; quadrilateral S = sum N_a(s, t) x_a with N_a = (1 + s s_a)(1 + t t_a) / 4 on
// the corners (s_a, t_a) = (-1,-1), (1,-1), (1,1), (-1,1), inside iff |s|, |t| <= 1. Vertices
// are counter-clockwise seen from outside, so the normal S_s x S_t points outwards.
struct FaceProjection {
  double s = 0.0, t = 0.0;     // natural coordinates of the closest point
  Vec3 point = Vec3::Zero();   // S(s, t)
  Vec3 normal = Vec3::UnitZ(); // unit outward normal at S(s, t)
  double gap = 0.0;            // normal . (y - point): > 0 outside, < 0 penetration
  bool inside = false;         // (s, t) within the face (with the tolerance)
  bool converged = false;      // Newton converged (always true for triangles)
  int iterations = 0;
};

// Projection of y on the face with `n` (3 or 4) vertices x: Newton-Raphson on
// F(s, t) = [(S - y) . S_s, (S - y) . S_t] = 0 (eq. 48) with the exact Jacobian
// J = [[S_s.S_s, S_s.S_t + (S - y).S_st], [sym., S_t.S_t]] (eq. 49; S_ss = S_tt = 0 for the
// bilinear map) from the face centre, at most 30 iterations, steps limited to length 1 in
// the natural plane, stopping once |dX| < 1e-14, or after a Newton step below 1e-8 (quadratic
// convergence: the error left is ~1e-16); a triangle is solved in one step. `tol` is
// the tolerance of the inside test in natural coordinates.
FaceProjection ProjectOnFace(const Vec3* x, int n, const Vec3& y, double tol = 1e-9);

// count projections, kProjectionLanes at a time: out[i] = ProjectOnFace(x[i], n[i], y[i],
// tol), the same values bit for bit, in less time than one by one (the Newton iterations of
// a group are computed side by side, so the CPU overlaps them).
constexpr int kProjectionLanes = 4;
void ProjectOnFaces(int count, const Vec3 (*x)[4], const int* n, const Vec3* y,
                    FaceProjection* out, double tol = 1e-9);

// Shape functions of the face at (s, t) (3 or 4 values).
void FaceShapeFunctions(int n, double s, double t, double* N);

}  // namespace solfec::contact
