// STREAM-like memory bandwidth probe: read (sum) and copy bandwidth for one working-set size.
// Usage: bandwidth BYTES [SECONDS]; prints "read_GBps copy_GBps" (copy counts read + write).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double Now() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  const size_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (256u << 20);
  const double seconds = argc > 2 ? std::atof(argv[2]) : 0.5;
  const size_t n = bytes / sizeof(double) / 2;  // two arrays share the working set
  std::vector<double> a(n, 1.0), b(n, 2.0);
  volatile double sink = 0.0;

  // Read: eight independent accumulators so the adds do not serialise.
  double best_read = 0.0;
  for (double t_end = Now() + seconds; Now() < t_end;) {
    const double t0 = Now();
    double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i + 7 < n; i += 8) {
      for (int k = 0; k < 8; ++k) s[k] += a[i + k];
    }
    sink = sink + s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
    const double dt = Now() - t0;
    if (dt > 0) best_read = std::max(best_read, n * sizeof(double) / dt);
  }
  double best_copy = 0.0;
  for (double t_end = Now() + seconds; Now() < t_end;) {
    const double t0 = Now();
    for (size_t i = 0; i < n; ++i) b[i] = a[i];
    sink = sink + b[n / 2];
    const double dt = Now() - t0;
    if (dt > 0) best_copy = std::max(best_copy, 2.0 * n * sizeof(double) / dt);
  }
  std::printf("%.3f %.3f\n", best_read / 1e9, best_copy / 1e9);
  return sink == 12345.678 ? 1 : 0;
}
