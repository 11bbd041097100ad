// A body's geometry: a collection of convexes, spheres and meshes, with shape operations
// of manual 4.1/4.4 (TRANSLATE, ROTATE, SCALE, SPLIT, MASS_CENTER, COPY is a value copy).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/types.h"
#include "geometry/aabb.h"
#include "geometry/convex.h"
#include "geometry/ellipsoid.h"
#include "geometry/mass_properties.h"
#include "geometry/mesh.h"
#include "geometry/sphere.h"

namespace solfec::geometry {

struct Shape {
  std::vector<Convex> convexes;
  std::vector<Sphere> spheres;
  std::vector<Mesh> meshes;
  std::vector<Ellipsoid> ellipsoids;  // ELLIP; contact pieces after convexes and spheres

  bool empty() const {
    return convexes.empty() && spheres.empty() && meshes.empty() && ellipsoids.empty();
  }
  // Appends o's pieces (convex neighbor indices are shifted).
  void Append(Shape o);

  Aabb Bounds() const;
  MassProperties ComputeMassProperties() const;

  // x -> A x + t on every piece (sphere radii scale by |det A|^(1/3) only for uniform A;
  // non-uniform scaling of a sphere throws InputError naming `routine`; ellipsoids take any
// invertible A).
  void Transform(const Mat3& A, const Vec3& t, const std::string& routine = "TRANSFORM");
  void Translate(const Vec3& v);
  // Rotation about the axis through `point` along `axis` by `degrees` (right-hand rule).
  void Rotate(const Vec3& point, const Vec3& axis, double degrees);
  void Scale(const Vec3& coefs);
};

// Splits convexes and spheres by the plane through `point` with `normal` (manual SPLIT):
// returns (below, above). Cut faces get surfid.first on the below part and surfid.second on
// the above part. A sphere or an ellipsoid goes wholly to the side of its centre (Solfec-1.0
// does not cut ellipsoids either). Meshes throw InputError.
std::pair<Shape, Shape> Split(Shape shape, const Vec3& point, const Vec3& normal,
                              std::pair<int, int> surfids = {0, 0});

// Convex hull of points (qhull); throws InputError naming `routine` for < 4 points or a
// flat/degenerate point set.
Convex Hull(const std::vector<Vec3>& points, int volid, int surfid,
            const std::string& routine = "HULL");

// HEX: structured hexahedral mesh spanned on 8 corner nodes (manual ordering) with i x j x k
// subdivisions, optional grading lists dx, dy, dz (normalised ratios), and six surface ids
// in Solfec-1.0's order (msh.c, MESH_Hex): (0,3,2,1) local z-min, (3,0,4,7) x-min,
// (2,3,7,6) y-max, (1,2,6,5) x-max, (0,1,5,4) y-min, (4,5,6,7) z-max.
Mesh Hex(const std::vector<Vec3>& corners, int i, int j, int k, int volid,
         const std::vector<int>& surfids, const std::vector<double>& dx = {},
         const std::vector<double>& dy = {}, const std::vector<double>& dz = {});

}  // namespace solfec::geometry
