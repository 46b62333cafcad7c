// firelab's command line: the commands of the registry (command.h) on one CLI11 app, with the top level's
// --data-dir and --version, the checks CLI11 does not make (an option given where it would be ignored, a
// switch given twice), and the exit code of every failure. Exit codes: 0 success, 2 bad usage or input, 1
// runtime failure, 130 interrupted (harness/platform/interrupt.h).
//
//   CommandLine cli;                        // every command's options declared, nothing parsed
//   return runCommandLine(cli, argc, argv);  // parses, runs the command named, prints any failure
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/command.h"

namespace firelab::app {

class CommandLine {
public:
    CommandLine();
    CommandLine(const CommandLine&) = delete;  // CLI11 holds pointers into the commands' flags
    CommandLine& operator=(const CommandLine&) = delete;

    // Parses argv and runs the command it names (the summary when none); throws what either throws.
    int run(int argc, char** argv);
    // Prints a parse error's message (or the --help, --version text) and returns the exit code.
    int exit(const CLI::ParseError& e);
    // Every command's declarations, as CLI11 holds them (firelab docs writes them out).
    const CLI::App& app() const { return cli_; }

private:
    void refuseStrayOptions() const;
    void refuseRepeatedFlags() const;
    std::string valueMessage(const std::string& what) const;

    struct Entry {
        const CommandEntry* entry;
        CLI::App* app;  // its subcommand; the top level for the summary
        std::unique_ptr<Command> command;
    };
    CLI::App cli_{"firelab: a testbed for real-time fire rendering research"};
    std::string dataDir_;
    CLI::Option* dataDirOption_ = nullptr;
    std::vector<Entry> commands_;
};

// Runs the command line and turns every failure into its message on stderr and its exit code.
int runCommandLine(CommandLine& cli, int argc, char** argv);

}  // namespace firelab::app
