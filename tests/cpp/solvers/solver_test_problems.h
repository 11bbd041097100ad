// Hand-made BlockProblems with known answers for the solver tests: single 3x3 rows, a
// stack of point masses on a floor (W = H M^-1 H^T) and random contact networks.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "base/math.h"
#include "base/types.h"
#include "solvers/block_problem.h"

namespace solfec::solvers::testing {

// A fixed, well-conditioned SPD block with tangential-normal coupling (eigenvalues in
// roughly [0.8, 2.3]).
inline Mat3 CoupledBlock() {
  Mat3 W;
  W << 2.0, 0.3, 0.1,  //
      0.3, 1.5, 0.2,   //
      0.1, 0.2, 1.0;
  return W;
}

// One-row problem U = B + W R with the given law.
inline BlockProblem SingleRow(const Mat3& W, const Vec3& B, const Law& law) {
  BlockProblem p;
  p.Resize(1);
  p.row_ptr = {0, 1};
  p.col = {0};
  p.W = {W};
  p.B = {B};
  p.laws = {law};
  return p;
}

inline Law Contact(double mu) {
  Law law;
  law.friction = mu;
  return law;
}

// Assembles W = H M^-1 H^T in block CSR form from per-row body couplings: row r couples to
// body body[r][i] through the 3x3 operator H[r][i] (U_r = sum_i H[r][i] u_body).
struct Coupling {
  std::vector<std::vector<int>> body;
  std::vector<std::vector<Mat3>> H;
};

inline void AssembleW(const Coupling& c, const std::vector<Mat3>& M_inv, BlockProblem& p) {
  const int n = static_cast<int>(c.body.size());
  p.row_ptr.assign(1, 0);
  p.col.clear();
  p.W.clear();
  for (int r = 0; r < n; ++r) {
    // Diagonal first, then every other row sharing a body (dense scan: tests are small).
    for (int pass = 0; pass < 2; ++pass) {
      for (int s = 0; s < n; ++s) {
        if ((pass == 0) != (s == r)) continue;
        Mat3 block = Mat3::Zero();
        bool shared = false;
        for (size_t i = 0; i < c.body[r].size(); ++i) {
          for (size_t j = 0; j < c.body[s].size(); ++j) {
            if (c.body[r][i] != c.body[s][j]) continue;
            block += c.H[r][i] * M_inv[c.body[r][i]] * c.H[s][j].transpose();
            shared = true;
          }
        }
        if (shared) {
          p.col.push_back(s);
          p.W.push_back(block);
        }
      }
    }
    p.row_ptr.push_back(static_cast<int>(p.col.size()));
  }
}

// SPD inverse inertia (1/m)(I + small symmetric perturbation), eigenvalues in [0.7, 1.3]/m.
inline Mat3 RandomInverseInertia(double m, std::mt19937& gen) {
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  Mat3 A;
  for (int i = 0; i < 9; ++i) A.data()[i] = u(gen);
  return (Mat3::Identity() + A + A.transpose()) / m;
}

// A stack problem and the expected normal reaction of each interface.
struct Stack {
  BlockProblem problem;
  std::vector<double> expected_RN;
};

// The stack of MakeStack with `points` coincident contact points per interface (each with
// its own random tangent base), as contact patches of several points produce them: W has
// rank 3n of 3 n points, so the split of an interface's force among its points is not
// unique. expected_RN[k] is the total normal force of interface k (sum over its points).
inline Stack MakeRedundantStack(int n, int points, double mu, unsigned seed, double g = 9.81,
                                double h = 0.01) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> mass(0.5, 2.0), angle(0.0, 2.0 * kPi);
  std::vector<double> m(n);
  std::vector<Mat3> M_inv(n);
  std::vector<Vec3> u_free(n);
  for (int j = 0; j < n; ++j) {
    m[j] = mass(gen);
    M_inv[j] = RandomInverseInertia(m[j], gen);
    u_free[j] = h * M_inv[j] * Vec3(0.0, 0.0, -m[j] * g);
  }
  Stack s;
  BlockProblem& p = s.problem;
  p.Resize(n * points);
  Coupling c;
  c.body.resize(n * points);
  c.H.resize(n * points);
  for (int r = 0; r < n * points; ++r) {
    const int k = r / points;
    const Mat3 base = AxisAngle(Vec3::UnitZ(), angle(gen));
    c.body[r].push_back(k);
    c.H[r].push_back(base.transpose());
    Vec3 B = base.transpose() * u_free[k];
    if (k > 0) {
      c.body[r].push_back(k - 1);
      c.H[r].push_back(-base.transpose());
      B -= base.transpose() * u_free[k - 1];
    }
    p.B[r] = B;
    p.laws[r] = Contact(mu);
  }
  AssembleW(c, M_inv, p);
  s.expected_RN.assign(n, 0.0);
  double above = 0.0;
  for (int k = n - 1; k >= 0; --k) {
    above += m[k];
    s.expected_RN[k] = g * h * above;
  }
  return s;
}

// A column of n point masses resting on a floor under gravity g for one step h; contact k
// (k = 0 the floor) has normal +z and a random tangent base. The static solution is U = 0
// and R_k = (0, 0, g h sum_{j >= k} m_j): every contact below carries the masses above.
inline Stack MakeStack(int n, double mu, unsigned seed, double g = 9.81, double h = 0.01) {
  return MakeRedundantStack(n, 1, mu, seed, g, h);
}

// n_bodies point masses and n_contacts contacts between random pairs (or a body and the
// ground) with random normals, friction in [0.1, 0.6] and random free velocities.
inline BlockProblem MakeRandomNetwork(int n_bodies, int n_contacts, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), mass(0.5, 2.0), fr(0.1, 0.6);
  std::uniform_int_distribution<int> pick(-1, n_bodies - 1);
  std::vector<Mat3> M_inv(n_bodies);
  std::vector<Vec3> u_free(n_bodies);
  for (int j = 0; j < n_bodies; ++j) {
    M_inv[j] = RandomInverseInertia(mass(gen), gen);
    u_free[j] = Vec3(u(gen), u(gen), u(gen));
  }
  BlockProblem p;
  p.Resize(n_contacts);
  Coupling c;
  c.body.resize(n_contacts);
  c.H.resize(n_contacts);
  for (int k = 0; k < n_contacts; ++k) {
    int i = pick(gen), j = pick(gen);
    while (j < 0 || j == i) j = pick(gen);
    const Mat3 base = BaseFromNormal(Vec3(u(gen), u(gen), u(gen)).normalized());
    c.body[k].push_back(j);
    c.H[k].push_back(base.transpose());
    Vec3 B = base.transpose() * u_free[j];
    if (i >= 0) {
      c.body[k].push_back(i);
      c.H[k].push_back(-base.transpose());
      B -= base.transpose() * u_free[i];
    }
    p.B[k] = B;
    p.laws[k] = Contact(fr(gen));
  }
  AssembleW(c, M_inv, p);
  return p;
}

}  // namespace solfec::solvers::testing
