// When an event repeated every `interval` seconds of simulated time is due (RUN callbacks,
// OUTPUT frames): the time has reached the event's `next` time up to the round-off of a sum
// of steps, taken as 1e-9 of a step.
#pragma once

namespace solfec {

struct IntervalEvent {
  double interval = 0.0;  // [s]
  double next = 0.0;      // time of the next occurrence [s]

  // Whether `time` has reached `next` (within 1e-9 `step`).
  bool Due(double time, double step) const { return time + 1e-9 * step >= next; }
  // Moves `next` by whole `by` [s] (> 0) until it lies beyond `time` (plus 1e-9 `step`).
  void MovePast(double time, double step, double by) {
    while (next <= time + 1e-9 * step) next += by;
  }
};

}  // namespace solfec
