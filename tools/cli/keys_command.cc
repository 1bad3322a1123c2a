// mrlocal keys add NAME --role admin|owner|reader [--queue Q] --state DIR -o KEYFILE
// mrlocal keys list --state DIR | mrlocal keys remove NAME --state DIR
// The service's API keys, made in its state directory directly (the first admin key has no
// server to ask; the server may be running meanwhile). The key file holds the secret: it
// is created mode 0600, never over an existing file.
#include <iostream>

#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/exit_codes.h"
#include "tools/serve/service.h"
#include "tools/serve/service_client.h"
#include "tools/serve/service_store.h"

namespace mrlocal {
namespace {

class KeysCommand final : public Command {
 public:
  explicit KeysCommand(CLI::App& root) {
    app = root.add_subcommand("keys", "Make, list or remove the service's API keys");
    app->require_subcommand(1);
    add_ = app->add_subcommand("add", "Make a key and write it to a key file");
    add_->add_option("NAME", name_, "The key's name, [A-Za-z0-9_.-], 1 to 64 characters")
        ->required()
        ->check(NotEmpty());
    Within(add_->add_option("--role", role_,
                            "admin: keys and queues; owner: submits to and sets the rate of "
                            "its queue; reader: views")
               ->required(),
           OneOf({"admin", "owner", "reader"}));
    add_->add_option("--queue", queue_, "An owner key's queue (it must exist)")->check(NotEmpty());
    add_->add_option("-o,--output", key_file_, "The key file to write (never replaced)")
        ->required()
        ->check(NotEmpty());
    list_ = app->add_subcommand("list", "The keys: name, role, queue (no secrets)");
    remove_ = app->add_subcommand("remove", "Remove a key: requests signed with it fail");
    remove_->add_option("NAME", name_, "The key's name")->required()->check(NotEmpty());
    for (CLI::App* sub : {add_, list_, remove_})
      sub->add_option("--state", state_, "The service's state directory (`mrlocal serve --state`)")
          ->required()
          ->check(NotEmpty());
  }

  int Run() override {
    auto store = ServiceStore::Open(state_);
    if (!store.ok()) return ReportError(store.status());
    if (list_->parsed()) {
      for (const KeyRecord& k : (*store)->Keys())
        std::cout << k.id << "\t" << RoleName(k.role) << (k.queue.empty() ? "" : "\t" + k.queue)
                  << "\n";
      return kExitOk;
    }
    if (remove_->parsed()) {
      const Status st = (*store)->RemoveKey(name_);
      return st.ok() ? kExitOk : ReportError(st);
    }
    if (std::filesystem::exists(key_file_))
      return ReportError(Status::InvalidArgument(
          "'" + key_file_ + "' exists: a key file is never replaced; choose another -o"));
    auto key = (*store)->AddKey(name_, ParseRole(role_).value(), queue_, NowMs());
    if (!key.ok()) return ReportError(key.status());
    const Status written = WriteKeyFile(key_file_, {key->id, key->secret, role_});
    if (!written.ok()) {
      (void)(*store)->RemoveKey(key->id);  // nobody holds its secret
      return ReportError(written);
    }
    std::cerr << "mrlocal keys: " << role_ << " key '" << key->id << "' written to " << key_file_
              << " (mode 0600)\n";
    return kExitOk;
  }

 private:
  CLI::App *add_ = nullptr, *list_ = nullptr, *remove_ = nullptr;
  std::string name_, role_, queue_, key_file_, state_;
};

}  // namespace

std::unique_ptr<Command> AddKeysCommand(CLI::App& root) {
  return std::make_unique<KeysCommand>(root);
}

}  // namespace mrlocal
