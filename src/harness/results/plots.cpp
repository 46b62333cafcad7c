#include "harness/results/plots.h"

#include <cstdio>

#include "harness/platform/process.h"

namespace firelab::harness {
namespace fs = std::filesystem;

bool makePlots(const fs::path& csv, const fs::path& outDir, const fs::path& dataDir) {
    const fs::path script = dataDir / "scripts" / "plot.py";
    const char* python = "/usr/bin/python3";
    std::error_code ec;
    if (!fs::exists(script, ec) || !fs::exists(python, ec)) {
        std::fprintf(stderr, "firelab: warning: no plots (%s or %s missing)\n", script.c_str(), python);
        return false;
    }
    if (runProcess({python, script.string(), csv.string(), "--out", outDir.string()}) != 0) {
        std::fprintf(stderr, "firelab: warning: plotting failed (%s %s)\n", python, script.c_str());
        return false;
    }
    return true;
}

}  // namespace firelab::harness
