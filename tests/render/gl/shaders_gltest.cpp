// Every shader stage file in shaders/ compiled on the debug context, a test of its own per file, in each of
// its variants' values and every pair of them: a compile or link log that reports a warning, or a
// high-severity debug message while it compiles, fails the file's test, naming the variant. Mesa caches
// compiled shaders on disk and a cached shader reports nothing: the other tests share a cache that
// scripts/test.sh empties at the start of each run, and this one compiles with the cache off, as a machine that
// has never run firelab does (MESA_SHADER_CACHE_DISABLE, set before its context is made; and a define unique to
// the process in every source, so that a context made earlier with the cache on still misses it).
//
// A file's variants are read from its source (includes expanded), as the code that compiles it sets them:
// a switch is a name declared with a default (`#ifndef NAME` then `#define NAME VALUE`), taking its default
// and every number the source compares it with (`NAME == 2`, `NAME != 0`; `#if NAME` adds 0 and 1); a flag is
// a name tested by `#ifdef` or `#ifndef` that no shader file defines itself (the C++ defines it or not).
// Every value of every switch, and every pair of values of two switches, is compiled at least once.
#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "render/gl/shader.h"
#include "support/gl_fixture.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

const fs::path kShaderDir = fs::path(FIRELAB_SOURCE_DIR) / "shaders";

// The stage of a file by its extension; 0 for a file that is not a stage (an included .glsl).
GLenum stageOf(const fs::path& file) {
    static const std::map<std::string, GLenum> stages{{".vert", GL_VERTEX_SHADER},
                                                      {".geom", GL_GEOMETRY_SHADER},
                                                      {".frag", GL_FRAGMENT_SHADER},
                                                      {".comp", GL_COMPUTE_SHADER}};
    const auto it = stages.find(file.extension().string());
    return it == stages.end() ? 0 : it->second;
}

std::vector<std::string> stageFiles() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(kShaderDir))
        if (e.is_regular_file() && stageOf(e.path()) != 0) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// The names some shader file #defines itself (a file's own flag, such as PARTICLE_EMITS: not a variant).
std::set<std::string> namesDefinedInFiles() {
    std::set<std::string> out;
    const std::regex define(R"(^\s*#\s*define\s+(\w+))");
    for (const auto& e : fs::directory_iterator(kShaderDir)) {
        std::ifstream in(e.path());
        std::string line, previous;
        for (; std::getline(in, line); previous = line) {
            std::smatch m;
            // `#ifndef NAME` then `#define NAME VALUE` declares a switch's default, not the file's own flag.
            if (std::regex_search(line, m, define) && previous.find("#ifndef " + m[1].str()) == std::string::npos)
                out.insert(m[1]);
        }
    }
    return out;
}

// One variant switch: its name and values; std::nullopt is "not defined" (a flag's default).
struct Switch {
    std::string name;
    std::vector<std::optional<std::string>> values;
};

std::vector<Switch> switchesOf(const std::string& source, const std::set<std::string>& fileFlags) {
    std::map<std::string, std::set<std::string>> numbers;  // the switches with a default, and their values
    std::set<std::string> flags;
    std::istringstream in(source);
    std::string line, previous;
    const std::regex ifndef(R"(^\s*#\s*ifndef\s+(\w+))"), ifdef(R"(^\s*#\s*ifdef\s+(\w+))");
    const std::regex define(R"(^\s*#\s*define\s+(\w+)\s+(\S+))");
    for (; std::getline(in, line); previous = line) {
        std::smatch m, d;
        if (std::regex_search(previous, m, ifndef) && std::regex_search(line, d, define) && m[1] == d[1]) {
            numbers[d[1]].insert(d[2]);
            flags.erase(d[1]);
        } else if (std::regex_search(line, m, ifdef) || std::regex_search(line, m, ifndef)) {
            if (!fileFlags.count(m[1]) && !numbers.count(m[1])) flags.insert(m[1]);
        }
    }
    for (auto& [name, values] : numbers) {
        const std::regex compared("\\b" + name + R"(\s*[!=]=\s*(\d+))");
        for (auto it = std::sregex_iterator(source.begin(), source.end(), compared); it != std::sregex_iterator(); ++it)
            values.insert((*it)[1]);
        const std::regex truth(R"(^\s*#\s*(el)?if\s+!?\s*)" + name + R"(\s*(//.*)?$)");
        std::istringstream lines(source);
        for (std::string l; std::getline(lines, l);)
            if (std::regex_search(l, truth)) values.insert({"0", "1"});
    }
    std::vector<Switch> out;
    for (const auto& [name, values] : numbers) {
        Switch s{name, {}};
        for (const auto& v : values) s.values.emplace_back(v);
        out.push_back(std::move(s));
    }
    for (const auto& name : flags) out.push_back({name, {std::nullopt, std::string()}});
    return out;
}

// Assignments (a value index per switch) that hold every value of each switch and every pair of values of
// two switches: greedily, each row starting from the first pair not yet held and taking, switch by switch,
// the value that holds most new pairs.
std::vector<std::vector<size_t>> pairwise(const std::vector<Switch>& switches) {
    const size_t n = switches.size();
    if (n == 0) return {{}};
    if (n == 1) {
        std::vector<std::vector<size_t>> rows;
        for (size_t v = 0; v < switches[0].values.size(); ++v) rows.push_back({v});
        return rows;
    }
    std::set<std::array<size_t, 4>> open;  // switch i, its value, switch j > i, its value
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j)
            for (size_t a = 0; a < switches[i].values.size(); ++a)
                for (size_t b = 0; b < switches[j].values.size(); ++b) open.insert({i, a, j, b});
    std::vector<std::vector<size_t>> rows;
    while (!open.empty()) {
        const auto first = *open.begin();
        std::vector<std::optional<size_t>> row(n);
        row[first[0]] = first[1];
        row[first[2]] = first[3];
        for (size_t k = 0; k < n; ++k) {
            if (row[k]) continue;
            size_t best = 0, bestGain = 0;
            for (size_t v = 0; v < switches[k].values.size(); ++v) {
                size_t gain = 0;
                for (size_t o = 0; o < n; ++o) {
                    if (o == k || !row[o]) continue;
                    gain += o < k ? open.count({o, *row[o], k, v}) : open.count({k, v, o, *row[o]});
                }
                if (gain > bestGain) best = v, bestGain = gain;
            }
            row[k] = best;
        }
        std::vector<size_t> chosen(n);
        for (size_t k = 0; k < n; ++k) chosen[k] = *row[k];
        for (size_t i = 0; i < n; ++i)
            for (size_t j = i + 1; j < n; ++j) open.erase({i, chosen[i], j, chosen[j]});
        rows.push_back(std::move(chosen));
    }
    return rows;
}

std::vector<std::string> definesOf(const std::vector<Switch>& switches, const std::vector<size_t>& row) {
    std::vector<std::string> out;
    for (size_t k = 0; k < switches.size(); ++k) {
        const auto& v = switches[k].values[row[k]];
        if (v) out.push_back(switches[k].name + (v->empty() ? "" : " " + *v));
    }
    return out;
}

std::string logOf(GLuint object, bool program) {
    GLint length = 0;
    program ? glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length) : glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
    program ? glGetProgramInfoLog(object, length, nullptr, log.data())
            : glGetShaderInfoLog(object, length, nullptr, log.data());
    log.resize(std::strlen(log.c_str()));
    return log;
}

bool reportsWarning(std::string log) {
    std::transform(log.begin(), log.end(), log.begin(), [](unsigned char c) { return std::tolower(c); });
    return log.find("warning") != std::string::npos;
}

// What is wrong with one variant of a stage file: its compile or link failing or reporting a warning, or a
// high-severity debug message while it compiles (empty: nothing). Compiled alone as a separable program
// (a compute shader is a whole program by itself).
std::string compileProblem(gl::Context& context, const std::string& file, const std::vector<std::string>& defines) {
    context.clearDebugMessages();
    const std::string source = gl::variantSource(kShaderDir, file, defines);
    const char* text = source.c_str();
    const GLuint shader = glCreateShader(stageOf(file));
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint compiled = 0, linked = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
    std::string problem;
    if (const std::string log = logOf(shader, false); !compiled || reportsWarning(log))
        problem = std::string(compiled ? "compile log: " : "compile failed: ") + log;
    if (compiled) {
        const GLuint program = glCreateProgram();
        glProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE);
        glAttachShader(program, shader);
        glLinkProgram(program);
        glGetProgramiv(program, GL_LINK_STATUS, &linked);
        if (const std::string log = logOf(program, true); !linked || reportsWarning(log))
            problem += std::string(linked ? "link log: " : "link failed: ") + log;
        glDeleteProgram(program);
    }
    glDeleteShader(shader);
    for (const auto& m : context.debugMessages())
        if (m.severity == GL_DEBUG_SEVERITY_HIGH) problem += "high-severity GL message: " + m.text + "\n";
    context.clearDebugMessages();
    return problem;
}

std::string joined(const std::vector<std::string>& defines) {
    std::string out;
    for (const auto& d : defines) out += (out.empty() ? "" : ", ") + d;
    return out.empty() ? "(the defaults)" : out;
}

class Shaders : public GlTest, public ::testing::WithParamInterface<std::string> {
protected:
    static void SetUpTestSuite() {
        setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);  // read by Mesa when the context is made
        GlTest::SetUpTestSuite();
    }
};

// A define no cached shader has: this process's id and start time (an unused name costs nothing and warns of
// nothing).
std::string uncachedDefine() {
    static const std::string define = "FIRELAB_UNCACHED_" + std::to_string(getpid()) + "_" +
                                      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    return define;
}

TEST_P(Shaders, CompileWithoutWarningInEveryVariant) {
    const std::string file = GetParam();
    const auto switches = switchesOf(gl::loadShaderSource(kShaderDir, file), namesDefinedInFiles());
    const auto rows = pairwise(switches);
    for (const auto& row : rows) {
        const auto defines = definesOf(switches, row);
        auto compiled = defines;
        compiled.push_back(uncachedDefine());
        const std::string problem = compileProblem(context(), file, compiled);
        EXPECT_TRUE(problem.empty()) << file << " with " << joined(defines) << ":\n" << problem;
    }
    RecordProperty("variants", static_cast<int>(rows.size()));
}

// Names usable in a test's name: volume_reference.comp -> volume_reference_comp.
std::string testName(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param;
    std::replace_if(
        name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(EveryStageFile, Shaders, ::testing::ValuesIn(stageFiles()), testName);

// The variant reading itself, on a source written for it: a switch with a default and the values it is
// compared with, a flag, and a file's own define that is neither.
TEST(ShaderVariants, ReadFromTheSource) {
    const std::string source =
        "#ifndef MODE\n#define MODE 0  // a comment\n#endif\n#if MODE == 2\n#endif\n#if MODE != 3\n#endif\n"
        "#ifndef ON\n#define ON 0\n#endif\n#if ON\n#endif\n#ifndef LIMIT\n#define LIMIT 16\n#endif\n"
        "#ifdef BIG\n#endif\n#ifdef OWN\n#endif\n";
    const auto switches = switchesOf(source, {"OWN"});
    ASSERT_EQ(switches.size(), 4u);
    std::map<std::string, std::vector<std::optional<std::string>>> byName;
    for (const auto& s : switches) byName[s.name] = s.values;
    using V = std::vector<std::optional<std::string>>;
    EXPECT_EQ(byName["MODE"], (V{"0", "2", "3"}));
    EXPECT_EQ(byName["ON"], (V{"0", "1"}));
    EXPECT_EQ(byName["LIMIT"], (V{"16"}));
    EXPECT_EQ(byName["BIG"], (V{std::nullopt, std::string()}));
    EXPECT_EQ(byName.count("OWN"), 0u);
}

// Every pair of values of two switches is in some row, and every row is a whole assignment.
TEST(ShaderVariants, PairwiseHoldsEveryPair) {
    const std::vector<Switch> switches{
        {"A", {"0", "1", "2"}}, {"B", {"0", "1"}}, {"C", {"0", "1", "2", "3"}}, {"D", {std::nullopt, std::string()}}};
    const auto rows = pairwise(switches);
    for (size_t i = 0; i < switches.size(); ++i)
        for (size_t j = i + 1; j < switches.size(); ++j)
            for (size_t a = 0; a < switches[i].values.size(); ++a)
                for (size_t b = 0; b < switches[j].values.size(); ++b)
                    EXPECT_TRUE(
                        std::any_of(rows.begin(), rows.end(), [&](const auto& r) { return r[i] == a && r[j] == b; }))
                        << switches[i].name << "=" << a << " with " << switches[j].name << "=" << b;
    EXPECT_LT(rows.size(), 3u * 2u * 4u * 2u);  // fewer than the whole product (48): 12 hold every pair here
    EXPECT_GE(rows.size(), 12u);                // C x A alone has 12 pairs
}

}  // namespace
}  // namespace firelab::testing
