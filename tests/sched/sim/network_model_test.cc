// The simulated network between hosts (issue 18): a reduce pulls the share of its input
// that maps on other hosts made, at the link's rate plus a latency per message, before it
// computes; and --link's text.
#include "sched/sim/network_model.h"

#include <gtest/gtest.h>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

TEST(NetworkModel, ParsesARateAndALatency) {
  auto m = NetworkModel::ParseLink("1gbit,100us", 2);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_DOUBLE_EQ(m->bytes_per_s, 125e6);
  EXPECT_EQ(m->latency, std::chrono::microseconds(100));
  EXPECT_EQ(m->hosts, 2);
  EXPECT_DOUBLE_EQ(NetworkModel::ParseLink("125MB", 3)->bytes_per_s, 125e6);
  EXPECT_EQ(NetworkModel::ParseLink("10mbit", 2)->latency, Duration(0));
  for (const char* bad : {"fast", "0gbit", "-1mbit", "1gbit,-3s", "1gbit,", "1 gbit", "1e99GB"}) {
    auto r = NetworkModel::ParseLink(bad, 2);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find(std::string("'") + bad + "': "), std::string::npos)
        << r.status().message();
  }
}

TEST(NetworkModel, TransferTimeIsBytesOverRatePlusALatencyPerMessage) {
  NetworkModel m;
  m.hosts = 2;
  m.bytes_per_s = 1e6;
  m.latency = std::chrono::milliseconds(10);
  m.message_bytes = 400'000;
  // 1 MB: 1 s on the wire, in 3 messages (400 kB, 400 kB, 200 kB).
  EXPECT_EQ(m.TransferTime(1e6), FromSeconds(1.03));
  EXPECT_EQ(m.TransferTime(0), Duration(0));
  m.hosts = 1;  // one host: no network
  EXPECT_EQ(m.TransferTime(1e6), Duration(0));
}

// Two nodes of one map and one reduce slot, on two hosts; two maps of 1 s each make
// 1 MB each, one per host; the reduce (1 s) takes all of it, half from the other host.
JobState RunOneJob(const NetworkModel& network, uint64_t* remote_bytes) {
  const std::vector<SlotInfo> slots = testing::ClusterSlots("2x(1m,1r,1.0)");
  SimLoop loop;
  SimExecutorOptions o;
  o.network = network;
  SimExecutor ex(loop, slots, o);
  auto policy = MakePolicy("fifo");
  Controller c(loop, ex, **policy, slots, 2, std::move(MakePartitioner("hash")).value());
  JobSpec spec = testing::JobBuilder().Maps(2).Reduces(1).Build();
  SimJob model;
  model.map_work_s = {1.0, 1.0};
  model.map_output = {1'000'000, 1'000'000};
  model.reduce_work_s = {1.0};
  const JobId id = c.next_job_id();
  ex.AddJob(id, model);
  c.Submit(spec);
  c.RunUntilIdle();
  *remote_bytes = c.outcome(id).remote_shuffle_bytes;
  return c.state().job(id);
}

TEST(NetworkModel, AReducePullsWhatOtherHostsMadeBeforeItComputes) {
  uint64_t remote = 0;
  const JobState alone = RunOneJob(NetworkModel{}, &remote);
  EXPECT_EQ(alone.finish, FromSeconds(2));
  EXPECT_EQ(remote, 0u);
  NetworkModel net;
  net.hosts = 2;
  net.bytes_per_s = 1e6;  // 1 MB/s: the other host's 1 MB takes 1 s
  const JobState pulled = RunOneJob(net, &remote);
  EXPECT_EQ(pulled.finish, FromSeconds(3));
  EXPECT_EQ(remote, 1'000'000u);
}

}  // namespace
}  // namespace mrlocal
