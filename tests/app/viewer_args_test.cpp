// What `firelab view` refuses before its window opens: the command line in process (support/cli_in_process.h),
// with its exit codes and messages. Under SDL's dummy video driver a viewer that tried to open its window would
// find none and fail differently, so each case shows that the refusal comes first. The window itself is checked
// under Xvfb: viewer_e2etest.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/cli_in_process.h"

namespace firelab::testing {
namespace {

class ViewerArguments : public Cli {};

TEST_F(ViewerArguments, BadArgumentsExitWith2) {
    for (const char* args : {"--strategy nonsense", "--particles 0", "--hull 6"}) {
        SCOPED_TRACE(args);
        EXPECT_EQ(run(std::string("view ") + args + " --quit-after 1").code, 2);
    }
}

TEST_F(ViewerArguments, ABadEffectExitsWith2NamingIt) {
    const fs::path bad = dir_ / "bad.toml";
    std::ofstream(bad) << "[[layer]]\nname = \"smoke\"\nparticles = 0\n";
    for (const std::string& effect : {(dir_ / "missing.toml").string(), bad.string()}) {
        SCOPED_TRACE(effect);
        const Outcome r = run("view --effect " + quoted(effect) + " --quit-after 1");
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, "--effect")) << r.err;
        EXPECT_TRUE(contains(r.err, effect)) << r.err;
    }
    const Outcome light = run("view --fire-light 17 --quit-after 1");
    EXPECT_EQ(light.code, 2) << light.err;
    EXPECT_TRUE(contains(light.err, "--fire-light")) << light.err;
}

// The viewer's files fail as the other commands' do (2 for bad input, 1 for an output that cannot be written),
// before the window opens. (--quit-after 0 quitting at once makes a context first: viewer_e2etest.cpp.)
TEST_F(ViewerArguments, FilesAndQuitAfterGetTheSameExitCodesAsTheOtherCommands) {
    const fs::path notPng = dir_ / "not.png", fifo = dir_ / "pipe.png";
    std::ofstream(notPng) << "not a picture";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    struct Case {
        std::string args;
        int code;
        std::string mentions;
    };
    const std::vector<Case> cases{
        {"--texture " + path("missing.png") + " --quit-after 1", 2, "missing.png: no such file"},
        {"--texture " + path("not.png") + " --quit-after 1", 2, "not a readable image"},
        {"--quit-after 1 --screenshot /proc/firelab/shot.png", 1, "cannot write /proc/firelab/shot.png"},
        {"--quit-after 1 --screenshot " + path("pipe.png"), 2, "not a regular file"},
        {"--screenshot " + path("s.png"), 2, "--quit-after"},
        {"--quit-after 0 --screenshot " + path("s.png"), 2, "--quit-after 0"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        const Outcome r = run("view " + c.args);
        EXPECT_EQ(r.code, c.code) << r.err;
        EXPECT_TRUE(contains(r.err, c.mentions)) << r.err;
    }
    EXPECT_EQ(fs::symlink_status(fifo).type(), fs::file_type::fifo);
    EXPECT_FALSE(fs::exists(dir_ / "s.png"));
}

}  // namespace
}  // namespace firelab::testing
