#include "landform/io/png_encode.hpp"

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <stdexcept>
#include <string>

#include "landform/core/parallel.hpp"

namespace landform {
namespace {

using byte_vector = std::vector<std::uint8_t>;

// About this many filtered bytes per deflate chunk: big enough that the
// chunk boundaries cost little ratio (each chunk is primed with the previous
// 32 KiB anyway), small enough that a 4096-row map has dozens of chunks.
constexpr std::size_t k_chunk_bytes = std::size_t{256} * 1024;
// deflate's window: the dictionary each chunk is primed with.
constexpr std::size_t k_window = 32768;
// zlib counts input in uInt; a chunk is at most one such row (plus its filter byte).
constexpr std::size_t k_max_row_bytes = std::size_t{1} << 30;

// ---------------------------------------------------------------- checks

bool is_keyword_char(unsigned char c) {
  return (c >= 32 && c <= 126) || c >= 161;
}

void check_text(const std::vector<std::pair<std::string, std::string>>& text) {
  for (const auto& [key, value] : text) {
    const std::string where = "PNG tEXt keyword '" + key + "'";
    if (key.empty() || key.size() > 79) throw std::invalid_argument(where + ": must be 1 to 79 characters");
    for (std::size_t i = 0; i < key.size(); ++i) {
      const auto c = static_cast<unsigned char>(key[i]);
      if (!is_keyword_char(c)) throw std::invalid_argument(where + ": must be printable Latin-1");
      if (c == ' ' && (i == 0 || i + 1 == key.size() || key[i + 1] == ' ')) {
        throw std::invalid_argument(where + ": no leading, trailing or consecutive spaces");
      }
    }
    if (value.find('\0') != std::string::npos) throw std::invalid_argument(where + ": value contains NUL");
  }
}

// Bytes per row (without the filter byte); throws for bad arguments.
std::size_t checked_row_bytes(int width, int height, int channels, int bytes_per_sample, const void* samples) {
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument("encode_png: image size must be positive, got " + std::to_string(width) + " x " +
                                std::to_string(height));
  }
  if (channels < 1 || channels > 4) {
    throw std::invalid_argument("encode_png: channels must be 1 to 4, got " + std::to_string(channels));
  }
  if (samples == nullptr) throw std::invalid_argument("encode_png: null pixel data");
  const std::size_t row =
      static_cast<std::size_t>(width) * static_cast<std::size_t>(channels) * static_cast<std::size_t>(bytes_per_sample);
  if (row > k_max_row_bytes) {
    throw std::invalid_argument("encode_png: a row of " + std::to_string(width) + " pixels is longer than 1 GiB");
  }
  return row;
}

// Samples per row; 0 for a bad size (checked_row_bytes reports it).
std::size_t sample_count(int width, int channels) {
  return width > 0 && channels > 0 ? static_cast<std::size_t>(width) * static_cast<std::size_t>(channels) : 0;
}

// ---------------------------------------------------------------- filtering

// Paeth's predictor (PNG spec 9.4) of `n` - `bpp` bytes, each from its left,
// up and up-left neighbours, with the spec's distances written without the
// intermediate p = left + up - up_left (|p - left| = |up - up_left| and so on)
// and the choice as selects rather than branches: the same predictor, in a
// loop the compiler vectorises (encoding reads only raw bytes, so there is no
// chain from one byte to the next).
void paeth_filter(const std::uint8_t* raw, const std::uint8_t* prev, std::size_t n, std::size_t bpp,
                  std::uint8_t* out) {
  for (std::size_t i = bpp; i < n; ++i) {
    const int left = raw[i - bpp], up = prev[i], up_left = prev[i - bpp];
    const int pa = std::abs(up - up_left), pb = std::abs(left - up_left), pc = std::abs(left + up - 2 * up_left);
    const int predictor = ((pa <= pb) & (pa <= pc)) ? left : (pb <= pc ? up : up_left);
    out[i] = static_cast<std::uint8_t>(raw[i] - predictor);
  }
}

// Writes the filter byte and `n` filtered bytes of `raw` to `out`; `prev` is
// the row above (all zeros for the first row), `bpp` the bytes per pixel.
void filter_row(png_filter filter, const std::uint8_t* raw, const std::uint8_t* prev, std::size_t n, std::size_t bpp,
                std::uint8_t* out) {
  out[0] = static_cast<std::uint8_t>(filter);
  std::uint8_t* o = out + 1;
  switch (filter) {
    case png_filter::none:
      std::memcpy(o, raw, n);
      break;
    case png_filter::sub:
      for (std::size_t i = 0; i < n; ++i) o[i] = static_cast<std::uint8_t>(raw[i] - (i >= bpp ? raw[i - bpp] : 0));
      break;
    case png_filter::up:
      for (std::size_t i = 0; i < n; ++i) o[i] = static_cast<std::uint8_t>(raw[i] - prev[i]);
      break;
    case png_filter::average:
      for (std::size_t i = 0; i < n; ++i) {
        const int left = i >= bpp ? raw[i - bpp] : 0;
        o[i] = static_cast<std::uint8_t>(raw[i] - ((left + prev[i]) >> 1));
      }
      break;
    case png_filter::paeth:
      for (std::size_t i = 0; i < bpp && i < n; ++i) o[i] = static_cast<std::uint8_t>(raw[i] - prev[i]);
      paeth_filter(raw, prev, n, bpp, o);
      break;
  }
}

// Row `y` of a block of rows as PNG bytes: 8-bit samples as they are,
// 16-bit ones big-endian (into `scratch`, which must hold the row).
const std::uint8_t* row_bytes_of(const std::uint8_t* samples, std::size_t row, int y, std::uint8_t*) {
  return samples + static_cast<std::size_t>(y) * row;
}

const std::uint8_t* row_bytes_of(const std::uint16_t* samples, std::size_t row, int y, std::uint8_t* scratch) {
  const std::size_t count = row / 2;
  const std::uint16_t* source = samples + static_cast<std::size_t>(y) * count;
  for (std::size_t i = 0; i < count; ++i) {
    scratch[2 * i] = static_cast<std::uint8_t>(source[i] >> 8);
    scratch[2 * i + 1] = static_cast<std::uint8_t>(source[i] & 0xFFu);
  }
  return scratch;
}

// The buffers one task reuses from chunk to chunk (a fresh 256 KiB buffer a
// chunk cost more in page faults than the filtering itself).
struct filter_scratch {
  byte_vector zeros, a, b;
};

// Filters rows [first, last) of `block` (its row 0 is image row `first` - 1
// when `first` > 0, else `first`) into `filtered`, one row of row + 1 bytes
// after another.
template <class T>
void filter_rows(const T* block, std::size_t row, std::size_t bpp, int first, int last, png_filter filter,
                 std::uint8_t* filtered, filter_scratch& buffers) {
  buffers.zeros.assign(row, 0);
  buffers.a.resize(sizeof(T) > 1 ? row : 0);
  buffers.b.resize(sizeof(T) > 1 ? row : 0);
  std::uint8_t* scratch = buffers.a.data();
  std::uint8_t* scratch_prev = buffers.b.data();
  const int base = first > 0 ? first - 1 : first;
  const std::uint8_t* prev = first > 0 ? row_bytes_of(block, row, 0, scratch_prev) : buffers.zeros.data();
  for (int y = first; y < last; ++y) {
    const std::uint8_t* raw = row_bytes_of(block, row, y - base, scratch);
    filter_row(filter, raw, prev, row, bpp, filtered + static_cast<std::size_t>(y - first) * (row + 1));
    prev = raw;
    std::swap(scratch, scratch_prev);
  }
}

// Where the encoder gets its raw rows: in place from the whole image, or on
// demand from a row source into a task's own buffer.
template <class T>
struct row_supply {
  const T* samples = nullptr;                 ///< the whole image, or null
  const png_row_source<T>* source = nullptr;  ///< used when samples is null
  std::size_t row_samples = 0;

  // Rows [first, last) as one block of samples.
  const T* rows(int first, int last, std::vector<T>& scratch) const {
    if (samples != nullptr) return samples + static_cast<std::size_t>(first) * row_samples;
    scratch.resize(static_cast<std::size_t>(last - first) * row_samples);
    (*source)(first, last, scratch.data());
    return scratch.data();
  }
};

// ---------------------------------------------------------------- deflate

// One way to deflate a chunk: zlib at a level and strategy, or ISA-L's igzip
// (Intel's deflate, vectorised) at a level.
struct deflate_method {
  enum class library { zlib, igzip };
  library lib;
  int level;
  int strategy;  ///< zlib only
};

// The methods each setting tries on every chunk; the smallest piece wins (the
// first on a tie), so the bytes depend on the data alone. Measured on 2048^2
// Paeth-filtered maps (docs/maps.md): Z_RLE (matches at distance 1 only) is
// 4 to 9 times faster than level 6 and 3 to 9 % smaller on heights and normal
// maps, whose filtered rows are runs of small residuals; shaded-relief
// previews have longer repeats, where level 3 finds 6 % more than Z_RLE (and
// level 9's lazy matching sometimes less than level 3). igzip level 1 writes
// the same size as Z_RLE on a 4096^2 normal map at 5 to 6 times its speed;
// its bytes are the same on every x86-64 CPU with SSE4.2, whatever its
// vector width (its levels 0 and 1; level 3 differs between AVX2 and
// AVX-512), so only `fast` uses it and `default` and `best` stay zlib's.
std::vector<deflate_method> deflate_methods(png_compression c) {
  using lib = deflate_method::library;
  switch (c) {
    case png_compression::fast:
      return {{lib::igzip, 1, 0}};
    case png_compression::best:
      return {{lib::zlib, 1, Z_RLE},
              {lib::zlib, 3, Z_DEFAULT_STRATEGY},
              {lib::zlib, 9, Z_DEFAULT_STRATEGY},
              {lib::zlib, 9, Z_FILTERED}};
    default:
      return {{lib::zlib, 1, Z_RLE}, {lib::zlib, 3, Z_DEFAULT_STRATEGY}};
  }
}

// The two zlib header bytes: deflate, 32 KiB window, FLEVEL (informative
// only: 0 fastest, 2 default, 3 maximum), FCHECK so that the pair is a
// multiple of 31.
std::pair<std::uint8_t, std::uint8_t> zlib_header(png_compression c) {
  const unsigned cmf = 0x78;
  const unsigned flevel = c == png_compression::fast ? 0u : c == png_compression::best ? 3u : 2u;
  unsigned flg = flevel << 6;
  flg += 31 - ((cmf * 256 + flg) % 31);
  return {static_cast<std::uint8_t>(cmf), static_cast<std::uint8_t>(flg)};
}

// Deflates one chunk at a time into raw deflate: restart() primes a new
// stream with the window before the chunk, run() deflates the chunk ending
// with a sync flush (an empty stored block, byte-aligned, so the pieces join)
// or, for the last chunk, the final block.
class deflater {
 public:
  deflater() = default;
  deflater(const deflater&) = delete;
  deflater& operator=(const deflater&) = delete;
  deflater(deflater&&) = delete;
  deflater& operator=(deflater&&) = delete;
  virtual ~deflater() = default;

  // A new raw stream primed with the `size` bytes at `dictionary`.
  virtual void restart(const std::uint8_t* dictionary, std::size_t size) = 0;
  // Deflates `size` bytes into `out` (grown as needed, never shrunk: its
  // size is the room); returns the bytes written.
  virtual std::size_t run(const std::uint8_t* input, std::size_t size, bool last, byte_vector& out) = 0;
};

// zlib's raw-deflate z_stream, reset for each chunk rather than made anew
// (deflateInit2 allocates some 400 KiB that a new stream would fault in
// again; deflateReset leaves the stream as deflateInit2 does, so the bytes
// are the same).
class zlib_deflater final : public deflater {
 public:
  explicit zlib_deflater(deflate_method method) {
    if (deflateInit2(&m_stream, method.level, Z_DEFLATED, -15, 8, method.strategy) != Z_OK) {
      throw std::runtime_error("encode_png: zlib deflateInit2 failed");
    }
  }
  zlib_deflater(const zlib_deflater&) = delete;
  zlib_deflater& operator=(const zlib_deflater&) = delete;
  zlib_deflater(zlib_deflater&&) = delete;
  zlib_deflater& operator=(zlib_deflater&&) = delete;
  ~zlib_deflater() override { deflateEnd(&m_stream); }

  void restart(const std::uint8_t* dictionary, std::size_t size) override {
    if (deflateReset(&m_stream) != Z_OK) throw std::runtime_error("encode_png: zlib deflateReset failed");
    if (size > 0 && deflateSetDictionary(&m_stream, dictionary, static_cast<uInt>(size)) != Z_OK) {
      throw std::runtime_error("encode_png: zlib deflateSetDictionary failed");
    }
  }

  std::size_t run(const std::uint8_t* input, std::size_t size, bool last, byte_vector& out) override {
    const std::size_t room = deflateBound(&m_stream, static_cast<uLong>(size)) + 64;
    if (out.size() < room) out.resize(room);
    m_stream.next_in = const_cast<Bytef*>(input);  // zlib does not write through next_in
    m_stream.avail_in = static_cast<uInt>(size);
    const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
    std::size_t used = 0;
    for (;;) {
      m_stream.next_out = out.data() + used;
      m_stream.avail_out = static_cast<uInt>(out.size() - used);
      const int rc = deflate(&m_stream, flush);
      used = out.size() - m_stream.avail_out;
      if (rc == Z_STREAM_END) break;
      if (rc != Z_OK && rc != Z_BUF_ERROR) throw std::runtime_error("encode_png: zlib deflate failed");
      if (m_stream.avail_out == 0) {
        out.resize(out.size() * 2);
        continue;
      }
      if (!last && m_stream.avail_in == 0) break;  // flushed, with room to spare
    }
    return used;
  }

 private:
  z_stream m_stream{};
};

// ISA-L's igzip (Intel's deflate; libisal, Debian libisal-dev) at level 1,
// the only level used (see deflate_methods): about Z_RLE's size on runs of
// small residuals at a fifth of its time. The level buffer is sized for
// level 1 and kept from chunk to chunk.
class igzip_deflater final : public deflater {
 public:
  explicit igzip_deflater(deflate_method method) : m_buffer(ISAL_DEF_LVL1_DEFAULT) {
    if (method.level != 1) throw std::logic_error("encode_png: igzip is used at level 1 only");
  }

  void restart(const std::uint8_t* dictionary, std::size_t size) override {
    isal_deflate_init(&m_stream);
    m_stream.level = 1;
    m_stream.level_buf = m_buffer.data();
    m_stream.level_buf_size = static_cast<std::uint32_t>(m_buffer.size());
    m_stream.gzip_flag = IGZIP_DEFLATE;
    // isal_deflate_set_dict copies the window; it does not write through it.
    if (size > 0 && isal_deflate_set_dict(&m_stream, const_cast<std::uint8_t*>(dictionary),
                                          static_cast<std::uint32_t>(size)) != COMP_OK) {
      throw std::runtime_error("encode_png: igzip isal_deflate_set_dict failed");
    }
  }

  std::size_t run(const std::uint8_t* input, std::size_t size, bool last, byte_vector& out) override {
    // Stored blocks bound the worst case: 5 bytes per 64 KiB block, plus the flush.
    const std::size_t room = size + size / 8192 + 1024;
    if (out.size() < room) out.resize(room);
    m_stream.next_in = const_cast<std::uint8_t*>(input);  // igzip does not write through next_in
    m_stream.avail_in = static_cast<std::uint32_t>(size);
    m_stream.end_of_stream = last ? 1 : 0;
    m_stream.flush = last ? NO_FLUSH : SYNC_FLUSH;
    std::size_t used = 0;
    for (;;) {
      m_stream.next_out = out.data() + used;
      m_stream.avail_out = static_cast<std::uint32_t>(out.size() - used);
      if (isal_deflate(&m_stream) != COMP_OK) throw std::runtime_error("encode_png: igzip isal_deflate failed");
      used = out.size() - m_stream.avail_out;
      const bool done =
          last ? m_stream.internal_state.state == ZSTATE_END : m_stream.avail_in == 0 && m_stream.avail_out > 0;
      if (done) break;
      if (m_stream.avail_out == 0) out.resize(out.size() * 2);
    }
    return used;
  }

 private:
  std::vector<std::uint8_t> m_buffer;
  isal_zstream m_stream{};
};

std::unique_ptr<deflater> make_deflater(deflate_method method) {
  if (method.lib == deflate_method::library::igzip) return std::make_unique<igzip_deflater>(method);
  return std::make_unique<zlib_deflater>(method);
}

// What one task keeps from chunk to chunk: a deflater per method and the
// buffers, so a chunk allocates only its finished piece.
template <class T>
struct chunk_workspace {
  explicit chunk_workspace(const std::vector<deflate_method>& methods) : outputs(methods.size()) {
    for (const auto& m : methods) deflaters.push_back(make_deflater(m));
  }
  std::vector<std::unique_ptr<deflater>> deflaters;
  std::vector<byte_vector> outputs;  ///< one per deflater
  std::vector<T> samples;
  byte_vector filtered;
  filter_scratch filter;

  // `size` filtered bytes from `begin` deflated by each method, primed with
  // the `dictionary` bytes before `begin`; the smallest piece (the first of
  // equal ones). Each piece ends in a sync flush (or the final block), so
  // pieces of different methods join into one valid stream.
  byte_vector smallest_piece(const std::uint8_t* begin, std::size_t size, std::size_t dictionary, bool last) {
    std::size_t best = 0, best_size = 0;
    for (std::size_t m = 0; m < deflaters.size(); ++m) {
      deflaters[m]->restart(begin - dictionary, dictionary);
      const std::size_t used = deflaters[m]->run(begin, size, last, outputs[m]);
      if (m == 0 || used < best_size) {
        best = m;
        best_size = used;
      }
    }
    return {outputs[best].begin(), outputs[best].begin() + static_cast<std::ptrdiff_t>(best_size)};
  }
};

// Workspaces handed to the tasks: one per thread at most, whichever thread
// runs which chunk (a workspace holds no result, so the bytes do not depend
// on it).
template <class T>
class workspace_pool {
 public:
  explicit workspace_pool(const std::vector<deflate_method>& methods) : m_methods(methods) {}

  std::unique_ptr<chunk_workspace<T>> take() {
    {
      const std::lock_guard lock(m_mutex);
      if (!m_free.empty()) {
        auto w = std::move(m_free.back());
        m_free.pop_back();
        return w;
      }
    }
    return std::make_unique<chunk_workspace<T>>(m_methods);
  }
  void give_back(std::unique_ptr<chunk_workspace<T>> w) {
    const std::lock_guard lock(m_mutex);
    m_free.push_back(std::move(w));
  }

 private:
  const std::vector<deflate_method>& m_methods;
  std::mutex m_mutex;
  std::vector<std::unique_ptr<chunk_workspace<T>>> m_free;
};

// ---------------------------------------------------------------- chunks

void put_be32(byte_vector& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 24));
  out.push_back(static_cast<std::uint8_t>((v >> 16) & 0xFFu));
  out.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFFu));
  out.push_back(static_cast<std::uint8_t>(v & 0xFFu));
}

// A PNG chunk: length, type, the parts of its data in order, CRC.
void put_chunk(byte_vector& out, const char (&type)[5],
               std::initializer_list<std::pair<const std::uint8_t*, std::size_t>> parts) {
  std::size_t length = 0;
  for (const auto& part : parts) length += part.second;
  put_be32(out, static_cast<std::uint32_t>(length));
  const std::size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  for (const auto& part : parts) out.insert(out.end(), part.first, part.first + part.second);
  const auto crc = crc32(0L, out.data() + start, static_cast<uInt>(out.size() - start));
  put_be32(out, static_cast<std::uint32_t>(crc));
}

// One deflate chunk, filtered and compressed on its own: the deflate piece,
// the Adler-32 of its filtered bytes and the CRC of its IDAT chunk so far
// (type, zlib header for the first; the last adds the trailer).
struct deflated_chunk {
  byte_vector piece;
  uLong adler = 0;
  uLong crc = 0;
  std::size_t filtered_bytes = 0;
};

// The signature, IHDR and the tEXt chunks: everything before the image data.
byte_vector png_head(int width, int height, int channels, int bit_depth,
                     const std::vector<std::pair<std::string, std::string>>& text) {
  byte_vector out;
  static constexpr std::uint8_t k_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  out.insert(out.end(), k_signature, k_signature + 8);

  byte_vector ihdr;
  put_be32(ihdr, static_cast<std::uint32_t>(width));
  put_be32(ihdr, static_cast<std::uint32_t>(height));
  static constexpr std::uint8_t k_colour_type[5] = {0, 0, 4, 2, 6};
  ihdr.push_back(static_cast<std::uint8_t>(bit_depth));
  ihdr.push_back(k_colour_type[channels]);
  ihdr.insert(ihdr.end(), {0, 0, 0});  // deflate, adaptive filtering method, no interlace
  put_chunk(out, "IHDR", {{ihdr.data(), ihdr.size()}});

  for (const auto& [key, value] : text) {
    static constexpr std::uint8_t k_nul = 0;
    put_chunk(out, "tEXt",
              {{reinterpret_cast<const std::uint8_t*>(key.data()), key.size()},
               {&k_nul, 1},
               {reinterpret_cast<const std::uint8_t*>(value.data()), value.size()}});
  }
  return out;
}

// Hands finished chunks to the sink as IDAT chunks, in chunk order, as soon
// as a chunk and all before it are done: the task that completes the next
// chunk writes it (and any later ones already waiting), one task at a time,
// while the other tasks go on deflating rather than wait for the write. One
// IDAT per chunk: the first starts with the zlib header, the last ends with
// the Adler-32 of all the filtered bytes, combined in chunk order.
class chunk_emitter {
 public:
  chunk_emitter(int chunks, const std::uint8_t (&header)[2], const png_sink& sink)
      : m_waiting(static_cast<std::size_t>(chunks)),
        m_ready(static_cast<std::size_t>(chunks), 0),
        m_header{header[0], header[1]},
        m_sink(sink) {}

  // Chunk `c` is deflated: writes it now if it is the next one, else leaves
  // it for the task writing the chunks before it. After a failure (fail(),
  // or the sink threw) nothing more is written.
  void done(int c, deflated_chunk chunk) {
    std::unique_lock lock(m_mutex);
    if (m_failed) return;
    m_waiting[static_cast<std::size_t>(c)] = std::move(chunk);
    m_ready[static_cast<std::size_t>(c)] = 1;
    if (m_writing) return;
    m_writing = true;
    try {
      while (!m_failed && m_next < static_cast<int>(m_ready.size()) && m_ready[static_cast<std::size_t>(m_next)] != 0) {
        deflated_chunk next = std::move(m_waiting[static_cast<std::size_t>(m_next)]);
        const int index = m_next;
        lock.unlock();
        write(index, next);
        lock.lock();
        ++m_next;
      }
    } catch (...) {
      if (!lock.owns_lock()) lock.lock();
      m_failed = true;
      m_writing = false;
      throw;
    }
    m_writing = false;
  }

  // A task failed: later chunks are not written (their tasks may stop).
  void fail() {
    const std::lock_guard lock(m_mutex);
    m_failed = true;
  }
  [[nodiscard]] bool failed() {
    const std::lock_guard lock(m_mutex);
    return m_failed;
  }
  // Every chunk went to the sink.
  [[nodiscard]] bool complete() {
    const std::lock_guard lock(m_mutex);
    return !m_failed && m_next == static_cast<int>(m_ready.size());
  }

 private:
  // Only the writing task runs this, so m_adler needs no lock.
  void write(int c, deflated_chunk& chunk) {
    const bool first = c == 0, last = c + 1 == static_cast<int>(m_ready.size());
    m_adler = first ? chunk.adler : adler32_combine(m_adler, chunk.adler, static_cast<z_off_t>(chunk.filtered_bytes));
    byte_vector head;
    put_be32(head, static_cast<std::uint32_t>((first ? 2 : 0) + chunk.piece.size() + (last ? 4 : 0)));
    head.insert(head.end(), {'I', 'D', 'A', 'T'});
    if (first) head.insert(head.end(), m_header, m_header + 2);
    m_sink(head);
    m_sink(chunk.piece);
    byte_vector tail;
    if (last) {
      put_be32(tail, static_cast<std::uint32_t>(m_adler));
      chunk.crc = crc32(chunk.crc, tail.data(), 4);
    }
    put_be32(tail, static_cast<std::uint32_t>(chunk.crc));
    m_sink(tail);
  }

  std::mutex m_mutex;
  std::vector<deflated_chunk> m_waiting;  ///< done, not yet written
  std::vector<char> m_ready;
  int m_next = 0;          ///< the next chunk to write
  bool m_writing = false;  ///< a task is in the write loop
  bool m_failed = false;
  uLong m_adler = 0;
  std::uint8_t m_header[2];
  const png_sink& m_sink;
};

// Where the deflate chunks lie in the image.
struct chunk_layout {
  int chunk_rows = 0, chunks = 0, height = 0;
  std::size_t row = 0;  ///< bytes per row, without the filter byte
  std::size_t bpp = 0;  ///< bytes per pixel
};

// Filters and deflates chunk `c` (rows [c * chunk_rows, ...)) on its own.
// Each chunk filters its own rows, plus the rows before it that give the
// 32 KiB it is primed with (the same filtered bytes the chunk before makes),
// so no task waits for another and the filtered image is never held whole.
template <class T>
deflated_chunk deflate_chunk(int c, const chunk_layout& layout, const row_supply<T>& supply, png_filter filter,
                             const std::uint8_t (&header)[2], chunk_workspace<T>& w) {
  const auto [chunk_rows, chunks, height, row, bpp] = layout;
  const std::size_t stride = row + 1;
  const int first = c * chunk_rows, last = std::min(height, (c + 1) * chunk_rows);
  const std::size_t dictionary = std::min(static_cast<std::size_t>(first) * stride, k_window);
  const int from = first - static_cast<int>((dictionary + stride - 1) / stride);
  const T* block = supply.rows(from > 0 ? from - 1 : from, last, w.samples);
  w.filtered.resize(static_cast<std::size_t>(last - from) * stride);
  filter_rows(block, row, bpp, from, last, filter, w.filtered.data(), w.filter);
  const std::uint8_t* begin = w.filtered.data() + static_cast<std::size_t>(first - from) * stride;
  const std::size_t size = static_cast<std::size_t>(last - first) * stride;
  deflated_chunk out;
  out.piece = w.smallest_piece(begin, size, dictionary, c + 1 == chunks);
  out.adler = adler32(adler32(0L, nullptr, 0), begin, static_cast<uInt>(size));
  out.filtered_bytes = size;
  out.crc = crc32(0L, reinterpret_cast<const Bytef*>("IDAT"), 4);
  if (c == 0) out.crc = crc32(out.crc, header, 2);
  out.crc = crc32(out.crc, out.piece.data(), static_cast<uInt>(out.piece.size()));
  return out;
}

template <class T>
void stream_any(int width, int height, int channels, const row_supply<T>& supply, const png_sink& sink,
                const std::vector<std::pair<std::string, std::string>>& text, const png_options& options) {
  const std::size_t row = checked_row_bytes(
      width, height, channels, static_cast<int>(sizeof(T)),
      supply.samples != nullptr ? static_cast<const void*>(supply.samples) : static_cast<const void*>(supply.source));
  check_text(text);
  if (!sink) throw std::invalid_argument("stream_png: empty sink");
  const std::size_t bpp = static_cast<std::size_t>(channels) * sizeof(T);
  const auto methods = deflate_methods(options.compression);
  const auto [cmf, flg] = zlib_header(options.compression);
  const std::uint8_t header[2] = {cmf, flg};

  sink(png_head(width, height, channels, static_cast<int>(8 * sizeof(T)), text));
  const int chunk_rows = png_chunk_rows(row);
  const chunk_layout layout{chunk_rows, (height + chunk_rows - 1) / chunk_rows, height, row, bpp};
  const int chunks = layout.chunks;
  chunk_emitter emitter(chunks, header, sink);
  workspace_pool<T> pool(methods);
  parallel_tasks(chunks, options.nthreads, [&](int c) {
    if (emitter.failed()) return;  // the file is lost: spare the work
    try {
      std::unique_ptr<chunk_workspace<T>> w = pool.take();
      deflated_chunk chunk = deflate_chunk(c, layout, supply, options.filter, header, *w);
      pool.give_back(std::move(w));
      emitter.done(c, std::move(chunk));
    } catch (...) {
      emitter.fail();
      throw;
    }
  });
  if (!emitter.complete()) throw std::logic_error("stream_png: a chunk was not written");
  byte_vector end;
  put_chunk(end, "IEND", {});
  sink(end);
}

// stream_any's pieces joined into one vector, allocated once at the end
// (the pieces are held meanwhile, as the encoder held its chunks before).
template <class T>
byte_vector encode_any(int width, int height, int channels, const row_supply<T>& supply,
                       const std::vector<std::pair<std::string, std::string>>& text, const png_options& options) {
  std::vector<byte_vector> pieces;
  stream_any(
      width, height, channels, supply,
      [&pieces](std::span<const std::uint8_t> piece) { pieces.emplace_back(piece.begin(), piece.end()); }, text,
      options);
  std::size_t total = 0;
  for (const auto& piece : pieces) total += piece.size();
  byte_vector out;
  out.reserve(total);
  for (auto& piece : pieces) {
    out.insert(out.end(), piece.begin(), piece.end());
    byte_vector().swap(piece);
  }
  return out;
}

}  // namespace

const char* compression_name(png_compression c) {
  switch (c) {
    case png_compression::fast:
      return "fast";
    case png_compression::best:
      return "best";
    default:
      return "default";
  }
}

int png_chunk_rows(std::size_t row_bytes) {
  const std::size_t rows = k_chunk_bytes / (row_bytes + 1);
  return static_cast<int>(std::clamp<std::size_t>(rows, 1, INT_MAX));
}

std::vector<std::uint8_t> encode_png(int width, int height, int channels, const std::uint8_t* samples,
                                     const std::vector<std::pair<std::string, std::string>>& text,
                                     const png_options& options) {
  return encode_any(width, height, channels, row_supply<std::uint8_t>{samples, nullptr, sample_count(width, channels)},
                    text, options);
}

std::vector<std::uint8_t> encode_png(int width, int height, int channels, const std::uint16_t* samples,
                                     const std::vector<std::pair<std::string, std::string>>& text,
                                     const png_options& options) {
  return encode_any(width, height, channels, row_supply<std::uint16_t>{samples, nullptr, sample_count(width, channels)},
                    text, options);
}

std::vector<std::uint8_t> encode_png_rows(int width, int height, int channels, const png_row_source<std::uint8_t>& rows,
                                          const std::vector<std::pair<std::string, std::string>>& text,
                                          const png_options& options) {
  return encode_any(width, height, channels,
                    row_supply<std::uint8_t>{nullptr, rows ? &rows : nullptr, sample_count(width, channels)}, text,
                    options);
}

std::vector<std::uint8_t> encode_png_rows(int width, int height, int channels,
                                          const png_row_source<std::uint16_t>& rows,
                                          const std::vector<std::pair<std::string, std::string>>& text,
                                          const png_options& options) {
  return encode_any(width, height, channels,
                    row_supply<std::uint16_t>{nullptr, rows ? &rows : nullptr, sample_count(width, channels)}, text,
                    options);
}

void stream_png(int width, int height, int channels, const std::uint8_t* samples, const png_sink& sink,
                const std::vector<std::pair<std::string, std::string>>& text, const png_options& options) {
  stream_any(width, height, channels, row_supply<std::uint8_t>{samples, nullptr, sample_count(width, channels)}, sink,
             text, options);
}

void stream_png(int width, int height, int channels, const std::uint16_t* samples, const png_sink& sink,
                const std::vector<std::pair<std::string, std::string>>& text, const png_options& options) {
  stream_any(width, height, channels, row_supply<std::uint16_t>{samples, nullptr, sample_count(width, channels)}, sink,
             text, options);
}

void stream_png_rows(int width, int height, int channels, const png_row_source<std::uint8_t>& rows,
                     const png_sink& sink, const std::vector<std::pair<std::string, std::string>>& text,
                     const png_options& options) {
  stream_any(width, height, channels,
             row_supply<std::uint8_t>{nullptr, rows ? &rows : nullptr, sample_count(width, channels)}, sink, text,
             options);
}

void stream_png_rows(int width, int height, int channels, const png_row_source<std::uint16_t>& rows,
                     const png_sink& sink, const std::vector<std::pair<std::string, std::string>>& text,
                     const png_options& options) {
  stream_any(width, height, channels,
             row_supply<std::uint16_t>{nullptr, rows ? &rows : nullptr, sample_count(width, channels)}, sink, text,
             options);
}

}  // namespace landform
