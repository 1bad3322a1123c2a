// TypedJobRuntime<App>: a typed app's map, combiner and reduce behind the type-erased
// JobRuntime. Everything per record is inlined here (the app's tokenizer, XXH3, the
// combining table); virtual calls happen once per task.
//
// The App concept. Apps are plain structs that include no engine header; the runtime
// holds one `const App` (so a job can carry parameters, e.g. Pi's samples per map).
//
//   static constexpr std::string_view kName;
//   static constexpr bool kTextInput;       // false: no input data, the map is driven by
//                                           // its task index (Pi)
//   using Key = std::string_view | an integer type;  // integers are never turned into text
//   using Value = ...;                      // the combined state of one key
//
//   text:    template <class Out> void Map(std::string_view lines, Out& out) const;
//              `lines` is a chunk of complete lines (~1 MiB).
//   index:   template <class Out, class Checkpoint>
//            bool Map(uint32_t task_index, Out& out, Checkpoint&& checkpoint) const;
//              the whole task in one call, so it may keep state across its chunks (Pi
//              walks one Halton sequence). It calls `checkpoint(progress)` between chunks
//              of work and returns false as soon as that returns false (preempted).
//   In Map, `out.Emit(key, x)` combines x into the key's value in place through
//   `void Combine(Value&, X) const` (the app picks X: WordCount emits uint64_t 1,
//   friend-count a friend id); `out.scratch()` is a buffer for keys built on the fly.
//   A string key must stay valid only during Emit and must not be empty.
//   `out.BadRecord(line, why)` reports a malformed record (see MapEmitter); `out.Prefetch(
//   key)` hints that a key comes soon (apps that parse ahead hide the table's cache miss).
//
//   void Merge(Value& into, const Value& other) const;   // reduce side: map outputs
//   void Reduce(Key, Value&) const;          // finalizes before output (sort+dedup a list)
//   uint64_t SizeUnits(Key, const Value&) const;   // partition statistics (shuffle bytes..)
//   void FormatKey(std::string& out, Key) const;
//   void FormatValue(std::string& out, const Value&) const;  // lines are "key\tvalue\n"
//   double Score(Key, const Value&) const;   // top-N order: higher first, ties by key
//                                            // bytes (RanksBefore)
//
// Optional:
//   `static bool IsSeparator(char)`: bytes at which a line longer than a chunk may be cut
//     (a line with no such byte stays whole).
//   `void FinishMap(Key, Value&) const`: the end of the map-side combiner, run on every
//     key of a map task's output before it is measured and shuffled (friend-count sorts
//     and de-duplicates its per-task friend lists here).
#pragma once

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <concepts>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/combining_table.h"
#include "engine/job_runtime.h"
#include "engine/shuffle_records.h"

namespace mrlocal {

// The 64-bit key hash every partition function and sketch works from.
inline uint64_t KeyHash(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }
template <std::integral K>
inline uint64_t KeyHash(K key) {
  uint64_t v = static_cast<uint64_t>(key);  // same hash for the same value in any width
  return XXH3_64bits(&v, sizeof v);
}

// What an app's Map writes into: combines in place, stores no (key, value) pairs.
template <class App>
class MapEmitter {
 public:
  using Key = typename App::Key;
  using Table = CombiningTable<Key, typename App::Value>;

  MapEmitter(const App& app, Table& table) : app_(app), table_(table) {}

  template <class X>
  [[gnu::always_inline]] void Emit(Key key, X&& x) {
    app_.Combine(table_.FindOrInsert(key, KeyHash(key)), std::forward<X>(x));
  }
  std::string& scratch() { return scratch_; }
  // A hint that `key` will be emitted soon (its table slot is fetched meanwhile).
  [[gnu::always_inline]] void Prefetch(Key key) const { table_.Prefetch(KeyHash(key)); }

  // Reports a malformed record: `line` is a view of it inside the text given to Map
  // (without its line end), `why` what is wrong with it. The task then fails with
  // "PATH:LINE: why: "line"", unless the job skips bad records (then it is counted).
  [[gnu::noinline]] void BadRecord(std::string_view line, std::string_view why) {
    ++bad_records_;
    if (!bad_why_.empty()) return;  // the first one is the one reported
    bad_at_ = line.data();
    bad_why_.assign(why);
    bad_why_ += ": \"";
    for (char c : line.substr(0, 60)) {  // printable, one line
      unsigned char u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u < 0x7f && c != '"' && c != '\\') {
        bad_why_.push_back(c);
      } else {
        static constexpr char kHex[] = "0123456789abcdef";
        bad_why_ += "\\x";
        bad_why_.push_back(kHex[u >> 4]);
        bad_why_.push_back(kHex[u & 15]);
      }
    }
    bad_why_ += line.size() > 60 ? "...\"" : "\"";
  }
  uint64_t bad_records() const { return bad_records_; }
  // The first bad record: where it starts (valid only until Map returns) and what is wrong.
  const char* first_bad_at() const { return bad_at_; }
  const std::string& first_bad_why() const { return bad_why_; }

 private:
  const App& app_;
  Table& table_;
  std::string scratch_;
  uint64_t bad_records_ = 0;
  const char* bad_at_ = nullptr;
  std::string bad_why_;
};

// Stands in for the checkpoint function in the concept check below.
struct AnyCheckpoint {
  bool operator()(double) const { return true; }
};

template <class A>
concept TypedApp = TableKey<typename A::Key> &&
    requires(const A& app, typename A::Key k, typename A::Value& v, const typename A::Value& cv,
             std::string& out, MapEmitter<A>& emitter, std::string_view lines) {
  { A::kName } -> std::convertible_to<std::string_view>;
  { A::kTextInput } -> std::convertible_to<bool>;
  app.Merge(v, cv);
  app.Reduce(k, v);
  { app.SizeUnits(k, cv) } -> std::convertible_to<uint64_t>;
  app.FormatKey(out, k);
  app.FormatValue(out, cv);
  { app.Score(k, cv) } -> std::convertible_to<double>;
} &&(!A::kTextInput ||
     requires(const A& app, MapEmitter<A>& e, std::string_view lines) { app.Map(lines, e); }) &&
    (A::kTextInput || requires(const A& app, MapEmitter<A>& e, uint32_t task) {
      { app.Map(task, e, AnyCheckpoint{}) } -> std::convertible_to<bool>;
    });

template <TypedApp App>
class TypedJobRuntime final : public JobRuntime {
 public:
  using Key = typename App::Key;
  using Value = typename App::Value;
  using Table = CombiningTable<Key, Value>;
  using Entry = typename Table::Entry;

  // Map output: a combining table of (key, value, key hash), kept as the map task left it
  // (no dense copy), with the partition sketch. One map task's, or several folded into one
  // (Absorb: what a process holds of a job's map outputs, issue 23).
  class Output final : public MapOutput {
   public:
    // Map task output: takes the task's table, finishes it (FinishMap) and sketches it.
    Output(const App& app, const std::vector<PartitionHash>& hashes, Table&& table, uint64_t skipped,
           std::string first_skipped)
        : table_(std::move(table)) {
      if constexpr (requires(Key k, Value & v) { app.FinishMap(k, v); })
        for (Entry& e : table_.slots())
          if (!e.slot.empty()) app.FinishMap(key(e), e.value);
      skipped_records_ = skipped;
      first_skipped_ = std::move(first_skipped);
      auto t0 = std::chrono::steady_clock::now();
      sketch_ = CountMinSketch(hashes);
      for (const Entry& e : table_.slots()) {
        if (e.slot.empty()) continue;
        uint64_t units = app.SizeUnits(key(e), e.value);
        sketch_.Add(e.hash, units);
        size_units_ += units;
      }
      sketch_ns_ = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::steady_clock::now() - t0)
                                             .count());
      records_ = table_.size();
    }
    // Folds `other` in, merging equal keys (App::Merge), as if one map task had produced
    // both. REQUIRES: no reduce task has read this output yet. Not thread-safe.
    void Absorb(const App& app, const Output& other) {
      for (const Entry& e : other.table_.slots())
        if (!e.slot.empty()) app.Merge(table_.FindOrInsert(other.key(e), e.hash), e.value);
      records_ = table_.size();
      skipped_records_ += other.skipped_records_;
    }
    bool overflowed() const { return table_.overflowed(); }

    std::span<const Entry> slots() const { return table_.slots(); }
    Key key(const Entry& e) const { return table_.key(e); }
    const std::string& arena() const { return table_.arena(); }
    uint64_t memory_bytes() const override {
      return table_.memory_bytes() + by_reduce_.capacity() * sizeof(uint32_t);
    }

    // The slots (indexes into slots()) of the entries that `plan` gives to reduce task
    // `reduce`. The first reduce task to ask buckets every entry (a counting sort by
    // owner), so each record's route is computed once however many reduce tasks there are.
    // REQUIRES: every call passes the same plan (a job has one). Thread-safe.
    std::span<const uint32_t> EntriesFor(const ReducePlan& plan, uint32_t reduce) const {
      std::call_once(bucketed_, [&] {
        const uint32_t reduces =
            plan.owner.empty() ? 0 : *std::max_element(plan.owner.begin(), plan.owner.end()) + 1;
        const std::span<const Entry> slots = table_.slots();
        std::vector<uint32_t> owner(slots.size());
        starts_.assign(reduces + 1, 0);
        for (size_t i = 0; i < slots.size(); ++i)
          if (!slots[i].slot.empty()) ++starts_[(owner[i] = plan.owner[plan.route(slots[i].hash)]) + 1];
        for (uint32_t r = 0; r < reduces; ++r) starts_[r + 1] += starts_[r];
        by_reduce_.resize(table_.size());
        std::vector<uint32_t> next(starts_.begin(), starts_.end() - 1);
        for (size_t i = 0; i < slots.size(); ++i)
          if (!slots[i].slot.empty()) by_reduce_[next[owner[i]]++] = static_cast<uint32_t>(i);
      });
      if (reduce + 1 >= starts_.size()) return {};
      return {by_reduce_.data() + starts_[reduce], starts_[reduce + 1] - starts_[reduce]};
    }

   private:
    Table table_;
    mutable std::once_flag bucketed_;
    mutable std::vector<uint32_t> by_reduce_;  // slot indexes, grouped by reduce task
    mutable std::vector<uint32_t> starts_;     // reduce r's group: [starts_[r], starts_[r+1])
  };

  explicit TypedJobRuntime(JobRuntimeOptions options, App app = App())
      : options_(std::move(options)), app_(std::move(app)) {}

  std::string_view app() const override { return App::kName; }

  // About this much input between checkpoints (throttling and preemption granularity).
  static constexpr size_t kMapChunk = 1 << 20;
  static constexpr size_t kReduceGatherChunk = 1 << 15;  // records between checkpoints
  static constexpr size_t kReduceWriteChunk = 4096;      // keys between checkpoints
  static constexpr size_t kOutputBuffer = 1 << 20;       // bytes per sink->Append

  Result<std::unique_ptr<MapOutput>> RunMap(const MapInput& in, TaskContext& ctx) const override {
    // Sized as the job's last map task's table ended: a job's tasks see similar key sets,
    // and a table that need not grow has no old array beside the new one (the peak) and
    // rehashes nothing. Never more than this input's bytes could hold (a key and its
    // separator take two at least), so that a small task after a large one stays small.
    Table table(std::min<uint64_t>(map_table_slots_.load(std::memory_order_relaxed),
                                   in.bytes() / 2 + 16));
    MapEmitter<App> emitter(app_, table);
    const Status aborted = Status::Aborted(in.source + ": map task preempted");
    std::string first_skipped;
    if constexpr (!App::kTextInput) {
      if (!app_.Map(in.task_index, emitter,
                    [&ctx](double progress) { return ctx.Checkpoint(progress); }))
        return aborted;
    } else {
      // Runs the map over one run of complete lines, in chunks of about kMapChunk with a
      // checkpoint after each; `locate(offset)` names a byte of the run for errors.
      auto map_run = [&](std::string_view run, auto&& locate, auto&& progress) -> Status {
        size_t pos = 0;
        while (pos < run.size()) {
          const size_t end = CutPoint(run, pos + kMapChunk);
          const uint64_t bad_before = emitter.bad_records();
          app_.Map(run.substr(pos, end - pos), emitter);
          if (emitter.bad_records() > bad_before && bad_before == 0) {
            std::string where = locate(static_cast<size_t>(emitter.first_bad_at() - run.data()));
            if (!options_.skip_bad_records)
              return Status::InvalidArgument(where + ": " + emitter.first_bad_why());
            first_skipped = where + ": " + emitter.first_bad_why();
          }
          pos = end;
          if (!ctx.Checkpoint(progress(end))) return aborted;
        }
        return Status::OK();
      };
      if (in.stream) {
        for (;;) {
          Result<std::string_view> run = in.stream->Next();
          if (!run.ok()) return run.status();
          if (run->empty()) break;
          MRLOCAL_RETURN_IF_ERROR(map_run(
              *run, [&in](size_t offset) { return in.stream->Locate(offset); },
              [&in](size_t) { return in.stream->progress(); }));
        }
      } else {
        const uint64_t total = in.bytes();
        if (total > UINT32_MAX)  // key offsets are 32-bit; splits are far smaller
          return Status::InvalidArgument(in.source + ": a map task's input exceeds 4 GiB");
        uint64_t done = 0;
        for (size_t i = 0; i < in.pieces.size(); ++i) {
          MRLOCAL_RETURN_IF_ERROR(map_run(
              in.pieces[i],
              [&in, i](size_t offset) { return in.locate ? in.locate(i, offset) : in.source; },
              [done, total](size_t end) {
                return static_cast<double>(done + end) / static_cast<double>(total);
              }));
          done += in.pieces[i].size();
        }
      }
      if (!ctx.Checkpoint(1.0)) return aborted;
    }
    if (table.overflowed())
      return Status::InvalidArgument(in.source + ": more than 4 GiB of distinct keys in one task");
    map_table_slots_.store(table.slots().size(), std::memory_order_relaxed);
    const uint64_t skipped = options_.skip_bad_records ? emitter.bad_records() : 0;
    return std::unique_ptr<MapOutput>(std::make_unique<Output>(
        app_, options_.hashes, std::move(table), skipped, std::move(first_skipped)));
  }

  Status Absorb(MapOutput& into, const MapOutput& from) const override {
    auto& combined = static_cast<Output&>(into);
    combined.Absorb(app_, static_cast<const Output&>(from));
    if (combined.overflowed())
      return Status::InvalidArgument("the job's map outputs hold more than 4 GiB of distinct keys");
    return Status::OK();
  }

  bool EncodeEntries(const MapOutput& map, const ReducePlan& plan, uint32_t reduce,
                     uint64_t* cursor, size_t max_bytes, std::string* bytes) const override {
    const auto& out = static_cast<const Output&>(map);
    const std::span<const uint32_t> mine = out.EntriesFor(plan, reduce);
    const std::span<const Entry> slots = out.slots();
    uint64_t i = *cursor;
    for (; i < mine.size() && bytes->size() < max_bytes; ++i) {
      const Entry& e = slots[mine[i]];
      shuffle::PutKey(*bytes, out.key(e));
      shuffle::PutValue(app_, *bytes, e.value);
    }
    *cursor = i;
    return i >= mine.size();
  }

  Result<ReduceResult> RunReduce(std::span<const MapOutput* const> maps, const ReducePlan& plan,
                                 uint32_t reduce_index, OutputSink* sink, TaskContext& ctx,
                                 ShuffleSource* remote = nullptr) const override {
    ReduceResult result;
    const Status aborted =
        Status::Aborted("reduce task " + std::to_string(reduce_index) + " preempted");
    Gathered in;
    MRLOCAL_RETURN_IF_ERROR(Gather(maps, plan, reduce_index, ctx, remote, aborted, result, in));
    MRLOCAL_RETURN_IF_ERROR(WriteSorted(in, sink, ctx, aborted, result));
    return result;
  }

 private:
  // A reduce task's records, one entry per key, and the arena their string keys are in.
  struct Gathered {
    typename Table::Slots entries;
    std::string own_arena;
    const std::string* arena = &own_arena;
    Key key(const Entry& e) const { return Table::KeyOf(e, *arena); }
  };

  // Gathers every record of the partitions reduce task `reduce_index` owns. From one map
  // output (a process's maps absorbed into one, or a single map) the keys are distinct
  // already: its entries are copied and their keys read where they are. From several (and
  // from other processes) equal keys are merged in a table first.
  Status Gather(std::span<const MapOutput* const> maps, const ReducePlan& plan,
                uint32_t reduce_index, TaskContext& ctx, ShuffleSource* remote,
                const Status& aborted, ReduceResult& result, Gathered& in) const {
    std::vector<std::span<const uint32_t>> mine(maps.size());
    uint64_t total = 0;
    size_t inputs = 0;
    const Output* last = nullptr;
    for (size_t m = 0; m < maps.size(); ++m) {
      if (!maps[m]) continue;
      last = &static_cast<const Output&>(*maps[m]);
      mine[m] = last->EntriesFor(plan, reduce_index);
      total += mine[m].size();
      ++inputs;
    }
    if (inputs == 1 && !remote) {
      const std::span<const Entry> slots = last->slots();
      in.entries.reserve(total);
      for (const std::span<const uint32_t>& part : mine)
        for (uint32_t i : part) in.entries.push_back(slots[i]);
      in.arena = &last->arena();
      result.records_in = total;
      return ctx.Checkpoint(0.5) ? Status::OK() : aborted;
    }
    Table table(1 << 12);
    for (size_t m = 0; m < maps.size(); ++m) {
      if (mine[m].empty()) continue;
      const auto& out = static_cast<const Output&>(*maps[m]);
      const std::span<const Entry> slots = out.slots();
      for (uint32_t i : mine[m]) {
        const Entry& e = slots[i];
        app_.Merge(table.FindOrInsert(out.key(e), e.hash), e.value);
        if ((++result.records_in % kReduceGatherChunk) == 0 &&
            !ctx.Checkpoint((remote ? 0.25 : 0.5) * static_cast<double>(result.records_in) /
                            static_cast<double>(total)))
          return aborted;
      }
    }
    if (remote) MRLOCAL_RETURN_IF_ERROR(MergeRemote(*remote, reduce_index, table, ctx, result));
    if (table.overflowed())
      return Status::InvalidArgument("reduce task " + std::to_string(reduce_index) +
                                     ": more than 4 GiB of distinct keys");
    table.ReleaseInPlace(&in.entries, &in.own_arena);
    return Status::OK();
  }

  // Sorts the gathered entries by key (bytes, or numerically for integer keys), finalizes
  // (App::Reduce), formats and writes them, and keeps the top N.
  Status WriteSorted(Gathered& in, OutputSink* sink, TaskContext& ctx, const Status& aborted,
                     ReduceResult& result) const {
    typename Table::Slots& entries = in.entries;
    auto key = [&in](const Entry& e) { return in.key(e); };
    std::sort(entries.begin(), entries.end(),
              [&key](const Entry& a, const Entry& b) { return key(a) < key(b); });
    std::string buffer;
    buffer.reserve(kOutputBuffer + 4096);
    auto flush = [&]() -> Status {
      result.bytes_out += buffer.size();
      Status s = sink ? sink->Append(buffer) : Status::OK();
      buffer.clear();
      return s;
    };
    for (size_t i = 0; i < entries.size(); ++i) {
      Entry& e = entries[i];
      app_.Reduce(key(e), e.value);
      app_.FormatKey(buffer, key(e));
      buffer.push_back('\t');
      app_.FormatValue(buffer, e.value);
      buffer.push_back('\n');
      if (buffer.size() >= kOutputBuffer) MRLOCAL_RETURN_IF_ERROR(flush());
      if ((i + 1) % kReduceWriteChunk == 0 &&
          !ctx.Checkpoint(0.5 +
                          0.5 * static_cast<double>(i + 1) / static_cast<double>(entries.size())))
        return aborted;
    }
    if (!buffer.empty()) MRLOCAL_RETURN_IF_ERROR(flush());
    if (!ctx.Checkpoint(1.0)) return aborted;
    result.keys_out = entries.size();
    result.top = Top(entries, key);
    return Status::OK();
  }

  // Where a chunk that should end near `target` ends: after the next '\n', else (a line
  // longer than a chunk) after the next separator byte if the app names them.
  static size_t CutPoint(std::string_view piece, size_t target) {
    if (target >= piece.size()) return piece.size();
    const char* base = piece.data();
    const size_t rest = piece.size() - target;
    if constexpr (requires(char c) {
                    { App::IsSeparator(c) } -> std::convertible_to<bool>;
                  }) {
      constexpr size_t kLook = 1 << 16;  // prefer a line end if one is near
      if (const void* nl = std::memchr(base + target, '\n', std::min(rest, kLook)))
        return static_cast<size_t>(static_cast<const char*>(nl) - base) + 1;
      for (size_t i = target; i < piece.size(); ++i)
        if (App::IsSeparator(base[i])) return i + 1;
      return piece.size();
    } else {
      const void* nl = std::memchr(base + target, '\n', rest);
      return nl ? static_cast<size_t>(static_cast<const char*>(nl) - base) + 1 : piece.size();
    }
  }

  // Merges what other processes send for this reduce task into `table`, chunk by chunk.
  // Its total is not known ahead: progress goes from 0.25 towards 0.5 as chunks come.
  Status MergeRemote(ShuffleSource& remote, uint32_t reduce_index, Table& table, TaskContext& ctx,
                     ReduceResult& result) const {
    for (double chunks = 1;; ++chunks) {
      Result<std::string> chunk = remote.Next();
      if (!chunk.ok()) return chunk.status();
      if (chunk->empty()) return Status::OK();
      std::string_view in = *chunk;
      Value value{};
      while (!in.empty()) {
        Key key{};
        if (!shuffle::GetKey(in, key) || !shuffle::GetValue(app_, in, value))
          return Status::Corruption("reduce task " + std::to_string(reduce_index) +
                                    ": a malformed shuffle record from another process");
        app_.Merge(table.FindOrInsert(key, KeyHash(key)), value);
        ++result.records_in;
      }
      if (!ctx.Checkpoint(0.5 - 0.25 / chunks))
        return Status::Aborted("reduce task " + std::to_string(reduce_index) + " preempted");
    }
  }

  // This task's best `top_n` keys in RanksBefore order: ties go by the formatted key, which
  // for an integer key is not the order of `entries`. One pass keeps the n best so far in
  // a heap, the worst on top: a key is formatted (into a reused buffer) only when its score
  // reaches the worst kept, and only the n kept get their value. Memory is O(n) even when
  // every key ties (100 million words seen once each).
  template <class KeyOf>
  std::vector<TopEntry> Top(std::span<const Entry> entries, KeyOf&& key) const {
    const size_t n = std::min<size_t>(std::max(options_.top_n, 0), entries.size());
    if (n == 0) return {};
    std::vector<std::pair<TopEntry, uint32_t>> kept;  // (entry, index into entries)
    kept.reserve(n);
    // A heap under "ranks before" has the worst kept on top.
    auto better = [](const auto& a, const auto& b) { return RanksBefore(a.first, b.first); };
    TopEntry probe;
    for (size_t i = 0; i < entries.size(); ++i) {
      probe.score = app_.Score(key(entries[i]), entries[i].value);
      if (kept.size() == n && probe.score < kept.front().first.score) continue;
      probe.key.clear();
      app_.FormatKey(probe.key, key(entries[i]));
      if (kept.size() == n) {
        if (!RanksBefore(probe, kept.front().first)) continue;
        std::pop_heap(kept.begin(), kept.end(), better);
        kept.back().first.key.swap(probe.key);
        kept.back().first.score = probe.score;
        kept.back().second = static_cast<uint32_t>(i);
      } else {
        kept.emplace_back(probe, static_cast<uint32_t>(i));
      }
      std::push_heap(kept.begin(), kept.end(), better);
    }
    std::sort_heap(kept.begin(), kept.end(), better);  // best first
    std::vector<TopEntry> top;
    top.reserve(n);
    for (auto& [entry, index] : kept) {
      top.push_back(std::move(entry));
      app_.FormatValue(top.back().value, entries[index].value);
    }
    return top;
  }

  JobRuntimeOptions options_;
  App app_;
  mutable std::atomic<size_t> map_table_slots_{1 << 14};  // the last map task's table size
};

}  // namespace mrlocal
