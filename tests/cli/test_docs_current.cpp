// docs/stages.md is generated from the stage schemas; it must not drift.

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "landform/pipeline/registry.hpp"

TEST_CASE("docs/stages.md matches `landform stages --markdown`", "[cli][docs]") {
  const std::string command = std::string("\"") + LANDFORM_CLI_PATH + "\" stages --markdown";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string generated;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) generated.append(buffer, n);
  REQUIRE(pclose(pipe) == 0);

  std::ifstream in(std::string(LANDFORM_SOURCE_DIR) + "/docs/stages.md", std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream committed;
  committed << in.rdbuf();
  INFO("docs/stages.md is out of date: run scripts/gen-docs.sh");
  CHECK(committed.str() == generated);
  CHECK(generated.find("## `opensimplex` (generator)") != std::string::npos);
}

TEST_CASE("every registered stage has a thumbnail for docs/stages.md", "[cli][docs]") {
  for (const auto* info : landform::builtin_stages().all()) {
    const std::string image = std::string(LANDFORM_SOURCE_DIR) + "/docs/img/stages/" + info->name + ".png";
    INFO(image << " is missing: run scripts/gen-generator-images.sh");
    CHECK(std::filesystem::exists(image));
  }
}
