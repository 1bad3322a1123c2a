// Signed requests as the server checks them: the signature is the HMAC-SHA256 an
// independent implementation (Python's hmac module) computes over the documented text, and
// changing any signed part of the request breaks it. ReplayGuard: a captured request
// cannot be sent twice, late, or across a restart.
#include "tools/serve/request_signing.h"

#include <gtest/gtest.h>

#include <set>

#include "tools/serve/hex.h"
#include "tools/serve/replay_guard.h"

namespace mrlocal {
namespace {

constexpr std::string_view kSecret =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

RequestToSign Sample() {
  return {.method = "POST",
          .target = "/api/v1/jobs?b=2&a=1",
          .body = R"({"app":"wordcount"})",
          .key_id = "alice",
          .timestamp_s = 1700000000,
          .nonce = "00112233445566778899aabbccddeeff"};
}

TEST(RequestSigning, Sha256IsTheStandardDigest) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(RequestSigning, TheSignedTextSortsTheQueryAndHashesTheBody) {
  EXPECT_EQ(CanonicalRequest(Sample()),
            "MRLOCAL1-HMAC-SHA256\nPOST\n/api/v1/jobs\na=1&b=2\n"
            "60f02a4d7a996766d93708d41e7e9b999b057dbd1c056d3b861aeed7690a8e3c\n1700000000\n"
            "00112233445566778899aabbccddeeff\nalice");
}

// Computed with: hmac.new(bytes.fromhex(secret), canonical.encode(), hashlib.sha256).hexdigest()
TEST(RequestSigning, TheSignatureIsHmacSha256UnderTheDecodedSecret) {
  EXPECT_EQ(SignRequest(kSecret, Sample()),
            "c691d724212c9af437020d40f45c15f0aaa1c767ec24d9a4e37d27969abc2cd8");
  EXPECT_TRUE(SignatureMatches(kSecret, Sample(), SignRequest(kSecret, Sample())));
}

TEST(RequestSigning, ChangingAnySignedPartBreaksTheSignature) {
  const std::string good = SignRequest(kSecret, Sample());
  std::vector<RequestToSign> changed(7, Sample());
  changed[0].method = "GET";
  changed[1].target = "/api/v1/jobs/2?b=2&a=1";
  changed[2].target = "/api/v1/jobs?b=3&a=1";
  changed[3].body = R"({"app":"pi"})";
  changed[4].key_id = "bob";
  changed[5].timestamp_s += 1;
  changed[6].nonce = "ffffffffffffffffffffffffffffffff";
  for (const RequestToSign& r : changed) EXPECT_FALSE(SignatureMatches(kSecret, r, good));
  std::string other_secret(kSecret);
  other_secret[0] = '1';
  EXPECT_FALSE(SignatureMatches(other_secret, Sample(), good));
  EXPECT_FALSE(SignatureMatches(kSecret, Sample(), good.substr(1)));
  EXPECT_FALSE(SignatureMatches(kSecret, Sample(), ""));
}

TEST(RequestSigning, NoncesAreRandomHex) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string n = RandomNonce();
    EXPECT_EQ(n.size(), 32u);
    EXPECT_TRUE(FromHex(n).has_value()) << n;
    seen.insert(n);
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(Hex, RoundTripsAndRefusesWhatIsNotHex) {
  EXPECT_EQ(ToHex(std::string("\x00\xff\x10", 3)), "00ff10");
  EXPECT_EQ(FromHex("00FF10"), std::string("\x00\xff\x10", 3));
  EXPECT_FALSE(FromHex("abc").has_value());
  EXPECT_FALSE(FromHex("zz").has_value());
}

using Verdict = ReplayGuard::Verdict;

TEST(ReplayGuard, ARequestIsTakenOnceWithinTheWindow) {
  ReplayGuard guard(/*window_s=*/300, /*started_s=*/1000);
  EXPECT_EQ(guard.Admit(1100, "alice", "n1", 1100), Verdict::kFresh);
  EXPECT_EQ(guard.Admit(1100, "alice", "n1", 1200), Verdict::kReplayed);
  EXPECT_EQ(guard.Admit(1100, "bob", "n1", 1200), Verdict::kFresh) << "nonces are per key";
  EXPECT_EQ(guard.Admit(1100, "alice", "n1", 1401), Verdict::kStale) << "past the window";
}

TEST(ReplayGuard, StaleFutureAndPreStartRequestsAreRefused) {
  ReplayGuard guard(300, 1000);
  EXPECT_EQ(guard.Admit(999, "a", "n", 1001), Verdict::kStale) << "signed before the start";
  EXPECT_EQ(guard.Admit(1500, "a", "n", 1001), Verdict::kStale) << "from the future";
  EXPECT_EQ(guard.Admit(1301, "a", "n", 1001), Verdict::kFresh) << "within the window ahead";
}

TEST(ReplayGuard, MemoryIsBoundedAndExpiredPairsAreForgotten) {
  ReplayGuard guard(10, 0, /*capacity=*/3);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(guard.Admit(100, "k", std::to_string(i), 100), Verdict::kFresh);
  EXPECT_EQ(guard.Admit(100, "k", "3", 100), Verdict::kTooManyRecent);
  EXPECT_EQ(guard.Admit(111, "k", "3", 111), Verdict::kFresh) << "the old ones expired";
  EXPECT_EQ(guard.remembered(), 1u);
}

}  // namespace
}  // namespace mrlocal
