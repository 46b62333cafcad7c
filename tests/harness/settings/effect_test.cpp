// Effects (harness/settings/effect.h): files of [[layer]] tables, layers that follow the run's settings where they
// say nothing, seed streams per layer, and errors that name the file, the layer and the key.
#include <gtest/gtest.h>

#include <cstring>

#include "harness/settings/effect.h"
#include "harness/settings/experiment.h"
#include "render/frame/layer_stack.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"
#include "support/error_of.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {

namespace fs = std::filesystem;
using harness::RunSettings;

const fs::path kEffects = fs::path(FIRELAB_SOURCE_DIR) / "effects";

const char* kSmoke = R"(
[[layer]]
name = "smoke"
blend = "alpha"
sort = "back-to-front"
texture = "smoke.png"
center = [0.0, 1.0, 0.0]
particles = 300
lifetime = 3.0
)";
const char* kEmbers = R"(
[[layer]]
name = "embers"
particles = 100
ground = "bounce"
accel = [0.0, -4.0, 0.0]
)";

// Every float of the live particles, in order.
std::vector<float> state(const sim::FireSystem& fire) {
    const auto& q = fire.pool();
    std::vector<float> v;
    for (const float* a : {q.px, q.py, q.pz, q.vx, q.vy, q.vz, q.age, q.life, q.scale, q.rnd})
        v.insert(v.end(), a, a + q.alive());
    return v;
}

std::vector<float> simulated(const harness::Layer& layer, int steps) {
    sim::FireSystem fire(layer.params, 1);
    for (int i = 0; i < steps; ++i) fire.step(1.0f / 60);
    return state(fire);
}

const harness::Layer& named(const std::vector<harness::Layer>& layers, const std::string& name) {
    for (const auto& l : layers)
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name);
}

class Effects : public ScratchDirTest {
protected:
    RunSettings runWith(const fs::path& effect) const {
        RunSettings s;
        s.params.particles = 2000;
        harness::applySetting(s, "effect", effect.string());
        return s;
    }
};

TEST_F(Effects, FlameFileIsTheRunWithoutAnEffect) {
    RunSettings plain;
    plain.params.particles = 1234;
    plain.params.seed = 42;
    const auto none = harness::resolveLayers(plain);
    ASSERT_EQ(none.size(), 1u);
    EXPECT_EQ(none[0].name, "flame");
    RunSettings flame = plain;
    harness::applySetting(flame, "effect", (kEffects / "flame.toml").string());
    const auto layers = harness::resolveLayers(flame);
    ASSERT_EQ(layers.size(), 1u);
    EXPECT_EQ(sim::getParam(layers[0].params, "seed"), "42");
    for (const auto& name : sim::paramNames())
        EXPECT_EQ(sim::getParam(layers[0].params, name), sim::getParam(plain.params, name)) << name;
    EXPECT_EQ(harness::renderOptionsText(layers[0].render), harness::renderOptionsText(plain.render));
    EXPECT_EQ(simulated(layers[0], 30), simulated(none[0], 30));
}

TEST_F(Effects, AddingALayerLeavesTheOthersParticlesUnchanged) {
    const auto two =
        harness::resolveLayers(runWith(write("two.toml", std::string("[[layer]]\nname = \"flame\"\n") + kSmoke)));
    // Another layer added first, and the flame removed: the remaining layers keep their streams.
    const auto three = harness::resolveLayers(
        runWith(write("three.toml", std::string(kEmbers) + "[[layer]]\nname = \"flame\"\n" + kSmoke)));
    const auto noFlame = harness::resolveLayers(runWith(write("noflame.toml", std::string(kSmoke) + kEmbers)));
    EXPECT_EQ(simulated(named(noFlame, "smoke"), 90), simulated(named(two, "smoke"), 90));
    EXPECT_EQ(simulated(named(noFlame, "embers"), 90), simulated(named(three, "embers"), 90));
    ASSERT_EQ(two.size(), 2u);
    ASSERT_EQ(three.size(), 3u);
    for (const char* name : {"flame", "smoke"}) {
        SCOPED_TRACE(name);
        const auto a = simulated(named(two, name), 90), b = simulated(named(three, name), 90);
        ASSERT_FALSE(a.empty());
        EXPECT_EQ(a, b);
    }
    // The later layers draw streams of their own, different from the run's and from each other.
    EXPECT_NE(named(three, "smoke").params.seed, named(three, "flame").params.seed);
    EXPECT_NE(named(three, "smoke").params.seed, named(three, "embers").params.seed);
    EXPECT_EQ(named(three, "flame").params.seed, 1u);
}

TEST_F(Effects, LayersFollowTheRunWhereTheySayNothing) {
    auto run = runWith(write("e.toml", std::string("[[layer]]\nname = \"flame\"\n") + kSmoke));
    harness::applySetting(run, "particles", "777");
    harness::applySetting(run, "lifetime", "0.9");
    harness::applySetting(run, "blend", "premultiplied");
    const auto layers = harness::resolveLayers(run);
    EXPECT_EQ(layers[0].params.particles, 777u);
    EXPECT_FLOAT_EQ(layers[0].params.lifetimeMean, 0.9f);
    EXPECT_EQ(layers[0].render.blend, render::Blend::Premultiplied);
    EXPECT_EQ(layers[1].params.particles, 300u);  // its own
    EXPECT_FLOAT_EQ(layers[1].params.lifetimeMean, 3.0f);
    EXPECT_EQ(layers[1].render.blend, render::Blend::Alpha);
    EXPECT_EQ(layers[1].render.texture, "smoke.png");
    // --energy-preserving's scale follows the run's count only.
    run.render.alphaScale = 4.0f;
    const auto scaled = harness::resolveLayers(run);
    EXPECT_FLOAT_EQ(scaled[0].render.alphaScale, 4.0f);
    EXPECT_FLOAT_EQ(scaled[1].render.alphaScale, 1.0f);
}

TEST_F(Effects, ShippedEffectsLoadAndEveryStrategyThatCanDrawsThem) {
    for (const char* name : {"flame", "campfire", "explosion", "torch"}) {
        SCOPED_TRACE(name);
        RunSettings run;
        harness::applySetting(run, "effect", name);  // found by name in the data folder
        const auto layers = harness::resolveLayers(run);
        EXPECT_GE(layers.size(), std::strcmp(name, "flame") == 0 ? 1u : 3u);
        for (const auto& l : layers) {
            EXPECT_NO_THROW(render::checkOptions("billboards-instanced", l.render)) << l.name;
            EXPECT_NO_THROW(render::checkModel("compute", l.params)) << l.name;
        }
    }
}

TEST_F(Effects, WhatAStrategyDrawsOtherwiseIsNotedPerLayer) {
    RunSettings run;
    harness::applySetting(run, "effect", "explosion");
    for (const auto& l : harness::resolveLayers(run)) EXPECT_EQ(l.note, "") << l.name;  // instanced: as asked
    harness::applySetting(run, "strategy", "points");
    const auto points = harness::resolveLayers(run);
    EXPECT_NE(named(points, "shockwave").note.find("--facing ground is drawn as view-plane"), std::string::npos);
    EXPECT_EQ(named(points, "fireball").note, "");
    harness::applySetting(run, "strategy", "gpu-stateless");
    const auto stateless = harness::resolveLayers(run);
    EXPECT_EQ(named(stateless, "smoke").render.sort, render::Sort::None);
    EXPECT_NE(named(stateless, "smoke").note.find("cannot sort"), std::string::npos);
}

// Issue 23: the memory check was per layer, so an effect whose layers fit one by one but not together passed
// planning and died with std::bad_alloc. The layers' pools are added: enough 50M-particle layers to pass the
// machine's budget together (each well within it) are refused, naming the effect and each layer's share.
TEST_F(Effects, TheLayersPoolsMustFitTogether) {
    sim::FireParams big;
    big.particles = sim::kMaxParticles;
    const double each = sim::FireSystem::poolBytes(big), budget = sim::FireSystem::memoryBudgetBytes();
    ASSERT_GT(budget, 0.0) << "the machine's memory could not be read";
    ASSERT_LT(each, budget);
    const int count = static_cast<int>(budget / each) + 1;
    std::string text;
    for (int i = 0; i < count; ++i) text += "[[layer]]\nname = \"l" + std::to_string(i) + "\"\nparticles = 50000000\n";
    const RunSettings many = runWith(write("many.toml", text));
    const Error e = errorOf([&] { harness::checkEffect(many); });
    EXPECT_EQ(e.code(), ErrorCode::TooLarge);
    EXPECT_NE(std::string(e.what()).find("layers' pools together"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("l0 "), std::string::npos) << e.what();
    // One layer fewer than the budget allows passes.
    std::string fits;
    for (int i = 0; i + 1 < count; ++i)
        fits += "[[layer]]\nname = \"l" + std::to_string(i) + "\"\nparticles = 50000000\n";
    EXPECT_NO_THROW(harness::checkEffect(runWith(write("fits.toml", fits))));
}

TEST_F(Effects, TomlRoundTrips) {
    const auto file = write(
        "e.toml",
        std::string(
            "[effect]\ndescription = \"a \\\"test\\\"\"\n[[layer]]\nname = \"flame\"\ngradient = [[0.0, 1.0, 1.0, 1.0, 0.5], [1.0, 0.0, 0.0, 0.0, 0.0]]\n") +
            kSmoke);
    const harness::Effect e = harness::loadEffect(file);
    const harness::Effect again = harness::loadEffect(write("again.toml", harness::effectToml(e)));
    EXPECT_EQ(again.description, e.description);
    ASSERT_EQ(again.layers.size(), e.layers.size());
    for (size_t i = 0; i < e.layers.size(); ++i) {
        EXPECT_EQ(again.layers[i].name, e.layers[i].name);
        EXPECT_EQ(again.layers[i].settings, e.layers[i].settings);
    }
}

TEST_F(Effects, BadFilesNameTheFileTheLayerAndTheKey) {
    auto fails = [&](const std::string& text, ErrorCode code, std::vector<std::string> words) {
        const auto file = write("bad.toml", text);
        const Error e = errorOf([&] { harness::loadEffect(file); });
        EXPECT_EQ(e.code(), code) << e.what();
        const std::string what = e.what();
        EXPECT_NE(what.find("bad.toml"), std::string::npos) << what;
        for (const auto& w : words) EXPECT_NE(what.find(w), std::string::npos) << "'" << w << "' not in: " << what;
    };
    fails("[[layer]]\nname = \"a\"\nparticle-scale = \"0.5\"\n", ErrorCode::UnknownName,
          {":3", "particle-scale", "layer setting"});
    fails("[[layer]]\nname = \"a\"\nwobble = 1\n", ErrorCode::UnknownName, {"wobble"});
    fails("[[layer]]\nname = \"a\"\n[[layer]]\nname = \"a\"\n", ErrorCode::BadValue, {"two layers", "'a'"});
    fails("[[layer]]\nname = \"smoke\"\nlifetime = -1\n", ErrorCode::BadValue, {"layer 'smoke'", "lifetime"});
    fails("[[layer]]\nname = \"x y\"\n", ErrorCode::BadValue, {"layer name"});
    fails("[effect]\ndescription = \"none\"\n", ErrorCode::BadFile, {"no [[layer]]"});
    fails("[sweep]\nparticles = [1, 2]\n", ErrorCode::BadFile, {"[sweep]"});
    // Through the check every front end makes of --effect (expand, capture, view): a missing file names it.
    const Error missing = errorOf([&] { harness::checkEffectFile((dir_ / "nope.toml").string()); });
    EXPECT_NE(std::string(missing.what()).find("--effect"), std::string::npos) << missing.what();
    EXPECT_NE(std::string(missing.what()).find("nope.toml"), std::string::npos) << missing.what();
    // A name the file system refuses (a component longer than NAME_MAX) is a missing file, not a crash
    // (the values fuzzer found it).
    const Error tooLong = errorOf([&] { harness::checkEffectFile(std::string(300, 'x') + "/a.toml"); });
    EXPECT_EQ(tooLong.code(), ErrorCode::MissingFile) << tooLong.what();
    const Error tooLongName = errorOf([&] { harness::checkEffectFile(std::string(300, 'x')); });
    // And through an experiment, before any run: the file and --effect are named.
    const auto experiment = write("bad-effect.toml", "[run]\neffect = \"" + (dir_ / "nope.toml").string() + "\"\n");
    const Error expanded = errorOf([&] { harness::expand(harness::loadExperiment(experiment), experiment.string()); });
    EXPECT_EQ(expanded.code(), ErrorCode::MissingFile);
    EXPECT_NE(std::string(expanded.what()).find("--effect"), std::string::npos) << expanded.what();
    EXPECT_NE(std::string(expanded.what()).find("bad-effect.toml"), std::string::npos) << expanded.what();
    EXPECT_EQ(tooLongName.code(), ErrorCode::MissingFile) << tooLongName.what();
}

TEST_F(Effects, TheReferenceLookWinsOverALayersOwn) {
    // A layer's trimmed hull, nearest filter and missing sort are what quality scores, not what the
    // reference copies.
    auto run =
        runWith(write("e.toml", "[[layer]]\nname = \"flame\"\nhull = \"8\"\nfilter = \"nearest\"\nsort = \"none\"\n"));
    const auto asDrawn = harness::resolveLayers(run);
    EXPECT_EQ(asDrawn[0].render.hull, render::Hull::Eight);
    const auto ref = harness::resolveLayers(harness::referenceSettings(run, harness::ReferenceSpec{}));
    EXPECT_EQ(ref[0].render.hull, render::Hull::Quad);
    EXPECT_EQ(ref[0].render.filter, render::Filter::Trilinear);
    EXPECT_EQ(ref[0].render.sort, render::Sort::BackToFront);
}

// --override-layers: the run's values of the named settings win over each layer's own (the campfire's smoke is
// lit per pixel and sorted; --lit none --sort none with the override draws it unlit and unsorted); the other
// settings a layer sets stay its own; a name no layer may set is refused, naming the flag and the name.
TEST_F(Effects, OverrideLayersGivesTheRunsValuesPrecedence) {
    RunSettings run = runWith(kEffects / "campfire.toml");
    harness::applySetting(run, "lit", "none");
    harness::applySetting(run, "sort", "none");
    EXPECT_EQ(named(harness::resolveLayers(run), "smoke").render.lit, render::Lit::Pixel) << "the layer's own wins";
    harness::applySetting(run, "override-layers", "lit, sort");
    const auto layers = harness::resolveLayers(run);
    const auto& smoke = named(layers, "smoke");
    EXPECT_EQ(smoke.render.lit, render::Lit::None);
    EXPECT_EQ(smoke.render.sort, render::Sort::None);
    EXPECT_EQ(smoke.render.blend, render::Blend::Alpha) << "a setting not named stays the layer's";
    harness::applySetting(run, "override-layers", "lit,,sort");
    EXPECT_NE(std::string(errorOf([&] { harness::checkOverrideLayers(run); }).what()).find("an empty item"),
              std::string::npos);
    // Two layers with a seed of their own share it; with the seed overridden each draws its own stream from the
    // run's (not the run's raw seed, the same for both).
    RunSettings seeds =
        runWith(write("seeds.toml", "[[layer]]\nname = \"a\"\nseed = 7\n[[layer]]\nname = \"b\"\nseed = 7\n"));
    auto seedOf = [&](const char* layer) {
        return sim::getParam(named(harness::resolveLayers(seeds), layer).params, "seed");
    };
    EXPECT_EQ(seedOf("a"), seedOf("b"));
    harness::applySetting(seeds, "override-layers", "seed");
    EXPECT_NE(seedOf("a"), seedOf("b"));
    harness::applySetting(run, "override-layers", "lit,width");
    const Error e = errorOf([&] { harness::resolveLayers(run); });
    EXPECT_EQ(e.code(), ErrorCode::BadValue);
    EXPECT_NE(std::string(e.what()).find("--override-layers lit,width: 'width' is not a setting a layer may set"),
              std::string::npos)
        << e.what();
}

TEST(LayerOrder, AlphaLayersBackToFrontThenAdditive) {
    const render::Camera camera = render::lookAtCamera({0.0f, 0.5f, 5.0f}, {0.0f, 0.5f, 0.0f}, 45.0f, 64, 64);
    auto layer = [](const char* name, render::Blend blend, float z) {
        render::LayerSetup l{name, {}, {}, {}};
        l.render.blend = blend;
        l.params.center = {0.0f, 0.0f, z};
        return l;
    };
    const std::vector<render::LayerSetup> layers{
        layer("flame", render::Blend::Additive, 0.0f), layer("near", render::Blend::Alpha, 2.0f),
        layer("embers", render::Blend::Additive, 0.0f), layer("far", render::Blend::Premultiplied, -2.0f)};
    EXPECT_EQ(render::drawOrder(layers, camera, 0.0), (std::vector<size_t>{3, 1, 0, 2}));
    // Seen from the other side, the alpha layers swap; the additive ones keep the effect's order.
    const render::Camera behind = render::lookAtCamera({0.0f, 0.5f, -5.0f}, {0.0f, 0.5f, 0.0f}, 45.0f, 64, 64);
    EXPECT_EQ(render::drawOrder(layers, behind, 0.0), (std::vector<size_t>{1, 3, 0, 2}));
}

}  // namespace
}  // namespace firelab::testing
