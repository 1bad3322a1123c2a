#include "sched/report/queue_report.h"

#include <map>
#include <nlohmann/json.hpp>

#include "sched/report/fixed.h"
#include "sched/report/workload_report.h"

namespace mrlocal {
namespace {

using Json = nlohmann::ordered_json;

// queues.csv's money: every decimal, so that columns line up.
std::string Credits(MicroCredits micro) { return FormatCredits(micro, /*all_decimals=*/true); }

}  // namespace

std::string QueuesJson(const QueueLedger& ledger, const std::vector<JobMetrics>& jobs) {
  struct Completion {
    double sum = 0;
    uint32_t n = 0;
  };
  std::map<std::string, Completion> completion;
  for (const JobMetrics& j : jobs)
    if (j.status == "succeeded" && j.finish_s) {
      completion[j.queue].sum += *j.finish_s - j.arrival_s;
      ++completion[j.queue].n;
    }
  Json out = Json::array();
  for (const QueueAccount& a : ledger.accounts) {
    const Completion& c = completion[a.name];
    Json q{{"name", a.name},
           {"unlimited", a.unlimited},
           {"opening", ToCredits(a.opening)},
           {"added", ToCredits(a.added)},
           {"spent", ToCredits(a.spent)},
           {"balance", a.unlimited ? Json(nullptr) : Json(ToCredits(a.balance()))},
           {"micro_credits",
            {{"opening", a.opening}, {"added", a.added}, {"spent", a.spent}, {"balance", a.balance()}}},
           {"rate", a.rate},
           {"opened_s", Seconds(a.opened)},
           {"closed_s", a.closed ? Json(Seconds(*a.closed)) : Json(nullptr)},
           {"jobs", a.jobs},
           {"completed", c.n},
           {"mean_completion_s", c.n ? Json(c.sum / c.n) : Json(nullptr)},
           {"used_slot_s", a.used_slot_s},
           {"paid_slot_s", a.paid_slot_s},
           {"entitled_slot_s", a.entitled_slot_s},
           {"share_used", ledger.UsedShare(a)},
           {"share_entitled", ledger.EntitledShare(a)}};
    out.push_back(std::move(q));
  }
  Json all{{"allocation_interval_s", ledger.interval_s},
           {"intervals", ledger.intervals.size()},
           {"preempted_attempts", ledger.preempted_attempts},
           {"preempted_slot_s", ledger.preempted_slot_s},
           {"queues", std::move(out)}};
  return all.dump(2, ' ', false, Json::error_handler_t::replace);
}

std::string QueuesCsv(const QueueLedger& ledger) {
  std::string out =
      "interval_start_s,interval_end_s,price,queue,rate,entitled_map_slots,entitled_reduce_slots,"
      "used_slot_s,paid_slot_s,entitled_slot_s,charge,balance\n";
  for (const QueueInterval& iv : ledger.intervals)
    for (const QueueCharge& line : iv.lines) {
      const QueueAccount& a = ledger.accounts[line.account];
      out += Fixed(Seconds(iv.start), 6) + ',' + Fixed(Seconds(iv.end), 6) + ',' +
             Fixed(iv.price, 6) + ',' + CsvField(a.name) + ',' + Fixed(line.rate, 6) + ',' +
             std::to_string(line.entitled_map_slots) + ',' +
             std::to_string(line.entitled_reduce_slots) + ',' + Fixed(line.used_slot_s, 6) + ',' +
             Fixed(line.paid_slot_s, 6) + ',' + Fixed(line.entitled_slot_s, 6) + ',' +
             Credits(line.charge) + ',' + (a.unlimited ? "" : Credits(line.balance)) + '\n';
    }
  return out;
}

}  // namespace mrlocal
