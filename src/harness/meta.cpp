#include "harness/meta.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include "harness/process.h"
#include "sim/snapshot.h"

#ifndef FIRELAB_VERSION
#define FIRELAB_VERSION "unknown"
#endif
#ifndef FIRELAB_GIT_COMMIT
#define FIRELAB_GIT_COMMIT "unknown"
#endif

namespace firelab::harness {
namespace {

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

std::string gitCommit(const std::filesystem::path& dir) {
    // The working tree's commit when run from a checkout (with "-dirty" for local changes), else the
    // commit the binary was configured at.
    std::string out;
    if (runProcess({"git", "-C", dir.string(), "describe", "--always", "--dirty", "--abbrev=40"}, &out, true) != 0)
        out.clear();
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out.empty() ? std::string(FIRELAB_GIT_COMMIT) : out;
}

std::string q(const std::string& s) { return "\"" + jsonEscape(s) + "\""; }

}  // namespace

std::string utcTimestamp() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string jsonEscape(const std::string& s) {
    std::string o;
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') o += '\\', o += static_cast<char>(c);
        else if (c == '\n') o += "\\n";
        else if (c == '\t') o += "\\t";
        else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else o += static_cast<char>(c);
    }
    return o;
}

std::string metaJson(const MetaInfo& m) {
    utsname u{};
    ::uname(&u);
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    std::ostringstream o;
    o << "{\n";
    o << "  \"experiment\": " << q(m.experiment) << ",\n";
    o << "  \"description\": " << q(m.description) << ",\n";
    o << "  \"firelab_version\": " << q(m.firelabVersion.empty() ? FIRELAB_VERSION : m.firelabVersion) << ",\n";
    o << "  \"git_commit\": " << q(gitCommit(m.dataDir)) << ",\n";
    o << "  \"command_line\": " << q(m.commandLine) << ",\n";
    o << "  \"started\": " << q(m.started) << ",\n";
    o << "  \"finished\": " << q(m.finished) << ",\n";
    o << "  \"shard\": " << q(m.shard) << ",\n";
    o << "  \"runs\": {\"planned\": " << m.runsPlanned << ", \"in_shard\": " << m.runsInShard
      << ", \"done\": " << m.runsDone << ", \"failed\": " << m.runsFailed << "},\n";
    o << "  \"machine\": {\"hostname\": " << q(host) << ", \"os\": " << q(std::string(u.sysname) + " " + u.release)
      << ", \"arch\": " << q(u.machine) << ", \"cpu\": " << q(cpuModel())
      << ", \"logical_cores\": " << ::sysconf(_SC_NPROCESSORS_ONLN)
      << ", \"memory_gib\": " << (static_cast<double>(pages) * static_cast<double>(pageSize) / (1024.0 * 1024 * 1024)) << "},\n";
    if (m.gl) {
        o << "  \"gl\": {\"vendor\": " << q(m.gl->vendor) << ", \"renderer\": " << q(m.gl->renderer)
          << ", \"version\": " << q(m.gl->version) << ", \"glsl\": " << q(m.gl->glsl) << "},\n";
        o << "  \"timer_queries_meaningful\": " << (m.gl->timerQueriesMeaningful ? "true" : "false") << ",\n";
    } else {
        o << "  \"gl\": null,\n  \"gl_error\": " << q(m.glError) << ",\n";
        o << "  \"timer_queries_meaningful\": false,\n";
    }
    o << "  \"timing\": " << q(m.gl && m.gl->timerQueriesMeaningful
                                    ? "gpu_ms_* are the GPU's own time (GL_TIME_ELAPSED); frame_ms_* and draw_ms_* are wall "
                                      "clock around a fence and include the driver's submission."
                                    : "software renderer: GL timer queries do not measure the work, so gpu_ms_* is "
                                      "meaningless; trust frame_ms_* and draw_ms_* (wall clock around a fence).")
      << "\n}\n";
    return o.str();
}

void writeMeta(const std::filesystem::path& file, const MetaInfo& m) {
    sim::AtomicFile f(file);
    f.stream() << metaJson(m);
    f.commit();
}

}  // namespace firelab::harness
