// A small streaming JSON writer for metrics.json and Chrome trace-event files.
//
// The output is always valid JSON (given balanced Begin/End calls and a Key before every
// value inside an object): strings are escaped (", \, control bytes as \u00XX) and
// invalid UTF-8 bytes become U+FFFD; NaN and infinities become null; doubles are written
// in the shortest form that reads back to the same value, independent of the locale.
// Misuse (a Key in an array, a bare value in an object) is a bug, checked by assert.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace mrlocal {

class JsonWriter {
 public:
  // Writes to `out`, which must outlive the writer. `pretty`: two-space indentation.
  explicit JsonWriter(std::ostream& out, bool pretty = false) : out_(out), pretty_(pretty) {}

  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view k);
  JsonWriter& String(std::string_view s);
  JsonWriter& Int(int64_t v);
  JsonWriter& Uint(uint64_t v);
  JsonWriter& Double(double v);
  JsonWriter& Bool(bool v);
  JsonWriter& Null();

  // True once every container opened has been closed.
  bool complete() const { return open_.empty(); }

  // `s` as a quoted JSON string, for callers that build JSON text by hand.
  static void WriteString(std::ostream& out, std::string_view s);

 private:
  struct Container {
    bool object;
    bool has_items = false;
  };
  JsonWriter& Open(char c);
  JsonWriter& Close(char c);
  void BeforeValue();
  void Newline();

  std::ostream& out_;
  bool pretty_;
  std::vector<Container> open_;
  bool after_key_ = false;
};

}  // namespace mrlocal
