// Self-contact of a FINITE_ELEMENT body: the contact manager pairs pieces of one body only
// with selfcontact on, never elements sharing a node, and maps each side into its own piece.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "body/box_shape.h"
#include "body/fem/fe_body.h"
#include "domain/contact_manager.h"
#include "domain/domain.h"

namespace solfec::domain {
namespace {

// U-shaped strip of 8 unit-ish HEX8 elements: base x in [0, 2.1], z in [0, 1]; arms
// x in [0, 1] and [1.1, 2.1] for z in [1, 3] (a 0.1 gap between them).
geometry::Shape UStrip() {
  const double xs[4] = {0.0, 1.0, 1.1, 2.1}, ys[2] = {0.0, 1.0}, zs[4] = {0.0, 1.0, 2.0, 3.0};
  geometry::Mesh m;
  std::map<std::tuple<int, int, int>, int> index;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 4; ++i) {
        index[{i, j, k}] = static_cast<int>(m.nodes.size());
        m.nodes.push_back(Vec3(xs[i], ys[j], zs[k]));
      }
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i) {
      if (i == 1 && k > 0) continue;
      geometry::MeshElement e;
      e.num_nodes = 8;
      const int c[4][2] = {{i, 0}, {i + 1, 0}, {i + 1, 1}, {i, 1}};
      for (int a = 0; a < 4; ++a) {
        e.nodes[a] = index[{c[a][0], c[a][1], k}];
        e.nodes[a + 4] = index[{c[a][0], c[a][1], k + 1}];
      }
      m.elements.push_back(e);
    }
  geometry::Shape s;
  s.meshes.push_back(m);
  return s;
}

material::BulkMaterial Mat() { return solfec::testing::ElasticMaterial(1e6, 0.3, 100.0); }

// The right arm's top nodes (z = 3) and middle nodes (z = 2) move by -0.15 in x: its top
// element overlaps the left arm's top element by 0.05.
int DetectBentStrip(bool selfcontact, std::vector<const contact::Constraint*>* out,
                    Domain* d) {
  auto body = std::make_unique<body::FeBody>(UStrip(), Mat(), "u");
  for (int i = 0; i < body->num_nodes(); ++i) {
    const Vec3 X = body->mesh().nodes[i];
    if (X.x() > 1.05 && X.z() > 1.5) body->mutable_q()[3 * i] -= 0.15;
  }
  body->UpdateShape();
  body->selfcontact = selfcontact;
  d->AddBody(std::move(body));
  ContactManager().Detect(*d);
  for (const auto& c : d->constraints()) out->push_back(&c);
  return static_cast<int>(out->size());
}

TEST(FeSelfContact, ArmsOfABentStripMeetOnlyWithSelfContactOn) {
  Domain off(Analysis::kDynamic, 1e-3);
  std::vector<const contact::Constraint*> none;
  EXPECT_EQ(DetectBentStrip(false, &none, &off), 0);

  Domain on(Analysis::kDynamic, 1e-3);
  std::vector<const contact::Constraint*> cons;
  ASSERT_GT(DetectBentStrip(true, &cons, &on), 0);
  for (const contact::Constraint* c : cons) {
    EXPECT_EQ(c->body1, c->body2);
    EXPECT_FALSE(c->body1->SelfContactExcluded(contact::Pieces(*c).piece1, contact::Pieces(*c).piece2));
    // Between the arms (z > 1, near the gap) and never between node-sharing elements.
    EXPECT_GT(c->point.z(), 1.0);
    // Each side maps back into its own piece (so H1 != H2): in the reference the two points
    // are apart by the arm shift, 0.15 (z - 1) >= 0.1 where the arms overlap, and both map
    // forward onto the contact point: exactly on the undeformed left arm; on the right arm
    // the field is affine per element layer with a kink of slope 0.15 at z = 2, and a
    // point extrapolated a few mm past that face from its own piece is evaluated in the
    // neighbouring layer: error < 0.15 x 5e-3 ~ 7.5e-4 (3.7e-4 measured).
    EXPECT_GT(std::abs(c->X1.x() - c->X2.x()), 0.09);
    const double e1 = (c->body1->SpatialPoint(c->X1) - c->point).norm();
    const double e2 = (c->body2->SpatialPoint(c->X2) - c->point).norm();
    EXPECT_LT(std::min(e1, e2), 1e-9);
    EXPECT_LT(std::max(e1, e2), 1e-3);
    // Overlap depth: 0.05 between the top elements, less where the lower element shears
    // (0 where pieces only touch: within GEOMETRIC_EPSILON they are in contact).
    EXPECT_LE(c->gap, 0.0);
    EXPECT_GT(c->gap, -0.05 - 1e-9);
  }
}

}  // namespace
}  // namespace solfec::domain
