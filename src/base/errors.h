// Error tiers: InputError (bad deck input -> Python ValueError/TypeError) and SolverError
// (numerical failure under the 'EXIT' policy -> solfec.SolverError).
#pragma once

#include <charconv>
#include <stdexcept>
#include <string>

namespace solfec {

// Bad input. The message names the routine, the argument, the value and how to fix it:
// "BODY: shape list is empty (argument 'shape'); pass a CONVEX, MESH or SPHERE".
class InputError : public std::invalid_argument {
 public:
  enum class Kind { kValue, kType };
  explicit InputError(const std::string& what, Kind kind = Kind::kValue)
      : std::invalid_argument(what), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Wrong Python type of an argument (maps to TypeError).
class TypeError : public InputError {
 public:
  explicit TypeError(const std::string& what) : InputError(what, Kind::kType) {}
};

// Numerical failure: solver divergence under 'EXIT', unphysical penetration, NaN state.
class SolverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Geometric degeneracy detected in an algorithm (not user input): flat hull, empty overlap.
class GeometryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The shortest decimal form of v that reads back as v, for values quoted in error messages
// (0.49999999999 stays so, 1e300 is 1e+300).
inline std::string ShortestDecimal(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace solfec
