// TIME_SERIES: a piecewise-linear function of time given by (t, v) points.
#pragma once

#include <string>
#include <vector>

namespace solfec {

class TimeSeries {
 public:
  TimeSeries() = default;
  // Points must have strictly increasing times; throws InputError otherwise.
  TimeSeries(std::vector<double> times, std::vector<double> values);
  // Reads a two-column text file "t v" per line ('#' comments allowed).
  static TimeSeries FromFile(const std::string& path);

  // Linear interpolation; constant extrapolation beyond the first and last points.
  double Value(double t) const;
  // Derivative series: slope of each segment, placed at segment midpoints (a new series).
  TimeSeries Derivative() const;
  // Running integral from the first time (a new series on the same times).
  TimeSeries Integral() const;

  const std::vector<double>& times() const { return times_; }
  const std::vector<double>& values() const { return values_; }
  bool empty() const { return times_.empty(); }

 private:
  std::vector<double> times_, values_;
};

// A scalar that is either a constant or a TIME_SERIES.
class ScalarOrSeries {
 public:
  ScalarOrSeries(double value = 0.0) : constant_(value) {}
  ScalarOrSeries(TimeSeries series) : series_(std::move(series)), has_series_(true) {}
  double operator()(double t) const { return has_series_ ? series_.Value(t) : constant_; }
  bool is_series() const { return has_series_; }
  const TimeSeries& series() const { return series_; }
  double constant() const { return constant_; }

 private:
  double constant_ = 0.0;
  TimeSeries series_;
  bool has_series_ = false;
};

}  // namespace solfec
