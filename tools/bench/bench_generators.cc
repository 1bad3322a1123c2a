// Measures the dataset generators against real data.
//
//   bench_generators text   [--mib N]   word-length histogram and rank/frequency slope of
//                                       generated text (s = 1.0 and 1.5) and of the
//                                       Gutenberg books in ../shared/datasets/text, and
//                                       the generator's speed (MB per CPU second, one
//                                       thread, median of 5)
//   bench_generators graph  [--nodes N] [--edges E]   realized distinct-degree skew for
//                                       each model at targets 24, 100, 208, and the time
//                                       to generate (in memory, every core)
//   bench_generators real-graphs        the same skew measure on ../shared/datasets/graphs
//
// Tokens are lower-cased [a-z]+ runs; the slope is the least-squares fit of
// log(frequency) on log(rank) over ranks 10..1000.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double Seconds(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Shape {
  uint64_t tokens = 0;
  double mean_length = 0;
  double slope = 0;
  std::vector<double> histogram;  // percent of tokens with 1..15 letters
};

Shape MeasureShape(std::string_view text) {
  std::unordered_map<std::string, uint64_t> counts;
  std::vector<uint64_t> lengths(64, 0);
  std::string word;
  Shape s;
  uint64_t letters = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? static_cast<char>(text[i] | 0x20) : ' ';
    if (c >= 'a' && c <= 'z') {  // only A-Z and a-z land there
      word += c;
    } else if (!word.empty()) {
      ++counts[word];
      ++lengths[std::min<size_t>(word.size(), 63)];
      letters += word.size();
      ++s.tokens;
      word.clear();
    }
  }
  s.mean_length = static_cast<double>(letters) / static_cast<double>(s.tokens);
  for (int l = 1; l <= 15; ++l) s.histogram.push_back(100.0 * lengths[l] / s.tokens);
  std::vector<uint64_t> f;
  for (auto& [w, c] : counts) f.push_back(c);
  std::sort(f.rbegin(), f.rend());
  double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
  for (size_t r = 10; r <= std::min<size_t>(1000, f.size()); ++r) {
    double x = std::log(static_cast<double>(r)), y = std::log(static_cast<double>(f[r - 1]));
    sx += x, sy += y, sxx += x * x, sxy += x * y, n += 1;
  }
  s.slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return s;
}

void PrintShape(const char* name, const Shape& s) {
  std::printf("%-28s tokens %9llu  mean length %.2f  slope(10..1000) %+.3f\n  %%:", name,
              static_cast<unsigned long long>(s.tokens), s.mean_length, s.slope);
  for (size_t l = 0; l < s.histogram.size(); ++l) std::printf(" %zu:%.1f", l + 1, s.histogram[l]);
  std::printf("\n");
}

std::string ReadAll(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The generator's own speed: the chunks of `o` made in order on this thread (the
// vocabulary built beforehand), in MB per second of this thread's CPU time, which other
// load on a shared machine moves less than wall time; median of 5 runs.
double GenerateMBPerCpuSecond(const mrlocal::TextOptions& o) {
  auto cpu_seconds = [] {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  const mrlocal::TextGenerator gen(o);
  std::string chunk;
  std::vector<double> seconds;
  for (int run = 0; run < 5; ++run) {
    const double t0 = cpu_seconds();
    for (uint64_t i = 0; i < gen.chunks(); ++i) gen.Chunk(i, &chunk);
    seconds.push_back(cpu_seconds() - t0);
  }
  std::sort(seconds.begin(), seconds.end());
  return static_cast<double>(o.bytes) / seconds[2] / 1e6;
}

int Text(uint64_t mib) {
  std::string english;
  int books = 0;
  const fs::path dir = fs::path(MRLOCAL_SHARED_DATASETS) / "text" / "gutenberg";
  if (fs::is_directory(dir))
    for (auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".txt") english += ReadAll(e.path()), ++books;
  char name[64];
  std::snprintf(name, sizeof name, "gutenberg (%d books)", books);
  if (!english.empty()) PrintShape(name, MeasureShape(english));
  for (double s : {1.0, 1.5}) {
    mrlocal::TextOptions o = mrlocal::DefaultCorpusOptions();
    o.bytes = mib << 20;
    o.exponent = s;
    std::snprintf(name, sizeof name, "generated s=%.1f, %llu MiB", s,
                  static_cast<unsigned long long>(mib));
    PrintShape(name, MeasureShape(mrlocal::GenerateText(o)));
    std::printf("  generate: %.1f MB per CPU second (one thread)\n", GenerateMBPerCpuSecond(o));
  }
  return 0;
}

int Graph(uint64_t nodes, uint64_t edges) {
  for (auto model : {mrlocal::GraphModel::kChungLu, mrlocal::GraphModel::kRmat}) {
    for (double skew : {24.0, 100.0, 208.0}) {
      mrlocal::GraphOptions o;
      o.nodes = nodes;
      o.edges = edges;
      o.model = model;
      o.skew = skew;
      auto t0 = Clock::now();
      auto gen = mrlocal::GraphGenerator::Create(o);
      double calibrate = Seconds(t0);
      if (!gen.ok()) {
        std::printf("%-8s target %5.0f: %s\n", std::string(GraphModelName(model)).c_str(), skew,
                    gen.status().message().c_str());
        continue;
      }
      t0 = Clock::now();
      auto text = mrlocal::GenerateGraph(o);
      double total = Seconds(t0);
      auto stats = mrlocal::MeasureDistinctDegree(*text);
      std::printf(
          "%-8s target %5.0f: parameter %.4f expected %6.1f realized %6.1f (%+5.1f%%)  max %llu "
          "mean %.2f nodes %llu  | calibrate %.3f s, calibrate+generate %.3f s, %.0f MB\n",
          std::string(GraphModelName(model)).c_str(), skew, gen->parameter(), gen->expected_skew(),
          stats->skew(), 100 * (stats->skew() / skew - 1),
          static_cast<unsigned long long>(stats->max_degree), stats->mean_degree,
          static_cast<unsigned long long>(stats->nodes), calibrate, total, text->size() / 1e6);
    }
  }
  return 0;
}

int RealGraphs() {
  const fs::path dir = fs::path(MRLOCAL_SHARED_DATASETS) / "graphs";
  for (const char* name : {"facebook_combined.txt", "soc-Slashdot0902.txt.gz"}) {
    const fs::path p = dir / name;
    std::string text;
    if (p.extension() == ".gz") {
      std::string cmd = "gzip -dc '" + p.string() + "'";
      if (FILE* f = popen(cmd.c_str(), "r")) {
        char buf[1 << 16];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
        pclose(f);
      }
    } else {
      text = ReadAll(p);
    }
    auto s = mrlocal::MeasureDistinctDegree(text);
    if (!s.ok()) {
      std::printf("%s: %s\n", name, s.status().message().c_str());
      continue;
    }
    std::printf("%-26s skew %.1f  max %llu  mean %.2f  nodes %llu\n", name, s->skew(),
                static_cast<unsigned long long>(s->max_degree), s->mean_degree,
                static_cast<unsigned long long>(s->nodes));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "";
  uint64_t mib = 8, nodes = 100000, edges = 1000000;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mib")) mib = std::strtoull(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--nodes")) nodes = std::strtoull(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--edges")) edges = std::strtoull(argv[i + 1], nullptr, 10);
  }
  if (what == "text") return Text(mib);
  if (what == "graph") return Graph(nodes, edges);
  if (what == "real-graphs") return RealGraphs();
  std::fprintf(stderr, "usage: bench_generators text|graph|real-graphs [options]\n");
  return 2;
}
