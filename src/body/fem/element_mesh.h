// Point location and field evaluation on a mesh of first-order elements: the search FeBody
// uses, and ElementMesh, a referential mesh without a body that evaluates a frame's node
// coordinates (results files, READ mode, XDMF export, the viewer).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "base/types.h"
#include "body/fem/element_tree.h"
#include "body/fem/elements.h"
#include "geometry/mesh.h"

namespace solfec::body::fem {

// The element of point p and p's natural coordinates there: among the elements whose box
// (`tree`) holds p, in index order, the first whose map holds p (OutsideMeasure 0), else the
// one p lies least outside of if that is below 0.5, else also the element of the nearest box
// (kept when no inverse map succeeds). num_nodes(e) is element e's node count and
// fill(e, x) puts its node coordinates into x (3 x count).
template <class NumNodes, class Fill>
void LocateInTree(const ElementTree& tree, NumNodes num_nodes, Fill fill, const Vec3& p,
                  int& element, Vec3& xi) {
  double best = std::numeric_limits<double>::infinity();
  element = 0;
  xi = NaturalCentre(num_nodes(0));
  // Every contact point is located every step: scratch kept between calls (no allocation).
  Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, 8> x;  // elements have at most 8 nodes
  thread_local std::vector<int> candidates;
  auto consider = [&](int e) {
    const int k = num_nodes(e);
    x.resize(3, k);
    fill(e, x);
    Vec3 z;
    if (!InverseMap(k, x, p, z)) return;
    const double m = OutsideMeasure(k, z);
    if (m < best) best = m, element = e, xi = z;
  };
  candidates.clear();
  tree.Query(p, candidates);
  std::sort(candidates.begin(), candidates.end());  // lowest index wins ties
  for (int e : candidates) {
    consider(e);
    if (best <= 0.0) return;
  }
  if (best < 0.5) return;
  // Outside every element box (a contact point off the surface, a far load): also try the
  // element with the nearest box.
  const int nearest = std::max(tree.Nearest(p), 0);
  consider(nearest);
  if (!std::isfinite(best)) element = nearest;
}

// A referential mesh (nodes X_a, elements of 4, 5, 6 or 8 nodes) evaluating fields of
// current node coordinates x (3 x N, the node order of the mesh): x(X) = sum N_a x_a and
// F = sum x_a (dN_a/dX)^T on the element located as FeBody locates referential points.
class ElementMesh {
 public:
  // Throws InputError naming `routine` for an element size other than 4, 5, 6, 8 or a node
  // index out of range.
  ElementMesh(std::vector<Vec3> nodes, std::vector<geometry::MeshElement> elements,
              const char* routine = "FeMesh");

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  int num_elements() const { return static_cast<int>(elements_.size()); }
  const std::vector<Vec3>& nodes() const { return nodes_; }
  const geometry::MeshElement& element(int e) const { return elements_[e]; }

  // The element of referential point X and its natural coordinates there.
  void Locate(const Vec3& X, int& element, Vec3& xi) const;
  // sum N_a(xi) v_a over element e's nodes of a nodal field v (3 x N): positions, velocities.
  Vec3 Interpolate(int e, const Vec3& xi, const Eigen::Ref<const Mat3X>& v) const;
  // Deformation gradient of element e at xi for current node coordinates x (3 x N).
  Mat3 DeformationGradient(int e, const Vec3& xi, const Eigen::Ref<const Mat3X>& x) const;
  // DeformationGradient at every element's natural centre.
  std::vector<Mat3> CentreGradients(const Eigen::Ref<const Mat3X>& x) const;

 private:
  void FillNodes(int e, const Eigen::Ref<const Mat3X>* x, Eigen::Ref<Mat3X> out) const;

  std::vector<Vec3> nodes_;
  std::vector<geometry::MeshElement> elements_;
  ElementTree tree_;
};

}  // namespace solfec::body::fem
