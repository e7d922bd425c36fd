// `landform watch` (issue 14): builds at once, rebuilds after a save (also
// one that renames a temporary over the preset, as editors do, and a save of
// the --vars file), keeps the last good outputs and prints the error after a
// broken save, and exits 0 on SIGTERM or SIGINT. Every wait is bounded; no
// assertion is about speed (the latency is measured in bench/).

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_harness.hpp"

namespace {

namespace fs = std::filesystem;
using landform_test::cli_process;
using landform_test::cli_result;
using landform_test::list_tree;
using landform_test::read_bytes;
using landform_test::read_text;
using landform_test::run_cli;
using landform_test::temp_dir;

constexpr auto k_limit = std::chrono::seconds(10);

std::string preset_text(const std::string& seed, double magnitude = 2.0) {
  return R"({"landform": 1, "size": 64, "seed": )" + seed +
         R"(, "stages": [{"type": "opensimplex", "feature_size": 16}, {"type": "perturb", "magnitude": )" +
         std::to_string(static_cast<int>(magnitude)) +
         R"(}, {"type": "normalize"}], "outputs": [{"map": "height", "format": "png16"}, {"map": "normal"}]})";
}

// Polls `done` every 10 ms for at most k_limit; true once it holds.
bool wait_until(const std::function<bool()>& done) {
  const auto end = std::chrono::steady_clock::now() + k_limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Saves `text` as vim and VS Code do: a new file beside `file`, renamed over it.
void save_by_rename(const fs::path& file, const std::string& text) {
  fs::path temp = file;
  temp += ".swp";  // (not "." + name: GCC 12's -Wstringop-overflow false positive)
  {
    std::ofstream out(temp, std::ios::binary);
    out << text;
    REQUIRE(out.good());
  }
  fs::rename(temp, file);
}

// The file's text, or "" while it does not exist.
std::string text_if_any(const fs::path& file) {
  std::error_code ec;
  return fs::exists(file, ec) ? read_text(file) : std::string();
}

// Lines of `err` that contain `part`.
std::size_t count_lines(const std::string& err, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = err.find(part); at != std::string::npos; at = err.find(part, at + 1)) ++n;
  return n;
}

// True once the watch says it stopped (bounded, so that a watch that does
// not stop fails the test, and the harness kills it, instead of hanging).
bool stops(const cli_process& watch) {
  return wait_until([&] { return watch.err_so_far().find("landform: stopped watching\n") != std::string::npos; });
}

// Every file below `dir` but the preset p.json, with its bytes.
std::map<std::string, std::vector<std::uint8_t>> outputs_in(const fs::path& dir) {
  std::map<std::string, std::vector<std::uint8_t>> files;
  for (const auto& name : list_tree(dir)) {
    if (name != "p.json" && fs::is_regular_file(dir / name)) files[name] = read_bytes(dir / name);
  }
  return files;
}

}  // namespace

TEST_CASE("cli watch: rebuilds after a save, keeps the last good outputs after a broken one", "[cli][watch]") {
  const temp_dir dir;
  const fs::path preset = dir.write("p.json", preset_text("1"));
  // The outputs beside the preset: the build's own writes must not start builds.
  const fs::path manifest = dir / "manifest.json";
  cli_process watch({"watch", preset.string(), "-o", dir.path().string(), "--threads", "1"});

  REQUIRE(wait_until([&] { return count_lines(watch.err_so_far(), " ok ") == 1; }));
  const std::string first = read_text(manifest);
  CHECK(count_lines(watch.err_so_far(), " ms  stages[0] (opensimplex) seed key opensimplex#0") == 1);

  save_by_rename(preset, preset_text("2"));
  INFO(watch.err_so_far());
  REQUIRE(wait_until([&] { return count_lines(watch.err_so_far(), " ok ") == 2; }));
  const std::string second = read_text(manifest);
  CHECK(second != first);
  CHECK(second.find("\"seed\": 2") != std::string::npos);
  const auto good = outputs_in(dir.path());
  CHECK(good.size() == 3);  // height.png, normal.png, manifest.json

  // A broken save: the error `build` prints, a status line, and nothing written.
  save_by_rename(preset, preset_text("3", -3));
  REQUIRE(wait_until([&] { return count_lines(watch.err_so_far(), " error ") == 1; }));
  CHECK(outputs_in(dir.path()) == good);

  // A fixed save that changes only the warp: the noise comes from the last
  // good build, and the files equal a build from scratch.
  save_by_rename(preset, preset_text("2", 4));
  REQUIRE(wait_until([&] { return count_lines(watch.err_so_far(), " ok ") == 3; }));
  CHECK(count_lines(watch.err_so_far(), "(1 of 3 stages unchanged, from the last build)") == 1);
  const temp_dir elsewhere;  // outside the watched folder
  const fs::path fresh = elsewhere / "fresh";
  REQUIRE(run_cli({"build", preset.string(), "-o", fresh.string(), "-q"}).exit_code == 0);
  CHECK(read_bytes(dir / "height.png") == read_bytes(fresh / "height.png"));
  CHECK(read_bytes(dir / "normal.png") == read_bytes(fresh / "normal.png"));

  watch.signal(SIGTERM);
  REQUIRE(stops(watch));
  const cli_result r = watch.wait();
  INFO(r.err);
  CHECK(r.exit_code == 0);
  const std::vector<std::string> lines = r.err_lines();
  REQUIRE(!lines.empty());
  CHECK(lines.front() == "landform: watching " + preset.string() + " (Ctrl-C stops)");
  CHECK(lines.back() == "landform: stopped watching");
  const auto error = std::find(lines.begin(), lines.end(),
                               "landform: error: stages[1] (perturb).magnitude: -3 is below the minimum 0");
  REQUIRE(error != lines.end());
  REQUIRE(error + 1 != lines.end());
  CHECK((error + 1)->find(" error ") != std::string::npos);
  CHECK((error + 1)->ends_with(" keeps the last good outputs"));
  CHECK(count_lines(r.err, " ok ") == 3);  // no build started by the build's own files
}

TEST_CASE("cli watch: a save of the --vars file rebuilds; SIGINT exits 0", "[cli][watch]") {
  const temp_dir dir;
  const fs::path preset = dir.write("p.json", preset_text("\"${seed}\""));
  const fs::path vars = dir.write("vars/tile.json", R"({"seed": 5})");
  const fs::path out = dir / "out";
  cli_process watch({"watch", preset.string(), "--vars", vars.string(), "-o", out.string(), "-q"});
  REQUIRE(wait_until([&] { return text_if_any(out / "manifest.json").find("\"seed\": 5") != std::string::npos; }));

  dir.write("vars/tile.json", R"({"seed": 6})");  // written in place this time
  INFO(watch.err_so_far());
  REQUIRE(wait_until([&] { return text_if_any(out / "manifest.json").find("\"seed\": 6") != std::string::npos; }));

  watch.signal(SIGINT);
  REQUIRE(stops(watch));
  const cli_result r = watch.wait();
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("timings:") == std::string::npos);  // --quiet: the status lines only
  CHECK(r.err_lines().back() == "landform: stopped watching");
}

TEST_CASE("cli watch: a preset folder that does not exist is an error", "[cli][watch]") {
  const temp_dir dir;
  const cli_result r = run_cli({"watch", (dir / "missing/p.json").string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err ==
        "landform: error: cannot watch the folder '" + (dir / "missing").string() + "': No such file or directory\n");
}
