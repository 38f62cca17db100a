// ParseRaceTarget: what the race pass-through may reach, and what it refuses.
#include "server/race_target.h"

#include "gtest/gtest.h"

namespace cpubrrr::server {
namespace {

TEST(RaceTargetTest, TakesLoopbackBaseUrls) {
  absl::StatusOr<RaceTarget> t = ParseRaceTarget("http://127.0.0.1:11434/v1", "");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->host, "127.0.0.1");
  EXPECT_EQ(t->port, 11434);
  EXPECT_EQ(t->base_path, "/v1");
  t = ParseRaceTarget("http://localhost:8080/", "");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->base_path, "");
  t = ParseRaceTarget("http://[::1]:9000/api/v1//", "");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->host, "::1");
  EXPECT_EQ(t->base_path, "/api/v1");
  t = ParseRaceTarget("http://127.8.9.10", "");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->port, 80);
}

TEST(RaceTargetTest, RefusesOtherHostsUnlessNamed) {
  for (const char* url : {"http://192.0.2.1/v1", "http://example.com:80/v1", "http://127.0.0.1.example.com/v1",
                          "http://[::2]:80/v1", "http://0.0.0.0:8080/v1", "http://1.2.3.4/v1"}) {
    EXPECT_EQ(ParseRaceTarget(url, "").status().code(), absl::StatusCode::kPermissionDenied) << url;
  }
  absl::StatusOr<RaceTarget> t = ParseRaceTarget("http://gpu-box:8080/v1/", "http://gpu-box:8080/v1");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->host, "gpu-box");
  // With --race-url, only that URL: loopback others too are refused.
  EXPECT_EQ(ParseRaceTarget("http://127.0.0.1:8080/v1", "http://gpu-box:8080/v1").status().code(),
            absl::StatusCode::kPermissionDenied);
}

TEST(RaceTargetTest, RefusesWhatIsNotAPlainBaseUrl) {
  for (const char* url : {"", "https://127.0.0.1/v1", "127.0.0.1:8080", "http://user:pw@127.0.0.1/v1",
                          "http://127.0.0.1/v1?x=1", "http://127.0.0.1/v1#x", "http://127.0.0.1/v1/../admin",
                          "http://127.0.0.1/./v1", "http://127.0.0.1:0/v1", "http://127.0.0.1:65536/v1",
                          "http://127.0.0.1:80x/v1", "http://127.0.0.1/race", "http://127.0.0.1/race/v1",
                          "http://[::1/v1", "http://[::1]x/v1", "http://127.0.0.1/v 1", "http:///v1",
                          "http://127.0.0.1\\@evil/v1", "http://local_host/v1"}) {
    EXPECT_EQ(ParseRaceTarget(url, "").status().code(), absl::StatusCode::kInvalidArgument) << url;
  }
  const std::string with_nul("http://127.0.0.1\0.evil/v1", 26);
  EXPECT_FALSE(ParseRaceTarget(with_nul, "").ok());
}

TEST(RaceCallerTest, OnlyThisMachinesOwnPage) {
  EXPECT_TRUE(CheckRaceCaller("127.0.0.1:8080", "", "127.0.0.1", "").ok());
  EXPECT_TRUE(CheckRaceCaller("127.0.0.1:8080", "http://127.0.0.1:8080", "127.0.0.1", "").ok());
  EXPECT_TRUE(CheckRaceCaller("localhost:8080", "http://localhost:8080", "127.0.0.1", "").ok());
  EXPECT_TRUE(CheckRaceCaller("[::1]:8080", "", "::1", "").ok());
  // A rebound DNS name, a page from elsewhere.
  EXPECT_EQ(CheckRaceCaller("evil.example:8080", "", "127.0.0.1", "").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(CheckRaceCaller("127.0.0.1:8080", "http://evil.example", "127.0.0.1", "").code(),
            absl::StatusCode::kPermissionDenied);
  // Listening beyond loopback: only with --race-url, and addressed by the bound address.
  EXPECT_EQ(CheckRaceCaller("10.0.0.5:8080", "", "0.0.0.0", "").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(CheckRaceCaller("10.0.0.5:8080", "", "10.0.0.5", "http://10.0.0.9:8080/v1").ok());
  EXPECT_EQ(CheckRaceCaller("other:8080", "", "10.0.0.5", "http://10.0.0.9:8080/v1").code(),
            absl::StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace cpubrrr::server
