// gl::loadShaderSource without a GL context: #include expands recursively, each file once, and a missing
// file is a MissingFile error naming it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "render/gl/shader.h"
#include "core/error.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

size_t occurrences(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(ShaderSource, IncludesNestAndEachFileIsExpandedOnce) {
    const fs::path dir = fs::temp_directory_path() / ("firelab-shader-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    auto write = [&](const char* name, const char* text) { std::ofstream(dir / name) << text; };
    write("shared.glsl", "float shared() { return 1.0; }\n");
    write("a.glsl", "#include \"shared.glsl\"\nfloat a() { return shared(); }\n");
    write("b.glsl", "#include \"shared.glsl\"\nfloat b() { return shared(); }\n");
    write("main.frag", "#version 450 core\n#include \"a.glsl\"\n#include \"b.glsl\"\nvoid main() {}\n");
    const std::string src = gl::loadShaderSource(dir, "main.frag");
    EXPECT_EQ(occurrences(src, "float shared()"), 1u) << src;
    EXPECT_EQ(occurrences(src, "float a()"), 1u) << src;
    EXPECT_EQ(occurrences(src, "float b()"), 1u) << src;
    EXPECT_LT(src.find("float shared()"), src.find("float a()")) << "a header's include comes before it";
    EXPECT_EQ(src.rfind("#version 450 core", 0), 0u);
    // A file in another folder that includes one beside it (tests/render/strategies/rng_probe.comp includes
    // ../../../shaders/fire_model.glsl, which includes pcg_hash.glsl): names are relative to the includer,
    // and a file reached by two spellings of its path is still expanded once.
    fs::create_directories(dir / "sub");
    write("sub/probe.comp", "#version 450 core\n#include \"../lib/model.glsl\"\n#include \"../a.glsl\"\n");
    fs::create_directories(dir / "lib");
    write("lib/model.glsl", "#include \"../shared.glsl\"\nfloat model() { return shared(); }\n");
    const std::string probe = gl::loadShaderSource(dir / "sub", "probe.comp");
    EXPECT_EQ(occurrences(probe, "float shared()"), 1u) << probe;
    EXPECT_EQ(occurrences(probe, "float model()"), 1u) << probe;
    EXPECT_EQ(occurrences(probe, "float a()"), 1u) << probe;
    write("broken.frag", "#version 450 core\n#include \"missing.glsl\"\n");
    try {
        gl::loadShaderSource(dir, "broken.frag");
        ADD_FAILURE() << "a missing include was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::MissingFile);
        EXPECT_NE(std::string(e.what()).find("missing.glsl"), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
}

}  // namespace
}  // namespace firelab::testing
