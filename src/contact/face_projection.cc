// Newton-Raphson closest-point projection on linear triangles and bilinear quadrilaterals.
#include "contact/face_projection.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace solfec::contact {

namespace {

constexpr double kCornerS[4] = {-1.0, 1.0, 1.0, -1.0};
constexpr double kCornerT[4] = {-1.0, -1.0, 1.0, 1.0};

// The least double x with sqrt(x) >= c. sqrt is correctly rounded, hence monotone, so
// sqrt(x) < c exactly when x < LeastSquareReaching(c): the same decision without the root.
double LeastSquareReaching(double c) {
  const double inf = std::numeric_limits<double>::infinity();
  double x = c * c;
  while (std::sqrt(x) < c) x = std::nextafter(x, inf);
  for (double below = std::nextafter(x, 0.0); std::sqrt(below) >= c;
       below = std::nextafter(x, 0.0))
    x = below;
  return x;
}
const double kStep2Converged = LeastSquareReaching(1e-14);
const double kStep2Newton = LeastSquareReaching(1e-8);

// A face as a polynomial in (s, t): S = c + s e1 + t e2 + s t e12 (triangle: c = x0,
// e1 = x1 - x0, e2 = x2 - x0, e12 = 0; quadrilateral: the expansion of sum N_a x_a), set up
// once per projection so a Newton iteration costs a few vector updates.
struct FacePolynomial {
  Vec3 c, e1, e2, e12;
  FacePolynomial() = default;
  FacePolynomial(const Vec3* x, int n) {
    if (n == 3) {
      c = x[0];
      e1 = x[1] - x[0];
      e2 = x[2] - x[0];
      e12.setZero();
      return;
    }
    c = 0.25 * (x[0] + x[1] + x[2] + x[3]);
    e1 = 0.25 * (x[1] + x[2] - x[0] - x[3]);
    e2 = 0.25 * (x[2] + x[3] - x[0] - x[1]);
    e12 = 0.25 * (x[0] + x[2] - x[1] - x[3]);
  }
  // S, S_s, S_t at (s, t); S_st = e12.
  void At(double s, double t, Vec3& S, Vec3& Ss, Vec3& St) const {
    Ss = e1 + t * e12;
    St = e2 + s * e12;
    S = c + s * e1 + t * St;  // = c + s e1 + t e2 + s t e12
  }
};

}  // namespace

void FaceShapeFunctions(int n, double s, double t, double* N) {
  if (n == 3) {
    N[0] = 1.0 - s - t;
    N[1] = s;
    N[2] = t;
    return;
  }
  for (int a = 0; a < 4; ++a) N[a] = 0.25 * (1.0 + s * kCornerS[a]) * (1.0 + t * kCornerT[a]);
}

namespace {

// ProjectOnFaces for count <= kProjectionLanes.
void ProjectLanes(int count, const Vec3 (*x)[4], const int* n, const Vec3* y,
                  FaceProjection* out, double tol) {
  // Each lane is the Newton iteration of one projection: a chain of dependent products and
  // divisions. The lanes' iterations are computed side by side (all lanes every round, kept
  // by the active ones), so the CPU overlaps the chains; every lane takes the operations of
  // a projection of its own, so the results do not depend on the batch.
  FacePolynomial F[kProjectionLanes];
  double s[kProjectionLanes], t[kProjectionLanes];
  bool active[kProjectionLanes];
  for (int l = 0; l < count; ++l) {
    F[l] = FacePolynomial(x[l], n[l]);
    s[l] = t[l] = n[l] == 3 ? 1.0 / 3.0 : 0.0;
    active[l] = true;
    out[l] = FaceProjection();
  }
  Vec3 S, Ss, St;
  // A triangle stops after its first (exact) step; a quadrilateral after at most 30.
  for (int k = 0; k < 30; ++k) {
    bool any = false;
    for (int l = 0; l < count; ++l) {
      F[l].At(s[l], t[l], S, Ss, St);
      const Vec3 r = S - y[l];
      const double f1 = r.dot(Ss), f2 = r.dot(St);
      const double j11 = Ss.dot(Ss), j22 = St.dot(St), j12 = Ss.dot(St) + r.dot(F[l].e12);
      const double det = j11 * j22 - j12 * j12;
      double ds, dt;
      const bool newton = det > 1e-14 * j11 * j22;
      if (!newton) {
        // Indefinite Jacobian (a point far from a strongly warped face): gradient step
        // scaled by the metric diagonal, which still decreases the distance.
        ds = f1 / j11;
        dt = f2 / j22;
      } else {
        ds = (j22 * f1 - j12 * f2) / det;
        dt = (j11 * f2 - j12 * f1) / det;
      }
      // Steps longer than 1 are scaled to length 1. The root is taken for those only: the
      // decisions compare the squared length with the squared bounds' exact thresholds (for
      // len2 in (1, 1 + 2^-52] the root rounds to 1 and the scaling leaves the step).
      const double len2 = ds * ds + dt * dt;
      if (len2 > 1.0) {
        const double len = std::sqrt(len2);
        ds /= len, dt /= len;
      }
      // A Newton step converges quadratically: after one below 1e-8 the error is ~1e-16.
      const bool stop = len2 < kStep2Converged || n[l] == 3 || (newton && len2 < kStep2Newton);
      const bool on = active[l];
      s[l] = on ? s[l] - ds : s[l];
      t[l] = on ? t[l] - dt : t[l];
      out[l].iterations += on;
      out[l].converged = out[l].converged || (on && stop);
      active[l] = on && !stop;
      any = any || active[l];
    }
    if (!any) break;
  }
  for (int l = 0; l < count; ++l) {
    FaceProjection& p = out[l];
    F[l].At(s[l], t[l], S, Ss, St);
    p.s = s[l];
    p.t = t[l];
    p.point = S;
    const Vec3 nrm = Ss.cross(St);
    const double nn = nrm.norm();
    p.normal = nn > 0.0 ? Vec3(nrm / nn) : Vec3::UnitZ();
    p.gap = p.normal.dot(y[l] - S);
    p.inside = n[l] == 3 ? (s[l] >= -tol && t[l] >= -tol && s[l] + t[l] <= 1.0 + tol)
                         : (std::abs(s[l]) <= 1.0 + tol && std::abs(t[l]) <= 1.0 + tol);
  }
}

}  // namespace

void ProjectOnFaces(int count, const Vec3 (*x)[4], const int* n, const Vec3* y,
                    FaceProjection* out, double tol) {
  for (int first = 0; first < count; first += kProjectionLanes)
    ProjectLanes(std::min(kProjectionLanes, count - first), x + first, n + first, y + first,
                 out + first, tol);
}

FaceProjection ProjectOnFace(const Vec3* x, int n, const Vec3& y, double tol) {
  Vec3 face[1][4];
  for (int a = 0; a < n; ++a) face[0][a] = x[a];
  FaceProjection p;
  ProjectOnFaces(1, face, &n, &y, &p, tol);
  return p;
}

}  // namespace solfec::contact
