// Record types of the results file, format version kFormatVersion (docs/output.md is the
// reference: every dataset, field and unit there corresponds to a struct field here).
#pragma once

#include <hdf5.h>

#include <cstdint>

#include "contact/constraint_record.h"

namespace solfec::io {

constexpr int kFormatVersion = 2;  // 2: constraints split into definitions and states
constexpr const char* kFormatName = "solfec-results";

// /frames/table: one row per frame.
struct FrameRow {
  double time = 0, step = 0;
  int64_t step_count = 0;
  int64_t body_start = 0, body_count = 0;  // rows of /frames/bodies
  int64_t q_start = 0, q_count = 0;        // elements of /frames/q
  int64_t u_start = 0, u_count = 0;        // elements of /frames/u
  int64_t con_start = 0, con_count = 0;    // rows of /frames/constraints
  int64_t def_count = 0;                   // valid rows of /bodies/table
  int64_t next_constraint_id = 0;          // id the next new constraint gets (restart)
  int32_t newbods = 0, delbods = 0;        // since the previous frame
  int32_t gsiters = 0, converged = 1;
  double merit = 0;
  double timing[6] = {0, 0, 0, 0, 0, 0};   // TIMINT CONUPD CONDET LOCDYN CONSOL PARBAL [s]
  double energy[5] = {0, 0, 0, 0, 0};      // kinetic internal external contact friction [J]
};

// /frames/bodies: one row per body present in a frame (q, u follow in the same order).
struct BodyStateRow {
  int64_t id = 0;
  double energy[5] = {0, 0, 0, 0, 0};
};

// A constraint of a frame as restore and readers see it (the join of its definition and
// state rows below; python/solfec/results.py assembles the same 296-byte record).
struct ConstraintRow {
  int64_t id = 0;
  int32_t kind = 0;                   // 0 CONTACT 1 FIXPNT 2 FIXDIR 3 VELODIR 4 RIGLNK 5 SPRING 6 GLUEPNT
  int32_t age = 0;
  int64_t body1 = -1, body2 = -1;
  double point[3] = {0, 0, 0}, point2[3] = {0, 0, 0};
  double base[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // column-wise: T1, T2, N
  double R[3] = {0, 0, 0}, U[3] = {0, 0, 0};
  double gap = 0, area = 0, merit = 0;
  int32_t surf1 = 0, surf2 = 0, piece1 = -1, piece2 = -1;
  double X1[3] = {0, 0, 0}, X2[3] = {0, 0, 0};
  int32_t cohesive = 0, pad = 0;
};

// /constraints/table: the fields of a constraint that stay fixed over (most of) its life,
// one row per constraint, appended in the frame where it first appears; a new row (same id)
// is appended when one of them changes (node-to-face piece or surfaces, broken cohesion).
struct ConstraintDefRow {
  int64_t id = 0;
  int32_t kind = 0, cohesive = 0;
  int64_t body1 = -1, body2 = -1;
  int32_t surf1 = 0, surf2 = 0, piece1 = -1, piece2 = -1;
  int64_t first_frame = 0;
};

// /frames/constraints: one row per constraint per frame, in the domain's list order;
// `def` is the row of /constraints/table holding the constraint's fixed fields.
struct ConstraintStateRow {
  int64_t def = 0;
  int32_t age = 0, pad = 0;
  double point[3] = {0, 0, 0}, point2[3] = {0, 0, 0};
  double base[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double R[3] = {0, 0, 0}, U[3] = {0, 0, 0};
  double gap = 0, area = 0, merit = 0;
  double X1[3] = {0, 0, 0}, X2[3] = {0, 0, 0};
};

// Splits a row into its definition (first_frame left 0) and state (def left 0), and joins
// them back: JoinConstraint(ConstraintDefOf(r), ConstraintStateOf(r)) equals r field by
// field.
ConstraintDefRow ConstraintDefOf(const ConstraintRow& r);
ConstraintStateRow ConstraintStateOf(const ConstraintRow& r);
ConstraintRow JoinConstraint(const ConstraintDefRow& d, const ConstraintStateRow& s);
bool SameDefinition(const ConstraintDefRow& a, const ConstraintDefRow& b);  // all but first_frame

// The file's row of a constraint record (contact/constraint_record.h). The file stores every
// field of the record but U_prev, stroke and face1: each step recomputes them before use
// (local dynamics assembly, UpdateSpring, the node-to-face update).
ConstraintRow RowOfRecord(const contact::ConstraintRecord& r);
// Sets the fields of r that the file stores from row; U_prev, stroke and face1 keep r's.
void SetStoredFields(const ConstraintRow& row, contact::ConstraintRecord& r);

// /bodies/table: one row per body definition, appended when a body first appears.
struct BodyDefRow {
  int64_t id = 0;
  int32_t kind = 0;                   // 0 RIGID 1 PSEUDO_RIGID 2 FINITE_ELEMENT 3 OBSTACLE
  int32_t nq = 0, nu = 0;
  int32_t model = 0;                  // material model: 0 KIRCHHOFF 1 NEO_HOOKEAN 2 BLATZ_KO
  int64_t first_frame = 0;
  double mass = 0, volume = 0, center[3] = {0, 0, 0}, tensor[9] = {0};
  double young = 0, poisson = 0, density = 0;
  int64_t label_start = 0, label_len = 0;        // bytes of /bodies/labels
  int64_t material_start = 0, material_len = 0;  // bytes of /bodies/labels
  int64_t convex_start = 0, convex_count = 0;
  int64_t sphere_start = 0, sphere_count = 0;
  int64_t mesh_start = 0, mesh_count = 0;
  int64_t ellipsoid_start = 0, ellipsoid_count = 0;  // rows of /shapes/ellipsoids
};

struct ConvexRow {
  int64_t body = 0;
  int32_t volid = 0, pad = 0;
  int64_t vertex_start = 0, vertex_count = 0;  // rows of /shapes/vertices
  int64_t face_start = 0, face_count = 0;      // rows of /shapes/faces
};

struct FaceRow {
  int64_t index_start = 0;  // elements of /shapes/face_vertices (convex-local indices)
  int32_t index_count = 0, surfid = 0;
};

struct SphereRow {
  int64_t body = 0;
  double center[3] = {0, 0, 0};
  double radius = 0;
  int32_t volid = 0, surfid = 0;
};

// Referential ellipsoid (ELLIP): rot row by row (column i: direction of radii[i]).
struct EllipsoidRow {
  int64_t body = 0;
  double center[3] = {0, 0, 0}, radii[3] = {0, 0, 0}, rot[9] = {0};
  int32_t volid = 0, surfid = 0;
};

struct MeshRow {
  int64_t body = 0;
  int64_t node_start = 0, node_count = 0;        // rows of /shapes/vertices
  int64_t element_start = 0, element_count = 0;  // rows of /shapes/mesh_elements
  int64_t face_start = 0, face_count = 0;        // rows of /shapes/mesh_faces
  int32_t default_surfid = 0, pad = 0;
};

struct MeshElementRow {
  int32_t num_nodes = 0, nodes[8] = {0}, volid = 0;
};

struct MeshFaceRow {
  int32_t num_nodes = 0, nodes[4] = {-1, -1, -1, -1}, surfid = 0;
};

// HDF5 compound types of the records (created once, never freed).
struct RecordTypes {
  hid_t frame, body_state, constraint_def, constraint_state, body_def, convex, face, sphere, mesh, mesh_element,
      mesh_face, ellipsoid;
};
const RecordTypes& Types();

}  // namespace solfec::io
