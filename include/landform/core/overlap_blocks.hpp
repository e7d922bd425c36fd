#pragma once
/// @file
/// World-aligned overlapping blocks with a cross-fade: how a filter whose
/// reach has no bound (droplet erosion) runs on a region alone, so tiles
/// built as separate processes meet without seams.
///
/// The idea is the overlap-and-blend tiling of World Machine's and Gaea's
/// tiled builds, with one change that makes it exact: the blocks are laid on
/// the world, not on the tiles. Every build, whole world or region, computes
/// the same blocks and blends them the same way, so a region equals the same
/// window of the whole world bit for bit, whatever the tile size.

#include <cstdint>
#include <functional>
#include <vector>

#include "landform/core/heightfield.hpp"

namespace landform {

/// A grid of square blocks laid on the world from its origin. Block (bx, by)
/// owns the core cells [bx * block, (bx + 1) * block) x [by * block, ...)
/// (world cells from the world's origin, the last row and column of blocks
/// cut by the world's edge) and is computed on its core grown by `overlap`
/// cells on every side (clipped to the world). Across each boundary between
/// two cores, the two results are cross-faded over the `overlap` cells
/// centred on it with smoothstep weights that sum to 1; the outer half of
/// each grown side is computed but never weighted, so what happens at a
/// block's own edge (droplets leaving it, none coming in) stays out of the
/// result. A cell's value depends only on the blocks whose grown extent
/// holds it, so a region grown by halo() cells computes it exactly.
struct overlap_blocks {
  int block = 256;   ///< cells per side of a core, >= 1 and >= 2 x overlap
  int overlap = 32;  ///< cells each core is grown by, >= 0

  /// Cells of input a cell's result can depend on: block + 2 x overlap.
  [[nodiscard]] int halo() const { return block + 2 * overlap; }
};

/// One block as the caller's filter sees it.
struct overlap_block {
  std::int64_t bx = 0, by = 0;  ///< block column and row, from the world's origin
  int index = 0;                ///< position among the blocks this call computes, in run order
  int count = 0;                ///< blocks this call computes
};

/// Runs the filter on one block in place: `field` holds the input on the
/// block's grown extent (its placement is that window of the world); `maps`
/// has one entry per side map, each to be left empty or filled with
/// field.size() values.
using overlap_block_fn =
    std::function<void(heightfield& field, const overlap_block& block, std::vector<std::vector<float>>& maps)>;

/// Runs `run` on every block whose grown extent (clipped to the world) lies
/// inside `h`, rows of blocks top to bottom, each left to right, and replaces
/// `h` by the cross-fade of their results: h = sum(w_k E_k) / sum(w_k), summed
/// in that order (a cell inside one core only is E_k itself). Side map m
/// becomes the same blend of the blocks' maps (all of size h.size(), or empty
/// when no block filled it). A cell some of whose blocks reach outside `h`
/// gets the blend of those computed (its input when none was): such cells lie
/// in the outer halo of a region build, which the pipeline crops.
///
/// `world` gives the block grid's origin; `h`'s placement must lie within it.
/// @throws std::invalid_argument for a block below 1, an overlap below 0, a
///         block under 2 x overlap, or a placement outside the world.
void run_overlap_blocks(heightfield& h, const world_extent& world, const overlap_blocks& grid, std::size_t map_count,
                        const overlap_block_fn& run, std::vector<std::vector<float>>& maps);

}  // namespace landform
