// Direct solution of local dynamics whose rows are all linear equalities (FIX_POINT,
// FIX_DIRECTION, SET_VELOCITY, SET_DISPLACEMENT, SET_ACCELERATION, PUT_RIGID_LINK rows): the
// Newton step of such a problem is the linear system itself, solved here exactly instead of
// by GMRES iterations (a clamped finite-element body in QUASI_STATIC analysis took 500-700
// Newton iterations a step with GMRES, src/solvers/README.md).
#pragma once

#include "solvers/block_problem.h"

namespace solfec::solvers {

// Scalar unknowns up to which the dense factorisation is used (its cost grows as m^3 / 3:
// 4000 unknowns take about 2e10 flops, a few seconds).
constexpr int kMaxDirectUnknowns = 4000;

// When every row of `problem` is kEquality (U = target: 3 unknowns R) or kNormalEquality
// (U_N = target_N with R_T = 0: 1 unknown R_N), the problem is serial (no coupling) and has
// at most kMaxDirectUnknowns unknowns: assembles W (BlockProblem::EnsureAssembled), solves
// S W S^T r = S (target - B) (S picks the constrained components) by a pivoted LDL^T
// factorisation of the dense symmetric positive semi-definite matrix, and sets R and U.
// Pivots below 1e-12 of the largest are treated as zero (redundant rows, e.g. FIX_POINT and
// FIX_DIRECTION at one point, share the reaction: one solution of the consistent system).
// Returns false otherwise, leaving R and U unchanged (W may be assembled by then).
bool SolveEqualitiesDirectly(BlockProblem& problem);

}  // namespace solfec::solvers
