// Friend-count over SNAP-style edge lists, the DynamicShare paper's job on skewed social
// graphs. The friends of u are the distinct neighbours of u over both directions of every
// edge; self-loops are dropped and repeated edges count once.
//
// Input lines are `src<sep>dst`: two non-negative integer ids below 2^64, `<sep>` any run
// of spaces or tabs. Lines whose first non-blank byte is '#' are comments; blank lines are
// skipped; a '\r' before the '\n' is tolerated. Anything else is a bad record.
//
// Map emits (u, v) and (v, u); the combiner appends to one friend list per key and map
// task and sorts and de-duplicates it when the task ends, so a partition's size (its
// shuffle load: DynamicShare's "skewed tuple sizes") is the total length of its lists.
// Reduce unions the lists of all map tasks.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace mrlocal::apps {

struct FriendCount {
  static constexpr std::string_view kName = "friendcount";
  static constexpr bool kTextInput = true;  // Map reads lines of the edge files
  using Key = uint64_t;
  using Value = std::vector<uint64_t>;  // friend ids

  bool list = false;  // output each user's friends (ascending), not how many there are

  // Parses a batch of edges before emitting them, prefetching each user's table slot on
  // the way: on a large graph the table probe is a cache miss that would dominate.
  template <class Out>
  void Map(std::string_view text, Out& out) const {
    constexpr int kBatch = 16;
    uint64_t us[kBatch], vs[kBatch];
    int n = 0;
    auto flush = [&] {
      for (int i = 0; i < n; ++i) {
        out.Emit(us[i], vs[i]);
        out.Emit(vs[i], us[i]);
      }
      n = 0;
    };
    const char* p = text.data();
    const char* const end = p + text.size();
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      const char* eol = nl ? nl : end;
      uint64_t u, v;
      const Line kind = ParseEdge(p, eol, &u, &v);
      if (kind == Line::kEdge) {
        if (u != v) {  // a self-loop makes nobody a friend
          out.Prefetch(u);
          out.Prefetch(v);
          us[n] = u;
          vs[n] = v;
          if (++n == kBatch) flush();
        }
      } else if (kind != Line::kSkip) {
        out.BadRecord(std::string_view(p, static_cast<size_t>(eol - p)), Why(kind));
      }
      p = eol + 1;
    }
    flush();
  }

  static constexpr size_t kDedupFrom = 1024;  // shorter lists just grow
  // A full list is sorted and de-duplicated before it would grow, and grows only when that
  // left it over half full: repeated edges (a gzip of one edge a billion times) then take
  // the memory of their distinct friends, not of their lines, and each element is sorted
  // O(log n) times over the list's life.
  static void Combine(Value& friends, uint64_t id) {
    if (friends.size() == friends.capacity() && friends.size() >= kDedupFrom) {
      SortUnique(friends);
      if (friends.size() > friends.capacity() / 2) friends.reserve(2 * friends.capacity());
    }
    friends.push_back(id);
  }
  static void FinishMap(Key, Value& friends) { SortUnique(friends); }
  static void Merge(Value& into, const Value& other) {
    into.insert(into.end(), other.begin(), other.end());
  }
  static void Reduce(Key, Value& friends) { SortUnique(friends); }

  // Shuffle load of one user's record: the length of its friend list.
  static uint64_t SizeUnits(Key, const Value& friends) { return friends.size(); }

  static void FormatKey(std::string& out, Key user) { AppendNumber(out, user); }
  void FormatValue(std::string& out, const Value& friends) const {
    if (!list) return AppendNumber(out, friends.size());
    for (size_t i = 0; i < friends.size(); ++i) {
      if (i) out.push_back(',');
      AppendNumber(out, friends[i]);
    }
  }

  // Top-N order: most friends first.
  static double Score(Key, const Value& friends) { return static_cast<double>(friends.size()); }

  // What one input line is. The bad kinds name what is wrong with it.
  enum class Line { kEdge, kSkip, kBadSource, kBadDestination, kNoDestination, kOverflow, kExtra };

  // Parses [p, eol), a line without its '\n'.
  static Line ParseEdge(const char* p, const char* eol, uint64_t* u, uint64_t* v) {
    auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (p < eol && blank(*p)) ++p;
    if (p == eol || (*p == '\r' && p + 1 == eol) || *p == '#') return Line::kSkip;
    const char* q = ParseId(p, eol, u);
    if (!q) return Overflowed(p, eol) ? Line::kOverflow : Line::kBadSource;
    p = q;
    if (p < eol && !blank(*p) && *p != '\r') return Line::kBadSource;  // e.g. "12x 3"
    while (p < eol && blank(*p)) ++p;
    if (p == eol || (*p == '\r' && p + 1 == eol)) return Line::kNoDestination;
    q = ParseId(p, eol, v);
    if (!q) return Overflowed(p, eol) ? Line::kOverflow : Line::kBadDestination;
    p = q;
    if (p < eol && !blank(*p) && *p != '\r') return Line::kBadDestination;
    while (p < eol && blank(*p)) ++p;
    if (p < eol && *p == '\r') ++p;
    return p == eol ? Line::kEdge : Line::kExtra;
  }

  static const char* Why(Line kind) {
    switch (kind) {
      case Line::kBadSource:
        return "bad edge: the source id is not a non-negative integer";
      case Line::kBadDestination:
        return "bad edge: the destination id is not a non-negative integer";
      case Line::kNoDestination:
        return "bad edge: missing the destination id";
      case Line::kOverflow:
        return "bad edge: an id does not fit in 64 bits";
      case Line::kExtra:
        return "bad edge: more than two fields";
      default:
        return "bad edge";
    }
  }

 private:
  // Decimal digits at p into *id; the end of the digits, or null when there are none or
  // they overflow 64 bits.
  static const char* ParseId(const char* p, const char* eol, uint64_t* id) {
    const char* start = p;
    uint64_t x = 0;
    for (; p < eol && static_cast<unsigned char>(*p - '0') < 10; ++p)
      if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, *p - '0', &x))
        return nullptr;
    if (p == start) return nullptr;
    *id = x;
    return p;
  }
  static bool Overflowed(const char* p, const char* eol) {
    return p < eol && static_cast<unsigned char>(*p - '0') < 10;  // digits, yet no id
  }

  static void SortUnique(Value& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }

  static void AppendNumber(std::string& out, uint64_t x) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, r.ptr);
  }
};

}  // namespace mrlocal::apps
