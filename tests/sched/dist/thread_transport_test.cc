// Ranks as threads (sched/dist/thread_transport.h), the stand-in for mpirun in the suite:
// messages between two ranks arrive in the order sent, from any number of senders at once;
// every wait is bounded; a rank that dies is named to those who wait, never a hang.
#include "sched/dist/thread_transport.h"

#include <gtest/gtest.h>

#include <map>
#include <thread>

#include "sched/dist/executor_wire.h"

namespace mrlocal {
namespace {

using std::chrono::milliseconds;

TEST(ThreadTransport, MessagesFromEachSenderArriveInOrderAmidOthers) {
  constexpr int kRanks = 4, kEach = 2000;
  ThreadTransportGroup group(kRanks);
  std::vector<std::thread> senders;
  for (int r = 1; r < kRanks; ++r)
    senders.emplace_back([&group, r] {
      for (int i = 0; i < kEach; ++i)
        ASSERT_TRUE(
            group.Rank(r).Send(0, EncodeWire(WireCancel{r, static_cast<uint64_t>(i)})).ok());
    });
  std::map<int, uint64_t> next;
  for (int got = 0; got < (kRanks - 1) * kEach; ++got) {
    auto m = group.Rank(0).Receive(std::chrono::seconds(10));
    ASSERT_TRUE(m.ok() && m->has_value());
    auto cancel = DecodeWire((*m)->bytes);
    ASSERT_TRUE(cancel.ok());
    const WireCancel& c = std::get<WireCancel>(*cancel);
    EXPECT_EQ(c.slot, (*m)->from);
    EXPECT_EQ(c.token, next[(*m)->from]++) << "from rank " << (*m)->from;
  }
  for (auto& t : senders) t.join();
  for (int r = 1; r < kRanks; ++r) EXPECT_EQ(next[r], static_cast<uint64_t>(kEach));
}

TEST(ThreadTransport, AWaitIsBoundedAndANonRankIsRefused) {
  ThreadTransportGroup group(2);
  auto none = group.Rank(1).Receive(milliseconds(10));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_EQ(group.Rank(0).Send(2, "x").message(), "rank 2 is not in a group of 2");
  EXPECT_EQ(group.Rank(0).Send(-1, "x").code(), Status::Code::kInvalidArgument);
}

TEST(ThreadTransport, ADeadRankIsNamedToSendersAndToThoseWaiting) {
  ThreadTransportGroup group(3);
  ASSERT_TRUE(group.Rank(2).Send(0, "before").ok());
  Result<std::optional<Transport::Message>> waited = std::optional<Transport::Message>();
  std::thread waiter([&] {
    auto first = group.Rank(0).Receive(std::chrono::seconds(10));  // what came before
    ASSERT_TRUE(first.ok() && first->has_value());
    EXPECT_EQ((*first)->bytes, "before");
    waited = group.Rank(0).Receive(std::chrono::seconds(30));
  });
  // Most often the waiter is blocked by now (the wake-up path); either order gives the same.
  std::this_thread::sleep_for(milliseconds(20));
  group.Kill(2);
  waiter.join();
  ASSERT_FALSE(waited.ok());
  EXPECT_EQ(waited.status().message(), "rank 2 died");
  EXPECT_EQ(group.Rank(1).Send(2, "x").message(), "rank 2 died");
}

}  // namespace
}  // namespace mrlocal
