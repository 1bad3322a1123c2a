#include "sched/partitioner.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>

namespace mrlocal {
namespace {

// Largest partition first; each goes to the reduce task that minimizes
// (load + size) / speed (with unit speeds: the least-loaded one). Ties: lower index.
void AssignLargestFirst(std::span<const uint64_t> sizes, std::span<const double> speeds,
                        std::vector<uint32_t>& owner, std::vector<uint64_t>& load) {
  const uint32_t p = static_cast<uint32_t>(sizes.size());
  const size_t R = speeds.size();
  std::vector<uint32_t> order(p);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return sizes[a] > sizes[b]; });
  owner.assign(p, 0);
  load.assign(R, 0);
  for (uint32_t i : order) {
    size_t best = 0;
    double best_finish = 0;
    for (size_t r = 0; r < R; ++r) {
      double finish = static_cast<double>(load[r] + sizes[i]) / speeds[r];
      if (r == 0 || finish < best_finish) {
        best = r;
        best_finish = finish;
      }
    }
    owner[i] = static_cast<uint32_t>(best);
    load[best] += sizes[i];
  }
}

double Phase(const std::vector<uint64_t>& load, std::span<const double> speeds) {
  double m = 0;
  for (size_t r = 0; r < load.size(); ++r) m = std::max(m, static_cast<double>(load[r]) / speeds[r]);
  return m;
}

Status Check(const CountMinSketch& sizes, std::span<const double> speeds) {
  if (speeds.empty()) return Status::InvalidArgument("a job needs at least one reduce task");
  if (sizes.depth() < 1 || sizes.width() < speeds.size())
    return Status::InvalidArgument("need at least as many partitions (" +
                                   std::to_string(sizes.width()) + ") as reduce tasks (" +
                                   std::to_string(speeds.size()) + ")");
  for (double s : speeds)
    if (!(s > 0 && s <= 1)) return Status::InvalidArgument("reduce slot speed out of (0, 1]");
  return Status::OK();
}

PartitionPlan Finish(const CountMinSketch& sizes, int row, std::vector<uint32_t> owner,
                     std::vector<uint64_t> load, std::span<const double> speeds) {
  PartitionPlan plan;
  plan.row = row;
  plan.plan.route = sizes.hash(row);
  plan.plan.owner = std::move(owner);
  plan.estimated_phase = Phase(load, speeds);
  plan.skewness = Skewness(sizes.Row(row));
  plan.balance = Balance(load);
  plan.reduce_load = std::move(load);
  return plan;
}

template <class F>
Result<PartitionPlan> Timed(F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  Result<PartitionPlan> plan = f();
  if (plan.ok())
    plan->cost_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return plan;
}

class HashPartitioner final : public Partitioner {
 public:
  std::string_view name() const override { return "hash"; }
  Result<PartitionPlan> Plan(const CountMinSketch& sizes,
                             std::span<const double> speeds) const override {
    return Timed([&]() -> Result<PartitionPlan> {
      MRLOCAL_RETURN_IF_ERROR(Check(sizes, speeds));
      if (sizes.width() != speeds.size())
        return Status::InvalidArgument("the hash partitioner needs as many partitions (" +
                                       std::to_string(sizes.width()) + ") as reduce tasks (" +
                                       std::to_string(speeds.size()) + ")");
      std::vector<uint32_t> owner(sizes.width());
      std::iota(owner.begin(), owner.end(), 0);
      auto row = sizes.Row(0);
      std::vector<uint64_t> load(row.begin(), row.end());
      return Finish(sizes, 0, std::move(owner), std::move(load), speeds);
    });
  }
};

// lb, dp and dp-sketch differ only in the speeds they plan with and the rows they try.
class LargestFirstPartitioner final : public Partitioner {
 public:
  LargestFirstPartitioner(std::string name, bool use_speed, bool all_rows)
      : name_(std::move(name)), use_speed_(use_speed), all_rows_(all_rows) {}
  std::string_view name() const override { return name_; }
  Result<PartitionPlan> Plan(const CountMinSketch& sizes,
                             std::span<const double> speeds) const override {
    return Timed([&]() -> Result<PartitionPlan> {
      MRLOCAL_RETURN_IF_ERROR(Check(sizes, speeds));
      std::vector<double> unit(speeds.size(), 1.0);
      std::span<const double> plan_speeds = use_speed_ ? speeds : std::span<const double>(unit);
      std::optional<PartitionPlan> best;
      int rows = all_rows_ ? sizes.depth() : 1;
      for (int row = 0; row < rows; ++row) {
        std::vector<uint32_t> owner;
        std::vector<uint64_t> load;
        AssignLargestFirst(sizes.Row(row), plan_speeds, owner, load);
        // Judge every plan by its phase length at the real speeds.
        PartitionPlan p = Finish(sizes, row, std::move(owner), std::move(load), speeds);
        if (!best || p.estimated_phase < best->estimated_phase) best = std::move(p);
      }
      return std::move(*best);
    });
  }

 private:
  std::string name_;
  bool use_speed_;
  bool all_rows_;
};

}  // namespace

double Skewness(std::span<const uint64_t> s) {
  uint64_t max = 0;
  double sum = 0;
  for (auto v : s) {
    max = std::max(max, v);
    sum += static_cast<double>(v);
  }
  if (max == 0) return 0;
  return 100.0 - 100.0 * sum / (static_cast<double>(s.size()) * static_cast<double>(max));
}

double Balance(std::span<const uint64_t> load) {
  uint64_t max = 0;
  double sum = 0;
  for (auto v : load) {
    max = std::max(max, v);
    sum += static_cast<double>(v);
  }
  if (max == 0) return 100;
  return 100.0 * sum / (static_cast<double>(load.size()) * static_cast<double>(max));
}

Result<std::unique_ptr<Partitioner>> MakePartitioner(std::string_view name) {
  if (name == "hash") return std::unique_ptr<Partitioner>(std::make_unique<HashPartitioner>());
  if (name == "lb")
    return std::unique_ptr<Partitioner>(std::make_unique<LargestFirstPartitioner>("lb", false, false));
  if (name == "dp")
    return std::unique_ptr<Partitioner>(std::make_unique<LargestFirstPartitioner>("dp", true, false));
  if (name == "dp-sketch")
    return std::unique_ptr<Partitioner>(
        std::make_unique<LargestFirstPartitioner>("dp-sketch", true, true));
  return Status::InvalidArgument("unknown partitioner '" + std::string(name) +
                                 "' (known: hash, lb, dp, dp-sketch)");
}

std::vector<std::string> PartitionerNames() { return {"hash", "lb", "dp", "dp-sketch"}; }

}  // namespace mrlocal
