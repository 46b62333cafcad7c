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

long processOf(const Row* r) {
    const auto it = r->find("process");
    return it == r->end() || it->second.empty() ? 1 : std::atol(it->second.c_str());
}

// The rounds' values of `column` by the process they ran in (--processes), each round a block of its own.
Clusters byProcess(const std::vector<const Row*>& rows, const std::string& column) {
    std::vector<long> processes;
    Clusters out;
    for (const Row* r : rows) {
        const auto v = valuesOf({r}, column);
        if (v.empty()) continue;
        const long p = processOf(r);
        auto it = std::find(processes.begin(), processes.end(), p);
        if (it == processes.end()) processes.push_back(p), out.emplace_back(), it = processes.end() - 1;
        out[static_cast<size_t>(it - processes.begin())].push_back(v);
    }
    return out;
}

// `column` (a MedianInterval column, NAME_median) as the median over rounds, with its bootstrap interval in
// NAME_ci_low and NAME_ci_high: over rounds, or over processes then rounds when they ran in several.
void medianWithInterval(Row& out, const std::vector<const Row*>& rows, const std::string& column, uint64_t seed) {
    const auto values = valuesOf(rows, column);
    const std::string stem = column.substr(0, column.rfind("_median"));
    if (values.empty()) {
        out[column] = out[stem + "_ci_low"] = out[stem + "_ci_high"] = "";
        return;
    }
    const Clusters processes = byProcess(rows, column);
    const Interval i = processes.size() > 1 ? nestedBootstrapMedian(processes, seed) : bootstrapMedian(values, seed);
    out[column] = csvNumber(i.median);
    out[stem + "_ci_low"] = csvNumber(i.low);
    out[stem + "_ci_high"] = csvNumber(i.high);
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

std::vector<size_t> groupedRoundOrder(const std::vector<size_t>& group, const std::vector<bool>& isBaseline, int round,
                                      int rounds, uint64_t seed) {
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

namespace {
// The ok rounds in round order.
std::vector<const Row*> okRounds(const std::vector<Row>& rounds) {
    std::vector<const Row*> ok;
    for (const auto& r : rounds)
        if (r.count("status") && r.at("status") == "ok") ok.push_back(&r);
    auto roundOf = [](const Row* r) { return r->count("round") ? std::atol(r->at("round").c_str()) : 0L; };
    std::stable_sort(ok.begin(), ok.end(), [&](const Row* a, const Row* b) { return roundOf(a) < roundOf(b); });
    return ok;
}

// The round that scored the picture (the first; later rounds only time), or null.
const Row* scoredRound(const std::vector<const Row*>& ok) {
    for (const Row* r : ok)
        if (r->count("quality_frames") && !r->at("quality_frames").empty()) return r;
    return nullptr;
}

std::string fieldOf(const Row* row, const std::string& column) {
    if (!row) return "";
    const auto it = row->find(column);
    return it == row->end() ? "" : it->second;
}
}  // namespace

Row summariseRounds(const std::vector<Row>& rounds) {
    for (const Row& r : rounds) checkColumns(r);
    const std::vector<const Row*> ok = okRounds(rounds);
    if (ok.empty()) {
        Row out = rounds.empty() ? Row{} : rounds.back();
        out["round"] = "";
        out["rounds"] = "0";
        return out;
    }
    Row out = *ok.front();
    const uint64_t seed = fnv1a(out["run_key"]);
    uint64_t intervals = 0;  // each interval its own seed: seed, seed + 1, ...
    const Row* scored = scoredRound(ok);
    for (const Column& c : runColumns()) {
        switch (c.rule) {
        case SummaryRule::First: break;  // the first ok round's, as copied
        case SummaryRule::MedianInterval: medianWithInterval(out, ok, c.name, seed + intervals++); break;
        case SummaryRule::IntervalLow:
        case SummaryRule::IntervalHigh: break;  // written with their median
        case SummaryRule::Median: {
            const auto v = valuesOf(ok, c.name);
            out[c.name] = v.empty() ? "" : csvNumber(summarize(v).median);
            break;
        }
        case SummaryRule::Mean: {
            const auto v = valuesOf(ok, c.name);
            out[c.name] = csvNumber(v.empty() ? 0.0 : sum(v) / static_cast<double>(v.size()));
            break;
        }
        case SummaryRule::Sum: {
            const double total = sum(valuesOf(ok, c.name));
            out[c.name] =
                c.name == "frames" ? std::to_string(static_cast<long long>(std::llround(total))) : csvNumber(total);
            break;
        }
        case SummaryRule::OkRounds: out[c.name] = std::to_string(ok.size()); break;
        case SummaryRule::RoundNumber: out[c.name] = ""; break;
        case SummaryRule::Scored: out[c.name] = fieldOf(scored ? scored : ok.front(), c.name); break;
        case SummaryRule::Fps: break;  // from the summary's frame time, below
        case SummaryRule::Processes: {
            std::vector<long> seen;
            for (const Row* r : ok)
                if (std::find(seen.begin(), seen.end(), processOf(r)) == seen.end()) seen.push_back(processOf(r));
            out[c.name] = std::to_string(seen.size());
            break;
        }
        case SummaryRule::Count: break;
        }
    }
    for (const Column& c : runColumns())
        if (c.rule == SummaryRule::Fps) {
            const double frame = std::strtod(out["frame_ms_median"].c_str(), nullptr);
            out[c.name] = csvNumber(frame > 0 ? 1000.0 / frame : 0.0);
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
