#include "tools/serve/request_signing.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "tools/serve/hex.h"

namespace mrlocal {
namespace {

constexpr std::string_view kScheme = "MRLOCAL1-HMAC-SHA256";

// The query's parameters sorted (each as sent, still encoded), joined by '&': a client may
// order them as it likes.
std::string SortedQuery(std::string_view query) {
  std::vector<std::string_view> params;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view p = query.substr(0, amp);
    if (!p.empty()) params.push_back(p);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (std::string_view p : params) {
    if (!out.empty()) out += '&';
    out += p;
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr);
  return ToHex(std::string_view(reinterpret_cast<const char*>(digest), size));
}

std::string CanonicalRequest(const RequestToSign& r) {
  const size_t q = r.target.find('?');
  const std::string_view path = r.target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? "" : r.target.substr(q + 1);
  std::string text;
  for (std::string_view field : {kScheme, r.method, path}) (text += field) += '\n';
  text += SortedQuery(query) + '\n';
  text += Sha256Hex(r.body) + '\n';
  text += std::to_string(r.timestamp_s) + '\n';
  (text += r.nonce) += '\n';
  text += r.key_id;
  return text;
}

std::string SignRequest(std::string_view secret_hex, const RequestToSign& request) {
  // Key files hold the secret in hex; anything else is taken as the bytes themselves.
  const std::string secret = FromHex(secret_hex).value_or(std::string(secret_hex));
  const std::string text = CanonicalRequest(request);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac, &size);
  return ToHex(std::string_view(reinterpret_cast<const char*>(mac), size));
}

bool SignatureMatches(std::string_view secret_hex, const RequestToSign& request,
                      std::string_view signature_hex) {
  const std::string expected = SignRequest(secret_hex, request);
  // The length is public (64 hex digits); the content is compared without an early exit.
  return signature_hex.size() == expected.size() &&
         CRYPTO_memcmp(expected.data(), signature_hex.data(), expected.size()) == 0;
}

std::string RandomNonce() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) std::abort();  // no entropy: nothing safe to do
  return ToHex(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

}  // namespace mrlocal
