#include "sched/dist/executor_wire.h"

#include <bit>
#include <cstring>
#include <type_traits>

namespace mrlocal {
namespace {

constexpr uint8_t kVersion = 1;
// The variant's alternatives, in order, are the kinds on the wire (0 first).
constexpr uint8_t kKinds = std::variant_size_v<WireMessage>;
constexpr uint8_t kStatusCodes = static_cast<uint8_t>(Status::Code::kPermissionDenied) + 1;

class Writer {
 public:
  template <class T>
  requires std::is_integral_v<T>
  void Int(T v) {
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(v);
    for (size_t i = 0; i < sizeof(T); ++i) out_.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
  }
  void Double(double v) { Int(std::bit_cast<uint64_t>(v)); }
  void Nanos(std::chrono::nanoseconds t) { Int<int64_t>(t.count()); }
  void Bytes(std::string_view s) {
    Int<uint32_t>(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void Hash(const PartitionHash& h) {
    Int(h.a);
    Int(h.b);
    Int(h.partitions);
  }
  void Task(const TaskRef& t) {
    Int(t.job);
    Int(static_cast<uint8_t>(t.kind));
    Int(t.index);
  }
  void Code(const Status& s) {
    Int(static_cast<uint8_t>(s.code()));
    Bytes(s.message());
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what Writer wrote; the first failure sticks (every later read returns zeros), and
// says what was being read.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  template <class T>
  requires std::is_integral_v<T> T Int(const char* what) {
    if (!Need(sizeof(T), what)) return T{};
    using U = std::make_unsigned_t<T>;
    U u = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      u |= static_cast<U>(static_cast<U>(static_cast<uint8_t>(in_[pos_ + i])) << (8 * i));
    pos_ += sizeof(T);
    return static_cast<T>(u);
  }
  double Double(const char* what) { return std::bit_cast<double>(Int<uint64_t>(what)); }
  std::chrono::nanoseconds Nanos(const char* what) {
    return std::chrono::nanoseconds(Int<int64_t>(what));
  }
  std::string Bytes(const char* what) {
    const uint32_t n = Int<uint32_t>(what);
    if (!Need(n, what)) return {};
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  // A list's length, refused when the bytes left cannot hold `n` items of at least
  // `min_item` bytes: a forged length never allocates more than the message is long.
  uint32_t Count(size_t min_item, const char* what) {
    const uint32_t n = Int<uint32_t>(what);
    if (failed() || static_cast<uint64_t>(n) * min_item <= in_.size() - pos_) return n;
    Fail(std::string(what) + ": " + std::to_string(n) + " items in " +
         std::to_string(in_.size() - pos_) + " bytes");
    return 0;
  }
  PartitionHash Hash() {
    PartitionHash h;
    h.a = Int<uint64_t>("hash");
    h.b = Int<uint64_t>("hash");
    h.partitions = Int<uint32_t>("hash");
    if (!failed() && h.partitions == 0) Fail("a partition function of 0 partitions");
    return h;
  }
  TaskRef Task() {
    TaskRef t;
    t.job = Int<JobId>("task");
    const uint8_t kind = Int<uint8_t>("task kind");
    if (kind > 1) Fail("task kind " + std::to_string(kind));
    t.kind = static_cast<TaskKind>(kind);
    t.index = Int<uint32_t>("task index");
    return t;
  }
  Status Code(const char* what) {
    const uint8_t code = Int<uint8_t>(what);
    if (code >= kStatusCodes) Fail(std::string(what) + ": status code " + std::to_string(code));
    std::string message = Bytes(what);
    return failed() ? Status::OK()
                    : Status::Of(static_cast<Status::Code>(code), std::move(message));
  }

  void Fail(std::string why) {
    if (!failed()) error_ = std::move(why);
  }
  bool failed() const { return !error_.empty(); }
  // OK when every byte was read and nothing failed.
  Status Done() {
    if (!failed() && pos_ != in_.size())
      Fail(std::to_string(in_.size() - pos_) + " bytes left over");
    return failed() ? Status::Corruption("executor message: " + error_) : Status::OK();
  }

 private:
  bool Need(size_t n, const char* what) {
    if (failed()) return false;
    if (in_.size() - pos_ >= n) return true;
    Fail(std::string("truncated in ") + what);
    return false;
  }
  std::string_view in_;
  size_t pos_ = 0;
  std::string error_;
};

void Put(Writer& w, const TaskLaunch& m) {
  w.Task(m.task);
  w.Int(m.token);
  w.Int<int32_t>(m.slot);
  w.Nanos(m.ready_since);
  w.Int(m.attempt);
}
void Get(Reader& r, TaskLaunch& m) {
  m.task = r.Task();
  m.token = r.Int<uint64_t>("token");
  m.slot = r.Int<int32_t>("slot");
  m.ready_since = r.Nanos("ready_since");
  m.attempt = r.Int<uint32_t>("attempt");
}

void Put(Writer& w, const WireCancel& m) {
  w.Int<int32_t>(m.slot);
  w.Int(m.token);
}
void Get(Reader& r, WireCancel& m) {
  m.slot = r.Int<int32_t>("slot");
  m.token = r.Int<uint64_t>("token");
}

void Put(Writer& w, const WirePlan& m) {
  w.Int(m.job);
  w.Hash(m.plan.route);
  w.Int<uint32_t>(static_cast<uint32_t>(m.plan.owner.size()));
  for (uint32_t o : m.plan.owner) w.Int(o);
}
void Get(Reader& r, WirePlan& m) {
  m.job = r.Int<JobId>("job");
  m.plan.route = r.Hash();
  m.plan.owner.resize(r.Count(4, "plan owners"));
  for (uint32_t& o : m.plan.owner) o = r.Int<uint32_t>("plan owner");
}

void Put(Writer& w, const WireFinishJob& m) {
  w.Int(m.job);
  w.Int<uint8_t>(m.success);
}
void Get(Reader& r, WireFinishJob& m) {
  m.job = r.Int<JobId>("job");
  const uint8_t success = r.Int<uint8_t>("success");
  if (success > 1) r.Fail("success flag " + std::to_string(success));
  m.success = success == 1;
}

void Put(Writer& w, const WirePartAck& m) {
  w.Int(m.token);
  w.Code(m.status);
}
void Get(Reader& r, WirePartAck& m) {
  m.token = r.Int<uint64_t>("token");
  m.status = r.Code("status");
}

void Put(Writer& w, const WireAddJob& m) {
  w.Int(m.job);
  w.Int<uint8_t>(m.has_output);
  w.Bytes(m.definition);
}
void Get(Reader& r, WireAddJob& m) {
  m.job = r.Int<JobId>("job");
  const uint8_t output = r.Int<uint8_t>("output flag");
  if (output > 1) r.Fail("output flag " + std::to_string(output));
  m.has_output = output == 1;
  m.definition = r.Bytes("definition");
}

void Put(Writer& w, const WireMapRanks& m) {
  w.Int(m.job);
  w.Int<uint32_t>(static_cast<uint32_t>(m.rank_of_map.size()));
  for (int32_t rank : m.rank_of_map) w.Int(rank);
}
void Get(Reader& r, WireMapRanks& m) {
  m.job = r.Int<JobId>("job");
  m.rank_of_map.resize(r.Count(4, "map ranks"));
  for (int32_t& rank : m.rank_of_map) rank = r.Int<int32_t>("map rank");
}

void Put(Writer& w, const WireFetch& m) {
  w.Int(m.job);
  w.Int(m.reduce);
  w.Int(m.token);
  w.Int<uint32_t>(static_cast<uint32_t>(m.maps.size()));
  for (uint32_t map : m.maps) w.Int(map);
  w.Int(m.position);
  w.Int(m.cursor);
  w.Int(m.max_bytes);
}
void Get(Reader& r, WireFetch& m) {
  m.job = r.Int<JobId>("job");
  m.reduce = r.Int<uint32_t>("reduce");
  m.token = r.Int<uint64_t>("token");
  m.maps.resize(r.Count(4, "fetch maps"));
  for (uint32_t& map : m.maps) map = r.Int<uint32_t>("fetch map");
  m.position = r.Int<uint32_t>("position");
  m.cursor = r.Int<uint64_t>("cursor");
  m.max_bytes = r.Int<uint32_t>("max_bytes");
}

void Put(Writer& w, const WireChunk& m) {
  w.Int(m.token);
  w.Code(m.status);
  w.Int(m.position);
  w.Int(m.cursor);
  w.Int<uint8_t>(m.done);
  w.Bytes(m.bytes);
}
void Get(Reader& r, WireChunk& m) {
  m.token = r.Int<uint64_t>("token");
  m.status = r.Code("status");
  m.position = r.Int<uint32_t>("position");
  m.cursor = r.Int<uint64_t>("cursor");
  const uint8_t done = r.Int<uint8_t>("done flag");
  if (done > 1) r.Fail("done flag " + std::to_string(done));
  m.done = done == 1;
  m.bytes = r.Bytes("chunk");
}

void Put(Writer& w, const WirePart& m) {
  w.Int(m.job);
  w.Int(m.reduce);
  w.Int(m.token);
  w.Int(static_cast<uint8_t>(m.step));
  w.Bytes(m.bytes);
}
void Get(Reader& r, WirePart& m) {
  m.job = r.Int<JobId>("job");
  m.reduce = r.Int<uint32_t>("reduce");
  m.token = r.Int<uint64_t>("token");
  const uint8_t step = r.Int<uint8_t>("part step");
  if (step > 2) r.Fail("part step " + std::to_string(step));
  m.step = static_cast<WirePart::Step>(step);
  m.bytes = r.Bytes("part bytes");
}

void Put(Writer& w, const WireProgress& m) {
  w.Int<uint32_t>(static_cast<uint32_t>(m.slots.size()));
  for (const auto& [slot, progress] : m.slots) {
    w.Int<int32_t>(slot);
    w.Double(progress);
  }
}
void Get(Reader& r, WireProgress& m) {
  m.slots.resize(r.Count(12, "progress slots"));
  for (auto& [slot, progress] : m.slots) {
    slot = r.Int<int32_t>("slot");
    progress = r.Double("progress");
  }
}

void Put(Writer&, const WireShutdown&) {}
void Get(Reader&, WireShutdown&) {}

void Put(Writer& w, const WireSpeed& m) {
  w.Int<int32_t>(m.slot);
  w.Double(m.speed);
}
void Get(Reader& r, WireSpeed& m) {
  m.slot = r.Int<int32_t>("slot");
  m.speed = r.Double("speed");
}

void PutSketch(Writer& w, const std::optional<CountMinSketch>& sketch) {
  w.Int<uint8_t>(sketch.has_value());
  if (!sketch) return;
  w.Int<uint32_t>(static_cast<uint32_t>(sketch->depth()));
  for (int i = 0; i < sketch->depth(); ++i) w.Hash(sketch->hash(i));
  w.Int<uint32_t>(static_cast<uint32_t>(sketch->Cells().size()));
  for (uint64_t c : sketch->Cells()) w.Int(c);
}
void GetSketch(Reader& r, std::optional<CountMinSketch>& sketch) {
  const uint8_t has = r.Int<uint8_t>("sketch flag");
  if (has > 1) r.Fail("sketch flag " + std::to_string(has));
  if (has != 1) return;
  std::vector<PartitionHash> rows(r.Count(20, "sketch rows"));
  for (PartitionHash& h : rows) h = r.Hash();
  std::vector<uint64_t> cells(r.Count(8, "sketch cells"));
  for (uint64_t& c : cells) c = r.Int<uint64_t>("sketch cell");
  if (r.failed()) return;
  sketch.emplace();
  if (!sketch->Assign(std::move(rows), std::move(cells)))
    r.Fail("a sketch whose cells do not fill its rows");
}

void Put(Writer& w, const TaskReport& m) {
  w.Task(m.task);
  w.Int(m.token);
  w.Int<int32_t>(m.slot);
  w.Code(m.status);
  w.Nanos(m.start);
  w.Nanos(m.end);
  w.Nanos(m.dispatch_latency);
  w.Int(m.input_bytes);
  w.Int(m.output_bytes);
  w.Int(m.output_records);
  w.Int(m.skipped_records);
  w.Int<uint32_t>(static_cast<uint32_t>(m.warnings.size()));
  for (const std::string& s : m.warnings) w.Bytes(s);
  PutSketch(w, m.sketch);
  w.Nanos(m.sketch_time);
  w.Int<uint32_t>(static_cast<uint32_t>(m.top.size()));
  for (const TopEntry& e : m.top) {
    w.Bytes(e.key);
    w.Bytes(e.value);
    w.Double(e.score);
  }
  w.Int(m.remote_input_bytes);
}
void Get(Reader& r, TaskReport& m) {
  m.task = r.Task();
  m.token = r.Int<uint64_t>("token");
  m.slot = r.Int<int32_t>("slot");
  m.status = r.Code("status");
  m.start = r.Nanos("start");
  m.end = r.Nanos("end");
  m.dispatch_latency = r.Nanos("dispatch_latency");
  m.input_bytes = r.Int<uint64_t>("input_bytes");
  m.output_bytes = r.Int<uint64_t>("output_bytes");
  m.output_records = r.Int<uint64_t>("output_records");
  m.skipped_records = r.Int<uint64_t>("skipped_records");
  m.warnings.resize(r.Count(4, "warnings"));
  for (std::string& s : m.warnings) s = r.Bytes("warning");
  GetSketch(r, m.sketch);
  m.sketch_time = r.Nanos("sketch_time");
  m.top.resize(r.Count(16, "top keys"));
  for (TopEntry& e : m.top) {
    e.key = r.Bytes("top key");
    e.value = r.Bytes("top value");
    e.score = r.Double("top score");
  }
  m.remote_input_bytes = r.Int<uint64_t>("remote_input_bytes");
}

// Decodes alternative I of the variant when `kind` is I.
template <size_t I = 0>
void GetKind(Reader& r, uint8_t kind, WireMessage& out) {
  if constexpr (I < kKinds) {
    if (kind != I) return GetKind<I + 1>(r, kind, out);
    Get(r, out.emplace<I>());
  }
}

}  // namespace

std::string EncodeWire(const WireMessage& message) {
  Writer w;
  w.Int(kVersion);
  w.Int(static_cast<uint8_t>(message.index()));
  std::visit([&w](const auto& m) { Put(w, m); }, message);
  return w.Take();
}

Result<WireMessage> DecodeWire(std::string_view bytes) {
  Reader r(bytes);
  const uint8_t version = r.Int<uint8_t>("version");
  if (!r.failed() && version != kVersion)
    r.Fail("version " + std::to_string(version) + " (this mrlocal speaks " +
           std::to_string(kVersion) + ")");
  const uint8_t kind = r.Int<uint8_t>("kind");
  if (!r.failed() && kind >= kKinds) r.Fail("unknown kind " + std::to_string(kind));
  WireMessage out;
  if (!r.failed()) GetKind(r, kind, out);
  MRLOCAL_RETURN_IF_ERROR(r.Done());
  return out;
}

}  // namespace mrlocal
