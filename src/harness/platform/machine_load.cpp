#include "harness/platform/machine_load.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

namespace firelab::harness {
namespace {

std::string readWhole(const char* path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

double processCpuSeconds() {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double loadAverage() {
    double one = -1;
    if (FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &one) != 1) one = -1;
        std::fclose(f);
    }
    return one;
}

std::string fixed(double v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

}  // namespace

// "cpu  user nice system idle iowait irq softirq steal guest guest_nice": idle and iowait are not work;
// guest time is already inside user, so it is not added again.
std::optional<CpuTicks> parseProcStat(std::string_view text) {
    if (text.substr(0, 4) != "cpu ") return std::nullopt;
    std::istringstream line{std::string(text.substr(4, text.substr(0, text.find('\n')).size() - 4))};
    std::vector<uint64_t> v;
    for (uint64_t x; v.size() < 8 && line >> x;) v.push_back(x);
    if (v.size() < 4) return std::nullopt;
    CpuTicks t;
    for (size_t i = 0; i < v.size(); ++i) {
        t.total += v[i];
        if (i != 3 && i != 4) t.busy += v[i];
    }
    return t;
}

MachineLoad machineLoadBetween(const CpuTicks& before, const CpuTicks& after, double seconds, double ownCpuSeconds,
                               int cores) {
    MachineLoad m;
    m.seconds = seconds;
    m.cores = cores;
    m.ownCores = seconds > 0 ? ownCpuSeconds / seconds : 0.0;
    if (after.total > before.total && after.busy >= before.busy) {
        m.known = true;
        m.busyCores = double(after.busy - before.busy) / double(after.total - before.total) * double(cores);
    }
    return m;
}

MachineLoad sampleMachineLoad(std::chrono::milliseconds window) {
    const int cores = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
    const auto before = parseProcStat(readWhole("/proc/stat"));
    const double ownBefore = processCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(window);
    const auto after = parseProcStat(readWhole("/proc/stat"));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MachineLoad m;
    if (before && after) m = machineLoadBetween(*before, *after, seconds, processCpuSeconds() - ownBefore, cores);
    m.seconds = seconds;
    m.cores = cores;
    m.loadAverage = loadAverage();
    return m;
}

bool machineIsQuiet(const MachineLoad& load) { return !load.known || load.otherCores() <= kQuietOtherCores; }

std::string describeLoad(const MachineLoad& load) {
    std::string text = load.known ? "other processes kept " + fixed(load.otherCores(), 2) + " of " +
                                        std::to_string(load.cores) + " cores busy over " + fixed(load.seconds, 1) + " s"
                                  : "the machine's CPU use could not be read (/proc/stat)";
    if (load.loadAverage >= 0) text += " (load average " + fixed(load.loadAverage, 2) + ")";
    return text;
}

std::vector<std::pair<std::string, std::string>> rendererEnvironment() {
    std::vector<std::pair<std::string, std::string>> set;
    for (const char* name :
         {"LP_NUM_THREADS", "GALLIUM_DRIVER", "LIBGL_ALWAYS_SOFTWARE", "MESA_LOADER_DRIVER_OVERRIDE",
          "MESA_GL_VERSION_OVERRIDE", "vblank_mode", "__GL_SYNC_TO_VBLANK", "__GL_THREADED_OPTIMIZATIONS",
          "mesa_glthread", "SDL_VIDEODRIVER", "__EGL_VENDOR_LIBRARY_FILENAMES"})
        if (const char* v = std::getenv(name)) set.emplace_back(name, v);
    return set;
}

}  // namespace firelab::harness
