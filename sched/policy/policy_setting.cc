#include "sched/policy/policy_setting.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "sched/core/units.h"

namespace mrlocal {
namespace {

Status MustBe(const PolicySetting& s, std::string_view got) {
  return Status::InvalidArgument("must be " + s.Range() + " (got '" + std::string(got) + "')");
}

bool InRange(const PolicySetting& s, double v) {
  return std::isfinite(v) && v >= s.min && !(s.min_open && v == s.min) && v <= s.max &&
         (!s.integer || v == std::floor(v));
}

bool IsChoice(const PolicySetting& s, std::string_view text) {
  if (s.choices.empty()) return !text.empty();
  return std::find(s.choices.begin(), s.choices.end(), text) != s.choices.end();
}

}  // namespace

std::string PolicySetting::Range() const {
  switch (type) {
    case Type::kDouble: {
      constexpr double kNone = std::numeric_limits<double>::max();
      if (integer) return "an integer from " + FormatNumber(min) + " to " + FormatNumber(max);
      if (max == kNone) return "a number " + std::string(min_open ? "> " : ">= ") + FormatNumber(min);
      return "a number in " + std::string(min_open ? "(" : "[") + FormatNumber(min) + ", " + FormatNumber(max) + "]";
    }
    case Type::kDuration:
      return "a positive duration with a unit (ns, us, ms, s, m, h), e.g. 30s or 1500ms";
    case Type::kText: {
      if (choices.empty()) return "a text, not empty";
      std::string all;
      for (std::string_view c : choices) all += (all.empty() ? "" : " | ") + std::string(c);
      return "one of " + all;
    }
  }
  return "";
}

Result<PolicyArgs::Value> PolicySetting::Parse(std::string_view text) const {
  switch (type) {
    case Type::kDouble: {
      double v = 0;
      // from_chars reads no blanks, hex or "0x", and "nan" and "inf" are not finite.
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      const bool read = !text.empty() && ec == std::errc() && end == text.data() + text.size();
      if (!read || !InRange(*this, v)) return MustBe(*this, text);
      return PolicyArgs::Value(v);
    }
    case Type::kDuration: {
      auto d = ParseDuration(text);
      if (!d.ok()) return MustBe(*this, text);
      return PolicyArgs::Value(*d);
    }
    case Type::kText:
      if (!IsChoice(*this, text)) return MustBe(*this, text);
      return PolicyArgs::Value(std::string(text));
  }
  return MustBe(*this, text);
}

Status PolicySetting::Check(const PolicyArgs::Value& value) const {
  if (const double* v = std::get_if<double>(&value))
    return type == Type::kDouble && InRange(*this, *v) ? Status::OK() : MustBe(*this, FormatNumber(*v));
  if (const Duration* d = std::get_if<Duration>(&value))
    return type == Type::kDuration && d->count() > 0 ? Status::OK()
                                                     : MustBe(*this, FormatDuration(*d));
  const std::string& text = std::get<std::string>(value);
  return type == Type::kText && IsChoice(*this, text) ? Status::OK() : MustBe(*this, text);
}

bool PolicySetting::operator==(const PolicySetting& o) const {
  return name == o.name && type == o.type && min == o.min && max == o.max &&
         min_open == o.min_open && integer == o.integer &&
         std::equal(choices.begin(), choices.end(), o.choices.begin(), o.choices.end());
}

}  // namespace mrlocal
