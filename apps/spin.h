// The `synthetic` app: tasks that only burn CPU for a given amount of work, for workloads
// that describe jobs by task times (the papers' Loadgen, MarS's N(10,5) tasks). Like
// Hadoop's SleepJob, but it spins rather than sleeps, so that a throttled slot stretches it
// as it stretches real work.
//
// Map task i spins map_s[i] seconds of this thread's CPU time, checkpointing every
// millisecond, then emits `keys` keys whose values are nanoseconds of reduce work: the
// job's total reduce work spread over the keys and the map tasks. A reduce task spins the
// work of the keys routed to it. Reduce-side spinning is not throttled and not
// preemptible (the runtime checkpoints reduces between chunks of keys, not inside Reduce).
#pragma once

#include <time.h>

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mrlocal::apps {

inline int64_t ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// Spins until this thread has used `ns` more nanoseconds of CPU; `checkpoint(done)` every
// millisecond, stopping early when it returns false.
template <class Checkpoint>
bool SpinCpu(int64_t ns, Checkpoint&& checkpoint) {
  const int64_t start = ThreadCpuNs();
  int64_t next = 1'000'000;
  for (int64_t used = 0; used < ns; used = ThreadCpuNs() - start) {
    if (used >= next) {
      next += 1'000'000;
      if (!checkpoint(static_cast<double>(used) / static_cast<double>(ns))) return false;
    }
  }
  return true;
}

struct Spin {
  static constexpr std::string_view kName = "synthetic";
  static constexpr bool kTextInput = false;
  using Key = uint32_t;
  using Value = uint64_t;  // nanoseconds of reduce work

  std::shared_ptr<const std::vector<double>> map_s;  // per map task
  uint64_t reduce_ns_per_key_and_map = 0;
  uint32_t keys = 0;

  template <class Out, class Checkpoint>
  bool Map(uint32_t task_index, Out& out, Checkpoint&& checkpoint) const {
    const double secs = task_index < map_s->size() ? (*map_s)[task_index] : 0;
    if (!SpinCpu(static_cast<int64_t>(secs * 1e9), checkpoint)) return false;
    for (uint32_t k = 0; k < keys; ++k) out.Emit(k, reduce_ns_per_key_and_map);
    return true;
  }
  static void Combine(Value& into, uint64_t ns) { into += ns; }
  static void Merge(Value& into, const Value& other) { into += other; }
  static void Reduce(Key, Value& ns) {
    SpinCpu(static_cast<int64_t>(ns), [](double) { return true; });
  }
  // Partition sizes are reduce work, so the partitioner balances work.
  static uint64_t SizeUnits(Key, const Value& ns) { return ns / 1000 + 1; }
  static void FormatKey(std::string& out, Key key) { out.append(std::to_string(key)); }
  static void FormatValue(std::string& out, const Value& ns) { out.append(std::to_string(ns)); }
  static double Score(Key, const Value& ns) { return static_cast<double>(ns); }
};

}  // namespace mrlocal::apps
