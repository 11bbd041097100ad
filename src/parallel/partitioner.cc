// Zoltan geometric partitioner (RCB or RIB) of bodies given by id, centroid and weight.
#include "parallel/partitioner.h"

#include <zoltan.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "base/errors.h"

namespace solfec::parallel {

namespace {

// A 64-bit Id spans this many Zoltan global-id words (ZOLTAN_ID_TYPE may be 32-bit).
constexpr int kGidWords = static_cast<int>((sizeof(Id) + sizeof(ZOLTAN_ID_TYPE) - 1) /
                                           sizeof(ZOLTAN_ID_TYPE));

void PackId(Id id, ZOLTAN_ID_PTR out) {
  ZOLTAN_ID_TYPE words[kGidWords] = {};
  std::memcpy(words, &id, sizeof(Id));
  std::copy(words, words + kGidWords, out);
}

void SetParam(Zoltan_Struct* zz, const char* name, const std::string& value) {
  Zoltan_Set_Param(zz, name, value.c_str());
}

}  // namespace

// Zoltan query functions; `data` is the Partitioner whose input_ is being partitioned.
struct ZoltanCallbacks {
  static const PartitionInput& In(void* data) {
    return *static_cast<Partitioner*>(data)->input_;
  }
  static double Weight(void* data, size_t i) {
    const Partitioner& p = *static_cast<Partitioner*>(data);
    double w = p.input_->weights.empty() ? 1.0 : p.input_->weights[i];
    double f = p.settings_.weight_factor;
    return (1.0 - f) + f * w;
  }
  static int NumObjects(void* data, int* ierr) {
    *ierr = ZOLTAN_OK;
    return static_cast<int>(In(data).ids.size());
  }
  static void Objects(void* data, int ngid, int /*nlid*/, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids,
                      int wdim, float* weights, int* ierr) {
    const PartitionInput& in = In(data);
    for (size_t i = 0; i < in.ids.size(); ++i) {
      PackId(in.ids[i], gids + i * ngid);
      lids[i] = static_cast<ZOLTAN_ID_TYPE>(i);
      if (wdim > 0) weights[i] = static_cast<float>(Weight(data, i));
    }
    *ierr = ZOLTAN_OK;
  }
  static int NumGeom(void*, int* ierr) {
    *ierr = ZOLTAN_OK;
    return 3;
  }
  static void Geom(void* data, int /*ngid*/, int nlid, int nobj, ZOLTAN_ID_PTR /*gids*/,
                   ZOLTAN_ID_PTR lids, int dim, double* xyz, int* ierr) {
    const PartitionInput& in = In(data);
    for (int k = 0; k < nobj; ++k) {
      const Vec3& c = in.centroids[lids[k * nlid]];
      for (int d = 0; d < dim; ++d) xyz[k * dim + d] = c[d];
    }
    *ierr = ZOLTAN_OK;
  }
};

Partitioner::Partitioner(const Communicator& comm, const BalanceSettings& settings)
    : comm_(comm), settings_(settings) {
  CheckSettings(settings_);
  float version = 0.0f;
  Zoltan_Initialize(0, nullptr, &version);  // idempotent; MPI is initialised by the caller
  zz_ = Zoltan_Create(comm_.comm());
  Zoltan_Set_Num_Obj_Fn(zz_, &ZoltanCallbacks::NumObjects, this);
  Zoltan_Set_Obj_List_Fn(zz_, &ZoltanCallbacks::Objects, this);
  Zoltan_Set_Num_Geom_Fn(zz_, &ZoltanCallbacks::NumGeom, this);
  Zoltan_Set_Geom_Multi_Fn(zz_, &ZoltanCallbacks::Geom, this);
}

Partitioner::~Partitioner() { Zoltan_Destroy(&zz_); }

void Partitioner::CheckSettings(const BalanceSettings& s) {
  if (!(s.tolerance >= 1.0))
    throw InputError("IMBALANCE_TOLERANCE: tolerance " + std::to_string(s.tolerance) +
                     " is below 1 (argument 'tolerance'); pass a ratio >= 1, e.g. 1.3");
  if (!(s.degenerate_ratio > 1.0))
    throw InputError("IMBALANCE_TOLERANCE: degenratio " + std::to_string(s.degenerate_ratio) +
                     " is not above 1 (argument 'degenratio'); pass e.g. 10");
  if (!(s.weight_factor >= 0.0 && s.weight_factor <= 1.0))
    throw InputError("IMBALANCE_TOLERANCE: weightfactor " + std::to_string(s.weight_factor) +
                     " is outside [0, 1] (argument 'weightfactor')");
}

void Partitioner::CheckInput(const PartitionInput& in) {
  if (in.centroids.size() != in.ids.size() ||
      (!in.weights.empty() && in.weights.size() != in.ids.size()))
    throw InputError("Partitioner::Partition: ids, centroids and weights differ in length "
                     "(argument 'input'); pass one centroid (and weight) per id");
  for (double w : in.weights)
    if (!(w >= 0.0))
      throw InputError("Partitioner::Partition: negative or NaN body weight (argument "
                       "'input.weights'); pass loads >= 0");
}

void Partitioner::Configure(int nparts) {
  const bool rcb = settings_.method == BalanceSettings::Method::kRcb;
  SetParam(zz_, "DEBUG_LEVEL", "0");
  SetParam(zz_, "LB_METHOD", rcb ? "RCB" : "RIB");
  SetParam(zz_, "LB_APPROACH", "REPARTITION");
  SetParam(zz_, "NUM_GID_ENTRIES", std::to_string(kGidWords));
  SetParam(zz_, "NUM_LID_ENTRIES", "1");
  SetParam(zz_, "OBJ_WEIGHT_DIM", "1");
  SetParam(zz_, "RETURN_LISTS", "PARTS");
  SetParam(zz_, "NUM_GLOBAL_PARTS", std::to_string(nparts));
  SetParam(zz_, "IMBALANCE_TOL", std::to_string(settings_.tolerance));
  SetParam(zz_, "KEEP_CUTS", "1");
  SetParam(zz_, "REDUCE_DIMENSIONS", "1");
  SetParam(zz_, "DEGENERATE_RATIO", std::to_string(settings_.degenerate_ratio));
  if (rcb) {
    SetParam(zz_, "RCB_LOCK_DIRECTIONS", settings_.lock_directions ? "1" : "0");
    SetParam(zz_, "RCB_REUSE", "1");  // start from the previous cuts when rebalancing
  }
}

PartitionResult Partitioner::Partition(const PartitionInput& input, int nparts) {
  CheckInput(input);
  if (nparts <= 0) nparts = comm_.size();
  Configure(nparts);
  input_ = &input;
  int changes = 0, ngid = 0, nlid = 0, nimp = 0, nexp = 0;
  ZOLTAN_ID_PTR imp_gid = nullptr, imp_lid = nullptr, exp_gid = nullptr, exp_lid = nullptr;
  int *imp_proc = nullptr, *imp_part = nullptr, *exp_proc = nullptr, *exp_part = nullptr;
  int rc = Zoltan_LB_Partition(zz_, &changes, &ngid, &nlid, &nimp, &imp_gid, &imp_lid, &imp_proc,
                               &imp_part, &nexp, &exp_gid, &exp_lid, &exp_proc, &exp_part);
  input_ = nullptr;
  if (rc != ZOLTAN_OK && rc != ZOLTAN_WARN)
    throw SolverError("RUN: the domain partitioning failed on rank " +
                      std::to_string(comm_.rank()) + " (Zoltan_LB_Partition returned " +
                      std::to_string(rc) + "); check IMBALANCE_TOLERANCE's arguments");
  PartitionResult out;
  // RETURN_LISTS=PARTS: the export list holds every local object with its new part and rank.
  out.owner.assign(input.ids.size(), comm_.rank());
  out.part.assign(input.ids.size(), comm_.rank());
  for (int k = 0; k < nexp; ++k) {
    out.owner[exp_lid[k * nlid]] = exp_proc[k];
    out.part[exp_lid[k * nlid]] = exp_part[k];
  }
  Zoltan_LB_Free_Part(&imp_gid, &imp_lid, &imp_proc, &imp_part);
  Zoltan_LB_Free_Part(&exp_gid, &exp_lid, &exp_proc, &exp_part);
  partitioned_ = true;

  std::vector<double> loads(static_cast<size_t>(nparts), 0.0);
  input_ = &input;
  for (size_t i = 0; i < input.ids.size(); ++i) loads[out.part[i]] += ZoltanCallbacks::Weight(
      this, i);
  input_ = nullptr;
  out.part_loads = comm_.AllReduceSum(loads);
  double total = 0.0, peak = 0.0;
  for (double l : out.part_loads) {
    total += l;
    peak = std::max(peak, l);
  }
  out.imbalance = total > 0.0 ? peak / (total / nparts) : 1.0;
  return out;
}

int Partitioner::OwnerOfPoint(const Vec3& point) const {
  if (!partitioned_) return comm_.rank();
  double x[3] = {point.x(), point.y(), point.z()};
  int proc = comm_.rank(), part = 0;
  Zoltan_LB_Point_PP_Assign(zz_, x, &proc, &part);
  return proc;
}

std::vector<int> Partitioner::RanksOverlapping(const Vec3& lo, const Vec3& hi) const {
  if (!partitioned_) return {comm_.rank()};
  std::vector<int> procs(static_cast<size_t>(comm_.size()));
  int nprocs = 0;
  Zoltan_LB_Box_Assign(zz_, lo.x(), lo.y(), lo.z(), hi.x(), hi.y(), hi.z(), procs.data(),
                       &nprocs);
  procs.resize(static_cast<size_t>(nprocs));
  std::sort(procs.begin(), procs.end());
  return procs;
}

}  // namespace solfec::parallel
