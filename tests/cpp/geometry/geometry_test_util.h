// Small solids with known mass properties shared by the geometry tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/errors.h"
#include "geometry/convex.h"
#include "geometry/mesh.h"

namespace solfec::geometry::testing {

// Box [lo, hi] as a convex with faces in the manual's brick order and surface id `surfid`.
inline Convex MakeBox(const Vec3& lo, const Vec3& hi, int surfid = 1, int volid = 1) {
  Convex c;
  c.vertices = {{lo.x(), lo.y(), lo.z()}, {hi.x(), lo.y(), lo.z()}, {hi.x(), hi.y(), lo.z()},
                {lo.x(), hi.y(), lo.z()}, {lo.x(), lo.y(), hi.z()}, {hi.x(), lo.y(), hi.z()},
                {hi.x(), hi.y(), hi.z()}, {lo.x(), hi.y(), hi.z()}};
  const std::vector<std::vector<int>> faces = {{0, 3, 2, 1}, {1, 2, 6, 5}, {2, 3, 7, 6},
                                               {3, 0, 4, 7}, {0, 1, 5, 4}, {4, 5, 6, 7}};
  for (const auto& f : faces) c.faces.push_back(ConvexFace{f, surfid});
  c.volid = volid;
  return c;
}

inline Convex MakeUnitCube() { return MakeBox(Vec3::Zero(), Vec3::Ones()); }

// Tetrahedron (0, e1, e2, e3).
inline Convex MakeUnitTetra() {
  Convex c;
  c.vertices = {Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
  c.faces = {{{0, 2, 1}, 1}, {{0, 1, 3}, 2}, {{1, 2, 3}, 3}, {{2, 0, 3}, 4}};
  return c;
}

// Runs f, expects an InputError whose message contains every string in `parts`.
template <typename F>
void ExpectInputError(F f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no InputError thrown";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    for (const std::string& p : parts) {
      EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
  }
}

}  // namespace solfec::geometry::testing
