// What a workload spec job of one app may hold, as the workload readers check it. The apps
// themselves are declared above datasets/ (the app registry, tools/runtime/app_registry.h),
// which hands the readers their schemas: datasets/ knows no app by name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mrlocal {

struct AppSchema {
  std::string name;  // as spec files and traces name it: "wordcount"
  // The input its jobs read. kNone: they take no "input" and need "maps" >= 1.
  enum class Input { kNone, kText, kGraph };
  Input input = Input::kNone;
  // The app's own keys of a spec job, read in this order into WorkloadJob::params.
  struct Field {
    enum class Kind {
      kCount,          // an integer >= 1
      kMapSeconds,     // seconds > 0: one value for every map, or one per map
      kReduceSeconds,  // the same per reduce; refused when the job has no reduces
    };
    std::string key;
    Kind kind = Kind::kCount;
    // The message when it is missing ("missing: " + this); a kReduceSeconds field is
    // required only when the job has reduces.
    std::string missing;
  };
  std::vector<Field> fields;
};

// The apps a reader accepts, in the order its messages list them.
using AppSchemas = std::vector<AppSchema>;

// A job's values of its app's own fields (AppSchema::fields), by key.
class AppParams {
 public:
  void SetCount(std::string key, uint64_t value) { counts_[std::move(key)] = value; }
  void SetSeconds(std::string key, std::vector<double> seconds) {
    seconds_[std::move(key)] = std::move(seconds);
  }
  // 0 when not set.
  uint64_t Count(std::string_view key) const;
  // Empty when not set.
  const std::vector<double>& TaskSeconds(std::string_view key) const;

 private:
  std::map<std::string, uint64_t, std::less<>> counts_;
  std::map<std::string, std::vector<double>, std::less<>> seconds_;
};

inline uint64_t AppParams::Count(std::string_view key) const {
  auto it = counts_.find(key);
  return it == counts_.end() ? 0 : it->second;
}

inline const std::vector<double>& AppParams::TaskSeconds(std::string_view key) const {
  static const std::vector<double> kNone;
  auto it = seconds_.find(key);
  return it == seconds_.end() ? kNone : it->second;
}

}  // namespace mrlocal
