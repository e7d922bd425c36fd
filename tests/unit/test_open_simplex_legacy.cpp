#include "landform/noise/open_simplex_legacy.hpp"

#include <catch2/catch.hpp>

#include "reference/reference_data.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#ifndef LANDFORM_SHARED_DIR
#error "LANDFORM_SHARED_DIR must be defined (path of the shared folder, as a string literal)"
#endif

using landform::open_simplex_legacy;

namespace {

struct reference_row {
  std::int64_t seed = 0;
  int dims = 0;
  double x = 0;
  double y = 0;
  double z = 0;
  double value = 0;
};

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    fields.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return fields;
}

// strtod is correctly rounded, so Java's shortest round-trip decimals give back
// the exact doubles that were used and produced.
double parse_double(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    FAIL("bad number in CSV: '" << text << "'");
  }
  return v;
}

std::vector<reference_row> load_reference(const std::string& path) {
  std::ifstream in(path);
  INFO("reference file: " << path);
  if (!in) FAIL("cannot open the reference CSV (missing shared/reference data?): " << path);

  std::string line;
  REQUIRE(std::getline(in, line));
  REQUIRE(line == "seed,dims,x,y,z,value");

  std::vector<reference_row> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto f = split_csv(line);
    INFO("line: " << line);
    REQUIRE(f.size() == 6);
    reference_row r;
    r.seed = std::stoll(f[0]);
    r.dims = std::stoi(f[1]);
    r.x = parse_double(f[2]);
    r.y = parse_double(f[3]);
    REQUIRE((r.dims == 2 || r.dims == 3));
    REQUIRE(f[4].empty() == (r.dims == 2));
    if (r.dims == 3) r.z = parse_double(f[4]);
    r.value = parse_double(f[5]);
    rows.push_back(r);
  }
  return rows;
}

std::string describe(const reference_row& r, double got) {
  char buf[256];
  if (r.dims == 2) {
    std::snprintf(buf, sizeof buf, "seed=%lld dims=2 x=%.17g y=%.17g expected=%.17g got=%.17g",
                  static_cast<long long>(r.seed), r.x, r.y, r.value, got);
  } else {
    std::snprintf(buf, sizeof buf, "seed=%lld dims=3 x=%.17g y=%.17g z=%.17g expected=%.17g got=%.17g",
                  static_cast<long long>(r.seed), r.x, r.y, r.z, r.value, got);
  }
  return buf;
}

// A grid mixing lattice points, fractions and negative values.
std::vector<double> sample_coordinates() {
  std::vector<double> v;
  for (int i = -40; i <= 40; ++i) v.push_back(i * 0.37 + 0.013);
  return v;
}

}  // namespace

TEST_CASE("open_simplex_legacy matches the Java reference bit for bit", "[noise][open_simplex]") {
  LANDFORM_NEED_REFERENCE_DATA();
  const std::string path = landform_test::reference_dir() + "/opensimplex_legacy.csv";
  const std::vector<reference_row> rows = load_reference(path);
  REQUIRE(rows.size() == 6000);

  std::map<std::int64_t, open_simplex_legacy> noises;
  std::size_t mismatches = 0;
  std::size_t rows_2d = 0;
  std::string report;
  for (const auto& r : rows) {
    auto it = noises.try_emplace(r.seed, r.seed).first;
    const double got = r.dims == 2 ? it->second.eval(r.x, r.y) : it->second.eval(r.x, r.y, r.z);
    if (r.dims == 2) ++rows_2d;
    if (std::bit_cast<std::uint64_t>(got) != std::bit_cast<std::uint64_t>(r.value)) {
      if (mismatches < 8) report += describe(r, got) + "\n";
      ++mismatches;
    }
  }
  CHECK(noises.size() == 3);
  CHECK(rows_2d == 1200);
  INFO(mismatches << " of " << rows.size() << " rows differ; first ones:\n" << report);
  REQUIRE(mismatches == 0);
}

TEST_CASE("open_simplex_legacy 2D is exactly +0.0 at the origin", "[noise][open_simplex]") {
  for (std::int64_t seed : {std::int64_t{0}, std::int64_t{42}, std::int64_t{-7},
                            std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}) {
    INFO("seed " << seed);
    const double v = open_simplex_legacy(seed).eval(0.0, 0.0);
    CHECK(std::bit_cast<std::uint64_t>(v) == 0);
  }
}

TEST_CASE("open_simplex_legacy 3D origin canary", "[noise][open_simplex]") {
  // Not zero: rounding leaves attenuation 1.11e-16 at three vertices, whose
  // fourth power survives. Only the gist's exact operation order gives this.
  const double v = open_simplex_legacy(0).eval(0.0, 0.0, 0.0);
  CHECK(std::bit_cast<std::uint64_t>(v) == std::bit_cast<std::uint64_t>(1.1984697154842467e-66));
}

TEST_CASE("open_simplex_legacy values stay within [-1, 1]", "[noise][open_simplex]") {
  const auto coords = sample_coordinates();
  for (std::int64_t seed : {std::int64_t{0}, std::int64_t{1234}, std::int64_t{-99}}) {
    const open_simplex_legacy noise(seed);
    double lo = 0;
    double hi = 0;
    for (double x : coords) {
      for (double y : coords) {
        const double v2 = noise.eval(x, y);
        lo = std::min(lo, v2);
        hi = std::max(hi, v2);
        for (double z : {-2.6, 0.0, 0.45, 3.3}) {
          const double v3 = noise.eval(x, y, z);
          lo = std::min(lo, v3);
          hi = std::max(hi, v3);
        }
      }
    }
    INFO("seed " << seed << " range [" << lo << ", " << hi << "]");
    CHECK(lo >= -1.0);
    CHECK(hi <= 1.0);
    // Not degenerate: the grid covers a good part of the range.
    CHECK(lo < -0.3);
    CHECK(hi > 0.3);
  }
}

TEST_CASE("open_simplex_legacy is deterministic per seed", "[noise][open_simplex]") {
  const open_simplex_legacy a(20240601);
  const open_simplex_legacy b(20240601);
  const open_simplex_legacy copy = a;
  const auto coords = sample_coordinates();
  for (double x : coords) {
    for (double y : coords) {
      REQUIRE(std::bit_cast<std::uint64_t>(a.eval(x, y)) == std::bit_cast<std::uint64_t>(b.eval(x, y)));
      REQUIRE(std::bit_cast<std::uint64_t>(a.eval(x, y, 0.3)) == std::bit_cast<std::uint64_t>(b.eval(x, y, 0.3)));
      REQUIRE(std::bit_cast<std::uint64_t>(a.eval(x, y, 0.3)) == std::bit_cast<std::uint64_t>(copy.eval(x, y, 0.3)));
    }
  }
}

TEST_CASE("open_simplex_legacy different seeds give different noise", "[noise][open_simplex]") {
  const open_simplex_legacy a(1);
  const open_simplex_legacy b(2);
  const auto coords = sample_coordinates();
  std::size_t total = 0;
  std::size_t differ_2d = 0;
  std::size_t differ_3d = 0;
  for (double x : coords) {
    for (double y : coords) {
      ++total;
      if (a.eval(x, y) != b.eval(x, y)) ++differ_2d;
      if (a.eval(x, y, 0.7) != b.eval(x, y, 0.7)) ++differ_3d;
    }
  }
  CHECK(differ_2d > total * 9 / 10);
  CHECK(differ_3d > total * 9 / 10);
}
