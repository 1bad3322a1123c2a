#include "sched/json_writer.h"

#include <cmath>
#include <cstdio>

namespace mrlocal {

void JsonWriter::Newline() {
  if (!pretty_) return;
  out_ << '\n';
  for (size_t i = 0; i < has_items_.size(); ++i) out_ << "  ";
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_ << ',';
    has_items_.back() = true;
    Newline();
  }
}

JsonWriter& JsonWriter::Open(char c) {
  BeforeValue();
  out_ << c;
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::Close(char c) {
  bool had = has_items_.back();
  has_items_.pop_back();
  if (had) Newline();
  out_ << c;
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view k) {
  BeforeValue();
  Escaped(k);
  out_ << (pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view s) {
  BeforeValue();
  Escaped(s);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t v) {
  BeforeValue();
  out_ << v;
  return *this;
}

JsonWriter& JsonWriter::Double(double v) {
  BeforeValue();
  if (!std::isfinite(v)) {
    out_ << "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // Prefer the shortest form that reads back to the same double.
  for (int prec = 6; prec < 17; ++prec) {
    char b2[32];
    std::snprintf(b2, sizeof b2, "%.*g", prec, v);
    if (std::strtod(b2, nullptr) == v) {
      out_ << b2;
      return *this;
    }
  }
  out_ << buf;
  return *this;
}

JsonWriter& JsonWriter::Bool(bool v) {
  BeforeValue();
  out_ << (v ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ << "null";
  return *this;
}

// Length of the valid UTF-8 sequence at s[i], or 0 if it is not one.
static size_t Utf8Length(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  size_t n = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(i + 1) > 0x9F) return 0;  // surrogates
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(i + 1) > 0x8F) return 0;  // > U+10FFFF
  return n;
}

void JsonWriter::Escaped(std::string_view s) {
  out_ << '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\r': out_ << "\\r"; break;
        case '\t': out_ << "\\t"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out_ << buf;
          } else {
            out_ << static_cast<char>(c);
          }
      }
      ++i;
    } else if (size_t n = Utf8Length(s, i)) {
      out_.write(s.data() + i, static_cast<std::streamsize>(n));
      i += n;
    } else {
      out_ << "\\ufffd";
      ++i;
    }
  }
  out_ << '"';
}

}  // namespace mrlocal
