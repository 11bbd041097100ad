// Newton-Raphson closest-point projection on linear triangles and bilinear quadrilaterals.
#include "contact/face_projection.h"

#include <cmath>

namespace solfec::contact {

namespace {

constexpr double kCornerS[4] = {-1.0, 1.0, 1.0, -1.0};
constexpr double kCornerT[4] = {-1.0, -1.0, 1.0, 1.0};

// S, S_s, S_t and S_st of a face at (s, t).
void Surface(const Vec3* x, int n, double s, double t, Vec3& S, Vec3& Ss, Vec3& St, Vec3& Sst) {
  if (n == 3) {
    Ss = x[1] - x[0];
    St = x[2] - x[0];
    S = x[0] + s * Ss + t * St;
    Sst.setZero();
    return;
  }
  S.setZero();
  Ss.setZero();
  St.setZero();
  Sst.setZero();
  for (int a = 0; a < 4; ++a) {
    const double sa = kCornerS[a], ta = kCornerT[a];
    S += 0.25 * (1.0 + s * sa) * (1.0 + t * ta) * x[a];
    Ss += 0.25 * sa * (1.0 + t * ta) * x[a];
    St += 0.25 * ta * (1.0 + s * sa) * x[a];
    Sst += 0.25 * sa * ta * x[a];
  }
}

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
  Vec3 S, Ss, St, Sst;
  const int max_iter = n == 3 ? 1 : 30;
  for (int k = 0; k < max_iter; ++k) {
    Surface(x, n, s, t, S, Ss, St, Sst);
    const Vec3 r = S - y;
    const double f1 = r.dot(Ss), f2 = r.dot(St);
    const double j11 = Ss.dot(Ss), j22 = St.dot(St), j12 = Ss.dot(St) + r.dot(Sst);
    double det = j11 * j22 - j12 * j12;
    double ds, dt;
    if (!(det > 1e-14 * j11 * j22)) {
      // Indefinite Jacobian (a point far from a strongly warped face): gradient step scaled
      // by the metric diagonal, which still decreases the distance.
      ds = f1 / j11;
      dt = f2 / j22;
    } else {
      ds = (j22 * f1 - j12 * f2) / det;
      dt = (j11 * f2 - j12 * f1) / det;
    }
    const double len = std::hypot(ds, dt);
    if (len > 1.0) ds /= len, dt /= len;
    s -= ds;
    t -= dt;
    p.iterations = k + 1;
    if (len < 1e-14 || n == 3) {
      p.converged = true;
      break;
    }
  }
  Surface(x, n, s, t, S, Ss, St, Sst);
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
