// ContactManager: every contact of a domain is made and deleted by it, each with its source.
// A FINITE_ELEMENT cube (2 x 2 x 2 HEX8) above an OBSTACLE plate with NODE_TO_FACE: the
// node-face pairs of the search become contacts (source NodeFace: the slave node and the
// master face), kept with their ids and reactions while the node stays on the face and
// deleted when it leaves; a rigid cube resting on the same plate has overlap contacts
// (source PiecePair), which the node-to-face bookkeeping leaves alone, and OVERLAP deletes
// only the node-to-face ones.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "body/body_factory.h"
#include "body/box_shape.h"
#include "body/fe_mesh.h"
#include "body/fem/fe_body.h"
#include "contact/contact_test_shapes.h"
#include "domain/contact_manager.h"
#include "domain/domain.h"

namespace solfec::domain {
namespace {

using contact::Constraint;
using contact::IsNodeToFace;
using contact::NodeFace;
using contact::PiecePair;

material::BulkMaterial Mat() { return solfec::testing::ElasticMaterial(1e6, 0.3, 100.0); }

struct Scene {
  Domain d{Analysis::kDynamic, 1e-3};
  body::FeBody* cube = nullptr;  // unit cube [0, 1]^3 + (0, 0, z0), 27 nodes
  body::Body* plate = nullptr;   // [-1, 4] x [-1, 2] x [-0.5, 0], top face surfid 8
  body::Body* block = nullptr;   // rigid [2.5, 3]^2 x [0, 0.5] on the plate
  explicit Scene(double z0) {
    geometry::Shape p;
    p.convexes.push_back(contact::testing::Box(Vec3(-1, -1, -0.5), Vec3(4, 2, 0.0), 7));
    plate = &d.AddBody(body::MakeBody(body::BodyKind::kObstacle, p, Mat(), "plate"));
    cube = static_cast<body::FeBody*>(&d.AddBody(body::MakeBody(
        body::BodyKind::kFiniteElement,
        solfec::testing::HexMeshShape(Vec3(0, 0, z0), Vec3(1, 1, 1), 2, 2, 2), Mat(), "cube")));
    geometry::Shape b;
    b.convexes.push_back(contact::testing::Box(Vec3(2.5, 0, 0), Vec3(3, 0.5, 0.5), 20));
    block = &d.AddBody(body::MakeBody(body::BodyKind::kRigid, b, Mat(), "block"));
    cube->u_free() = VecX::Zero(cube->num_dofs());
    d.node_to_face().method = contact::ContactMethod::kNodeToFace;
    d.node_to_face().options.margin = 1e-4;
  }
  void SetCubeSpeed(double vz) {
    for (int i = 0; i < cube->num_nodes(); ++i) cube->u_free()[3 * i + 2] = vz;
  }
  void LiftCube(double dz) {
    for (int i = 0; i < cube->num_nodes(); ++i) cube->mutable_q()[3 * i + 2] += dz;
  }
  std::vector<const Constraint*> NodeFaceContacts() const {
    std::vector<const Constraint*> out;
    for (const Constraint& c : d.constraints())
      if (IsNodeToFace(c)) out.push_back(&c);
    return out;
  }
  std::vector<const Constraint*> PieceContacts() const {
    std::vector<const Constraint*> out;
    for (const Constraint& c : d.constraints())
      if (c.kind == contact::ConstraintKind::kContact && !IsNodeToFace(c)) out.push_back(&c);
    return out;
  }
};

TEST(ContactManager, MakesKeepsAndDeletesNodeToFaceContactsWithTheirNodeAndFace) {
  Scene s(0.001);  // 1 mm above the plate
  ContactManager m;
  m.Update(s.d);
  m.Detect(s.d);
  EXPECT_TRUE(s.NodeFaceContacts().empty());  // at rest: gap 1e-3 > margin
  // The block sits on the plate: overlap contacts between its bottom face and the plate's
  // top face, with their pieces (one convex each) as the source.
  const auto pieces = s.PieceContacts();
  ASSERT_FALSE(pieces.empty());
  for (const Constraint* c : pieces) {
    EXPECT_EQ(c->source, contact::ContactSource(PiecePair{0, 0}));
    EXPECT_EQ(c->body1, s.plate);  // the obstacle is the master
    EXPECT_EQ(c->body2, s.block);
  }
  const size_t npieces = pieces.size();

  // Falling at 2 m/s: crosses the 1 mm within h = 1 ms -> the 9 bottom nodes (z = 0.001),
  // each on the plate's top face (face 1 of the plate's surface: Box() faces -z, +z, ...).
  s.SetCubeSpeed(-2.0);
  m.Update(s.d);
  auto nf = s.NodeFaceContacts();
  ASSERT_EQ(nf.size(), 9u);
  std::set<Id> ids;
  std::set<int> nodes;
  for (const Constraint* c : nf) {
    const NodeFace& src = std::get<NodeFace>(c->source);
    EXPECT_EQ(c->body1, s.plate);
    EXPECT_EQ(c->body2, s.cube);
    EXPECT_EQ(src.face, 1);
    EXPECT_EQ(contact::SlaveNode(*c), src.node);
    // The source node is the slave point X2: a bottom node of the cube's mesh.
    EXPECT_EQ(c->X2, s.cube->mesh().nodes[src.node]);
    EXPECT_NEAR(c->X2.z(), 0.001, 1e-15);
    EXPECT_NEAR(c->gap, 1e-3, 1e-12);
    EXPECT_EQ(c->surf1, 8);  // the plate's top face: surf0 + 1
    EXPECT_EQ(c->age, 0);
    ids.insert(c->id);
    nodes.insert(src.node);
  }
  EXPECT_EQ(ids.size(), 9u);  // ids assigned by the domain, one each
  EXPECT_EQ(nodes.size(), 9u);
  EXPECT_EQ(s.PieceContacts().size(), npieces);

  // The same state again: the same contacts (ids, node and face) keep their reactions.
  for (Constraint& c : s.d.mutable_constraints())
    if (IsNodeToFace(c)) c.R = Vec3(0, 0, 5);
  m.Update(s.d);
  nf = s.NodeFaceContacts();
  ASSERT_EQ(nf.size(), 9u);
  for (const Constraint* c : nf) {
    EXPECT_TRUE(ids.count(c->id)) << c->id;
    EXPECT_EQ(c->age, 1);
    EXPECT_EQ(c->R.z(), 5.0);
  }

  // Lifted by 2e-4 at rest (gap 1.2e-3 > previous gap + margin): all nine deleted, the
  // block's contacts kept.
  s.SetCubeSpeed(0.0);
  s.LiftCube(2e-4);
  m.Update(s.d);
  EXPECT_TRUE(s.NodeFaceContacts().empty());
  EXPECT_EQ(s.PieceContacts().size(), npieces);

  // Approaching again: nine new contacts (new ids); then OVERLAP deletes them, and only them.
  s.SetCubeSpeed(-2.0);
  m.Update(s.d);
  nf = s.NodeFaceContacts();
  ASSERT_EQ(nf.size(), 9u);
  for (const Constraint* c : nf) {
    EXPECT_FALSE(ids.count(c->id)) << c->id;
    EXPECT_EQ(c->age, 0);
  }
  s.d.node_to_face().method = contact::ContactMethod::kOverlap;
  m.Update(s.d);
  EXPECT_TRUE(s.NodeFaceContacts().empty());
  EXPECT_EQ(s.PieceContacts().size(), npieces);
}

// A node sliding from one face of a FINITE_ELEMENT master to the next keeps its contact
// (same id, age + 1) with the new face as its source.
TEST(ContactManager, ANodeSlidingOntoTheNextFaceKeepsItsContactWithTheNewFace) {
  Domain d(Analysis::kDynamic, 1e-3);
  // Master: an FE slab [0, 2] x [0, 1] x [-0.5, 0] of 2 x 1 x 1 HEX8: top faces x < 1, x > 1.
  auto* slab = static_cast<body::FeBody*>(&d.AddBody(body::MakeBody(
      body::BodyKind::kFiniteElement,
      solfec::testing::HexMeshShape(Vec3(0, 0, -0.5), Vec3(2, 1, 0.5), 2, 1, 1), Mat(), "slab")));
  // Slave: a small FE cube [0.7, 0.9] x [0.4, 0.6] x [0.0005, 0.2005], one HEX8.
  auto* cube = static_cast<body::FeBody*>(&d.AddBody(body::MakeBody(
      body::BodyKind::kFiniteElement,
      solfec::testing::HexMeshShape(Vec3(0.7, 0.4, 0.0005), Vec3(0.2, 0.2, 0.2), 1, 1, 1), Mat(),
      "cube")));
  slab->u_free() = VecX::Zero(slab->num_dofs());
  cube->u_free() = VecX::Zero(cube->num_dofs());
  for (int i = 0; i < cube->num_nodes(); ++i) cube->u_free()[3 * i + 2] = -1.0;
  d.node_to_face().method = contact::ContactMethod::kNodeToFace;
  d.node_to_face().options.margin = 1e-4;
  ContactManager m;
  m.Update(d);
  // The cube's 4 bottom nodes on the slab's top face at x < 1 (the slab is also a slave of
  // the cube, but its nodes are not below the cube's faces).
  std::vector<const Constraint*> on_slab;
  for (const Constraint& c : d.constraints())
    if (IsNodeToFace(c) && c.body1 == slab) on_slab.push_back(&c);
  ASSERT_EQ(on_slab.size(), 4u);
  const int face0 = std::get<NodeFace>(on_slab[0]->source).face;
  for (const Constraint* c : on_slab) EXPECT_EQ(std::get<NodeFace>(c->source).face, face0);
  std::vector<Id> ids;
  for (const Constraint* c : on_slab) ids.push_back(c->id);

  // Slid by 0.4 along x: the nodes (x = 1.1, 1.3) are over the other top face.
  for (int i = 0; i < cube->num_nodes(); ++i) cube->mutable_q()[3 * i] += 0.4;
  m.Update(d);
  std::vector<const Constraint*> moved;
  for (const Constraint& c : d.constraints())
    if (IsNodeToFace(c) && c.body1 == slab) moved.push_back(&c);
  ASSERT_EQ(moved.size(), 4u);
  for (size_t i = 0; i < moved.size(); ++i) {
    EXPECT_EQ(moved[i]->id, ids[i]);
    EXPECT_EQ(moved[i]->age, 1);
    EXPECT_NE(std::get<NodeFace>(moved[i]->source).face, face0);
    EXPECT_NEAR(moved[i]->point.x(), moved[i]->X2.x() + 0.4, 1e-12);
  }
}

}  // namespace
}  // namespace solfec::domain
