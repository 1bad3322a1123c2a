// What a killed run leaves beside its output or files, and what the next run does of it.
#include "engine/stale_temporary.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "engine/atomic_file.h"
#include "engine/output_committer.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::EntryNames;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

// The PID of a process that has exited and been reaped: no process runs under it.
pid_t DeadPid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

std::string TmpName(const std::string& out, pid_t pid, const std::string& n) {
  return "." + out + ".mrlocal-tmp-" + std::to_string(pid) + "-" + n;
}

// A temporary directory as a run killed in its reduces leaves it.
fs::path KilledRunDir(const fs::path& parent, pid_t pid, bool marker = true) {
  const fs::path tmp = parent / TmpName("out", pid, "42");
  fs::create_directory(tmp);
  if (marker) WriteFile(tmp / "_mrlocal-owner", EncodeOwner({pid, 12345}));
  WriteFile(tmp / "part-r-00000", "a\t1\n");
  WriteFile(tmp / "_attempt-part-r-00001-1", "b\t");
  return tmp;
}

TEST(StaleTemporary, AKilledRunsDirectoryIsRemovedAndSaid) {
  ScratchDir d;
  const pid_t dead = DeadPid();
  KilledRunDir(d.path(), dead);
  std::vector<std::string> said = OutputCommitter::RemoveStale(d / "out");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "removed a stale temporary directory '" +
                         (d / TmpName("out", dead, "42")).string() + "' left by a killed run");
  EXPECT_TRUE(fs::is_empty(d.path()));
}

TEST(StaleTemporary, ShowsTheNameAsTheUserGaveTheOutput) {
  ScratchDir d;
  const pid_t dead = DeadPid();
  KilledRunDir(d.path(), dead);
  const fs::path cwd = fs::current_path();
  fs::current_path(d.path());
  std::vector<std::string> said = OutputCommitter::RemoveStale("out");
  fs::current_path(cwd);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "removed a stale temporary directory '" + TmpName("out", dead, "42") +
                         "' left by a killed run");
}

TEST(StaleTemporary, ALiveRunsDirectoryIsLeftAlone) {
  ScratchDir d;
  auto live = OutputCommitter::Begin(d / "out", false);
  ASSERT_TRUE(live.ok());
  auto part = (*live)->OpenPart(0);
  ASSERT_TRUE(part.ok());
  EXPECT_TRUE(OutputCommitter::RemoveStale(d / "out").empty());
  EXPECT_TRUE(fs::exists((*live)->temporary_dir()));
  ASSERT_TRUE((*part)->Close().ok());
  EXPECT_TRUE((*live)->Commit(1).ok());
}

TEST(StaleTemporary, AReusedPidDoesNotKeepADirectoryAlive) {
  ScratchDir d;
  // The marker names this (live) PID but another start time: the PID was reused.
  const fs::path tmp = KilledRunDir(d.path(), ::getpid(), false);
  WriteFile(tmp / "_mrlocal-owner", EncodeOwner({::getpid(), ThisProcess().start_ticks + 1}));
  EXPECT_EQ(OutputCommitter::RemoveStale(d / "out").size(), 1u);
  EXPECT_TRUE(fs::is_empty(d.path()));
}

TEST(StaleTemporary, WithoutAMarkerALivePidThatStartedBeforeKeepsIt) {
  ScratchDir d;
  // A commit under way has removed its marker: this process started before the directory
  // changed, so it may be the writer.
  KilledRunDir(d.path(), ::getpid(), false);
  EXPECT_TRUE(OutputCommitter::RemoveStale(d / "out").empty());
  EXPECT_EQ(EntryNames(d.path()).size(), 1u);
}

TEST(StaleTemporary, FilesMrlocalDidNotWriteStay) {
  ScratchDir d;
  const pid_t dead = DeadPid();
  const fs::path tmp = KilledRunDir(d.path(), dead);
  WriteFile(tmp / "notes.txt", "mine\n");
  std::vector<std::string> said = OutputCommitter::RemoveStale(d / "out");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("holds files mrlocal did not write (notes.txt)"), std::string::npos);
  EXPECT_EQ(EntryNames(tmp), std::set<std::string>{"notes.txt"});
}

TEST(StaleTemporary, OtherOutputsAndOtherNamesAreNotTouched) {
  ScratchDir d;
  const pid_t dead = DeadPid();
  KilledRunDir(d.path(), dead);
  fs::create_directory(d / ".out.mrlocal-tmp-x-1");  // not a PID
  WriteFile(d / TmpName("out", dead, "7"), "");      // a file, not a directory
  EXPECT_TRUE(OutputCommitter::RemoveStale(d / "other").empty());
  EXPECT_EQ(EntryNames(d.path()).size(), 3u);
}

// A kill between Commit's two renames: DIR moved aside, the new output not yet in place.
TEST(StaleTemporary, AnOutputMovedAsideByAKilledCommitIsPutBack) {
  ScratchDir d;
  const pid_t dead = DeadPid();
  const fs::path old = d / TmpName("out", dead, "42.old");
  fs::create_directory(old);
  WriteFile(old / "part-r-00000", "old\n");
  WriteFile(old / "_SUCCESS", "");
  std::vector<std::string> said = OutputCommitter::RemoveStale(d / "out");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("put back"), std::string::npos);
  EXPECT_EQ(ReadFile(d / "out" / "part-r-00000"), "old\n");
  EXPECT_EQ(EntryNames(d.path()), std::set<std::string>{"out"});
}

// A kill after the new output was renamed in, while the old one was being removed.
TEST(StaleTemporary, AReplacedOutputIsRemovedOnceTheNewOneIsInPlace) {
  ScratchDir d;
  const pid_t dead = DeadPid();
  fs::create_directory(d / "out");
  WriteFile(d / "out" / "part-r-00000", "new\n");
  WriteFile(d / "out" / "_SUCCESS", "");
  const fs::path old = d / TmpName("out", dead, "42.old");
  fs::create_directory(old);
  WriteFile(old / "part-r-00001", "old\n");
  EXPECT_EQ(OutputCommitter::RemoveStale(d / "out").size(), 1u);
  EXPECT_EQ(EntryNames(d.path()), std::set<std::string>{"out"});
  EXPECT_EQ(ReadFile(d / "out" / "part-r-00000"), "new\n");
}

// The real thing: a process killed with SIGKILL while it writes a part.
TEST(StaleTemporary, AProcessKilledMidJobLeavesWhatTheNextRunRemoves) {
  ScratchDir d;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t child = ::fork();
  if (child == 0) {
    auto c = OutputCommitter::Begin(d / "out", false);
    auto part = (*c)->OpenPart(0);
    (void)(*part)->Append("half");
    (void)!::write(ready[1], "x", 1);
    ::pause();
    ::_exit(1);
  }
  char x;
  ASSERT_EQ(::read(ready[0], &x, 1), 1);
  ASSERT_EQ(EntryNames(d.path()).size(), 1u);
  EXPECT_TRUE(OutputCommitter::RemoveStale(d / "out").empty()) << "the child still runs";
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  EXPECT_EQ(OutputCommitter::RemoveStale(d / "out").size(), 1u);
  EXPECT_TRUE(fs::is_empty(d.path()));
  auto next = OutputCommitter::Begin(d / "out", false);
  ASSERT_TRUE(next.ok());
  auto part = (*next)->OpenPart(0);
  ASSERT_TRUE((*part)->Close().ok());
  EXPECT_TRUE((*next)->Commit(1).ok());
}

TEST(StaleTemporary, AKilledWritersTemporaryFileIsRemovedALiveOnesIsNot) {
  ScratchDir d;
  const std::string file = (d / "history.json").string();
  const std::string stale = (d / TmpName("history.json", DeadPid(), "Ab3dEf")).string();
  WriteFile(stale, "{\"half");
  auto live = AtomicFileWriter::Create(file);
  ASSERT_TRUE(live.ok());
  WriteFile(d / ".history.json.mrlocal-tmp-1-ab", "");  // not a name Create makes
  std::vector<std::string> said;
  SetStaleNotice([&said](const std::string& s) { said.push_back(s); });
  EXPECT_EQ(RemoveStaleTemporaries(file), std::vector<std::string>{stale});
  SetStaleNotice(nullptr);
  EXPECT_EQ(said, std::vector<std::string>{"removed a stale temporary file '" + stale +
                                           "' left by a killed run"});
  EXPECT_EQ(EntryNames(d.path()).size(), 2u);  // the live writer's temporary, the odd name
  ASSERT_TRUE((*live)->Commit().ok());
  EXPECT_TRUE(fs::exists(file));
}

TEST(StaleTemporary, OwnerMarkerRoundTrips) {
  const TemporaryOwner me = ThisProcess();
  EXPECT_EQ(me.pid, ::getpid());
  EXPECT_GT(me.start_ticks, 0u);
  std::optional<TemporaryOwner> back = DecodeOwner(EncodeOwner(me));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->pid, me.pid);
  EXPECT_EQ(back->start_ticks, me.start_ticks);
  EXPECT_FALSE(DecodeOwner("mrlocal temporary\npid x start 1\n"));
  EXPECT_FALSE(DecodeOwner(""));
}

}  // namespace
}  // namespace mrlocal
