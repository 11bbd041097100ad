// TIME_SERIES: interpolation, extrapolation, derivative, integral, file input, validation.
#include "base/time_series.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "base/errors.h"

namespace solfec {
namespace {

TEST(TimeSeries, InterpolatesLinearlyAndHoldsEndValues) {
  const TimeSeries ts({0.0, 1.0, 3.0}, {0.0, 2.0, -2.0});
  EXPECT_DOUBLE_EQ(ts.Value(0.5), 1.0);
  EXPECT_DOUBLE_EQ(ts.Value(2.0), 0.0);
  EXPECT_DOUBLE_EQ(ts.Value(-1.0), 0.0);
  EXPECT_DOUBLE_EQ(ts.Value(10.0), -2.0);
}

TEST(TimeSeries, IntegralOfLinearFunctionIsExact) {
  // v = 2 t on [0, 2]: integral t^2; trapezoids are exact for piecewise-linear data.
  const TimeSeries ts({0.0, 1.0, 2.0}, {0.0, 2.0, 4.0});
  const TimeSeries in = ts.Integral();
  EXPECT_DOUBLE_EQ(in.Value(1.0), 1.0);
  EXPECT_DOUBLE_EQ(in.Value(2.0), 4.0);
  EXPECT_DOUBLE_EQ(ts.Derivative().Value(0.7), 2.0);
}

TEST(TimeSeries, RejectsNonIncreasingTimes) {
  EXPECT_THROW(TimeSeries({0.0, 0.0}, {1.0, 2.0}), InputError);
  EXPECT_THROW(TimeSeries({}, {}), InputError);
}

TEST(TimeSeries, ReadsTwoColumnFile) {
  const std::string path = ::testing::TempDir() + "/ts.txt";
  {
    std::ofstream f(path);
    f << "# t v\n0 1\n\n2 5  # comment\n";
  }
  const TimeSeries ts = TimeSeries::FromFile(path);
  EXPECT_DOUBLE_EQ(ts.Value(1.0), 3.0);
  std::remove(path.c_str());
  EXPECT_THROW(TimeSeries::FromFile(path), InputError);
}

}  // namespace
}  // namespace solfec
