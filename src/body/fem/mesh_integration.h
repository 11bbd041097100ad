// Solfec-1.0's MESH methods volume_integration_points and surface_integration_points: the
// integration points of its element rules (fem.c) over a mesh, with their weights.
#pragma once

#include <optional>
#include <vector>

#include "base/types.h"
#include "geometry/mesh.h"

namespace solfec::body::fem {

struct IntegrationPoints {
  std::vector<Vec3> points;
  std::vector<double> weights;  // rule weight times the Jacobian (volume) or area factor
};

// Points and weights of Solfec-1.0's volume rules (tetrahedron: 4 points, order 2; pyramid:
// 2 x 2 Gauss in x, y scaled by 1 - z times the 2-point Gauss-Jacobi rule for (1 - z)^2 on
// its natural [0, 1] height; wedge: 3 triangle points times 2 Gauss points; hexahedron:
// 2 x 2 x 2 Gauss) over the elements of volume id `volid` (all without it): the elements
// with a boundary face first, then the others, each in element order, and each element's
// points in rule order, so that sum w f(x) integrates f.
IntegrationPoints VolumeIntegrationPoints(const geometry::Mesh& mesh, std::optional<int> volid);

// Likewise over the boundary faces (Mesh::BoundaryFaces order) of surface id `surfid` (all
// without it): triangles 1 point (the centroid), quadrilaterals 2 x 2 Gauss.
IntegrationPoints SurfaceIntegrationPoints(const geometry::Mesh& mesh, std::optional<int> surfid);

}  // namespace solfec::body::fem
