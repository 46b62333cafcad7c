// Command-line flags for every model parameter (one per entry of sim::visitParams), applied on top of
// an optional --config file. Shared by every subcommand that simulates.
#pragma once
#include <map>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/params.h"

namespace firelab::app {

class ModelFlags {
public:
    struct Flag {
        std::string text;
        CLI::Option* option = nullptr;
    };

    // Adds --config and one --NAME per model parameter to `cmd`, in a "Model" group.
    void addTo(CLI::App& cmd);
    // The params: defaults, then the config file's [model] table, then the flags given.
    // Throws firelab::Error naming the flag or the file.
    sim::FireParams resolve() const;

    std::string config;

private:
    std::map<std::string, Flag> flags_;  // node-based: the option's storage never moves
};

}  // namespace firelab::app
