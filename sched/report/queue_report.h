// The report of a run under a policy that shares slots among paying queues (dynprio,
// capacity): each queue's statement (QueueLedger) as metrics.json's "queues" and as
// queues.csv, one line per queue per allocation interval.
#pragma once

#include <string>
#include <vector>

#include "sched/core/queue_ledger.h"
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

}  // namespace mrlocal
