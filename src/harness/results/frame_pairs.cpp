#include "harness/results/frame_pairs.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "core/atomic_file.h"
#include "core/error.h"
#include "harness/results/csv.h"

namespace firelab::harness {
namespace fs = std::filesystem;

fs::path framesCsvFor(const fs::path& runsCsv) {
    if (runsCsv.filename() == "runs.csv") return runsCsv.parent_path() / "frames.csv";
    fs::path p = runsCsv;
    p.replace_extension(".frames.csv");
    return p;
}

namespace {
std::vector<std::string> fieldsOf(const FrameRecord& r) {
    return {r.experiment,
            r.runKey,
            r.groupKey,
            std::to_string(r.process),
            std::to_string(r.round),
            std::to_string(r.cycle),
            std::to_string(r.slot),
            csvNumber(r.frameMs),
            csvNumber(r.cpuMs),
            csvNumber(r.drawMs)};
}

std::string headerLine() { return csvLine(std::vector<std::string>(kFrameColumns.begin(), kFrameColumns.end())); }

double numberAt(const std::vector<std::string>& f, size_t i, const fs::path& file, size_t line) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(f[i].c_str(), &end);
    if (f[i].empty() || *end || errno || !std::isfinite(v))
        throw Error(ErrorCode::BadFile, file.string() + ":" + std::to_string(line) + ": " +
                                            std::string(kFrameColumns[i]) + " '" + f[i] + "' is not a number");
    return v;
}
}  // namespace

void appendFrameRecords(const fs::path& file, const std::vector<FrameRecord>& records) {
    std::vector<std::string> lines;
    lines.reserve(records.size());
    for (const auto& r : records) lines.push_back(csvLine(fieldsOf(r)));
    appendCsvLines(file, headerLine(), lines);
}

void writeFrameRecords(const fs::path& file, const std::vector<FrameRecord>& records) {
    core::AtomicFile out(file);
    out.stream() << headerLine();
    for (const auto& r : records) out.stream() << csvLine(fieldsOf(r));
    out.commit();
}

std::vector<FrameRecord> readFrameRecords(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec)) return {};
    if (!fs::is_regular_file(file, ec))
        throw Error(ErrorCode::BadFile, file.string() + ": not a regular file, so not firelab's frames.csv");
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const auto rows = parseCsv(text.str());
    if (rows.empty()) return {};
    if (rows[0] != std::vector<std::string>(kFrameColumns.begin(), kFrameColumns.end()))
        throw Error(ErrorCode::BadFile, file.string() + ": its header is not firelab's frames.csv header (" +
                                            headerLine().substr(0, headerLine().size() - 1) + ")");
    // The latest record of each configuration, run and cycle, in the order first seen.
    std::map<std::tuple<std::string, std::string, long, long, long>, size_t> at;
    std::vector<FrameRecord> out;
    for (size_t i = 1; i < rows.size(); ++i) {
        const auto& f = rows[i];
        if (f.size() != kFrameColumns.size())
            throw Error(ErrorCode::BadFile, file.string() + ":" + std::to_string(i + 1) + ": " +
                                                std::to_string(f.size()) + " fields, not " +
                                                std::to_string(kFrameColumns.size()));
        FrameRecord r{f[0],
                      f[1],
                      f[2],
                      static_cast<long>(numberAt(f, 3, file, i + 1)),
                      static_cast<long>(numberAt(f, 4, file, i + 1)),
                      static_cast<long>(numberAt(f, 5, file, i + 1)),
                      static_cast<int>(numberAt(f, 6, file, i + 1)),
                      numberAt(f, 7, file, i + 1),
                      numberAt(f, 8, file, i + 1),
                      numberAt(f, 9, file, i + 1)};
        const auto key = std::make_tuple(r.runKey, r.groupKey, r.process, r.round, r.cycle);
        if (const auto it = at.find(key); it != at.end())
            out[it->second] = std::move(r);
        else
            at.emplace(key, out.size()), out.push_back(std::move(r));
    }
    return out;
}

namespace {
using RunId = std::tuple<std::string, long, long>;  // group, process, round

// One configuration's frames by run and cycle, the frames kept that are positive and within 10 times the
// median of their run.
std::map<RunId, std::map<long, const FrameRecord*>> byRun(const std::vector<FrameRecord>& records) {
    constexpr double kOutlierFactor = 10.0;  // as the runner's (runner.cpp)
    std::map<RunId, std::vector<const FrameRecord*>> runs;
    for (const auto& r : records) runs[{r.groupKey, r.process, r.round}].push_back(&r);
    std::map<RunId, std::map<long, const FrameRecord*>> out;
    for (const auto& [id, frames] : runs) {
        std::vector<double> ms;
        for (const auto* f : frames) ms.push_back(f->frameMs);
        const double median = summarize(ms).median;
        for (const auto* f : frames)
            if (f->frameMs > 0 && f->frameMs <= kOutlierFactor * median) out[id][f->cycle] = f;
    }
    return out;
}
}  // namespace

FramePairs pairFrames(const std::vector<FrameRecord>& mine, const std::vector<FrameRecord>& base) {
    FramePairs p;
    const auto a = byRun(mine), b = byRun(base);
    std::map<long, size_t> clusterOf;                                     // process -> index into the clusters
    std::map<std::tuple<long, std::string, long, long>, size_t> blockOf;  // process, group, round, block
    auto slot = [](Clusters& c, size_t cluster, size_t block) -> std::vector<double>& {
        if (c.size() <= cluster) c.resize(cluster + 1);
        if (c[cluster].size() <= block) c[cluster].resize(block + 1);
        return c[cluster][block];
    };
    for (const auto& [id, cycles] : a) {
        const auto other = b.find(id);
        if (other == b.end()) continue;
        const auto& [group, process, round] = id;
        bool any = false;
        for (const auto& [cycle, f] : cycles) {
            const auto g = other->second.find(cycle);
            if (g == other->second.end()) continue;
            const size_t cluster = clusterOf.emplace(process, clusterOf.size()).first->second;
            size_t& nextBlock = blockOf[{process, "", -1, -1}];  // blocks so far in this cluster
            const auto [it, fresh] =
                blockOf.emplace(std::make_tuple(process, group, round, cycle / kBlockCycles), nextBlock);
            if (fresh) ++nextBlock;
            const size_t block = it->second;
            const FrameRecord& theirs = *g->second;
            slot(p.frame, cluster, block).push_back(f->frameMs / theirs.frameMs);
            if (f->cpuMs > 0 && theirs.cpuMs > 0) slot(p.cpu, cluster, block).push_back(f->cpuMs / theirs.cpuMs);
            if (f->drawMs > 0 && theirs.drawMs > 0) slot(p.draw, cluster, block).push_back(f->drawMs / theirs.drawMs);
            p.mineMs.push_back(f->frameMs);
            p.baseMs.push_back(theirs.frameMs);
            ++p.pairs;
            any = true;
        }
        if (any) ++p.rounds;
    }
    return p;
}

}  // namespace firelab::harness
