// Eigen aliases and small fixed-size types shared by every module.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>

namespace solfec {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using Mat3X = Eigen::Matrix<double, 3, Eigen::Dynamic>;
using MatX3 = Eigen::Matrix<double, Eigen::Dynamic, 3>;

// Identifier of a body or a constraint: stable for the life of a run, crosses process
// boundaries (never a pointer).
using Id = std::int64_t;
constexpr Id kNoId = -1;

}  // namespace solfec
