// Constraint record codec (contact/constraint_record.h): the flat form that MPI migration
// sends carries every named field of the record, and SetIdentityAndState / SetState put them
// back into a constraint.
#include "contact/constraint_record.h"

#include <gtest/gtest.h>

#include <vector>

#include "body/body_factory.h"
#include "body/box_shape.h"

namespace solfec::contact {
namespace {

// Every field distinct and off its default, so that a field written to the wrong slot or
// dropped shows.
Constraint Sample(body::Body* b1, body::Body* b2) {
  Constraint c;
  c.id = 41;
  c.kind = ConstraintKind::kContact;
  c.body1 = b1;
  c.body2 = b2;
  c.X1 = Vec3(0.1, 0.2, 0.3);
  c.X2 = Vec3(0.4, 0.5, 0.6);
  c.source = NodeFace{7, 3};  // slave node 7 on master face 3
  c.face1.size = 4;
  c.face1.nodes = {3, 8, 13, 21};
  c.face1.weights = {0.1, 0.2, 0.3, 0.4};
  c.point = Vec3(1.1, 1.2, 1.3);
  c.point2 = Vec3(1.4, 1.5, 1.6);
  c.base = Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  c.area = 0.07;
  c.gap = -1.5e-4;
  c.R = Vec3(10.0, -20.0, 300.0);
  c.U = Vec3(-0.01, 0.02, -0.03);
  c.U_prev = Vec3(0.04, -0.05, 0.06);
  c.merit = 1e-9;
  c.age = 17;
  c.surf1 = 2;
  c.surf2 = 6;
  c.cohesive = true;
  c.stroke = 0.0025;
  return c;
}

void ExpectSameRecord(const ConstraintRecord& a, const ConstraintRecord& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.body1, b.body1);
  EXPECT_EQ(a.body2, b.body2);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.surf1, b.surf1);
  EXPECT_EQ(a.surf2, b.surf2);
  EXPECT_EQ(a.X1, b.X1);
  EXPECT_EQ(a.X2, b.X2);
  EXPECT_EQ(a.face1.size, b.face1.size);
  EXPECT_EQ(a.face1.nodes, b.face1.nodes);
  EXPECT_EQ(a.face1.weights, b.face1.weights);
  EXPECT_EQ(a.point, b.point);
  EXPECT_EQ(a.point2, b.point2);
  EXPECT_EQ(a.base, b.base);
  EXPECT_EQ(a.area, b.area);
  EXPECT_EQ(a.gap, b.gap);
  EXPECT_EQ(a.R, b.R);
  EXPECT_EQ(a.U, b.U);
  EXPECT_EQ(a.U_prev, b.U_prev);
  EXPECT_EQ(a.merit, b.merit);
  EXPECT_EQ(a.age, b.age);
  EXPECT_EQ(a.cohesive, b.cohesive);
  EXPECT_EQ(a.stroke, b.stroke);
}

TEST(ConstraintRecord, FlatFormCarriesEveryFieldAndRebuildsTheConstraint) {
  auto b1 = body::MakeBody(body::BodyKind::kRigid, testing::BoxShape(Vec3::Zero(), Vec3(1, 1, 1)),
                           testing::Material(1.0), "a");
  auto b2 = body::MakeBody(body::BodyKind::kRigid, testing::BoxShape(Vec3::Zero(), Vec3(1, 1, 1)),
                           testing::Material(1.0), "b");
  b1->set_id(3);
  b2->set_id(12);
  const Constraint c = Sample(b1.get(), b2.get());
  const ConstraintRecord r = RecordOf(c);
  EXPECT_EQ(r.body1, 3);
  EXPECT_EQ(r.body2, 12);
  std::vector<double> flat;
  AppendFlatRecord(r, flat);
  AppendFlatRecord(r, flat);  // records follow each other at a fixed stride
  ASSERT_EQ(flat.size(), 2u * kFlatConstraintSize);
  ExpectSameRecord(ReadFlatRecord(flat.data()), r);
  ExpectSameRecord(ReadFlatRecord(flat.data() + kFlatConstraintSize), r);

  Constraint back;
  SetIdentityAndState(ReadFlatRecord(flat.data()), b1.get(), b2.get(), back);
  EXPECT_EQ(back.body1, b1.get());
  EXPECT_EQ(back.body2, b2.get());
  ExpectSameRecord(RecordOf(back), r);
}

// The results file's piece1/piece2 columns (docs/output.md): a piece pair as it is, a
// node-face pair as -2 - face, -2 - node; both read back to the same source.
TEST(ConstraintRecord, SourceColumnsAreThoseOfTheResultsFileAndReadBack) {
  const SourceColumns nf = ColumnsOf(NodeFace{3, 7});
  EXPECT_EQ(nf.piece1, -9);
  EXPECT_EQ(nf.piece2, -5);
  EXPECT_EQ(SourceOfColumns(nf.piece1, nf.piece2), ContactSource(NodeFace{3, 7}));
  const SourceColumns node0 = ColumnsOf(NodeFace{0, 0});  // -2, -2: not a piece pair
  EXPECT_EQ(SourceOfColumns(node0.piece1, node0.piece2), ContactSource(NodeFace{0, 0}));
  const SourceColumns pp = ColumnsOf(PiecePair{4, 0});
  EXPECT_EQ(pp.piece1, 4);
  EXPECT_EQ(pp.piece2, 0);
  EXPECT_EQ(SourceOfColumns(4, 0), ContactSource(PiecePair{4, 0}));
  EXPECT_EQ(SourceOfColumns(-1, -1), ContactSource(PiecePair{}));  // user constraints
}

TEST(ConstraintRecord, SetStateLeavesTheIdentityAndTheDeckFields) {
  Constraint user;
  user.id = 5;
  user.kind = ConstraintKind::kSpring;
  user.X1 = Vec3(7, 8, 9);
  user.source = PiecePair{2, -1};
  user.strength = 42.0;
  user.spring_length0 = 0.75;
  ConstraintRecord r = RecordOf(Sample(nullptr, nullptr));
  SetState(r, user);
  EXPECT_EQ(user.id, 5);
  EXPECT_EQ(user.kind, ConstraintKind::kSpring);
  EXPECT_EQ(user.X1, Vec3(7, 8, 9));
  EXPECT_EQ(Pieces(user).piece1, 2);
  EXPECT_EQ(user.strength, 42.0);
  EXPECT_EQ(user.spring_length0, 0.75);
  EXPECT_EQ(user.R, r.R);
  EXPECT_EQ(user.U_prev, r.U_prev);
  EXPECT_EQ(user.stroke, r.stroke);
  EXPECT_EQ(user.age, r.age);
  EXPECT_EQ(user.cohesive, r.cohesive);
}

}  // namespace
}  // namespace solfec::contact
