// TypedJobRuntime<App>: a typed app's map, combiner and reduce behind the type-erased
// JobRuntime. Everything per record is inlined here (the app's tokenizer, XXH3, the
// combining table); virtual calls happen once per task.
//
// The App concept (see apps/wordcount.h):
//   static constexpr std::string_view kName;
//   using Value = ...;                         // combined in place
//   template <class Emit> static void Map(std::string_view lines, std::string& scratch, Emit&&);
//   static void Combine(Value& into, Value v);
//   static uint64_t SizeUnits(std::string_view key, const Value&);   // partition statistics
//   static void Format(std::string& out, std::string_view key, const Value&);  // "k\tv\n"
//   static double Score(const Value&);         // top-N order, higher first
#pragma once

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/combining_table.h"
#include "engine/job_runtime.h"

namespace mrlocal {

template <class App>
class TypedJobRuntime final : public JobRuntime {
 public:
  using Value = typename App::Value;
  using Table = CombiningTable<Value>;
  using Entry = typename Table::Entry;

  // A map task's output: its combined entries, their keys, and the partition sketch.
  class Output final : public MapOutput {
   public:
    Output(const std::vector<PartitionHash>& hashes, Table& table) {
      table.Release(&entries_, &arena_);
      auto t0 = std::chrono::steady_clock::now();
      sketch_ = CountMinSketch(hashes);
      for (const Entry& e : entries_) {
        uint64_t units = App::SizeUnits(key(e), e.value);
        sketch_.Add(e.hash, units);
        size_units_ += units;
      }
      sketch_ns_ = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::steady_clock::now() - t0)
                                             .count());
      records_ = entries_.size();
    }
    const std::vector<Entry>& entries() const { return entries_; }
    std::string_view key(const Entry& e) const { return {arena_.data() + e.key_offset, e.key_length}; }
    uint64_t memory_bytes() const override {
      return entries_.capacity() * sizeof(Entry) + arena_.capacity();
    }

   private:
    std::vector<Entry> entries_;
    std::string arena_;
  };

  explicit TypedJobRuntime(JobRuntimeOptions options) : options_(std::move(options)) {}

  std::string_view app() const override { return App::kName; }

  // About this much input between checkpoints (throttling and preemption granularity).
  static constexpr size_t kMapChunk = 1 << 20;
  static constexpr size_t kReduceChunk = 1 << 15;  // records
  static constexpr size_t kOutputBuffer = 1 << 20;

  Result<std::unique_ptr<MapOutput>> RunMap(const MapInput& in, TaskContext& ctx) const override {
    Table table(1 << 14);
    std::string scratch;
    auto emit = [&table](std::string_view key, Value v) {
      App::Combine(table.FindOrInsert(key, XXH3_64bits(key.data(), key.size())), v);
    };
    const uint64_t total = in.bytes();
    uint64_t done = 0;
    for (std::string_view piece : in.pieces) {
      size_t pos = 0;
      while (pos < piece.size()) {
        size_t end = std::min(pos + kMapChunk, piece.size());
        if (end < piece.size()) {  // cut at a line end so no record is split
          const void* nl = std::memchr(piece.data() + end, '\n', piece.size() - end);
          end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - piece.data()) + 1
                   : piece.size();
        }
        App::Map(piece.substr(pos, end - pos), scratch, emit);
        done += end - pos;
        pos = end;
        if (!ctx.Checkpoint(static_cast<double>(done) / static_cast<double>(total)))
          return Status::Aborted(in.source + ": map task preempted");
      }
    }
    if (total == 0 && !ctx.Checkpoint(1.0)) return Status::Aborted(in.source + ": map task preempted");
    return std::unique_ptr<MapOutput>(std::make_unique<Output>(options_.hashes, table));
  }

  Result<ReduceResult> RunReduce(std::span<const MapOutput* const> maps, const ReducePlan& plan,
                                 uint32_t reduce_index, OutputSink* sink,
                                 TaskContext& ctx) const override {
    ReduceResult result;
    // Gather: every record of every map output whose partition this reduce task owns.
    uint64_t total = 0;
    for (const MapOutput* m : maps) total += m ? m->records() : 0;
    Table table(1 << 12);
    uint64_t seen = 0;
    for (const MapOutput* base : maps) {
      if (!base) continue;
      const auto& m = static_cast<const Output&>(*base);
      const auto& entries = m.entries();
      for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        if (plan.owner[plan.route(e.hash)] == reduce_index) {
          App::Combine(table.FindOrInsert(m.key(e), e.hash), e.value);
          ++result.records_in;
        }
        if ((++seen % kReduceChunk) == 0 &&
            !ctx.Checkpoint(0.5 * static_cast<double>(seen) / static_cast<double>(total)))
          return Status::Aborted("reduce task preempted");
      }
    }
    // Group is done (combined in place); sort by key and write.
    std::vector<Entry> entries;
    std::string arena;
    table.Release(&entries, &arena);
    auto key = [&arena](const Entry& e) {
      return std::string_view(arena.data() + e.key_offset, e.key_length);
    };
    std::sort(entries.begin(), entries.end(),
              [&key](const Entry& a, const Entry& b) { return key(a) < key(b); });
    std::string buffer;
    buffer.reserve(kOutputBuffer + 4096);
    for (size_t i = 0; i < entries.size(); ++i) {
      App::Format(buffer, key(entries[i]), entries[i].value);
      if (buffer.size() >= kOutputBuffer || i + 1 == entries.size()) {
        result.bytes_out += buffer.size();
        if (sink) MRLOCAL_RETURN_IF_ERROR(sink->Append(buffer));
        buffer.clear();
        if (!ctx.Checkpoint(0.5 + 0.5 * static_cast<double>(i + 1) /
                                      static_cast<double>(entries.size())))
          return Status::Aborted("reduce task preempted");
      }
    }
    if (entries.empty() && !ctx.Checkpoint(1.0)) return Status::Aborted("reduce task preempted");
    result.keys_out = entries.size();
    result.top = Top(entries, key);
    return result;
  }

 private:
  template <class KeyOf>
  std::vector<TopEntry> Top(const std::vector<Entry>& entries, KeyOf&& key) const {
    size_t n = std::min<size_t>(options_.top_n, entries.size());
    std::vector<const Entry*> order(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) order[i] = &entries[i];
    // Entries are sorted by key, so a stable order by score keeps ties in key order.
    std::partial_sort(order.begin(), order.begin() + n, order.end(),
                      [&key](const Entry* a, const Entry* b) {
                        double sa = App::Score(a->value), sb = App::Score(b->value);
                        return sa != sb ? sa > sb : key(*a) < key(*b);
                      });
    std::vector<TopEntry> top;
    std::string line;
    for (size_t i = 0; i < n; ++i) {
      line.clear();
      App::Format(line, key(*order[i]), order[i]->value);
      size_t tab = line.find('\t');
      std::string value = line.substr(tab + 1);
      if (!value.empty() && value.back() == '\n') value.pop_back();
      top.push_back({std::string(key(*order[i])), std::move(value), App::Score(order[i]->value)});
    }
    return top;
  }

  JobRuntimeOptions options_;
};

}  // namespace mrlocal
