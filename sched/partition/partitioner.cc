#include "sched/partition/partitioner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "sched/partition/hash_partitioner.h"
#include "sched/partition/largest_first_partitioner.h"

namespace mrlocal {
namespace {

Status CheckInputs(const CountMinSketch& sizes, std::span<const double> speeds) {
  if (sizes.depth() < 1) return Status::InvalidArgument("partition sizes: the sketch has no rows");
  if (speeds.empty()) return Status::InvalidArgument("a job needs at least one reduce task");
  if (sizes.width() < speeds.size())
    return Status::InvalidArgument("need at least as many partitions (" +
                                   std::to_string(sizes.width()) + ") as reduce tasks (" +
                                   std::to_string(speeds.size()) + ")");
  for (size_t r = 0; r < speeds.size(); ++r) {
    if (!(speeds[r] > 0 && speeds[r] <= 1)) {  // also rejects NaN
      char buf[96];
      std::snprintf(buf, sizeof buf, "reduce task %zu: slot speed %g is not in (0, 1]", r,
                    speeds[r]);
      return Status::InvalidArgument(buf);
    }
  }
  return Status::OK();
}

struct Entry {
  std::string_view name;
  std::function<std::unique_ptr<Partitioner>()> make;
};

const std::vector<Entry>& Registry() {
  using Mode = LargestFirstPartitioner::Mode;
  static const std::vector<Entry> registry = {
      {"hash", [] { return std::make_unique<HashPartitioner>(); }},
      {"lb", [] { return std::make_unique<LargestFirstPartitioner>(Mode::kLb); }},
      {"dp", [] { return std::make_unique<LargestFirstPartitioner>(Mode::kDp); }},
      {"dp-sketch", [] { return std::make_unique<LargestFirstPartitioner>(Mode::kDpSketch); }},
      {"lb-sketch", [] { return std::make_unique<LargestFirstPartitioner>(Mode::kLbSketch); }},
  };
  return registry;
}

}  // namespace

Result<PartitionPlan> Partitioner::Plan(const CountMinSketch& sizes,
                                        std::span<const double> speeds) const {
  const auto start = std::chrono::steady_clock::now();
  MRLOCAL_RETURN_IF_ERROR(CheckInputs(sizes, speeds));
  Result<Assignment> a = Assign(sizes, speeds);
  if (!a.ok()) return a.status();
  const uint32_t p = sizes.width();
  const size_t R = speeds.size();
  if (a->row < 0 || a->row >= sizes.depth() || a->owner.size() != p)
    return Status::Internal("partitioner " + std::string(name()) + " returned a malformed plan");

  PartitionPlan plan;
  plan.row = a->row;
  plan.plan.route = sizes.hash(a->row);
  std::span<const uint64_t> row = sizes.Row(a->row);
  plan.reduce_load.assign(R, 0);
  for (uint32_t i = 0; i < p; ++i) {
    if (a->owner[i] >= R)
      return Status::Internal("partitioner " + std::string(name()) +
                              " gave a partition to a reduce task that does not exist");
    plan.reduce_load[a->owner[i]] += row[i];
  }
  plan.plan.owner = std::move(a->owner);
  for (size_t r = 0; r < R; ++r)
    plan.estimated_phase =
        std::max(plan.estimated_phase, static_cast<double>(plan.reduce_load[r]) / speeds[r]);
  plan.skewness = Skewness(row);
  plan.balance = Balance(plan.reduce_load);
  plan.cost_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  return plan;
}

namespace {

// mean / max of the sizes; 1 when every size is 0 (nothing is out of balance).
double MeanOverMax(std::span<const uint64_t> sizes) {
  uint64_t max = 0;
  double sum = 0;
  for (uint64_t v : sizes) {
    max = std::max(max, v);
    sum += static_cast<double>(v);
  }
  if (max == 0) return 1;
  return sum / (static_cast<double>(sizes.size()) * static_cast<double>(max));
}

}  // namespace

double Skewness(std::span<const uint64_t> s) { return 100.0 - 100.0 * MeanOverMax(s); }

double Balance(std::span<const uint64_t> loads) { return 100.0 * MeanOverMax(loads); }

Result<std::unique_ptr<Partitioner>> MakePartitioner(std::string_view name) {
  for (const Entry& e : Registry())
    if (e.name == name) return e.make();
  std::string known;
  for (const Entry& e : Registry()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  return Status::InvalidArgument("unknown partitioner '" + std::string(name) +
                                 "' (valid: " + known + ")");
}

std::vector<std::string> PartitionerNames() {
  std::vector<std::string> names;
  for (const Entry& e : Registry()) names.emplace_back(e.name);
  return names;
}

}  // namespace mrlocal
