#pragma once
/// @file
/// `blob_island`: the floating-island heightmap generator of seed document
/// 004 (dot clusters, falloff curve, neighbour-counting cellular automaton).

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "landform/stages/stage.hpp"

namespace landform {

/// Parameters of the `blob_island` generator.
struct blob_island_params {
  enum class neighbourhood_kind { eight, four };

  int resolution = 512;    ///< lattice nodes across the world's smaller side (the seed's map resolution), 5 to 4096
  double land_area = 1.0;  ///< clusters per octave = floor(resolution / 4 * land_area); the seed's slider 0.12 to 1
  double land_type =
      0.5;          ///< cluster radius = floor(resolution / 2 * 0.35 * land_type) nodes; 0.5 archipelago to 1 continent
  int octaves = 1;  ///< repetitions of the dot process, 1 to 16
  int erosion = 0;  ///< cellular-automaton passes, 0 to 64
  neighbourhood_kind neighbourhood = neighbourhood_kind::eight;
  /// Dot survival probability against normalised distance from the cluster
  /// centre (the seed's landFalloff, default linear 1 -> 0).
  std::vector<std::array<double, 2>> falloff = {{0.0, 1.0}, {1.0, 0.0}};
  /// The height given to a neighbour average after each erosion pass (the
  /// seed's landHeightColor gradient, as grey levels); identity by default.
  std::vector<std::array<double, 2>> remap = {{0.0, 0.0}, {1.0, 1.0}};

  static const param_schema<blob_island_params>& schema();
  void check(std::vector<std::pair<std::string, std::string>>& problems) const;
};

/// Number of dot clusters per octave: floor(resolution / 4 * land_area).
int blob_island_clusters(const blob_island_params& p);
/// Radius of each cluster in lattice nodes: floor(floor(resolution / 2) * 0.35 * land_type).
int blob_island_radius(const blob_island_params& p);

/// The dot lattice (resolution x resolution, row-major, 0 or 1) before erosion.
/// `stop` (may be empty) is polled per cluster; true throws cancelled_error.
std::vector<float> blob_island_dots(const blob_island_params& p, std::uint64_t seed,
                                    const std::function<bool()>& stop = {});

/// One cellular-automaton pass over an n x n lattice: each node's neighbour
/// average, before the remap (exactly the seed's loop):
/// - eight: the sum over the 3 x 3 block including the node itself, divided
///   by 9, where only neighbours strictly inside the lattice's border ring
///   (1 <= x, y <= n - 2) count; border nodes and the outside count as 0;
/// - four: the sum of the 4 edge neighbours that exist, divided by 4 (the node
///   itself is not counted).
std::vector<float> blob_island_average(const std::vector<float>& grid, int n, blob_island_params::neighbourhood_kind k,
                                       int nthreads);

/// The island lattice: the dots, or after `erosion` passes the last pass's
/// neighbour averages (earlier passes remapped), to be remapped per cell.
/// `stop` as for blob_island_dots, also polled per pass.
std::vector<float> blob_island_lattice(const blob_island_params& p, std::uint64_t seed, int nthreads,
                                       const std::function<bool()>& stop = {});

/// Fills `h` with a floating-island heightmap: clusters of random dots
/// smoothed by a neighbour-counting cellular automaton.
///
/// Method (seed document 004, "Procedural Floating Islands Generator", 2020):
/// on a lattice of resolution x resolution nodes, each of `octaves` rounds
/// drops floor(resolution / 4 x land_area) clusters whose centres are uniform
/// in a circle of radius resolution / 3 around the middle; every node of a
/// cluster's [-r, r)^2 square (r = floor(resolution / 2 x 0.35 x land_type))
/// becomes land (1) with probability falloff(distance / r). Then `erosion`
/// passes replace each node by remap(average of its neighbourhood) (see
/// blob_island_average: 8-connected includes the node, 4-connected does not;
/// as in the seed, the lattice border counts as sea for 8-connected). All
/// random draws are hash(seed, octave, cluster, offset).
///
/// Resolution independence: the lattice belongs to the world, not to the
/// output. It covers the centred square of the world's smaller side, so its
/// node spacing is a fixed fraction of the world, and each erosion pass
/// averages over the same world distance (1/resolution of the smaller side)
/// whatever the output size: the CA is resolution-aware by running at the
/// island's resolution. Output cells sample the lattice bilinearly (cell
/// centres), and the last pass's remap is applied after interpolation, so
/// coastlines stay crisp when cells are finer than nodes. The same island
/// appears at 256 and 1024 cells (tested); when the output resolution equals
/// `resolution` over a square world, cells are the lattice nodes exactly.
/// Cells coarser than nodes sample the lattice at their centres without
/// averaging; after erosion passes the lattice is smooth, so this rarely
/// shows (raw dots at erosion 0 alias, as any point sampling of noise).
///
/// Parameters: land_area 0.12 (a few islets) to 1 (one crowded mass);
/// land_type 0.5 (separate blobs, an archipelago) to 1 (wide clusters that
/// merge into a continent); octaves add density; erosion 0 shows the raw
/// dots, 2 to 5 passes grow them into smooth blobs (8-connected rounder,
/// 4-connected rougher); a steep remap such as [[0,0],[0.4,0],[0.6,1],[1,1]]
/// makes each pass a majority vote (hard-edged plateaus), the identity a blur
/// (domes). Cost: resolution^2 x (octaves + erosion), independent of the
/// output size.
/// @pre falloff and remap points have increasing x in [0, 1] and y in [0, 1].
/// @post every cell lies in [0, 1] (0 = no island).
/// Pointwise: the lattice depends only on the seed, the parameters and the
/// world, so a region equals the same window of the world; the erosion
/// passes and the sampling run in parallel by rows and the result does not
/// depend on the thread count.
void apply_blob_island(heightfield& h, const blob_island_params& p, const stage_context& ctx);

stage_info blob_island_stage_info();

}  // namespace landform
