// The Executor's messages between processes (sched/dist/executor_wire.h): every call and
// report comes back from its bytes exactly as it went, sketch and top keys included; and
// whatever arrives that is not such a message, cut short, padded, forged or random, is
// refused as Corruption saying what was wrong, never a crash or a huge allocation.
#include "sched/dist/executor_wire.h"

#include <gtest/gtest.h>

#include <random>

namespace mrlocal {
namespace {

TaskReport AMapReport() {
  TaskReport r;
  r.task = {7, TaskKind::kMap, 41};
  r.token = 0x0123456789abcdefull;
  r.slot = 12;
  r.status = Status::OK();
  r.start = std::chrono::nanoseconds(-5);  // loop clocks may start before the epoch of another
  r.end = std::chrono::seconds(3);
  r.dispatch_latency = std::chrono::microseconds(80);
  r.input_bytes = 64ull << 20;
  r.output_bytes = 1234567;
  r.output_records = 89;
  r.skipped_records = 2;
  r.warnings = {"block 3 of /a failed its checksum", ""};
  CountMinSketch sketch({{3, 5, 4}, {7, 11, 4}});
  sketch.Add(42, 10);
  sketch.Add(99, 7);
  r.sketch = sketch;
  r.sketch_time = std::chrono::microseconds(250);
  r.top = {{"the", "70", 70.5}, {std::string("\0\xff", 2), "", -1}};
  r.remote_input_bytes = 5555;
  return r;
}

void ExpectSameReport(const TaskReport& a, const TaskReport& b) {
  EXPECT_EQ(a.task, b.task);
  EXPECT_EQ(a.token, b.token);
  EXPECT_EQ(a.slot, b.slot);
  EXPECT_EQ(a.status.code(), b.status.code());
  EXPECT_EQ(a.status.message(), b.status.message());
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.end, b.end);
  EXPECT_EQ(a.dispatch_latency, b.dispatch_latency);
  EXPECT_EQ(a.input_bytes, b.input_bytes);
  EXPECT_EQ(a.output_bytes, b.output_bytes);
  EXPECT_EQ(a.output_records, b.output_records);
  EXPECT_EQ(a.skipped_records, b.skipped_records);
  EXPECT_EQ(a.warnings, b.warnings);
  ASSERT_EQ(a.sketch.has_value(), b.sketch.has_value());
  if (a.sketch) {
    ASSERT_EQ(a.sketch->depth(), b.sketch->depth());
    for (int i = 0; i < a.sketch->depth(); ++i) {
      EXPECT_EQ(a.sketch->hash(i).a, b.sketch->hash(i).a);
      EXPECT_EQ(a.sketch->hash(i).b, b.sketch->hash(i).b);
      EXPECT_EQ(a.sketch->hash(i).partitions, b.sketch->hash(i).partitions);
    }
    EXPECT_TRUE(std::equal(a.sketch->Cells().begin(), a.sketch->Cells().end(),
                           b.sketch->Cells().begin(), b.sketch->Cells().end()));
    EXPECT_EQ(a.sketch->Estimate(42), b.sketch->Estimate(42));
  }
  EXPECT_EQ(a.sketch_time, b.sketch_time);
  EXPECT_EQ(a.remote_input_bytes, b.remote_input_bytes);
  ASSERT_EQ(a.top.size(), b.top.size());
  for (size_t i = 0; i < a.top.size(); ++i) {
    EXPECT_EQ(a.top[i].key, b.top[i].key);
    EXPECT_EQ(a.top[i].value, b.top[i].value);
    EXPECT_EQ(a.top[i].score, b.top[i].score);
  }
}

template <class T>
T RoundTrip(const T& message) {
  Result<WireMessage> back = DecodeWire(EncodeWire(message));
  EXPECT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back.ok() && std::holds_alternative<T>(*back));
  return back.ok() && std::holds_alternative<T>(*back) ? std::get<T>(*back) : T{};
}

// One of each kind, for the refusal tests.
std::vector<WireMessage> OneOfEach() {
  ReducePlan plan{{9, 8, 16}, std::vector<uint32_t>(16, 3)};
  return {TaskLaunch{{1, TaskKind::kReduce, 2}, 3, 4, std::chrono::seconds(5), 6},
          WireCancel{4, 77},
          WirePlan{1, plan},
          WireFinishJob{1, true},
          WirePartAck{1, Status::IoError("disk full")},
          WireSpeed{3, 0.25},
          AMapReport(),
          WireAddJob{2, true, "wordcount"},
          WireMapRanks{2, {0, 1, 1, 3}},
          WireFetch{2, 1, 9, {0, 3, 5}, 1, 200, 1 << 20},
          WireChunk{9, Status::OK(), 2, 0, true, "\x01a\x01"},
          WirePart{2, 1, 9, WirePart::Step::kClose, "x\t1\n"},
          WireProgress{{{0, 0.5}, {3, 1.0}}},
          WireShutdown{}};
}

TEST(ExecutorWire, EveryCallComesBackAsItWent) {
  const TaskLaunch launch{{9, TaskKind::kReduce, 3}, 17, 5, std::chrono::milliseconds(1500), 2};
  const TaskLaunch l = RoundTrip(launch);
  EXPECT_EQ(l.task, launch.task);
  EXPECT_EQ(l.token, 17u);
  EXPECT_EQ(l.slot, 5);
  EXPECT_EQ(l.ready_since, launch.ready_since);
  EXPECT_EQ(l.attempt, 2u);
  EXPECT_EQ(RoundTrip(WireCancel{-1, ~0ull}), (WireCancel{-1, ~0ull}));
  EXPECT_EQ(RoundTrip(WireSpeed{2, 0.1}), (WireSpeed{2, 0.1}));
  const WirePlan plan = RoundTrip(WirePlan{4, ReducePlan{{3, 1, 8}, {0, 1, 1, 0, 2, 2, 0, 1}}});
  EXPECT_EQ(plan.job, 4u);
  EXPECT_EQ(plan.plan.route.partitions, 8u);
  EXPECT_EQ(plan.plan.owner, (std::vector<uint32_t>{0, 1, 1, 0, 2, 2, 0, 1}));
  const WireFinishJob f = RoundTrip(WireFinishJob{4, true});
  EXPECT_TRUE(f.success);
  const WirePartAck done = RoundTrip(WirePartAck{4, Status::Corruption("bad block")});
  EXPECT_EQ(done.status.code(), Status::Code::kCorruption);
  EXPECT_EQ(done.status.message(), "bad block");
  const WireFetch fetch = RoundTrip(WireFetch{2, 1, 9, {0, 3, 5}, 1, 200, 1 << 20});
  EXPECT_EQ(fetch.maps, (std::vector<uint32_t>{0, 3, 5}));
  EXPECT_EQ(fetch.position, 1u);
  EXPECT_EQ(fetch.cursor, 200u);
  EXPECT_EQ(fetch.max_bytes, 1u << 20);
  const WireChunk chunk = RoundTrip(WireChunk{9, Status::NotFound("gone"), 2, 7, true, "ab"});
  EXPECT_EQ(chunk.status.code(), Status::Code::kNotFound);
  EXPECT_TRUE(chunk.done);
  EXPECT_EQ(chunk.bytes, "ab");
  const WirePart part = RoundTrip(WirePart{2, 1, 9, WirePart::Step::kDrop, ""});
  EXPECT_EQ(part.step, WirePart::Step::kDrop);
  EXPECT_EQ(RoundTrip(WireMapRanks{2, {0, -1, 3}}).rank_of_map, (std::vector<int32_t>{0, -1, 3}));
  EXPECT_EQ(RoundTrip(WireAddJob{5, false, std::string("a\0b", 3)}).definition,
            std::string("a\0b", 3));
  EXPECT_EQ(RoundTrip(WireProgress{{{4, 0.25}}}).slots,
            (std::vector<std::pair<SlotId, double>>{{4, 0.25}}));
}

TEST(ExecutorWire, AReportComesBackWithItsSketchAndTopKeys) {
  ExpectSameReport(RoundTrip(AMapReport()), AMapReport());
  TaskReport failed;
  failed.task = {2, TaskKind::kReduce, 0};
  failed.status = Status::Aborted("cancelled");
  ExpectSameReport(RoundTrip(failed), failed);  // no sketch, no top keys
}

TEST(ExecutorWire, EveryTruncationAndEveryPaddingIsRefused) {
  for (const WireMessage& m : OneOfEach()) {
    const std::string bytes = EncodeWire(m);
    for (size_t n = 0; n < bytes.size(); ++n) {
      Result<WireMessage> cut = DecodeWire(std::string_view(bytes).substr(0, n));
      ASSERT_FALSE(cut.ok()) << "kind " << m.index() << " cut to " << n;
      EXPECT_EQ(cut.status().code(), Status::Code::kCorruption);
      EXPECT_EQ(cut.status().message().rfind("executor message: ", 0), 0u);
    }
    Result<WireMessage> padded = DecodeWire(bytes + '\0');
    ASSERT_FALSE(padded.ok());
    EXPECT_EQ(padded.status().message(), "executor message: 1 bytes left over");
  }
}

TEST(ExecutorWire, ForgedFieldsAreRefusedSayingWhat) {
  std::string bytes = EncodeWire(WireCancel{1, 2});
  bytes[0] = 9;
  EXPECT_EQ(DecodeWire(bytes).status().message(),
            "executor message: version 9 (this mrlocal speaks 1)");
  bytes = EncodeWire(WireCancel{1, 2});
  bytes[1] = 99;
  EXPECT_EQ(DecodeWire(bytes).status().message(), "executor message: unknown kind 99");
  // A plan that claims 2^32 - 1 owners in a few bytes: refused before any allocation.
  bytes = EncodeWire(WirePlan{1, ReducePlan{{1, 0, 2}, {0, 1}}});
  const size_t count_at = 2 + 4 + 20;
  for (size_t i = 0; i < 4; ++i) bytes[count_at + i] = '\xff';
  EXPECT_EQ(DecodeWire(bytes).status().message(),
            "executor message: plan owners: 4294967295 items in 8 bytes");
  // A reduce task of kind 2, a status code past the last.
  bytes = EncodeWire(TaskLaunch{{1, TaskKind::kMap, 0}, 1, 1, {}, 1});
  bytes[2 + 4] = 2;
  EXPECT_EQ(DecodeWire(bytes).status().message(), "executor message: task kind 2");
  bytes = EncodeWire(WirePartAck{1, Status::OK()});
  bytes[2 + 8] = 40;
  EXPECT_EQ(DecodeWire(bytes).status().message(), "executor message: status: status code 40");
}

TEST(ExecutorWire, ASketchWhoseCellsDoNotFillItsRowsIsRefused) {
  TaskReport r = AMapReport();
  std::string bytes = EncodeWire(r);
  // The cell count sits after the 2 rows of 20 bytes; claim one cell fewer and drop one.
  const size_t sketch_at = bytes.find(std::string("\x01\x02\x00\x00\x00", 5));
  ASSERT_NE(sketch_at, std::string::npos);
  const size_t count_at = sketch_at + 5 + 2 * 20;
  ASSERT_EQ(static_cast<uint8_t>(bytes[count_at]), 8);
  bytes[count_at] = 7;
  bytes.erase(count_at + 4, 8);
  EXPECT_EQ(DecodeWire(bytes).status().message(),
            "executor message: a sketch whose cells do not fill its rows");
}

TEST(ExecutorWire, RandomBytesAndFlippedBitsNeverCrash) {
  std::mt19937_64 rng(18);
  const std::vector<WireMessage> valid = OneOfEach();
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = EncodeWire(valid[i % valid.size()]);
    if (i % 2) {  // a few flipped bits in a valid message
      for (int k = 0; k < 3; ++k)
        bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8));
    } else {  // random bytes behind a valid header
      bytes.resize(2 + rng() % 64);
      for (size_t k = 2; k < bytes.size(); ++k) bytes[k] = static_cast<char>(rng());
    }
    Result<WireMessage> m = DecodeWire(bytes);
    if (m.ok()) {
      ++accepted;  // a flip in a value field is a different, well-formed message
      EXPECT_EQ(EncodeWire(*m), bytes) << "what decodes must encode to the same bytes";
    } else {
      EXPECT_EQ(m.status().code(), Status::Code::kCorruption);
    }
  }
  EXPECT_GT(accepted, 0);
}

}  // namespace
}  // namespace mrlocal
