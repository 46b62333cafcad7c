// The bad input that needs the binary: a file-size limit (ulimit -f, a signal's default ends a process) and a
// broken shader (compiled by a GL context), each with its exit code and a message naming it. The rest of the
// bad input is checked in process: bad_input_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/firelab_process.h"

namespace firelab::testing {
namespace {

struct BadInput {
    const char* what;
    std::string args;
    int code;
    std::vector<std::string> mentions;  // substrings of stderr
};

class BadInputsOfTheProcess : public FirelabProcess {
protected:
    void expectRefused(const BadInput& c) {
        SCOPED_TRACE(c.what);
        const Outcome r = run(c.args);
        EXPECT_EQ(r.code, c.code) << r.err;
        EXPECT_LT(r.code, 128) << "ended by a signal";
        for (const auto& m : c.mentions) EXPECT_TRUE(contains(r.err, m)) << "stderr lacks '" << m << "': " << r.err;
        EXPECT_FALSE(contains(r.err, "terminate called")) << r.err;
    }
};

// A file-size limit (ulimit -f) killed firelab with SIGXFSZ mid-write (exit 153, no message): a write over the
// limit now fails as a full disk does, with a message.
TEST_F(BadInputsOfTheProcess, AFileSizeLimitIsAFailedWriteNotASignal) {
    const Outcome r =
        run("sweep experiments/quick.toml --particles 200 --frames 1 --warmup 0 --no-plots --out " + path("small"),
            "ulimit -f 1; ");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "File too large") || contains(r.err, "file size limit")) << r.err;
}

TEST_F(BadInputsOfTheProcess, BrokenShaderIsNamed) {
    const fs::path data = dir_ / "data";
    fs::create_directories(data);
    fs::copy(fs::path(FIRELAB_SOURCE_DIR) / "shaders", data / "shaders", fs::copy_options::recursive);
    fs::copy(fs::path(FIRELAB_SOURCE_DIR) / "textures", data / "textures", fs::copy_options::recursive);
    writeFile(data / "shaders" / "points.frag", "#version 450 core\nvoid main() { oops }\n");
    expectRefused(
        {"broken shader",
         "capture --strategy points --particles 200 --data-dir " + quoted(data.string()) + " --out " + path("cap"),
         1,
         {"points.frag", "fragment"}});
}

}  // namespace
}  // namespace firelab::testing
