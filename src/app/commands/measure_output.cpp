#include "app/commands/measure_output.h"

#include <cstdio>

namespace firelab::app {

harness::SweepOptions sweepOptions(const harness::Experiment& e, const std::string& commandLine,
                                   const std::filesystem::path& dataDir, bool debugContext,
                                   const std::string& saveFrames) {
    harness::SweepOptions o;
    o.experiment = e;
    o.commandLine = commandLine;
    o.dataDir = dataDir;
    o.debugContext = debugContext;
    o.saveFrames = saveFrames;
    return o;
}

int exitCode(const harness::SweepSummary& s) {
    if (s.interrupted) return 130;
    return s.failed || !s.inputsChanged.empty() ? 1 : 0;
}

void report(const harness::SweepSummary& s, const std::filesystem::path& csv, bool resumable) {
    std::fprintf(
        stderr,
        "firelab: %zu run(s) measured, %zu failed, %zu already present, of %zu selected (%zu planned) -> %s%s\n",
        s.done, s.failed, s.skipped, s.selected, s.planned, csv.c_str(),
        !s.interrupted ? ""
        : resumable    ? " [interrupted: finish with --resume]"
                       : " [interrupted: the rows written are whole; measure the rest into another --csv]");
}

}  // namespace firelab::app
