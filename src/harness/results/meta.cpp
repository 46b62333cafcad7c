#include "harness/results/meta.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "harness/quality/metrics.h"
#include "harness/results/schema.h"
#include "harness/platform/process.h"
#include "core/error.h"
#include "sim/snapshot.h"

#ifndef FIRELAB_VERSION
#define FIRELAB_VERSION "unknown"
#endif
#ifndef FIRELAB_GIT_COMMIT
#define FIRELAB_GIT_COMMIT "unknown"
#endif

namespace firelab::harness {
namespace {

// Keys in the order written: meta.json reads top-down, and a configuration's axes keep their order.
using Json = nlohmann::ordered_json;

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

// Invalid UTF-8 (a label, a host name) is written as U+FFFD rather than failing the write.
std::string dumpJson(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"; }

Json configJson(const ExperimentConfig& c) {
    Json settings = Json::object(), axes = Json::object();
    for (const auto& [name, value] : c.settings) settings[name] = value;
    for (const auto& [name, values] : c.axes) axes[name] = values;
    Json j{{"settings", settings}, {"axes", axes}};
    if (!c.inputs.empty()) {
        Json inputs = Json::object();
        for (const auto& [name, hash] : c.inputs) inputs[name] = hash;
        j["inputs"] = inputs;
    }
    return j;
}

Json parseJsonFile(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw Error(ErrorCode::MissingFile, file.string() + ": no such file");
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::BadFile, file.string() + ": not a regular file");
    std::ifstream in(file, std::ios::binary);
    try {
        return Json::parse(in);
    } catch (const Json::exception& e) {
        throw Error(ErrorCode::BadFile, file.string() + ": not valid JSON (" + e.what() + ")");
    }
}

// How busy the machine was over a sample, or null when it could not be read.
Json loadJson(const std::optional<MachineLoad>& load) {
    if (!load || !load->known) return nullptr;
    return {{"other_busy_cores", load->otherCores()},
            {"own_cores", load->ownCores},
            {"seconds", load->seconds},
            {"load_average_1min", load->loadAverage},
            {"quiet", machineIsQuiet(*load)}};
}

Json sessionJson(const SweepSession& s) {
    return {{"started", s.started},
            {"ended", s.finished},
            {"command_line", s.commandLine},
            {"hostname", s.hostname},
            {"git_commit", s.gitCommit}};
}

// The earlier sittings, then this one.
Json sessionsJson(const MetaInfo& m, const std::string& host, const std::string& commit) {
    Json out = Json::array();
    for (const SweepSession& s : m.earlierSessions) out.push_back(sessionJson(s));
    out.push_back(sessionJson({m.started, m.finished, m.commandLine, host, commit}));
    return out;
}

std::string textAt(const Json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// meta.json's sittings; one written before "sessions": the one its top level records.
std::vector<SweepSession> readSessions(const Json& j) {
    std::vector<SweepSession> out;
    if (!j.contains("sessions") || !j["sessions"].is_array()) {
        const std::string host =
            j.contains("machine") && j["machine"].is_object() ? textAt(j["machine"], "hostname") : "";
        if (j.contains("started"))
            out.push_back({textAt(j, "started"), textAt(j, "finished"), textAt(j, "command_line"), host,
                           textAt(j, "git_commit")});
        return out;
    }
    for (const Json& s : j["sessions"])
        if (s.is_object())
            out.push_back({textAt(s, "started"), textAt(s, "ended"), textAt(s, "command_line"), textAt(s, "hostname"),
                           textAt(s, "git_commit")});
    return out;
}

}  // namespace

std::string gitCommit(const std::filesystem::path& dir) {
    // The working tree's commit when run from a checkout (with "-dirty" for local changes), else the
    // commit the binary was configured at.
    std::string out;
    if (runProcess({"git", "-C", dir.string(), "describe", "--always", "--dirty", "--abbrev=40"}, &out, true) != 0)
        out.clear();
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out.empty() ? std::string(FIRELAB_GIT_COMMIT) : out;
}

std::string utcTimestamp() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

// runs.csv's columns as the schema declares them, so that scripts read the file's meaning, not a copy of it.
Json columnsJson() {
    Json out = Json::array();
    for (const Column& c : runColumns()) {
        Json col{{"name", c.name}, {"group", groupName(c.group)}, {"rule", ruleName(c.rule)}};
        if (!c.setting.empty()) col["setting"] = c.setting;
        out.push_back(std::move(col));
    }
    return out;
}

// The image metrics' registry: their columns and which way is better.
Json metricsJson() {
    Json out = Json::array();
    for (const Metric& m : metrics())
        out.push_back({{"name", m.name},
                       {"label", m.label},
                       {"better", m.higherIsBetter ? "higher" : "lower"},
                       {"frame_column", m.frameColumn},
                       {"fire_column", m.fireColumn},
                       {"default", m.byDefault},
                       {"help", m.help}});
    return out;
}

std::string metaJson(const MetaInfo& m) {
    utsname u{};
    ::uname(&u);
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    Json j;
    j["experiment"] = m.experiment;
    j["description"] = m.description;
    j["question"] = m.question;
    j["baseline"] = m.baseline;
    j["firelab_version"] = m.firelabVersion.empty() ? FIRELAB_VERSION : m.firelabVersion;
    const std::string commit = gitCommit(m.dataDir);
    j["git_commit"] = commit;
    j["command_line"] = m.commandLine;
    j["started"] = m.earlierSessions.empty() ? m.started : m.earlierSessions.front().started;
    j["finished"] = m.finished;
    j["shard"] = m.shard;
    j["runs"] = {
        {"planned", m.runsPlanned}, {"in_shard", m.runsInShard}, {"done", m.runsDone}, {"failed", m.runsFailed}};
    j["machine"] = {
        {"hostname", host},
        {"os", std::string(u.sysname) + " " + u.release},
        {"arch", u.machine},
        {"cpu", cpuModel()},
        {"logical_cores", ::sysconf(_SC_NPROCESSORS_ONLN)},
        {"memory_gib", static_cast<double>(pages) * static_cast<double>(pageSize) / (1024.0 * 1024 * 1024)}};
    if (m.gl) {
        j["gl"] = {{"vendor", m.gl->vendor},
                   {"renderer", m.gl->renderer},
                   {"version", m.gl->version},
                   {"glsl", m.gl->glsl},
                   {"point_size_range", {m.gl->pointSizeMin, m.gl->pointSizeMax}}};
    } else {
        j["gl"] = nullptr;
        j["gl_error"] = m.glError;
    }
    if (!m.inputsChanged.empty()) j["inputs_changed_during_sweep"] = m.inputsChanged;
    j["sessions"] = sessionsJson(m, host, commit);
    j["load_before"] = loadJson(m.loadBefore);
    j["load_after"] = loadJson(m.loadAfter);
    j["environment"] = Json::object();
    for (const auto& [name, value] : rendererEnvironment()) j["environment"][name] = value;
    const bool timers = m.gl && m.gl->timerQueriesMeaningful;
    j["timer_queries_meaningful"] = timers;
    j["timing"] = timers ? "gpu_ms_* are the GPU's own time (GL_TIME_ELAPSED); frame_ms_* and draw_ms_* are wall "
                           "clock around a fence and include the driver's submission."
                         : "software renderer: GL timer queries do not measure the work, so gpu_ms_* is "
                           "meaningless; trust frame_ms_* and draw_ms_* (wall clock around a fence).";
    if (m.config) j["config"] = configJson(*m.config);
    j["columns"] = columnsJson();
    j["metrics"] = metricsJson();
    return dumpJson(j);
}

void writeMeta(const std::filesystem::path& file, const MetaInfo& m) {
    core::AtomicFile f(file);
    f.stream() << metaJson(m);
    f.commit();
}

MetaRecord readMeta(const std::filesystem::path& file) {
    const Json j = parseJsonFile(file);
    const std::string bad = file.string() + ": not a firelab meta.json";
    if (!j.is_object() || !j.contains("experiment") || !j["experiment"].is_string())
        throw Error(ErrorCode::BadFile, bad + " (no \"experiment\")");
    MetaRecord r;
    r.experiment = j["experiment"].get<std::string>();
    if (j.contains("shard") && j["shard"].is_string()) r.shard = j["shard"].get<std::string>();
    if (j.contains("baseline") && j["baseline"].is_string()) r.baseline = j["baseline"].get<std::string>();
    if (j.contains("finished") && j["finished"].is_string()) r.finished = !j["finished"].get<std::string>().empty();
    if (j.contains("runs") && j["runs"].is_object() && j["runs"].contains("done") &&
        j["runs"]["done"].is_number_unsigned())
        r.runsDone = j["runs"]["done"].get<size_t>();
    r.merged = j.contains("merged");
    if (r.merged && j.contains("shards") && j["shards"].is_array()) r.mergedShards = j["shards"].size();
    if (j.contains("inputs_changed_during_sweep") && j["inputs_changed_during_sweep"].is_array())
        for (const Json& c : j["inputs_changed_during_sweep"])
            if (c.is_string()) r.inputsChanged.push_back(c.get<std::string>());
    r.sessions = readSessions(j);
    if (!j.contains("config")) return r;
    const Json& c = j["config"];
    if (!c.is_object() || !c.contains("settings") || !c["settings"].is_object() || !c.contains("axes") ||
        !c["axes"].is_object())
        throw Error(ErrorCode::BadFile, bad + " (\"config\" needs \"settings\" and \"axes\" objects)");
    ExperimentConfig config;
    config.experiment = r.experiment;
    try {
        for (const auto& [name, value] : c["settings"].items())
            config.settings.emplace_back(name, value.get<std::string>());
        for (const auto& [name, values] : c["axes"].items())
            config.axes.emplace_back(name, values.get<std::vector<std::string>>());
        if (c.contains("inputs"))
            for (const auto& [name, hash] : c["inputs"].items())
                config.inputs.emplace_back(name, hash.get<std::string>());
    } catch (const Json::exception& e) {
        throw Error(ErrorCode::BadFile, bad + " (\"config\" holds a value that is not text: " + e.what() + ")");
    }
    r.config = std::move(config);
    return r;
}

void writeMergedMeta(const std::filesystem::path& file, const std::vector<std::filesystem::path>& shardMetas,
                     const std::optional<ExperimentConfig>& config, size_t runs, size_t rejected,
                     const std::string& commandLine) {
    Json shards = Json::array();
    for (const auto& m : shardMetas) shards.push_back(parseJsonFile(m));
    Json j;
    j["merged"] = utcTimestamp();
    j["command_line"] = commandLine;
    j["experiment"] = config ? config->experiment : std::string();
    j["runs"] = runs;
    j["rejected_rows"] = rejected;
    if (config) j["config"] = configJson(*config);
    for (const char* key : {"description", "question", "baseline"})  // the experiment's, from its first shard
        if (!shards.empty() && shards[0].contains(key)) j[key] = shards[0][key];
    j["columns"] = columnsJson();
    j["metrics"] = metricsJson();
    j["shards"] = std::move(shards);
    core::AtomicFile f(file);
    f.stream() << dumpJson(j);
    f.commit();
}

}  // namespace firelab::harness
