// HDF5 compound types for the result records (field names as in docs/output.md).
#include "io/results_layout.h"

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

hid_t ConstraintType() {
  using T = ConstraintRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t d = H5T_NATIVE_DOUBLE, l = H5T_NATIVE_INT64, i = H5T_NATIVE_INT32;
  F(T, id, l), F(T, kind, i), F(T, age, i), F(T, body1, l), F(T, body2, l);
  A(T, point, d, 3), A(T, point2, d, 3), A(T, base, d, 9), A(T, R, d, 3), A(T, U, d, 3);
  F(T, gap, d), F(T, area, d), F(T, merit, d), F(T, surf1, i), F(T, surf2, i);
  F(T, piece1, i), F(T, piece2, i), A(T, X1, d, 3), A(T, X2, d, 3), F(T, cohesive, i);
  return t;
}

hid_t BodyDefType() {
  using T = BodyDefRow;
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(T));
  const hid_t d = H5T_NATIVE_DOUBLE, l = H5T_NATIVE_INT64, i = H5T_NATIVE_INT32;
  F(T, id, l), F(T, kind, i), F(T, nq, i), F(T, nu, i), F(T, first_frame, l);
  F(T, mass, d), F(T, volume, d), A(T, center, d, 3), A(T, tensor, d, 9);
  F(T, young, d), F(T, poisson, d), F(T, density, d);
  F(T, label_start, l), F(T, label_len, l), F(T, material_start, l), F(T, material_len, l);
  F(T, convex_start, l), F(T, convex_count, l), F(T, sphere_start, l), F(T, sphere_count, l);
  F(T, mesh_start, l), F(T, mesh_count, l);
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
  static const RecordTypes types = {FrameType(),  BodyStateType(), ConstraintType(),
                                    BodyDefType(), ConvexType(),    FaceType(),
                                    SphereType(),  MeshType(),      MeshElementType(),
                                    MeshFaceType()};
  return types;
}

}  // namespace solfec::io
