#include "harness/results/rounds.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "harness/results/stats.h"

namespace firelab::harness {
namespace {

// The column's values over the rounds that have it (empty fields and unparsable text are skipped).
std::vector<double> valuesOf(const std::vector<const Row*>& rows, const std::string& column) {
    std::vector<double> out;
    for (const Row* r : rows) {
        const auto it = r->find(column);
        if (it == r->end() || it->second.empty()) continue;
        char* end = nullptr;
        const double v = std::strtod(it->second.c_str(), &end);
        if (end != it->second.c_str() && std::isfinite(v)) out.push_back(v);
    }
    return out;
}

// Timing columns summarised as the median over rounds.
constexpr const char* kMedianColumns[] = {
    "frame_ms_mean", "frame_ms_p5", "frame_ms_p95", "frame_ms_p99", "frame_ms_stddev", "frame_ms_min",
    "frame_ms_max", "sim_ms_median", "upload_ms_median", "gpu_ms_median", "gpu_simulate_ms_median",
    "gpu_sort_ms_median", "gpu_scene_ms_median", "gpu_depth_ms_median", "gpu_particles_ms_median",
    "gpu_composite_ms_median", "gpu_tonemap_ms_median", "harness_ms_mean"};

// Quality columns: from the round that scored the picture.
constexpr const char* kQualityColumns[] = {
    "reference", "energy_scale", "quality_frames", "psnr_db", "ssim", "flip", "psnr_fire_db", "ssim_fire",
    "flip_fire", "flicker_ratio", "fragments_shaded", "fragments_visible", "covered_fraction", "frame_png",
    "reference_png", "quality_seconds"};

// `column` as the median over rounds with its bootstrap interval in `column_ci_low/high` (the prefix
// before "_median").
void medianWithInterval(Row& out, const std::vector<const Row*>& rows, const std::string& prefix, uint64_t seed) {
    const auto values = valuesOf(rows, prefix + "_median");
    if (values.empty()) return;
    const Interval i = bootstrapMedian(values, seed);
    out[prefix + "_median"] = csvNumber(i.median);
    out[prefix + "_ci_low"] = csvNumber(i.low);
    out[prefix + "_ci_high"] = csvNumber(i.high);
}

double sum(const std::vector<double>& v) {
    double s = 0.0;
    for (double x : v) s += x;
    return s;
}

}  // namespace

namespace {
// The generator of one round: splitmix64 of (seed, round), so nearby seeds and rounds give unrelated orders.
std::mt19937_64 roundGenerator(uint64_t seed, int round) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(round + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return std::mt19937_64(z ^ (z >> 31));
}

// Fisher-Yates with our own index draws: std::shuffle's use of the engine is not specified, and the order
// must be the same on every standard library.
template <class T>
void shuffle(std::vector<T>& v, std::mt19937_64& rng) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
}
}  // namespace

std::vector<size_t> roundOrder(size_t count, int round, int rounds, uint64_t seed) {
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; ++i) order[i] = i;
    if (rounds <= 1) return order;
    auto rng = roundGenerator(seed, round);
    shuffle(order, rng);
    return order;
}

std::vector<size_t> groupedRoundOrder(const std::vector<size_t>& group, const std::vector<bool>& isBaseline,
                                      int round, int rounds, uint64_t seed) {
    if (rounds <= 1) return roundOrder(group.size(), round, rounds, seed);
    std::vector<std::vector<size_t>> members;  // by group, in first-seen order
    std::vector<size_t> ids;
    for (size_t i = 0; i < group.size(); ++i) {
        auto it = std::find(ids.begin(), ids.end(), group[i]);
        if (it == ids.end()) {
            ids.push_back(group[i]);
            members.emplace_back();
            it = ids.end() - 1;
        }
        members[static_cast<size_t>(it - ids.begin())].push_back(i);
    }
    auto rng = roundGenerator(seed, round);
    shuffle(members, rng);
    std::vector<size_t> order;
    for (auto& m : members) {
        shuffle(m, rng);
        const auto base = std::find_if(m.begin(), m.end(), [&](size_t i) { return isBaseline[i]; });
        if (base != m.end()) std::iter_swap(base, m.begin() + static_cast<long>(m.size() / 2));
        order.insert(order.end(), m.begin(), m.end());
    }
    return order;
}

Row summariseRounds(const std::vector<Row>& rounds) {
    std::vector<const Row*> ok;
    for (const auto& r : rounds)
        if (r.count("status") && r.at("status") == "ok") ok.push_back(&r);
    if (ok.empty()) {
        Row out = rounds.empty() ? Row{} : rounds.back();
        out["round"] = "";
        out["rounds"] = "0";
        return out;
    }
    auto roundOf = [](const Row* r) { return r->count("round") ? std::atol(r->at("round").c_str()) : 0L; };
    std::stable_sort(ok.begin(), ok.end(), [&](const Row* a, const Row* b) { return roundOf(a) < roundOf(b); });
    Row out = *ok.front();
    const uint64_t seed = fnv1a(out["run_key"]);
    out["round"] = "";
    out["rounds"] = std::to_string(ok.size());
    medianWithInterval(out, ok, "frame_ms", seed);
    medianWithInterval(out, ok, "draw_ms", seed + 1);
    for (const char* c : kMedianColumns) {
        const auto v = valuesOf(ok, c);
        out[c] = v.empty() ? "" : csvNumber(summarize(v).median);
    }
    const double frame = std::strtod(out["frame_ms_median"].c_str(), nullptr);
    out["fps"] = csvNumber(frame > 0 ? 1000.0 / frame : 0.0);
    const auto alive = valuesOf(ok, "alive_mean");
    out["alive_mean"] = csvNumber(alive.empty() ? 0.0 : sum(alive) / static_cast<double>(alive.size()));
    out["frames"] = std::to_string(static_cast<long long>(std::llround(sum(valuesOf(ok, "frames")))));
    out["seconds"] = csvNumber(sum(valuesOf(ok, "seconds")));
    // The scored round's picture (the first round scores it; later rounds only time).
    for (const Row* r : ok)
        if (r->count("quality_frames") && !r->at("quality_frames").empty()) {
            for (const char* c : kQualityColumns) out[c] = r->count(c) ? r->at(c) : "";
            break;
        }
    return out;
}

std::filesystem::path roundsCsvFor(const std::filesystem::path& runsCsv) {
    if (runsCsv.filename() == "runs.csv") return runsCsv.parent_path() / "rounds.csv";
    std::filesystem::path p = runsCsv;
    p.replace_extension(".rounds.csv");
    return p;
}
}  // namespace firelab::harness
