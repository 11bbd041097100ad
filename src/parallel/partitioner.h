// Zoltan geometric partitioner (RCB or RIB) of bodies given by id, centroid and weight.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/types.h"
#include "parallel/communicator.h"

struct Zoltan_Struct;

namespace solfec::parallel {

// IMBALANCE_TOLERANCE (manual 4.4) plus the geometric method.
struct BalanceSettings {
  enum class Method { kRcb, kRib };
  double tolerance = 1.3;         // accepted max part load / average part load (>= 1)
  bool lock_directions = false;   // lockdir 'ON': keep the first cut directions (RCB only)
  double degenerate_ratio = 10.0; // degenratio > 1: flat boxes get a lower-dimensional cut
  double weight_factor = 1.0;     // in [0, 1]: weight = (1 - f) + f * body weight
  Method method = Method::kRcb;
};

// This rank's bodies: ids (unique over all ranks), centroids and load weights (e.g. the number
// of constraints a body takes part in); a rank may pass none.
struct PartitionInput {
  std::vector<Id> ids;
  std::vector<Vec3> centroids;
  std::vector<double> weights;  // empty: every body weighs 1
};

struct PartitionResult {
  std::vector<int> owner;  // new owner rank of input body i (same order as the input)
  std::vector<int> part;   // its part (equals owner when nparts == ranks)
  double imbalance = 1.0;  // max part load / average part load, over all ranks (>= 1)
  std::vector<double> part_loads;  // load of every part, over all ranks
};

// Collective: every rank of the communicator calls the constructor and each method together.
// The Zoltan cuts are kept between calls (KEEP_CUTS), so owners of points and boxes can be
// queried after Partition (the seam for ghost copies, docs/parallel.md).
class Partitioner {
 public:
  Partitioner(const Communicator& comm, const BalanceSettings& settings);
  ~Partitioner();
  Partitioner(const Partitioner&) = delete;
  Partitioner& operator=(const Partitioner&) = delete;

  // Partitions the bodies of all ranks into `nparts` (0: one part per rank). Throws InputError
  // on inconsistent input (checked before any communication on every rank).
  PartitionResult Partition(const PartitionInput& input, int nparts = 0);

  // After Partition: the rank owning a point, and the ranks whose regions a box overlaps.
  int OwnerOfPoint(const Vec3& point) const;
  std::vector<int> RanksOverlapping(const Vec3& lo, const Vec3& hi) const;

  const BalanceSettings& settings() const { return settings_; }

 private:
  void Configure(int nparts);
  static void CheckSettings(const BalanceSettings& s);
  static void CheckInput(const PartitionInput& in);

  const Communicator& comm_;
  BalanceSettings settings_;
  Zoltan_Struct* zz_ = nullptr;
  const PartitionInput* input_ = nullptr;  // valid during Partition (Zoltan callbacks)
  bool partitioned_ = false;

  friend struct ZoltanCallbacks;
};

}  // namespace solfec::parallel
