// Progress line printer: time, step, bodies, constraints, solver iterations and merit.
#include "domain/progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "base/errors.h"
#include "domain/domain.h"

namespace solfec::domain {

namespace {

using Clock = std::chrono::steady_clock;

// On a terminal the line is rewritten in place; otherwise a line is printed at most once a
// second and at the end of each RUN, so logs stay short.
struct Printer {
  bool percent = false;
  bool tty = isatty(fileno(stdout)) != 0;
  Clock::time_point last = Clock::now() - std::chrono::hours(1);

  void operator()(const Domain& d) {
    const bool end = d.time() >= d.run_end_time() - 0.5 * d.step();
    const auto now = Clock::now();
    const double since = std::chrono::duration<double>(now - last).count();
    if (!end && since < (tty ? 0.1 : 1.0)) return;
    last = now;
    const char* lead = tty ? "\r" : "";
    const char* tail = tty ? (end ? "\n" : "") : "\n";
    if (percent) {
      const double span = d.run_end_time() > 0 ? d.time() / d.run_end_time() : 1.0;
      std::printf("%s%3d%%%s", lead, static_cast<int>(100.0 * span + 0.5), tail);
    } else {
      const auto& s = d.solver_stats();
      // An unconverged solve shows its final merit and error code (e.g. 'DIVERGED');
      // AUTO_SOLVER adds the solver that met meritval.
      std::string note = s.converged ? "" : " (not converged: " + s.error + ")";
      if (s.converged && !s.winner.empty()) note = " by " + s.winner;
      std::printf("%st=%-10.4g step %-7d bodies %-6zu constraints %-7zu iters %-5d merit %.2e%s%s",
                  lead, d.time(), d.step_count(), d.bodies().size(), d.constraints().size(),
                  s.iters, s.merit, note.c_str(), tail);
    }
    std::fflush(stdout);
  }
};

}  // namespace

void SetProgress(Domain& d, const std::string& mode) {
  if (mode == "OFF") {
    d.progress = nullptr;
  } else if (mode == "ON" || mode == "%" || mode == "%\n") {
    Printer p;
    p.percent = mode != "ON";
    d.progress = p;
  } else {
    throw InputError("SOLFEC: unknown verbose mode '" + mode +
                     "' (member 'verbose'); use 'ON', 'OFF' or '%'");
  }
}

}  // namespace solfec::domain
