// Progress line printer: time, percentage of the RUN, step, bodies, constraints, solver
// iterations and merit, and an estimate of the end of the RUN (ETA).
#include "domain/progress.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>

#include "base/errors.h"
#include "domain/domain.h"

namespace solfec::domain {

namespace {

using Clock = std::chrono::steady_clock;

// Percentage of the current RUN and an estimate of its end: the rate of simulated time per
// second of wall clock measured since the first step of the RUN reported here; no estimate
// before kMinSteps steps and kMinSeconds of it (the first steps, with contact detection
// warming up and the output file being created, say little about the rest).
struct Eta {
  static constexpr int kMinSteps = 5;
  static constexpr double kMinSeconds = 1.0;
  double end = -1.0;        // run_end_time of the RUN being timed
  double t0 = 0.0;          // simulated time at its first report
  double start = 0.0;       // simulated time at its start (t0 - step)
  int step0 = 0;
  Clock::time_point wall0;

  void Update(const Domain& d, Clock::time_point now) {
    if (d.run_end_time() != end || d.time() < t0) {
      end = d.run_end_time();
      t0 = d.time();
      start = d.time() - d.step();
      step0 = d.step_count();
      wall0 = now;
    }
  }
  // Percentage of the RUN done, 0..100.
  int Percent(const Domain& d) const {
    const double span = end - start;
    const double f = span > 0.0 ? (d.time() - start) / span : 1.0;
    return static_cast<int>(100.0 * std::min(1.0, std::max(0.0, f)) + 0.5);
  }
  // " ETA 14:03:27 (2m05s left)", or "" while too early to tell or at the end.
  std::string Text(const Domain& d, Clock::time_point now, bool at_end) const {
    const double elapsed = std::chrono::duration<double>(now - wall0).count();
    const double done = d.time() - t0;
    if (at_end || d.step_count() - step0 < kMinSteps || elapsed < kMinSeconds || done <= 0.0)
      return "";
    const double left = elapsed * std::max(0.0, end - d.time()) / done;
    const std::time_t when = std::time(nullptr) + static_cast<std::time_t>(left + 0.5);
    std::tm tm{};
    localtime_r(&when, &tm);
    char clock[16];
    std::strftime(clock, sizeof clock, "%H:%M:%S", &tm);
    const long s = std::lround(left);
    char rest[48];
    if (s >= 3600)
      std::snprintf(rest, sizeof rest, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    else if (s >= 60)
      std::snprintf(rest, sizeof rest, "%ldm%02lds", s / 60, s % 60);
    else
      std::snprintf(rest, sizeof rest, "%lds", s);
    return std::string(" ETA ") + clock + " (" + rest + " left)";
  }
};

// On a terminal the line is rewritten in place; otherwise a line is printed at most once a
// second and at the end of each RUN, so logs stay short.
struct Printer {
  bool percent = false;
  bool tty = isatty(fileno(stdout)) != 0;
  Clock::time_point last = Clock::now() - std::chrono::hours(1);
  Eta eta;

  void operator()(const Domain& d) {
    const bool end = d.time() >= d.run_end_time() - 0.5 * d.step();
    const auto now = Clock::now();
    eta.Update(d, now);
    const double since = std::chrono::duration<double>(now - last).count();
    if (!end && since < (tty ? 0.1 : 1.0)) return;
    last = now;
    const char* lead = tty ? "\r" : "";
    const char* tail = tty ? (end ? "\n" : "\033[K") : "\n";  // on a tty: clear the rest
    const std::string when = eta.Text(d, now, end);
    if (percent) {
      std::printf("%s%3d%%%s%s", lead, eta.Percent(d), when.c_str(), tail);
    } else {
      const auto& s = d.solver_stats();
      // An unconverged solve shows its final merit and error code (e.g. 'DIVERGED');
      // AUTO_SOLVER adds the solver that met meritval.
      std::string note = s.converged ? "" : " (not converged: " + s.error + ")";
      if (s.converged && !s.winner.empty()) note = " by " + s.winner;
      std::printf("%st=%-10.4g %3d%% step %-7d bodies %-6zu constraints %-7zu iters %-5d "
                  "merit %.2e%s%s%s",
                  lead, d.time(), eta.Percent(d), d.step_count(), d.bodies().size(),
                  d.constraints().size(), s.iters, s.merit, note.c_str(), when.c_str(), tail);
    }
    std::fflush(stdout);
  }
};

}  // namespace

void SetProgress(Domain& d, const std::string& mode) {
  if (mode == "OFF") {
    d.set_progress(nullptr);
  } else if (mode == "ON" || mode == "%" || mode == "%\n") {
    Printer p;
    p.percent = mode != "ON";
    d.set_progress(p);
  } else {
    throw InputError("SOLFEC: unknown verbose mode '" + mode +
                     "' (member 'verbose'); use 'ON', 'OFF' or '%'");
  }
}

}  // namespace solfec::domain
