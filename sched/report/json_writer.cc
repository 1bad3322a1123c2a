#include "sched/report/json_writer.h"

#include <cassert>
#include <charconv>
#include <cmath>

namespace mrlocal {
namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), or 0 if there is none.
size_t Utf8Length(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  const size_t n = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(i + 1) > 0x9F) return 0;  // UTF-16 surrogates
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(i + 1) > 0x8F) return 0;  // above U+10FFFF
  return n;
}

}  // namespace

void JsonWriter::WriteString(std::ostream& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.put('"');
  size_t run = 0;  // start of the pending run of bytes that need no escaping
  auto flush = [&](size_t end) {
    out.write(s.data() + run, static_cast<std::streamsize>(end - run));
  };
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (size_t n = Utf8Length(s, i)) {
        i += n;
        continue;
      }
    }
    flush(i);
    switch (c) {
      case '"':
        out << "\\\"";
        break;
      case '\\':
        out << "\\\\";
        break;
      case '\n':
        out << "\\n";
        break;
      case '\r':
        out << "\\r";
        break;
      case '\t':
        out << "\\t";
        break;
      case '\b':
        out << "\\b";
        break;
      case '\f':
        out << "\\f";
        break;
      default:
        if (c < 0x20) {
          const char esc[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
          out.write(esc, sizeof esc);
        } else {
          out << "\\ufffd";  // a byte that starts no valid UTF-8 sequence
        }
    }
    run = ++i;
  }
  flush(s.size());
  out.put('"');
}

void JsonWriter::Newline() {
  if (!pretty_) return;
  out_.put('\n');
  for (size_t i = 0; i < open_.size(); ++i) out_ << "  ";
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  assert(open_.empty() || !open_.back().object);  // a value in an object needs a Key
  if (!open_.empty()) {
    if (open_.back().has_items) out_.put(',');
    open_.back().has_items = true;
    Newline();
  }
}

JsonWriter& JsonWriter::Open(char c) {
  BeforeValue();
  out_.put(c);
  open_.push_back({c == '{'});
  return *this;
}

JsonWriter& JsonWriter::Close(char c) {
  assert(!open_.empty() && open_.back().object == (c == '}') && !after_key_);
  const bool had_items = open_.back().has_items;
  open_.pop_back();
  if (had_items) Newline();
  out_.put(c);
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view k) {
  assert(!open_.empty() && open_.back().object && !after_key_);
  if (open_.back().has_items) out_.put(',');
  open_.back().has_items = true;
  Newline();
  WriteString(out_, k);
  out_ << (pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view s) {
  BeforeValue();
  WriteString(out_, s);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t v) {
  BeforeValue();
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.write(buf, end - buf);
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t v) {
  BeforeValue();
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.write(buf, end - buf);
  return *this;
}

JsonWriter& JsonWriter::Double(double v) {
  BeforeValue();
  if (!std::isfinite(v)) {
    out_ << "null";  // JSON has no NaN or infinity
    return *this;
  }
  // Shortest round-trip text, e.g. "0.1", "1e+300", "-0"; always a valid JSON number.
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.write(buf, end - buf);
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

}  // namespace mrlocal
