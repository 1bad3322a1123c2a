// Status and Result<T>: how failures travel (leveldb style). OK is cheap; an error
// carries a code that the CLI maps to an exit code and a one-line message.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace mrlocal {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk,
    kInvalidArgument,    // bad usage or a bad value given by the user
    kNotFound,           // a named input does not exist
    kIoError,            // the OS refused (permissions, disk full, ...)
    kCorruption,         // data failed a checksum or is malformed
    kAborted,            // cancelled or interrupted
    kInternal,           // a bug or an impossible state
    kResourceExhausted,  // a bound on memory or size was reached (engine/memory_limit.h)
    kPermissionDenied,   // the caller may not do this (a service's roles and owners)
  };

  Status() = default;
  static Status OK() { return Status(); }
  // A status of `code`, as another process reported it.
  static Status Of(Code code, std::string m) { return {code, std::move(m)}; }
  static Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status IoError(std::string m) { return {Code::kIoError, std::move(m)}; }
  static Status Corruption(std::string m) { return {Code::kCorruption, std::move(m)}; }
  static Status Aborted(std::string m) { return {Code::kAborted, std::move(m)}; }
  static Status Internal(std::string m) { return {Code::kInternal, std::move(m)}; }
  static Status ResourceExhausted(std::string m) {
    return {Code::kResourceExhausted, std::move(m)};
  }
  static Status PermissionDenied(std::string m) { return {Code::kPermissionDenied, std::move(m)}; }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // The same failure with `context` before its message ("job 'wc1': " + message).
  Status WithContext(const std::string& context) const {
    return ok() ? *this : Status(code_, context + message_);
  }

  // True for failures caused by what the user gave us (exit code 2), false for ours (1).
  // An input whose job outgrows the memory limit is the user's: a bigger limit, a bigger
  // machine or a smaller input is the remedy, not a fix of ours.
  bool IsUserError() const {
    return code_ == Code::kInvalidArgument || code_ == Code::kNotFound || code_ == Code::kIoError ||
           code_ == Code::kCorruption || code_ == Code::kResourceExhausted ||
           code_ == Code::kPermissionDenied;
  }

 private:
  Status(Code c, std::string m) : code_(c), message_(std::move(m)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// A value or the Status that explains why there is none.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status s) : v_(std::move(s)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(v_); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace mrlocal

// Propagates a failed Status out of the enclosing function.
#define MRLOCAL_RETURN_IF_ERROR(expr) \
  do {                                \
    ::mrlocal::Status _st = (expr);   \
    if (!_st.ok()) return _st;        \
  } while (0)
