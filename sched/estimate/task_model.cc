#include "sched/estimate/task_model.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "engine/atomic_file.h"
#include "sched/report/json_writer.h"
#include "sched/estimate/user_data_path.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// The AppModel fields by their names in the file, in the order they are written.
struct Field {
  const char* name;
  double AppModel::*member;
};
constexpr Field kFields[] = {
    {"map_s_per_unit", &AppModel::map_s_per_unit},
    {"map_task_s", &AppModel::map_task_s},
    {"output_per_unit", &AppModel::output_per_unit},
    {"reduce_s_per_unit", &AppModel::reduce_s_per_unit},
    {"reduce_task_s", &AppModel::reduce_task_s},
};

}  // namespace

Calibration Calibration::BuiltIn() {
  Calibration c;
  c.source = "built-in";
  // Measured with `mrlocal calibrate -o FILE` on the reference machine (2 cores, default
  // cluster 2x(1m,1r,1.0); README, "Calibration"), rounded to 3 digits. Fields: map s/unit, map s
  // per task, output units per input unit, reduce s/unit, reduce s per task.
  c.apps["wordcount"] = {4.62e-9, 0.0148, 0.0694, 1.69e-8, 0};
  c.apps["friendcount"] = {2.49e-8, 0.757, 0.145, 1.15e-7, 0.169};
  c.apps["pi"] = {2.02e-9, 0.000918, 0, 0, 0.0000534};
  return c;
}

fs::path Calibration::DefaultPath() {
  return UserDataPath("MRLOCAL_CALIBRATION", "calibration.json");
}

Result<Calibration> Calibration::Load(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return Status::NotFound("no calibration file '" + path.string() + "'");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("cannot read calibration file '" + path.string() + "'");
  std::stringstream text;
  text << in.rdbuf();
  const std::string where = path.string() + ": ";
  nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return Status::InvalidArgument(where + "not a JSON object (rerun `mrlocal calibrate`)");
  auto apps = doc.find("apps");
  if (apps == doc.end() || !apps->is_object() || apps->empty())
    return Status::InvalidArgument(where + "no \"apps\" object (rerun `mrlocal calibrate`)");
  Calibration c = BuiltIn();  // apps the file does not name keep their built-in models
  c.source = path.string();
  for (auto& [app, fields] : apps->items()) {
    if (!fields.is_object())
      return Status::InvalidArgument(where + "apps." + app + ": not an object");
    AppModel m;
    for (const Field& f : kFields) {
      auto v = fields.find(f.name);
      if (v == fields.end() || !v->is_number() || !std::isfinite(v->get<double>()) ||
          v->get<double>() < 0)
        return Status::InvalidArgument(where + "apps." + app + "." + f.name +
                                       ": missing or not a non-negative number");
      m.*f.member = v->get<double>();
    }
    c.apps[app] = m;
  }
  return c;
}

Result<Calibration> Calibration::LoadDefault() {
  Result<Calibration> c = Load(DefaultPath());
  if (!c.ok() && c.status().code() == Status::Code::kNotFound) return BuiltIn();
  return c;
}

Status Calibration::Save(const fs::path& path) const {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec)
    return Status::IoError("cannot create '" + path.parent_path().string() + "': " + ec.message());
  std::ostringstream out;
  JsonWriter w(out, /*pretty=*/true);
  w.BeginObject().Key("apps").BeginObject();
  for (auto& [app, m] : apps) {
    w.Key(app).BeginObject();
    for (const Field& f : kFields) w.Key(f.name).Double(m.*f.member);
    w.EndObject();
  }
  w.EndObject().EndObject();
  out << "\n";
  return WriteFileAtomically(path.string(), out.str());
}

Result<AppModel> Calibration::Find(const std::string& app) const {
  auto it = apps.find(app);
  if (it != apps.end()) return it->second;
  std::string names;
  for (auto& [n, m] : apps) names += (names.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("no calibrated model for app '" + app + "' in " + source +
                                 " (calibrated: " + names + ")");
}

}  // namespace mrlocal
