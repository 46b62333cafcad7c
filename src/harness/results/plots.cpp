#include "harness/results/plots.h"

#include <cstdio>
#include <string>
#include <vector>

#include "harness/platform/interrupt.h"
#include "harness/platform/process.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {
// Runs dataDir/scripts/<name> with args; a missing script or interpreter, or a failure, is a warning.
bool runScript(const fs::path& dataDir, const char* name, const char* what, std::vector<std::string> args) {
    const fs::path script = dataDir / "scripts" / name;
    const char* python = "/usr/bin/python3";
    std::error_code ec;
    if (!fs::exists(script, ec) || !fs::exists(python, ec)) {
        std::fprintf(stderr, "firelab: warning: no %s (%s or %s missing)\n", what, script.c_str(), python);
        return false;
    }
    args.insert(args.begin(), {python, script.string()});
    if (runProcess(args) != 0) {
        std::fprintf(stderr, "firelab: warning: %s failed (%s %s)\n", what, python, script.c_str());
        return false;
    }
    return true;
}
}  // namespace

bool makePlots(const fs::path& csv, const fs::path& outDir, const fs::path& dataDir) {
    const bool plotted = runScript(dataDir, "plot.py", "plots", {csv.string(), "--out", outDir.string()});
    if (stopRequested().load()) return false;  // a signal ended the plots: start nothing more
    // The finding this folder feeds, when its experiment has a [report] whose sources are all there.
    const bool found = runScript(dataDir, "findings.py", "finding", {"--sweep", outDir.string()});
    return plotted && found;
}

}  // namespace firelab::harness
