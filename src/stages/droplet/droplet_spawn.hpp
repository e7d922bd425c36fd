#pragma once
// Where droplets start: each start a pure function of (seed, droplet index)
// and, for high ground, of the map as the round finds it.

#include <cstdint>
#include <span>

#include "landform/core/heightfield.hpp"
#include "landform/core/particle_scheduler.hpp"

namespace landform::droplet {

// starts[k] = the start of droplet `first` + k, uniform over
// [0, width - 1) x [0, height - 1) (cells), width and height >= 2.
// `nthreads` as parallel_rows; the result does not depend on it.
void spawn_uniform(std::uint64_t seed, std::uint64_t first, std::span<particle_start> starts, int width, int height,
                   int nthreads);

// As spawn_uniform, but biased towards high ground: up to 8 uniform
// candidates per droplet, each accepted with probability its height's level
// in the map's range (the last candidate otherwise).
void spawn_high_ground(const heightfield& h, std::uint64_t seed, std::uint64_t first, std::span<particle_start> starts,
                       int nthreads);

}  // namespace landform::droplet
