// Outputs and inputs that are not regular files, through the real binary (issue 12, class 1): a
// symlink is written through to its target and kept; a FIFO, a device or a folder given as --out,
// --csv or --screenshot is refused before any work with exit 2, never opened (a FIFO would hang the
// reader, a device read without end) and left as it was.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "cli_support.h"
#include "sim/snapshot.h"

namespace firelab::testing {
namespace {

class OutputFiles : public Cli {
protected:
    // As Cli::run, killed after 60 s: a command that hangs on a FIFO fails instead of hanging the tests.
    Outcome runBounded(const std::string& args) const { return run(args, "timeout -s KILL 60 "); }
    fs::path fifo(const std::string& name) const {
        const fs::path p = dir_ / name;
        EXPECT_EQ(::mkfifo(p.c_str(), 0644), 0);
        return p;
    }
};

TEST_F(OutputFiles, SnapshotWritesThroughASymlinkToItsTarget) {
    writeFile(dir_ / "real.csv", std::string(sim::kSnapshotHeader) + "\n1,2,3\n");  // an older snapshot: replaced
    fs::create_symlink("real.csv", dir_ / "link.csv");
    const Outcome r = run("snapshot --time 0 --particles 50 --out " + path("link.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv")) << "the link was replaced";
    size_t rows = 0;
    readCsv(dir_ / "real.csv", &rows);
    EXPECT_EQ(rows, 50u) << "the link's target was not written";
    EXPECT_EQ(leftovers().size(), 2u) << "a temporary was left behind";
}

TEST_F(OutputFiles, SnapshotRefusesAFifoADeviceAndAFolderWithExitTwo) {
    const fs::path f = fifo("pipe.csv");
    fs::create_directory(dir_ / "folder.csv");
    fs::create_symlink("/dev/null", dir_ / "null.csv");
    for (const fs::path& out : {f, dir_ / "folder.csv", fs::path("/dev/full"), dir_ / "null.csv"}) {
        SCOPED_TRACE(out.string());
        const Outcome r = runBounded("snapshot --time 0 --particles 50 --out " + quoted(out.string()));
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, out.string())) << r.err;
        EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
    }
    EXPECT_EQ(fs::symlink_status(f).type(), fs::file_type::fifo);
    EXPECT_TRUE(fs::is_directory(dir_ / "folder.csv"));
    EXPECT_TRUE(fs::is_empty(dir_ / "folder.csv"));
    EXPECT_TRUE(fs::is_symlink(dir_ / "null.csv"));
    EXPECT_EQ(leftovers().size(), 3u) << "a temporary was left behind";
}

TEST_F(OutputFiles, RunRefusesACsvThatIsNotARegularFileWithoutReadingIt) {
    // Before the fix a FIFO hung the reader and /dev/zero was read without end.
    const fs::path f = fifo("runs.csv");
    fs::create_directory(dir_ / "folder.csv");
    for (const fs::path& csv : {f, fs::path("/dev/zero"), dir_ / "folder.csv"}) {
        SCOPED_TRACE(csv.string());
        const Outcome r =
            runBounded("run --strategy points --particles 100 --frames 1 --warmup 0 --csv " + quoted(csv.string()));
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, csv.string())) << r.err;
        EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
    }
    EXPECT_EQ(fs::symlink_status(f).type(), fs::file_type::fifo);
}

TEST_F(OutputFiles, SweepRefusesARunsCsvThatIsAFifo) {
    const fs::path out = dir_ / "out";
    fs::create_directory(out);
    ASSERT_EQ(::mkfifo((out / "runs.csv").c_str(), 0644), 0);
    const Outcome r = runBounded("sweep experiments/quick.toml --no-plots --out " + quoted(out.string()));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
    EXPECT_FALSE(fs::exists(out / "meta.json")) << "work was done before the refusal";
}

TEST_F(OutputFiles, RunAppendsThroughASymlinkedCsv) {
    fs::create_symlink("real.csv", dir_ / "link.csv");  // dangling until the run creates its target
    const std::string args =
        "run --strategy points --particles 100 --frames 1 --warmup 0 --width 64 --height 48 --csv ";
    ASSERT_EQ(run(args + path("link.csv")).code, 0);
    const Outcome r = run(args + path("link.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
    size_t lines = 0;
    for (char c : readFile(dir_ / "real.csv")) lines += c == '\n';
    EXPECT_EQ(lines, 3u) << "a header and two rows, in the link's target";
}

}  // namespace
}  // namespace firelab::testing
