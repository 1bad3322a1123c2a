// JsonWriter: exact output, escaping, numbers, and (through python3's json module) that
// seeded random documents parse back to what was written.
#include "sched/report/json_writer.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

std::string Quoted(std::string_view s) {
  std::ostringstream out;
  JsonWriter::WriteString(out, s);
  return out.str();
}

std::string OneDouble(double v) {
  std::ostringstream out;
  JsonWriter(out).Double(v);
  return out.str();
}

TEST(JsonWriter, WritesEveryKindCompactly) {
  std::ostringstream out;
  JsonWriter w(out);
  w.BeginObject();
  w.Key("s").String("x").Key("i").Int(-5).Key("u").Uint(UINT64_MAX).Key("d").Double(0.1);
  w.Key("b").Bool(true).Key("f").Bool(false).Key("n").Null();
  w.Key("a").BeginArray().Int(1).Int(2).BeginObject().EndObject().EndArray();
  w.Key("e").BeginArray().EndArray();
  EXPECT_FALSE(w.complete());
  w.EndObject();
  EXPECT_TRUE(w.complete());
  EXPECT_EQ(out.str(),
            R"({"s":"x","i":-5,"u":18446744073709551615,"d":0.1,"b":true,"f":false,"n":null,)"
            R"("a":[1,2,{}],"e":[]})");
}

TEST(JsonWriter, PrettyPrintsWithTwoSpaces) {
  std::ostringstream out;
  JsonWriter w(out, /*pretty=*/true);
  w.BeginObject();
  w.Key("a").Int(1);
  w.Key("list").BeginArray().Int(1).BeginObject().Key("x").Null().EndObject().EndArray();
  w.Key("empty").BeginObject().EndObject();
  w.EndObject();
  EXPECT_EQ(out.str(),
            "{\n"
            "  \"a\": 1,\n"
            "  \"list\": [\n"
            "    1,\n"
            "    {\n"
            "      \"x\": null\n"
            "    }\n"
            "  ],\n"
            "  \"empty\": {}\n"
            "}");
}

TEST(JsonWriter, EscapesStringsAndReplacesInvalidUtf8) {
  struct Case {
    std::string in, out;
  };
  const std::vector<Case> cases = {
      {"plain", R"("plain")"},
      {"a\"b", R"("a\"b")"},
      {"back\\slash", R"("back\\slash")"},
      {"\n\r\t\b\f", R"("\n\r\t\b\f")"},
      {"\x01\x1f", R"("\u0001\u001f")"},
      {std::string("a\0b", 3), R"("a\u0000b")"},
      {"del\x7f", "\"del\x7f\""},  // DEL needs no escape
      {"/", R"("/")"},
      {"h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80",
       "\"h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80\""},
      {"\xff", R"("\ufffd")"},
      {"x\xc3", R"("x\ufffd")"},                              // truncated
      {"\xc3(", R"("\ufffd(")"},                              // bad continuation
      {"\xc0\xaf", R"("\ufffd\ufffd")"},                      // overlong '/'
      {"\xe0\x80\xaf", R"("\ufffd\ufffd\ufffd")"},            // overlong
      {"\xed\xa0\x80", R"("\ufffd\ufffd\ufffd")"},            // a surrogate
      {"\xf4\x90\x80\x80", R"("\ufffd\ufffd\ufffd\ufffd")"},  // above U+10FFFF
      {"\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""},           // U+10FFFF itself
      {"\x80tail", R"("\ufffdtail")"},                        // lone continuation
  };
  for (const Case& c : cases) EXPECT_EQ(Quoted(c.in), c.out) << c.out;
}

TEST(JsonWriter, WritesShortestRoundTripDoublesAndNullForNonFinite) {
  struct Case {
    double v;
    std::string out;
  };
  const std::vector<Case> cases = {
      {0.1, "0.1"},
      {1.0, "1"},
      {-0.0, "-0"},
      {123456.789, "123456.789"},
      {1e300, "1e+300"},
      {1.5e-7, "1.5e-07"},
      {5e-324, "5e-324"},
      {DBL_MAX, "1.7976931348623157e+308"},
      {std::numeric_limits<double>::quiet_NaN(), "null"},
      {std::numeric_limits<double>::infinity(), "null"},
      {-std::numeric_limits<double>::infinity(), "null"},
  };
  for (const Case& c : cases) EXPECT_EQ(OneDouble(c.v), c.out);
}

// Pieces that keep their meaning wherever they are put: ASCII (controls included),
// complete multi-byte characters, and bytes that are never valid UTF-8.
struct Piece {
  std::string bytes, decoded;
};
const std::vector<Piece>& Pieces() {
  static const std::vector<Piece> pieces = [] {
    std::vector<Piece> p;
    for (int c = 0; c < 0x80; ++c) p.push_back({std::string(1, static_cast<char>(c)), ""});
    for (const char* mb : {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbf"})
      p.push_back({mb, ""});
    for (unsigned char bad : {0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff})
      p.push_back({std::string(1, static_cast<char>(bad)), "\xef\xbf\xbd"});
    for (auto& x : p)
      if (x.decoded.empty()) x.decoded = x.bytes;
    return p;
  }();
  return pieces;
}

std::string Hex(std::string_view s) {
  std::string h;
  char buf[3];
  for (unsigned char c : s) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    h += buf;
  }
  return h;
}

TEST(JsonWriter, RandomDocumentsParseWithPythonToWhatWasWritten) {
  if (std::system("python3 -c 'import json' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3 is not available";
  testing::ScratchDir dir;
  testing::WriteFile(dir / "check.py", R"(import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
for s in doc["strings"]:
    print(s.encode("utf-8", "surrogatepass").hex())
for k, v in doc["keys"].items():
    print(k.encode("utf-8").hex(), v)
for d in doc["doubles"]:
    print("null" if d is None else repr(float(d)))
)");
  for (int round = 0; round < 4; ++round) {
    std::mt19937_64 rng(round);
    std::vector<std::string> strings, expected;
    for (int i = 0; i < 300; ++i) {
      std::string s, e;
      for (int n = rng() % 40; n > 0; --n) {
        const Piece& p = Pieces()[rng() % Pieces().size()];
        s += p.bytes;
        e += p.decoded;
      }
      strings.push_back(s);
      expected.push_back(Hex(e));
    }
    std::vector<double> doubles;
    for (int i = 0; i < 300; ++i) {
      uint64_t bits = rng();
      double d;
      std::memcpy(&d, &bits, sizeof d);  // every exponent, NaNs and infinities included
      doubles.push_back(i % 3 ? d : std::ldexp(static_cast<double>(rng() % 1000), -3));
    }
    std::ostringstream out;
    JsonWriter w(out, /*pretty=*/round % 2 == 1);
    w.BeginObject().Key("strings").BeginArray();
    for (const auto& s : strings) w.String(s);
    w.EndArray().Key("keys").BeginObject();
    for (int i = 0; i < 20; ++i) w.Key("k" + std::to_string(i) + strings[i]).Int(i);
    w.EndObject().Key("doubles").BeginArray();
    for (double d : doubles) w.Double(d);
    w.EndArray().EndObject();
    ASSERT_TRUE(w.complete());
    testing::WriteFile(dir / "doc.json", out.str());

    const std::string cmd =
        "python3 " + (dir / "check.py").string() + " " + (dir / "doc.json").string() + " 2>&1";
    FILE* pipe = popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::vector<std::string> lines;
    char line[8192];
    while (std::fgets(line, sizeof line, pipe)) {
      std::string l = line;
      if (!l.empty() && l.back() == '\n') l.pop_back();
      lines.push_back(l);
    }
    ASSERT_EQ(pclose(pipe), 0) << (lines.empty() ? "" : lines.back());
    ASSERT_EQ(lines.size(), strings.size() + 20 + doubles.size());
    for (size_t i = 0; i < strings.size(); ++i) EXPECT_EQ(lines[i], expected[i]) << i;
    for (size_t i = 0; i < 20; ++i)
      EXPECT_EQ(lines[strings.size() + i],
                Hex("k" + std::to_string(i)) + expected[i] + " " + std::to_string(i));
    for (size_t i = 0; i < doubles.size(); ++i) {
      const std::string& got = lines[strings.size() + 20 + i];
      if (!std::isfinite(doubles[i])) {
        EXPECT_EQ(got, "null");
      } else {
        double back = std::strtod(got.c_str(), nullptr);
        EXPECT_EQ(std::memcmp(&back, &doubles[i], sizeof back), 0) << got;
      }
    }
  }
}

}  // namespace
}  // namespace mrlocal
