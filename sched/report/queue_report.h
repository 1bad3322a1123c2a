// The report of a run under a policy that shares slots among paying queues (dynprio,
// capacity): each queue's statement (QueueLedger) as metrics.json's "queues" and as
// queues.csv, one line per queue per allocation interval.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sched/core/queue_ledger.h"
#include "sched/report/line_chart_svg.h"
#include "sched/report/workload_metrics.h"

namespace mrlocal {

// Per queue, in the ledger's order: its money (credits, and micro-credits, which add up
// exactly: opening + added - spent = balance), its jobs and their mean completion time
// (finish - arrival, completed jobs), and the slot time it used, paid for and was entitled
// to, with its share of each (of all queues' used, of all queues' entitled). JSON text.
std::string QueuesJson(const QueueLedger& ledger, const std::vector<JobMetrics>& jobs);

// queues.csv: interval_start_s,interval_end_s,price,queue,rate,entitled_map_slots,
// entitled_reduce_slots,used_slot_s,paid_slot_s,entitled_slot_s,charge,balance. Money in
// credits with 6 decimals: exact, being micro-credits.
std::string QueuesCsv(const QueueLedger& ledger);

// The charts of the run, each with its file name, those with something to draw:
//   queues-budget.svg      each budgeted queue's balance, opened and after each interval's
//                          charge, in % of its opening budget and additions (Fig. 3);
//   queues-price.svg       the price (the sum of the bids of the queues with work and
//                          money) and each queue's bid, interval by interval (Fig. 3);
//   queues-share.svg       each queue's share of the slot time used, interval by interval;
//   queues-completion.svg  each completed job's completion time at its finish, by queue
//                          (Fig. 4; Figs. 10-11's valleys where a job bid more).
// With more than kMaxChartQueues queues, that many are drawn, evenly spread over the bids
// (the subtitle says so). `title` heads each chart.
inline constexpr size_t kMaxChartQueues = 12;
std::vector<std::pair<std::string, LineChart>> QueueCharts(const QueueLedger& ledger,
                                                           const std::vector<JobMetrics>& jobs,
                                                           const std::string& title);

}  // namespace mrlocal
