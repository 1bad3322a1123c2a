// /metrics: the service's figures in the Prometheus text format (version 0.0.4), for a
// scraper: jobs by phase, slots and busy slots by kind, the scheduler's decision latency as
// a histogram, and per queue its budget, rate, spending and running tasks.
#pragma once

#include <string>

#include "tools/serve/service.h"

namespace mrlocal {

std::string MetricsText(const Service& service);

}  // namespace mrlocal
