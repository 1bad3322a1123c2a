// The apps the workload fuzzers give the readers: the built-in apps' schemas as
// tools/runtime/builtin_apps.cc declares them, one of each input and field kind. Written
// out here so that the fuzzers need datasets/ only, not the whole runtime.
#pragma once

#include "datasets/app_schema.h"

namespace mrlocal::fuzz {

inline const AppSchemas& Apps() {
  using Field = AppSchema::Field;
  static const AppSchemas apps = {
      {"wordcount", AppSchema::Input::kText, {}},
      {"friendcount", AppSchema::Input::kGraph, {}},
      {"pi", AppSchema::Input::kNone, {{"samples", Field::Kind::kCount, "pi jobs need samples"}}},
      {"synthetic",
       AppSchema::Input::kNone,
       {{"map_s", Field::Kind::kMapSeconds, "synthetic jobs need map task seconds"},
        {"reduce_s", Field::Kind::kReduceSeconds, "a synthetic job with reduces needs them"}}},
  };
  return apps;
}

}  // namespace mrlocal::fuzz
