// OpenEXR encoders: scanline, ZIP compression, FLOAT or HALF; in memory or
// sent to a sink once compressed.

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
#include <functional>
#include <limits>
#include <new>
#include <span>
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

// The file as OpenEXR writes it, held as compressed pieces for a sink: the
// header and line offset table (the prefix, which OpenEXR rewrites last with
// the chunks' offsets) in one buffer, then the chunks appended in separate
// pieces of about 256 KiB, so neither a second copy nor a buffer grown by
// doubling is ever held. Each chunk is compressed once.
class piece_stream final : public Imf::OStream {
 public:
  piece_stream() : Imf::OStream("landform") {}

  void write(const char c[], int n) override {
    const auto count = static_cast<std::size_t>(n);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(c);
    if (!m_sealed || m_position + count <= m_prefix.size()) {
      if (m_position + count > m_prefix.size()) m_prefix.resize(m_position + count);
      std::memcpy(m_prefix.data() + m_position, bytes, count);
    } else if (m_position == m_size) {
      append(bytes, count);
    } else {
      m_rewrote = true;  // OpenEXR's destructor swallows exceptions: send() reports it
      throw std::logic_error("stream_exr: OpenEXR rewrote a chunk");
    }
    m_position += count;
    m_size = std::max(m_size, m_position);
  }
  std::uint64_t tellp() override { return m_position; }
  void seekp(std::uint64_t position) override { m_position = static_cast<std::size_t>(position); }

  // Called once OpenEXR wrote the header and the (empty) offset table: later
  // writes past them are chunks.
  void seal() {
    m_sealed = true;
    m_size = m_prefix.size();
  }

  // Sends the prefix, then the chunk pieces, releasing each once sent.
  void send(const png_sink& sink) {
    if (m_rewrote) throw std::runtime_error("stream_exr: OpenEXR rewrote a chunk");
    sink(std::span<const std::uint8_t>(m_prefix));
    for (auto& piece : m_pieces) {
      sink(std::span<const std::uint8_t>(piece));
      std::vector<std::uint8_t>().swap(piece);
    }
  }

 private:
  static constexpr std::size_t k_piece = std::size_t{1} << 18;

  void append(const std::uint8_t* bytes, std::size_t count) {
    if (m_pieces.empty() || m_pieces.back().capacity() - m_pieces.back().size() < count) {
      m_pieces.emplace_back().reserve(std::max(k_piece, count));
    }
    m_pieces.back().insert(m_pieces.back().end(), bytes, bytes + count);
  }

  std::vector<std::uint8_t> m_prefix;
  std::vector<std::vector<std::uint8_t>> m_pieces;
  std::size_t m_position = 0;
  std::size_t m_size = 0;
  bool m_sealed = false;
  bool m_rewrote = false;
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

// What encode_exr and stream_exr were asked for.
struct exr_image {
  int width = 0;
  int height = 0;
  int channels = 0;
  const float* samples = nullptr;
  bool half = false;
  const std::vector<std::string>& names;
  const std::vector<std::pair<std::string, std::string>>& text;
  png_compression compression = png_compression::standard;
  const char* what = "";
};

// Throws std::invalid_argument for what the EXR encoders reject; the channel
// names to write.
std::vector<std::string> checked_names(const exr_image& im) {
  const std::string what = im.what;
  if (im.width <= 0 || im.height <= 0) {
    throw std::invalid_argument(what + ": image size must be positive, got " + std::to_string(im.width) + " x " +
                                std::to_string(im.height));
  }
  if (im.samples == nullptr) throw std::invalid_argument(what + ": null pixel data");
  if (im.channels < 1 || im.channels > 4) {
    throw std::invalid_argument(what + ": 1 to 4 channels, got " + std::to_string(im.channels));
  }
  std::vector<std::string> names = im.names.empty() ? default_names(im.channels) : im.names;
  if (names.size() != static_cast<std::size_t>(im.channels)) {
    throw std::invalid_argument(what + ": " + std::to_string(names.size()) + " channel names for " +
                                std::to_string(im.channels) + " channels");
  }
  return names;
}

Imf::Header exr_header(const exr_image& im) {
  Imf::Header header(im.width, im.height);
  header.compression() = Imf::ZIP_COMPRESSION;
  // "default" leaves OpenEXR's own level, so files stay what they were.
  if (im.compression == png_compression::fast) header.zipCompressionLevel() = 1;
  if (im.compression == png_compression::best) header.zipCompressionLevel() = 9;
  header.lineOrder() = Imf::INCREASING_Y;
  for (const auto& [key, value] : im.text) {
    if (key == "Software") header.insert("software", Imf::StringAttribute(value));
    if (key == "Comment") header.insert("comments", Imf::StringAttribute(value));
  }
  return header;
}

// Writes `im` to `stream` with OpenEXR; `opened`, when given, is called once
// the header and the empty line offset table are written.
void write_exr(const exr_image& im, Imf::OStream& stream, const std::function<void()>& opened = {}) {
  const std::vector<std::string> channel_names = checked_names(im);
  const Imf::PixelType type = im.half ? Imf::HALF : Imf::FLOAT;
  const std::size_t sample_bytes = im.half ? sizeof(::half) : sizeof(float);
  const std::size_t x_stride = sample_bytes * static_cast<std::size_t>(im.channels);
  const std::size_t y_stride = x_stride * static_cast<std::size_t>(im.width);
  // The frame buffer of rows [first, ...) whose sample (x, y) is at
  // `rows` + (y - first) * y_stride + x * x_stride.
  const auto frame_at = [&](const char* rows, int first) {
    Imf::FrameBuffer frame;
    const char* base = rows - static_cast<std::ptrdiff_t>(y_stride) * first;
    for (int c = 0; c < im.channels; ++c) {
      const auto k = static_cast<std::size_t>(c);
      frame.insert(channel_names[k], Imf::Slice(type, const_cast<char*>(base + sample_bytes * k), x_stride, y_stride));
    }
    return frame;
  };
  try {
    Imf::Header header = exr_header(im);
    // Channels are stored in name order; the frame buffer maps each name to its
    // interleaved position.
    for (int c = 0; c < im.channels; ++c)
      header.channels().insert(channel_names[static_cast<std::size_t>(c)], Imf::Channel(type));
    Imf::OutputFile file(stream, header, 0);  // no worker threads: the bytes never depend on them
    if (opened) opened();
    if (!im.half) {
      file.setFrameBuffer(frame_at(reinterpret_cast<const char*>(im.samples), 0));
      file.writePixels(im.height);
      return;
    }
    // Half samples are converted here (round to nearest even; beyond the
    // largest finite half clamped to it, not written as infinity), so the
    // file does not depend on OpenEXR's own conversion path; a block of rows at a
    // time, so the half image is never held whole (the chunks are the same).
    constexpr int k_block = 256;
    const std::size_t row_samples = static_cast<std::size_t>(im.width) * static_cast<std::size_t>(im.channels);
    std::vector<::half> halves(row_samples * static_cast<std::size_t>(std::min(k_block, std::max(1, im.height))));
    for (int first = 0; first < im.height; first += k_block) {
      const int rows = std::min(k_block, im.height - first);
      const float* src = im.samples + static_cast<std::size_t>(first) * row_samples;
      for (std::size_t k = 0; k < static_cast<std::size_t>(rows) * row_samples; ++k)
        halves[k] = ::half(std::clamp(src[k], -k_half_max, k_half_max));
      file.setFrameBuffer(frame_at(reinterpret_cast<const char*>(halves.data()), first));
      file.writePixels(rows);
    }
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(im.what) + ": OpenEXR encoding failed: " + e.what());
  }
}

}  // namespace

std::vector<std::uint8_t> encode_exr(int width, int height, int channels, const float* samples, bool half,
                                     const std::vector<std::string>& names,
                                     const std::vector<std::pair<std::string, std::string>>& text,
                                     png_compression compression) {
  std::vector<std::uint8_t> out;
  memory_stream stream(out);
  write_exr({width, height, channels, samples, half, names, text, compression, "encode_exr"}, stream);
  return out;
}

void stream_exr(int width, int height, int channels, const float* samples, bool half, const png_sink& sink,
                const std::vector<std::string>& names, const std::vector<std::pair<std::string, std::string>>& text,
                png_compression compression) {
  if (!sink) throw std::invalid_argument("stream_exr: empty sink");
  piece_stream stream;
  write_exr({width, height, channels, samples, half, names, text, compression, "stream_exr"}, stream,
            [&stream] { stream.seal(); });
  stream.send(sink);
}

}  // namespace landform
