// Loading a config's [model] table into FireParams (harness/settings/config.h), called directly: values in
// every TOML form, and errors with the right identity that name the file and line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "harness/settings/config.h"
#include "core/error.h"
#include "sim/params.h"

#include "support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using firelab::Error;
using firelab::ErrorCode;
using firelab::sim::FireParams;

class ModelConfig : public firelab::testing::ScratchDirTest {
protected:
    fs::path write(const std::string& text) const { return ScratchDirTest::write("model.toml", text); }
    // Loads text; expects a firelab::Error with `code` whose message contains `part`.
    void expectError(const std::string& text, ErrorCode code, const std::string& part) const {
        FireParams p;
        try {
            firelab::harness::loadModelConfig(write(text), p);
            ADD_FAILURE() << "no error for:\n" << text;
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), code) << e.what();
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        }
    }
};

TEST_F(ModelConfig, SetsParametersFromEveryTomlForm) {
    FireParams p;
    firelab::harness::loadModelConfig(write(R"(
[model]
lifetime = 2.0
lifetime-var = 0.25
emitter = "sphere"
particles = 1234
speed = [0, 1.25, -0.5]
extent = 0.5
gradient = [[0, 1, 1, 1, 1], [1, 0, 0, 0, 0]]
seed = 99

[other]
ignored = true
)"),
                                      p);
    EXPECT_EQ(p.lifetimeMean, 2.0f);
    EXPECT_EQ(p.lifetimeVar, 0.25f);
    EXPECT_EQ(p.shape, firelab::sim::EmitterShape::Sphere);
    EXPECT_EQ(p.particles, 1234u);
    EXPECT_EQ(p.speedMean, glm::vec3(0.0f, 1.25f, -0.5f));
    EXPECT_EQ(p.extent, glm::vec3(0.5f));
    ASSERT_EQ(p.gradient.size(), 2u);
    EXPECT_EQ(p.gradient[1].t, 1.0f);
    EXPECT_EQ(p.gradient[1].rgba, glm::vec4(0.0f));
    EXPECT_EQ(p.seed, 99u);
    EXPECT_EQ(p.sigma, FireParams{}.sigma) << "unset parameters keep their defaults";
}

TEST_F(ModelConfig, NoModelTableChangesNothing) {
    FireParams p;
    firelab::harness::loadModelConfig(write("[experiment]\nname = \"x\"\n"), p);
    EXPECT_EQ(firelab::sim::getParam(p, "lifetime"), firelab::sim::getParam(FireParams{}, "lifetime"));
}

TEST_F(ModelConfig, SyntaxErrorIsBadFileWithTheLine) {
    expectError("[model]\nlifetime = 2.0\nemitter = \n", ErrorCode::BadFile, "model.toml:3");
}

TEST_F(ModelConfig, BadValuesKeepTheirIdentityAndNameTheLine) {
    expectError("[model]\n\nlifetime = 0\n", ErrorCode::BadValue, "model.toml:3");
    expectError("[model]\nparticles = -5\n", ErrorCode::BadValue, "--particles");
    expectError("[model]\nparticles = 1e12\n", ErrorCode::TooLarge, "--particles");
    expectError("[model]\nparticles = 1000000000000\n", ErrorCode::TooLarge, "--particles");
    expectError("[model]\nemitter = \"cube\"\n", ErrorCode::UnknownName, "rect, circle, sphere");
    expectError("[model]\nspeed = [1, 2]\n", ErrorCode::BadValue, "--speed");
    expectError("[model]\nlifetime = true\n", ErrorCode::BadValue, "--lifetime");
    expectError("[model]\nlifetime = nan\n", ErrorCode::BadValue, "--lifetime");
    expectError("[model]\ncolour = 1\n", ErrorCode::UnknownName, "colour");
    expectError("[model]\ngradient = [[0, 1, 1, 1, 1]]\n", ErrorCode::BadValue, "--gradient");
}

TEST_F(ModelConfig, MissingFileIsMissingFile) {
    FireParams p;
    try {
        firelab::harness::loadModelConfig(dir_ / "absent.toml", p);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::MissingFile);
        EXPECT_NE(std::string(e.what()).find("absent.toml"), std::string::npos) << e.what();
    }
}

}  // namespace
