#pragma once
/// @file
/// `smooth`: low-pass filters over the heightfield.

#include <vector>

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `smooth` filter.
struct smooth_params {
  enum class kind { gaussian, box, tutorial };
  kind method = kind::gaussian;
  double sigma = 1.0;  ///< gaussian standard deviation, cells; 0.1 to 256
  int radius = 1;      ///< box half-width, cells (window 2r+1); 1 to 256
  int iterations = 1;  ///< times the filter is applied; 1 to 1000

  static const param_schema<smooth_params>& schema();
  /// gaussian and box: local; tutorial: world (its in-place scan carries
  /// values along the scan without bound).
  [[nodiscard]] stage_scope scope() const { return method == kind::tutorial ? stage_scope::world : stage_scope::local; }
  /// Kernel radius times iterations (gaussian: max(1, ceil(3 sigma))); -1 for tutorial.
  [[nodiscard]] int halo() const;
};

/// Smooths the heightfield.
///
/// - `gaussian` (default): separable Gaussian with standard deviation `sigma`
///   cells, kernel truncated at 3 sigma and normalised to sum 1.
/// - `box`: separable mean over a (2 radius + 1)^2 window.
/// Both read from a separate buffer and clamp at the edges (edge cells are
/// repeated), so every cell, borders included, is a weighted mean of its
/// neighbourhood; a constant map stays constant. Rows run in parallel with a
/// result independent of the thread count.
/// - `tutorial`: the Java tutorial's Smoothen() (seed document 000) exactly:
///   interior cells only, in place, x outer and y inner, each cell becoming the
///   mean of its 3x3 block (summed in double, x-offset outer). Border cells are
///   unchanged. Serial: the in-place order is part of the method.
/// Scope: local (halo = kernel radius x iterations) for gaussian and box; world for tutorial.
void apply_smooth(heightfield& h, const smooth_params& p, const stage_context& ctx);

/// Normalised 1D Gaussian weights, index 0 = offset -radius, radius = ceil(3 sigma).
std::vector<double> gaussian_kernel(double sigma);

stage_info smooth_stage_info();

}  // namespace landform
