// A small streaming JSON writer for metrics.json and Chrome trace files. Always emits
// valid JSON: strings are escaped (control bytes as \u00XX, invalid UTF-8 as U+FFFD) and
// non-finite doubles become null.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace mrlocal {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out, bool pretty = false) : out_(out), pretty_(pretty) {}

  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view k);
  JsonWriter& String(std::string_view s);
  JsonWriter& Int(int64_t v);
  JsonWriter& Double(double v);
  JsonWriter& Bool(bool v);
  JsonWriter& Null();

 private:
  JsonWriter& Open(char c);
  JsonWriter& Close(char c);
  void BeforeValue();
  void Newline();
  void Escaped(std::string_view s);

  std::ostream& out_;
  bool pretty_;
  std::vector<bool> has_items_;  // per open container: written an item yet?
  bool after_key_ = false;
};

}  // namespace mrlocal
