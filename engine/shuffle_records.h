// Map-output records as bytes, for a reduce task that runs in another process (issue 18:
// ranks under MPI). One record is the key then the combined value, each as LEB128 varints
// (integers, lengths) and raw bytes (string keys): a WordCount record of a 7-letter word
// that occurs 3 times is 9 bytes. The key's hash is not sent; the reader recomputes it, so
// a peer cannot route a key to the wrong partition.
//
// Values: an integer, or a std::vector of integers (friend lists), or another trivially
// copyable type (its bytes as they are: every rank runs the same binary on the same kind of
// host), or any type the app encodes itself with
//   void EncodeValue(std::string& out, const Value&) const;
//   bool DecodeValue(std::string_view& in, Value&) const;   // false: malformed
//
// Decoding never trusts its input: a truncated varint, a length past the end, an empty
// string key, a list longer than the bytes left, is a failure, never a read out of bounds.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mrlocal::shuffle {

inline void PutVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Reads a varint from the front of `in` and consumes it; false when `in` ends inside one
// or it is longer than 10 bytes.
inline bool GetVarint(std::string_view& in, uint64_t& v) {
  v = 0;
  for (int shift = 0, i = 0; i < 10; ++i, shift += 7) {
    if (static_cast<size_t>(i) >= in.size()) return false;
    const auto byte = static_cast<uint8_t>(in[static_cast<size_t>(i)]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      in.remove_prefix(static_cast<size_t>(i) + 1);
      return true;
    }
  }
  return false;
}

// Signed integers go zigzagged, so that small negative numbers stay short.
template <std::integral T>
void PutInt(std::string& out, T v) {
  if constexpr (std::is_signed_v<T>) {
    const auto u = static_cast<uint64_t>(static_cast<int64_t>(v));
    PutVarint(out, (u << 1) ^ static_cast<uint64_t>(static_cast<int64_t>(v) >> 63));
  } else {
    PutVarint(out, static_cast<uint64_t>(v));
  }
}
template <std::integral T>
bool GetInt(std::string_view& in, T& v) {
  uint64_t u = 0;
  if (!GetVarint(in, u)) return false;
  if constexpr (std::is_signed_v<T>) {
    const int64_t s = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
    v = static_cast<T>(s);
    return static_cast<int64_t>(v) == s;
  } else {
    v = static_cast<T>(u);
    return static_cast<uint64_t>(v) == u;  // a value too wide for T is malformed
  }
}

template <class Key>
void PutKey(std::string& out, Key key) {
  if constexpr (std::is_same_v<Key, std::string_view>) {
    PutVarint(out, key.size());
    out.append(key);
  } else {
    PutInt(out, key);
  }
}
template <class Key>
bool GetKey(std::string_view& in, Key& key) {
  if constexpr (std::is_same_v<Key, std::string_view>) {
    uint64_t n = 0;
    if (!GetVarint(in, n) || n == 0 || n > in.size()) return false;
    key = in.substr(0, n);
    in.remove_prefix(n);
    return true;
  } else {
    return GetInt(in, key);
  }
}

template <class T>
struct IsIntVector : std::false_type {};
template <std::integral T>
struct IsIntVector<std::vector<T>> : std::true_type {};

template <class App, class Value>
void PutValue(const App& app, std::string& out, const Value& v) {
  if constexpr (requires { app.EncodeValue(out, v); }) {
    app.EncodeValue(out, v);
  } else if constexpr (std::is_integral_v<Value>) {
    PutInt(out, v);
  } else if constexpr (IsIntVector<Value>::value) {
    PutVarint(out, v.size());
    for (auto x : v) PutInt(out, x);
  } else if constexpr (std::is_trivially_copyable_v<Value>) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  } else {
    static_assert(sizeof(Value) == 0, "the app's Value needs EncodeValue/DecodeValue");
  }
}
template <class App, class Value>
bool GetValue(const App& app, std::string_view& in, Value& v) {
  if constexpr (requires { app.DecodeValue(in, v); }) {
    return app.DecodeValue(in, v);
  } else if constexpr (std::is_integral_v<Value>) {
    return GetInt(in, v);
  } else if constexpr (IsIntVector<Value>::value) {
    uint64_t n = 0;
    if (!GetVarint(in, n) || n > in.size()) return false;  // each item takes >= 1 byte
    v.resize(n);
    for (auto& x : v)
      if (!GetInt(in, x)) return false;
    return true;
  } else if constexpr (std::is_trivially_copyable_v<Value>) {
    if (in.size() < sizeof v) return false;
    std::memcpy(&v, in.data(), sizeof v);
    in.remove_prefix(sizeof v);
    return true;
  } else {
    static_assert(sizeof(Value) == 0, "the app's Value needs EncodeValue/DecodeValue");
  }
}

}  // namespace mrlocal::shuffle
