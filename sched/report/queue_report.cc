#include "sched/report/queue_report.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "sched/report/fixed.h"
#include "sched/report/workload_report.h"

namespace mrlocal {
namespace {

using Json = nlohmann::ordered_json;

// queues.csv's money: every decimal, so that columns line up.
std::string Credits(MicroCredits micro) { return FormatCredits(micro, /*all_decimals=*/true); }

// The accounts drawn: all, or kMaxChartQueues spread evenly over them in order of bid
// (lowest, highest and the ones between), in the ledger's order.
std::vector<uint32_t> ChartedAccounts(const QueueLedger& ledger) {
  std::vector<uint32_t> all(ledger.accounts.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  if (all.size() <= kMaxChartQueues) return all;
  std::stable_sort(all.begin(), all.end(), [&](uint32_t a, uint32_t b) {
    return ledger.accounts[a].rate < ledger.accounts[b].rate;
  });
  std::vector<uint32_t> picked;
  for (size_t k = 0; k < kMaxChartQueues; ++k)
    picked.push_back(all[k * (all.size() - 1) / (kMaxChartQueues - 1)]);
  std::sort(picked.begin(), picked.end());
  return picked;
}

LinePoint Point(double x, double y) {
  LinePoint p;
  p.x = x;
  p.y = y;
  return p;
}

LineChart Chart(const std::string& title, const std::string& what, const std::string& y_label,
                const QueueLedger& ledger, const std::vector<uint32_t>& drawn) {
  LineChart c;
  c.title = title + ": " + what;
  if (drawn.size() < ledger.accounts.size())
    c.subtitle = std::to_string(drawn.size()) + " of " + std::to_string(ledger.accounts.size()) +
                 " queues, spread over the bids";
  c.x_label = "time (s)";
  c.y_label = y_label;
  return c;
}

// Series by account, in `drawn`'s order, dropping those left empty.
struct SeriesByAccount {
  explicit SeriesByAccount(const QueueLedger& ledger, const std::vector<uint32_t>& drawn) {
    for (uint32_t i : drawn) {
      index[i] = series.size();
      series.push_back({ledger.accounts[i].name, {}});
    }
  }
  LineSeries* Of(uint32_t account) {
    auto it = index.find(account);
    return it == index.end() ? nullptr : &series[it->second];
  }
  void MoveInto(LineChart& chart) {
    for (LineSeries& s : series)
      if (!s.points.empty()) chart.series.push_back(std::move(s));
  }
  std::map<uint32_t, size_t> index;
  std::vector<LineSeries> series;
};

// In percent of what each queue had to spend, so that a budget of 600 shows beside one of
// a billion.
LineChart BudgetChart(const QueueLedger& ledger, const std::vector<uint32_t>& drawn,
                      const std::string& title) {
  LineChart c = Chart(title, "budget left per queue", "budget left (% of opening + added)",
                      ledger, drawn);
  SeriesByAccount by(ledger, drawn);
  auto percent = [&](uint32_t i, MicroCredits balance) {
    const QueueAccount& a = ledger.accounts[i];
    const MicroCredits had = a.opening + a.added;
    return had > 0 ? 100.0 * static_cast<double>(balance) / static_cast<double>(had) : 0.0;
  };
  for (uint32_t i : drawn) {
    const QueueAccount& a = ledger.accounts[i];
    if (!a.unlimited) by.Of(i)->points.push_back(Point(Seconds(a.opened), percent(i, a.opening)));
  }
  for (const QueueInterval& iv : ledger.intervals)
    for (const QueueCharge& line : iv.lines)
      if (LineSeries* s = by.Of(line.account); s && !ledger.accounts[line.account].unlimited)
        s->points.push_back(Point(Seconds(iv.end), percent(line.account, line.balance)));
  by.MoveInto(c);
  return c;
}

LineChart PriceChart(const QueueLedger& ledger, const std::vector<uint32_t>& drawn,
                     const std::string& title) {
  LineChart c = Chart(title, "price and bids", "credits per slot per interval", ledger, drawn);
  LineSeries price{"price (sum of bids)", {}};
  SeriesByAccount by(ledger, drawn);
  for (const QueueInterval& iv : ledger.intervals) {
    price.points.push_back(Point(Seconds(iv.start), iv.price));
    price.points.push_back(Point(Seconds(iv.end), iv.price));
    for (const QueueCharge& line : iv.lines)
      if (LineSeries* s = by.Of(line.account)) {
        s->points.push_back(Point(Seconds(iv.start), line.rate));
        s->points.push_back(Point(Seconds(iv.end), line.rate));
      }
  }
  if (!price.points.empty()) c.series.push_back(std::move(price));
  by.MoveInto(c);
  return c;
}

LineChart ShareChart(const QueueLedger& ledger, const std::vector<uint32_t>& drawn,
                     const std::string& title) {
  LineChart c = Chart(title, "share of the slot time used", "share of the interval's slot time (%)",
                      ledger, drawn);
  SeriesByAccount by(ledger, drawn);
  for (const QueueInterval& iv : ledger.intervals) {
    double all = 0;
    for (const QueueCharge& line : iv.lines) all += line.used_slot_s;
    if (!(all > 0)) continue;
    const double mid = (Seconds(iv.start) + Seconds(iv.end)) / 2;
    for (const QueueCharge& line : iv.lines)
      if (LineSeries* s = by.Of(line.account))
        s->points.push_back(Point(mid, 100 * line.used_slot_s / all));
  }
  by.MoveInto(c);
  return c;
}

LineChart CompletionChart(const QueueLedger& ledger, const std::vector<uint32_t>& drawn,
                          const std::vector<JobMetrics>& jobs, const std::string& title) {
  LineChart c = Chart(title, "completion time of each job, by queue", "completion time (s)",
                      ledger, drawn);
  c.x_label = "finish (s)";
  SeriesByAccount by(ledger, drawn);
  std::map<std::string, uint32_t> account_of;
  for (uint32_t i = 0; i < ledger.accounts.size(); ++i) account_of[ledger.accounts[i].name] = i;
  for (const JobMetrics& j : jobs) {
    auto it = account_of.find(j.queue);
    if (j.status != "succeeded" || !j.finish_s || it == account_of.end()) continue;
    if (LineSeries* s = by.Of(it->second)) s->points.push_back(Point(*j.finish_s, *j.finish_s - j.arrival_s));
  }
  by.MoveInto(c);
  return c;
}

}  // namespace

std::vector<std::pair<std::string, LineChart>> QueueCharts(const QueueLedger& ledger,
                                                           const std::vector<JobMetrics>& jobs,
                                                           const std::string& title) {
  const std::vector<uint32_t> drawn = ChartedAccounts(ledger);
  std::vector<std::pair<std::string, LineChart>> out = {
      {"queues-budget.svg", BudgetChart(ledger, drawn, title)},
      {"queues-price.svg", PriceChart(ledger, drawn, title)},
      {"queues-share.svg", ShareChart(ledger, drawn, title)},
      {"queues-completion.svg", CompletionChart(ledger, drawn, jobs, title)},
  };
  out.erase(std::remove_if(out.begin(), out.end(),
                           [](const auto& c) { return c.second.series.empty(); }),
            out.end());
  return out;
}

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
