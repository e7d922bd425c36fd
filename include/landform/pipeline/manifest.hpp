#pragma once
/// @file
/// Output kinds: which maps exist, which encodings each allows, and turning a
/// heightfield into file bytes.

#include <cstdint>
#include <string>
#include <vector>

#include "landform/core/heightfield.hpp"
#include "landform/outputs/output_kind.hpp"
#include "landform/pipeline/pipeline.hpp"

namespace landform {

/// "height.png" for (height, png16), "height.raw" for raw16, ...
std::string default_output_file(const std::string& map, const std::string& format);

/// Checks the "outputs" array; appends problems with paths `outputs[i].key`.
/// `layers` are the side layers the preset's enabled stages write, which may
/// be requested by name. With `world` (the world's origin and size in cells
/// and its cell size) also what only the world shows (output_kind::check_world,
/// e.g. road points outside it).
std::vector<output_spec> check_outputs(const json& outputs, const std::vector<std::string>& layers,
                                       std::vector<preset_issue>& issues, const region* world = nullptr);

/// One encoded file, ready to be written.
struct encoded_output {
  output_spec spec;
  std::vector<std::uint8_t> bytes;  ///< empty when streamed
  bool streamed = false;            ///< written through encode_outputs' stream_opener, finished
  std::size_t clipped = 0;          ///< cells outside [0, 1] that were clamped when quantising
  json description;                 ///< the manifest entry: format, encoding, byte order, size, hash
};

/// What the outputs of `p` see of a run's `result`: its field and layers,
/// the region's window, height scale, sea level, seed and PNG provenance.
output_context output_context_for(const pipeline& p, const build_result& result, int nthreads);

/// Called after each output is encoded, with its index in pipeline::outputs()
/// and its wall time in seconds (for reporting, `landform build --timings`).
using output_timer = std::function<void(std::size_t output, double seconds)>;

/// Receives each encoded file as soon as it is encoded (e.g. to write it to
/// its temporary file); called in output order on the calling thread.
using output_sink = std::function<void(const encoded_output&)>;

/// A file open for streaming: `write` takes its pieces in order (called
/// one at a time, possibly from encoder threads), `finish` completes it
/// once the last piece is in. Dropping it unfinished must discard the file.
struct file_stream {
  png_sink write;
  std::function<void()> finish;
};

/// Opens the named file (a name as encoded_output::spec.file) for streaming,
/// e.g. as a file_transaction's staged file.
using stream_opener = std::function<file_stream(const std::string& file)>;

/// Encodes every output of `p` from a run's result (see output_kind).
/// `stop_requested`, when given, is polled before each output; true throws
/// cancelled_error. `timed`, when given, is told each output's time.
/// With a `sink`, each file goes to it at once and its bytes are then
/// released: the returned entries keep their descriptions (size, SHA-256)
/// with empty `bytes`, so memory holds one encoded file at a time, not all.
/// With `open`, an output whose one file is a raster (PNG, raw, TIFF,
/// OpenEXR) streams it: the file is opened at its first piece, written as
/// the encoder makes it (never held whole; OpenEXR holds its compressed
/// chunks, see stream_exr), hashed on the way and finished when the output
/// returns; its entry has `streamed` set, no bytes, and the same size and
/// SHA-256 as the bytes would give. An output that throws drops its open file.
std::vector<encoded_output> encode_outputs(const pipeline& p, const build_result& result, int nthreads = 0,
                                           const std::function<bool()>& stop_requested = {},
                                           const output_timer& timed = {}, const output_sink& sink = {},
                                           const stream_opener& open = {});

/// The manifest written beside the outputs: tool version, canonical preset and
/// its SHA-256, seed, size, origin, cell size, world, height range before
/// quantisation, clipped-cell count, and per file its map, format, encoding,
/// byte order, row order, dimensions and SHA-256; and the "import" block of
/// engine import values (engine_import_values); and the "computed" block
/// (computed_block).
json make_manifest(const pipeline& p, const heightfield& heights, const std::vector<encoded_output>& files,
                   const build_result* result = nullptr);

/// What a build computed to produce its region: "mode" ("region": the
/// region alone; "halo": the region grown by the stages' and outputs' halos;
/// "world": the whole world, because a stage or output needs it), the
/// computed "area" (origin, size), the "halo" in cells (null for the whole
/// world), and per running stage its "halo" (cells, or "world") and for a
/// stats-scope stage the "world_range" the stats pass measured.
json computed_block(const pipeline& p, const build_result* result = nullptr);

/// Files the previous build's manifest lists that this build does not write:
/// the candidates for the stale-file warning and `--clean`. Only names that
/// stay inside the output directory are returned (relative, no "..", not
/// manifest.json), normalised and sorted; a manifest without a "files" list
/// gives none.
std::vector<std::string> stale_files(const json& previous_manifest, const std::vector<encoded_output>& files);

/// SHA-256 of the canonical preset text (compact JSON, sorted keys).
std::string preset_hash(const json& canonical);

}  // namespace landform
