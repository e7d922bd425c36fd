#pragma once
/// @file
/// Named variables in presets: a string value `"${name}"` is replaced by the
/// variable's JSON value (so a number stays a number), and `${name}` inside a
/// longer string by the value's text (`"out/${tile}.png"`). Substituted
/// before validation, so the canonical preset holds the values.

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace landform {

/// Variable values by name.
using preset_variables = std::map<std::string, nlohmann::json>;

/// True for a valid variable name: a letter or '_', then letters, digits or
/// '_' (as in `${tile_x}`).
bool is_variable_name(const std::string& name);

/// Parses `name=value` (the command line's --var): the value is JSON when it
/// parses as JSON (`8`, `[1,2]`, `true`, `"x"`), else the plain string
/// (`nearest`), as for --set. Throws preset_error with path `--var` for a
/// missing '=' or a bad name, or a number too large for a double.
std::pair<std::string, nlohmann::json> parse_variable_assignment(const std::string& assignment);

/// Reads a variables file: one JSON object, name -> value. Throws io_error
/// when it cannot be read and preset_error (naming the file) when it is not
/// a JSON object, or a key is not a variable name.
preset_variables load_variables_file(const std::filesystem::path& path);

/// Replaces every reference in the string values of `preset` (object keys
/// are left alone): a whole string `"${name}"` becomes the variable's value,
/// any type; `${name}` inside a longer string becomes a string or boolean
/// value's text, or a number's shortest JSON text (arrays, objects and null
/// cannot be spliced into a string). `$${` stands for a literal `${`.
/// Returns the names that were referenced. Throws preset_error listing every
/// problem at once, each with the JSON path of the string, e.g.
/// `stages[1] (perturb).magnitude: "${mag}" uses the undefined variable "mag"`;
/// on error `preset` is unchanged.
std::set<std::string> substitute_variables(nlohmann::json& preset, const preset_variables& variables);

}  // namespace landform
