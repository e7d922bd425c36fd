// The coarse grid of tiling "coarse" (issue 12): box means that any split into
// strips of whole coarse rows reproduces, and a Catmull-Rom interpolation that
// keeps constants and linear ramps and gives a region the world's bits.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "landform/core/coarse_grid.hpp"

using landform::coarse_grid;
using landform::region;
using landform::world_extent;

namespace {

region area_of(const world_extent& w, std::int64_t x0, std::int64_t y0, int width, int height) {
  region r;
  r.origin_x = w.origin_x + x0;
  r.origin_y = w.origin_y + y0;
  r.width = width;
  r.height = height;
  return r;
}

std::vector<float> field(const region& r, const world_extent& w) {
  std::vector<float> v(r.cell_count());
  for (int j = 0; j < r.height; ++j) {
    for (int i = 0; i < r.width; ++i) {
      const double x = static_cast<double>(r.origin_x - w.origin_x + i);
      const double y = static_cast<double>(r.origin_y - w.origin_y + j);
      v[static_cast<std::size_t>(j) * static_cast<std::size_t>(r.width) + static_cast<std::size_t>(i)] =
          static_cast<float>(std::sin(0.37 * x) * std::cos(0.21 * y) + 0.01 * x);
    }
  }
  return v;
}

}  // namespace

TEST_CASE("coarse_grid: sizes round up; the last cells are clipped by the world", "[core][coarse]") {
  const coarse_grid g{{-7, 3, 23, 10}, 4};
  CHECK(g.width() == 6);
  CHECK(g.height() == 3);
  CHECK(g.last_row(3) == 10);
  CHECK(g.coarse_region(2.5).cell_size == 10.0);
  // A clipped cell is the mean of the cells it has.
  const region all = area_of(g.world, 0, 0, 23, 10);
  std::vector<float> ones(all.cell_count(), 1.0f);
  for (int j = 8; j < 10; ++j) ones[static_cast<std::size_t>(j) * 23 + 22] = 4.0f;
  std::vector<float> coarse(18);
  box_mean_rows(g, all, ones, 0, 3, coarse, 1);
  CHECK(coarse[17] == Approx((4.0 * 2 + 1.0 * 4) / 6.0));
  CHECK(coarse[0] == 1.0f);
}

TEST_CASE("coarse_grid: strips of whole coarse rows give the world's means bit for bit", "[core][coarse]") {
  const world_extent w{100, -40, 37, 29};
  const coarse_grid g{w, 3};
  const region all = area_of(w, 0, 0, w.width, w.height);
  std::vector<float> whole(static_cast<std::size_t>(g.width() * g.height()));
  box_mean_rows(g, all, field(all, w), 0, g.height(), whole, 2);
  std::vector<float> strips(whole.size(), -1.0f);
  // Strips of 6 rows grown by 2 rows of halo, as the coarse pass cuts them.
  for (int y = 0; y < w.height; y += 6) {
    const std::int64_t top = std::max(0, y - 2);
    const std::int64_t bottom = std::min(w.height, y + 6 + 2);
    const region part = area_of(w, 0, top, w.width, static_cast<int>(bottom - top));
    box_mean_rows(g, part, field(part, w), y / 3, (std::min(w.height, y + 6) + 2) / 3, strips, 1);
  }
  CHECK(strips == whole);
  // A strip that lacks a row the coarse rows need is refused.
  const region short_part = area_of(w, 0, 0, w.width, 5);
  CHECK_THROWS_AS(box_mean_rows(g, short_part, field(short_part, w), 0, 2, strips, 1), std::invalid_argument);
}

TEST_CASE("coarse_grid: the interpolation keeps constants and ramps, and a region gets the world's bits",
          "[core][coarse]") {
  const world_extent w{0, 0, 40, 24};
  const coarse_grid g{w, 4};
  const int cw = g.width(), ch = g.height();
  std::vector<float> constant(static_cast<std::size_t>(cw * ch), 2.5f), ramp(constant.size());
  for (int j = 0; j < ch; ++j)
    for (int i = 0; i < cw; ++i) ramp[static_cast<std::size_t>(j * cw + i)] = static_cast<float>(3 * i - 2 * j);
  const region all = area_of(w, 0, 0, w.width, w.height);
  std::vector<float> a(all.cell_count(), 0.0f), b(all.cell_count(), 0.0f);
  add_interpolated(g, constant, all, a, 1);
  add_interpolated(g, ramp, all, b, 2);
  for (float v : a) CHECK(v == Approx(2.5f).margin(1e-6));
  // Inside the first and last centres (and away from the clamped taps) a
  // ramp is reproduced: Catmull-Rom interpolates linear data exactly.
  for (int j = 6; j < 18; ++j) {
    for (int i = 6; i < 34; ++i) {
      const double ci = (i + 0.5) / 4 - 0.5, cj = (j + 0.5) / 4 - 0.5;
      CHECK(b[static_cast<std::size_t>(j * 40 + i)] == Approx(3 * ci - 2 * cj).margin(1e-5));
    }
  }
  // Any window equals the world's window, for any thread count.
  const region part = area_of(w, 13, 5, 9, 11);
  std::vector<float> c(part.cell_count(), 0.0f);
  add_interpolated(g, ramp, part, c, 8);
  for (int j = 0; j < part.height; ++j)
    for (int i = 0; i < part.width; ++i)
      CHECK(c[static_cast<std::size_t>(j * 9 + i)] == b[static_cast<std::size_t>((j + 5) * 40 + i + 13)]);
}
