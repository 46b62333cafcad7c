// meta.json beside runs.csv: the experiment's question, what the measurements were taken on and how
// (machine, CPU, GL, git commit, command line, start time, firelab version, which timing figures this
// renderer makes trustworthy, how busy the machine was before and after, the renderer's environment), the sweep's whole configuration, which --resume and merge compare before
// they continue or join results, and runs.csv's columns and image metrics as the schema declares them.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/platform/machine_load.h"
#include "harness/settings/experiment.h"
#include "render/gl/gl_context.h"

namespace firelab::harness {

// One sitting of a sweep: its first start, or a --resume that continued it (each kept in meta.json's
// "sessions", so that a resumed shard's provenance is every machine and command that measured it).
struct SweepSession {
    std::string started, finished, commandLine, hostname, gitCommit;
};

struct MetaInfo {
    std::string experiment, description, question, commandLine, started, finished, firelabVersion;
    std::string baseline;  // the experiment's baseline ("strategy=points"), which merge's ratios.csv follows
    std::filesystem::path dataDir;
    const gl::GlInfo* gl = nullptr;  // null when no context could be made
    std::string glError;
    size_t runsPlanned = 0, runsInShard = 0, runsDone = 0, runsFailed = 0;
    std::string shard;  // "K/N" or empty
    std::optional<ExperimentConfig> config;
    // The machine's CPU use by other processes just before the first run and just after the last.
    std::optional<MachineLoad> loadBefore, loadAfter;
    // Inputs whose content changed while the sweep ran ("inputs_changed_during_sweep"; none: absent).
    std::vector<std::string> inputsChanged;
    // The sittings before this one (--resume): the first one's start stays "started".
    std::vector<SweepSession> earlierSessions;
};

// What an existing meta.json says about its sweep.
struct MetaRecord {
    std::string experiment, shard;
    std::string baseline;                    // "" in a sweep without one, or before firelab recorded it
    bool finished = true;                    // false: the sweep was interrupted, or is still running ("finished": "")
    std::optional<size_t> runsDone;          // "runs": {"done": N}: the configurations its runs.csv holds a result of
    std::optional<ExperimentConfig> config;  // absent in a meta.json written before firelab recorded it
    bool merged = false;                     // a merge's meta.json ("merged"), not a sweep's
    size_t mergedShards = 0;                 // how many shards it joined
    std::vector<std::string> inputsChanged;  // "inputs_changed_during_sweep": its runs read two versions of these
    // Every sitting of the sweep, in order ("sessions"; a meta.json before it: the one its top level records).
    std::vector<SweepSession> sessions;
};

// The JSON text (machine facts are read here: /proc/cpuinfo, uname, sysconf, git).
std::string metaJson(const MetaInfo& m);
// Written to a temporary name and renamed. Throws Error(Io).
void writeMeta(const std::filesystem::path& file, const MetaInfo& m);
// Reads a meta.json. Throws Error(MissingFile) when there is none, Error(BadFile) naming the file when it
// is not firelab's JSON.
MetaRecord readMeta(const std::filesystem::path& file);
// The meta.json of a merge: when, how, the run count, the configuration, and each shard's meta.json
// (parsed, not pasted). Written to a temporary name and renamed. Throws Error(BadFile / Io).
void writeMergedMeta(const std::filesystem::path& file, const std::vector<std::filesystem::path>& shardMetas,
                     const std::optional<ExperimentConfig>& config, size_t runs, size_t rejected,
                     const std::string& commandLine);
std::string utcTimestamp();
// The commit of the checkout at `dir` ("-dirty" with local changes), else the one the binary was configured at.
std::string gitCommit(const std::filesystem::path& dir);

}  // namespace firelab::harness
