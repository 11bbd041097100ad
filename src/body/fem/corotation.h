// Gross rotation of a deformed finite-element mesh (co-rotated reduced-order report, appendix A).
#pragma once

#include <utility>
#include <vector>

#include "base/types.h"
#include "geometry/mesh.h"

namespace solfec::body {

// The rotation Lambda of the rigid motion closest to current node coordinates x (3N): the
// minimiser of J = |h|^2 / 2 with (eq. 78)
//   h(x, Lambda) = int_Gamma0 skew[N] Lambda^T x dGamma0 = sum_a n_a x (Lambda^T x_a),
// n_a = int_Gamma0 N phi_a dGamma0 the area-weighted referential normal of boundary node a
// (phi_a its face shape function). h is the resultant infinitesimal rotation
// vec[int (grad d - grad d^T) dV] of the deformation d = x - Lambda X (eqs. 76-77); it does not
// depend on a translation of x (sum_a n_a = 0 on a closed surface) and vanishes for a rigid
// motion x = Lambda X + c. Update is the Gauss-Newton iteration of eqs. (80-83) with delta = 0.
class CorotationFit {
 public:
  CorotationFit() = default;
  // Integrates n_a over the boundary faces of the referential mesh (triangles: exact; bilinear
  // quadrilaterals: 2 x 2 Gauss points).
  explicit CorotationFit(const geometry::Mesh& mesh);

  // h(x, Lambda) of eq. (78).
  Vec3 Residual(const Eigen::Ref<const VecX>& x, const Mat3& Lambda) const;

  // Lambda_hat(x, Lambda0) = exp(Phi) Lambda0 (eq. 80), Gauss-Newton from Lambda0 until
  // |h| <= tolerance * sum_a |n_a| |x_a - x_c| (x_c the node centroid) or max_iterations;
  // the result is re-orthonormalised.
  Mat3 Update(const Eigen::Ref<const VecX>& x, const Mat3& Lambda0, double tolerance = 1e-12,
              int max_iterations = 20) const;

  // Boundary nodes with their area-weighted referential normals n_a.
  const std::vector<std::pair<int, Vec3>>& normals() const { return normals_; }

 private:
  std::vector<std::pair<int, Vec3>> normals_;
};

}  // namespace solfec::body
