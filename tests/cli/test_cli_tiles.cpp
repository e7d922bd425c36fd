// landform tiles plan / build / finish (issue 12): a 4 x 4 tiled build,
// stitched, equals the single build byte for byte; runners (GNU parallel,
// make -j2) give the same world; resumable; seam check; GDAL opens the mosaic.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using landform_test::have;
using landform_test::quoted;
using landform_test::read_bytes;
using landform_test::read_text;
using landform_test::run_cli;
using landform_test::shell;
using landform_test::temp_dir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using bytes_t = std::vector<std::uint8_t>;

// Local stages only (and a min-max normalize, from the plan's stats pass):
// 4 x 4 tiles of 33 cells.
const char* const k_local_preset = R"({
  "landform": 1, "size": 132, "seed": 5,
  "stages": [
    {"type": "opensimplex", "octaves": 4, "feature_size": 30},
    {"type": "perturb", "magnitude": 5},
    {"type": "normalize", "mode": "min_max"},
    {"type": "thermal_erosion", "iterations": 6},
    {"type": "smooth", "sigma": 0.8}
  ],
  "outputs": [
    {"map": "height", "format": "r32", "file": "height.r32"},
    {"map": "slope", "format": "r32", "file": "slope.r32"},
    {"map": "normal", "format": "rgb8", "file": "normal.png"}
  ]
})";

// The world's r32 file of `name` stitched from the tiles' core windows.
bytes_t stitch(const fs::path& plan_dir, const std::string& name) {
  const json plan = json::parse(read_text(plan_dir / "plan.json"));
  const int w = plan["world"]["size"][0], h = plan["world"]["size"][1];
  bytes_t world(static_cast<std::size_t>(w) * h * 4, 0);
  for (const json& t : plan["tiles"]) {
    const bytes_t tile = read_bytes(plan_dir / t["out"].get<std::string>() / name);
    const std::int64_t bx = t["built"]["origin"][0], by = t["built"]["origin"][1];
    const int bw = t["built"]["size"][0];
    const std::int64_t cx = t["core"]["origin"][0], cy = t["core"]["origin"][1];
    const int cw = t["core"]["size"][0], ch = t["core"]["size"][1];
    for (int j = 0; j < ch; ++j) {
      const auto src = static_cast<std::size_t>(((cy + j - by) * bw + (cx - bx)) * 4);
      const auto dst = static_cast<std::size_t>(((cy + j) * w + cx) * 4);
      std::copy(tile.begin() + static_cast<std::ptrdiff_t>(src),
                tile.begin() + static_cast<std::ptrdiff_t>(src + static_cast<std::size_t>(cw) * 4),
                world.begin() + static_cast<std::ptrdiff_t>(dst));
    }
  }
  return world;
}

// The local preset at `size` cells: the small worlds of the plan's cases.
json local_world(int size) {
  json p = json::parse(k_local_preset);
  p["size"] = size;
  return p;
}

void build_every_tile(const fs::path& plan_dir, int count) {
  for (int i = 0; i < count; ++i) {
    const auto r = run_cli({"tiles", "build", plan_dir.string(), "--index", std::to_string(i), "--quiet"});
    REQUIRE(r.exit_code == 0);
  }
}

}  // namespace

TEST_CASE("cli tiles: a 4x4 tiled build stitched equals the single build", "[cli][tiles]") {
  const temp_dir dir;
  const fs::path preset = dir.write("world.json", k_local_preset);
  REQUIRE(run_cli({"build", preset.string(), "-o", (dir / "single").string(), "--quiet"}).exit_code == 0);
  const fs::path plan_dir = dir / "plan";
  const auto planned = run_cli({"tiles", "plan", preset.string(), "--tile", "33", "-o", plan_dir.string()});
  REQUIRE(planned.exit_code == 0);
  const json plan = json::parse(read_text(plan_dir / "plan.json"));
  REQUIRE(plan["tiles"].size() == 16);
  CHECK(plan["mode"] == "halo");
  CHECK(plan["halo"] == 6 + 6 + 3 + 1);  // perturb ceil(5) + 1, thermal 6, smooth ceil(3 * 0.8), slope 1
  CHECK(plan["tiles"][5]["name"] == "tile_x1_y1");
  CHECK(plan["stages"][2]["world_range"].size() == 2);
  // The tile presets carry the world's range for min-max normalize.
  const json tile5 = json::parse(read_text(plan_dir / "presets/tile_x1_y1.json"));
  CHECK(tile5["stages"][2]["world_range"] == plan["stages"][2]["world_range"]);

  // Before any tile is built, finish names the missing tiles and writes nothing.
  const auto early = run_cli({"tiles", "finish", plan_dir.string()});
  CHECK(early.exit_code == 1);
  CHECK(early.err.find("tile_x0_y0 (index 0) is missing") != std::string::npos);
  CHECK_FALSE(fs::exists(plan_dir / "world.vrt"));

  build_every_tile(plan_dir, 16);
  // Every tile computed its region grown by the halo, not the world.
  const json m5 = json::parse(read_text(plan_dir / "tiles/tile_x1_y1/manifest.json"));
  CHECK(m5["computed"]["mode"] == "halo");
  CHECK(m5["computed"]["area"]["size"] == json::array({33 + 32, 33 + 32}));
  CHECK(stitch(plan_dir, "height.r32") == read_bytes(dir / "single/height.r32"));
  CHECK(stitch(plan_dir, "slope.r32") == read_bytes(dir / "single/slope.r32"));

  const auto finished = run_cli({"tiles", "finish", plan_dir.string()});
  REQUIRE(finished.exit_code == 0);
  const json world = json::parse(read_text(plan_dir / "world.json"));
  CHECK(world["seams"]["pairs"].size() == 24);
  CHECK(world["seams"]["ok"] == true);
  // Tiles without overlap share no cell: there is no |dh| to report.
  CHECK(world["seams"]["shared_cells"] == 0);
  CHECK(world["seams"]["max_dh"].is_null());
  CHECK(finished.err.find("max |dh| n/a (no shared cells") != std::string::npos);
  CHECK(world["seams"]["max_gradient_jump"].get<double>() > 0.0);
  CHECK(world["seams"]["max_interior_p99"].get<double>() > 0.0);

  SECTION("gdalinfo opens the mosaic, and it is the single build") {
    const auto info = fs::path(dir / "gdalinfo.txt");
    REQUIRE(shell("gdalinfo " + quoted(plan_dir / "world.vrt") + " > " + quoted(info) + " 2>&1") == 0);
    CHECK(read_text(info).find("Size is 132, 132") != std::string::npos);
    REQUIRE(shell("gdal_translate -q -of ENVI " + quoted(plan_dir / "world.vrt") + " " + quoted(dir / "m.bin")) == 0);
    CHECK(read_bytes(dir / "m.bin") == read_bytes(dir / "single/height.r32"));
  }
  SECTION("resumable: an up-to-date tile is skipped, a damaged one rebuilt") {
    const auto again = run_cli({"tiles", "build", plan_dir.string(), "--index", "3"});
    CHECK(again.exit_code == 0);
    CHECK(again.err.find("tile_x3_y0: up to date, skipped") != std::string::npos);
    const fs::path h = plan_dir / "tiles/tile_x3_y0/height.r32";
    const bytes_t good = read_bytes(h);
    std::ofstream(h, std::ios::binary | std::ios::trunc) << "x";
    CHECK(run_cli({"tiles", "finish", plan_dir.string()}).exit_code == 1);
    const auto rebuilt = run_cli({"tiles", "build", plan_dir.string(), "--index", "3"});
    CHECK(rebuilt.exit_code == 0);
    CHECK(rebuilt.err.find("skipped") == std::string::npos);
    CHECK(read_bytes(h) == good);
    CHECK(run_cli({"tiles", "finish", plan_dir.string(), "--quiet"}).exit_code == 0);
  }
  SECTION("GNU parallel runs jobs.txt as it is") {
    if (!have("parallel")) FAIL("GNU parallel is missing: scripts/install-deps.sh --tests installs it");
    const fs::path other = dir / "plan-parallel";
    REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "33", "-o", other.string()}).exit_code == 0);
    REQUIRE(shell("parallel -j 2 < " + quoted(other / "jobs.txt")) == 0);
    CHECK(stitch(other, "height.r32") == read_bytes(dir / "single/height.r32"));
    CHECK(stitch(other, "slope.r32") == read_bytes(dir / "single/slope.r32"));
    CHECK(run_cli({"tiles", "finish", other.string(), "--quiet"}).exit_code == 0);
  }
  SECTION("make -j2 runs the Makefile as it is, finish included") {
    const fs::path other = dir / "plan-make";
    REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "33", "-o", other.string()}).exit_code == 0);
    REQUIRE(shell("make -s -C " + quoted(other) + " -j2 > /dev/null 2>&1") == 0);
    CHECK(fs::exists(other / "world.json"));
    CHECK(stitch(other, "height.r32") == read_bytes(dir / "single/height.r32"));
    // Nothing left to do: make finds every target current.
    CHECK(shell("make -q -C " + quoted(other)) == 0);
  }
}

TEST_CASE("cli tiles: runner files for Slurm and Kubernetes", "[cli][tiles]") {
  const temp_dir dir;
  const fs::path preset = dir.write("world.json", k_local_preset);
  const fs::path plan_dir = dir / "plan";
  REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "33", "--threads", "2", "-o", plan_dir.string()})
              .exit_code == 0);
  const std::string sbatch = read_text(plan_dir / "slurm.sbatch");
  CHECK(sbatch.find("#SBATCH --array=0-15\n") != std::string::npos);
  CHECK(sbatch.find("#SBATCH --cpus-per-task=2\n") != std::string::npos);
  CHECK(sbatch.find("--index \"$SLURM_ARRAY_TASK_ID\"") != std::string::npos);
  CHECK(fs::is_directory(plan_dir / "logs"));
  // The Kubernetes Indexed Job, checked structurally (no cluster here).
  const json job = json::parse(read_text(plan_dir / "k8s-job.json"));
  CHECK(job["apiVersion"] == "batch/v1");
  CHECK(job["kind"] == "Job");
  CHECK(job["spec"]["completionMode"] == "Indexed");
  CHECK(job["spec"]["completions"] == 16);
  CHECK(job["spec"]["parallelism"].get<int>() >= 1);
  const json& pod = job["spec"]["template"]["spec"];
  CHECK(pod["restartPolicy"] == "Never");
  REQUIRE(pod["containers"].size() == 1);
  const json& command = pod["containers"][0]["command"];
  CHECK(command == json::array({"landform", "tiles", "build", "/plan", "--index", "$(JOB_COMPLETION_INDEX)",
                                "--threads", "2", "--quiet"}));
  CHECK(pod["containers"][0]["volumeMounts"][0]["mountPath"] == "/plan");
  CHECK(pod["volumes"][0]["name"] == "plan");
  const std::string makefile = read_text(plan_dir / "Makefile");
  CHECK(makefile.find("tiles/tile_x3_y3/manifest.json: presets/tile_x3_y3.json plan.json\n") != std::string::npos);
}

TEST_CASE("cli tiles: Unity shared edges, naming, and the seam check", "[cli][tiles]") {
  const temp_dir dir;
  json p = local_world(129);  // 4 * 32 + 1
  const fs::path preset = dir.write("world.json", p.dump());
  REQUIRE(run_cli({"build", preset.string(), "-o", (dir / "single").string(), "--quiet"}).exit_code == 0);
  const fs::path plan_dir = dir / "plan";
  REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "33", "--shared-edges", "--name", "terrain", "--pad",
                   "2", "--start-index", "1", "--flip-y", "-o", plan_dir.string()})
              .exit_code == 0);
  const json plan = json::parse(read_text(plan_dir / "plan.json"));
  REQUIRE(plan["tiles"].size() == 16);
  // Row 0 is the top row; with --flip-y its Y is the largest.
  CHECK(plan["tiles"][0]["name"] == "terrain_x01_y04");
  CHECK(plan["tiles"][15]["name"] == "terrain_x04_y01");
  CHECK(plan["tiles"][1]["core"]["origin"] == json::array({32, 0}));
  CHECK(plan["tiles"][1]["core"]["size"] == json::array({33, 33}));
  build_every_tile(plan_dir, 16);
  REQUIRE(run_cli({"tiles", "finish", plan_dir.string(), "--quiet"}).exit_code == 0);
  const json world = json::parse(read_text(plan_dir / "world.json"));
  // Neighbours share 33 edge cells per pair: all equal.
  CHECK(world["seams"]["shared_cells"] == 24 * 33);
  CHECK(world["seams"]["max_dh"] == 0.0);
  REQUIRE(shell("gdal_translate -q -of ENVI " + quoted(plan_dir / "world.vrt") + " " + quoted(dir / "m.bin")) == 0);
  CHECK(read_bytes(dir / "m.bin") == read_bytes(dir / "single/height.r32"));

  SECTION("a bound the seams exceed: exit 1, the pair named") {
    // Exact tiles pass |dh| = 0; a gradient bound of 1% of the interior's
    // 99th percentile is one no real terrain meets.
    const fs::path strict = dir / "strict";
    REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "33", "--shared-edges", "--max-jump-ratio", "0.01",
                     "-o", strict.string()})
                .exit_code == 0);
    build_every_tile(strict, 16);
    const auto r = run_cli({"tiles", "finish", strict.string()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("exceeds the bound") != std::string::npos);
  }
}

TEST_CASE("cli tiles: overlap, whole-world stages and bad input", "[cli][tiles]") {
  const temp_dir dir;
  json p = local_world(64);
  p["stages"].push_back({{"type", "olsen_erosion"}, {"iterations", 2}});
  const fs::path preset = dir.write("world.json", p.dump());
  REQUIRE(run_cli({"build", preset.string(), "-o", (dir / "single").string(), "--quiet"}).exit_code == 0);
  const fs::path plan_dir = dir / "plan";
  const auto planned =
      run_cli({"tiles", "plan", preset.string(), "--tile", "32", "--overlap", "2", "-o", plan_dir.string()});
  REQUIRE(planned.exit_code == 0);
  // The plan names the stage that makes every tile compute the world.
  CHECK(planned.out.find("(olsen_erosion) needs the whole world: every tile computes it") != std::string::npos);
  const json plan = json::parse(read_text(plan_dir / "plan.json"));
  CHECK(plan["mode"] == "world");
  CHECK(plan["halo"].is_null());
  CHECK(plan["tiles"][0]["built"]["size"] == json::array({34, 34}));
  build_every_tile(plan_dir, 4);
  const json m = json::parse(read_text(plan_dir / "tiles/tile_x0_y0/manifest.json"));
  CHECK(m["computed"]["mode"] == "world");
  REQUIRE(run_cli({"tiles", "finish", plan_dir.string(), "--quiet"}).exit_code == 0);
  const json world = json::parse(read_text(plan_dir / "world.json"));
  CHECK(world["seams"]["shared_cells"] == 4 * 4 * 34);  // 4 pairs, 2 + 2 overlap columns of 34 rows
  CHECK(world["seams"]["max_dh"] == 0.0);
  CHECK(stitch(plan_dir, "height.r32") == read_bytes(dir / "single/height.r32"));

  SECTION("bad input: exit 2, nothing written") {
    const fs::path bad = dir / "bad";
    const auto r = run_cli({"tiles", "plan", preset.string(), "--tile", "32", "--shared-edges", "-o", bad.string()});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--tile: 32 with --shared-edges must be 2^n + 1") != std::string::npos);
    CHECK_FALSE(fs::exists(bad));
    const auto idx = run_cli({"tiles", "build", plan_dir.string(), "--index", "4"});
    CHECK(idx.exit_code == 2);
    CHECK(idx.err.find("--index: 4 is not a tile of the plan (0 to 3)") != std::string::npos);
    CHECK(run_cli({"tiles", "finish", (dir / "nowhere").string()}).exit_code == 2);
  }
}

TEST_CASE("cli tiles: a whole-world stage with a mode for tiles names it", "[cli][tiles]") {
  const temp_dir dir;
  json p = local_world(64);
  p["stages"].push_back({{"type", "hydraulic_erosion"}, {"droplet_count", 100}});
  const fs::path preset = dir.write("world.json", p.dump());
  const auto planned = run_cli({"tiles", "plan", preset.string(), "--tile", "32", "-o", (dir / "plan").string()});
  REQUIRE(planned.exit_code == 0);
  CHECK(planned.out.find("(hydraulic_erosion) (\"tiling\": \"overlap\" is its mode for tiles) needs the whole "
                         "world: every tile computes it") != std::string::npos);
}

TEST_CASE("cli tiles: outputs that need the connected sea name their local ocean rule", "[cli][tiles][ocean]") {
  const temp_dir dir;
  json p = local_world(64);
  p["sea_level"] = 0.4;
  p["outputs"] = json::array({{{"map", "height"}, {"format", "r32"}, {"file", "height.r32"}},
                              {{"map", "biome"}, {"format", "rgb8"}},
                              {{"map", "preview"}, {"format", "rgb8"}}});
  const fs::path preset = dir.write("world.json", p.dump());
  const auto planned = run_cli({"tiles", "plan", preset.string(), "--tile", "32", "-o", (dir / "plan").string()});
  REQUIRE(planned.exit_code == 0);
  CHECK(
      planned.out.find("outputs[1] (biome) (its \"ocean\": \"below_sea_level\" is local, but paints inland basins "
                       "below sea level as sea), outputs[2] (preview) (its \"ocean\": \"below_sea_level\" is local") !=
      std::string::npos);
  CHECK(planned.out.find("need the whole world: every tile computes it") != std::string::npos);
  CHECK(json::parse(read_text(dir / "plan/plan.json"))["mode"] == "world");
  // With the local rule the tiles compute themselves and a halo.
  p["outputs"][1]["ocean"] = "below_sea_level";
  p["outputs"][2]["ocean"] = "below_sea_level";
  const fs::path local = dir.write("local.json", p.dump());
  REQUIRE(run_cli({"tiles", "plan", local.string(), "--tile", "32", "-o", (dir / "local").string()}).exit_code == 0);
  const json plan = json::parse(read_text(dir / "local/plan.json"));
  CHECK(plan["mode"] == "halo");
  CHECK(plan["halo"] == 16);  // perturb 6 + thermal 6 + smooth 3 + the preview's 1
}

TEST_CASE("cli tiles: stream power with tiling coarse: one coarse result for every tile, stitched = single",
          "[cli][tiles][stream_power]") {
  const temp_dir dir;
  const json p = {{"landform", 1},
                  {"size", 96},
                  {"seed", 8},
                  {"cell_size", 50},
                  {"height_scale", 400},
                  {"stages",
                   {{{"type", "opensimplex"}, {"octaves", 4}, {"feature_size", 1500}},
                    {{"type", "stream_power_erosion"},
                     {"tiling", "coarse"},
                     {"coarse_factor", 4},
                     {"duration", 4e5},
                     {"time_step", 4e4},
                     {"diffusivity", 0.05}},
                    {{"type", "normalize"}, {"mode", "min_max"}},
                    {{"type", "thermal_erosion"}, {"iterations", 2}}}},
                  {"outputs",
                   {{{"map", "height"}, {"format", "r32"}, {"file", "height.r32"}},
                    {{"map", "normal"}, {"format", "rgb8"}, {"file", "normal.png"}}}}};
  const fs::path preset = dir.write("world.json", p.dump());
  REQUIRE(run_cli({"build", preset.string(), "-o", (dir / "single").string(), "--quiet"}).exit_code == 0);
  const fs::path plan_dir = dir / "plan";
  const auto planned = run_cli({"tiles", "plan", preset.string(), "--tile", "24", "-o", plan_dir.string()});
  REQUIRE(planned.exit_code == 0);
  CHECK(planned.out.find("stages[1] (stream_power_erosion): its coarse run (24x24 cells) is done") !=
        std::string::npos);
  const json plan = json::parse(read_text(plan_dir / "plan.json"));
  CHECK(plan["mode"] == "halo");
  CHECK(plan["stages"][1]["scope"] == "coarse");
  CHECK(plan["stages"][1]["coarse_grid"] == json({{"factor", 4}, {"size", {24, 24}}}));
  REQUIRE(plan["stages"][1]["coarse_result"] == "coarse/stage-1.r32");
  CHECK(fs::file_size(plan_dir / "coarse/stage-1.r32") == 24 * 24 * 4);
  // The tiles read the plan's coarse result (no coarse pass and no model of
  // their own), named from their presets' folder with its SHA-256.
  const json tile = json::parse(read_text(plan_dir / "presets/tile_x1_y2.json"));
  CHECK(tile["stages"][1]["coarse_result"] == "../coarse/stage-1.r32");
  CHECK(tile["stages"][1]["coarse_result_sha256"] == plan["stages"][1]["coarse_result_sha256"]);
  build_every_tile(plan_dir, 16);
  const json m = json::parse(read_text(plan_dir / "tiles/tile_x1_y2/manifest.json"));
  CHECK(m["computed"]["mode"] == "halo");
  CHECK(m["computed"]["stages"][1]["scope"] == "pointwise");
  CHECK(m["computed"]["stages"][1]["coarse_result"] ==
        json({{"file", "stage-1.r32"}, {"sha256", plan["stages"][1]["coarse_result_sha256"]}}));
  CHECK(m["computed"]["area"]["size"] == json::array({24 + 6, 24 + 6}));  // thermal 2 + normal 1, both sides
  CHECK(stitch(plan_dir, "height.r32") == read_bytes(dir / "single/height.r32"));
  CHECK(run_cli({"tiles", "finish", plan_dir.string(), "--quiet"}).exit_code == 0);
  // A region built on its own (its own coarse pass) is the same window.
  json region = p;
  region["size"] = 24;
  region["origin"] = {24, 48};
  region["world"] = 96;
  const fs::path rp = dir.write("region.json", region.dump());
  REQUIRE(run_cli({"build", rp.string(), "-o", (dir / "region").string(), "--quiet"}).exit_code == 0);
  CHECK(read_bytes(dir / "region/height.r32") == read_bytes(plan_dir / "tiles/tile_x1_y2/height.r32"));
  SECTION("the plan folder can move, as a Kubernetes volume mounts it elsewhere") {
    const fs::path moved = dir / "moved";
    fs::rename(plan_dir, moved);
    fs::remove_all(moved / "tiles");
    build_every_tile(moved, 16);
    CHECK(stitch(moved, "height.r32") == read_bytes(dir / "single/height.r32"));
    CHECK(run_cli({"tiles", "finish", moved.string(), "--quiet"}).exit_code == 0);
  }
  SECTION("a damaged coarse result is refused, naming it") {
    const fs::path file = plan_dir / "coarse/stage-1.r32";
    bytes_t bytes = read_bytes(file);
    bytes[5] ^= 0x40;
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    // A built tile is up to date; rebuilding it reads the file again.
    const auto r = run_cli({"tiles", "build", plan_dir.string(), "--index", "0", "--force"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("coarse_result_sha256") != std::string::npos);
  }
}

TEST_CASE("cli tiles: re-planning a folder warns of an earlier plan's tiles; --clean removes them", "[cli][tiles]") {
  const temp_dir dir;
  json p = local_world(64);
  const fs::path preset = dir.write("world.json", p.dump());
  const fs::path plan_dir = dir / "plan";
  REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "16", "-o", plan_dir.string()}).exit_code == 0);
  build_every_tile(plan_dir, 16);
  // Larger tiles: 12 of the 16 names are gone, with their folders.
  const auto again = run_cli({"tiles", "plan", preset.string(), "--tile", "32", "-o", plan_dir.string()});
  REQUIRE(again.exit_code == 0);
  CHECK(again.err.find("warning: 24 tile presets, tile folders, coarse results or mosaic files") != std::string::npos);
  CHECK(fs::exists(plan_dir / "tiles/tile_x3_y3"));
  // plan.json keeps the list, so a later --clean still finds them.
  CHECK(json::parse(read_text(plan_dir / "plan.json"))["stale"].size() == 24);
  const auto same = run_cli({"tiles", "plan", preset.string(), "--tile", "32", "-o", plan_dir.string()});
  CHECK(same.err.find("warning: 24 tile presets") != std::string::npos);
  const auto clean = run_cli({"tiles", "plan", preset.string(), "--tile", "32", "--clean", "-o", plan_dir.string()});
  REQUIRE(clean.exit_code == 0);
  CHECK(clean.err.empty());
  CHECK_FALSE(fs::exists(plan_dir / "tiles/tile_x3_y3"));
  CHECK_FALSE(fs::exists(plan_dir / "presets/tile_x2_y0.json"));
  CHECK(fs::exists(plan_dir / "tiles/tile_x1_y1/manifest.json"));  // a tile of both plans stays
  CHECK_FALSE(json::parse(read_text(plan_dir / "plan.json")).contains("stale"));
  // The same plan again: nothing is stale.
  CHECK(run_cli({"tiles", "plan", preset.string(), "--tile", "32", "-o", plan_dir.string()}).err.empty());

  // A finished mosaic belongs to its plan: the same plan keeps it, another
  // plan reports it (world.json records the plan's hash) and --clean removes it.
  build_every_tile(plan_dir, 4);
  REQUIRE(run_cli({"tiles", "finish", plan_dir.string(), "--quiet"}).exit_code == 0);
  CHECK(run_cli({"tiles", "plan", preset.string(), "--tile", "32", "-o", plan_dir.string()}).err.empty());
  const auto other = run_cli({"tiles", "plan", preset.string(), "--tile", "64", "-o", plan_dir.string()});
  // 3 tiles' presets and folders, and mosaic/, world.json, world.vrt.
  CHECK(other.err.find("warning: 9 tile presets, tile folders, coarse results or mosaic files") != std::string::npos);
  CHECK(fs::exists(plan_dir / "world.vrt"));
  // (Not listed as stale in plan.json: this plan's finish writes the same names.)
  CHECK(json::parse(read_text(plan_dir / "plan.json")).value("stale", json::array()).dump().find("world") ==
        std::string::npos);
  REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "64", "--clean", "-o", plan_dir.string()}).exit_code ==
          0);
  CHECK_FALSE(fs::exists(plan_dir / "world.vrt"));
  CHECK_FALSE(fs::exists(plan_dir / "world.json"));
  CHECK_FALSE(fs::exists(plan_dir / "mosaic"));
}

TEST_CASE("cli tiles: bounds and names are checked in words, exit 2, nothing written", "[cli][tiles]") {
  const temp_dir dir;
  const fs::path preset = dir.write("world.json", local_world(64).dump());
  const fs::path plan_dir = dir / "plan";
  const auto refused = [&](std::vector<std::string> extra, const std::string& message) {
    std::vector<std::string> args = {"tiles", "plan", preset.string(), "--tile", "32", "-o", plan_dir.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err == "landform: error: " + message + "\n");
    CHECK_FALSE(fs::exists(plan_dir));
  };
  // NaN was accepted and written into plan.json as null, which `tiles finish` then could not read.
  refused({"--max-dh", "nan"}, "--max-dh: must be a finite number, 0 or more (see landform --help)");
  refused({"--max-jump-ratio", "inf"}, "--max-jump-ratio: must be a finite number, 0 or more (see landform --help)");
  refused({"--overlap", "-1"}, "--overlap: must be a whole number, 0 or more (see landform --help)");
  refused({"--name", "../evil"},
          "--name: \"../evil\" may hold only letters, digits, '_', '-' and '.' (it names files and folders of the "
          "plan)");
  refused({"--name", ""}, "--name: \"\" must not be empty");
  refused({"--name", ".hidden"}, "--name: \".hidden\" must not start with '.'");
  REQUIRE(run_cli({"tiles", "plan", preset.string(), "--tile", "32", "--name", "Land-1.a", "-o", plan_dir.string()})
              .exit_code == 0);
  CHECK(fs::exists(plan_dir / "presets/Land-1.a_x1_y1.json"));
  const auto finish = run_cli({"tiles", "finish", plan_dir.string(), "--max-dh", "nan"});
  CHECK(finish.exit_code == 2);
  CHECK(finish.err == "landform: error: --max-dh: must be a finite number, 0 or more (see landform --help)\n");
  // A damaged plan.json: file, line and column, an I/O error (exit 1).
  { std::ofstream(plan_dir / "plan.json") << "{\n"; }
  const auto damaged = run_cli({"tiles", "build", plan_dir.string(), "--index", "0"});
  CHECK(damaged.exit_code == 1);
  CHECK(damaged.err ==
        "landform: error: " + (plan_dir / "plan.json").string() +
            ":2:1: malformed JSON: unexpected end of input; expected string literal (a file of the plan: "
            "planning again rewrites it)\n");
}
