// The results file's constraint row and the constraint record (io/results_layout.h): the row
// stores every record field but U_prev, stroke and face1 (recomputed by each step before
// use), and the definition/state split of the file joins back to the same row.
#include <gtest/gtest.h>

#include "contact/constraint_record.h"
#include "io/results_layout.h"

namespace solfec::io {
namespace {

contact::ConstraintRecord Sample() {
  contact::ConstraintRecord r;
  r.id = 9;
  r.kind = contact::ConstraintKind::kRigidLink;
  r.body1 = 4;
  r.body2 = 11;
  r.source = contact::NodeFace{5, 1};  // node 5 on face 1: piece1 -3, piece2 -7 in the row
  r.surf1 = 5;
  r.surf2 = 8;
  r.X1 = Vec3(0.1, 0.2, 0.3);
  r.X2 = Vec3(-0.4, 0.5, -0.6);
  r.point = Vec3(1, 2, 3);
  r.point2 = Vec3(4, 5, 6);
  r.base = Eigen::AngleAxisd(0.7, Vec3(0, 1, 1).normalized()).toRotationMatrix();
  r.area = 0.25;
  r.gap = 1e-5;
  r.R = Vec3(7, 8, 9);
  r.U = Vec3(-1, -2, -3);
  r.merit = 3e-7;
  r.age = 99;
  r.cohesive = true;
  r.U_prev = Vec3(0.5, 0.5, 0.5);
  r.stroke = 0.125;
  r.face1.size = 3;
  return r;
}

TEST(ConstraintRow, StoredFieldsRoundTripThroughTheRowAndTheRestKeepTheirValues) {
  const contact::ConstraintRecord r = Sample();
  const ConstraintRow row = RowOfRecord(r);
  EXPECT_EQ(row.base[3], r.base(0, 1));  // column-wise, as docs/output.md
  EXPECT_EQ(row.piece1, -3);              // -2 - face, as docs/output.md
  EXPECT_EQ(row.piece2, -7);              // -2 - node
  contact::ConstraintRecord back;
  back.U_prev = Vec3(-8, -8, -8);
  back.stroke = -4.0;
  back.face1.size = 2;
  SetStoredFields(JoinConstraint(ConstraintDefOf(row), ConstraintStateOf(row)), back);
  EXPECT_EQ(back.id, r.id);
  EXPECT_EQ(back.kind, r.kind);
  EXPECT_EQ(back.body1, r.body1);
  EXPECT_EQ(back.body2, r.body2);
  EXPECT_EQ(back.source, r.source);
  EXPECT_EQ(back.surf1, r.surf1);
  EXPECT_EQ(back.surf2, r.surf2);
  EXPECT_EQ(back.X1, r.X1);
  EXPECT_EQ(back.X2, r.X2);
  EXPECT_EQ(back.point, r.point);
  EXPECT_EQ(back.point2, r.point2);
  EXPECT_EQ(back.base, r.base);
  EXPECT_EQ(back.area, r.area);
  EXPECT_EQ(back.gap, r.gap);
  EXPECT_EQ(back.R, r.R);
  EXPECT_EQ(back.U, r.U);
  EXPECT_EQ(back.merit, r.merit);
  EXPECT_EQ(back.age, r.age);
  EXPECT_EQ(back.cohesive, r.cohesive);
  // not stored: left as they were
  EXPECT_EQ(back.U_prev, Vec3(-8, -8, -8));
  EXPECT_EQ(back.stroke, -4.0);
  EXPECT_EQ(back.face1.size, 2);
}

}  // namespace
}  // namespace solfec::io
