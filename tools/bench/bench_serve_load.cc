// A load client for `mrlocal serve` (issue 22's figures): submit and status throughput and
// latency over loopback with jobs queued, and the server's memory while many small jobs go
// through it. tools/bench/bench_serve.sh starts the server and runs the phases.
//
//   bench_serve_load --server URL --key FILE fill N           N jobs that wait (long maps)
//   bench_serve_load --server URL --key FILE submit N C       N submissions from C clients
//   bench_serve_load --server URL --key FILE status N C       N GET /api/v1/jobs/{id}
//   bench_serve_load --server URL --key FILE stream N C PID   N tiny jobs through, printing
//                                                             the server's RSS every N/20
//   bench_serve_load --server URL --key FILE paced N INTERVAL_S
//       N jobs read from stdin (one JSON body a line), job i submitted at i x INTERVAL_S
//       over one kept-alive connection (bench_serve_decisions.sh: an arrival process
//       without a client process per job competing for the cores)
//   bench_serve_load --server URL --key FILE closed N C SWITCH_S
//       the two-queue experiment (dynamic proportional share, section 4.2) through the API:
//       C closed-loop clients per queue q1 and q2, N jobs each (24 maps of 0.25 s, one
//       0.05 s reduce); at SWITCH_S the rates go from q1 2 : q2 1 to q1 1 : q2 2. Prints
//       each job, then the mean completion time per queue and phase and their ratio.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tools/serve/service_client.h"

namespace mrlocal {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// A job that holds a map slot for an hour: what queues up behind it waits.
const std::string kWaiting =
    json{{"app", "synthetic"}, {"maps", 1}, {"reduces", 0}, {"map_s", 3600}, {"output", false}}
        .dump();
// A job that is over in a millisecond of slot time.
const std::string kTiny =
    json{{"app", "synthetic"}, {"maps", 1}, {"reduces", 0}, {"map_s", 0.001}, {"output", false}}
        .dump();

struct Latencies {
  std::mutex mu;
  std::vector<double> us;
  void Add(std::vector<double>& mine) {
    std::lock_guard lock(mu);
    us.insert(us.end(), mine.begin(), mine.end());
  }
  double Percentile(double q) {
    if (us.empty()) return 0;
    std::sort(us.begin(), us.end());
    return us[std::min(us.size() - 1, static_cast<size_t>(q * static_cast<double>(us.size())))];
  }
};

// `n` calls spread over `clients` threads, each its own kept-alive connection; `call(i)`
// makes call i and says whether it succeeded.
template <class Call>
void Run(const char* what, size_t n, int clients, const ServiceAddress& address,
         const ServiceKey& key, Call call) {
  Latencies latencies;
  std::atomic<size_t> next{0}, failed{0};
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c)
    threads.emplace_back([&] {
      ServiceClient client(address, key);
      std::vector<double> mine;
      for (size_t i; (i = next++) < n;) {
        const auto t0 = Clock::now();
        if (!call(client, i)) ++failed;
        mine.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
      }
      latencies.Add(mine);
    });
  for (auto& t : threads) t.join();
  const double s = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "%-8s %7zu requests, %2d clients: %8.0f req/s, p50 %7.0f us, p99 %7.0f us, %zu failed\n",
      what, n, clients, static_cast<double>(n) / s, latencies.Percentile(0.5),
      latencies.Percentile(0.99), failed.load());
}

uint64_t RssKiB(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
  return 0;
}

// One job of the two-queue experiment, as its client saw it.
struct ClosedJob {
  std::string queue;
  double submitted_s, finished_s;
};

int Closed(const ServiceAddress& address, const ServiceKey& key, size_t per_client, int clients,
           double switch_s) {
  const auto start = Clock::now();
  const auto since = [&start] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  std::mutex mu;
  std::vector<ClosedJob> jobs;
  std::vector<std::thread> threads;
  for (const char* queue : {"q1", "q2"})
    for (int c = 0; c < clients; ++c)
      threads.emplace_back([&, queue] {
        ServiceClient client(address, key);
        const std::string job =
            json{{"app", "synthetic"}, {"maps", 24},     {"reduces", 1},   {"map_s", 0.25},
                 {"reduce_s", 0.05},   {"queue", queue}, {"output", false}}
                .dump();
        for (size_t i = 0; i < per_client; ++i) {
          const double submitted = since();
          auto r = client.Call("POST", "/api/v1/jobs", job);
          if (!r.ok() || r->status != 201) return;
          const std::string target =
              "/api/v1/jobs/" + std::to_string(json::parse(r->body)["id"].get<int64_t>());
          for (;;) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            auto s = client.Call("GET", target);
            if (!s.ok()) return;
            const std::string phase = json::parse(s->body)["phase"];
            if (phase != "queued" && phase != "running") break;
          }
          std::lock_guard lock(mu);
          jobs.push_back({queue, submitted, since()});
        }
      });
  std::thread switcher([&] {
    std::this_thread::sleep_for(std::chrono::duration<double>(switch_s));
    ServiceClient client(address, key);
    for (auto [queue, rate] : {std::pair{"q1", 1'000'000}, {"q2", 2'000'000}})
      (void)client.Call("POST", std::string("/api/v1/queues/") + queue + "/rate",
                        json{{"rate_micro", rate}}.dump());
    std::printf("rates switched to q1 1 : q2 2 at %.1f s\n", since());
  });
  for (auto& t : threads) t.join();
  switcher.join();
  std::printf("queue,submitted_s,finished_s,completion_s\n");
  double sum[2][2] = {{0, 0}, {0, 0}};
  int count[2][2] = {{0, 0}, {0, 0}};
  for (const ClosedJob& j : jobs) {
    std::printf("%s,%.3f,%.3f,%.3f\n", j.queue.c_str(), j.submitted_s, j.finished_s,
                j.finished_s - j.submitted_s);
    // A job belongs to the phase it ran in wholly; those across the switch to neither.
    const int phase = j.finished_s <= switch_s ? 0 : j.submitted_s >= switch_s ? 1 : -1;
    if (phase < 0) continue;
    const int q = j.queue == "q1" ? 0 : 1;
    sum[phase][q] += j.finished_s - j.submitted_s;
    ++count[phase][q];
  }
  for (int p = 0; p < 2; ++p) {
    const double q1 = sum[p][0] / std::max(1, count[p][0]),
                 q2 = sum[p][1] / std::max(1, count[p][1]);
    std::printf("%s: q1 %.2f s (%d jobs), q2 %.2f s (%d jobs), slower / faster %.2f\n",
                p == 0 ? "rates 2:1" : "rates 1:2", q1, count[p][0], q2, count[p][1],
                p == 0 ? q2 / q1 : q1 / q2);
  }
  return 0;
}

int Paced(const ServiceAddress& address, const ServiceKey& key, size_t n, double interval_s) {
  ServiceClient client(address, key);
  const auto start = Clock::now();
  size_t i = 0;
  for (std::string body; i < n && std::getline(std::cin, body); ++i) {
    std::this_thread::sleep_until(start + std::chrono::duration_cast<Clock::duration>(
                                              std::chrono::duration<double>(interval_s * i)));
    auto r = client.Call("POST", "/api/v1/jobs", body);
    if (!r.ok() || r->status != 201) {
      std::cerr << "job " << i << ": " << (r.ok() ? r->body : r.status().message()) << "\n";
      return 1;
    }
  }
  return i == n ? 0 : 1;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 6 || args[0] != "--server" || args[2] != "--key") {
    std::cerr << "usage: bench_serve_load --server URL --key FILE fill|submit|status|stream N "
                 "[CLIENTS] [PID]\n";
    return 2;
  }
  auto address = ParseServiceUrl(args[1]);
  auto key = ReadKeyFile(args[3]);
  if (!address.ok() || !key.ok()) {
    std::cerr << (address.ok() ? key.status() : address.status()).message() << "\n";
    return 2;
  }
  const std::string phase = args[4];
  const size_t n = std::stoull(args[5]);
  const int clients = args.size() > 6 ? std::stoi(args[6]) : 1;
  auto submit = [](const std::string& job) {
    return [job](ServiceClient& c, size_t) {
      auto r = c.Call("POST", "/api/v1/jobs", job);
      return r.ok() && r->status == 201;
    };
  };
  if (phase == "fill" || phase == "submit") {
    Run(phase.c_str(), n, clients, *address, *key, submit(kWaiting));
  } else if (phase == "status") {
    std::mt19937_64 rng(1);
    std::vector<int64_t> ids;
    for (size_t i = 0; i < n; ++i) ids.push_back(1 + static_cast<int64_t>(rng() % 1000));
    Run("status", n, clients, *address, *key, [&ids](ServiceClient& c, size_t i) {
      auto r = c.Call("GET", "/api/v1/jobs/" + std::to_string(ids[i]));
      return r.ok() && r->status == 200;
    });
  } else if (phase == "stream") {
    const int pid = std::stoi(args.at(7));
    const size_t step = std::max<size_t>(1, n / 20);
    std::printf("jobs submitted,server RSS MiB\n0,%.1f\n", RssKiB(pid) / 1024.0);
    for (size_t done = 0; done < n; done += step) {
      Run("stream", step, clients, *address, *key, [](ServiceClient& c, size_t) {
        for (;;) {  // 503 while the server holds its limit of active jobs: wait, then again
          auto r = c.Call("POST", "/api/v1/jobs", kTiny);
          if (!r.ok()) return false;
          if (r->status != 503) return r->status == 201;
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
      });
      std::printf("%zu,%.1f\n", done + step, RssKiB(pid) / 1024.0);
      std::fflush(stdout);
    }
  } else if (phase == "paced") {
    return Paced(*address, *key, n, std::stod(args.at(6)));
  } else if (phase == "closed") {
    return Closed(*address, *key, n, clients, std::stod(args.at(7)));
  } else {
    std::cerr << "unknown phase '" << phase << "'\n";
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) { return mrlocal::Main(argc, argv); }
