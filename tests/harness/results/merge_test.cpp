// harness::mergeShards, in process, on shard folders written here as sweeps leave them (support/sweep_folder.h):
// shards of another experiment or configuration are refused, malformed rows are reported (file:line) and kept
// aside, merge never overwrites, every shard must be there once and finished, a repeated sweep's rounds are
// joined, a shard whose files lost rows or rounds is refused, a folder named twice too, and shards whose inputs
// were reached through a linked folder merge. `firelab merge` of a folder that is no shard exits 2. The merges
// here draw no plots (their data folder has no scripts/plot.py); a merge with its plots: sweep_e2etest.cpp.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "harness/results/csv.h"
#include "harness/results/merge.h"
#include "harness/results/meta.h"
#include "harness/platform/lock.h"
#include "support/cli_in_process.h"
#include "support/error_of.h"
#include "support/sweep_folder.h"

namespace firelab::testing {
namespace {

using harness::readRunsCsv;

class Merge : public Cli {
protected:
    // harness::mergeShards as `firelab merge` calls it, with a data folder without scripts/plot.py (so no plot
    // process), stderr captured; an Error as the command ends with it: its exit code and message.
    Outcome merge(const std::vector<fs::path>& shards, const fs::path& out) const {
        Outcome r;
        CapturedStream err(STDERR_FILENO, dir_ / "stderr.txt");
        try {
            harness::mergeShards(shards, out, dir_ / "no-data", "firelab merge (a test)");
            r.code = 0;
        } catch (const Error& e) {
            r.code = exitCodeFor(e.code());
            std::fprintf(stderr, "firelab: error: %s\n", e.what());
        }
        r.err = err.finish();
        return r;
    }
    // Shards 1/2 and 2/2 of `file`, in dir_/s1 and dir_/s2.
    std::pair<fs::path, fs::path> twoShards(const fs::path& file) const {
        writeSweepFolder(dir_ / "s1", file, "1/2");
        writeSweepFolder(dir_ / "s2", file, "2/2");
        return {dir_ / "s1", dir_ / "s2"};
    }
};

std::string pointsToml(const std::string& name, const std::string& run = "") {
    return tinyToml(name, "particles = [100, 200, 300]\n", "strategy = \"points\"\n" + run);
}

TEST_F(Merge, NoShardOrAFolderThatIsNoShardIsRefused) {
    EXPECT_EQ(errorOf([&] { harness::mergeShards({}, dir_ / "m", dir_, "test"); }).code(), ErrorCode::BadValue);
    EXPECT_EQ(errorOf([&] { harness::mergeShards({dir_ / "not-a-shard"}, dir_ / "m", dir_, "test"); }).code(),
              ErrorCode::MissingFile);
    const Outcome r = runArgs({"merge", (dir_ / "not-a-shard").string(), "--out", (dir_ / "m").string()});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "m" / "runs.csv"));
}

TEST_F(Merge, ShardsOfAnotherExperimentOrConfigurationAreRefused) {
    const fs::path file = write("mg.toml", pointsToml("mg")), other = write("ot.toml", pointsToml("ot"));
    const auto [s1, s2] = twoShards(file);
    writeSweepFolder(dir_ / "s3", other, "2/2");
    writeSweepFolder(dir_ / "s4", file, "2/2", {{"lifetime", "2"}});
    const fs::path merged = dir_ / "merged";
    Outcome r = merge({s1, dir_ / "s3"}, merged);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "experiment: 'mg' there, 'ot' here")) << r.err;
    r = merge({s1, dir_ / "s4"}, merged);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "lifetime")) << r.err;
    EXPECT_FALSE(fs::exists(merged / "runs.csv"));
}

TEST_F(Merge, MalformedRowsAreReportedAndKeptAsideAndAMergeNeverOverwrites) {
    const fs::path file = write("mg.toml", pointsToml("mg"));
    const auto [s1, s2] = twoShards(file);
    const fs::path merged = dir_ / "merged";
    writeFile(s2 / "runs.csv", readFile(s2 / "runs.csv") + "mg,,particles=999,points,short\n");
    Outcome r = merge({s1, s2}, merged);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, (s2 / "runs.csv").string() + ":3")) << r.err;
    EXPECT_TRUE(contains(readFile(merged / "runs.rejected.csv"), "particles=999")) << "the malformed row is kept aside";
    expectComplete(merged / "runs.csv", plannedKeys(file));
    const std::string csv = readFile(merged / "runs.csv"), meta = readFile(merged / "meta.json");
    EXPECT_TRUE(contains(meta, "\"rejected_rows\": 1")) << meta;
    EXPECT_TRUE(contains(meta, "\"experiment\": \"mg\"")) << meta;

    r = merge({s1, s2}, merged);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "never overwrites")) << r.err;
    EXPECT_EQ(readFile(merged / "runs.csv"), csv);
    EXPECT_EQ(readFile(merged / "meta.json"), meta);
}

// A shard missing, one given twice under two names (its runs would count twice) or one that has not finished
// (interrupted, or still running) is refused; a merge interrupted after some of its files (its marker left) runs
// again into the same folder; a repeated sweep's rounds.csv is joined (compare's intervals need it).
TEST_F(Merge, EveryShardOnceFinishedAndTheRoundsKept) {
    const fs::path file = write("rd.toml", pointsToml("rd", "repetitions = 2\n"));
    const auto [s1, s2] = twoShards(file);
    const fs::path merged = dir_ / "merged";
    Outcome r = merge({s1}, merged);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "shard 2/2 missing")) << r.err;
    fs::copy(s2, dir_ / "s2copy", fs::copy_options::recursive);
    r = merge({s1, s2, dir_ / "s2copy"}, merged);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "are both shard 2/2")) << r.err;
    const std::string meta = readFile(s2 / "meta.json");
    const size_t at = meta.find("\"finished\": \"");
    ASSERT_NE(at, std::string::npos) << meta;
    const size_t end = meta.find('"', at + 13);
    writeFile(s2 / "meta.json", meta.substr(0, at) + "\"finished\": \"" + meta.substr(end));
    r = merge({s1, s2}, merged);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "has not finished")) << r.err;
    EXPECT_FALSE(fs::exists(merged / "runs.csv"));
    writeFile(s2 / "meta.json", meta);

    fs::create_directories(merged);
    writeFile(merged / ".merge-in-progress", "");
    writeFile(merged / "runs.csv", "half\n");
    r = merge({s1, s2}, merged);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "interrupted merge")) << r.err;
    EXPECT_FALSE(fs::exists(merged / ".merge-in-progress"));
    expectComplete(merged / "runs.csv", plannedKeys(file));
    const auto rounds = readRunsCsv(merged / "rounds.csv");
    EXPECT_EQ(rounds.size(), 6u);  // 3 runs x 2 rounds, from both shards
    std::set<std::pair<std::string, std::string>> pairs;
    for (const auto& row : rounds) pairs.insert({row.at("run_key"), row.at("round")});
    EXPECT_EQ(pairs.size(), 6u);
}

// A shard whose runs.csv lost a row, or whose rounds.csv is missing or lost rounds, would merge as a smaller
// sweep; a folder named twice (by another path) would be merged once without a word.
TEST_F(Merge, ShardsWhoseFilesLostRowsOrRoundsAndAFolderNamedTwiceAreRefused) {
    const fs::path file = write("lost.toml", tinyToml("lost", "particles = [100, 200, 300, 400]\n",
                                                      "strategy = \"points\"\nrepetitions = 2\n"));
    const auto [s1, s2] = twoShards(file);
    auto firstLines = [](const fs::path& f, size_t n) {
        std::istringstream in(readFile(f));
        std::string out;
        for (std::string line; n-- > 0 && std::getline(in, line);) out += line + "\n";
        return out;
    };
    struct Case {
        const char* name;
        std::function<void(const fs::path&)> damage;
        const char* says;
    };
    const std::vector<Case> cases{
        {"a row lost", [&](const fs::path& d) { writeFile(d / "runs.csv", firstLines(d / "runs.csv", 2)); },
         "rows are missing"},
        {"rounds.csv lost", [](const fs::path& d) { fs::remove(d / "rounds.csv"); }, "its rounds are lost"},
        {"rounds lost", [&](const fs::path& d) { writeFile(d / "rounds.csv", firstLines(d / "rounds.csv", 3)); },
         "rounds are missing"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const fs::path damaged = dir_ / (std::string("d-") + c.name), out = dir_ / (std::string("m-") + c.name);
        fs::copy(s2, damaged, fs::copy_options::recursive);
        c.damage(damaged);
        const Outcome r = merge({s1, damaged}, out);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, c.says)) << r.err;
        EXPECT_FALSE(fs::exists(out / "runs.csv"));
    }
    // A row written twice into one shard's file names that file once, as a row twice (not two shards).
    const fs::path doubled = dir_ / "doubled";
    fs::copy(s2, doubled, fs::copy_options::recursive);
    writeFile(doubled / "runs.csv", readFile(doubled / "runs.csv") +
                                        firstLines(doubled / "runs.csv", 2).substr(harness::runsHeaderLine().size()));
    const Outcome dup = merge({s1, doubled}, dir_ / "m-doubled");
    EXPECT_EQ(dup.code, 2) << dup.err;
    EXPECT_TRUE(contains(dup.err, (doubled / "runs.csv").string() + " holds two ok rows of run")) << dup.err;
    const Outcome twice = merge({s1, dir_ / "." / "s1", s2}, dir_ / "twice");
    EXPECT_EQ(twice.code, 2) << twice.err;
    EXPECT_TRUE(contains(twice.err, "name the same folder")) << twice.err;
    const Outcome whole = merge({s1, s2}, dir_ / "whole");
    EXPECT_EQ(whole.code, 0) << whole.err;
}

// Shards of one sweep started through a symbolic link to its folder (a cluster's scratch or home) named their
// inputs by two paths, and merge refused them. Links are resolved: they merge.
TEST_F(Merge, ShardsReachedThroughALinkedFolderMerge) {
    const fs::path real = dir_ / "real", link = dir_ / "link";
    fs::create_directories(real);
    writeFile(real / "l.toml", tinyToml("l", "particles = [100, 200]\n", "strategy = \"points\"\n"));
    fs::create_directory_symlink(real, link);
    writeSweepFolder(dir_ / "s1", real / "l.toml", "1/2");
    writeSweepFolder(dir_ / "s2", link / "l.toml", "2/2");
    const Outcome m = merge({dir_ / "s1", dir_ / "s2"}, dir_ / "m");
    EXPECT_EQ(m.code, 0) << m.err;
}

// Two writers never meet in one folder: a merge into a folder a sweep (or another merge) is writing is refused,
// naming it, with nothing written; an interrupted merge's folder takes the same merge again, never a merge of
// other shards (the two experiments' rows would mix, and it exited 0).
TEST_F(Merge, TwoWritersOfOneFolderAreRefused) {
    const fs::path file = write("mg.toml", pointsToml("mg")), other = write("ot.toml", pointsToml("ot"));
    const auto [s1, s2] = twoShards(file);
    writeSweepFolder(dir_ / "o1", other, "1/2");
    writeSweepFolder(dir_ / "o2", other, "2/2");
    const fs::path merged = dir_ / "merged";
    fs::create_directories(merged);
    {
        const harness::WriterLock sweep(merged, "--out");  // as a sweep into it holds it
        const Outcome r = merge({s1, s2}, merged);
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_TRUE(contains(r.err, "is being written by")) << r.err;
        EXPECT_FALSE(fs::exists(merged / "runs.csv"));
    }
    // An interrupted merge of ot's shards: mg's are refused, ot's finish it.
    std::string marker = "firelab merge writes this folder; run the same merge again if it was interrupted\not\n";
    for (const char* s : {"o1", "o2"}) marker += fs::weakly_canonical(dir_ / s).string() + "\n";
    writeFile(merged / ".merge-in-progress", marker);
    Outcome r = merge({s1, s2}, merged);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "holds an interrupted merge of other shards")) << r.err;
    EXPECT_FALSE(fs::exists(merged / "runs.csv"));
    r = merge({dir_ / "o1", dir_ / "o2"}, merged);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(readRunsCsv(merged / "runs.csv").front().at("experiment"), "ot");
}

// A merged folder is no shard, and a shard whose inputs changed while it ran measured two versions of them:
// both refused by merge, and --resume refuses a merged folder (a sweep's meta.json would replace its shards').
TEST_F(Merge, AMergedFolderOrAShardWhoseInputsChangedIsRefused) {
    const fs::path file = write("mg.toml", pointsToml("mg"));
    const auto [s1, s2] = twoShards(file);
    ASSERT_EQ(merge({s1, s2}, dir_ / "merged").code, 0);
    Outcome r = merge({dir_ / "merged"}, dir_ / "again");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "is a merge of 2 shard(s), not a shard")) << r.err;
    const std::string metaBefore = readFile(dir_ / "merged" / "meta.json");
    r = runArgs({"sweep", file.string(), "--out", (dir_ / "merged").string(), "--resume"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "is a merge of 2 shard(s), not a sweep to continue")) << r.err;
    EXPECT_EQ(readFile(dir_ / "merged" / "meta.json"), metaBefore);

    auto meta = nlohmann::ordered_json::parse(readFile(s2 / "meta.json"));
    meta["inputs_changed_during_sweep"] = {"effects/x.toml: fnv1a64:1 there, fnv1a64:2 here"};
    writeFile(s2 / "meta.json", meta.dump(2) + "\n");
    r = merge({s1, s2}, dir_ / "changed");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "read inputs that changed while it ran")) << r.err;
    EXPECT_TRUE(contains(r.err, "effects/x.toml")) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "changed" / "runs.csv"));
}

// A resumed sweep keeps its first start and every sitting (command, machine, commit) in "sessions"; merge keeps
// each shard's meta.json whole, so a merged folder holds every sitting of every shard.
TEST_F(Merge, EverySittingOfAShardIsKept) {
    harness::MetaInfo m;
    m.experiment = "mg", m.started = "2026-02-02T00:00:00Z", m.finished = "2026-02-02T01:00:00Z";
    m.commandLine = "firelab sweep mg.toml --resume";
    m.earlierSessions = {{"2026-01-01T00:00:00Z", "", "firelab sweep mg.toml", "node-7", "abc"}};
    const fs::path file = dir_ / "meta.json";
    harness::writeMeta(file, m);
    const auto j = nlohmann::json::parse(readFile(file));
    EXPECT_EQ(j["started"], "2026-01-01T00:00:00Z") << "the first sitting's start";
    ASSERT_EQ(j["sessions"].size(), 2u);
    EXPECT_EQ(j["sessions"][0]["hostname"], "node-7");
    EXPECT_EQ(j["sessions"][1]["command_line"], "firelab sweep mg.toml --resume");
    const harness::MetaRecord back = harness::readMeta(file);
    ASSERT_EQ(back.sessions.size(), 2u);
    EXPECT_EQ(back.sessions[0].started, "2026-01-01T00:00:00Z");
    EXPECT_EQ(back.sessions[1].started, "2026-02-02T00:00:00Z");
    EXPECT_EQ(back.sessions[1].finished, "2026-02-02T01:00:00Z");
}

}  // namespace
}  // namespace firelab::testing
