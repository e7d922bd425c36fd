#include "landform/io/encode_glb.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace landform {

namespace {

using json = nlohmann::json;

constexpr std::uint32_t k_magic = 0x46546C67;       // "glTF"
constexpr std::uint32_t k_chunk_json = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t k_chunk_bin = 0x004E4942;   // "BIN\0"
constexpr int k_float = 5126, k_uint = 5125;        // accessor componentType
constexpr int k_array_buffer = 34962, k_element_array_buffer = 34963;

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

template <class T>
void put_values(std::vector<std::uint8_t>& out, const std::vector<T>& values) {
  static_assert(sizeof(T) == 4);
  if constexpr (std::endian::native == std::endian::little) {
    const std::size_t at = out.size();
    out.resize(at + values.size() * 4);
    std::memcpy(out.data() + at, values.data(), values.size() * 4);
  } else {
    for (T v : values) put_u32(out, std::bit_cast<std::uint32_t>(v));
  }
}

// The per-component extremes of `values` taken `width` at a time.
template <class T>
std::pair<json, json> bounds(const std::vector<T>& values, std::size_t width) {
  json lo = json::array(), hi = json::array();
  for (std::size_t k = 0; k < width; ++k) {
    T mn = std::numeric_limits<T>::max(), mx = std::numeric_limits<T>::lowest();
    for (std::size_t i = k; i < values.size(); i += width) {
      mn = std::min(mn, values[i]);
      mx = std::max(mx, values[i]);
    }
    lo.push_back(mn);
    hi.push_back(mx);
  }
  return {lo, hi};
}

// Appends one tightly packed view and its accessor.
template <class T>
void add_attribute(json& doc, std::vector<std::uint8_t>& bin, const std::vector<T>& values, std::size_t width,
                   const char* type, int component, int target) {
  const std::size_t offset = bin.size();
  put_values(bin, values);
  const auto [lo, hi] = bounds(values, width);
  doc["bufferViews"].push_back(
      {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * 4}, {"target", target}});
  doc["accessors"].push_back({{"bufferView", doc["bufferViews"].size() - 1},
                              {"componentType", component},
                              {"count", values.size() / width},
                              {"type", type},
                              {"min", lo},
                              {"max", hi}});
}

json document(const std::vector<std::pair<std::string, std::string>>& text) {
  json extras = json::object();
  for (const auto& [key, value] : text) extras[key] = value;
  json doc = {{"asset", {{"version", "2.0"}, {"generator", "landform"}}},
              {"scene", 0},
              {"scenes", {{{"nodes", {0}}}}},
              {"nodes", {{{"mesh", 0}, {"name", "terrain"}}}},
              {"materials",
               {{{"name", "terrain"},
                 {"pbrMetallicRoughness",
                  {{"baseColorFactor", {0.8, 0.8, 0.8, 1.0}}, {"metallicFactor", 0.0}, {"roughnessFactor", 1.0}}}}}},
              {"meshes",
               {{{"name", "terrain"},
                 {"primitives",
                  {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}, {"TEXCOORD_0", 2}}},
                    {"indices", 3},
                    {"material", 0},
                    {"mode", 4}}}}}}},
              {"bufferViews", json::array()},
              {"accessors", json::array()}};
  if (!extras.empty()) doc["asset"]["extras"] = extras;
  return doc;
}

void put_chunk(std::vector<std::uint8_t>& out, std::uint32_t type, const std::uint8_t* data, std::size_t size,
               std::uint8_t pad) {
  const std::size_t padded = (size + 3) / 4 * 4;
  put_u32(out, static_cast<std::uint32_t>(padded));
  put_u32(out, type);
  out.insert(out.end(), data, data + size);
  out.insert(out.end(), padded - size, pad);
}

}  // namespace

std::vector<std::uint8_t> encode_glb(const terrain_mesh& mesh,
                                     const std::vector<std::pair<std::string, std::string>>& text) {
  if (mesh.vertex_count() == 0 || mesh.indices.empty()) throw std::invalid_argument("encode_glb: empty mesh");
  const std::size_t bin_size =
      (mesh.positions.size() + mesh.normals.size() + mesh.uvs.size() + mesh.indices.size()) * 4;
  if (bin_size > std::numeric_limits<std::uint32_t>::max() - 1024)
    throw std::length_error("encode_glb: " + std::to_string(bin_size) + " bytes of mesh data exceed a GLB's 4 GiB");
  json doc = document(text);
  std::vector<std::uint8_t> bin;
  bin.reserve(bin_size);
  add_attribute(doc, bin, mesh.positions, 3, "VEC3", k_float, k_array_buffer);
  add_attribute(doc, bin, mesh.normals, 3, "VEC3", k_float, k_array_buffer);
  add_attribute(doc, bin, mesh.uvs, 2, "VEC2", k_float, k_array_buffer);
  add_attribute(doc, bin, mesh.indices, 1, "SCALAR", k_uint, k_element_array_buffer);
  doc["buffers"] = {{{"byteLength", bin.size()}}};
  const std::string json_text = doc.dump();
  const std::size_t total = 12 + 8 + (json_text.size() + 3) / 4 * 4 + 8 + (bin.size() + 3) / 4 * 4;
  if (total > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("encode_glb: a GLB of " + std::to_string(total) + " bytes exceeds 4 GiB");
  std::vector<std::uint8_t> out;
  out.reserve(total);
  put_u32(out, k_magic);
  put_u32(out, 2);
  put_u32(out, static_cast<std::uint32_t>(total));
  put_chunk(out, k_chunk_json, reinterpret_cast<const std::uint8_t*>(json_text.data()), json_text.size(), ' ');
  put_chunk(out, k_chunk_bin, bin.data(), bin.size(), 0);
  return out;
}

}  // namespace landform
