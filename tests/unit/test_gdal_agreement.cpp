// slope and aspect agree with GDAL (gdaldem slope / aspect, Horn's method).
//
// Two references: (1) GDAL's published formulas (gdaldem_lib.cpp: Horn's
// window sums, atan of the gradient, atan2(dy, -dx) turned into an azimuth),
// reimplemented here in double; (2) when `gdaldem` is on the PATH
// (scripts/install-deps.sh installs gdal-bin), gdaldem itself, run on the same
// surface written as an ASCII grid. GDAL computes in float32, so aspect on
// gentle slopes carries its rounding: the bound is 1e-3 degrees on 99.9% of
// interior cells steeper than 1 degree. Border cells are not compared: GDAL's
// -compute_edges makes up missing neighbours differently from our
// extrapolation.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <vector>

#include <unistd.h>

#include "landform/derive/surface.hpp"
#include "noise_fields.hpp"

namespace {

using namespace landform;
namespace fs = std::filesystem;

constexpr int k_size = 96;
constexpr double k_cell = 5.0, k_height_scale = 400.0;

heightfield test_surface() {
  return landform_test::noise_field(k_size, k_cell, 11, 150.0, 5);
}

// GDAL's formulas on the 3x3 window in metres, as gdaldem_lib.cpp writes them.
struct gdal_reference {
  std::vector<double> slope, aspect;
};

gdal_reference gdal_formulas(const heightfield& h) {
  gdal_reference r{std::vector<double>(h.size(), 0.0), std::vector<double>(h.size(), 0.0)};
  for (int j = 1; j < h.height() - 1; ++j) {
    for (int i = 1; i < h.width() - 1; ++i) {
      double w[9];
      for (int k = 0; k < 9; ++k) w[k] = static_cast<double>(h.at(i + k % 3 - 1, j + k / 3 - 1)) * k_height_scale;
      const double dx = ((w[2] + w[5] + w[5] + w[8]) - (w[0] + w[3] + w[3] + w[6])) / (8.0 * k_cell);
      const double dy = ((w[6] + w[7] + w[7] + w[8]) - (w[0] + w[1] + w[1] + w[2])) / (8.0 * k_cell);
      const std::size_t c = static_cast<std::size_t>(j) * h.width() + i;
      r.slope[c] = std::atan(std::sqrt(dx * dx + dy * dy)) * 180.0 / std::numbers::pi;
      double aspect = std::atan2(dy, -dx) * 180.0 / std::numbers::pi;
      aspect = aspect > 90.0 ? 450.0 - aspect : 90.0 - aspect;
      r.aspect[c] = aspect == 360.0 ? 0.0 : aspect;
    }
  }
  return r;
}

double angle_difference(double a, double b) {
  const double d = std::abs(a - b);
  return std::min(d, 360.0 - d);
}

struct agreement {
  double worst_slope = 0.0;
  std::size_t steep = 0, aspect_within = 0;
};

agreement compare(const heightfield& h, const std::vector<double>& slope, const std::vector<double>& aspect) {
  const surface_gradient g = horn_gradient(h, k_height_scale, edge_policy::extrapolate, 2);
  agreement a;
  for (int j = 1; j < h.height() - 1; ++j) {
    for (int i = 1; i < h.width() - 1; ++i) {
      const std::size_t c = static_cast<std::size_t>(j) * h.width() + i;
      const double s = slope_degrees(g.east[c], g.north[c]);
      a.worst_slope = std::max(a.worst_slope, std::abs(s - slope[c]));
      if (slope[c] > 1.0) {
        ++a.steep;
        a.aspect_within += angle_difference(aspect_degrees(g.east[c], g.north[c]), aspect[c]) <= 1e-3;
      }
    }
  }
  return a;
}

bool have_gdaldem() {
  return std::system("command -v gdaldem >/dev/null 2>&1") == 0;
}

// gdaldem MODE on the surface (ASCII grid in, ENVI float32 out).
std::vector<double> run_gdaldem(const heightfield& h, const std::string& mode, const fs::path& dir) {
  const fs::path input = dir / "surface.asc", output = dir / (mode + ".bin");
  {
    std::ofstream out(input);
    out << "ncols " << h.width() << "\nnrows " << h.height() << "\nxllcorner 0\nyllcorner 0\ncellsize " << k_cell
        << '\n';
    char number[32];
    for (int j = 0; j < h.height(); ++j) {
      for (int i = 0; i < h.width(); ++i) {
        std::snprintf(number, sizeof number, "%.9g ", static_cast<double>(h.at(i, j)) * k_height_scale);
        out << number;
      }
      out << '\n';
    }
  }
  const std::string command =
      "gdaldem " + mode + " -q -compute_edges -of ENVI '" + input.string() + "' '" + output.string() + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream in(output, std::ios::binary);
  std::vector<float> values(h.size());
  in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
  REQUIRE(in.gcount() == static_cast<std::streamsize>(values.size() * sizeof(float)));
  return {values.begin(), values.end()};
}

}  // namespace

TEST_CASE("slope and aspect agree with GDAL's published formulas", "[surface][gdal]") {
  const heightfield h = test_surface();
  const gdal_reference ref = gdal_formulas(h);
  const agreement a = compare(h, ref.slope, ref.aspect);
  INFO("worst slope difference " << a.worst_slope << " degrees; aspect within 1e-3 on " << a.aspect_within << " of "
                                 << a.steep << " cells steeper than 1 degree");
  CHECK(a.worst_slope <= 1e-3);
  REQUIRE(a.steep > 1000);
  CHECK(static_cast<double>(a.aspect_within) >= 0.999 * static_cast<double>(a.steep));
}

TEST_CASE("slope and aspect agree with gdaldem itself", "[surface][gdal]") {
  if (!have_gdaldem()) {
    WARN("gdaldem not found (install gdal-bin): compared with GDAL's formulas only");
    return;
  }
  const fs::path dir = fs::temp_directory_path() / ("landform-gdal-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const heightfield h = test_surface();
  const std::vector<double> slope = run_gdaldem(h, "slope", dir);
  const std::vector<double> aspect = run_gdaldem(h, "aspect", dir);
  fs::remove_all(dir);
  const agreement a = compare(h, slope, aspect);
  INFO("worst slope difference " << a.worst_slope << " degrees; aspect within 1e-3 on " << a.aspect_within << " of "
                                 << a.steep << " cells steeper than 1 degree");
  CHECK(a.worst_slope <= 1e-3);
  REQUIRE(a.steep > 1000);
  CHECK(static_cast<double>(a.aspect_within) >= 0.999 * static_cast<double>(a.steep));
}
