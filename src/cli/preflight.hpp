#pragma once
// What validate and build say of a valid preset before anything runs: the
// stages' advice and the run-time estimate as warnings on stderr, and a
// preset error (exit 2) beyond --max-seconds.

#include <optional>

#include <CLI/CLI.hpp>

#include "landform/pipeline/pipeline.hpp"

namespace landform::cli {

/// Estimated single-core seconds above which validate and build warn.
inline constexpr double k_warn_seconds = 600.0;

/// Adds --max-seconds to `cmd`.
void add_max_seconds_option(CLI::App& cmd, std::optional<double>& max_seconds);

/// Prints the stages' advice (pipeline::advice), settings that are valid but
/// likely a mistake, as warnings on stderr.
void print_advice(const pipeline& p);

/// Prints a warning when `p`'s estimate exceeds k_warn_seconds; throws
/// preset_error naming the costliest stage when it exceeds `max_seconds`.
void check_cost(const pipeline& p, const std::optional<double>& max_seconds);

/// Checks `p` against its engine target ("target", e.g. unity): warnings on
/// stderr, or with `strict` a preset_error (exit 2). Nothing without a target,
/// unless `strict` asks for its checks: then a preset_error at --strict.
void check_target(const pipeline& p, bool strict);

/// print_advice, then check_cost: what validate and build run first.
void preflight(const pipeline& p, const std::optional<double>& max_seconds);

}  // namespace landform::cli
