// SimLoop's progress hook: called between events at the pace asked for, and changing
// nothing in what the events do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sched/sim/sim_loop.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;

// Ten events at times 1..10 s, each appending its letter.
void ScheduleTen(SimLoop& loop, std::string& order) {
  for (int i = 0; i < 10; ++i)
    loop.At(seconds(i + 1), [&order, i] { order += static_cast<char>('a' + i); });
}

TEST(SimLoopProgress, CalledAfterEveryNEventsBetweenThem) {
  SimLoop loop;
  std::string order;
  ScheduleTen(loop, order);
  std::vector<std::string> seen;  // what had run at each call
  std::vector<Time> at;
  loop.SetProgressHook(3, [&] {
    seen.push_back(order);
    at.push_back(loop.Now());
  });
  loop.Run();
  EXPECT_EQ(order, "abcdefghij");
  EXPECT_EQ(seen, (std::vector<std::string>{"abc", "abcdef", "abcdefghi"}));
  EXPECT_EQ(at, (std::vector<Time>{seconds(3), seconds(6), seconds(9)}));
}

TEST(SimLoopProgress, NeverCalledUnsetOrAtZero) {
  for (uint64_t every : {uint64_t{0}, uint64_t{100}}) {
    SimLoop loop;
    std::string order;
    ScheduleTen(loop, order);
    int calls = 0;
    loop.SetProgressHook(every, [&] { ++calls; });
    loop.Run();
    EXPECT_EQ(order, "abcdefghij");
    EXPECT_EQ(calls, 0) << every;
  }
}

}  // namespace
}  // namespace mrlocal
