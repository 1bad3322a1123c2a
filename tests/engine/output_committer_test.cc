#include "engine/output_committer.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::EntryNames;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

TEST(OutputCommitter, NothingIsVisibleBeforeCommitAndEverythingAfter) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  ASSERT_TRUE(c.ok());
  for (uint32_t r = 0; r < 2; ++r) {
    auto part = (*c)->OpenPart(r);
    ASSERT_TRUE(part.ok());
    ASSERT_TRUE((*part)->Append("k\t" + std::to_string(r) + "\n").ok());
    ASSERT_TRUE((*part)->Close().ok());
  }
  EXPECT_FALSE(fs::exists(d / "out"));
  ASSERT_TRUE((*c)->Commit(2).ok());
  EXPECT_EQ(EntryNames(d / "out"),
            (std::set<std::string>{"_SUCCESS", "part-r-00000", "part-r-00001"}));
  EXPECT_EQ(ReadFile(d / "out" / "part-r-00001"), "k\t1\n");
  EXPECT_EQ(EntryNames(d.path()), std::set<std::string>{"out"}) << "no temporary left";
}

TEST(OutputCommitter, AbortAndDestructionLeaveNothing) {
  ScratchDir d;
  {
    auto c = OutputCommitter::Begin(d / "out", false);
    auto part = (*c)->OpenPart(0);
    ASSERT_TRUE((*part)->Append("half").ok());
  }
  EXPECT_TRUE(fs::is_empty(d.path()));
}

TEST(OutputCommitter, RefusesANonEmptyDirectoryUnlessOverwrite) {
  ScratchDir d;
  fs::create_directory(d / "out");
  WriteFile(d / "out" / "part-r-00000", "old\n");  // a previous job's output
  WriteFile(d / "out" / "part-r-00001", "old\n");
  WriteFile(d / "out" / "_SUCCESS", "");
  auto refused = OutputCommitter::Begin(d / "out", false);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("already exists"), std::string::npos);
  auto c = OutputCommitter::Begin(d / "out", true);
  ASSERT_TRUE(c.ok());
  auto part = (*c)->OpenPart(0);
  ASSERT_TRUE((*part)->Close().ok());
  EXPECT_TRUE(fs::exists(d / "out" / "part-r-00001")) << "replaced only at commit";
  ASSERT_TRUE((*c)->Commit(1).ok());
  EXPECT_EQ(EntryNames(d / "out"), (std::set<std::string>{"_SUCCESS", "part-r-00000"}));
}

TEST(OutputCommitter, AnExistingEmptyDirectoryIsFine) {
  ScratchDir d;
  fs::create_directory(d / "out");
  auto c = OutputCommitter::Begin(d / "out/", false);
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE((*(*c)->OpenPart(0))->Close().ok());
  ASSERT_TRUE((*c)->Commit(1).ok());
  EXPECT_TRUE(fs::exists(d / "out" / "_SUCCESS"));
}

TEST(OutputCommitter, CommitNeedsEveryPart) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  ASSERT_TRUE((*(*c)->OpenPart(0))->Close().ok());
  EXPECT_FALSE((*c)->Commit(2).ok());
  EXPECT_FALSE(fs::exists(d / "out"));
}

TEST(OutputCommitter, ARerunAttemptReplacesTheEarlierOne) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  ASSERT_TRUE(c.ok());
  {
    auto preempted = (*c)->OpenPart(0);  // destroyed without Close: leaves nothing
    ASSERT_TRUE((*preempted)->Append("partial").ok());
  }
  EXPECT_FALSE((*c)->Commit(1).ok()) << "a part never closed";
  for (std::string text : {"first\n", "second\n"}) {
    auto part = (*c)->OpenPart(0);
    ASSERT_TRUE((*part)->Append(text).ok());
    ASSERT_TRUE((*part)->Close().ok());
  }
  ASSERT_TRUE((*c)->Commit(1).ok());
  EXPECT_EQ(EntryNames(d / "out"), (std::set<std::string>{"_SUCCESS", "part-r-00000"}));
  EXPECT_EQ(ReadFile(d / "out" / "part-r-00000"), "second\n");
}

TEST(OutputCommitter, CommitRefusesWhileAWriterIsOpen) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  auto done = (*c)->OpenPart(0);
  ASSERT_TRUE((*done)->Close().ok());
  auto open = (*c)->OpenPart(0);
  EXPECT_FALSE((*c)->Commit(1).ok());
  EXPECT_FALSE(fs::exists(d / "out"));
  open->reset();
  EXPECT_TRUE((*c)->Commit(1).ok());
}

TEST(OutputCommitter, CommitRefusesUnexpectedParts) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  for (uint32_t r : {0u, 5u}) ASSERT_TRUE((*(*c)->OpenPart(r))->Close().ok());
  EXPECT_FALSE((*c)->Commit(1).ok());
  EXPECT_FALSE(fs::exists(d / "out"));
}

TEST(OutputCommitter, ParallelWritersOfDifferentParts) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "out", false);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 8; ++r) {
    threads.emplace_back([&, r] {
      for (int attempt = 0; attempt < 3; ++attempt) {
        auto part = (*c)->OpenPart(r);
        ASSERT_TRUE(part.ok());
        for (int i = 0; i < 100; ++i) ASSERT_TRUE((*part)->Append(std::to_string(r) + "\n").ok());
        if (attempt == 2) {
          ASSERT_TRUE((*part)->Close().ok());
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_TRUE((*c)->Commit(8).ok());
  EXPECT_EQ(EntryNames(d / "out").size(), 9u);
  EXPECT_EQ(ReadFile(d / "out" / "part-r-00007").size(), 200u);
}

TEST(OutputCommitter, AWriterMayOutliveAnAbortedCommitter) {
  ScratchDir d;
  std::unique_ptr<OutputSink> late;
  {
    auto c = OutputCommitter::Begin(d / "out", false);
    late = std::move((*c)->OpenPart(0)).value();
  }
  EXPECT_FALSE(late->Close().ok());
  EXPECT_TRUE(fs::is_empty(d.path()));
}

TEST(OutputCommitter, CreatesMissingParentsAndRefusesAFile) {
  ScratchDir d;
  auto c = OutputCommitter::Begin(d / "a" / "b" / "out", false);
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE((*(*c)->OpenPart(0))->Close().ok());
  ASSERT_TRUE((*c)->Commit(1).ok());
  EXPECT_TRUE(fs::exists(d / "a" / "b" / "out" / "_SUCCESS"));
  WriteFile(d / "file", "x");
  EXPECT_FALSE(OutputCommitter::Begin(d / "file", true).ok());
}

}  // namespace
}  // namespace mrlocal
