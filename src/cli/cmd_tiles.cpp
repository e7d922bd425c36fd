// landform tiles plan PRESET --tile N [--overlap K] [--shared-edges] [naming] -o PLAN_DIR
// landform tiles build PLAN_DIR --index I [--threads N] [--force] [--quiet]
// landform tiles finish PLAN_DIR [--max-dh B]

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>

#include "cli_common.hpp"
#include "landform/io/decode.hpp"
#include "landform/io/encode.hpp"
#include "landform/io/file_transaction.hpp"
#include "landform/io/sha256.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/pipeline/preset.hpp"
#include "tile_bands.hpp"
#include "tile_plan.hpp"

namespace landform::cli {

namespace {

namespace fs = std::filesystem;

constexpr int k_plan_version = 1;
const char* const k_height_file = "height.r32";

struct plan_options {
  preset_source source;
  std::string out_dir;
  grid_options grid;
  std::string landform;         // the binary the runner files call; default: this one
  int threads = 1;              // per tile
  double max_dh = 0.0;          // seam bound on |dh| over shared cells
  double max_jump_ratio = 0.0;  // seam gradient jump bound, times the interior p99; 0 = report only
  bool clean = false;           // remove what an earlier plan in the folder wrote and this one does not
};

struct build_tile_options {
  std::string plan_dir;
  int index = -1;
  int threads = 0;
  bool force = false;
  bool quiet = false;
};

struct finish_options {
  std::string plan_dir;
  std::optional<double> max_dh;
  bool quiet = false;
};

std::vector<std::uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

std::string self_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("landform") : p.string();
}

json region_json(const landform::region& r) {
  return {{"origin", {r.origin_x, r.origin_y}}, {"size", {r.width, r.height}}};
}

landform::region region_of(const json& j, double cell_size) {
  landform::region r;
  r.origin_x = j.at("origin").at(0).get<std::int64_t>();
  r.origin_y = j.at("origin").at(1).get<std::int64_t>();
  r.width = j.at("size").at(0).get<int>();
  r.height = j.at("size").at(1).get<int>();
  r.cell_size = cell_size;
  return r;
}

json read_json_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw io_error("cannot read " + file.string());
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    // The presets' parser: FILE:LINE:COLUMN and the fault in words.
    return parse_preset_text(text, file.string());
  } catch (const preset_error& e) {
    // A damaged file of the plan, not a preset mistake: an I/O error (exit 1).
    throw io_error(std::string(e.what()) + " (a file of the plan: planning again rewrites it)");
  }
}

json read_plan(const fs::path& dir) {
  const fs::path file = dir / "plan.json";
  if (!fs::exists(file))
    throw preset_error("PLAN_DIR", dir.string() + " has no plan.json (landform tiles plan writes it)");
  json plan = read_json_file(file);
  if (plan.value("landform_tiles", 0) != k_plan_version) {
    throw preset_error("PLAN_DIR", file.string() + " is not a tile plan this build reads (version 1)");
  }
  return plan;
}

// A tile is done when its manifest is for the plan's tile preset and every
// file it lists is there with its checksum.
bool tile_up_to_date(const fs::path& dir, const std::string& preset_sha256) {
  if (!fs::exists(dir / "manifest.json")) return false;
  json manifest;
  try {
    manifest = read_json_file(dir / "manifest.json");
  } catch (const io_error&) {
    return false;
  }
  if (manifest.value("preset_sha256", std::string()) != preset_sha256) return false;
  for (const auto& f : manifest.value("files", json::array())) {
    const auto bytes = read_file_bytes(dir / f.value("file", std::string()));
    if (!bytes || sha256_hex(bytes->data(), bytes->size()) != f.value("sha256", std::string())) return false;
  }
  return true;
}

// The preset of one tile: the plan's preset over the tile's built region, with
// an r32 height output for the mosaic.
json tile_preset(const json& base, const landform::region& built, const world_extent& world) {
  json t = base;
  t["size"] = {built.width, built.height};
  t["origin"] = {built.origin_x, built.origin_y};
  t["world"] = {{"origin", {world.origin_x, world.origin_y}}, {"size", {world.width, world.height}}};
  json outputs = t.contains("outputs") ? t["outputs"] : json::array({{{"map", "height"}, {"format", "png16"}}});
  const bool has_r32 = std::any_of(outputs.begin(), outputs.end(), [](const json& o) {
    return o.is_object() && o.value("map", "") == "height" && o.value("format", "") == "r32" &&
           o.value("file", std::string(k_height_file)) == k_height_file;
  });
  if (!has_r32) outputs.push_back({{"map", "height"}, {"format", "r32"}, {"file", k_height_file}});
  t["outputs"] = outputs;
  return t;
}

// The outputs that need the whole world, each with the way out where it has
// one: an "ocean" option whose local rule needs no more than a halo.
std::vector<std::string> world_outputs(const pipeline& p) {
  const halo_inputs inputs{p.region().cell_size, p.sea_level().has_value()};
  std::vector<std::string> out;
  for (std::size_t k = 0; k < p.outputs().size(); ++k) {
    const output_spec& o = p.outputs()[k];
    if (o.kind->halo(o.options, inputs) >= 0) continue;
    const bool has_ocean = std::any_of(o.kind->options.begin(), o.kind->options.end(),
                                       [](const param_spec& spec) { return spec.name == "ocean"; });
    json local = o.options;
    local["ocean"] = "below_sea_level";
    const bool ocean_local = has_ocean && o.kind->halo(local, inputs) >= 0;
    out.push_back("outputs[" + std::to_string(k) + "] (" + o.map + ")" +
                  (ocean_local ? " (its \"ocean\": \"below_sea_level\" is local, but paints inland basins below sea "
                                 "level as sea)"
                               : ""));
  }
  return out;
}

// Why every tile computes the whole world, naming the stages and outputs, and
// the way out where one has it (the stage's tile_mode, a local "ocean" rule).
std::string whole_world_reason(const pipeline& p) {
  std::vector<std::string> names;
  for (const pipeline_stage* s : p.world_stages()) {
    const auto& [param, value] = s->info->tile_mode;
    names.push_back(s->path + (param.empty() ? "" : " (\"" + param + "\": \"" + value + "\" is its mode for tiles)"));
  }
  for (std::string& o : world_outputs(p)) names.push_back(std::move(o));
  if (names.empty()) return "an output needs the whole world: every tile computes it";
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list + (names.size() == 1 ? " needs" : " need") + " the whole world: every tile computes it";
}

// A coarse-scope stage's change on its coarse grid, computed once for every
// tile (a coarse pass over the world, then the stage's model) and staged as
// coarse/stage-K.r32; null when the stage cannot take it (side layers wanted,
// no coarse_change, or a result already given). Adds the pass to `known`.
json coarse_result(const pipeline& whole, std::size_t k, world_passes& known, file_transaction& tx, int threads) {
  const pipeline_stage& s = whole.stages()[k];
  if (!s.info->coarse_change || !s.wanted.empty() || !s.params.value("coarse_result", std::string()).empty())
    return nullptr;
  const run_options options{threads, {}, {}, {}};
  known.coarse.emplace_back(k, whole.measure_coarse_input(k, known, options));
  const coarse_input& in = *known.coarse.back().second;
  const std::vector<float>& change = in.change;
  const std::string name = "coarse/stage-" + std::to_string(k) + ".r32";
  const std::vector<std::uint8_t> bytes = encode_r32_le(change.size(), change.data());
  tx.stage(name, bytes);
  return {{"file", name},
          {"sha256", sha256_hex(bytes.data(), bytes.size())},
          {"grid", {in.grid.width(), in.grid.height()}}};
}

// A tile preset as its tile builds it: the coarse results the plan computed
// (stage entries with "coarse_result", a path in the plan) named where the
// plan is now, so a plan folder can move (a Kubernetes volume mounts it
// elsewhere). The file's name and SHA-256 are what the preset's hash holds.
json with_plan_files(json tile, const json& stage_entries, const fs::path& plan_dir) {
  for (const json& e : stage_entries) {
    if (!e.contains("coarse_result")) continue;
    tile["stages"][e.at("index").get<std::size_t>()]["coarse_result"] =
        (fs::absolute(plan_dir) / e.at("coarse_result").get<std::string>()).lexically_normal().string();
  }
  return tile;
}

// What an earlier plan in the folder wrote, this one does not, and is still
// there (tile presets, tile folders, coarse results; nothing the earlier
// plan.json did not name or list as stale).
std::vector<std::string> stale_plan_files(const fs::path& dir, const json& plan) {
  const json previous = read_json_or_null(dir / "plan.json");
  std::vector<std::string> present;
  if (previous.is_null()) return present;
  for (const std::string& name : stale_plan_paths(previous, plan)) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir / name, ec))) present.push_back(name);
  }
  return present;
}

// The mosaic an earlier `tiles finish` wrote for another plan (world.json
// records the plan's hash): world.json, world.vrt and mosaic/. Found from
// world.json itself, so a new plan never lists them under "stale" (the
// finish of this plan writes the same names).
std::vector<std::string> stale_mosaic_files(const fs::path& dir, const json& plan) {
  const json world = read_json_or_null(dir / "world.json");
  const auto hash = world.is_object() ? world.find("plan_sha256") : world.end();
  if (world.is_null() || (hash != world.end() && *hash == plan.at("plan_sha256"))) return {};
  std::vector<std::string> present;
  for (const char* name : {"mosaic", "world.json", "world.vrt"}) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir / name, ec))) present.emplace_back(name);
  }
  return present;
}

// With --clean, removes the stale files; otherwise one warning (plan.json
// lists them under "stale", so a later --clean still finds them).
void handle_stale_plan_files(const plan_options& o, const std::vector<std::string>& stale) {
  if (stale.empty()) return;
  if (!o.clean) {
    std::cerr << "landform: warning: " << stale.size()
              << " tile presets, tile folders, coarse results or mosaic files in " << o.out_dir
              << " are from an earlier plan and not part of this one (" << stale.front()
              << (stale.size() > 1 ? ", ..." : "") << "); --clean removes them\n";
    return;
  }
  for (const std::string& name : stale) {
    std::error_code ec;
    if (fs::remove_all(fs::path(o.out_dir) / name, ec); ec) {
      std::cerr << "landform: warning: cannot remove " << (fs::path(o.out_dir) / name).string() << ": " << ec.message()
                << '\n';
    }
  }
}

int run_plan(const plan_options& o) {
  json preset = load_preset(o.source);
  const fs::path folder = preset_folder(o.source);
  const fs::path base_dir = folder.empty() ? fs::current_path() : fs::absolute(folder);
  const pipeline p = pipeline::build_tiled_world(preset, base_dir);
  const world_extent world = p.world();
  const double cell_size = p.region().cell_size;
  int cols = 0, rows = 0;
  const std::vector<tile_spec> tiles = make_tiles(world, cell_size, o.grid, cols, rows);

  // The whole world as one preset: its stats pass gives every min-max
  // normalize its world range once, for all tiles.
  json world_preset = preset;
  world_preset["size"] = {world.width, world.height};
  world_preset["origin"] = {world.origin_x, world.origin_y};
  const pipeline whole = pipeline::build_tiled_world(world_preset, base_dir);
  const fs::path plan_dir = fs::absolute(o.out_dir);
  // The coarse results are committed before the tiles' presets are checked
  // against them (they name the files).
  file_transaction coarse_tx(o.out_dir);
  json stages = json::array();
  std::string coarse_note;
  world_passes known;
  for (std::size_t k = 0; k < whole.stages().size(); ++k) {
    const pipeline_stage& s = whole.stages()[k];
    if (!s.run) continue;
    json entry = {{"stage", s.path}, {"scope", to_string(s.scope)}};
    entry["halo"] = s.halo < 0 ? json("world") : json(s.halo);
    // A later stats pass runs this stage on strips: it needs the coarse input.
    const auto later_stats = [&] {
      for (std::size_t j = k + 1; j < whole.stages().size(); ++j) {
        if (whole.stages()[j].run && whole.stages()[j].scope == stage_scope::stats) return true;
      }
      return false;
    };
    if (s.scope == stage_scope::coarse && whole.stage_halo() >= 0) {
      if (const json file = coarse_result(whole, k, known, coarse_tx, o.threads); !file.is_null()) {
        // Relative to the presets folder, so a tile preset built on its own
        // finds it too; `tiles build` names it where the plan is.
        preset["stages"][k]["coarse_result"] = "../" + file.at("file").get<std::string>();
        preset["stages"][k]["coarse_result_sha256"] = file.at("sha256");
        preset["stages"][k]["coarse_result_width"] = file.at("grid").at(0);
        entry["index"] = k;
        entry["coarse_result"] = file.at("file");
        entry["coarse_result_sha256"] = file.at("sha256");
        entry["coarse_grid"] = {{"factor", s.coarse_factor}, {"size", file.at("grid")}};
        coarse_note += "  " + s.path + ": its coarse run (" + std::to_string(file.at("grid").at(0).get<int>()) + "x" +
                       std::to_string(file.at("grid").at(1).get<int>()) + " cells) is done, in " +
                       file.at("file").get<std::string>() + "; every tile reads it\n";
      } else if (later_stats()) {
        known.coarse.emplace_back(k, whole.measure_coarse_input(k, known, {o.threads, {}, {}, {}}));
      }
    }
    if (s.scope == stage_scope::stats && whole.stage_halo() >= 0) {
      known.ranges.emplace_back(k, whole.measure_world_range(k, known, {o.threads, {}, {}, {}}));
      entry["world_range"] = {known.ranges.back().second.first, known.ranges.back().second.second};
      preset["stages"][k]["world_range"] = entry["world_range"];
    }
    stages.push_back(entry);
  }
  coarse_tx.commit();

  file_transaction tx(o.out_dir);
  json tile_list = json::array();
  std::int64_t largest = 0;
  bool whole_world = false;
  for (const tile_spec& t : tiles) {
    const json tp = tile_preset(preset, t.built, world);
    const pipeline pt = pipeline::build(with_plan_files(tp, stages, plan_dir), base_dir);
    whole_world = whole_world || pt.computes_world();
    const landform::region area = pt.computed_area();
    largest = std::max(largest, std::int64_t{area.width} * area.height);
    tile_list.push_back({{"index", t.index},
                         {"col", t.col},
                         {"row", t.row},
                         {"name", t.name},
                         {"core", region_json(t.core)},
                         {"built", region_json(t.built)},
                         {"computed", region_json(area)},
                         {"preset", "presets/" + t.name + ".json"},
                         {"out", "tiles/" + t.name},
                         {"preset_sha256", preset_hash(pt.canonical())}});
    tx.stage("presets/" + t.name + ".json", bytes_of(tp.dump(2) + "\n"));
  }
  const int halo = p.stage_halo() < 0 || p.halo() < 0 ? -1 : p.stage_halo() + p.halo();
  json plan = {{"landform_tiles", k_plan_version},
               {"world", region_json({world.width, world.height, world.origin_x, world.origin_y, cell_size})},
               {"cell_size", cell_size},
               {"tile", o.grid.tile},
               {"overlap", o.grid.overlap},
               {"shared_edges", o.grid.shared_edges},
               {"grid", {cols, rows}},
               {"naming",
                {{"prefix", o.grid.naming.prefix},
                 {"pad", o.grid.naming.pad},
                 {"start", o.grid.naming.start},
                 {"flip_y", o.grid.naming.flip_y}}},
               {"mode", whole_world ? "world" : "halo"},
               {"halo", halo < 0 ? json(nullptr) : json(halo)},
               {"stages", stages},
               {"height_file", k_height_file},
               {"base_dir", base_dir.string()},
               {"seam_bound", {{"max_dh", o.max_dh}, {"max_jump_ratio", o.max_jump_ratio}}},
               {"tiles", tile_list}};
  const std::string plan_hash = sha256_hex(bytes_of(plan.dump()).data(), plan.dump().size());
  plan["plan_sha256"] = plan_hash;
  const int n = static_cast<int>(tiles.size());
  const std::string landform = o.landform.empty() ? self_path() : o.landform;
  // Peak memory of a tile: the computed area's heights, a few work buffers
  // and the outputs; requested with a margin.
  const std::int64_t memory_mib = std::max<std::int64_t>(64, largest * 4 * 8 / (1024 * 1024) + 32);
  std::vector<std::string> stale = stale_plan_files(o.out_dir, plan);
  if (!o.clean && !stale.empty()) plan["stale"] = stale;
  for (std::string& name : stale_mosaic_files(o.out_dir, plan)) stale.push_back(std::move(name));
  tx.stage("plan.json", bytes_of(plan.dump(2) + "\n"));
  tx.stage("jobs.txt", bytes_of(parallel_jobs(landform, plan_dir.string(), n, o.threads)));
  tx.stage("Makefile", bytes_of(makefile(landform, tiles, o.threads)));
  tx.stage("slurm.sbatch", bytes_of(slurm_script(landform, plan_dir.string(), n, o.threads)));
  tx.stage("k8s-job.json", bytes_of(kubernetes_job(n, o.threads, memory_mib).dump(2) + "\n"));
  tx.stage("logs/.keep", {});
  tx.commit();
  handle_stale_plan_files(o, stale);
  std::cout << "planned " << count_of(static_cast<std::size_t>(n), "tile") << " (" << cols << "x" << rows << ") of "
            << o.grid.tile << " cells over a " << world.width << "x" << world.height << " world in " << o.out_dir
            << " (" << (whole_world ? whole_world_reason(whole) : "halo " + std::to_string(halo) + " cells") << ")\n"
            << coarse_note << "  parallel < " << (plan_dir / "jobs.txt").string() << "\n"
            << "  make -C " << plan_dir.string() << " -j 2\n"
            << "  sbatch " << (plan_dir / "slurm.sbatch").string() << "\n"
            << "  kubectl apply -f " << (plan_dir / "k8s-job.json").string() << "\n"
            << "then: landform tiles finish " << plan_dir.string() << '\n';
  return k_exit_ok;
}

int run_build_tile(const build_tile_options& o) {
  const fs::path dir = o.plan_dir;
  const json plan = read_plan(dir);
  const json& tiles = plan.at("tiles");
  if (o.index < 0 || o.index >= static_cast<int>(tiles.size())) {
    throw preset_error("--index", std::to_string(o.index) + " is not a tile of the plan (0 to " +
                                      std::to_string(tiles.size() - 1) + ")");
  }
  const json& tile = tiles.at(static_cast<std::size_t>(o.index));
  const fs::path out = dir / tile.at("out").get<std::string>();
  if (!o.force && tile_up_to_date(out, tile.at("preset_sha256").get<std::string>())) {
    if (!o.quiet) std::cerr << "tile " << tile.at("name").get<std::string>() << ": up to date, skipped\n";
    return k_exit_ok;
  }
  const json preset =
      with_plan_files(load_preset_file(dir / tile.at("preset").get<std::string>()), plan.at("stages"), dir);
  build_settings s;
  s.out_dir = out.string();
  s.threads = o.threads;
  s.quiet = o.quiet;
  return build_into(preset, plan.at("base_dir").get<std::string>(), s);
}

// Cells from a tile's edge the seam check reads: the cells two tiles both
// built (up to 2 x overlap, or the one shared row of Unity tiles) and the
// ten cells each side of the seam it measures the gradient jump over.
int seam_band(const json& plan) {
  return 2 * plan.at("overlap").get<int>() + 12;
}

int run_finish(const finish_options& o) {
  const fs::path dir = o.plan_dir;
  const json plan = read_plan(dir);
  const double cell_size = plan.at("cell_size").get<double>();
  std::vector<tile_spec> tiles;
  std::vector<std::string> missing;
  for (const json& t : plan.at("tiles")) {
    tile_spec s;
    s.index = t.at("index").get<int>();
    s.col = t.at("col").get<int>();
    s.row = t.at("row").get<int>();
    s.name = t.at("name").get<std::string>();
    s.core = region_of(t.at("core"), cell_size);
    s.built = region_of(t.at("built"), cell_size);
    tiles.push_back(s);
    if (!tile_up_to_date(dir / t.at("out").get<std::string>(), t.at("preset_sha256").get<std::string>())) {
      missing.push_back(s.name + " (index " + std::to_string(s.index) + ")");
    }
  }
  if (!missing.empty()) {
    for (const auto& m : missing) {
      std::cerr << "landform: error: tile " << m << " is missing or does not match the plan\n";
    }
    std::cerr << "landform: error: " << missing.size() << " of " << tiles.size()
              << " tiles to build (landform tiles build " << dir.string() << " --index I); nothing written\n";
    return k_exit_runtime;
  }
  const std::string height_file = plan.at("height_file").get<std::string>();
  // Only the edge bands of each tile: memory follows the tiles' perimeters.
  std::vector<tile_bands> heights;
  heights.reserve(tiles.size());
  json tile_entries = json::array();
  for (const tile_spec& t : tiles) {
    const fs::path tdir = dir / plan.at("tiles").at(static_cast<std::size_t>(t.index)).at("out").get<std::string>();
    heights.emplace_back(tdir / height_file, t.built, seam_band(plan));
    const auto manifest_bytes = read_file_bytes(tdir / "manifest.json");
    const json manifest = read_json_file(tdir / "manifest.json");
    tile_entries.push_back({{"index", t.index},
                            {"name", t.name},
                            {"manifest_sha256", sha256_hex(manifest_bytes->data(), manifest_bytes->size())},
                            {"height_range", manifest.at("height_range")},
                            {"computed", manifest.value("computed", json(nullptr))}});
  }
  const auto& grid = plan.at("grid");
  const tile_sampler at = [&](int index, std::int64_t x, std::int64_t y) {
    return heights[static_cast<std::size_t>(index)].at(x, y);
  };
  const std::vector<seam_pair> seams = check_seams(tiles, grid.at(0).get<int>(), grid.at(1).get<int>(), at);
  const double bound = o.max_dh.value_or(plan.at("seam_bound").at("max_dh").get<double>());
  const double ratio = plan.at("seam_bound").at("max_jump_ratio").get<double>();
  double max_dh = 0.0, max_jump = 0.0, max_p99 = 0.0;
  std::int64_t shared = 0;
  json pairs = json::array();
  std::vector<std::string> failures;
  for (const seam_pair& s : seams) {
    max_dh = std::max(max_dh, s.max_dh);
    max_jump = std::max(max_jump, s.max_jump);
    max_p99 = std::max(max_p99, s.interior_p99);
    shared += s.shared;
    const bool dh_ok = s.shared == 0 || s.max_dh <= bound;
    const bool jump_ok = ratio <= 0.0 || s.max_jump <= ratio * s.interior_p99;
    pairs.push_back({{"a", tiles[static_cast<std::size_t>(s.a)].name},
                     {"b", tiles[static_cast<std::size_t>(s.b)].name},
                     {"edge", s.vertical_edge ? "vertical" : "horizontal"},
                     {"shared_cells", s.shared},
                     {"max_dh", s.shared > 0 ? json(s.max_dh) : json(nullptr)},
                     {"max_gradient_jump", s.max_jump},
                     {"interior_p99", s.interior_p99},
                     {"interior_max", s.interior_max},
                     {"ok", dh_ok && jump_ok}});
    if (!dh_ok || !jump_ok) {
      failures.push_back(pairs.back()["a"].get<std::string>() + " | " + pairs.back()["b"].get<std::string>());
    }
  }
  const world_extent world{plan.at("world").at("origin").at(0).get<std::int64_t>(),
                           plan.at("world").at("origin").at(1).get<std::int64_t>(),
                           plan.at("world").at("size").at(0).get<int>(), plan.at("world").at("size").at(1).get<int>()};
  file_transaction tx(o.plan_dir);
  for (std::size_t k = 0; k < tiles.size(); ++k) {
    const tile_spec& t = tiles[k];
    const std::string r32 = "../" + plan.at("tiles").at(k).at("out").get<std::string>() + "/" + height_file;
    tx.stage("mosaic/" + t.name + ".vrt", bytes_of(raw_vrt(r32, t.built.width, t.built.height)));
  }
  tx.stage("world.vrt",
           bytes_of(mosaic_vrt(world, tiles, [](const tile_spec& t) { return "mosaic/" + t.name + ".vrt"; })));
  const json report = {{"tool", "landform"},
                       {"plan_sha256", plan.at("plan_sha256")},
                       {"world", plan.at("world")},
                       {"mosaic", "world.vrt"},
                       {"tiles", tile_entries},
                       {"seams",
                        {{"pairs", pairs},
                         {"shared_cells", shared},
                         {"max_dh", shared > 0 ? json(max_dh) : json(nullptr)},
                         {"max_gradient_jump", max_jump},
                         {"max_interior_p99", max_p99},
                         {"bound", {{"max_dh", bound}, {"max_jump_ratio", ratio}}},
                         {"ok", failures.empty()}}}};
  tx.stage("world.json", bytes_of(report.dump(2) + "\n"));
  tx.commit();
  if (!o.quiet) {
    std::cout << (dir / "world.vrt").string() << '\n' << (dir / "world.json").string() << '\n';
    // Without cells two tiles both built there is no |dh| to measure: say
    // so rather than print a 0 nothing measured.
    char dh[96];
    if (shared > 0) {
      std::snprintf(dh, sizeof dh, "max |dh| %.9g over %lld shared cells", max_dh, static_cast<long long>(shared));
    } else {
      std::snprintf(dh, sizeof dh, "max |dh| n/a (no shared cells; --overlap K or --shared-edges measure it)");
    }
    std::fprintf(stderr, "%zu tiles, %zu seams: %s, max gradient jump %.6g (interior p99 up to %.6g)\n", tiles.size(),
                 seams.size(), dh, max_jump, max_p99);
  }
  for (const auto& f : failures) std::cerr << "landform: error: seam " << f << " exceeds the bound\n";
  return failures.empty() ? k_exit_ok : k_exit_runtime;
}

template <class F>
void run_guarded(F&& f) {
  int code = k_exit_ok;
  try {
    code = f();
  } catch (...) {
    code = report_current_exception();
  }
  if (code != k_exit_ok) throw CLI::RuntimeError(code);
}

}  // namespace

void setup_tiles(CLI::App& app) {
  CLI::App* tiles = app.add_subcommand("tiles", "plan a world as tiles, build one tile, stitch and check the seams");
  tiles->require_subcommand(1);

  auto po = std::make_shared<plan_options>();
  CLI::App* plan = tiles->add_subcommand(
      "plan", "write a tile plan: per-tile presets, jobs.txt (GNU parallel), Makefile, slurm.sbatch, k8s-job.json");
  plan->add_option("preset", po->source.file, "preset JSON file (default: the built-in default preset)");
  plan->add_option("-o,--out", po->out_dir, "plan directory, created if missing")->required();
  add_preset_edit_options(*plan, po->source);
  plan->add_option("--tile", po->grid.tile, "cells per tile side (with --shared-edges: 2^n + 1)")->required();
  plan->add_option("--overlap", po->grid.overlap, "extra cells each tile is built with on every side (default 0)")
      ->check(whole_number_at_least_zero());
  plan->add_flag("--shared-edges", po->grid.shared_edges,
                 "neighbours share their edge row and column (Unity terrains: 2^n + 1 tiles)");
  plan->add_option("--name", po->grid.naming.prefix, "tile name prefix (default tile): PREFIX_x{X}_y{Y}");
  plan->add_option("--pad", po->grid.naming.pad, "zero-pad X and Y to this many digits (default: as needed)")
      ->check(whole_number_between(0, 9));
  plan->add_option("--start-index", po->grid.naming.start, "first X and Y in tile names (default 0)")
      ->check(whole_number_between(0, 1000000));
  plan->add_flag("--flip-y", po->grid.naming.flip_y, "count Y from the bottom row (engines whose Y axis goes up)");
  plan->add_flag("--clean", po->clean,
                 "remove the tile presets, tile folders and coarse results of an earlier plan in the folder that this "
                 "plan does not have");
  plan->add_option("--landform", po->landform, "the landform binary the job files run (default: this one)");
  plan->add_option("--threads", po->threads, "threads per tile job (default 1)")->check(whole_number_between(1, 256));
  plan->add_option("--max-dh", po->max_dh, "seam bound: max |dh| over cells two tiles share (default 0)")
      ->check(finite_number(false));
  plan->add_option("--max-jump-ratio", po->max_jump_ratio,
                   "seam bound: gradient jump at a seam over the interior 99th percentile (default 0 = report only)")
      ->check(finite_number(false));
  plan->callback([po] { run_guarded([&] { return run_plan(*po); }); });

  auto bo = std::make_shared<build_tile_options>();
  CLI::App* build = tiles->add_subcommand("build", "build one tile of a plan (skipped when already up to date)");
  build->add_option("plan", bo->plan_dir, "plan directory")->required();
  build->add_option("--index", bo->index, "tile index, 0 to n-1 (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)")
      ->required();
  build->add_option("--threads", bo->threads, "worker threads, 0 = all cores (results are identical)")
      ->check(whole_number_between(0, 256));
  build->add_flag("--force", bo->force, "rebuild even when the tile's outputs and manifest match the plan");
  build->add_flag("-q,--quiet", bo->quiet, "print nothing on success");
  build->callback([bo] { run_guarded([&] { return run_build_tile(*bo); }); });

  auto fo = std::make_shared<finish_options>();
  CLI::App* finish = tiles->add_subcommand(
      "finish", "check every tile and the seams, write world.vrt (GDAL mosaic) and world.json; exit 1 on a problem");
  finish->add_option("plan", fo->plan_dir, "plan directory")->required();
  finish->add_option("--max-dh", fo->max_dh, "seam bound on |dh| over shared cells (default: the plan's)")
      ->check(finite_number(false));
  finish->add_flag("-q,--quiet", fo->quiet, "print nothing on success");
  finish->callback([fo] { run_guarded([&] { return run_finish(*fo); }); });
}

}  // namespace landform::cli
