#include "tools/cli/policy_list.h"

#include <algorithm>

#include "tools/cli/option_checks.h"

namespace mrlocal {
namespace {

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

Status Bad(std::string message) { return Status::InvalidArgument(std::move(message)); }

// "(its settings: a, b)" or "(it has none)".
std::string SettingsOf(const PolicyDescriptor& d) {
  std::vector<std::string> names;
  for (const PolicySetting& s : d.settings) names.emplace_back(s.name);
  return names.empty() ? "(it has none)" : "(its settings: " + JoinNames(names, ", ") + ")";
}

// One entry NAME[:SETTING=VALUE]..., not empty.
Result<PolicyVariant> ParseEntry(std::string_view entry, const PolicyRegistry& registry) {
  const std::vector<std::string_view> parts = Split(entry, ':');
  auto d = registry.Find(parts[0]);
  if (!d.ok()) return d.status();
  PolicyVariant variant{std::string(entry), (*d)->name, {}};
  const std::string where = "'" + variant.label + "': ";
  for (size_t i = 1; i < parts.size(); ++i) {
    const size_t eq = parts[i].find('=');
    if (eq == std::string_view::npos || eq == 0)
      return Bad(where + "expected SETTING=VALUE after ':' (got '" + std::string(parts[i]) + "')");
    const std::string_view name = parts[i].substr(0, eq);
    const PolicySetting* setting = (*d)->Setting(name);
    if (!setting)
      return Bad((*d)->name + " has no setting '" + std::string(name) + "' " + SettingsOf(**d));
    auto value = setting->Parse(parts[i].substr(eq + 1));
    if (!value.ok()) return value.status().WithContext(where + std::string(name) + " ");
    if (!variant.settings.emplace(std::string(name), *value).second)
      return Bad(where + "sets " + std::string(name) + " twice");
  }
  return variant;
}

}  // namespace

PolicyArgs PolicyVariant::Args(PolicyArgs run_wide) const {
  for (const auto& [name, value] : settings) run_wide.Set(name, value);
  return run_wide;
}

Result<std::vector<PolicyVariant>> ParsePolicyList(std::string_view text,
                                                   const PolicyRegistry& registry) {
  const std::vector<std::string_view> entries = Split(text, ',');
  if (std::all_of(entries.begin(), entries.end(), [](std::string_view e) { return e.empty(); }))
    return Bad(
        "expected a comma-separated list of policies, each NAME[:SETTING=VALUE]... "
        "(e.g. edf,rtmr,rtmr:estimate-margin=2)");
  std::vector<PolicyVariant> variants;
  for (std::string_view entry : entries) {
    if (entry.empty()) return Bad("an empty entry in '" + std::string(text) + "'");
    auto variant = ParseEntry(entry, registry);
    if (!variant.ok()) return variant.status();
    for (const PolicyVariant& v : variants) {
      if (v.label == variant->label) return Bad("'" + v.label + "' is given twice");
      if (v.policy == variant->policy && v.settings == variant->settings)
        return Bad("'" + v.label + "' and '" + variant->label + "' are the same variant of " +
                   v.policy);
    }
    variants.push_back(std::move(variant).value());
  }
  return variants;
}

std::vector<std::string> PolicyNamesOf(const std::vector<PolicyVariant>& variants) {
  std::vector<std::string> names;
  for (const PolicyVariant& v : variants) names.push_back(v.policy);
  return names;
}

std::string PolicySettingsHelp(const PolicyRegistry& registry) {
  std::string help = "Settings of a --policies entry (NAME:SETTING=VALUE, in --SETTING's range):";
  for (const std::string& name : registry.Names()) {
    const PolicyDescriptor& d = *registry.Find(name).value();
    if (d.settings.empty()) continue;
    std::vector<std::string> settings;
    for (const PolicySetting& s : d.settings) settings.emplace_back(s.name);
    help += "\n  " + name + ": " + JoinNames(settings, ", ");
  }
  return help;
}

CLI::Validator PolicyList() {
  return CLI::Validator(
      [](std::string& text) {
        auto list = ParsePolicyList(text);
        return list.ok() ? std::string() : std::string(list.status().message());
      },
      "each NAME[:SETTING=VALUE]..., SETTING one NAME reads");
}

CLI::Validator SettingValue(const PolicySetting& setting) {
  return CLI::Validator(
      [setting](std::string& text) {
        auto value = setting.Parse(text);
        if (!value.ok()) return std::string(value.status().message());
        if (setting.integer)
          text = std::to_string(static_cast<long long>(std::get<double>(*value)));
        return std::string();
      },
      setting.Range());
}

}  // namespace mrlocal
