// The fire model's and the grid fluid's settings (fluid::visitFluidParams, in place in visitRunSettings): the
// grid's NXxNYxNZ text, its lists, the columns and the reference keys they make, and which strategies can draw
// which model (render::checkFluid), as a sweep plans them.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.h"
#include "harness/settings/experiment.h"
#include "harness/settings/run_settings.h"
#include "render/strategies/strategy.h"

namespace firelab::harness {
namespace {

bool has(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(FluidSettings, AGridIsThreeAxesOrOneForACube) {
    RunSettings s;
    applySetting(s, "grid", "64x128x48");
    EXPECT_EQ(s.fluid.grid, glm::ivec3(64, 128, 48));
    EXPECT_EQ(settingText(s, "grid"), "64x128x48");
    applySetting(s, "grid", "40");
    EXPECT_EQ(s.fluid.grid, glm::ivec3(40));
    EXPECT_EQ(settingText(s, "grid"), "40x40x40");
    for (const char* bad : {"64x64", "0", "3", "513", "64xax64", "", "64x64x64x64"}) {
        SCOPED_TRACE(bad);
        try {
            applySetting(s, "grid", bad);
            ADD_FAILURE() << "accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), ErrorCode::BadValue);
            EXPECT_NE(std::string(e.what()).find("--grid"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(s.fluid.grid, glm::ivec3(40)) << "a refused value leaves the setting as it was";
}

TEST(FluidSettings, AGridListIsCommaSeparatedAndNeverARange) {
    EXPECT_EQ(splitValues("grid", "32,64x128x64,128"), (std::vector<std::string>{"32", "64x128x64", "128"}));
    EXPECT_EQ(splitValues("grid", "32..128x2"), (std::vector<std::string>{"32..128x2"}))
        << "kept whole, so that applying it refuses it as a grid";
    RunSettings s;
    EXPECT_THROW(applySetting(s, "grid", "32..128x2"), Error);
    EXPECT_EQ(tomlSettingValue("grid", "64x128x64"), "\"64x128x64\"");
}

TEST(FluidSettings, EverySettingIsAColumnAndTheModelIsAReferenceKey) {
    const auto& columns = settingColumns();
    for (const std::string& name : fluidSettingNames()) EXPECT_TRUE(has(columns, name)) << name;
    for (const char* name : {"model", "motion", "medium", "grid", "cell", "solver", "solver-iterations"})
        EXPECT_TRUE(has(fluidSettingNames(), name)) << name;
    EXPECT_TRUE(has(referenceKeys(), "motion"));
    EXPECT_TRUE(has(referenceKeys(), "medium"));
    const ReferenceSpec spec = parseReference("strategy=volume-reference;medium=grid");
    RunSettings run;
    applySetting(run, "model", "fluid");
    applySetting(run, "motion", "fluid");
    EXPECT_EQ(fluidParamsText(run.fluid).find("model=fluid;motion=fluid;medium=auto"), 0u)
        << fluidParamsText(run.fluid);
    (void)spec;
}

// render::checkFluid: what each kind of strategy can draw of each model.
TEST(FluidSettings, StrategiesDrawTheModelsTheyCan) {
    fluid::FluidParams f;
    EXPECT_NO_THROW(render::checkFluid("billboards-instanced", f)) << "the paper's fire: every strategy";
    f.model = fluid::Model::Fluid;
    EXPECT_NO_THROW(render::checkFluid("volume", f)) << "the grid";
    EXPECT_NO_THROW(render::checkFluid("volume-reference", f));
    EXPECT_THROW(render::checkFluid("billboards-instanced", f), Error) << "particles the fluid does not move";
    f.motion = fluid::Motion::Fluid;
    EXPECT_NO_THROW(render::checkFluid("billboards-instanced", f));
    EXPECT_NO_THROW(render::checkFluid("points", f));
    EXPECT_THROW(render::checkFluid("gpu-stateless", f), Error) << "its particles are the GPU's";
    EXPECT_THROW(render::checkFluid("compute", f), Error);
    f.medium = fluid::MediumOf::Particles;
    EXPECT_TRUE(!render::drawsGrid(f));
    EXPECT_NO_THROW(render::checkFluid("volume-reference", f)) << "the fluid-carried particles' medium";
    f = fluid::FluidParams{};
    f.motion = fluid::Motion::Fluid;
    EXPECT_THROW(render::checkFluid("billboards-cpu", f), Error) << "no grid to follow";
    f = fluid::FluidParams{};
    f.medium = fluid::MediumOf::Grid;
    EXPECT_THROW(render::checkFluid("volume", f), Error) << "no grid to draw";
}

// A sweep of strategies under --model fluid leaves out (and lists) the ones that cannot draw it.
TEST(FluidSettings, ASweepLeavesOutTheStrategiesThatCannotDrawTheFluid) {
    Experiment e;
    e.override("model", "fluid");
    e.override("motion", "fluid");
    e.override("particles", "1000");
    e.override("grid", "16,24x32x24");
    e.override("strategy", "gpu-stateless,billboards-cpu");
    std::vector<std::string> leftOut;
    const std::vector<PlannedRun> runs = expand(e, "", &leftOut);
    ASSERT_EQ(runs.size(), 2u);
    for (const PlannedRun& r : runs) EXPECT_EQ(r.settings.strategy, "billboards-cpu");
    EXPECT_EQ(runs[1].settings.fluid.grid, glm::ivec3(24, 32, 24));
    ASSERT_EQ(leftOut.size(), 2u);
    EXPECT_NE(leftOut.front().find("gpu-stateless"), std::string::npos) << leftOut.front();
}

}  // namespace
}  // namespace firelab::harness
