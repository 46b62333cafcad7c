// The reference pages generated from the declarations, never written by hand: docs/cli.md from the command
// line as CLI11 holds it (every command, its help line, its options with their help, defaults and groups) and
// docs/settings.md from the setting visitors (sim::visitParams, render::visitRenderOptions,
// harness::visitRunSettings: each setting's kind, default, range or choices, help, attributes and where it is
// given). `firelab docs --out docs` writes them; tests/app/docs_test.cpp fails when a committed page differs.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/command.h"
#include "harness/settings/run_settings.h"

namespace firelab::app {

struct ReferencePage {
    std::string file;  // its name under docs/
    std::string text;
};

// Every generated page, made from `cli` (a CommandLine's app(): every command's options declared).
std::vector<ReferencePage> referencePages(const CLI::App& cli);
// The pages themselves: cli.md and settings.md.
std::string cliPage(const CLI::App& cli);
std::string settingsPage(const CLI::App& cli);

// Each command of the registry with its CLI11 app in `cli` (the top level for the summary) and its title on
// the pages ("firelab" for the summary, else its name), in the registry's order.
struct CommandApp {
    const CommandEntry* entry;
    const CLI::App* app;
    std::string title;
};
std::vector<CommandApp> commandApps(const CLI::App& cli);

// The command that rewrites the committed pages, for messages.
inline constexpr std::string_view kRewritePagesCommand = "scripts/firelab docs --out docs";

// An experiment file's [quality] table: its key and the setting that key sets.
struct QualityKey {
    std::string_view key, setting;
};
// The [quality] table's keys, as harness::loadExperiment reads them (tests/app/docs_test.cpp checks it does).
std::span<const QualityKey> qualityTableKeys();

// A setting's valid values as settings.md writes them ("[1, 16384]", "(0, 1]", "each in [0, 1000]"), empty
// where the kind has none (text, a path, a switch). A run-level setting's is the one its flag's help states.
std::string rangeText(const harness::SettingInfo& s);

}  // namespace firelab::app
