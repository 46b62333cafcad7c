// Command-line flags for every model parameter (one per entry of sim::visitParams), applied on top of
// an optional --config file. Shared by every subcommand that simulates.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "harness/settings/experiment.h"
#include "sim/params.h"

namespace firelab::app {

// A flag's text and its CLI11 option (which says whether it was given).
struct Flag {
    std::string text;
    CLI::Option* option = nullptr;
};
using Flags = std::map<std::string, Flag>;  // node-based: an option's storage never moves

// The flags given on the command line, as (name, text), in name order.
std::vector<std::pair<std::string, std::string>> givenFlags(const Flags& flags);

class ModelFlags {
public:
    // Adds --config (unless withConfig is false) and one --NAME per model parameter to `cmd`.
    void addTo(CLI::App& cmd, bool withConfig = true);
    // The flags given on the command line, as (name, text), in name order.
    std::vector<std::pair<std::string, std::string>> given() const { return givenFlags(flags_); }
    // The settings: defaults, then the --config file ([run] and [model], as `firelab run --config`
    // reads it), then the model flags given. Throws firelab::Error naming the flag or the file.
    harness::RunSettings settings() const;
    sim::FireParams resolve() const { return settings().params; }

    std::string config;

private:
    Flags flags_;
};

}  // namespace firelab::app
