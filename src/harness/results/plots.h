// A results folder's plots and report.html: scripts/plot.py run by Debian's /usr/bin/python3 (which has
// matplotlib), as a child process that a stop request ends too.
#pragma once
#include <filesystem>

namespace firelab::harness {

// Runs dataDir/scripts/plot.py on `csv` into `outDir`; returns false (with a warning) if it cannot.
bool makePlots(const std::filesystem::path& csv, const std::filesystem::path& outDir,
               const std::filesystem::path& dataDir);

}  // namespace firelab::harness
