#include "tools/runtime/calibration_file.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "engine/atomic_file.h"
#include "engine/one_line.h"
#include "tools/runtime/user_data_path.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// The model's fields by their names in the file, in the order they are written.
struct Field {
  const char* name;
  double AppModel::*member;
};
constexpr Field kFields[] = {
    {"map_s_per_unit", &AppModel::map_s_per_unit},
    {"map_task_s", &AppModel::map_fixed_s},
    {"output_per_unit", &AppModel::alpha},
    {"reduce_s_per_unit", &AppModel::reduce_s_per_unit},
    {"reduce_task_s", &AppModel::reduce_fixed_s},
};

}  // namespace

fs::path DefaultCalibrationPath() {
  return UserDataPath("MRLOCAL_CALIBRATION", "calibration.json");
}

Result<std::map<std::string, AppModel>> ReadCalibratedApps(const fs::path& path) {
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
  std::map<std::string, AppModel> models;
  for (auto& [name, fields] : apps->items()) {
    const std::string app = OneLine(name);  // for messages: keys may hold line breaks
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
    models[name] = m;
  }
  return models;
}

Result<Calibration> LoadCalibration(const fs::path& path) {
  RemoveStaleTemporaries(path.string());  // of a `calibrate` killed while it saved the file
  auto apps = ReadCalibratedApps(path);
  if (!apps.ok()) return apps.status();
  Calibration c = Calibration::BuiltIn();  // apps the file does not name keep their models
  c.source = path.string();
  for (auto& [app, m] : *apps) c.apps[app] = m;
  return c;
}

Result<Calibration> LoadDefaultCalibration() {
  Result<Calibration> c = LoadCalibration(DefaultCalibrationPath());
  if (!c.ok() && c.status().code() == Status::Code::kNotFound) return Calibration::BuiltIn();
  return c;
}

namespace {

Status WriteApps(const std::map<std::string, AppModel>& models, const fs::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec)
    return Status::IoError("cannot create '" + path.parent_path().string() + "': " + ec.message());
  nlohmann::ordered_json apps = nlohmann::ordered_json::object();
  for (auto& [app, m] : models) {
    nlohmann::ordered_json& a = apps[app];
    for (const Field& f : kFields) a[f.name] = m.*f.member;
  }
  const nlohmann::ordered_json doc = {{"apps", std::move(apps)}};
  RemoveStaleTemporaries(path.string());  // of a `calibrate` killed while it saved the file
  return WriteFileAtomically(path.string(), doc.dump(2) + "\n");
}

}  // namespace

Status SaveCalibration(const Calibration& calibration, const fs::path& path) {
  return WriteApps(calibration.apps, path);
}

Result<std::vector<std::string>> UpdateCalibration(
    const fs::path& path, const std::map<std::string, AppModel>& measured) {
  Result<std::map<std::string, AppModel>> models = ReadCalibratedApps(path);
  if (!models.ok() && models.status().code() != Status::Code::kNotFound) return models.status();
  if (!models.ok()) models = std::map<std::string, AppModel>{};
  std::vector<std::string> kept;
  for (auto& [app, m] : *models)
    if (!measured.contains(app)) kept.push_back(app);
  for (auto& [app, m] : measured) (*models)[app] = m;
  MRLOCAL_RETURN_IF_ERROR(WriteApps(*models, path));
  return kept;
}

}  // namespace mrlocal
