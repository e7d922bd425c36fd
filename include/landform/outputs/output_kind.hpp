#pragma once
/// @file
/// Output kinds: the maps a preset can ask for ("height", "normal", ...),
/// declared like stages: options with a schema, the formats allowed, how much
/// terrain around the region they need, and an encoder.

#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/core/layer_set.hpp"
#include "landform/outputs/derived_cache.hpp"
#include "landform/outputs/output_format.hpp"
#include "landform/params/schema.hpp"

namespace landform {

/// What an encoder sees. `field` is the computed area: the region plus the
/// halo the outputs asked for (or the whole world); the region is the window
/// [x0, x0 + width) x [y0, y0 + height) of it. Derived maps compute on the
/// field and crop the window, so a region's derived maps equal the same window
/// of the world's.
struct output_context {
  /// The whole field is the region, until x0/y0/width/height say otherwise.
  output_context(const heightfield& f, const layer_set& l)
      : field(f), layers(l), width(f.width()), height(f.height()) {}
  const heightfield& field;
  const layer_set& layers;
  int x0 = 0, y0 = 0, width = 0, height = 0;
  double height_scale = 1.0;  ///< metres for a height of 1.0
  /// The preset's top-level sea_level (height units), when given; outputs
  /// that use a sea level keep their own documented default otherwise.
  std::optional<double> sea_level;
  int nthreads = 0;
  /// Layer outputs only: the full-field layer to write.
  const std::vector<float>* layer = nullptr;
  std::int64_t seed = 0;  ///< the preset seed, for outputs with noise (splat breakup)
  /// The output's place in the preset, e.g. "outputs[6] (roads)", for the
  /// text of warnings and errors; empty outside a pipeline.
  std::string where;
  /// Provenance for 16-bit PNGs (tEXt chunks): software, preset hash, seed.
  std::vector<std::pair<std::string, std::string>> png_text;
  /// This output's deflate settings: the preset's "compression" and the
  /// build's threads (the bytes never depend on the threads).
  png_options deflate;
  /// Results shared by several outputs of this build (none when null: each
  /// output then computes its own).
  derived_cache* cache = nullptr;
  /// True once the caller asked to stop (thread-safe); long outputs poll it
  /// between blocks of rows and throw cancelled_error. Empty: never.
  std::function<bool()> stop_requested;
  /// When set, an output whose one file is a raster (height, normal, preview,
  /// biome, scalar maps; PNG, raw, TIFF or OpenEXR) sends the file's bytes
  /// here piece by piece, in file order, as they are made, and returns
  /// encoded_file::streamed with no bytes; other outputs ignore it. Empty: every output returns its bytes.
  png_sink stream;
  /// Copies the region's window out of a full-field array of `channels`
  /// interleaved values per cell.
  [[nodiscard]] std::vector<float> window(const std::vector<float>& full, int channels = 1) const;
  /// window() of an array no longer needed: moved out when the window is the
  /// whole field (no copy), else copied and `full` released, so the full
  /// array and its window do not outlive each other.
  [[nodiscard]] std::vector<float> take_window(std::vector<float>&& full, int channels = 1) const;
  /// True when the region's window is the whole field (outputs can then
  /// read full-field arrays in place).
  [[nodiscard]] bool whole_field() const {
    return x0 == 0 && y0 == 0 && width == field.width() && height == field.height();
  }
  /// The region's placement: world coordinates of its first cell, cell size.
  [[nodiscard]] georeference placement() const;
  /// What every file of this output is written with: png_text, placement(),
  /// `deflate` and `stream`.
  [[nodiscard]] file_settings write_settings() const;
};

/// What an output's halo may depend on besides its options.
struct halo_inputs {
  double cell_size = 1.0;  ///< metres per cell
  /// The preset gives a top-level sea_level (e.g. the preview tells the
  /// ocean from inland basins only then, and needs the whole world for it).
  bool sea_level = false;
};

/// An encoded file and what the manifest says about it.
struct encoded_file {
  std::vector<std::uint8_t> bytes;  ///< empty when streamed
  bool streamed = false;            ///< the bytes went to output_context::stream
  std::size_t clipped = 0;          ///< values clamped when quantising
  std::string encoding;             ///< human description of the value mapping
  json extra = json::object();      ///< kind-specific manifest fields (units, convention, layers...)
  /// Further files of the same output (splat_1, splat_2, ...). When present,
  /// files are named from the output's file by inserting _0, _1, ... before
  /// the extension, or by replacing "{index}" in it.
  std::vector<encoded_file> more_files;
  bool numbered = false;  ///< name with an index even when there is one file (splat_0.png)
  /// Things the user should know about a valid result (e.g. a road link with
  /// no admissible path): the manifest lists them as "warnings", the CLI
  /// prints them on stderr.
  std::vector<std::string> warnings;
};

/// A registered output kind.
struct output_kind {
  std::string name;
  std::string summary;
  std::string description;
  std::vector<std::string> formats;  ///< allowed; the first is the default
  std::vector<param_spec> options;
  /// Cells of terrain needed around the region (1 for a 3x3 kernel); -1 =
  /// the whole world (flow routing, the connected ocean).
  std::function<int(const json& options, const halo_inputs& inputs)> halo;
  std::function<json(const json& options)> canonical;
  std::function<void(const json& options, std::vector<preset_issue>& issues)> check_rules;
  /// Problems only the preset's world shows (e.g. road points outside it),
  /// from checked options, the world and its cell size in metres, as issues
  /// relative to the output; null = none.
  std::function<void(const json& options, const world_extent& world, double cell_size,
                     std::vector<preset_issue>& issues)>
      check_world;
  std::function<encoded_file(const json& options, const std::string& format, const output_context& ctx)> encode;
  /// How many files the output writes, named name_0, name_1, ... (splat: one
  /// per four layers); empty: one file under its own name. Lets validation
  /// find a numbered name that collides with another output's.
  std::function<std::size_t(const json& options)> file_count;
  /// Side layers the output reads (e.g. biome's moisture layer), so the
  /// pipeline keeps them; may be empty.
  std::function<std::vector<std::string>(const json& options)> reads;
};

namespace detail {

// Everything of an output kind but its halo (see make_output_kind).
template <class P>
output_kind output_kind_without_halo(std::string name, std::string summary, std::string description,
                                     std::vector<std::string> formats,
                                     encoded_file (*encode)(const P&, const std::string& format,
                                                            const output_context&)) {
  output_kind k;
  k.name = std::move(name);
  k.summary = std::move(summary);
  k.description = std::move(description);
  k.formats = std::move(formats);
  k.options = P::schema().specs();
  k.canonical = [](const json& options) { return P::schema().to_json(P::schema().parse(options)); };
  k.check_rules = [](const json& options, std::vector<preset_issue>& issues) {
    if constexpr (has_rules<P>) {
      std::vector<std::pair<std::string, std::string>> problems;
      P::schema().parse(options).check(problems);
      for (auto& [key, message] : problems) issues.push_back({key, message});
    } else {
      (void)options;
      (void)issues;
    }
  };
  k.encode = [encode](const json& options, const std::string& format, const output_context& ctx) {
    return encode(P::schema().parse(options), format, ctx);
  };
  if constexpr (requires(const P& p, const world_extent& w) {
                  { p.check_world(w, 1.0) } -> std::same_as<std::vector<preset_issue>>;
                }) {
    k.check_world = [](const json& options, const world_extent& world, double cell_size,
                       std::vector<preset_issue>& issues) {
      for (auto& issue : P::schema().parse(options).check_world(world, cell_size)) issues.push_back(std::move(issue));
    };
  }
  if constexpr (requires(const P& p) {
                  { p.layers_read() } -> std::same_as<std::vector<std::string>>;
                }) {
    k.reads = [](const json& options) { return P::schema().parse(options).layers_read(); };
  }
  return k;
}

}  // namespace detail

/// Declares an output kind whose options struct `P` provides
/// `static const param_schema<P>& schema()` (and optionally `check(...)` as
/// for stages, and `std::vector<std::string> layers_read() const` naming the
/// side layers it reads). `halo` sees the options and the cell size (metres).
template <class P>
output_kind make_output_kind(std::string name, std::string summary, std::string description,
                             std::vector<std::string> formats, int (*halo)(const P&, double cell_size),
                             encoded_file (*encode)(const P&, const std::string& format, const output_context&)) {
  output_kind k = detail::output_kind_without_halo<P>(std::move(name), std::move(summary), std::move(description),
                                                      std::move(formats), encode);
  k.halo = [halo](const json& options, const halo_inputs& inputs) {
    return halo(P::schema().parse(options), inputs.cell_size);
  };
  return k;
}

/// As above, for a halo that also depends on the rest of halo_inputs (the
/// preview's on whether the preset gives a sea_level).
template <class P>
output_kind make_output_kind(std::string name, std::string summary, std::string description,
                             std::vector<std::string> formats, int (*halo)(const P&, const halo_inputs&),
                             encoded_file (*encode)(const P&, const std::string& format, const output_context&)) {
  output_kind k = detail::output_kind_without_halo<P>(std::move(name), std::move(summary), std::move(description),
                                                      std::move(formats), encode);
  k.halo = [halo](const json& options, const halo_inputs& inputs) { return halo(P::schema().parse(options), inputs); };
  return k;
}

/// Output kinds by name.
class output_registry {
 public:
  void add(output_kind kind);  ///< throws std::logic_error on a duplicate name
  [[nodiscard]] const output_kind* find(const std::string& name) const;
  [[nodiscard]] std::vector<const output_kind*> all() const;
  [[nodiscard]] std::vector<std::string> names() const;

 private:
  std::map<std::string, output_kind> m_kinds;
};

/// The single explicit list of built-in output kinds (src/outputs/register_builtin_outputs.cpp).
void register_builtin_outputs(output_registry& registry);
const output_registry& builtin_outputs();

/// The kind used for a side layer written by a stage (e.g. "erosion"):
/// r32 as is, or quantised from its min..max (or a given range).
const output_kind& layer_output_kind();

/// Encodes one scalar map (the region window, row-major) in `format`, any
/// one-channel format of the table: float formats (r32, tiff32, exr, exr16)
/// store the values; integer formats (png8, png16, raw16, tiff16) quantise
/// `(v - lo) / (hi - lo)` from [0, 1] with rounding, clamping and counting
/// values outside.
/// `meaning` describes the value for the manifest, e.g. "height" or "slope
/// in degrees". `settings` (normally output_context::write_settings()) gives
/// provenance text, placement and deflate settings, and the stream a PNG
/// goes to (encoded_file::streamed).
encoded_file encode_scalar(std::vector<float> values, int width, int height, const std::string& format, double lo,
                           double hi, const std::string& meaning, const file_settings& settings = {});

/// encode_scalar of values the caller keeps: float formats, and integer
/// formats when [lo, hi] is [0, 1], read them in place (no copy of the map);
/// other ranges map a copy.
encoded_file encode_scalar(std::span<const float> values, int width, int height, const std::string& format, double lo,
                           double hi, const std::string& meaning, const file_settings& settings = {});

}  // namespace landform
