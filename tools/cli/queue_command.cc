// mrlocal queue list | show NAME | create NAME --rate CREDITS | rate NAME CREDITS |
//                deposit NAME CREDITS   --server URL --key KEYFILE
// The paying queues of a running `mrlocal serve` (dynamic proportional share): each
// queue's budget, its spending rate per slot and allocation interval, and its statement.
// Credits are decimals with up to 6 places, sent as exact micro-credits.
#include <cstdio>
#include <ctime>
#include <iostream>

#include "sched/core/queue_ledger.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/service_options.h"
#include "tools/runtime/exit_codes.h"

namespace mrlocal {
namespace {

using nlohmann::json;

std::string CreditsOf(const json& j, const char* field) {
  return FormatCredits(j.value(field, int64_t{0}));
}

void PrintQueue(const json& q) {
  std::cout << q.value("name", "") << "\tbudget " << CreditsOf(q, "budget_micro") << "\trate "
            << CreditsOf(q, "rate_micro") << "\tcharged " << CreditsOf(q, "charged_micro")
            << "\trunning " << q.value("running", 0) << "\tpending " << q.value("pending", 0)
            << "\n";
}

// A time of the statement (Unix ms) as "2026-11-29 11:46:40.274 UTC".
std::string TimeOf(const json& j, const char* field) {
  const int64_t ms = j.value(field, int64_t{0});
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[48];
  const size_t n = std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &utc);
  std::snprintf(text + n, sizeof text - n, ".%03d UTC", static_cast<int>(ms % 1000));
  return text;
}

void PrintStatement(const json& s) {
  PrintQueue(s["queue"]);
  for (const json& d : s["deposits"])
    std::cout << "  deposit  " << CreditsOf(d, "amount_micro") << " at " << TimeOf(d, "at_ms")
              << " by " << d.value("by", "") << "\n";
  for (const json& r : s["rates"])
    std::cout << "  rate     " << CreditsOf(r, "rate_micro") << " from " << TimeOf(r, "at_ms")
              << " by " << r.value("by", "") << "\n";
  for (const json& c : s["charges"])
    std::cout << "  charge   " << CreditsOf(c, "amount_micro") << " job " << c.value("job", 0LL)
              << " for " << c.value("slot_s", 0.0) << " slot-s at " << CreditsOf(c, "price_micro")
              << " (" << TimeOf(c, "start_ms") << " to " << TimeOf(c, "end_ms") << ")\n";
}

class QueueCommand final : public Command {
 public:
  explicit QueueCommand(CLI::App& root) {
    app = root.add_subcommand("queue", "The paying queues of a running `mrlocal serve`");
    AddServerOptions(app, server_);
    app->require_subcommand(1);
    list_ = app->add_subcommand("list", "Every queue: budget, rate, charged, tasks");
    show_ = app->add_subcommand("show", "A queue's statement: deposits, rates, every charge");
    create_ = app->add_subcommand("create", "Make a queue (admin)");
    rate_ = app->add_subcommand("rate", "Set a queue's spending rate (admin, its owner)");
    deposit_ = app->add_subcommand("deposit", "Add to a queue's budget (admin)");
    for (CLI::App* sub : {show_, create_, rate_, deposit_})
      sub->add_option("NAME", name_, "The queue")->required()->check(NotEmpty());
    const std::string range = std::string(" (") + kCreditsRange + ")";
    Within(create_
               ->add_option("--rate", amount_,
                            "Its spending rate per slot and allocation interval" + range)
               ->required(),
           Credits());
    Within(
        rate_->add_option("CREDITS", amount_, "The rate per slot and allocation interval" + range)
            ->required(),
        Credits());
    Within(
        deposit_->add_option("CREDITS", amount_, "What to add to the budget" + range)->required(),
        Credits());
    for (CLI::App* sub : {list_, show_, create_, rate_, deposit_}) sub->fallthrough();
  }

  int Run() override {
    auto client = Connect(server_);
    if (!client.ok()) return ReportError(client.status());
    Result<json> answer = Status::Internal("no subcommand");
    if (list_->parsed()) {
      answer = CallApi(**client, "GET", "/api/v1/queues");
      if (answer.ok())
        for (const json& q : (*answer)["queues"]) PrintQueue(q);
      return answer.ok() ? kExitOk : ReportError(answer.status());
    }
    if (show_->parsed()) {
      answer = CallApi(**client, "GET", "/api/v1/queues/" + name_);
    } else {
      auto micro = ParseCredits(amount_, deposit_->parsed() ? "CREDITS" : "rate");
      if (!micro.ok()) return ReportError(micro.status());
      if (create_->parsed())
        answer = CallApi(**client, "POST", "/api/v1/queues",
                         json{{"name", name_}, {"rate_micro", *micro}}.dump());
      else if (rate_->parsed())
        answer = CallApi(**client, "POST", "/api/v1/queues/" + name_ + "/rate",
                         json{{"rate_micro", *micro}}.dump());
      else
        answer = CallApi(**client, "POST", "/api/v1/queues/" + name_ + "/deposit",
                         json{{"amount_micro", *micro}}.dump());
    }
    if (!answer.ok()) return ReportError(answer.status());
    if (answer->contains("queue"))
      PrintStatement(*answer);
    else
      PrintQueue(*answer);
    return kExitOk;
  }

 private:
  ServerFlags server_;
  CLI::App *list_, *show_, *create_, *rate_, *deposit_;
  std::string name_, amount_;
};

}  // namespace

std::unique_ptr<Command> AddQueueCommand(CLI::App& root) {
  return std::make_unique<QueueCommand>(root);
}

}  // namespace mrlocal
