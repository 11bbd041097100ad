// Small 3D rotation and linear-algebra helpers (skew matrices, exponential map).
#pragma once

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include "base/types.h"

namespace solfec {

// [w]x such that [w]x v = w x v.
inline Mat3 Skew(const Vec3& w) {
  Mat3 S;
  S << 0.0, -w.z(), w.y(), w.z(), 0.0, -w.x(), -w.y(), w.x(), 0.0;
  return S;
}

// Exponential map of so(3): rotation by angle |w| about w/|w| (Rodrigues).
inline Mat3 ExpMap(const Vec3& w) {
  const double angle = w.norm();
  if (angle < 1e-12) return Mat3::Identity() + Skew(w);
  const Mat3 K = Skew(w / angle);
  return Mat3::Identity() + std::sin(angle) * K + (1.0 - std::cos(angle)) * K * K;
}

// Rotation about a unit axis by an angle in radians.
inline Mat3 AxisAngle(const Vec3& axis, double angle) {
  return ExpMap(axis.normalized() * angle);
}

// An orthonormal base (columns T1, T2, N) whose third column is the unit normal n.
inline Mat3 BaseFromNormal(const Vec3& n) {
  Vec3 t1 = std::abs(n.x()) < 0.9 ? Vec3::UnitX().cross(n) : Vec3::UnitY().cross(n);
  t1.normalize();
  const Vec3 t2 = n.cross(t1);
  Mat3 base;
  base.col(0) = t1;
  base.col(1) = t2;
  base.col(2) = n;
  return base;
}

// True if the symmetric matrix J is positive definite (its Cholesky factorization exists).
inline bool IsPositiveDefinite(const Mat3& J) {
  return Eigen::LLT<Mat3>(J).info() == Eigen::Success;
}

// Rotation R of the polar decomposition F = R U (SVD based; a proper rotation, det R = 1).
inline Mat3 PolarRotation(const Mat3& F) {
  Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU();
  const Mat3 V = svd.matrixV();
  if ((U * V.transpose()).determinant() < 0.0) U.col(2) *= -1.0;
  return U * V.transpose();
}

constexpr double kPi = 3.14159265358979323846;

}  // namespace solfec
