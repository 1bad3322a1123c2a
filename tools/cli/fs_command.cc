// mrlocal fs --store DIR <put LOCAL PATH | ls [PATH] | cat PATH | rm PATH | fsck>
// The HDFS-like shell of the persistent block store.
#include <cstdio>
#include <iostream>

#include "engine/block_store.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/units.h"

namespace mrlocal {
namespace {

class FsCommand final : public Command {
 public:
  explicit FsCommand(CLI::App& root) {
    app = root.add_subcommand("fs", "The persistent block store's shell (like 'hdfs dfs')");
    app->add_option("--store", dir_, "Store directory (created by the first put)")->required();
    app->require_subcommand(1);
    put_ = app->add_subcommand("put", "Copy a local file into the store");
    put_->add_option("LOCAL", local_, "Local file")->required();
    put_->add_option("PATH", path_, "Path in the store")->required();
    put_->add_option("--block-size", block_size_, "Block size of a new store")->capture_default_str();
    put_->add_option("--nodes", nodes_, "Virtual nodes of a new store")->capture_default_str();
    put_->add_option("--replication", replication_, "Replicas per block (default min(3, nodes))");
    ls_ = app->add_subcommand("ls", "List files: size, replication, blocks, path");
    ls_->add_option("PATH", path_, "Only this path");
    cat_ = app->add_subcommand("cat", "Print a file (checksums verified)");
    cat_->add_option("PATH", path_, "Path in the store")->required();
    rm_ = app->add_subcommand("rm", "Remove a file and its replicas");
    rm_->add_option("PATH", path_, "Path in the store")->required();
    fsck_ = app->add_subcommand("fsck", "Check every replica; exit 2 if any is corrupt or missing");
  }

  int Run() override {
    BlockStoreOptions options;
    auto bs = ParseSize(block_size_);
    if (!bs.ok()) return ReportError(Status::InvalidArgument("--block-size: " + bs.status().message()));
    if (*bs == 0) return ReportError(Status::InvalidArgument("--block-size must be positive"));
    if (nodes_ < 1) return ReportError(Status::InvalidArgument("--nodes must be at least 1"));
    options.block_size = *bs;
    options.nodes = nodes_;
    options.replication = replication_;
    if (!put_->parsed() && !std::filesystem::exists(std::filesystem::path(dir_) / "namespace"))
      return ReportError(Status::NotFound("no mrlocal store in '" + dir_ + "'"));
    auto store = BlockStore::Open(dir_, options);
    if (!store.ok()) return ReportError(store.status());
    BlockStore& s = **store;
    if (put_->parsed()) {
      if (replication_ > s.options().nodes)
        return ReportError(Status::InvalidArgument("--replication exceeds the store's " +
                                                   std::to_string(s.options().nodes) + " nodes"));
      return ExitCodeFor(Check(s.Put(local_, path_)));
    }
    if (ls_->parsed()) {
      if (!path_.empty()) {
        auto info = s.Stat(path_);
        if (!info.ok()) return ReportError(info.status());
        PrintLs(*info);
        return kExitOk;
      }
      for (auto& f : s.List()) PrintLs(f);
      return kExitOk;
    }
    if (cat_->parsed()) {
      std::string bytes;
      if (Status st = s.Cat(path_, &bytes); !st.ok()) return ReportError(st);
      std::fwrite(bytes.data(), 1, bytes.size(), stdout);
      return kExitOk;
    }
    if (rm_->parsed()) return ExitCodeFor(Check(s.Remove(path_)));
    FsckReport r = s.Fsck();
    for (auto& p : r.problems) std::cout << p << "\n";
    std::cout << "Total files: " << r.files << ", blocks: " << r.blocks
              << ", replicas: " << r.replicas << ", corrupt or missing replicas: "
              << r.bad_replicas << ", blocks with no good replica: " << r.bad_blocks << "\n";
    std::cout << "Status: " << (r.healthy() ? "HEALTHY" : "CORRUPT") << "\n";
    return r.healthy() ? kExitOk : kExitUsage;
  }

 private:
  static Status Check(Status s) {
    if (!s.ok()) ReportError(s);
    return s;
  }
  static void PrintLs(const FileInfo& f) {
    std::printf("%12llu  r=%d  %5zu blocks  %s\n", static_cast<unsigned long long>(f.size),
                f.replication, f.blocks.size(), f.path.c_str());
  }

  std::string dir_, local_, path_;
  std::string block_size_ = "32MiB";
  int nodes_ = 3;
  int replication_ = 0;
  CLI::App *put_, *ls_, *cat_, *rm_, *fsck_;
};

}  // namespace

std::unique_ptr<Command> AddFsCommand(CLI::App& root) { return std::make_unique<FsCommand>(root); }

}  // namespace mrlocal
