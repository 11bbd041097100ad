// Newton-Raphson closest-point projection on linear triangles and bilinear quadrilaterals.
#include "contact/face_projection.h"

#include <cmath>

namespace solfec::contact {

namespace {

constexpr double kCornerS[4] = {-1.0, 1.0, 1.0, -1.0};
constexpr double kCornerT[4] = {-1.0, -1.0, 1.0, 1.0};

// A face as a polynomial in (s, t): S = c + s e1 + t e2 + s t e12 (triangle: c = x0,
// e1 = x1 - x0, e2 = x2 - x0, e12 = 0; quadrilateral: the expansion of sum N_a x_a), set up
// once per projection so a Newton iteration costs a few vector updates.
struct FacePolynomial {
  Vec3 c, e1, e2, e12;
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

FaceProjection ProjectOnFace(const Vec3* x, int n, const Vec3& y, double tol) {
  FaceProjection p;
  double s = n == 3 ? 1.0 / 3.0 : 0.0, t = s;
  const FacePolynomial F(x, n);
  Vec3 S, Ss, St;
  const int max_iter = n == 3 ? 1 : 30;
  for (int k = 0; k < max_iter; ++k) {
    F.At(s, t, S, Ss, St);
    const Vec3 r = S - y;
    const double f1 = r.dot(Ss), f2 = r.dot(St);
    const double j11 = Ss.dot(Ss), j22 = St.dot(St), j12 = Ss.dot(St) + r.dot(F.e12);
    double det = j11 * j22 - j12 * j12;
    double ds, dt;
    const bool newton = det > 1e-14 * j11 * j22;
    if (!newton) {
      // Indefinite Jacobian (a point far from a strongly warped face): gradient step scaled
      // by the metric diagonal, which still decreases the distance.
      ds = f1 / j11;
      dt = f2 / j22;
    } else {
      ds = (j22 * f1 - j12 * f2) / det;
      dt = (j11 * f2 - j12 * f1) / det;
    }
    const double len = std::sqrt(ds * ds + dt * dt);
    if (len > 1.0) ds /= len, dt /= len;
    s -= ds;
    t -= dt;
    p.iterations = k + 1;
    // A Newton step converges quadratically: after one below 1e-8 the error is ~1e-16.
    if (len < 1e-14 || n == 3 || (newton && len < 1e-8)) {
      p.converged = true;
      break;
    }
  }
  F.At(s, t, S, Ss, St);
  p.s = s;
  p.t = t;
  p.point = S;
  const Vec3 nrm = Ss.cross(St);
  const double nn = nrm.norm();
  p.normal = nn > 0.0 ? Vec3(nrm / nn) : Vec3::UnitZ();
  p.gap = p.normal.dot(y - S);
  p.inside = n == 3 ? (s >= -tol && t >= -tol && s + t <= 1.0 + tol)
                    : (std::abs(s) <= 1.0 + tol && std::abs(t) <= 1.0 + tol);
  return p;
}

}  // namespace solfec::contact
