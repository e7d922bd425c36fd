// OpenEXR encoder, in memory: scanline, ZIP compression, FLOAT or HALF.

#include <Imath/half.h>
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIO.h>
#include <ImfOutputFile.h>
#include <ImfStringAttribute.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

#include "landform/io/encode.hpp"

namespace landform {
namespace {

// A seekable in-memory output stream for Imf::OutputFile.
class memory_stream final : public Imf::OStream {
 public:
  explicit memory_stream(std::vector<std::uint8_t>& out) : Imf::OStream("landform"), m_out(out) {}
  void write(const char c[], int n) override {
    const auto count = static_cast<std::size_t>(n);
    if (m_position + count > m_out.size()) m_out.resize(m_position + count);
    std::memcpy(m_out.data() + m_position, c, count);
    m_position += count;
  }
  std::uint64_t tellp() override { return m_position; }
  void seekp(std::uint64_t position) override { m_position = static_cast<std::size_t>(position); }

 private:
  std::vector<std::uint8_t>& m_out;
  std::size_t m_position = 0;
};

std::vector<std::string> default_names(int channels) {
  switch (channels) {
    case 1:
      return {"Y"};
    case 2:
      return {"Y", "A"};
    case 3:
      return {"R", "G", "B"};
    default:
      return {"R", "G", "B", "A"};
  }
}

}  // namespace

std::vector<std::uint8_t> encode_exr(int width, int height, int channels, const float* samples, bool half,
                                     const std::vector<std::string>& names,
                                     const std::vector<std::pair<std::string, std::string>>& text,
                                     png_compression compression) {
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument("encode_exr: image size must be positive, got " + std::to_string(width) + " x " +
                                std::to_string(height));
  }
  if (samples == nullptr) throw std::invalid_argument("encode_exr: null pixel data");
  if (channels < 1 || channels > 4) {
    throw std::invalid_argument("encode_exr: 1 to 4 channels, got " + std::to_string(channels));
  }
  const std::vector<std::string> channel_names = names.empty() ? default_names(channels) : names;
  if (channel_names.size() != static_cast<std::size_t>(channels)) {
    throw std::invalid_argument("encode_exr: " + std::to_string(channel_names.size()) + " channel names for " +
                                std::to_string(channels) + " channels");
  }
  const std::size_t count =
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * static_cast<std::size_t>(channels);

  // Half samples are converted here (round to nearest even), so the file does
  // not depend on OpenEXR's own conversion path.
  std::vector<::half> halves;
  if (half) {
    halves.resize(count);
    for (std::size_t k = 0; k < count; ++k) halves[k] = ::half(samples[k]);
  }
  const Imf::PixelType type = half ? Imf::HALF : Imf::FLOAT;
  const std::size_t sample_bytes = half ? sizeof(::half) : sizeof(float);
  const std::size_t x_stride = sample_bytes * static_cast<std::size_t>(channels);
  const std::size_t y_stride = x_stride * static_cast<std::size_t>(width);
  const char* base = half ? reinterpret_cast<const char*>(halves.data()) : reinterpret_cast<const char*>(samples);

  std::vector<std::uint8_t> out;
  try {
    Imf::Header header(width, height);
    header.compression() = Imf::ZIP_COMPRESSION;
    // "default" leaves OpenEXR's own level, so files stay what they were.
    if (compression == png_compression::fast) header.zipCompressionLevel() = 1;
    if (compression == png_compression::best) header.zipCompressionLevel() = 9;
    header.lineOrder() = Imf::INCREASING_Y;
    for (const auto& [key, value] : text) {
      if (key == "Software") header.insert("software", Imf::StringAttribute(value));
      if (key == "Comment") header.insert("comments", Imf::StringAttribute(value));
    }
    // Channels are stored in name order; the frame buffer maps each name to its
    // interleaved position.
    Imf::FrameBuffer frame;
    for (int c = 0; c < channels; ++c) {
      header.channels().insert(channel_names[static_cast<std::size_t>(c)], Imf::Channel(type));
      frame.insert(
          channel_names[static_cast<std::size_t>(c)],
          Imf::Slice(type, const_cast<char*>(base + sample_bytes * static_cast<std::size_t>(c)), x_stride, y_stride));
    }
    memory_stream stream(out);
    Imf::OutputFile file(stream, header, 0);  // no worker threads: the bytes never depend on them
    file.setFrameBuffer(frame);
    file.writePixels(height);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("encode_exr: OpenEXR encoding failed: ") + e.what());
  }
  return out;
}

}  // namespace landform
