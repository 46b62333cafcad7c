// core::AtomicFile: a failed or abandoned write never touches the target, a symlink is written through (the
// link kept), anything else that is not a regular file is refused and left alone, and the signal handler's
// cleanup removes only the uncommitted temporaries.
#include "core/atomic_file.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {

namespace fs = std::filesystem;
using core::AtomicFile, core::removeTempFilesOnSignal;

class AtomicFileTest : public ScratchDirTest {
protected:
    // Files in the folder other than `keep`, e.g. leftover temporaries.
    std::vector<std::string> others(const fs::path& keep) const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_))
            if (e.path() != keep) out.push_back(e.path().filename().string());
        return out;
    }
};

TEST_F(AtomicFileTest, CommitRenamesOntoTheTarget) {
    const fs::path target = dir_ / "out.csv";
    {
        AtomicFile f(target);
        f.stream() << "hello\n";
        EXPECT_FALSE(fs::exists(target)) << "visible before commit";
        f.commit();
    }
    EXPECT_EQ(readFile(target), "hello\n");
    EXPECT_TRUE(others(target).empty()) << "temporary left behind";
}

TEST_F(AtomicFileTest, CommitReplacesAnExistingFile) {
    const fs::path target = dir_ / "out.csv";
    std::ofstream(target) << "old\n";
    AtomicFile f(target);
    f.stream() << "new\n";
    f.commit();
    EXPECT_EQ(readFile(target), "new\n");
}

TEST_F(AtomicFileTest, ExceptionBeforeCommitLeavesTheTargetUntouched) {
    const fs::path target = dir_ / "out.csv";
    std::ofstream(target) << "precious\n";
    try {
        AtomicFile f(target);
        f.stream() << "half-written";
        throw std::runtime_error("simulation failed");
    } catch (const std::runtime_error&) {}
    EXPECT_EQ(readFile(target), "precious\n");
    EXPECT_TRUE(others(target).empty()) << "temporary left behind";
}

TEST_F(AtomicFileTest, AbandonedWriteCreatesNothing) {
    const fs::path target = dir_ / "never.csv";
    { AtomicFile f(target); }
    EXPECT_FALSE(fs::exists(target));
    EXPECT_TRUE(others(target).empty());
}

TEST_F(AtomicFileTest, UnwritableFolderIsAnIoError) {
    try {
        AtomicFile f(dir_ / "missing" / "out.csv");
        FAIL() << "did not throw";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::Io);
        EXPECT_NE(std::string(e.what()).find("out.csv"), std::string::npos) << e.what();
    }
}

TEST_F(AtomicFileTest, WritesThroughASymlinkAndKeepsTheLink) {
    const fs::path real = dir_ / "real.csv", link = dir_ / "link.csv";
    std::ofstream(real) << "old\n";
    fs::create_symlink("real.csv", link);  // relative, as `ln -s` makes them
    AtomicFile f(link);
    f.stream() << "new\n";
    f.commit();
    EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by a file";
    EXPECT_EQ(fs::read_symlink(link), fs::path("real.csv"));
    EXPECT_EQ(readFile(real), "new\n");
    EXPECT_EQ(others(real).size(), 1u) << "a temporary was left behind";
}

TEST_F(AtomicFileTest, DanglingSymlinkCreatesItsTarget) {
    const fs::path link = dir_ / "link.csv";
    fs::create_symlink(dir_ / "made.csv", link);
    AtomicFile f(link);
    f.stream() << "x\n";
    f.commit();
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(readFile(dir_ / "made.csv"), "x\n");
}

TEST_F(AtomicFileTest, RefusesWhatIsNotARegularFileAndLeavesItAlone) {
    const fs::path fifo = dir_ / "fifo", folder = dir_ / "folder", toDevice = dir_ / "null-link";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    fs::create_directory(folder);
    fs::create_symlink("/dev/null", toDevice);
    for (const fs::path& p : {fifo, folder, fs::path("/dev/null"), toDevice}) {
        SCOPED_TRACE(p.string());
        try {
            AtomicFile f(p);
            FAIL() << "accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::BadFile);
            EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(fs::status(fifo).type(), fs::file_type::fifo);
    EXPECT_TRUE(fs::is_directory(folder));
    EXPECT_TRUE(fs::is_symlink(toDevice));
    EXPECT_EQ(fs::status("/dev/null").type(), fs::file_type::character);
    EXPECT_EQ(others(dir_ / "none").size(), 3u) << "a temporary was left behind";
}

TEST_F(AtomicFileTest, SymlinkLoopIsRefused) {
    fs::create_symlink(dir_ / "b", dir_ / "a");
    fs::create_symlink(dir_ / "a", dir_ / "b");
    try {
        AtomicFile f(dir_ / "a");
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::BadFile) << e.what();
    }
}

TEST_F(AtomicFileTest, SignalCleanupRemovesUncommittedTemporariesOnly) {
    const fs::path done = dir_ / "done.csv", pending = dir_ / "pending.csv";
    {
        AtomicFile f(done);
        f.stream() << "kept\n";
        f.commit();
    }
    AtomicFile open(pending);
    open.stream() << "half";
    ASSERT_EQ(others(done).size(), 1u);  // the pending temporary
    removeTempFilesOnSignal();
    EXPECT_TRUE(others(done).empty()) << "the uncommitted temporary is still there";
    EXPECT_EQ(readFile(done), "kept\n");
}

}  // namespace
}  // namespace firelab::testing
