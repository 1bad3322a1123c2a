// The web console in a real browser, as an operator opens it: the real `mrlocal serve`
// binary runs with a queue that pays for jobs and one that waits idle, jobs are submitted
// with the command-line client so that some run while the page loads, and headless
// Chromium loads /console/ with a reader key in the URL fragment. The page it renders must
// show the submitted jobs, the queues with their budgets and the slots, and at least one
// event of the live stream must have reached it: the console signs its requests as the
// C++ client does, reads the API and draws what it read, with nothing but the server
// behind it (no CDN, no fonts from the web). A screenshot is kept beside the test binary,
// build/console-test/console.png, for a person to look at. Without Chromium the test is
// skipped, saying how to install it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/util/server_process.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::Contains;
using testing::ScratchDir;
using testing::ServerProcess;

// The first of `names` found on PATH, as a path; empty when none is.
std::string FindOnPath(const std::vector<std::string>& names) {
  const char* path = std::getenv("PATH");
  for (const std::string& name : names) {
    std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (!dirs.empty()) {
      const size_t colon = dirs.find(':');
      const fs::path candidate = fs::path(dirs.substr(0, colon)) / name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
      dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    }
  }
  return "";
}

// A `mrlocal` command that must succeed; its stdout.
std::string Mrlocal(const std::vector<std::string>& args) {
  const testing::CommandResult r = testing::RunMrlocal(args);
  EXPECT_EQ(r.exit_code, 0) << args[0] << " " << (args.size() > 1 ? args[1] : "") << ": " << r.err;
  return r.out;
}

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// A money cell of the queues table: the text the page shows, and its data-micro attribute.
struct Cell {
  std::string text;
  std::string micro;
};
// The cell of class `name` in the row of queue `queue`; empty when there is none.
Cell QueueCell(const std::string& dom, const std::string& queue, const std::string& name) {
  const size_t row = dom.find("<tr data-queue=\"" + queue + "\">");
  const size_t cell = dom.find("class=\"num " + name, row);
  if (row == std::string::npos || cell == std::string::npos || cell > dom.find("</tr>", row))
    return {};
  const size_t micro = dom.find("data-micro=\"", cell) + 12;
  const size_t text = dom.find('>', cell) + 1;
  return {dom.substr(text, dom.find("</td>", text) - text),
          dom.substr(micro, dom.find('"', micro) - micro)};
}

int Count(const std::string& text, const std::string& fragment) {
  int n = 0;
  for (size_t at = text.find(fragment); at != std::string::npos; at = text.find(fragment, at + 1))
    ++n;
  return n;
}

TEST(ConsoleBrowserTest, ShowsTheSubmittedJobsTheQueuesBudgetsAndTheSlots) {
  const std::string chromium = FindOnPath({"chromium", "chromium-browser"});
  if (chromium.empty())
    GTEST_SKIP() << "Chromium is not installed, so the web console's browser test cannot run: "
                    "install it with `apt-get install chromium` (or `bash tools/setup.sh test`)";
  const std::string timeout = FindOnPath({"timeout"});  // coreutils: bounds each browser run
  ASSERT_FALSE(timeout.empty()) << "`timeout` (coreutils) is not on PATH";

  ScratchDir dir;
  const std::string state = (dir / "state").string();
  Mrlocal({"keys", "add", "root", "--role", "admin", "--state", state, "-o",
           (dir / "root.key").string()});
  Mrlocal({"keys", "add", "viewer", "--role", "reader", "--state", state, "-o",
           (dir / "viewer.key").string()});
  ServerProcess server({"--state", state, "--cluster", "1x(2m,1r,1.0)", "--data-root",
                        dir.path().string(), "--no-pin", "--grace", "1s"},
                       dir / "serve.log", std::chrono::seconds(20));
  ASSERT_TRUE(server.started()) << "the server did not say where it listens: " << server.log();
  const std::string url = server.url();
  const std::vector<std::string> admin = {"--server", url, "--key", (dir / "root.key").string()};

  // q1 pays for the jobs; q2 waits idle, so its budget stays what was deposited.
  Mrlocal(With({"queue", "create", "q1", "--rate", "2"}, admin));
  Mrlocal(With({"queue", "deposit", "q1", "100"}, admin));
  Mrlocal(With({"queue", "create", "q2", "--rate", "1"}, admin));
  Mrlocal(With({"queue", "deposit", "q2", "50"}, admin));
  // Three jobs of 4 maps of 3 s and a reduce of 1 s on 3 slots: they run for tens of
  // seconds, through the page's load. One has a deadline it cannot meet (negative slack).
  std::vector<std::string> ids;
  for (const char* deadline : {"", R"(, "deadline_s": 120)", R"(, "deadline_s": 2)"}) {
    const std::string job = R"({"app": "synthetic", "maps": 4, "reduces": 1, "map_s": 3, )"
                            R"("reduce_s": 1, "queue": "q1")" +
                            std::string(deadline) + "}";
    const std::string out = Mrlocal(With({"submit", "--job", job}, admin));
    ASSERT_EQ(out.rfind("job ", 0), 0u) << out;
    ids.push_back(out.substr(4, out.find(' ', 4) - 4));
  }

  const json viewer = json::parse(testing::ReadFile(dir / "viewer.key"));
  const std::string page = url + "/console/#key=" + viewer["key"].get<std::string>() +
                           "&secret=" + viewer["secret"].get<std::string>();
  const std::vector<std::string> browser = {"--kill-after=5",
                                            "60",
                                            chromium,
                                            "--headless",
                                            "--no-sandbox",
                                            "--disable-gpu",
                                            "--disable-dev-shm-usage",
                                            "--no-first-run",
                                            "--user-data-dir=" + (dir / "profile").string(),
                                            "--virtual-time-budget=5000"};

  const testing::CommandResult dumped =
      testing::RunProgram(timeout, With(browser, {"--dump-dom", page}));
  ASSERT_EQ(dumped.exit_code, 0) << "chromium: " << dumped.err;
  const std::string& dom = dumped.out;
  const size_t status = dom.find("<div id=\"status\"");
  const std::string status_line =
      status == std::string::npos ? "" : dom.substr(status, dom.find("</div>", status) - status);
  EXPECT_TRUE(Contains(status_line, "live · updated")) << status_line;
  // At least one event of the stream reached the page (it counts them on <body>).
  EXPECT_TRUE(Contains(dom, "<body data-events=\"")) << "no event from /api/v1/events";
  // The jobs, by id, in the jobs table.
  for (const std::string& id : ids)
    EXPECT_TRUE(Contains(dom, "<tr data-job=\"" + id + "\">")) << "job " << id;
  // The queues with their budgets: q2's exactly as deposited, q1's what its jobs left.
  EXPECT_EQ(QueueCell(dom, "q2", "budget").text, "50");
  EXPECT_EQ(QueueCell(dom, "q2", "budget").micro, "50000000");
  const std::string q1_budget = QueueCell(dom, "q1", "budget").micro;
  EXPECT_FALSE(q1_budget.empty());
  if (!q1_budget.empty()) {
    EXPECT_GT(std::stoll(q1_budget), 0);
    EXPECT_LE(std::stoll(q1_budget), 100'000'000);
  }
  EXPECT_EQ(QueueCell(dom, "q1", "deposits").text, "100");
  EXPECT_EQ(QueueCell(dom, "q1", "rate").text, "2");
  // The slots of the cluster (2 map, 1 reduce), and bars of the tasks running on them.
  EXPECT_EQ(Count(dom, "<g class=\"slot map\""), 2);
  EXPECT_EQ(Count(dom, "<g class=\"slot reduce\""), 1);
  EXPECT_GE(Count(dom, "<g class=\"bar map"), 1) << "no task on the Gantt";
  if (HasFailure()) std::cerr << "The page as Chromium rendered it:\n" << dom << "\n";

  // A picture for a person to look at, kept after the test beside the test binary (in
  // build/, wherever the test is run from).
  const fs::path shots = fs::read_symlink("/proc/self/exe").parent_path() / "console-test";
  fs::create_directories(shots);
  const fs::path png = shots / "console.png";
  fs::remove(png);
  const testing::CommandResult shot = testing::RunProgram(
      timeout, With(browser, {"--screenshot=" + png.string(), "--window-size=1400,1000", page}));
  EXPECT_EQ(shot.exit_code, 0) << "chromium: " << shot.err;
  ASSERT_TRUE(fs::exists(png)) << shot.err;
  EXPECT_EQ(testing::ReadFile(png).substr(1, 3), "PNG");
  std::cout << "console screenshot: " << png.string() << "\n";

  EXPECT_EQ(server.Stop(), 0) << server.log();
}

}  // namespace
}  // namespace mrlocal
