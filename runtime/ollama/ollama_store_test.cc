// Tests Ollama name parsing, manifest resolution, listing, and hostile store contents.
#include "runtime/ollama/ollama_store.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

namespace fs = std::filesystem;

const std::string kHexA(64, 'a');
const std::string kHexB(64, 'b');

std::string Manifest(const std::string& model_digest, const std::string& params_digest) {
  return R"({"schemaVersion":2,"layers":[)"
         R"({"mediaType":"application/vnd.ollama.image.model","digest":")" + model_digest +
         R"(","size":4},)"
         R"({"mediaType":"application/vnd.ollama.image.params","digest":")" + params_digest +
         R"(","size":2}]})";
}

class OllamaStoreTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::TempDir() + "/ollama_" +
            testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/blobs");
    Write("blobs/sha256-" + kHexA, "GGUF");
    Write("blobs/sha256-" + kHexB, R"({"temperature":1})");
  }
  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel) << text;
  }
  void AddModel(const std::string& rel_manifest) {
    Write("manifests/" + rel_manifest, Manifest("sha256:" + kHexA, "sha256:" + kHexB));
  }
  std::string root_;
};

TEST(OllamaName, ParsesShortAndFullForms) {
  OllamaName n = *ParseOllamaName("gpt-oss:20b");
  EXPECT_EQ(n.host, "registry.ollama.ai");
  EXPECT_EQ(n.name_space, "library");
  EXPECT_EQ(n.model, "gpt-oss");
  EXPECT_EQ(n.tag, "20b");
  EXPECT_EQ(n.Display(), "gpt-oss:20b");
  EXPECT_EQ(ParseOllamaName("qwen3")->tag, "latest");
  OllamaName full = *ParseOllamaName("example.com:5000/team/coder:q4");
  EXPECT_EQ(full.host, "example.com:5000");
  EXPECT_EQ(full.name_space, "team");
  EXPECT_EQ(full.Display(), "example.com:5000/team/coder:q4");
  EXPECT_EQ(ParseOllamaName("me/model")->Display(), "me/model:latest");
}

TEST(OllamaName, RejectsNamesThatCouldEscapeTheStore) {
  for (const char* bad : {"", ":", "../x", "a/../b", "a/b/c/d", "model:", "mo del", "x:..",
                          "/abs", "a//b"}) {
    EXPECT_FALSE(ParseOllamaName(bad).ok()) << bad;
  }
  EXPECT_FALSE(ParseOllamaName(std::string("model\0:tag", 10)).ok());
  EXPECT_FALSE(ParseOllamaName(std::string("mo\0del", 6)).ok());
}

TEST_F(OllamaStoreTest, ResolvesAModelToItsBlobAndParams) {
  AddModel("registry.ollama.ai/library/gpt-oss/20b");
  absl::StatusOr<OllamaModel> m = ResolveOllamaModel(root_, *ParseOllamaName("gpt-oss:20b"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->gguf_path, root_ + "/blobs/sha256-" + kHexA);
  EXPECT_EQ(m->gguf_bytes, 4u);
  EXPECT_EQ(m->params_json, R"({"temperature":1})");
}

TEST_F(OllamaStoreTest, MissingModelSaysHowToGetIt) {
  absl::StatusOr<OllamaModel> m = ResolveOllamaModel(root_, *ParseOllamaName("qwen3:30b"));
  ASSERT_EQ(m.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(m.status().message().find("ollama pull qwen3:30b"), std::string::npos);
}

TEST_F(OllamaStoreTest, RejectsHostileManifests) {
  const std::pair<const char*, std::string> cases[] = {
      {"notjson", "{"},
      {"nolayers", R"({"schemaVersion":2})"},
      {"traversal", Manifest("sha256:../../etc/passwd", "sha256:" + kHexB)},
      {"shortdigest", Manifest("sha256:abc", "sha256:" + kHexB)},
      {"missingblob", Manifest("sha256:" + std::string(64, 'c'), "sha256:" + kHexB)},
      {"nomodel", R"({"layers":[{"mediaType":"x","digest":"y"}]})"},
      {"wrongtypes", R"({"layers":[{"mediaType":1,"digest":[]}, 5]})"},
  };
  for (const auto& [tag, text] : cases) {
    Write(std::string("manifests/registry.ollama.ai/library/m/") + tag, text);
    OllamaName name = *ParseOllamaName(std::string("m:") + tag);
    EXPECT_FALSE(ResolveOllamaModel(root_, name).ok()) << tag;
  }
}

TEST_F(OllamaStoreTest, SymlinksCannotLeadOutOfTheStore) {
  const std::string outside = root_ + "_outside";
  fs::remove_all(outside);
  fs::create_directories(outside);
  std::ofstream(outside + "/secret") << "GGUF";
  std::ofstream(outside + "/manifest") << Manifest("sha256:" + kHexA, "sha256:" + kHexB);

  // A manifest that links out of the store.
  fs::create_directories(root_ + "/manifests/registry.ollama.ai/library/linked");
  fs::create_symlink(outside + "/manifest", root_ + "/manifests/registry.ollama.ai/library/linked/latest");
  absl::StatusOr<OllamaModel> m = ResolveOllamaModel(root_, *ParseOllamaName("linked"));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kPermissionDenied) << m.status();
  EXPECT_TRUE(ListOllamaModels(root_).empty());

  // A blob that links out of the store.
  const std::string hex_c(64, 'c');
  fs::create_symlink(outside + "/secret", root_ + "/blobs/sha256-" + hex_c);
  Write("manifests/registry.ollama.ai/library/blob/latest", Manifest("sha256:" + hex_c, "sha256:" + kHexB));
  m = ResolveOllamaModel(root_, *ParseOllamaName("blob"));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kPermissionDenied) << m.status();
  EXPECT_NE(m.status().message().find("leads out of the Ollama store"), std::string::npos);

  // A store that is itself a link (moved to another disk) still serves its models.
  AddModel("registry.ollama.ai/library/gpt-oss/20b");
  const std::string link = root_ + "_link";
  fs::remove(link);
  fs::create_directory_symlink(root_, link);
  m = ResolveOllamaModel(link, *ParseOllamaName("gpt-oss:20b"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->gguf_path, link + "/blobs/sha256-" + kHexA);
}

TEST_F(OllamaStoreTest, ListsReadableModelsSorted) {
  AddModel("registry.ollama.ai/library/qwen3/30b");
  AddModel("registry.ollama.ai/library/gpt-oss/20b");
  Write("manifests/registry.ollama.ai/library/broken/latest", "not json");
  std::vector<OllamaModel> models = ListOllamaModels(root_);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].name.Display(), "gpt-oss:20b");
  EXPECT_EQ(models[1].name.Display(), "qwen3:30b");
  EXPECT_TRUE(ListOllamaModels(root_ + "/nowhere").empty());
}

}  // namespace
}  // namespace cpubrrr
