// The harness's subcommands: `firelab run` (one configuration or the cross product of list-valued
// flags, appended to a CSV), `firelab sweep FILE.toml` (an experiment into results/NAME/ with meta.json
// and plots), `firelab merge` (joins shard outputs) and `firelab compare` (ratios to a baseline).
#pragma once
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

namespace firelab::app {

class HarnessCommands {
public:
    // Adds the four subcommands to `cli`. dataDirFlag is the --data-dir value (read at run time).
    HarnessCommands(CLI::App& cli, const std::string& dataDirFlag, std::string commandLine);
    ~HarnessCommands();
    // If one of the subcommands was parsed, runs it and returns its exit code; otherwise -1.
    int runIfParsed();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace firelab::app
