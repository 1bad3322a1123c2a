#include "tools/runtime/app_registry.h"

#include "tools/runtime/builtin_apps.h"

namespace mrlocal {

const AppRegistry& AppRegistry::BuiltIn() {
  static const AppRegistry* registry = [] {
    auto* r = new AppRegistry;
    for (AppDescriptor& app : BuiltInApps()) {
      Status st = r->Register(std::move(app));
      (void)st;  // distinct names, by construction
    }
    return r;
  }();
  return *registry;
}

Status AppRegistry::Register(AppDescriptor app) {
  if (Lookup(app.spec.name))
    return Status::InvalidArgument("app '" + app.spec.name + "' is registered already");
  schemas_.push_back(app.spec);
  apps_.push_back(std::make_unique<const AppDescriptor>(std::move(app)));
  return Status::OK();
}

const AppDescriptor* AppRegistry::Lookup(std::string_view name) const {
  for (const auto& app : apps_)
    if (app->spec.name == name) return app.get();
  return nullptr;
}

Result<const AppDescriptor*> AppRegistry::Find(std::string_view name) const {
  if (const AppDescriptor* app = Lookup(name)) return app;
  std::string known;
  for (const std::string& n : Names()) known += (known.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("unknown app '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> AppRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& app : apps_) names.push_back(app->spec.name);
  return names;
}

}  // namespace mrlocal
