#include "tile_plan.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "landform/core/error.hpp"
#include "landform/core/world_frame.hpp"

namespace landform::cli {

namespace {

bool is_power_of_two(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

int digits(int n) {
  int d = 1;
  while (n >= 10) {
    n /= 10;
    ++d;
  }
  return d;
}

double percentile99(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(0.99 * static_cast<double>(v.size() - 1))];
}

// The seam between `a` and `b` along x (vertical_edge) or y. Coordinates are
// turned so that `u` runs across the seam and `v` along it.
seam_pair measure(const tile_spec& a, const tile_spec& b, bool vertical_edge, const tile_sampler& at) {
  seam_pair s;
  s.a = a.index;
  s.b = b.index;
  s.vertical_edge = vertical_edge;
  auto lo_u = [&](const landform::region& r) { return vertical_edge ? r.origin_x : r.origin_y; };
  auto hi_u = [&](const landform::region& r) { return lo_u(r) + (vertical_edge ? r.width : r.height); };
  auto lo_v = [&](const landform::region& r) { return vertical_edge ? r.origin_y : r.origin_x; };
  auto hi_v = [&](const landform::region& r) { return lo_v(r) + (vertical_edge ? r.height : r.width); };
  auto sample = [&](const tile_spec& t, std::int64_t u, std::int64_t v) {
    return static_cast<double>(vertical_edge ? at(t.index, u, v) : at(t.index, v, u));
  };
  // Cells both tiles built.
  for (std::int64_t v = std::max(lo_v(a.built), lo_v(b.built)); v < std::min(hi_v(a.built), hi_v(b.built)); ++v) {
    for (std::int64_t u = std::max(lo_u(a.built), lo_u(b.built)); u < std::min(hi_u(a.built), hi_u(b.built)); ++u) {
      s.max_dh = std::max(s.max_dh, std::abs(sample(a, u, v) - sample(b, u, v)));
      ++s.shared;
    }
  }
  // The mosaic across the seam: a before it, b from it on (b's core start).
  const std::int64_t seam = lo_u(b.core);
  const std::int64_t first = std::max(lo_u(a.built), seam - 10);
  const std::int64_t last = std::min(hi_u(b.built), seam + 10);  // exclusive
  std::vector<double> interior;
  for (std::int64_t v = std::max(lo_v(a.core), lo_v(b.core)); v < std::min(hi_v(a.core), hi_v(b.core)); ++v) {
    std::vector<double> m;
    for (std::int64_t u = first; u < last; ++u) m.push_back(u < seam ? sample(a, u, v) : sample(b, u, v));
    // Second difference centred on u: the jump of the gradient there.
    for (std::int64_t u = first + 1; u + 1 < last; ++u) {
      const auto k = static_cast<std::size_t>(u - first);
      const double jump = std::abs((m[k + 1] - m[k]) - (m[k] - m[k - 1]));
      if (u == seam - 1 || u == seam) {
        s.max_jump = std::max(s.max_jump, jump);
      } else {
        interior.push_back(jump);
      }
    }
  }
  s.interior_max = interior.empty() ? 0.0 : *std::max_element(interior.begin(), interior.end());
  s.interior_p99 = percentile99(std::move(interior));
  return s;
}

void xml_escape_into(std::ostringstream& out, const std::string& s) {
  for (char c : s) {
    switch (c) {
      case '&':
        out << "&amp;";
        break;
      case '<':
        out << "&lt;";
        break;
      case '>':
        out << "&gt;";
        break;
      case '"':
        out << "&quot;";
        break;
      default:
        out << c;
    }
  }
}

// The tile name prefix becomes part of file and folder names in the plan:
// one plain name part, so that every tile lands in the plan's own folders.
void check_name_prefix(const std::string& prefix) {
  const auto refuse = [&](const std::string& rule) {
    // As a JSON string, so that control characters and stray bytes print escaped.
    const std::string shown = nlohmann::json(prefix).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    throw preset_error("--name", shown + " " + rule);
  };
  if (prefix.empty()) refuse("must not be empty");
  if (prefix.size() > 64) refuse("is longer than 64 characters");
  for (const char ch : prefix) {
    const auto u = static_cast<unsigned char>(ch);
    if (!(std::isalnum(u) || ch == '_' || ch == '-' || ch == '.')) {
      refuse("may hold only letters, digits, '_', '-' and '.' (it names files and folders of the plan)");
    }
  }
  if (prefix.front() == '.') refuse("must not start with '.'");
}

}  // namespace

std::string tile_name(const tile_naming& n, int col, int row, int cols, int rows) {
  const int y = n.flip_y ? rows - 1 - row : row;
  const int pad = n.pad > 0 ? n.pad : digits(std::max(cols, rows) - 1 + n.start);
  auto padded = [pad](int v) {
    std::string s = std::to_string(v);
    return std::string(static_cast<std::size_t>(std::max(0, pad - static_cast<int>(s.size()))), '0') + s;
  };
  return n.prefix + "_x" + padded(col + n.start) + "_y" + padded(y + n.start);
}

std::vector<tile_spec> make_tiles(const world_extent& world, double cell_size, const grid_options& g, int& cols,
                                  int& rows) {
  if (g.tile < 2) throw preset_error("--tile", std::to_string(g.tile) + " must be at least 2 cells");
  if (g.overlap < 0) throw preset_error("--overlap", std::to_string(g.overlap) + " must be 0 or more cells");
  check_name_prefix(g.naming.prefix);
  const int step = g.shared_edges ? g.tile - 1 : g.tile;
  if (g.shared_edges) {
    if (!is_power_of_two(step)) {
      throw preset_error("--tile",
                         std::to_string(g.tile) + " with --shared-edges must be 2^n + 1 (e.g. 33, 65, 513, 4097)");
    }
    for (const int side : {world.width, world.height}) {
      if ((side - 1) % step != 0) {
        throw preset_error("--shared-edges", "the world's side " + std::to_string(side) + " must be k * " +
                                                 std::to_string(step) + " + 1 cells for tiles of " +
                                                 std::to_string(g.tile));
      }
    }
  }
  auto count = [&](int side) {
    const int span = g.shared_edges ? side - 1 : side;
    return std::max(1, (span + step - 1) / step);
  };
  cols = count(world.width);
  rows = count(world.height);
  std::vector<tile_spec> tiles;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      tile_spec t;
      t.index = static_cast<int>(tiles.size());
      t.col = c;
      t.row = r;
      t.name = tile_name(g.naming, c, r, cols, rows);
      t.core.origin_x = world.origin_x + std::int64_t{c} * step;
      t.core.origin_y = world.origin_y + std::int64_t{r} * step;
      t.core.width = std::min(g.tile, static_cast<int>(world.origin_x + world.width - t.core.origin_x));
      t.core.height = std::min(g.tile, static_cast<int>(world.origin_y + world.height - t.core.origin_y));
      t.core.cell_size = cell_size;
      t.built = grown_within(t.core, world, g.overlap);
      tiles.push_back(t);
    }
  }
  return tiles;
}

std::vector<seam_pair> check_seams(const std::vector<tile_spec>& tiles, int cols, int rows, const tile_sampler& at) {
  std::vector<seam_pair> out;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const tile_spec& t = tiles[static_cast<std::size_t>(r * cols + c)];
      if (c + 1 < cols) out.push_back(measure(t, tiles[static_cast<std::size_t>(r * cols + c + 1)], true, at));
      if (r + 1 < rows) out.push_back(measure(t, tiles[static_cast<std::size_t>((r + 1) * cols + c)], false, at));
    }
  }
  return out;
}

std::string raw_vrt(const std::string& r32_file, int width, int height) {
  std::ostringstream out;
  out << "<VRTDataset rasterXSize=\"" << width << "\" rasterYSize=\"" << height << "\">\n"
      << "  <VRTRasterBand dataType=\"Float32\" band=\"1\" subClass=\"VRTRawRasterBand\">\n"
      << "    <SourceFilename relativeToVRT=\"1\">";
  xml_escape_into(out, r32_file);
  out << "</SourceFilename>\n"
      << "    <ImageOffset>0</ImageOffset>\n"
      << "    <PixelOffset>4</PixelOffset>\n"
      << "    <LineOffset>" << std::int64_t{4} * width << "</LineOffset>\n"
      << "    <ByteOrder>LSB</ByteOrder>\n"
      << "  </VRTRasterBand>\n"
      << "</VRTDataset>\n";
  return out.str();
}

std::string mosaic_vrt(const world_extent& world, const std::vector<tile_spec>& tiles,
                       const std::function<std::string(const tile_spec&)>& tile_vrt) {
  std::ostringstream out;
  out << "<VRTDataset rasterXSize=\"" << world.width << "\" rasterYSize=\"" << world.height << "\">\n"
      << "  <VRTRasterBand dataType=\"Float32\" band=\"1\">\n";
  for (const tile_spec& t : tiles) {
    out << "    <SimpleSource>\n      <SourceFilename relativeToVRT=\"1\">";
    xml_escape_into(out, tile_vrt(t));
    out << "</SourceFilename>\n      <SourceBand>1</SourceBand>\n"
        << "      <SrcRect xOff=\"" << t.core.origin_x - t.built.origin_x << "\" yOff=\""
        << t.core.origin_y - t.built.origin_y << "\" xSize=\"" << t.core.width << "\" ySize=\"" << t.core.height
        << "\"/>\n"
        << "      <DstRect xOff=\"" << t.core.origin_x - world.origin_x << "\" yOff=\""
        << t.core.origin_y - world.origin_y << "\" xSize=\"" << t.core.width << "\" ySize=\"" << t.core.height
        << "\"/>\n    </SimpleSource>\n";
  }
  out << "  </VRTRasterBand>\n</VRTDataset>\n";
  return out.str();
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string parallel_jobs(const std::string& landform, const std::string& plan_dir, int count, int threads) {
  std::ostringstream out;
  for (int i = 0; i < count; ++i) {
    out << shell_quote(landform) << " tiles build " << shell_quote(plan_dir) << " --index " << i << " --threads "
        << threads << " --quiet\n";
  }
  return out.str();
}

std::string makefile(const std::string& landform, const std::vector<tile_spec>& tiles, int threads) {
  std::ostringstream out;
  out << "# Generated by landform tiles plan. make -j N builds the tiles (N at a time), then\n"
      << "# landform tiles finish checks the seams and writes world.vrt and world.json.\n"
      << "# Run it in this folder (make -C PLAN_DIR -j 2); LANDFORM=... picks another binary.\n"
      << "LANDFORM ?= " << landform << "\n"
      << "THREADS ?= " << threads << "\n\n"
      << "TILES :=";
  for (const tile_spec& t : tiles) out << " \\\n  tiles/" << t.name << "/manifest.json";
  out << "\n\n.PHONY: all tiles\nall: world.json\ntiles: $(TILES)\n\n"
      << "world.json: $(TILES)\n\t\"$(LANDFORM)\" tiles finish .\n\n";
  for (const tile_spec& t : tiles) {
    out << "tiles/" << t.name << "/manifest.json: presets/" << t.name << ".json plan.json\n"
        << "\t\"$(LANDFORM)\" tiles build . --index " << t.index << " --threads $(THREADS) --quiet\n";
  }
  return out.str();
}

std::string slurm_script(const std::string& landform, const std::string& plan_dir, int count, int threads) {
  std::ostringstream out;
  out << "#!/bin/bash\n"
      << "# Generated by landform tiles plan: one array task per tile.\n"
      << "#   sbatch slurm.sbatch    (then, when the array is done: landform tiles finish PLAN_DIR,\n"
      << "#   or sbatch --dependency=afterok:JOBID --wrap \"landform tiles finish PLAN_DIR\")\n"
      << "#SBATCH --job-name=landform-tiles\n"
      << "#SBATCH --array=0-" << count - 1 << "\n"
      << "#SBATCH --cpus-per-task=" << threads << "\n"
      << "#SBATCH --output=" << plan_dir << "/logs/tile-%a.out\n"
      << "set -euo pipefail\n"
      << "exec " << shell_quote(landform) << " tiles build " << shell_quote(plan_dir)
      << " --index \"$SLURM_ARRAY_TASK_ID\" --threads \"${SLURM_CPUS_PER_TASK:-" << threads << "}\" --quiet\n";
  return out.str();
}

nlohmann::json kubernetes_job(int count, int threads, std::int64_t memory_mib) {
  using nlohmann::json;
  const json container = {
      {"name", "tile"},
      {"image", "landform:latest"},
      {"command",
       {"landform", "tiles", "build", "/plan", "--index", "$(JOB_COMPLETION_INDEX)", "--threads",
        std::to_string(threads), "--quiet"}},
      {"resources",
       {{"requests", {{"cpu", std::to_string(threads)}, {"memory", std::to_string(memory_mib) + "Mi"}}},
        {"limits", {{"memory", std::to_string(2 * memory_mib) + "Mi"}}}}},
      {"volumeMounts", {{{"name", "plan"}, {"mountPath", "/plan"}}}}};
  json pod;
  pod["restartPolicy"] = "Never";
  pod["containers"] = json::array({container});
  pod["volumes"] = json::array({{{"name", "plan"}, {"persistentVolumeClaim", {{"claimName", "landform-plan"}}}}});
  json spec;
  spec["completionMode"] = "Indexed";
  spec["completions"] = count;
  spec["parallelism"] = std::min(count, 16);
  spec["backoffLimit"] = 3 * count;
  spec["template"]["spec"] = pod;
  json job;
  job["apiVersion"] = "batch/v1";
  job["kind"] = "Job";
  job["metadata"]["name"] = "landform-tiles";
  job["spec"] = spec;
  return job;
}

namespace {

// The files and folders a plan.json names: each tile's preset and output
// folder, each stage's coarse result, and (with `with_stale`) what it lists
// as left from earlier plans.
std::vector<std::string> plan_paths(const nlohmann::json& plan, bool with_stale) {
  std::vector<std::string> paths;
  const auto add = [&](const nlohmann::json& entry, const char* key) {
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_string()) return;
    const std::filesystem::path p = std::filesystem::path(it->get<std::string>()).lexically_normal();
    if (p.empty() || p.is_absolute() || *p.begin() == "..") return;
    paths.push_back(p.generic_string());
  };
  if (const auto tiles = plan.find("tiles"); tiles != plan.end() && tiles->is_array()) {
    for (const nlohmann::json& t : *tiles) {
      if (!t.is_object()) continue;
      add(t, "preset");
      add(t, "out");
    }
  }
  if (const auto stages = plan.find("stages"); stages != plan.end() && stages->is_array()) {
    for (const nlohmann::json& s : *stages) {
      if (s.is_object()) add(s, "coarse_result");
    }
  }
  if (const auto stale = plan.find("stale"); with_stale && stale != plan.end() && stale->is_array()) {
    for (const nlohmann::json& name : *stale) add(nlohmann::json{{"path", name}}, "path");
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

}  // namespace

std::vector<std::string> stale_plan_paths(const nlohmann::json& previous, const nlohmann::json& plan) {
  const std::vector<std::string> before = plan_paths(previous, true);
  const std::vector<std::string> now = plan_paths(plan, false);
  std::vector<std::string> stale;
  std::set_difference(before.begin(), before.end(), now.begin(), now.end(), std::back_inserter(stale));
  return stale;
}

}  // namespace landform::cli
