// Command-line helpers the plan benches share (bench_mars_lp, bench_mars_fig7): bad input is
// one line naming the option, exit 2.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace mrlocal::plan_bench {

[[noreturn]] inline void Fail(const char* program, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program, message.c_str());
  std::exit(2);
}

// "10,20,50": integers >= `least`, comma-separated.
inline std::vector<int> ParseList(const char* program, const char* option, const char* text,
                                  int least) {
  std::vector<int> values;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p || v < least || (*end && *end != ','))
      Fail(program, std::string(option) + ": not a list of integers >= " + std::to_string(least) +
                        ": " + text);
    values.push_back(static_cast<int>(v));
    p = *end ? end + 1 : end;
  }
  return values;
}

}  // namespace mrlocal::plan_bench
