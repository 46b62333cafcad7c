// One subcommand of firelab: a Command adds its options to its CLI11 subcommand and runs it; its file
// defines a CommandEntry (name, one-line help, factory), and the registry (command_registry.cpp) lists every
// entry once, in the order --help shows them. Adding a command is its file and one registry line.
//
//   extern constexpr CommandEntry kListCommand{"list", "list the rendering strategies and the render options",
//                                              [] -> std::unique_ptr<Command> { return std::make_unique<List>(); }};
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace firelab::app {

// What a command reads when it runs, beside its own options.
struct CommandContext {
    const std::string& dataDir;            // --data-dir as given ("": found next to the binary or in the source tree)
    const std::string& commandLine;        // the whole command line, for meta.json
    const std::vector<std::string>& argv;  // the same, word by word (a sweep of several processes starts them)
    const CLI::App& cli;                   // the whole command line's declarations (firelab docs writes them out)
};

class Command {
public:
    virtual ~Command() = default;
    // Adds its options and positionals to `cmd`: its subcommand, or the top level for the summary.
    virtual void addTo(CLI::App& cmd) = 0;
    // Runs it once the command line parsed; returns the exit code. Throws firelab::Error for bad input
    // (exit 2) and runtime failures (exit 1), as exitCodeFor says.
    virtual int run(const CommandContext& context) = 0;
};

struct CommandEntry {
    std::string_view name;  // the subcommand's name; empty: what runs when none is named (options on the top level)
    std::string_view help;  // its line in firelab --help
    std::unique_ptr<Command> (*make)();
};

// Every command, in the registry's order: the order firelab --help lists them.
std::span<const CommandEntry* const> commands();

}  // namespace firelab::app
