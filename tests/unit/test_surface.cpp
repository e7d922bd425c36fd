// Horn's gradient, slope, aspect, curvature and the normal map against closed
// forms on analytic surfaces (planes, cone, paraboloid).

#include <stb_image.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "landform/derive/surface.hpp"
#include "landform/outputs/surface_outputs.hpp"

namespace {

using namespace landform;

constexpr double k_pi = std::numbers::pi;

// f(x, y) in metres at world position (x east, y north); cell (i, j) sits at
// x = i·cell, y = −j·cell (rows run south). Heights stored with height_scale 1.
template <class F>
heightfield surface(int n, double cell, F f) {
  heightfield h(region{n, n, 0, 0, cell});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) h.at(i, j) = static_cast<float>(f(i * cell, -j * cell));
  return h;
}

}  // namespace

TEST_CASE("surface: a plane has its exact gradient everywhere, borders included", "[surface]") {
  const double a = 0.3, b = -0.7;  // dz/dx east, dz/dy north
  const heightfield h = surface(16, 2.0, [&](double x, double y) { return 5.0 + a * x + b * y; });
  for (edge_policy edges : {edge_policy::extrapolate}) {
    const surface_gradient g = horn_gradient(h, 1.0, edges, 1);
    for (std::size_t k = 0; k < h.size(); ++k) {
      REQUIRE(g.east[k] == Approx(a).margin(1e-5));
      REQUIRE(g.north[k] == Approx(b).margin(1e-5));
    }
  }
  // Clamp flattens the outside: the border gradient is halved along that axis.
  const surface_gradient c = horn_gradient(h, 1.0, edge_policy::clamp, 1);
  CHECK(c.east[5 * 16 + 0] == Approx(a / 2).margin(1e-5));
  CHECK(c.east[5 * 16 + 7] == Approx(a).margin(1e-5));
}

TEST_CASE("surface: slope and aspect of planes match the closed form", "[surface]") {
  struct plane {
    double a, b, aspect;  // aspect: downhill bearing
  };
  // Rising east faces west (270); rising north faces south (180), etc.
  for (const plane p : {plane{1, 0, 270}, plane{-1, 0, 90}, plane{0, 1, 180}, plane{0, -1, 0}, plane{1, 1, 225},
                        plane{-0.5, 0.5, 135}}) {
    INFO("plane " << p.a << ", " << p.b);
    const heightfield h = surface(8, 1.0, [&](double x, double y) { return p.a * x + p.b * y; });
    const surface_gradient g = horn_gradient(h, 1.0, edge_policy::extrapolate, 1);
    const double expected_slope = std::atan(std::hypot(p.a, p.b)) * 180.0 / k_pi;
    for (std::size_t k = 0; k < h.size(); ++k) {
      REQUIRE(slope_degrees(g.east[k], g.north[k]) == Approx(expected_slope).margin(1e-4));
      const double aspect = aspect_degrees(g.east[k], g.north[k]);
      REQUIRE(std::min(std::abs(aspect - p.aspect), 360.0 - std::abs(aspect - p.aspect)) < 1e-4);
    }
  }
  CHECK(aspect_degrees(0.0f, 0.0f) == -1.0f);
}

TEST_CASE("surface: heights in metres come from height_scale and cell_size", "[surface]") {
  // Unit heights rising 0.01 per cell of 10 m, scaled by 1000 m: 1 m/m = 45 degrees.
  const heightfield h = surface(8, 10.0, [](double x, double) { return 0.001 * x; });
  const surface_gradient g = horn_gradient(h, 1000.0, edge_policy::extrapolate, 1);
  CHECK(slope_degrees(g.east[20], g.north[20]) == Approx(45.0).margin(1e-4));
}

TEST_CASE("surface: cone normals, slope and aspect match the closed form within 1e-4", "[surface]") {
  // Horn's 3x3 stencil is exact on planes but has an O(1/r^2) truncation
  // error where contours curve: measured 9e-4 (unit normal) at r = 10 cells,
  // 6e-5 at r = 40. So the closed form is checked from r = 40 cells outward.
  const int n = 161;
  const double c = 80.0, rise = 0.5;
  const heightfield h = surface(n, 1.0, [&](double x, double y) { return 50.0 - rise * std::hypot(x - c, y + c); });
  const surface_gradient g = horn_gradient(h, 1.0, edge_policy::extrapolate, 1);
  const double norm = std::sqrt(1.0 + rise * rise);
  int checked = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const double dx = i - c, dy = -j + c, r = std::hypot(dx, dy);
      if (r < 40.0 || r > 78.0) continue;
      const std::size_t k = static_cast<std::size_t>(j) * n + i;
      const double ge = g.east[k], gn = g.north[k], len = std::sqrt(1.0 + ge * ge + gn * gn);
      // Unit normal (−dz/dx, −dz/dy, 1)/|..| against (rise·dx/r, rise·dy/r, 1)/√(1 + rise²).
      REQUIRE(-ge / len == Approx(rise * dx / r / norm).margin(1e-4));
      REQUIRE(-gn / len == Approx(rise * dy / r / norm).margin(1e-4));
      REQUIRE(1.0 / len == Approx(1.0 / norm).margin(1e-4));
      const double slope_rad = slope_degrees(g.east[k], g.north[k]) * k_pi / 180.0;
      REQUIRE(slope_rad == Approx(std::atan(rise)).margin(1e-4));
      double away = std::atan2(dx, dy);
      if (away < 0) away += 2 * k_pi;
      const double aspect = aspect_degrees(g.east[k], g.north[k]) * k_pi / 180.0;
      REQUIRE(std::min(std::abs(aspect - away), 2 * k_pi - std::abs(aspect - away)) < 1e-4);
      ++checked;
    }
  }
  CHECK(checked > 10000);
}

TEST_CASE("surface: paraboloid gradient and curvature are exact in the interior", "[surface]") {
  // z = k (x² + y²): gradient 2k(x, y) exactly (Horn is exact on quadratics),
  // mean curvature -(D + E) = -2k, plan curvature 2k·r... profile = -2k·2 / (1 + ...)?
  // For z = k r², Zevenbergen-Thorne give D = E = k, F = 0, G = 2kx, H = 2ky:
  // profile = -2k, plan = 2k.
  const double k = 0.01;
  const heightfield h =
      surface(33, 1.0, [&](double x, double y) { return k * ((x - 16) * (x - 16) + (y + 16) * (y + 16)); });
  const surface_gradient g = horn_gradient(h, 1.0, edge_policy::extrapolate, 1);
  const auto profile = surface_curvature(h, 1.0, curvature_kind::profile, edge_policy::extrapolate, 1);
  const auto plan = surface_curvature(h, 1.0, curvature_kind::plan, edge_policy::extrapolate, 1);
  const auto mean = surface_curvature(h, 1.0, curvature_kind::mean, edge_policy::extrapolate, 1);
  for (int j = 1; j < 32; ++j) {
    for (int i = 1; i < 32; ++i) {
      const std::size_t c = static_cast<std::size_t>(j) * 33 + i;
      REQUIRE(g.east[c] == Approx(2 * k * (i - 16)).margin(1e-4));
      REQUIRE(g.north[c] == Approx(2 * k * (-j + 16)).margin(1e-4));
      REQUIRE(mean[c] == Approx(-2 * k).margin(1e-6));
      if (i != 16 || j != 16) {
        REQUIRE(profile[c] == Approx(-2 * k).margin(1e-6));
        REQUIRE(plan[c] == Approx(2 * k).margin(1e-6));
      }
    }
  }
}

TEST_CASE("surface: gradient is identical for any thread count", "[surface]") {
  const heightfield h = surface(97, 1.0, [](double x, double y) { return std::sin(x * 0.1) * std::cos(y * 0.07); });
  const surface_gradient a = horn_gradient(h, 3.0, edge_policy::extrapolate, 1);
  const surface_gradient b = horn_gradient(h, 3.0, edge_policy::extrapolate, 2);
  const surface_gradient c = horn_gradient(h, 3.0, edge_policy::extrapolate, 8);
  CHECK(a.east == b.east);
  CHECK(a.north == c.north);
}

TEST_CASE("normal map: a 45-degree ramp gives the exact vector in both conventions", "[surface][normal]") {
  struct ramp {
    double a, b;  // dz/dx, dz/dy(north)
    int r, g_opengl, g_directx;
  };
  // n = (−a, −b, 1)/|..|; rising east → (−0.7071, 0, 0.7071) → R 37, G 128, B 218.
  for (const ramp p : {ramp{1, 0, 37, 128, 128}, ramp{0, 1, 128, 37, 218}, ramp{0, -1, 128, 218, 37}}) {
    const heightfield h = surface(6, 1.0, [&](double x, double y) { return p.a * x + p.b * y; });
    const layer_set layers;
    output_context ctx(h, layers);
    for (const char* convention : {"opengl", "directx"}) {
      const output_kind kind = normal_output_kind();
      const json options = kind.canonical(json{{"convention", convention}});
      const encoded_file file = kind.encode(options, "rgb8", ctx);
      int w = 0, ht = 0, channels = 0;
      unsigned char* px =
          stbi_load_from_memory(file.bytes.data(), static_cast<int>(file.bytes.size()), &w, &ht, &channels, 3);
      REQUIRE(px != nullptr);
      CHECK(channels == 3);
      const int g_expected = std::string(convention) == "opengl" ? p.g_opengl : p.g_directx;
      for (int k = 0; k < w * ht; ++k) {
        INFO("ramp " << p.a << "," << p.b << " " << convention << " pixel " << k);
        REQUIRE(static_cast<int>(px[3 * k]) == p.r);
        REQUIRE(static_cast<int>(px[3 * k + 1]) == g_expected);
        REQUIRE(static_cast<int>(px[3 * k + 2]) == (p.a == 0 && p.b == 0 ? 255 : 218));
      }
      stbi_image_free(px);
    }
  }
}

TEST_CASE("normal map: twice the resolution over the same world gives the same normals", "[surface][normal]") {
  auto f = [](double x, double y) { return 20.0 * std::sin(x / 40.0) + 10.0 * std::cos(y / 25.0); };
  const heightfield coarse = surface(64, 2.0, f);
  const heightfield fine = surface(128, 1.0, f);
  const surface_gradient gc = horn_gradient(coarse, 1.0, edge_policy::extrapolate, 1);
  const surface_gradient gf = horn_gradient(fine, 1.0, edge_policy::extrapolate, 1);
  for (int j = 1; j < 63; ++j) {
    for (int i = 1; i < 63; ++i) {
      const std::size_t c = static_cast<std::size_t>(j) * 64 + i;
      const std::size_t d = static_cast<std::size_t>(2 * j) * 128 + 2 * i;
      // Discretisation error of the 3x3 stencil at these scales: < 1%.
      REQUIRE(gc.east[c] == Approx(gf.east[d]).margin(0.01 * 0.5 + 1e-4));
      REQUIRE(gc.north[c] == Approx(gf.north[d]).margin(0.01 * 0.4 + 1e-4));
    }
  }
}
