// plot_csv: a CSV of points to a line chart (sched/report/line_chart_svg.h), for the
// benchmark scripts' figures.
//
//   plot_csv IN.csv -o OUT.svg [--title T] [--subtitle S] [--x-label X] [--y-label Y]
//            [--log-x] [--y-free]
//
// IN.csv has a header and the columns series,x,y[,ymin,ymax] (a field may be quoted with
// "..."); series appear in the legend in the order they first occur. `-` reads stdin.
// --y-free lets the y axis start above 0. Bad input: a one-line error, exit 2.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sched/report/line_chart_svg.h"

namespace {

using mrlocal::LineChart;
using mrlocal::LinePoint;

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "plot_csv: error: %s\n", message.c_str());
  std::exit(2);
}

// One CSV line's fields; "..." quotes a field ("" inside is a quote).
std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

double Number(const std::string& field, const std::string& where) {
  char* end = nullptr;
  const double v = std::strtod(field.c_str(), &end);
  if (field.empty() || *end != '\0') Fail(where + ": '" + field + "' is not a number");
  return v;
}

// The points of `in` (named `name` in messages) into chart->series.
void ReadPoints(std::istream& in, const std::string& name, LineChart* chart) {
  std::string line;
  if (!std::getline(in, line)) Fail(name + ": empty file (expected a header series,x,y)");
  const std::vector<std::string> header = SplitCsv(line);
  if (header.size() < 3 || header[0] != "series" || header[1] != "x" || header[2] != "y")
    Fail(name + ":1: the header must start with series,x,y");
  std::map<std::string, size_t> index;
  for (int n = 2; std::getline(in, line); ++n) {
    if (line.empty() || line == "\r") continue;
    const std::string where = name + ":" + std::to_string(n);
    const std::vector<std::string> f = SplitCsv(line);
    if (f.size() != 3 && f.size() != 5)
      Fail(where + ": expected 3 fields (series,x,y) or 5 (with ymin,ymax), got " +
           std::to_string(f.size()));
    LinePoint p{Number(f[1], where), Number(f[2], where), {}, {}};
    if (f.size() == 5) {
      p.low = Number(f[3], where);
      p.high = Number(f[4], where);
    }
    auto [it, added] = index.emplace(f[0], chart->series.size());
    if (added) chart->series.push_back({f[0], {}});
    chart->series[it->second].points.push_back(p);
  }
}

}  // namespace

int main(int argc, char** argv) {
  LineChart chart;
  std::string input, output;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Fail(a + " needs a value");
      return argv[++i];
    };
    if (a == "-o")
      output = value();
    else if (a == "--title")
      chart.title = value();
    else if (a == "--subtitle")
      chart.subtitle = value();
    else if (a == "--x-label")
      chart.x_label = value();
    else if (a == "--y-label")
      chart.y_label = value();
    else if (a == "--log-x")
      chart.log_x = true;
    else if (a == "--y-free")
      chart.y_from_zero = false;
    else if (a.size() > 1 && a[0] == '-')
      Fail("unknown option " + a);
    else if (input.empty())
      input = a;
    else
      Fail("one input file only (got '" + input + "' and '" + a + "')");
  }
  if (input.empty() || output.empty())
    Fail(
        "usage: plot_csv IN.csv -o OUT.svg [--title T] [--subtitle S] [--x-label X] "
        "[--y-label Y] [--log-x] [--y-free]");

  if (input == "-") {
    ReadPoints(std::cin, "stdin", &chart);
  } else {
    std::ifstream in(input);
    if (!in) Fail(input + ": cannot open");
    ReadPoints(in, input, &chart);
  }
  mrlocal::Result<std::string> svg = mrlocal::LineChartSvg(chart);
  if (!svg.ok()) Fail(input + ": " + svg.status().message());
  std::ofstream out(output, std::ios::binary);
  if (!(out << *svg) || !out.flush()) Fail(output + ": cannot write");
  return 0;
}
