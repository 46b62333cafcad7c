// Parameters: bad values are rejected by setParam, validate and the FireSystem constructor with an
// error whose identity (firelab::ErrorCode) says what is wrong and whose text names the parameter;
// every parameter round-trips through getParam/setParam.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "core/error.h"
#include "sim/fire_system.h"
#include "sim/params.h"

namespace firelab::sim {
namespace {

// Runs fn, which must throw firelab::Error with `code` and a message containing every `parts`.
template <class Fn>
::testing::AssertionResult throwsError(Fn&& fn, ErrorCode code, std::initializer_list<std::string> parts = {}) {
    try {
        fn();
    } catch (const Error& e) {
        if (e.code() != code)
            return ::testing::AssertionFailure() << "code " << static_cast<int>(e.code()) << " instead of "
                                                 << static_cast<int>(code) << ": " << e.what();
        const std::string what = e.what();
        for (const auto& part : parts)
            if (what.find(part) == std::string::npos)
                return ::testing::AssertionFailure() << "message lacks '" << part << "': " << what;
        return ::testing::AssertionSuccess();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "not a firelab::Error: " << e.what();
    }
    return ::testing::AssertionFailure() << "did not throw";
}

::testing::AssertionResult setFails(std::string_view name, std::string_view value, ErrorCode code,
                                    std::initializer_list<std::string> parts = {}) {
    FireParams p;
    const FireParams before = p;
    auto r = throwsError([&] { setParam(p, name, value); }, code, parts);
    if (r && getParam(p, name) != getParam(before, name))
        return ::testing::AssertionFailure() << "a rejected value changed --" << name;
    return r;
}

TEST(Params, DefaultsAreValid) {
    EXPECT_NO_THROW(validate(FireParams{}));
    EXPECT_NO_THROW(FireSystem(FireParams{}));
}

TEST(Params, RejectsBadParticleCounts) {
    EXPECT_TRUE(setFails("particles", "0", ErrorCode::BadValue, {"--particles", "0"}));
    EXPECT_TRUE(setFails("particles", "-5", ErrorCode::BadValue, {"--particles", "-5"}));
    EXPECT_TRUE(setFails("particles", "1e12", ErrorCode::TooLarge, {"--particles", "1e12"}));
    EXPECT_TRUE(setFails("particles", "4294967296", ErrorCode::TooLarge, {"--particles"}));  // 2^32: no wrap
    EXPECT_TRUE(setFails("particles", "50000001", ErrorCode::TooLarge, {"--particles", "50000000"}));
    EXPECT_TRUE(setFails("particles", "2.5", ErrorCode::BadValue, {"--particles"}));
    EXPECT_TRUE(setFails("particles", "many", ErrorCode::BadValue, {"--particles", "many"}));
    EXPECT_TRUE(setFails("particles", "", ErrorCode::BadValue, {"--particles"}));
    EXPECT_TRUE(setFails("burst", "-1", ErrorCode::BadValue, {"--burst"}));
    EXPECT_TRUE(setFails("seed", "-1", ErrorCode::BadValue, {"--seed"}));
}

TEST(Params, AcceptsGoodParticleCounts) {
    FireParams p;
    setParam(p, "particles", "1");
    EXPECT_EQ(p.particles, 1u);
    setParam(p, "particles", " 1e6 ");
    EXPECT_EQ(p.particles, 1'000'000u);
    setParam(p, "particles", "50000000");
    EXPECT_EQ(p.particles, kMaxParticles);
    setParam(p, "burst", "0");
    EXPECT_EQ(p.burst, 0u);
    setParam(p, "seed", "18446744073709551615");
    EXPECT_EQ(p.seed, std::numeric_limits<uint64_t>::max());
}

TEST(Params, RejectsBadLifetimes) {
    EXPECT_TRUE(setFails("lifetime", "0", ErrorCode::BadValue, {"--lifetime", "0"}));
    EXPECT_TRUE(setFails("lifetime", "-1", ErrorCode::BadValue, {"--lifetime"}));
    EXPECT_TRUE(setFails("lifetime", "nan", ErrorCode::BadValue, {"--lifetime", "nan"}));
    EXPECT_TRUE(setFails("lifetime", "inf", ErrorCode::BadValue, {"--lifetime"}));
    EXPECT_TRUE(setFails("lifetime", "1e9", ErrorCode::BadValue, {"--lifetime"}));
    EXPECT_TRUE(setFails("lifetime-var", "nan", ErrorCode::BadValue, {"--lifetime-var"}));
    EXPECT_TRUE(setFails("lifetime-var", "-0.1", ErrorCode::BadValue, {"--lifetime-var"}));
}

TEST(Params, ValidateRejectsBadLifetimesSetDirectly) {
    FireParams p;
    p.lifetimeMean = 0.0f;
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--lifetime"}));
    p.lifetimeMean = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--lifetime"}));
    p = FireParams{};
    p.lifetimeVar = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--lifetime-var"}));
    // A variance as large as the mean would allow lifetimes of zero or less.
    p = FireParams{};
    p.lifetimeMean = 1.0f;
    p.lifetimeVar = 1.0f;
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--lifetime-var", "--lifetime"}));
    p.lifetimeVar = 1.5f;
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--lifetime-var"}));
    p.lifetimeVar = 0.99f;
    EXPECT_NO_THROW(validate(p));
}

TEST(Params, ValidateRejectsBadCountsSetDirectly) {
    FireParams p;
    p.particles = 0;
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--particles"}));
    p.particles = kMaxParticles + 1;
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::TooLarge, {"--particles"}));
    p.particles = 100;
    p.burst = kMaxParticles + 1;
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::TooLarge, {"--burst"}));
}

TEST(Params, FireSystemRejectsBadParamsBeforeAllocating) {
    FireParams p;
    p.particles = 0;
    EXPECT_TRUE(throwsError([&] { FireSystem f(p); }, ErrorCode::BadValue, {"--particles"}));
    p.particles = std::numeric_limits<uint32_t>::max();  // would need ~220 GB if it were allocated
    EXPECT_TRUE(throwsError([&] { FireSystem f(p); }, ErrorCode::TooLarge, {"--particles"}));
    p = FireParams{};
    p.lifetimeMean = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(throwsError([&] { FireSystem f(p); }, ErrorCode::BadValue, {"--lifetime"}));
    p = FireParams{};
    p.lifetimeVar = p.lifetimeMean;
    EXPECT_TRUE(throwsError([&] { FireSystem f(p); }, ErrorCode::BadValue, {"--lifetime-var"}));
    p = FireParams{};
    p.shape = static_cast<EmitterShape>(7);
    EXPECT_TRUE(throwsError([&] { FireSystem f(p); }, ErrorCode::UnknownName, {"--emitter"}));
}

TEST(Params, UnknownChoiceNamesListTheValidOnes) {
    EXPECT_TRUE(setFails("emitter", "cube", ErrorCode::UnknownName, {"--emitter", "cube", "rect, circle, sphere"}));
    EXPECT_TRUE(setFails("emitter", "Rect", ErrorCode::UnknownName, {"rect, circle, sphere"}));
    EXPECT_TRUE(setFails("emitter", "", ErrorCode::UnknownName, {"--emitter"}));
    EXPECT_TRUE(setFails("distribution", "gaussian", ErrorCode::UnknownName,
                         {"--distribution", "gaussian", "uniform, normal"}));
    FireParams p;
    setParam(p, "emitter", " sphere ");
    EXPECT_EQ(p.shape, EmitterShape::Sphere);
    setParam(p, "distribution", "uniform");
    EXPECT_EQ(p.distribution, Distribution::Uniform);
}

TEST(Params, UnknownParameterNameListsTheValidOnes) {
    EXPECT_TRUE(setFails("lifetme", "1", ErrorCode::UnknownName, {"lifetme", "lifetime", "particles", "emitter"}));
    EXPECT_TRUE(setFails("--lifetime", "1", ErrorCode::UnknownName, {"--lifetime"}));
    EXPECT_TRUE(setFails("", "1", ErrorCode::UnknownName));
}

TEST(Params, RejectsMalformedVectors) {
    EXPECT_TRUE(setFails("center", "1,2", ErrorCode::BadValue, {"--center", "1,2", "x,y,z"}));
    EXPECT_TRUE(setFails("center", "1,2,3,4", ErrorCode::BadValue, {"--center"}));
    EXPECT_TRUE(setFails("center", "1,,3", ErrorCode::BadValue, {"--center"}));
    EXPECT_TRUE(setFails("speed", "a,b,c", ErrorCode::BadValue, {"--speed"}));
    EXPECT_TRUE(setFails("speed", "0,nan,0", ErrorCode::BadValue, {"--speed"}));
    EXPECT_TRUE(setFails("extent", "-1,1,1", ErrorCode::BadValue, {"--extent"}));
    EXPECT_TRUE(setFails("speed-var", "0,-1,0", ErrorCode::BadValue, {"--speed-var"}));
    FireParams p;
    setParam(p, "center", "1, 2.5 ,-3");
    EXPECT_EQ(p.center, glm::vec3(1.0f, 2.5f, -3.0f));
    setParam(p, "extent", "0.5");  // one number sets all three
    EXPECT_EQ(p.extent, glm::vec3(0.5f));
}

TEST(Params, ValidateRejectsDegenerateEmitters) {
    FireParams p;
    p.shape = EmitterShape::Rect;
    p.extent = {1.0f, 1.0f, 0.0f};
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--extent"}));
    p.shape = EmitterShape::Circle;
    p.extent = {0.0f, 1.0f, 1.0f};
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--extent"}));
    p.shape = EmitterShape::Sphere;
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--extent"}));
}

TEST(Params, RejectsOutOfRangeScalars) {
    EXPECT_TRUE(setFails("sigma", "0", ErrorCode::BadValue, {"--sigma"}));
    EXPECT_TRUE(setFails("cone", "91", ErrorCode::BadValue, {"--cone", "90"}));
    EXPECT_TRUE(setFails("size-var", "1", ErrorCode::BadValue, {"--size-var"}));
    EXPECT_TRUE(setFails("drag", "1.5x", ErrorCode::BadValue, {"--drag", "1.5x"}));
}

TEST(Params, RejectsBadGradients) {
    EXPECT_TRUE(setFails("gradient", "0:1:1:1:1", ErrorCode::BadValue, {"--gradient", "two keys"}));
    EXPECT_TRUE(setFails("gradient", "0:1:1:1,1:0:0:0:0", ErrorCode::BadValue, {"--gradient", "t:r:g:b:a"}));
    EXPECT_TRUE(setFails("gradient", "0.5:1:1:1:1,0.2:0:0:0:0", ErrorCode::BadValue, {"--gradient", "non-decreasing"}));
    EXPECT_TRUE(setFails("gradient", "0:1:1:1:1,1.5:0:0:0:0", ErrorCode::BadValue, {"--gradient"}));
    EXPECT_TRUE(setFails("gradient", "0:2:1:1:1,1:0:0:0:0", ErrorCode::BadValue, {"--gradient", "[0, 1]"}));
    EXPECT_TRUE(setFails("gradient", "0:1:1:1:1,1:0:0:0:nan", ErrorCode::BadValue, {"--gradient"}));
    EXPECT_TRUE(setFails("gradient", "", ErrorCode::BadValue, {"--gradient"}));
    FireParams p;
    p.gradient = {{0.0f, glm::vec4(1.0f)}};
    EXPECT_TRUE(throwsError([&] { validate(p); }, ErrorCode::BadValue, {"--gradient"}));
}

TEST(Params, NamesAreUniqueAndComplete) {
    const auto names = paramNames();
    EXPECT_EQ(names.size(), 48u);
    for (size_t i = 0; i < names.size(); ++i)
        for (size_t j = i + 1; j < names.size(); ++j) EXPECT_NE(names[i], names[j]);
    for (const char* n : {"emitter", "distribution", "particles", "lifetime", "lifetime-var", "gradient", "seed"})
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

// Every parameter, set to a value other than its default, reads back as text that sets the same value.
TEST(Params, EveryParameterRoundTripsThroughText) {
    const std::map<std::string, std::string> values = {
        {"emitter", "sphere"},
        {"distribution", "uniform"},
        {"center", "0.25,-1.5,3"},
        {"extent", "0.75,0.1,0.5"},
        {"sigma", "0.33"},
        {"cone", "30"},
        {"rotate-x", "90"},
        {"rotate-y", "-45"},
        {"rotate-z", "12.5"},
        {"path", "0.5,0.1,0.5"},
        {"path-freq", "0.25,0.5,0.25"},
        {"burst-period", "2.5"},
        {"speed", "0.1,2,-0.3"},
        {"speed-var", "0.2,0.5,0.125"},
        {"accel", "0,-9.81,0"},
        {"accel-var", "1,2,3"},
        {"drag", "0.5"},
        {"drag-on", "launch"},
        {"turbulence", "2.75"},
        {"turbulence-freq", "3.5"},
        {"turbulence-speed", "0.125"},
        {"ground", "bounce"},
        {"ground-height", "-0.25"},
        {"restitution", "0.75"},
        {"friction", "0.125"},
        {"lifetime", "2.5"},
        {"lifetime-var", "0.7"},
        {"size-start", "0.3"},
        {"size-end", "0.01"},
        {"size-var", "0.5"},
        {"size-unit", "px"},
        {"gradient", "0:1:0.5:0.25:1,0.4:0.5:0.5:0.5:0.5,1:0:0:0:0"},
        {"color-var", "0.3"},
        {"bounce-fog", "3"},
        {"rotation-var", "45"},
        {"spin", "-90"},
        {"spin-var", "30"},
        {"color", "blackbody"},
        {"color-position", "0.75"},
        {"flame-radius", "0.4"},
        {"flame-height", "1.25"},
        {"temperature", "2500:900.5"},
        {"temperature-var", "150"},
        {"temperature-ref", "1800"},
        {"particles", "12345"},
        {"rate", "1500.5"},
        {"burst", "77"},
        {"seed", "9876543210123"},
    };
    const FireParams defaults;
    for (const auto& name : paramNames()) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(values.count(name)) << "no test value for a new parameter";
        FireParams p;
        setParam(p, name, values.at(name));
        const std::string text = getParam(p, name);
        EXPECT_NE(text, getParam(defaults, name)) << "the test value is the default";
        FireParams q;
        setParam(q, name, text);
        EXPECT_EQ(getParam(q, name), text);
        // Unchanged defaults round-trip too.
        FireParams d;
        setParam(d, name, getParam(defaults, name));
        EXPECT_EQ(getParam(d, name), getParam(defaults, name));
    }
}

// Floats that need all nine significant digits survive the text round trip bit for bit.
TEST(Params, FloatsRoundTripExactly) {
    FireParams p;
    p.sigma = 1.0f / 3.0f;
    p.lifetimeMean = 1.2345678f;
    p.center = {0.1f, 1.0f / 7.0f, -2.0f / 3.0f};
    FireParams q;
    for (const char* name : {"sigma", "lifetime", "center"}) setParam(q, name, getParam(p, name));
    EXPECT_EQ(q.sigma, p.sigma);
    EXPECT_EQ(q.lifetimeMean, p.lifetimeMean);
    EXPECT_EQ(q.center, p.center);
    EXPECT_EQ(getParam(FireParams{}, "sigma"), "0.4");  // and short values stay short
}

TEST(Params, GetParamOfUnknownNameIsEmpty) { EXPECT_EQ(getParam(FireParams{}, "nope"), ""); }

TEST(Params, ExitCodesSeparateBadInputFromRuntimeFailures) {
    for (ErrorCode c :
         {ErrorCode::UnknownName, ErrorCode::BadValue, ErrorCode::TooLarge, ErrorCode::MissingFile, ErrorCode::BadFile})
        EXPECT_EQ(exitCodeFor(c), 2);
    for (ErrorCode c : {ErrorCode::Io, ErrorCode::NoGlContext, ErrorCode::GlUnsupported, ErrorCode::ShaderCompile})
        EXPECT_EQ(exitCodeFor(c), 1);
}

}  // namespace
}  // namespace firelab::sim

namespace firelab::testing {
namespace {
// Every parameter belongs to a titled section of visitParams, and so has a widget in the viewer's panel of
// that name (the viewer builds one panel per section); no parameter is in two.
TEST(Params, EveryParameterIsInOneTitledSection) {
    std::vector<std::string> seen;
    for (const auto& section : sim::paramSections()) {
        EXPECT_FALSE(section.title.empty()) << "parameters before the first core::section: " << section.names.front();
        EXPECT_FALSE(section.names.empty()) << section.title;
        seen.insert(seen.end(), section.names.begin(), section.names.end());
    }
    EXPECT_EQ(seen, sim::paramNames());
    std::vector<std::string> titles;
    for (const auto& section : sim::paramSections()) titles.push_back(section.title);
    EXPECT_EQ(titles, (std::vector<std::string>{"Emitter", "Motion", "Appearance"}));
}
}  // namespace
}  // namespace firelab::testing
