#pragma once
// Internal: the lakes' flood of route_depression_free_d8() (derive/flow_routing),
// run in parallel shards with the result of one serial flood.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace landform::detail {

/// Number of shards the lakes are split into: fixed, so the shards do not
/// depend on the thread count (any count from 1 to 255 gives the same
/// heights; 1 is the serial flood).
inline constexpr int k_lake_shards = 32;

/// Priority-Flood+epsilon (see flood_epsilon_loop()) of the flagged cells of
/// `region`, seeded from their unflagged neighbours, which are never raised.
///
/// The flagged cells are the lakes of pit basins: `basin` (width x height)
/// gives each cell's basin, 1 .. basins (0 = drains to the border, never
/// flagged). Basins whose flagged cells touch (8-neighbours) are grouped;
/// the groups are dealt to k_lake_shards shards, flooded in parallel, each
/// with its own queue. Each shard's seeds are pushed in the order in which
/// one scan of the whole grid in index order first meets them (from a
/// flagged cell, neighbours in code order). A shard's cells then see exactly
/// the steps they see in one flood over all lakes with one queue: no step
/// reaches across two groups, the queue pops by height with equal heights
/// last-in first-out, and the relative order of one shard's pushes is the
/// same in both. So the heights equal those of the serial flood for any
/// thread count.
///
/// @param z       width x height heights, row-major; the lakes are raised in place
/// @param region  width x height flags, 1 = to flood; on return the flooded
///                cells are 2 (still nonzero)
/// @param basins  the largest basin label
/// @param shards  1 .. 255
/// @return the number of cells raised
std::size_t flood_lakes(std::vector<double>& z, int width, int height, std::uint8_t* region,
                        const std::vector<std::uint32_t>& basin, std::uint32_t basins, int nthreads,
                        int shards = k_lake_shards);

}  // namespace landform::detail
