// The format table and the TIFF, OpenEXR and 16-bit splat formats, each read
// back by a decoder that is not ours: libtiff and GDAL (gdal_translate) for
// TIFF, OpenEXR's own reader and OpenImageIO (oiiotool) for EXR, stb_image for
// 16-bit PNG. Values must come back exactly (to half precision for exr16).

#include <catch2/catch.hpp>

#include <Imath/half.h>
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfStringAttribute.h>
#include <stb_image.h>
#include <tiffio.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "landform/io/encode.hpp"
#include "landform/io/quantize.hpp"
#include "landform/outputs/output_format.hpp"
#include "landform/pipeline/manifest.hpp"
#include "landform/pipeline/pipeline.hpp"
#include "reference/reference_data.hpp"

namespace {

using namespace landform;
namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr int k_w = 45, k_h = 31;

json formats_preset() {
  const json layers = json::array({{{"name", "low"}, {"height", {0.0, 0.4}}},
                                   {{"name", "steep"}, {"slope", {20, 90}}},
                                   {{"name", "high"}, {"height", {0.6, 1.0}}},
                                   {{"name", "mid"}, {"height", {0.3, 0.7}}},
                                   {{"name", "fifth"}, {"height", {0.45, 0.55}}}});
  return {
      {"landform", 1},
      {"size", {k_w, k_h}},
      {"seed", 5},
      {"cell_size", 2.0},
      {"height_scale", 120.0},
      {"stages",
       {{{"type", "opensimplex"}, {"feature_size", 30}, {"octaves", 4}}, {{"type", "normalize"}, {"mode", "min_max"}}}},
      {"outputs",
       {{{"map", "height"}, {"format", "r32"}},
        {{"map", "height"}, {"format", "png16"}},
        {{"map", "height"}, {"format", "tiff32"}},
        {{"map", "height"}, {"format", "tiff16"}, {"file", "height16.tif"}},
        {{"map", "height"}, {"format", "exr"}},
        {{"map", "height"}, {"format", "exr16"}, {"file", "height16.exr"}},
        {{"map", "normal"}, {"format", "rgb16"}},
        {{"map", "normal"}, {"format", "exr"}},
        {{"map", "splat"}, {"format", "rgba8"}, {"file", "s8.png"}, {"layers", layers}},
        {{"map", "splat"}, {"format", "rgba16"}, {"file", "s16.png"}, {"layers", layers}},
        {{"map", "splat"}, {"format", "exr"}, {"file", "sf.exr"}, {"layers", layers}}}}};
}

// Every output of the preset by file name, encoded once.
const std::map<std::string, std::vector<std::uint8_t>>& outputs() {
  static const auto files = [] {
    const pipeline p = pipeline::build(formats_preset());
    std::map<std::string, std::vector<std::uint8_t>> out;
    for (auto& f : encode_outputs(p, p.run_full(), 1)) out[f.spec.file] = f.bytes;
    return out;
  }();
  return files;
}

const std::vector<std::uint8_t>& file(const std::string& name) {
  INFO(name);
  REQUIRE(outputs().count(name) == 1);
  return outputs().at(name);
}

std::vector<float> heights() {
  const auto& r32 = file("height.r32");
  std::vector<float> v(r32.size() / 4);
  std::memcpy(v.data(), r32.data(), r32.size());
  return v;
}

struct temp_dir {
  fs::path path = fs::temp_directory_path() / ("landform-formats-" + std::to_string(::getpid()));
  temp_dir() { fs::create_directories(path); }
  ~temp_dir() { fs::remove_all(path); }
  fs::path write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    std::ofstream(path / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path / name;
  }
};

// ---------------------------------------------------------------- libtiff

struct tiff_image {
  std::uint32_t width = 0, height = 0;
  std::uint16_t bits = 0, channels = 0, sample_format = 0, compression = 0;
  std::string software, description;
  std::vector<std::uint8_t> bytes;  // rows, as stored
};

tiff_image read_tiff(const fs::path& path) {
  tiff_image t;
  TIFFSetWarningHandler(nullptr);  // the GeoTIFF tags are unknown to plain libtiff: fine
  TIFF* tif = TIFFOpen(path.c_str(), "r");
  REQUIRE(tif != nullptr);
  TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &t.width);
  TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &t.height);
  TIFFGetField(tif, TIFFTAG_BITSPERSAMPLE, &t.bits);
  TIFFGetField(tif, TIFFTAG_SAMPLESPERPIXEL, &t.channels);
  TIFFGetField(tif, TIFFTAG_SAMPLEFORMAT, &t.sample_format);
  TIFFGetField(tif, TIFFTAG_COMPRESSION, &t.compression);
  char* text = nullptr;
  if (TIFFGetField(tif, TIFFTAG_SOFTWARE, &text) == 1) t.software = text;
  if (TIFFGetField(tif, TIFFTAG_IMAGEDESCRIPTION, &text) == 1) t.description = text;
  const auto row = static_cast<std::size_t>(TIFFScanlineSize(tif));
  t.bytes.resize(row * t.height);
  for (std::uint32_t y = 0; y < t.height; ++y) REQUIRE(TIFFReadScanline(tif, t.bytes.data() + y * row, y, 0) == 1);
  TIFFClose(tif);
  return t;
}

template <class T>
std::vector<T> as(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

// ---------------------------------------------------------------- GDAL

bool have_gdal_translate() {
  return std::system("command -v gdal_translate >/dev/null 2>&1") == 0;
}

// gdal_translate to a raw ENVI file of `type` samples, band-interleaved by pixel.
std::vector<std::uint8_t> gdal_raw(const fs::path& in, const std::string& type) {
  const fs::path out = in.string() + ".envi";
  const std::string command = "gdal_translate -q -of ENVI -co INTERLEAVE=BIP -ot " + type + " '" + in.string() + "' '" +
                              out.string() + "' >/dev/null 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream s(out, std::ios::binary);
  return {std::istreambuf_iterator<char>(s), std::istreambuf_iterator<char>()};
}

// ---------------------------------------------------------------- OpenEXR

struct exr_image {
  int width = 0, height = 0;
  std::vector<std::string> names;                  // in file order (sorted)
  std::map<std::string, Imf::PixelType> types;     // per channel
  std::map<std::string, std::vector<float>> data;  // per channel, as float
  std::string software;
};

exr_image read_exr(const fs::path& path) {
  exr_image e;
  Imf::InputFile in(path.c_str());
  const Imath::Box2i window = in.header().dataWindow();
  e.width = window.max.x - window.min.x + 1;
  e.height = window.max.y - window.min.y + 1;
  if (const auto* s = in.header().findTypedAttribute<Imf::StringAttribute>("software")) e.software = s->value();
  Imf::FrameBuffer frame;
  for (auto it = in.header().channels().begin(); it != in.header().channels().end(); ++it) {
    e.names.push_back(it.name());
    e.types[it.name()] = it.channel().type;
    auto& v = e.data[it.name()];
    v.resize(static_cast<std::size_t>(e.width) * static_cast<std::size_t>(e.height));
    frame.insert(it.name(), Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(v.data()), sizeof(float),
                                       sizeof(float) * static_cast<std::size_t>(e.width)));
  }
  in.setFrameBuffer(frame);
  in.readPixels(window.min.y, window.max.y);
  return e;
}

// 16-bit PNG samples by stb_image (not libpng, which wrote them).
std::vector<std::uint16_t> decode_png16(const std::vector<std::uint8_t>& png, int& channels) {
  int w = 0, h = 0;
  std::uint16_t* p = stbi_load_16_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 0);
  REQUIRE(p != nullptr);
  std::vector<std::uint16_t> v(p, p + static_cast<std::size_t>(w) * h * channels);
  stbi_image_free(p);
  CHECK(w == k_w);
  CHECK(h == k_h);
  return v;
}

}  // namespace

TEST_CASE("format table: every entry is complete and adding one is one entry", "[formats]") {
  std::set<std::string> names;
  for (const auto& f : output_formats()) {
    INFO(f.name);
    CHECK(names.insert(f.name).second);
    CHECK(!f.extension.empty());
    CHECK(!f.summary.empty());
    CHECK(!f.channels.empty());
    CHECK(f.encode != nullptr);
    CHECK((f.byte_order == "big-endian" || f.byte_order == "little-endian" || f.byte_order == "n/a"));
    CHECK(&find_output_format(f.name) == &f);
  }
  for (const char* n :
       {"png16", "png8", "raw16", "r32", "rgb8", "rgb16", "rgba8", "rgba16", "tiff16", "tiff32", "exr", "exr16"})
    CHECK(names.count(n) == 1);
  CHECK(find_output_format("tiff32").bit_depth() == 32);
  CHECK(find_output_format("exr16").bit_depth() == 16);
  CHECK(find_output_format("exr16").is_float());
  CHECK(!find_output_format("tiff16").is_float());
  CHECK(find_output_format("rgba16").byte_order == "big-endian");
  CHECK(default_output_file("height", "tiff32") == "height.tif");
  CHECK(default_output_file("height", "exr16") == "height.exr");
  CHECK_THROWS_AS(find_output_format("tiff64"), std::out_of_range);
  raster r;
  r.width = 2;
  r.height = 2;
  r.channels = 2;
  r.u16.assign(8, 0);
  CHECK_THROWS_AS(find_output_format("tiff16").write(r), std::invalid_argument);  // 2 channels
  r.channels = 1;
  CHECK_THROWS_AS(find_output_format("tiff16").write(r), std::invalid_argument);  // 8 samples for 4
}

TEST_CASE("tiff32 and tiff16 heights read back by libtiff with the same values", "[formats][tiff]") {
  const temp_dir dir;
  const std::vector<float> h = heights();
  const tiff_image t32 = read_tiff(dir.write("h.tif", file("height.tif")));
  CHECK(t32.width == k_w);
  CHECK(t32.height == k_h);
  CHECK(t32.bits == 32);
  CHECK(t32.channels == 1);
  CHECK(t32.sample_format == SAMPLEFORMAT_IEEEFP);
  CHECK(t32.compression == COMPRESSION_NONE);
  CHECK(t32.software.rfind("landform ", 0) == 0);
  CHECK(t32.description.find("preset sha256") != std::string::npos);
  CHECK(as<float>(t32.bytes) == h);  // bit for bit (no NaN in heights)

  const tiff_image t16 = read_tiff(dir.write("h16.tif", file("height16.tif")));
  CHECK(t16.bits == 16);
  CHECK(t16.sample_format == SAMPLEFORMAT_UINT);
  CHECK(as<std::uint16_t>(t16.bytes) == quantize16(h.data(), h.size()).values);
  int channels = 0;
  CHECK(as<std::uint16_t>(t16.bytes) == decode_png16(file("height.png"), channels));  // same samples as png16
  CHECK(channels == 1);
}

TEST_CASE("tiff32 and tiff16 heights read back by GDAL with the same values", "[formats][tiff][gdal]") {
  if (!have_gdal_translate()) {
    WARN("gdal_translate not found (install gdal-bin): TIFF read back by libtiff only");
    return;
  }
  const temp_dir dir;
  const std::vector<float> h = heights();
  CHECK(as<float>(gdal_raw(dir.write("h.tif", file("height.tif")), "Float32")) == h);
  CHECK(as<std::uint16_t>(gdal_raw(dir.write("h16.tif", file("height16.tif")), "UInt16")) ==
        quantize16(h.data(), h.size()).values);
  // The 16-bit splat PNG as GDAL reads it: four bands summing to 65535.
  const auto splat = as<std::uint16_t>(gdal_raw(dir.write("s16.png", file("s16_0.png")), "UInt16"));
  const auto splat2 = as<std::uint16_t>(gdal_raw(dir.write("s16_1.png", file("s16_1.png")), "UInt16"));
  REQUIRE(splat.size() == static_cast<std::size_t>(k_w) * k_h * 4);
  REQUIRE(splat2.size() == splat.size());
  std::size_t exact = 0;
  for (std::size_t k = 0; k < splat.size() / 4; ++k) {
    unsigned sum = 0;
    for (int c = 0; c < 4; ++c) sum += splat[4 * k + c] + splat2[4 * k + c];
    exact += sum == 65535u;
  }
  CHECK(exact == splat.size() / 4);
}

TEST_CASE("exr heights read back by OpenEXR's reader: float exactly, exr16 to half precision", "[formats][exr]") {
  const temp_dir dir;
  const std::vector<float> h = heights();
  const exr_image e = read_exr(dir.write("h.exr", file("height.exr")));
  CHECK(e.width == k_w);
  CHECK(e.height == k_h);
  REQUIRE(e.names == std::vector<std::string>{"Y"});
  CHECK(e.types.at("Y") == Imf::FLOAT);
  CHECK(e.software.rfind("landform ", 0) == 0);
  CHECK(e.data.at("Y") == h);

  const exr_image e16 = read_exr(dir.write("h16.exr", file("height16.exr")));
  CHECK(e16.types.at("Y") == Imf::HALF);
  const auto& v = e16.data.at("Y");
  REQUIRE(v.size() == h.size());
  double worst = 0.0;
  std::size_t nearest = 0;
  for (std::size_t k = 0; k < h.size(); ++k) {
    worst = std::max(worst, std::abs(static_cast<double>(v[k]) - h[k]));
    nearest += v[k] == static_cast<float>(Imath::half(h[k]));
  }
  CHECK(nearest == h.size());         // each value is the nearest half
  CHECK(worst <= 1.0 / 4096 + 1e-9);  // half has 11 significant bits: <= 2^-12 relative to 1
}

TEST_CASE("exr16 converts a block of rows at a time: every sample of a tall RGB image is its nearest half",
          "[formats][exr]") {
  // 600 rows: two whole 256-row conversion blocks and a partial one.
  constexpr int w = 5, h = 600;
  std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
  for (std::size_t k = 0; k < rgb.size(); ++k) rgb[k] = static_cast<float>(std::sin(0.37 * static_cast<double>(k)));
  const temp_dir dir;
  const exr_image e = read_exr(dir.write("tall.exr", encode_exr(w, h, 3, rgb.data(), true, {}, {})));
  REQUIRE(e.height == h);
  std::size_t nearest = 0;
  for (int c = 0; c < 3; ++c) {
    const auto& v = e.data.at(std::string(1, "RGB"[c]));
    for (std::size_t p = 0; p < v.size(); ++p) nearest += v[p] == static_cast<float>(Imath::half(rgb[3 * p + c]));
  }
  CHECK(nearest == rgb.size());
}

TEST_CASE("exr16 clamps values beyond the largest half to +-65504 and counts them", "[formats][exr]") {
  const std::vector<float> v = {1.0e5f, -7.0e4f, 65504.0f, 0.5f};
  const encoded_raster e = encode_unit_samples(v, 2, 2, 1, find_output_format("exr16"));
  CHECK(e.clipped == 2);
  const temp_dir dir;
  const exr_image read = read_exr(dir.write("big.exr", e.bytes));
  CHECK(read.data.at("Y") == std::vector<float>{65504.0f, -65504.0f, 65504.0f, 0.5f});
  CHECK(encode_unit_samples(v, 2, 2, 1, find_output_format("exr")).clipped == 0);  // float32 keeps them
}

TEST_CASE("encode_samples_in_place writes borrowed samples as encode_unit_samples does", "[formats]") {
  std::vector<float> h = heights();
  h[3] = 1.5f;  // clipped in integer formats
  for (const char* name : {"r32", "tiff32", "exr", "exr16", "png8", "png16", "raw16", "tiff16"}) {
    const output_format& f = find_output_format(name);
    INFO(name);
    const encoded_raster copied = encode_unit_samples(h, k_w, k_h, 1, f);
    const encoded_raster borrowed = encode_samples_in_place(h, k_w, k_h, 1, f);
    CHECK(borrowed.bytes == copied.bytes);
    CHECK(borrowed.clipped == copied.clipped);
    CHECK(copied.clipped == (f.is_float() ? 0U : 1U));
  }
}

TEST_CASE("exr normal map equals the rgb16 one to 16-bit rounding", "[formats][exr]") {
  const temp_dir dir;
  const exr_image e = read_exr(dir.write("n.exr", file("normal.exr")));
  REQUIRE(e.names == std::vector<std::string>{"B", "G", "R"});
  int channels = 0;
  const auto png = decode_png16(file("normal.png"), channels);
  REQUIRE(channels == 3);
  const char* names[] = {"R", "G", "B"};
  double worst = 0.0;
  for (std::size_t k = 0; k < png.size() / 3; ++k)
    for (int c = 0; c < 3; ++c)
      worst = std::max(worst, std::abs(e.data.at(names[c])[k] * 65535.0 - png[3 * k + static_cast<std::size_t>(c)]));
  CHECK(worst <= 0.5);
}

TEST_CASE("rgba16 splat sums to 65535 and agrees with the exr weights and the rgba8 splat", "[formats][splat]") {
  const temp_dir dir;
  int channels = 0;
  const auto a = decode_png16(file("s16_0.png"), channels);
  REQUIRE(channels == 4);
  const auto b = decode_png16(file("s16_1.png"), channels);
  const exr_image fa = read_exr(dir.write("a.exr", file("sf_0.exr")));
  const exr_image fb = read_exr(dir.write("b.exr", file("sf_1.exr")));
  REQUIRE(fa.names == std::vector<std::string>{"A", "B", "G", "R"});
  const char* names[] = {"R", "G", "B", "A"};
  const std::size_t cells = static_cast<std::size_t>(k_w) * k_h;
  std::size_t sums = 0;
  double worst = 0.0, float_sum_error = 0.0;
  for (std::size_t k = 0; k < cells; ++k) {
    unsigned sum = 0;
    double fsum = 0.0;
    for (int c = 0; c < 4; ++c) {
      const std::size_t i = 4 * k + static_cast<std::size_t>(c);
      sum += a[i] + b[i];
      const double wa = fa.data.at(names[c])[k], wb = fb.data.at(names[c])[k];
      fsum += wa + wb;
      worst = std::max({worst, std::abs(a[i] - wa * 65535.0), std::abs(b[i] - wb * 65535.0)});
    }
    sums += sum == 65535u;
    float_sum_error = std::max(float_sum_error, std::abs(fsum - 1.0));
  }
  CHECK(sums == cells);
  CHECK(worst < 1.0);  // largest-remainder rounding moves a weight by less than one unit
  CHECK(float_sum_error < 1e-5);
  // The fifth layer sits in R of the second image; G, B, A are empty.
  for (std::size_t k = 0; k < cells; ++k) {
    CHECK(b[4 * k + 1] == 0);
    CHECK(b[4 * k + 3] == 0);
  }
}

TEST_CASE("new formats are deterministic and rejected where a map cannot take them", "[formats]") {
  const pipeline p = pipeline::build(formats_preset());
  const auto again = encode_outputs(p, p.run_full(), 2);
  for (const auto& f : again) {
    INFO(f.spec.file);
    CHECK(f.bytes == outputs().at(f.spec.file));
  }
  json bad = formats_preset();
  bad["outputs"] = {{{"map", "preview"}, {"format", "exr"}}};
  try {
    (void)pipeline::build(bad);
    FAIL("preview in exr was accepted");
  } catch (const preset_error& e) {
    CHECK(std::string(e.what()).find("outputs[0] (preview).format: \"exr\" is not one of rgb8") != std::string::npos);
  }
}

TEST_CASE("encoders reject bad arguments with a message", "[formats]") {
  const std::uint16_t v[4] = {1, 2, 3, 4};
  const float f[4] = {0.0f, 0.5f, 1.0f, 2.0f};
  CHECK_THROWS_AS(encode_tiff_u16(0, 1, 1, v), std::invalid_argument);
  CHECK_THROWS_AS(encode_tiff_u16(2, 2, 2, v), std::invalid_argument);
  CHECK_THROWS_AS(encode_tiff_f32(2, 2, 1, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(encode_exr(2, 2, 5, f, false), std::invalid_argument);
  CHECK_THROWS_AS(encode_exr(2, 2, 1, f, false, {"R", "G"}), std::invalid_argument);
  CHECK_THROWS_AS(encode_exr(-1, 2, 1, f, true), std::invalid_argument);
  CHECK(encode_tiff_f32(2, 2, 1, f) == encode_tiff_f32(2, 2, 1, f));
  CHECK(encode_exr(2, 2, 1, f, true) == encode_exr(2, 2, 1, f, true));
}

TEST_CASE("tiff heights carry GeoTIFF tags: GDAL places the first sample at the preset's origin",
          "[formats][tiff][gdal]") {
  if (!have_gdal_translate()) {
    WARN("gdalinfo not found (install gdal-bin): GeoTIFF placement not checked");
    return;
  }
  json preset = formats_preset();
  preset["origin"] = {10, -20};
  preset["world"] = {{"origin", {0, -100}}, {"size", {200, 200}}};
  preset["outputs"] = {{{"map", "height"}, {"format", "tiff32"}},
                       {{"map", "height"}, {"format", "tiff16"}, {"file", "h16.tif"}}};
  const pipeline p = pipeline::build(preset);
  const temp_dir dir;
  for (const auto& f : encode_outputs(p, p.run_full(), 1)) {
    INFO(f.spec.file);
    const fs::path path = dir.write(f.spec.file, f.bytes);
    const fs::path info = dir.path / (f.spec.file + ".json");
    const std::string command = "gdalinfo -json '" + path.string() + "' > '" + info.string() + "' 2>/dev/null";
    REQUIRE(std::system(command.c_str()) == 0);
    std::ifstream in(info);
    const json g = json::parse(in);
    // PixelIsPoint: GDAL reports the corner half a cell before the first sample,
    // which is at world (10 * 2, 20 * 2) with northing = -y.
    const double c = 2.0;
    CHECK(g.at("geoTransform") == json({10 * c - c / 2, c, 0.0, 20 * c + c / 2, 0.0, -c}));
    CHECK(g.at("metadata").at("").at("AREA_OR_POINT") == "Point");
  }
}

// ---------------------------------------------------------------- OpenImageIO

namespace {

bool have_oiiotool() {
  return std::system("command -v oiiotool >/dev/null 2>&1") == 0;
}

// An EXR as OpenImageIO's oiiotool decodes it: written by oiiotool as an
// uncompressed float32 TIFF (lossless for float and half samples) and read
// with libtiff; channel names from `oiiotool --info -v`.
struct oiio_image {
  std::vector<std::string> names;
  std::map<std::string, std::vector<float>> data;
};

std::vector<std::string> oiio_channels(const fs::path& exr) {
  const fs::path info = exr.string() + ".info";
  REQUIRE(std::system(("oiiotool --info -v '" + exr.string() + "' > '" + info.string() + "' 2>&1").c_str()) == 0);
  std::ifstream s(info);
  std::string line;
  const std::string key = "channel list: ";
  while (std::getline(s, line)) {
    const auto at = line.find(key);
    if (at == std::string::npos) continue;
    std::vector<std::string> names;
    std::string rest = line.substr(at + key.size()) + ",";
    for (std::size_t comma; (comma = rest.find(',')) != std::string::npos; rest.erase(0, comma + 1)) {
      std::string name = rest.substr(0, comma);
      name.erase(0, name.find_first_not_of(' '));
      names.push_back(name);
    }
    return names;
  }
  FAIL("oiiotool --info printed no channel list for " << exr);
  return {};
}

oiio_image oiio_read(const fs::path& exr) {
  const fs::path tif = exr.string() + ".oiio.tif";
  const std::string command =
      "oiiotool '" + exr.string() + "' -d float --compression none -o '" + tif.string() + "' >/dev/null 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  oiio_image o;
  o.names = oiio_channels(exr);
  const tiff_image t = read_tiff(tif);
  REQUIRE(t.width == static_cast<std::uint32_t>(k_w));
  REQUIRE(t.height == static_cast<std::uint32_t>(k_h));
  REQUIRE(t.bits == 32);
  REQUIRE(t.channels == o.names.size());
  const std::vector<float> all = as<float>(t.bytes);
  for (std::size_t c = 0; c < o.names.size(); ++c) {
    auto& v = o.data[o.names[c]];
    for (std::size_t k = c; k < all.size(); k += o.names.size()) v.push_back(all[k]);
  }
  return o;
}

// Skips (with a warning) without oiiotool, unless CI or
// LANDFORM_REQUIRE_REFERENCE asks for every independent check.
bool oiiotool_ready() {
  if (have_oiiotool()) return true;
  if (landform_test::reference_required()) FAIL("oiiotool not found (install openimageio-tools)");
  WARN("oiiotool not found (install openimageio-tools): EXR read back by OpenEXR's own reader only");
  return false;
}

}  // namespace

TEST_CASE("exr heights read back by OpenImageIO: float exactly, exr16 as the nearest half", "[formats][exr][oiio]") {
  if (!oiiotool_ready()) return;
  const temp_dir dir;
  const std::vector<float> h = heights();
  const oiio_image f = oiio_read(dir.write("h.exr", file("height.exr")));
  REQUIRE(f.names == std::vector<std::string>{"Y"});
  CHECK(f.data.at("Y") == h);  // bit for bit

  const oiio_image h16 = oiio_read(dir.write("h16.exr", file("height16.exr")));
  REQUIRE(h16.names == std::vector<std::string>{"Y"});
  const auto& v = h16.data.at("Y");
  REQUIRE(v.size() == h.size());
  std::size_t nearest = 0;
  for (std::size_t k = 0; k < h.size(); ++k) nearest += v[k] == static_cast<float>(Imath::half(h[k]));
  CHECK(nearest == h.size());
}

TEST_CASE("multi-channel exr (normal, splat) read back by OpenImageIO equals OpenEXR's reading",
          "[formats][exr][oiio]") {
  if (!oiiotool_ready()) return;
  const temp_dir dir;
  for (const char* name : {"normal.exr", "sf_0.exr", "sf_1.exr"}) {
    INFO(name);
    const fs::path path = dir.write(name, file(name));
    const oiio_image o = oiio_read(path);
    const exr_image e = read_exr(path);
    CHECK(o.names.size() == (std::string(name) == "normal.exr" ? 3u : 4u));
    for (const auto& channel : o.names) {
      INFO(channel);
      REQUIRE(e.data.count(channel) == 1);
      CHECK(o.data.at(channel) == e.data.at(channel));  // bit for bit, channel by channel
    }
  }
  // The splat weights as OpenImageIO reads them still sum to 1 in every cell.
  const oiio_image a = oiio_read(dir.write("a.exr", file("sf_0.exr")));
  const oiio_image b = oiio_read(dir.write("b.exr", file("sf_1.exr")));
  double worst = 0.0;
  for (std::size_t k = 0; k < static_cast<std::size_t>(k_w) * k_h; ++k) {
    double sum = 0.0;
    for (const char* c : {"R", "G", "B", "A"}) sum += a.data.at(c)[k] + b.data.at(c)[k];
    worst = std::max(worst, std::abs(sum - 1.0));
  }
  CHECK(worst < 1e-5);
}

TEST_CASE("encode_outputs: a sink gets every file as encoded, and the returned entries keep only descriptions",
          "[outputs][formats]") {
  const pipeline p = pipeline::build(formats_preset());
  const build_result r = p.run_full();
  const auto held = encode_outputs(p, r, 1);
  std::vector<encoded_output> sunk;
  const auto streamed = encode_outputs(p, r, 1, {}, {}, [&](const encoded_output& f) { sunk.push_back(f); });
  REQUIRE(streamed.size() == held.size());
  REQUIRE(sunk.size() == held.size());
  for (std::size_t k = 0; k < held.size(); ++k) {
    INFO(held[k].spec.file);
    CHECK(sunk[k].spec.file == held[k].spec.file);
    CHECK(sunk[k].bytes == held[k].bytes);
    CHECK(streamed[k].bytes.empty());
    CHECK(streamed[k].description == held[k].description);
  }
}
