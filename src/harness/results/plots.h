// A results folder's plots and report.html: scripts/plot.py run by Debian's /usr/bin/python3 (which has
// matplotlib), as a child process that a stop request ends too.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace firelab::harness {

// Runs dataDir/scripts/plot.py on `csv` into `outDir`; returns false (with a warning) if it cannot.
// The start of the command line that runs dataDir/scripts/<name> in Debian's /usr/bin/python3 (which has
// matplotlib): {python, script}. Throws Error(MissingFile) naming both when either is missing.
std::vector<std::string> scriptCommand(const std::filesystem::path& dataDir, std::string_view name);

// `metric` (frame, cpu or draw; empty: plot.py's default, frame) is the ratio ratios.png and the report show.
bool makePlots(const std::filesystem::path& csv, const std::filesystem::path& outDir,
               const std::filesystem::path& dataDir, const std::string& metric = "");

}  // namespace firelab::harness
