// Experiment and config files (TOML). A config's [model] table sets FireParams by the same names as
// the command line flags (`lifetime = 1.5`, `speed = [0, 1.2, 0]`, `emitter = "sphere"`).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "sim/params.h"


namespace firelab::harness {

// Text form of the TOML value of setting `key` as setParam() accepts it: numbers, strings, booleans, arrays as
// "a,b,c", and for a gradient its keys as arrays of [t, r, g, b, a] (arrays in arrays for no other setting).
// Throws firelab::Error(BadValue) naming `where`.
std::string tomlValueText(const toml::node& node, const std::string& where, std::string_view key);

// "FILE:LINE" of a node, for messages.
std::string tomlLine(const std::string& file, const toml::node& node);

// Parses a TOML file; throws firelab::Error (MissingFile, BadFile with file:line:column).
toml::table parseTomlFile(const std::filesystem::path& file);

// Applies a [model] table to params (throws the same errors as the command line, naming the file).
void applyModelTable(const toml::table& model, sim::FireParams& params, const std::string& file);

// Loads FILE's [model] table into params.
void loadModelConfig(const std::filesystem::path& file, sim::FireParams& params);

}  // namespace firelab::harness
