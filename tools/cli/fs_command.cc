#include "tools/cli/fs_command.h"

#include <cinttypes>
#include <cstdio>
#include <iostream>

#include "engine/block_store.h"
#include "sched/core/units.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/exit_codes.h"

namespace mrlocal {
namespace {

// Virtual nodes of a store: as many as a cluster spec may have.
constexpr int kMaxNodes = 100'000;

class FsCommand final : public Command {
 public:
  explicit FsCommand(CLI::App& root) {
    app = root.add_subcommand("fs", "The persistent block store's shell (like 'hdfs dfs')");
    app->add_option("--store", dir_, "Store directory (created by the first put)")
        ->required()
        ->check(NotEmpty());
    app->require_subcommand(1);
    put_ = app->add_subcommand("put", "Copy a local file into the store");
    put_->add_option("LOCAL", local_, "Local file")->required()->check(NotEmpty());
    put_->add_option("PATH", path_, "Path in the store")->required()->check(NotEmpty());
    Within(put_->add_option("--block-size", block_size_,
                            "Block size of this file (default: the store's; 32MiB for a new "
                            "store)"),
           SizeAtLeast(1));
    Within(put_->add_option("--replication", replication_,
                            "Replicas per block, at most the store's nodes (default: min(3, "
                            "nodes))"),
           IntegerIn(1, kMaxNodes));
    nodes_opt_ = Within(put_->add_option("--nodes", nodes_, "Virtual nodes of a new store"),
                        IntegerIn(1, kMaxNodes))
                     ->capture_default_str();
    ls_ = app->add_subcommand("ls", "List files: size, replication, blocks, path");
    ls_->add_option("PATH", path_, "A file, or a directory prefix such as /data")
        ->check(NotEmpty());
    cat_ = app->add_subcommand("cat", "Print a file (checksums verified)");
    cat_->add_option("PATH", path_, "Path in the store")->required()->check(NotEmpty());
    rm_ = app->add_subcommand("rm", "Remove a file and its replicas");
    rm_->add_option("PATH", path_, "Path in the store")->required()->check(NotEmpty());
    CLI::App* fsck =
        app->add_subcommand("fsck", "Verify every replica; exit 2 if any is corrupt or missing");
    // `--store DIR` may also follow the action, as in `mrlocal fs ls --store DIR`.
    for (CLI::App* sub : {put_, ls_, cat_, rm_, fsck}) sub->fallthrough();
  }

  int Run() override {
    if (put_->parsed()) return Put();
    auto store = BlockStore::Open(dir_, {}, BlockStore::OpenMode::kMustExist);
    if (!store.ok()) return ReportError(store.status());
    if (ls_->parsed()) return Ls(**store);
    if (cat_->parsed()) return Cat(**store);
    if (rm_->parsed()) return Rm(**store);
    return Fsck(**store);
  }

 private:
  int Put() {
    BlockStoreOptions create;  // used only if the store does not exist yet
    PutOptions put;
    if (!block_size_.empty()) create.block_size = put.block_size = ParseSize(block_size_).value();
    create.nodes = nodes_;
    auto store = BlockStore::Open(dir_, create);
    if (!store.ok()) return ReportError(store.status());
    BlockStore& s = **store;
    if (nodes_opt_->count() > 0 && s.options().nodes != nodes_) {
      return ReportError(Status::InvalidArgument("--nodes applies only when creating a store; '" +
                                                 dir_ + "' has " +
                                                 std::to_string(s.options().nodes) + " nodes"));
    }
    put.replication = replication_;
    Status st = s.Put(local_, path_, put);
    return st.ok() ? kExitOk : ReportError(st);
  }

  int Ls(const BlockStore& s) {
    std::vector<FileInfo> shown;
    if (path_.empty()) {
      shown = s.List();
    } else if (auto one = s.Stat(path_); one.ok()) {
      shown.push_back(std::move(one).value());
    } else {
      // A directory prefix, as in `hdfs dfs -ls /data`.
      std::string prefix = path_.back() == '/' ? path_ : path_ + "/";
      for (auto& f : s.List())
        if (f.path.compare(0, prefix.size(), prefix) == 0) shown.push_back(std::move(f));
      if (shown.empty()) return ReportError(one.status());
    }
    std::printf("Found %zu item%s\n", shown.size(), shown.size() == 1 ? "" : "s");
    for (const FileInfo& f : shown) {
      // hdfs dfs -ls: permissions, replication, size, path; plus the block count.
      std::printf("-r--r--r-- %3d %14" PRIu64 " %7zu block%s  %s\n", f.replication, f.size,
                  f.blocks.size(), f.blocks.size() == 1 ? " " : "s", f.path.c_str());
    }
    return kExitOk;
  }

  int Cat(const BlockStore& s) {
    Status st = s.Cat(path_, std::cout);
    std::cout.flush();
    return st.ok() ? kExitOk : ReportError(st);
  }

  int Rm(BlockStore& s) {
    Status st = s.Remove(path_);
    if (!st.ok()) return ReportError(st);
    std::printf("Deleted %s\n", path_.c_str());
    return kExitOk;
  }

  int Fsck(const BlockStore& s) {
    FsckReport r = s.Fsck();
    for (const ReplicaProblem& p : r.problems) std::printf("%s\n", p.ToString().c_str());
    std::printf(" Total size:\t%" PRIu64 " B\n Total files:\t%" PRIu64 "\n Total blocks:\t%" PRIu64
                " (%" PRIu64 " replicas, %" PRIu64 " healthy)\n Under-replicated blocks:\t%" PRIu64
                "\n Corrupt blocks:\t%" PRIu64 " (no good replica left)\n Nodes:\t%d\n",
                r.bytes, r.files, r.blocks, r.replicas, r.healthy_replicas, r.degraded_blocks,
                r.corrupt_blocks, s.options().nodes);
    std::printf("Status: %s\n", r.healthy() ? "HEALTHY" : "CORRUPT");
    std::fflush(stdout);
    return r.healthy() ? kExitOk : kExitUsage;
  }

  std::string dir_, local_, path_, block_size_;
  int nodes_ = 3;  // a new store: like a 3-datanode HDFS, so replication defaults to 3
  int replication_ = 0;
  CLI::Option* nodes_opt_ = nullptr;
  CLI::App *put_ = nullptr, *ls_ = nullptr, *cat_ = nullptr, *rm_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> AddFsCommand(CLI::App& root) { return std::make_unique<FsCommand>(root); }

}  // namespace mrlocal
