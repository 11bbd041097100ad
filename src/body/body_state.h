// The state of a body that output, restart and MPI migration carry, in one place: the
// configuration q, the velocity u and the three work counters (ENERGY). Every other body
// field is either fixed by the deck (shape, material, options) or recomputed from q and u
// (current shape, FE rotations, reduced coordinates): UnpackState restores it with
// UpdateShape.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "base/types.h"
#include "body/body.h"

namespace solfec::body {

// A view of one body's state (nothing is copied): q and u point into the body or into a
// message/file buffer that outlives the view.
struct BodyState {
  Id id = kNoId;
  const double* q = nullptr;
  int nq = 0;
  const double* u = nullptr;
  int nu = 0;
  std::array<double, 3> work{0.0, 0.0, 0.0};  // external, contact, friction [J]
};

// The work counters of b: external, contact, friction.
std::array<double, 3> WorkOf(const Body& b);
void SetWork(Body& b, const std::array<double, 3>& work);

// The state of b (a view into b, valid while b's q and u are not resized).
BodyState PackState(const Body& b);

// True when the state has the sizes of b's q and u (a state of the same body made by the
// same deck); UnpackState requires it.
bool StateFits(const Body& b, const BodyState& s);

// Sets q, u and the work counters of b from s and updates the current shape (and what it
// derives from q, u). Throws std::invalid_argument when !StateFits(b, s): callers check it
// first to name the source of the mismatch (the results file, another rank).
void UnpackState(Body& b, const BodyState& s);

// The flat form of a state in a message of doubles (MPI migration and ghosts):
// [id, nq, nu, q (nq), u (nu), external, contact, friction], FlatStateSize(b) values.
std::size_t FlatStateSize(const Body& b);
void AppendFlatState(const Body& b, std::vector<double>& out);
// Reads the flat state at p (a view into the buffer) and advances p past it.
BodyState ReadFlatState(const double*& p);

}  // namespace solfec::body
