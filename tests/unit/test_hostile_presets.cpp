// Hostile presets (issue 13): each input here crashed, hung or misled the
// tool before. Every one must now be a preset error naming the JSON path,
// found at validation, quickly and in bounded memory.

#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "landform/outputs/output_format.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"
#include "landform/pipeline/preset_variables.hpp"

namespace {

using namespace landform;

// The issues of a preset error thrown by `fn`; fails the test if none is thrown.
template <class F>
std::vector<preset_issue> issues_from(F&& fn) {
  try {
    fn();
  } catch (const preset_error& e) {
    return e.issues();
  }
  FAIL("no preset_error was thrown");
  return {};
}

// A valid 8 x 8 preset with one stage, plus `extra`'s keys.
json minimal(const json& extra) {
  json preset = {{"size", 8}, {"stages", {{{"type", "gradient"}}}}};
  preset.update(extra);
  return preset;
}

std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// A scratch folder removed at the end of the test.
struct scratch {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("landform-hostile-" + std::to_string(::getpid()));
  scratch() { std::filesystem::create_directories(dir); }
  ~scratch() { std::filesystem::remove_all(dir); }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  std::filesystem::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return dir / name;
  }
};

// A big-endian 32-bit number, as PNG chunks store them.
std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

}  // namespace

TEST_CASE("preset: nesting deeper than 64 is refused at parse time with path and position", "[pipeline]") {
  const std::string text = "{\"size\": 8,\n \"stages\": [" + nested_arrays(60000) + "]}";
  const auto issues = issues_from([&] { (void)parse_preset_text(text, "deep.json"); });
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path.rfind("stages[0][0][0]", 0) == 0);
  CHECK(issues[0].path.size() <= 64);  // shortened
  CHECK(issues[0].message == "deep.json:2:75: nested more than 64 arrays or objects deep");
  // 64 levels (the root object and 63 arrays) are fine.
  CHECK_NOTHROW(parse_preset_text("{\"a\": " + nested_arrays(63) + "}", "ok.json"));
}

TEST_CASE("preset: --set cannot nest the preset too deep, by its value or by its key", "[pipeline]") {
  json preset = json::object();
  auto by_value = issues_from([&] { apply_override(preset, "name", nested_arrays(60000)); });
  REQUIRE(by_value.size() == 1);
  CHECK(by_value[0].path == "--set name");
  CHECK(by_value[0].message.find("nested more than 64") != std::string::npos);

  std::string key = "a";
  for (int k = 0; k < 60000; ++k) key += ".a";
  auto by_key = issues_from([&] { apply_override(preset, key, "1"); });
  REQUIRE(by_key.size() == 1);
  CHECK(by_key[0].path.size() < 80);  // the 120 KB key is shortened
  CHECK(by_key[0].message.find("more than 64 arrays or objects deep") != std::string::npos);
  CHECK(preset == json::object());  // untouched
}

TEST_CASE("preset: a --set or --var value that starts like JSON but is not JSON is refused", "[pipeline]") {
  // '"my map.png' (the closing quote lost) became a file name with a quote in it.
  json preset = {{"size", 8}};
  const auto quote = issues_from([&] { apply_override(preset, "name", "\"my map.png"); });
  REQUIRE(quote.size() == 1);
  CHECK(quote[0].path == "--set name");
  CHECK(quote[0].message ==
        "'\"my map.png' starts like JSON (with \") but is not valid JSON (the fault is at byte 12); a plain string "
        "needs no quotes");
  CHECK(issues_from([&] { apply_override(preset, "name", "[1, 2"); }).size() == 1);
  CHECK(issues_from([&] { apply_override(preset, "name", "{\"a\":"); }).size() == 1);
  CHECK(preset == json{{"size", 8}});  // untouched
  // Bare words stay words, a file-name pattern included.
  for (const char* word : {"nearest", "{index}.png", "my map.png", "a\"b"}) {
    apply_override(preset, "name", word);
    CHECK(preset["name"] == word);
  }
  const auto by_var = issues_from([] { (void)parse_variable_assignment("x=[1,"); });
  REQUIRE(by_var.size() == 1);
  CHECK(by_var[0].path == "--var x");
  CHECK(parse_variable_assignment("x={index}").second == "{index}");
}

TEST_CASE("preset: --set and --var refuse text that is not UTF-8, before it reaches the preset", "[pipeline]") {
  // fuzz_preset: --set 'cell_size.\xEC...=8' put the bytes in the preset and
  // validation's message threw nlohmann's type_error 316 from dump().
  json preset = {{"size", 8}};
  const auto by_key = issues_from([&] { apply_override(preset, "cell_size.\xEC\xEC", "8"); });
  REQUIRE(by_key.size() == 1);
  CHECK(by_key[0].path == "--set");
  CHECK(by_key[0].message == "the key is not valid UTF-8 (byte 10 is 0xEC)");
  const auto by_value = issues_from([&] { apply_override(preset, "name", "ab\xC3("); });
  REQUIRE(by_value.size() == 1);
  CHECK(by_value[0].message == "the value is not valid UTF-8 (byte 2 is 0xC3)");
  // Overlong forms, surrogates and code points above U+10FFFF are not UTF-8.
  for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82"}) {
    CHECK(issues_from([&] { apply_override(preset, "name", bad); }).size() == 1);
  }
  CHECK(preset == json{{"size", 8}});                                           // untouched
  apply_override(preset, "name", "h\xC3\xB6he \xE2\x86\x91 \xF0\x9F\x97\xBB");  // well-formed: kept
  CHECK(preset["name"] == "h\xC3\xB6he \xE2\x86\x91 \xF0\x9F\x97\xBB");
  // --var takes the same check: a used variable spliced the bytes in.
  const auto by_var = issues_from([] { (void)parse_variable_assignment("x=\xEC"); });
  REQUIRE(by_var.size() == 1);
  CHECK(by_var[0].path == "--var x");
  CHECK(by_var[0].message == "the value is not valid UTF-8 (byte 0 is 0xEC)");
  // A NUL before the byte, as in the fuzzer's key.
  CHECK_THROWS_AS(pipeline::build([] {
                    json p = {{"size", 8}};
                    apply_override(p, std::string("cell_size.\0\xEC", 12), "8");
                    return p;
                  }()),
                  preset_error);
}

TEST_CASE("preset: duplicate keys and trailing content are errors", "[pipeline]") {
  const auto dup = issues_from([] { (void)parse_preset_text("{\"size\": 8,\n \"size\": 16}", "d.json"); });
  REQUIRE(dup.size() == 1);
  CHECK(dup[0].path == "size");
  CHECK(dup[0].message == "d.json:2:2: duplicate key (a key may appear once in an object)");
  // The same key spelt with an escape is the same key; nested objects have their own keys.
  const auto escaped =
      issues_from([] { (void)parse_preset_text(R"({"stages": [{"type": "a", "typ\u0065": "b"}]})", "e.json"); });
  REQUIRE(escaped.size() == 1);
  CHECK(escaped[0].path == "stages[0].type");
  CHECK_NOTHROW(parse_preset_text(R"({"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]})", "ok.json"));

  const auto trailing = issues_from([] { (void)parse_preset_text("{\"size\": 8} {}", "t.json"); });
  REQUIRE(trailing.size() == 1);
  CHECK(trailing[0].message.rfind("t.json:1:13: malformed JSON", 0) == 0);
}

TEST_CASE("pipeline: origins at the 64-bit limits are refused without overflow", "[pipeline]") {
  constexpr auto lowest = std::numeric_limits<std::int64_t>::min();
  constexpr auto highest = std::numeric_limits<std::int64_t>::max();
  const auto region = issues_from([&] { (void)pipeline::build(minimal({{"origin", {lowest, 0}}})); });
  REQUIRE(region.size() == 1);
  CHECK(region[0].path == "origin");
  CHECK(region[0].message.find("is below the minimum -1099511627776") != std::string::npos);
  const auto world = issues_from([&] {
    (void)pipeline::build(minimal({{"world", {{"origin", {highest, 0}}, {"size", 16}}}}));
  });
  REQUIRE(world.size() == 1);
  CHECK(world[0].path == "world.origin");
  CHECK(world[0].message.find("is above the maximum 1099511627776") != std::string::npos);
}

TEST_CASE("pipeline: a 10 MB unknown key is reported quickly, shortened, without a suggestion", "[pipeline]") {
  const std::string key(10'000'000, 'x');
  const auto start = std::chrono::steady_clock::now();
  const auto issues = issues_from([&] {
    (void)pipeline::build({{"size", 8}, {key, 1}, {"stages", {{{"type", "constant"}, {key, 1}}}}});
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(issues.size() == 2);
  for (const auto& issue : issues) {
    CHECK(issue.to_string().size() < 160);
    CHECK(issue.message.find("did you mean") == std::string::npos);
  }
  CHECK(issues[0].path == std::string(61, 'x') + "...");
  CHECK(seconds < 5.0);  // generous: it took 36 s before
}

TEST_CASE("pipeline: a PNG declaring more than 2^28 pixels is refused from its header", "[pipeline]") {
  const scratch s;
  // Signature and an IHDR chunk declaring 30000 x 30000 8-bit grey; no pixel data.
  const std::string ihdr = "IHDR" + be32(30000) + be32(30000) + std::string("\x08\x00\x00\x00\x00", 5);
  const auto file = s.write("huge.png", "\x89PNG\r\n\x1a\n" + be32(13) + ihdr + be32(0));
  const auto issues = issues_from([&] {
    (void)pipeline::build({{"size", 8}, {"stages", {{{"type", "image"}, {"path", file.string()}}}}});
  });
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path == "stages[0] (image).path");
  CHECK(issues[0].message.find("declares 30000 x 30000 pixels: more than 2^28") != std::string::npos);
}

TEST_CASE("pipeline: an unreadable image path is a preset error naming the path", "[pipeline]") {
  for (const std::string path : {"/proc/self/mem", "/nonexistent/x.png", "/dev/zero"}) {
    const auto issues = issues_from([&] {
      (void)pipeline::build({{"size", 8}, {"stages", {{{"type", "image"}, {"path", path}}}}});
    });
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].path == "stages[0] (image).path");
    CHECK(issues[0].message.rfind("\"" + path + "\" is not a readable file", 0) == 0);
  }
}

TEST_CASE("pipeline: cell_size and height_scale have physical ranges", "[pipeline]") {
  for (const char* key : {"cell_size", "height_scale"}) {
    for (double bad : {1e-19, 0.0, 1e13}) {
      const auto issues = issues_from([&] { (void)pipeline::build(minimal({{key, bad}})); });
      REQUIRE(issues.size() == 1);
      CHECK(issues[0].path == key);
      CHECK((issues[0].message.find("is below the minimum 1e-06") != std::string::npos ||
             issues[0].message.find("is above the maximum 1000000000000") != std::string::npos));
    }
    CHECK_NOTHROW(pipeline::build(minimal({{key, 1e-6}})));
  }
}

TEST_CASE("pipeline: stream power erosion refuses more than 10^7 steps", "[pipeline]") {
  const auto issues = issues_from([] {
    (void)pipeline::build(
        {{"size", 8}, {"stages", {{{"type", "stream_power_erosion"}, {"duration", 1e12}, {"time_step", 1e-300}}}}});
  });
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path == "stages[0] (stream_power_erosion).time_step");
  CHECK(issues[0].message.find("more than 10^7") != std::string::npos);
}

TEST_CASE("pipeline: the run-time estimate grows with cells and iterations", "[pipeline]") {
  auto estimate = [](int size, int iterations) {
    return pipeline::build({{"size", size}, {"stages", {{{"type", "thermal_erosion"}, {"iterations", iterations}}}}})
        .estimated_seconds();
  };
  CHECK(estimate(64, 10) < 0.01);
  CHECK(estimate(16384, 100000) > 3600.0);  // 2^28 cells x 10^5 passes: days
  CHECK(estimate(128, 200) == Approx(4.0 * estimate(64, 200)).epsilon(0.1));
  CHECK(estimate(64, 400) == Approx(2.0 * estimate(64, 200)));
}

TEST_CASE("outputs: a map holding NaN or infinity is refused, not written", "[pipeline]") {
  const std::vector<float> values = {0.0f, std::numeric_limits<float>::quiet_NaN(), 0.5f,
                                     std::numeric_limits<float>::infinity()};
  for (const char* format : {"png16", "r32", "png8"}) {
    try {
      (void)encode_unit_samples(values, 2, 2, 1, find_output_format(format));
      FAIL(format << " wrote non-finite samples");
    } catch (const non_finite_output_error& e) {
      CHECK(std::string(e.what()) == "2 of 4 samples are not finite (NaN or infinity)");
    }
  }
}

TEST_CASE("outputs: a splat image name that collides with another output is found at validation", "[pipeline]") {
  const json splat = {
      {"map", "splat"},
      {"file", "s.png"},
      {"layers", {{{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}}, {{"name", "d"}}, {{"name", "e"}}}}};
  const json height = {{"map", "height"}, {"format", "png16"}, {"file", "s_1.png"}};
  for (const json& outputs : {json{splat, height}, json{height, splat}}) {
    const auto issues = issues_from([&] { (void)pipeline::build(minimal({{"outputs", outputs}})); });
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].path.find(".file") != std::string::npos);
    CHECK(issues[0].message.find("s_1.png") != std::string::npos);
    CHECK(issues[0].message.find("is written by an earlier output too") != std::string::npos);
  }
  // Five layers write s_0.png and s_1.png only: s_2.png is free.
  CHECK_NOTHROW(
      pipeline::build(minimal({{"outputs", {splat, {{"map", "height"}, {"format", "png16"}, {"file", "s_2.png"}}}}})));
}

TEST_CASE("outputs: file names are portable", "[pipeline]") {
  auto problem = [](const std::string& file, const std::string& format) {
    const auto issues = issues_from([&] {
      (void)pipeline::build(minimal({{"outputs", {{{"map", "height"}, {"format", format}, {"file", file}}}}}));
    });
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].path == "outputs[0] (height).file");
    return issues[0].message;
  };
  CHECK(problem("a\x01"
                "b.png",
                "png16") ==
        "\"a\x01"
        "b.png\" contains a control character");
  CHECK(problem(std::string(230, 'n') + ".png", "png16").find("is longer than 200 bytes") != std::string::npos);
  CHECK(problem("height.png", "r32") == "\"height.png\" has the extension of another format; r32 files end in .r32");
  CHECK(problem("height.tif", "png16").find("png16 files end in .png") != std::string::npos);
  // Names the golden cases and presets use stay valid.
  for (const auto& [file, format] : std::vector<std::pair<std::string, std::string>>{
           {"height.raw", "raw16"}, {"height.r16", "raw16"}, {"height.png16", "png16"}, {"h.tiff", "tiff32"}}) {
    CHECK_NOTHROW(pipeline::build(minimal({{"outputs", {{{"map", "height"}, {"format", format}, {"file", file}}}}})));
  }
}

TEST_CASE("pipeline: composition keys of the wrong type are preset errors, not crashes", "[pipeline]") {
  // Found by fuzz_preset: a number as "target" threw json's type_error out of
  // validation (std::terminate in the CLI).
  for (const json& bad : {json{{"target", 0.8}}, json{{"blend", 3}}, json{{"weight", "heavy"}},
                          json{{"mask", {{"layer", 2}}}}, json{{"mask", "high"}}}) {
    json stage = {{"type", "gradient"}};
    stage.update(bad);
    const auto issues = issues_from([&] { (void)pipeline::build(minimal({{"stages", {stage}}})); });
    INFO(bad.dump());
    REQUIRE(!issues.empty());
    CHECK(issues.front().path.starts_with("stages[0] (gradient)."));
  }
}

TEST_CASE("pipeline: an output map of the wrong type is a preset error with a sea level too", "[pipeline]") {
  // Found by fuzz_preset: with sea_level given, "map": 300 threw json's
  // type_error from the sea-level check before the outputs' own error.
  const auto issues = issues_from([] {
    (void)pipeline::build(minimal({{"sea_level", 0.25}, {"outputs", {{{"map", 300}}}}}));
  });
  REQUIRE(!issues.empty());
  CHECK(issues.front().path.starts_with("outputs[0]"));
}
