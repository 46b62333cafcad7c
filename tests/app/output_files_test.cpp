// Outputs and inputs that are not regular files, through the command line in process: a symlink is written
// through to its target and kept; a FIFO, a device or a folder given as --out or --csv is refused before any
// work with exit 2, never opened (a FIFO would hang the reader, a device read without end: the tier's timeout
// would end the test) and left as it was. `run` appending through a symlink: output_files_e2etest.cpp.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "support/cli_in_process.h"
#include "sim/snapshot.h"

namespace firelab::testing {
namespace {

class OutputFiles : public Cli {
protected:
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
        const Outcome r = run("snapshot --time 0 --particles 50 --out " + quoted(out.string()));
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
            run("run --strategy points --particles 100 --frames 1 --warmup 0 --csv " + quoted(csv.string()));
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
    const Outcome r = run("sweep experiments/quick.toml --no-plots --out " + quoted(out.string()));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "not a regular file")) << r.err;
    EXPECT_FALSE(fs::exists(out / "meta.json")) << "work was done before the refusal";
}

}  // namespace
}  // namespace firelab::testing
