// TIME_SERIES implementation: validation, interpolation, derivative and integral.
#include "base/time_series.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "base/errors.h"

namespace solfec {

TimeSeries::TimeSeries(std::vector<double> times, std::vector<double> values)
    : times_(std::move(times)), values_(std::move(values)) {
  if (times_.size() != values_.size())
    throw InputError("TIME_SERIES: times and values differ in length (argument 'points')");
  if (times_.empty())
    throw InputError("TIME_SERIES: no points given (argument 'points'); pass [t0, v0, t1, v1, ...]");
  for (size_t i = 0; i < times_.size(); ++i) {
    if (!std::isfinite(times_[i]) || !std::isfinite(values_[i]))
      throw InputError("TIME_SERIES: point " + std::to_string(i) +
                       " is not finite (argument 'points')");
    if (i > 0 && !(times_[i] > times_[i - 1]))
      throw InputError("TIME_SERIES: times must increase strictly (argument 'points', point " +
                       std::to_string(i) + ")");
  }
}

TimeSeries TimeSeries::FromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("TIME_SERIES: cannot open file '" + path + "' (argument 'points')");
  std::vector<double> t, v;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream ss(line);
    double a, b;
    std::string extra;
    const auto where = [&] {
      return "TIME_SERIES: file '" + path + "' line " + std::to_string(lineno);
    };
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank or comment
    if (!(ss >> a))
      throw InputError(where() + " is not 'time value' (argument 'points'): '" + line +
                       "'; comments start with '#'");
    if (!(ss >> b))
      throw InputError(where() + " has one column; expected 'time value'");
    if (ss >> extra)
      throw InputError(where() + " has more than two columns; expected 'time value'");
    t.push_back(a);
    v.push_back(b);
  }
  return TimeSeries(std::move(t), std::move(v));
}

double TimeSeries::Value(double t) const {
  if (times_.empty()) return 0.0;
  if (t <= times_.front()) return values_.front();
  if (t >= times_.back()) return values_.back();
  const auto it = std::upper_bound(times_.begin(), times_.end(), t);
  const size_t i = static_cast<size_t>(it - times_.begin());
  const double s = (t - times_[i - 1]) / (times_[i] - times_[i - 1]);
  return values_[i - 1] + s * (values_[i] - values_[i - 1]);
}

TimeSeries TimeSeries::Derivative() const {
  if (times_.size() < 2) return TimeSeries({times_.front()}, {0.0});
  std::vector<double> t, v;
  for (size_t i = 1; i < times_.size(); ++i) {
    t.push_back(0.5 * (times_[i] + times_[i - 1]));
    v.push_back((values_[i] - values_[i - 1]) / (times_[i] - times_[i - 1]));
  }
  return TimeSeries(std::move(t), std::move(v));
}

TimeSeries TimeSeries::Integral() const {
  std::vector<double> v(times_.size(), 0.0);
  for (size_t i = 1; i < times_.size(); ++i)
    v[i] = v[i - 1] + 0.5 * (values_[i] + values_[i - 1]) * (times_[i] - times_[i - 1]);
  return TimeSeries(times_, std::move(v));
}

}  // namespace solfec
