// How a client proves who sent an API request, and that nobody changed it on the way
// (Sandholm and Lai, "Dynamic Proportional Share Scheduling in Hadoop", section 3.3: a
// symmetric key per user, modelled on AWS Query Authentication; HMAC-SHA256 here rather
// than the paper's HMAC-SHA1). Client and server build the same canonical text from the
// request; the client sends the HMAC of it under its secret, the server recomputes it
// with its copy and compares in constant time. The text covers the method, the path, the
// query (parameters sorted), a hash of the body, the time it was signed, a random nonce
// and the key id: changing any of them breaks the signature, and ReplayGuard refuses the
// same (key, nonce) twice within the time window.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mrlocal {

// The headers that carry a signature.
inline constexpr std::string_view kKeyHeader = "X-Mrlocal-Key";
inline constexpr std::string_view kTimestampHeader = "X-Mrlocal-Timestamp";  // Unix seconds
inline constexpr std::string_view kNonceHeader = "X-Mrlocal-Nonce";
inline constexpr std::string_view kSignatureHeader = "X-Mrlocal-Signature";

struct RequestToSign {
  std::string_view method;  // "GET", "POST", ...
  std::string_view target;  // the path and query as sent: "/api/v1/jobs?limit=10"
  std::string_view body;
  std::string_view key_id;
  int64_t timestamp_s = 0;
  std::string_view nonce;
};

// Lower-case hex of SHA-256(bytes).
std::string Sha256Hex(std::string_view bytes);
// The text both ends sign: one field a line, the query's parameters sorted.
std::string CanonicalRequest(const RequestToSign& request);
// Lower-case hex of HMAC-SHA256(secret, CanonicalRequest(request)); the secret as stored
// in a key file (hex).
std::string SignRequest(std::string_view secret_hex, const RequestToSign& request);
// Whether `signature_hex` is SignRequest's, compared in constant time.
bool SignatureMatches(std::string_view secret_hex, const RequestToSign& request,
                      std::string_view signature_hex);
// 16 random bytes (OpenSSL's RAND_bytes), hex: a request's nonce.
std::string RandomNonce();

}  // namespace mrlocal
