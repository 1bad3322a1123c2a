// CpuBurner: takes about its duty of a CPU over time, nothing at duty 0, follows a duty
// set from another thread, and stops promptly. The bounds are loose, so that a loaded
// machine cannot fail them: this is what the burner does, not how well (that is measured
// with `mrlocal workload --availability-as load`, README).
#include "engine/cpu_burner.h"

#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <thread>

#include "engine/throttle.h"

namespace mrlocal {
namespace {

using namespace std::chrono_literals;

int64_t ProcessCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

// The share of one CPU the process took while this thread slept for `span`, as the
// process's CPU clock sees it (not the burner's own account).
double ShareOfACpu(std::chrono::nanoseconds span) {
  const int64_t cpu0 = ProcessCpuNs(), t0 = Throttle::NowNs();
  std::this_thread::sleep_for(span);
  return double(ProcessCpuNs() - cpu0) / double(Throttle::NowNs() - t0);
}

TEST(CpuBurner, TakesAboutItsDutyOfACpu) {
  CpuBurner burner(-1, 0.5);
  std::this_thread::sleep_for(20ms);
  const int64_t own0 = burner.cpu_ns(), t0 = Throttle::NowNs();
  const double share = ShareOfACpu(500ms);
  const double own = double(burner.cpu_ns() - own0) / double(Throttle::NowNs() - t0);
  EXPECT_GT(share, 0.3);
  EXPECT_LT(share, 0.7);
  EXPECT_GT(own, 0.3);  // its own account agrees
  EXPECT_LT(own, 0.7);
}

TEST(CpuBurner, TakesNoCpuAtDutyZero) {
  CpuBurner burner(-1, 0.0);
  EXPECT_LT(ShareOfACpu(300ms), 0.02);
}

TEST(CpuBurner, FollowsADutySetFromAnotherThread) {
  CpuBurner burner(-1, 0.0);
  EXPECT_LT(ShareOfACpu(100ms), 0.02);
  std::thread([&] { burner.SetDuty(1.0); }).join();
  EXPECT_GT(ShareOfACpu(300ms), 0.3);  // all of a CPU on an idle machine
  burner.SetDuty(0.0);
  std::this_thread::sleep_for(20ms);
  EXPECT_LT(ShareOfACpu(300ms), 0.02);
}

TEST(CpuBurner, ClampsItsDutyToZeroToOne) {
  CpuBurner burner(-1, 1.5);
  EXPECT_EQ(burner.duty(), 1.0);
  burner.SetDuty(-0.5);
  EXPECT_EQ(burner.duty(), 0.0);
}

// Whether it spins, sleeps between bursts or waits for a duty, it ends within a window or
// so: the bound is ten times that, for a loaded machine.
TEST(CpuBurner, StopsPromptlyWhateverItsDuty) {
  for (double duty : {0.0, 0.3, 1.0}) {
    auto burner = std::make_unique<CpuBurner>(-1, duty);
    std::this_thread::sleep_for(30ms);
    const int64_t t0 = Throttle::NowNs();
    burner.reset();
    EXPECT_LT(Throttle::NowNs() - t0, 100'000'000) << "duty " << duty;
  }
  CpuBurner twice(-1, 0.5);
  twice.Stop();
  twice.Stop();  // and again in the destructor: nothing left to join
}

// Slots of base speeds summing to s pinned to the burner's CPU run at a x s when it takes
// the rest: 1 - a x s, not 1 - a (a slot of speed 0.5 needs only half the CPU anyway).
TEST(CpuBurner, DutyForTakesWhatTheSlotsWouldNotUseAtTheirAvailableSpeed) {
  EXPECT_DOUBLE_EQ(CpuBurner::DutyFor(0.5, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(CpuBurner::DutyFor(0.5, 0.75), 0.625);
  EXPECT_DOUBLE_EQ(CpuBurner::DutyFor(1.0, 0.75), 0.25);  // what the base speeds leave
  EXPECT_DOUBLE_EQ(CpuBurner::DutyFor(1.0, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(CpuBurner::DutyFor(0.5, 3.0), 0.0);  // the slots want more than the CPU
}

}  // namespace
}  // namespace mrlocal
