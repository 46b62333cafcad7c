// One writer per results folder and per runs.csv (harness/platform/lock.h), in process: a flock is held per open
// file, so a second lock taken here conflicts with the first as another process's would (which the holder's pid
// in the message, another process's only, is checked in sweep_e2etest.cpp). The lock goes with its holder and
// leaves no file; compare and `run --csv` into a folder a sweep holds are refused before they read or write.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/error.h"
#include "harness/platform/lock.h"
#include "harness/results/csv.h"
#include "support/cli_in_process.h"
#include "support/error_of.h"
#include "support/sweep_folder.h"

namespace firelab::testing {
namespace {

class WriterLock : public Cli {};

TEST_F(WriterLock, ASecondLockIsRefusedUntilTheFirstIsReleasedAndNoFileIsLeft) {
    const fs::path out = dir_ / "out";
    fs::create_directories(out);
    {
        const harness::WriterLock first(out, "--out");
        const Error e = errorOf([&] { harness::WriterLock second(out, "--out"); });
        EXPECT_EQ(e.code(), ErrorCode::Io);
        EXPECT_TRUE(contains(e.what(), "--out " + out.string() + " is being written by")) << e.what();
        EXPECT_TRUE(contains(e.what(), "one writer at a time")) << e.what();
    }
    EXPECT_NO_THROW(harness::WriterLock again(out, "--out")) << "the lock went with its holder";
    EXPECT_TRUE(fs::is_empty(out)) << "a lock file was left";
}

TEST_F(WriterLock, ACsvHasOneAppender) {
    const fs::path csv = dir_ / "runs.csv";
    const harness::CsvAppender first(csv);
    const Error e = errorOf([&] { harness::CsvAppender second(csv); });
    EXPECT_EQ(e.code(), ErrorCode::Io);
    EXPECT_TRUE(contains(e.what(), "is being written by")) << e.what();
}

// compare while a sweep writes its folder would leave a ratios.csv that the sweep's end makes stale: it takes
// the sweep's lock, and is refused while the sweep holds it.
TEST_F(WriterLock, CompareIsRefusedWhileASweepHoldsTheFolder) {
    const fs::path file = write("busy.toml", tinyToml("busy", "strategy = [\"points\", \"billboards-cpu\"]\n"));
    const fs::path out = dir_ / "out";
    writeSweepFolder(out, file);
    const harness::WriterLock sweep(out, "--out");
    const Outcome c = runArgs({"compare", out.string(), "--baseline", "strategy=points", "--no-plots"});
    EXPECT_EQ(c.code, 1) << c.err;
    EXPECT_TRUE(contains(c.err, "is being written by")) << c.err;
    EXPECT_FALSE(fs::exists(out / "ratios.csv"));
}

// `run --csv DIR/runs.csv` while a repeated sweep writes DIR would lose its row (the sweep replaces runs.csv each
// round): a folder with a meta.json is a sweep's, and its lock is taken too.
TEST_F(WriterLock, RunIntoASweepsFolderIsRefusedWhileTheSweepHoldsIt) {
    const fs::path file = write("rep.toml", tinyToml("rep", "particles = [100, 200]\n", "repetitions = 2\n"));
    const fs::path out = dir_ / "out";
    writeSweepFolder(out, file);
    const std::string before = readFile(out / "runs.csv");
    const harness::WriterLock sweep(out, "--out");
    const Outcome r = runArgs({"run", "--strategy", "points", "--particles", "100", "--width", "32", "--height", "32",
                               "--warmup", "0", "--frames", "1", "--csv", (out / "runs.csv").string()});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "is being written by")) << r.err;
    EXPECT_EQ(readFile(out / "runs.csv"), before);
}

}  // namespace
}  // namespace firelab::testing
