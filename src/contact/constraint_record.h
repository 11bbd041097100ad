// The record of a constraint that output, restart and MPI migration carry, with named
// fields, in one place. Fields not in it are fixed by the deck (user constraints' series,
// strength, spring function, ...) or looked up (the surface material).
#pragma once

#include <vector>

#include "base/types.h"
#include "body/body.h"
#include "contact/constraint.h"

namespace solfec::contact {

struct ConstraintRecord {
  // Identity: fixed over the constraint's life, except that a node-to-face contact may move
  // to another face (source, X1, face1) and cohesion may break.
  Id id = kNoId;
  ConstraintKind kind = ConstraintKind::kContact;
  Id body1 = kNoId, body2 = kNoId;  // body ids, kNoId for none
  ContactSource source;
  int surf1 = 0, surf2 = 0;
  Vec3 X1 = Vec3::Zero(), X2 = Vec3::Zero();
  body::MeshFacePoint face1;
  // State: changes every step.
  Vec3 point = Vec3::Zero(), point2 = Vec3::Zero();
  Mat3 base = Mat3::Identity();
  double area = 0.0, gap = 0.0;
  Vec3 R = Vec3::Zero(), U = Vec3::Zero(), U_prev = Vec3::Zero();
  double merit = 0.0;
  int age = 0;
  bool cohesive = false;
  double stroke = 0.0;
};

// A contact's source as the two int columns `piece1`, `piece2` of the results file
// (docs/output.md) and of the flat record: a piece pair as it is (-1 for none), a node-face
// pair as piece1 = -2 - face, piece2 = -2 - node. The only place of that encoding.
struct SourceColumns {
  int piece1 = -1, piece2 = -1;
};
SourceColumns ColumnsOf(const ContactSource& s);
ContactSource SourceOfColumns(int piece1, int piece2);

ConstraintRecord RecordOf(const Constraint& c);

// Sets the state fields of c (point ... stroke) from r.
void SetState(const ConstraintRecord& r, Constraint& c);
// Sets the identity fields of c from r with the given bodies (r.body1/r.body2 found by the
// caller) and then its state; the material is left to the caller.
void SetIdentityAndState(const ConstraintRecord& r, body::Body* body1, body::Body* body2,
                         Constraint& c);

// The flat form of a record in a message of doubles (MPI migration and ghosts):
// kFlatConstraintSize values, identity first, then state.
constexpr int kFlatConstraintSize = 53;
void AppendFlatRecord(const ConstraintRecord& r, std::vector<double>& out);
ConstraintRecord ReadFlatRecord(const double* p);

}  // namespace solfec::contact
