#pragma once
/// @file
/// Ambient occlusion of a heightfield from horizon angles (sky-view factor).

#include <functional>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform {

/// Parameters of ambient_occlusion() (the "ao" output's options are declared
/// in outputs/ao_output).
struct ao_params {
  /// What the terrain is beyond the edge of the heightfield.
  enum class border_policy {
    open,   ///< nothing: rays leaving the map see open sky (the ground outside lies no higher than the edge)
    clamp,  ///< the edge heights extended outwards (a sample outside takes its nearest edge cell)
  };
  int directions = 16;   ///< azimuths, evenly spaced from east; 1 to 256 (4 to 64 is useful)
  double radius = 50.0;  ///< metres; how far a horizon is searched; > 0
  border_policy border = border_policy::open;
  double exponent = 1.0;  ///< contrast: result = ao^exponent; 0.1 to 10
  double strength = 1.0;  ///< result = 1 - strength * (1 - ao^exponent); 0 to 1
};

/// Ambient occlusion: the cosine-weighted fraction of the sky hemisphere above
/// each cell that the terrain within `radius` leaves open.
///
/// Method: horizon-based ambient occlusion (sky-view factor). The rays the seed
/// document casts over the hemisphere are replaced by the horizon in each of
/// `directions` azimuths phi_k = 2 pi k / directions: the highest elevation
/// angle H_k of the terrain seen from the cell's surface point along that
/// azimuth, searched up to `radius` metres and never below the horizontal
/// (H_k >= 0). For a horizontal receiver, cosine (Lambert) weighting of the
/// unoccluded sky in one azimuth gives
///   integral_{H}^{pi/2} sin(e) cos(e) de / integral_0^{pi/2} sin(e) cos(e) de = cos^2(H),
/// so
///   ao = (1 / n) sum_k cos^2(H_k) = (1 / n) sum_k 1 / (1 + tan^2(H_k)),
/// the sky-view factor of a horizontal surface (Dozier and Marks 1987, "Snow
/// mapping and classification from Landsat Thematic Mapper data", Ann.
/// Glaciol. 9; horizons as in Dozier, Bruno and Downey 1981, "A faster solution
/// to the horizon problem", Computers & Geosciences 7; the same horizon
/// integration as Bavoil and Sainz 2008, "Image-space horizon-based ambient
/// occlusion"). tan(H_k) = max(0, max_t (z(p + t d_k) - z(p)) / t) with heights
/// in metres (height * height_scale) and distances t in metres.
///
/// Sampling: along each azimuth at distances t = 1, 2, 3, 4 cells, then growing
/// geometrically by 25 % per step, the last sample exactly at `radius`
/// (about 16 samples for 50 cells), each height bilinearly interpolated (sub-cell
/// accuracy). Each (azimuth, distance) pair is one fixed offset and weight set
/// shared by every cell, so a cell's value depends only on the heights within
/// `radius` around it: a region computed with a halo of ceil(radius / cell_size)
/// cells equals the same window of the world.
///
/// Parameters: more `directions` smooths the star-shaped artefacts around
/// peaks (16 is a good default, 32 for close-ups); `radius` sets the scale of
/// the features that darken (valleys and pits smaller than about the radius):
/// a few hundred metres for broad valley shading, tens of metres for crevices.
/// `exponent` > 1 deepens the shading; `strength` < 1 fades it.
///
/// Edges: `open` ignores samples beyond the map, so rays that leave it see the
/// sky; `clamp` extends the edge heights. A flat map is exactly 1.0 everywhere,
/// border cells included, under both.
///
/// @param h            width x height heights (unitless), row-major, float32
/// @param p            parameters (validated by the schema: directions >= 1, radius > 0)
/// @param height_scale metres for a height of 1.0, > 0; the cell size comes from h.placement()
/// @param nthreads     0 = all cores, 1 = serial
/// @return width x height values in [0, 1], row-major, float32; 1 = open sky
/// @throws std::invalid_argument for directions < 1, radius <= 0 or height_scale <= 0
/// @post a constant heightfield gives exactly 1.0 everywhere
/// Determinism: rows are independent and each cell sums its azimuths in a fixed
/// order, so the result is bit-identical for every thread count.
/// `stop`, when given, is polled before each block of rows (thread-safe); once
/// it returns true the call throws cancelled_error.
std::vector<float> ambient_occlusion(const heightfield& h, const ao_params& p, double height_scale, int nthreads,
                                     const std::function<bool()>& stop = {});

/// Cells of terrain ambient_occlusion() reads around a cell: ceil(radius / cell_size)
/// (the search radius is capped at 2^20 cells).
int ambient_occlusion_halo(const ao_params& p, double cell_size);

}  // namespace landform
