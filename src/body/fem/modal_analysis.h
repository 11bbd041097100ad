// Reduced bases of FINITE_ELEMENT bodies: modal analysis, rigid modes and co-rotated snapshots.
#pragma once

#include <string>
#include <vector>

#include "base/types.h"
#include "body/fem/fe_body.h"

namespace solfec::body {

// MODAL_ANALYSIS options: `tolerance` is the relative Ritz-value tolerance of the Lanczos
// iteration (argument 'abstol'), `max_restarts` its restart cap (argument 'maxiter').
struct ModalOptions {
  double tolerance = 1e-11;
  int max_restarts = 100;
  bool verbose = false;
};

// Eigenpairs of K0 v = lambda M v: evals (num), evecs (3N x num, one mode per column).
struct ModalBase {
  VecX evals;
  MatX evecs;
  bool dense = false;  // solved by the dense path (tiny meshes) instead of Lanczos
  int operations = 0;  // operator applications (one CHOLMOD solve each) of the Lanczos path
};

// The six rigid displacement modes at the referential nodes: columns 0-2 translations along
// x, y, z, columns 3-5 infinitesimal rotations w x (X_a - X_c) about x, y, z (X_c = the lumped
// mass centre), orthonormalised by Gram-Schmidt in the Euclidean (mass_weighted = false:
// E^T E = I) or the lumped-mass inner product (true: E^T M E = I). 3N x 6.
MatX RigidDisplacements(const FeBody& body, bool mass_weighted = false);

// K0 = the tangent stiffness at the referential configuration q = X (the body's current q is
// restored before returning). Throws InputError naming MODAL_ANALYSIS for the forms 'BC-RO' and
// 'BC-MODAL' (their node coordinates are not q).
SparseMat ReferenceStiffness(FeBody& body);

// The `num` smallest eigenpairs of K0 v = lambda M v (M lumped): the six rigid modes first
// (eigenvalues exactly 0, E_rigid = RigidDisplacements(body, true)), then the num - 6 smallest
// elastic modes in increasing order; E^T M E = I. Elastic modes: Lanczos (Spectra) on the
// operator P M^1/2 (K0 - sigma M)^-1 M^1/2 P (P removes the rigid span, sigma < 0 so that the
// CHOLMOD factor exists), followed by a Rayleigh-Ritz step on the converged vectors; meshes
// with 3N <= 300 use a dense symmetric eigensolver. Throws InputError naming MODAL_ANALYSIS
// for num < 6 or num > 3N (argument 'num'), SolverError when Lanczos does not converge.
ModalBase ModalAnalysis(FeBody& body, int num, const ModalOptions& options = {});

// Co-rotated displacements of node coordinates x (3N, one configuration per column of X):
// d = Lambda^T (x - x_c) - (Z - Z_c), with Z the referential nodes, x_c, Z_c the lumped-mass
// centres and Lambda the appendix-A rotation (CorotationFit) started from the polar rotation of
// sum_a m_a (x_a - x_c)(Z_a - Z_c)^T. Rotations (one per column) are returned in `rotations`
// when not null. Throws InputError naming `routine` when X does not have 3N rows.
MatX CorotatedDisplacements(const FeBody& body, const MatX& X, std::vector<Mat3>* rotations,
                            const std::string& routine = "COROTATED_DISPLACEMENTS");

}  // namespace solfec::body
