// Running a list of planned runs into a runs.csv: progress on a terminal, --resume, --shard K/N,
// meta.json and plots. SIGINT/SIGTERM stop after discarding the run in progress, leaving whole rows only.
#pragma once
#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/settings/experiment.h"
#include "harness/platform/interrupt.h"
#include "harness/measure/runner.h"

namespace firelab::harness {

struct SweepOptions {
    Experiment experiment;
    std::string source;            // the experiment file, for messages
    std::filesystem::path csv;     // runs.csv to append to
    std::filesystem::path outDir;  // for meta.json and plots; empty: neither is written
    bool resume = false;           // skip runs whose run_key is already in the CSV with status ok; refuse
                                   // a folder whose meta.json records another configuration or shard
    bool refuseExisting = false;   // a non-empty CSV without --resume is an error (sweep)
    std::optional<std::pair<size_t, size_t>> shard;
    std::string commandLine;
    bool plots = true;
    bool debugContext = false;
    std::filesystem::path dataDir;
    std::filesystem::path saveFrames;  // --save-frames: every scored and reference frame (quality runs)
    // --processes K: the command that runs this sweep again (the binary first), to which `--process k` is added
    // for each process; process > 0 is such a process, measuring its own rounds into the folder its parent holds.
    std::vector<std::string> relaunch;
    int process = 0;
};

struct SweepSummary {
    size_t planned = 0, selected = 0, skipped = 0, done = 0, failed = 0;
    bool interrupted = false;
    // Inputs whose content changed while the sweep ran (read again after its last run): its runs may have read
    // two versions of them. meta.json lists them; the command ends with 1.
    std::vector<std::string> inputsChanged;
};

// Validates everything (every run's settings, the output's writability) before the first run starts;
// throws firelab::Error then, and never touches an existing results file. Runtime failures of single
// runs go into their rows' status.
SweepSummary runSweep(const SweepOptions& options);

}  // namespace firelab::harness
