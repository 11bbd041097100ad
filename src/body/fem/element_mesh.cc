// ElementMesh: a referential mesh evaluating node-coordinate fields (no body).
#include "body/fem/element_mesh.h"

#include <string>
#include <utility>

#include "base/errors.h"

namespace solfec::body::fem {

ElementMesh::ElementMesh(std::vector<Vec3> nodes, std::vector<geometry::MeshElement> elements,
                         const char* routine)
    : nodes_(std::move(nodes)), elements_(std::move(elements)) {
  const std::string r = routine;
  if (elements_.empty()) throw InputError(r + ": the mesh has no elements");
  std::vector<geometry::Aabb> boxes(elements_.size());
  for (size_t e = 0; e < elements_.size(); ++e) {
    const geometry::MeshElement& me = elements_[e];
    if (me.num_nodes != 4 && me.num_nodes != 5 && me.num_nodes != 6 && me.num_nodes != 8)
      throw InputError(r + ": element " + std::to_string(e) + " has " +
                       std::to_string(me.num_nodes) + " nodes; use 4, 5, 6 or 8");
    for (int a = 0; a < me.num_nodes; ++a) {
      const int n = me.nodes[a];
      if (n < 0 || n >= num_nodes())
        throw InputError(r + ": element " + std::to_string(e) + " has node index " +
                         std::to_string(n) + " out of range [0, " + std::to_string(num_nodes()) +
                         ")");
      boxes[e].Extend(nodes_[n]);
    }
    // as FeBody's referential element boxes
    boxes[e].Inflate(0.05 * (boxes[e].hi - boxes[e].lo).norm());
  }
  tree_.Build(boxes);
}

void ElementMesh::FillNodes(int e, const Eigen::Ref<const Mat3X>* x, Eigen::Ref<Mat3X> out) const {
  const geometry::MeshElement& me = elements_[e];
  for (int a = 0; a < me.num_nodes; ++a)
    out.col(a) = x ? Vec3(x->col(me.nodes[a])) : nodes_[me.nodes[a]];
}

void ElementMesh::Locate(const Vec3& X, int& element, Vec3& xi) const {
  LocateInTree(
      tree_, [this](int e) { return elements_[e].num_nodes; },
      [this](int e, Eigen::Ref<Mat3X> out) { FillNodes(e, nullptr, out); }, X, element, xi);
}

Vec3 ElementMesh::Interpolate(int e, const Vec3& xi, const Eigen::Ref<const Mat3X>& v) const {
  const geometry::MeshElement& me = elements_[e];
  VecX N;
  MatX3 dN;
  ShapeFunctions(me.num_nodes, xi, N, dN);
  Vec3 out = Vec3::Zero();
  for (int a = 0; a < me.num_nodes; ++a) out += N[a] * v.col(me.nodes[a]);
  return out;
}

Mat3 ElementMesh::DeformationGradient(int e, const Vec3& xi,
                                      const Eigen::Ref<const Mat3X>& x) const {
  const int k = elements_[e].num_nodes;
  Mat3X X0(3, k), x0(3, k);
  FillNodes(e, nullptr, X0);
  FillNodes(e, &x, x0);
  return fem::DeformationGradient(k, xi, X0, x0);
}

std::vector<Mat3> ElementMesh::CentreGradients(const Eigen::Ref<const Mat3X>& x) const {
  std::vector<Mat3> F(elements_.size());
  for (int e = 0; e < num_elements(); ++e)
    F[e] = DeformationGradient(e, NaturalCentre(elements_[e].num_nodes), x);
  return F;
}

}  // namespace solfec::body::fem
