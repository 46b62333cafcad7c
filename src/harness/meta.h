// meta.json beside runs.csv: what the measurements were taken on and how (machine, CPU, GL, git commit,
// command line, start time, firelab version, and which timing figures this renderer makes trustworthy).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "render/gl_context.h"

namespace firelab::harness {

struct MetaInfo {
    std::string experiment, description, commandLine, started, finished, firelabVersion;
    std::filesystem::path dataDir;
    const gl::GlInfo* gl = nullptr;  // null when no context could be made
    std::string glError;
    size_t runsPlanned = 0, runsInShard = 0, runsDone = 0, runsFailed = 0;
    std::string shard;  // "K/N" or empty
};

std::string jsonEscape(const std::string& s);
// The JSON text (machine facts are read here: /proc/cpuinfo, uname, sysconf, git).
std::string metaJson(const MetaInfo& m);
// Written to a temporary name and renamed. Throws Error(Io).
void writeMeta(const std::filesystem::path& file, const MetaInfo& m);
std::string utcTimestamp();

}  // namespace firelab::harness
