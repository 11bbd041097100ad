// HDF5 compound types for the result records (field names as in docs/output.md).
#include "io/results_layout.h"

#include <algorithm>

namespace solfec::io {

namespace {

hid_t Array(hid_t base, hsize_t n) { return H5Tarray_create2(base, 1, &n); }

#define F(T, field, type) H5Tinsert(t, #field, HOFFSET(T, field), type)
#define A(T, field, type, n) H5Tinsert(t, #field, HOFFSET(T, field), Array(type, n))

hid_t FrameType() {
  using T = FrameRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t d = H5T_NATIVE_DOUBLE, l = H5T_NATIVE_INT64, i = H5T_NATIVE_INT32;
  F(T, time, d), F(T, step, d), F(T, step_count, l), F(T, body_start, l), F(T, body_count, l);
  F(T, q_start, l), F(T, q_count, l), F(T, u_start, l), F(T, u_count, l);
  F(T, con_start, l), F(T, con_count, l), F(T, def_count, l), F(T, next_constraint_id, l);
  F(T, newbods, i), F(T, delbods, i), F(T, gsiters, i), F(T, converged, i), F(T, merit, d);
  A(T, timing, d, 6), A(T, energy, d, 5);
  return t;
}

hid_t BodyStateType() {
  using T = BodyStateRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  F(T, id, H5T_NATIVE_INT64), A(T, energy, H5T_NATIVE_DOUBLE, 5);
  return t;
}

hid_t ConstraintDefType() {
  using T = ConstraintDefRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t l = H5T_NATIVE_INT64, i = H5T_NATIVE_INT32;
  F(T, id, l), F(T, kind, i), F(T, cohesive, i), F(T, body1, l), F(T, body2, l);
  F(T, surf1, i), F(T, surf2, i), F(T, piece1, i), F(T, piece2, i), F(T, first_frame, l);
  return t;
}

hid_t ConstraintStateType() {
  using T = ConstraintStateRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t d = H5T_NATIVE_DOUBLE;
  F(T, def, H5T_NATIVE_INT64), F(T, age, H5T_NATIVE_INT32);
  A(T, point, d, 3), A(T, point2, d, 3), A(T, base, d, 9), A(T, R, d, 3), A(T, U, d, 3);
  F(T, gap, d), F(T, area, d), F(T, merit, d), A(T, X1, d, 3), A(T, X2, d, 3);
  return t;
}

hid_t BodyDefType() {
  using T = BodyDefRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t d = H5T_NATIVE_DOUBLE, l = H5T_NATIVE_INT64, i = H5T_NATIVE_INT32;
  F(T, id, l), F(T, kind, i), F(T, nq, i), F(T, nu, i), F(T, model, i), F(T, first_frame, l);
  F(T, mass, d), F(T, volume, d), A(T, center, d, 3), A(T, tensor, d, 9);
  F(T, young, d), F(T, poisson, d), F(T, density, d);
  F(T, label_start, l), F(T, label_len, l), F(T, material_start, l), F(T, material_len, l);
  F(T, convex_start, l), F(T, convex_count, l), F(T, sphere_start, l), F(T, sphere_count, l);
  F(T, mesh_start, l), F(T, mesh_count, l), F(T, ellipsoid_start, l), F(T, ellipsoid_count, l);
  return t;
}

hid_t ConvexType() {
  using T = ConvexRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t l = H5T_NATIVE_INT64;
  F(T, body, l), F(T, volid, H5T_NATIVE_INT32), F(T, vertex_start, l), F(T, vertex_count, l);
  F(T, face_start, l), F(T, face_count, l);
  return t;
}

hid_t FaceType() {
  using T = FaceRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  F(T, index_start, H5T_NATIVE_INT64), F(T, index_count, H5T_NATIVE_INT32);
  F(T, surfid, H5T_NATIVE_INT32);
  return t;
}

hid_t SphereType() {
  using T = SphereRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  F(T, body, H5T_NATIVE_INT64), A(T, center, H5T_NATIVE_DOUBLE, 3);
  F(T, radius, H5T_NATIVE_DOUBLE), F(T, volid, H5T_NATIVE_INT32), F(T, surfid, H5T_NATIVE_INT32);
  return t;
}

hid_t EllipsoidType() {
  using T = EllipsoidRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t d = H5T_NATIVE_DOUBLE;
  F(T, body, H5T_NATIVE_INT64), A(T, center, d, 3), A(T, radii, d, 3), A(T, rot, d, 9);
  F(T, volid, H5T_NATIVE_INT32), F(T, surfid, H5T_NATIVE_INT32);
  return t;
}

hid_t MeshType() {
  using T = MeshRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t l = H5T_NATIVE_INT64;
  F(T, body, l), F(T, node_start, l), F(T, node_count, l), F(T, element_start, l);
  F(T, element_count, l), F(T, face_start, l), F(T, face_count, l);
  F(T, default_surfid, H5T_NATIVE_INT32);
  return t;
}

hid_t MeshElementType() {
  using T = MeshElementRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  F(T, num_nodes, H5T_NATIVE_INT32), A(T, nodes, H5T_NATIVE_INT32, 8);
  F(T, volid, H5T_NATIVE_INT32);
  return t;
}

hid_t MeshFaceType() {
  using T = MeshFaceRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  F(T, num_nodes, H5T_NATIVE_INT32), A(T, nodes, H5T_NATIVE_INT32, 4);
  F(T, surfid, H5T_NATIVE_INT32);
  return t;
}

#undef F
#undef A

}  // namespace

const RecordTypes& Types() {
  static const RecordTypes types = {
      FrameType(), BodyStateType(), ConstraintDefType(), ConstraintStateType(), BodyDefType(),
      ConvexType(), FaceType(),     SphereType(),        MeshType(),            MeshElementType(),
      MeshFaceType(), EllipsoidType()};
  return types;
}

namespace {

template <size_t N>
void CopyN(const double (&from)[N], double (&to)[N]) {
  std::copy(from, from + N, to);
}

}  // namespace

ConstraintDefRow ConstraintDefOf(const ConstraintRow& r) {
  ConstraintDefRow d;
  d.id = r.id;
  d.kind = r.kind;
  d.cohesive = r.cohesive;
  d.body1 = r.body1;
  d.body2 = r.body2;
  d.surf1 = r.surf1;
  d.surf2 = r.surf2;
  d.piece1 = r.piece1;
  d.piece2 = r.piece2;
  return d;
}

ConstraintStateRow ConstraintStateOf(const ConstraintRow& r) {
  ConstraintStateRow s;
  s.age = r.age;
  CopyN(r.point, s.point);
  CopyN(r.point2, s.point2);
  CopyN(r.base, s.base);
  CopyN(r.R, s.R);
  CopyN(r.U, s.U);
  s.gap = r.gap;
  s.area = r.area;
  s.merit = r.merit;
  CopyN(r.X1, s.X1);
  CopyN(r.X2, s.X2);
  return s;
}

ConstraintRow JoinConstraint(const ConstraintDefRow& d, const ConstraintStateRow& s) {
  ConstraintRow r;
  r.id = d.id;
  r.kind = d.kind;
  r.age = s.age;
  r.body1 = d.body1;
  r.body2 = d.body2;
  CopyN(s.point, r.point);
  CopyN(s.point2, r.point2);
  CopyN(s.base, r.base);
  CopyN(s.R, r.R);
  CopyN(s.U, r.U);
  r.gap = s.gap;
  r.area = s.area;
  r.merit = s.merit;
  r.surf1 = d.surf1;
  r.surf2 = d.surf2;
  r.piece1 = d.piece1;
  r.piece2 = d.piece2;
  CopyN(s.X1, r.X1);
  CopyN(s.X2, r.X2);
  r.cohesive = d.cohesive;
  return r;
}

bool SameDefinition(const ConstraintDefRow& a, const ConstraintDefRow& b) {
  return a.id == b.id && a.kind == b.kind && a.cohesive == b.cohesive && a.body1 == b.body1 &&
         a.body2 == b.body2 && a.surf1 == b.surf1 && a.surf2 == b.surf2 &&
         a.piece1 == b.piece1 && a.piece2 == b.piece2;
}

namespace {

void Copy3(const Vec3& v, double* out) {
  for (int i = 0; i < 3; ++i) out[i] = v[i];
}

Vec3 V3(const double* p) { return Vec3(p[0], p[1], p[2]); }

}  // namespace

ConstraintRow RowOfRecord(const contact::ConstraintRecord& c) {
  ConstraintRow r;
  r.id = c.id;
  r.kind = static_cast<int32_t>(c.kind);
  r.age = c.age;
  r.body1 = c.body1;
  r.body2 = c.body2;
  Copy3(c.point, r.point);
  Copy3(c.point2, r.point2);
  for (int j = 0; j < 9; ++j) r.base[j] = c.base(j % 3, j / 3);
  Copy3(c.R, r.R);
  Copy3(c.U, r.U);
  r.gap = c.gap;
  r.area = c.area;
  r.merit = c.merit;
  r.surf1 = c.surf1;
  r.surf2 = c.surf2;
  const contact::SourceColumns columns = contact::ColumnsOf(c.source);
  r.piece1 = columns.piece1;
  r.piece2 = columns.piece2;
  Copy3(c.X1, r.X1);
  Copy3(c.X2, r.X2);
  r.cohesive = c.cohesive ? 1 : 0;
  return r;
}

void SetStoredFields(const ConstraintRow& row, contact::ConstraintRecord& r) {
  r.id = row.id;
  r.kind = static_cast<contact::ConstraintKind>(row.kind);
  r.age = row.age;
  r.body1 = row.body1;
  r.body2 = row.body2;
  r.point = V3(row.point);
  r.point2 = V3(row.point2);
  for (int j = 0; j < 9; ++j) r.base(j % 3, j / 3) = row.base[j];
  r.R = V3(row.R);
  r.U = V3(row.U);
  r.gap = row.gap;
  r.area = row.area;
  r.merit = row.merit;
  r.surf1 = row.surf1;
  r.surf2 = row.surf2;
  r.source = contact::SourceOfColumns(row.piece1, row.piece2);
  r.X1 = V3(row.X1);
  r.X2 = V3(row.X2);
  r.cohesive = row.cohesive != 0;
}

}  // namespace solfec::io
