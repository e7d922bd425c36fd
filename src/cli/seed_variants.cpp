#include "seed_variants.hpp"

#include <iostream>

#include "contact_sheet.hpp"
#include "folder_lock.hpp"
#include "landform/io/encode.hpp"
#include "landform/io/file_transaction.hpp"
#include "landform/outputs/surface_outputs.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "landform/version.hpp"

namespace landform::cli {

namespace {

std::string folder_of(std::int64_t seed) {
  return "seed-" + std::to_string(seed);
}

json with_seed(const json& preset, std::int64_t seed) {
  json variant = preset;
  variant["seed"] = seed;
  return variant;
}

// The options of the preset's first preview output, or null when it has none
// (the sheet then shows the default preview).
json preview_options_of(const pipeline& p) {
  for (const auto& o : p.outputs()) {
    if (!o.is_layer && o.map == "preview") return o.options;
  }
  return nullptr;
}

// What the sheet and the index keep of one variant's build.
struct variant_record {
  std::int64_t seed = 0;
  std::string preset_sha256;
  json preview_options;
  sheet_picture picture;
};

json index_document(const std::vector<variant_record>& variants, const contact_sheet& sheet) {
  json list = json::array();
  for (const auto& v : variants) {
    list.push_back({{"seed", v.seed},
                    {"folder", folder_of(v.seed)},
                    {"manifest", folder_of(v.seed) + "/manifest.json"},
                    {"preset_sha256", v.preset_sha256}});
  }
  const json& options = variants.front().preview_options;
  return {{"tool", "landform"},
          {"version", k_version},
          {"variants", list},
          {"contact_sheet",
           {{"file", "contact_sheet.png"},
            {"columns", sheet.columns},
            {"rows", sheet.rows},
            {"cell", {sheet.cell_width, sheet.cell_height}},
            {"order", "the variants' order: left to right, then top to bottom"},
            {"labels", "each picture's seed in digits, top left"},
            {"preview", options.is_null() ? "the default preview (the preset has no preview output)"
                                          : "the preset's first preview output"}}}};
}

// Writes index.json and contact_sheet.png into `out` in one transaction.
void write_index(const std::filesystem::path& out, const std::vector<variant_record>& variants) {
  std::vector<sheet_picture> pictures;
  pictures.reserve(variants.size());
  for (const auto& v : variants) pictures.push_back(v.picture);
  const contact_sheet sheet = make_contact_sheet(pictures);
  const std::string index = index_document(variants, sheet).dump(2) + "\n";
  const folder_lock lock(out);
  file_transaction tx(out);
  tx.stage("index.json", std::vector<std::uint8_t>(index.begin(), index.end()));
  tx.stage("contact_sheet.png", encode_png_rgb8(sheet.width, sheet.height, sheet.rgb.data()));
  tx.commit();
}

}  // namespace

int build_seed_variants(const json& preset, const std::filesystem::path& base_dir, const build_settings& settings,
                        const std::vector<std::int64_t>& seeds) {
  for (const std::int64_t seed : seeds) (void)pipeline::build(with_seed(preset, seed), base_dir);
  std::vector<variant_record> variants;
  for (const std::int64_t seed : seeds) {
    build_settings s = settings;
    s.out_dir = (std::filesystem::path(settings.out_dir) / folder_of(seed)).string();
    variant_record v;
    v.seed = seed;
    const auto keep = [&v, &settings](const pipeline& p, const build_result& result) {
      v.preset_sha256 = preset_hash(p.canonical());
      v.preview_options = preview_options_of(p);
      const output_context ctx = output_context_for(p, result, settings.threads);
      std::vector<std::uint8_t> pixels;
      try {
        pixels = preview_pixels(v.preview_options.is_null() ? json::object() : v.preview_options, ctx);
      } catch (const non_finite_output_error& e) {
        // The seed's own outputs are written; only its thumbnail has no picture.
        std::cerr << "landform: warning: seed " << v.seed << ": contact sheet thumbnail left grey: " << e.what()
                  << '\n';
        pixels.assign(static_cast<std::size_t>(ctx.width) * static_cast<std::size_t>(ctx.height) * 3, 128);
      }
      v.picture = {v.seed, ctx.width, ctx.height, std::move(pixels)};
    };
    const int code = build_into(with_seed(preset, seed), base_dir, s, keep);
    if (code != k_exit_ok) return code;
    variants.push_back(std::move(v));
  }
  write_index(settings.out_dir, variants);
  if (!settings.quiet) {
    std::cout << (std::filesystem::path(settings.out_dir) / "index.json").string() << '\n'
              << (std::filesystem::path(settings.out_dir) / "contact_sheet.png").string() << '\n';
  }
  return k_exit_ok;
}

}  // namespace landform::cli
