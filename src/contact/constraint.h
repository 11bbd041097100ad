// A constraint: contact or user constraint, its local frame, reaction and data for its law.
// U = base^T (v2(X2) - v1(X1)) for two bodies, U = base^T v1(X1) for one; R acts on body2
// (+) and on body1 (-) for two bodies, on body1 (+) for one (manual 1, 4.1.13).
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <variant>

#include "base/time_series.h"
#include "base/types.h"
#include "body/body.h"
#include "material/surface_material.h"

namespace solfec::contact {

// kGlue (PARTITION): referential point X1 of body1 and X2 of body2 move together (3 rows).
enum class ConstraintKind { kContact, kFixPoint, kFixDirection, kVeloDir, kRigidLink, kSpring,
                            kGlue };
// "CONTACT", "FIXPNT", "FIXDIR", "VELODIR", "RIGLNK", "SPRING", "GLUEPNT"
const char* KindName(ConstraintKind k);

// PUT_SPRING axis: along the line point1-point2 (follower), a fixed spatial direction, or a
// direction convected with body1 / body2 (update 'FIXED', 'CONV1', 'CONV2').
enum class SpringUpdate { kFollower, kFixed, kConvected1, kConvected2 };
// Spring force f(stroke, stroke velocity) [N]; > 0 increases the stroke (pushes apart).
using SpringFunction = std::function<double(double, double)>;

// Where a contact comes from. An overlap contact: the two shape pieces that touch (a piece
// is the convex index, or the number of convexes plus the sphere index). A node-to-face
// contact (contact/node_to_face.h): a slave mesh node of body2 (its referential point is X2)
// against a face of body1's contact surface. Constraints other than contacts have the piece
// pair (-1, -1).
struct PiecePair {
  int piece1 = -1, piece2 = -1;  // of body1, of body2
  bool operator==(const PiecePair&) const = default;
};
struct NodeFace {
  int node = -1;  // slave (body2) mesh node
  int face = -1;  // master (body1) contact-surface face
  bool operator==(const NodeFace&) const = default;
};
using ContactSource = std::variant<PiecePair, NodeFace>;

struct Constraint {
  Id id = kNoId;
  ConstraintKind kind = ConstraintKind::kContact;
  body::Body* body1 = nullptr;  // master (contact normal points from body1 to body2)
  body::Body* body2 = nullptr;  // slave; null for single-body constraints
  Vec3 X1 = Vec3::Zero(), X2 = Vec3::Zero();  // referential points on body1, body2
  ContactSource source;                       // contacts: piece pair or node-face pair
  body::MeshFacePoint face1;  // node-to-face on a mesh master: X1 as face nodes and weights

  Vec3 point = Vec3::Zero();                  // current spatial point (RIGLNK: on body1)
  Vec3 point2 = Vec3::Zero();                 // RIGLNK, GLUEPNT: current point on body2
  Mat3 base = Mat3::Identity();               // columns T1, T2, N
  double area = 0.0, gap = 0.0;
  Vec3 R = Vec3::Zero();       // reaction impulse / h in the local base (average force)
  Vec3 U = Vec3::Zero();       // local relative velocity at t+h
  Vec3 U_prev = Vec3::Zero();  // local relative velocity at t (restitution, spring-dashpot)
  double merit = 0.0;
  int age = 0;                 // steps since creation (0 = new this step)

  // Contacts: surface pair and material.
  int surf1 = 0, surf2 = 0;
  const material::SurfaceMaterial* material = nullptr;
  bool cohesive = false;  // cohesion still active (broken once exceeded)

  // User constraints.
  Vec3 direction = Vec3::UnitZ();  // FIXDIR, VELODIR: spatial direction
  ScalarOrSeries velocity;         // VELODIR: prescribed velocity along direction
  bool has_displacement = false;   // SET_DISPLACEMENT: track this series for drift correction
  TimeSeries displacement;
  Vec3 X_origin = Vec3::Zero();    // VELODIR: spatial position of the point at creation
  double length = 0.0;             // RIGLNK: link length
  double strength = -1.0;          // FIXPNT/RIGLNK: delete once |R| > strength (< 0: never)

  // SPRING (PUT_SPRING, see domain/springs.h): a missing body's point is X_origin (fixed);
  // base N is the axis oriented so that U_N = d(stroke)/dt and R_N > 0 increases the stroke.
  SpringFunction spring_function;  // empty (e.g. restored from a file): no force
  SpringUpdate spring_update = SpringUpdate::kFollower;
  Vec3 spring_direction_ref = Vec3::UnitZ();  // CONV1/CONV2: referential direction on the body
  double spring_length0 = 0.0;  // initial length (follower) or initial projection on the axis
  double stroke = 0.0;          // length (or projection) at t+h/2 minus spring_length0 [m]
  bool spring_quasi_static = false;  // QUASI_STATIC step: stroke at q(t), q(t+h) = q(t) + h u
  // limits = (lo, hi): rigid stops keep the stroke at the end of each step in [lo, hi].
  double spring_lo = -std::numeric_limits<double>::infinity();
  double spring_hi = std::numeric_limits<double>::infinity();
};

// A node-to-face contact (its source is a NodeFace).
inline bool IsNodeToFace(const Constraint& c) {
  return c.kind == ConstraintKind::kContact && std::holds_alternative<NodeFace>(c.source);
}
// The piece pair of an overlap contact or of another constraint (std::bad_variant_access
// for a node-to-face contact).
inline const PiecePair& Pieces(const Constraint& c) { return std::get<PiecePair>(c.source); }
// The slave mesh node of a node-to-face contact (-1 for any other constraint).
inline int SlaveNode(const Constraint& c) {
  const NodeFace* nf = std::get_if<NodeFace>(&c.source);
  return nf && c.kind == ConstraintKind::kContact ? nf->node : -1;
}

}  // namespace solfec::contact
