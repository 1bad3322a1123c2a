#include "tools/runtime/job_definition.h"

#include <nlohmann/json.hpp>

namespace mrlocal {

Result<JobStore> OpenJobInputs(const JobApp& app, const JobInputs& inputs,
                               const std::function<void(const std::string&)>& generating) {
  BlockStoreOptions options;
  options.block_size = inputs.block_size;
  options.nodes = inputs.nodes;
  const bool persistent = app.index_maps == 0 && !inputs.store_dir.empty();
  auto store = persistent
                   ? BlockStore::Open(inputs.store_dir, options, BlockStore::OpenMode::kMustExist)
                   : BlockStore::InMemory(options);
  if (!store.ok()) return store.status();
  JobStore js;
  js.store = std::move(store).value();
  if (app.index_maps > 0) return js;
  js.paths = inputs.files;
  if (persistent) return js;
  if (js.paths.empty()) {
    if (!app.make_default_input) return Status::InvalidArgument("no input files given");
    js.paths.push_back(app.default_input_name);
    if (generating) generating(app.default_input_name);
    MRLOCAL_RETURN_IF_ERROR(js.store->PutBuffer(app.default_input_name, app.make_default_input()));
    return js;
  }
  for (const std::string& path : js.paths) MRLOCAL_RETURN_IF_ERROR(js.store->Put(path, path));
  return js;
}

std::string JobDefinition::Encode() const {
  nlohmann::json j = {
      {"app", app},
      {"files", inputs.files},
      {"store_dir", inputs.store_dir},
      {"block_size", inputs.block_size},
      {"nodes", inputs.nodes},
      {"reduces", reduces},
      {"partitions", partitions},
      {"sketch_rows", sketch_rows},
      {"top", top},
      {"skip_bad_records", skip_bad_records},
      {"maps", maps},
  };
  return j.dump();
}

Result<JobDefinition> JobDefinition::Decode(std::string_view bytes) {
  const nlohmann::json j = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return Status::InvalidArgument("job definition: not a JSON object");
  JobDefinition d;
  try {
    d.app = j.at("app").get<std::string>();
    d.inputs.files = j.at("files").get<std::vector<std::string>>();
    d.inputs.store_dir = j.at("store_dir").get<std::string>();
    d.inputs.block_size = j.at("block_size").get<uint64_t>();
    d.inputs.nodes = j.at("nodes").get<int>();
    d.reduces = j.at("reduces").get<uint32_t>();
    d.partitions = j.at("partitions").get<uint32_t>();
    d.sketch_rows = j.at("sketch_rows").get<int>();
    d.top = j.at("top").get<int>();
    d.skip_bad_records = j.at("skip_bad_records").get<bool>();
    d.maps = j.at("maps").get<uint32_t>();
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(std::string("job definition: ") + e.what());
  }
  if (d.inputs.block_size == 0 || d.inputs.nodes < 1 || d.reduces < 1 || d.partitions < d.reduces ||
      d.sketch_rows < 1)
    return Status::InvalidArgument("job definition: a size out of range");
  return d;
}

}  // namespace mrlocal
