// The viewer's Layers panel without the GUI (harness::EffectEditor): adding, copying, removing and
// renaming layers, overrides validated against the run, and the effect file saved and loaded back.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/settings/effect.h"
#include "harness/settings/effect_editor.h"
#include "harness/settings/experiment.h"
#include "sim/params.h"

#include "support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using firelab::harness::Effect;
using firelab::harness::EffectEditor;
using firelab::harness::RunSettings;
using EffectEditorTest = firelab::testing::ScratchDirTest;

std::string setting(const firelab::harness::LayerSpec& l, const std::string& key) {
    for (const auto& [k, v] : l.settings)
        if (k == key) return v;
    return "<unset>";
}

TEST(EffectEditor, StartsWithTheDefaultFlame) {
    const EffectEditor e;
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e.layer(0).name, "flame");
    EXPECT_TRUE(e.layer(0).settings.empty());
    EXPECT_EQ(e.path(), fs::path("effects/my-effect.toml"));
    EXPECT_EQ(EffectEditor(Effect{}).size(), 1u) << "an effect without layers becomes the default";
}

TEST(EffectEditor, AddsLayersWithUniqueNamesAndCopiesTheSelected) {
    EffectEditor e;
    const auto r0 = e.revision();
    EXPECT_EQ(e.add(), 1u);
    EXPECT_EQ(e.layer(1).name, "layer1");
    EXPECT_EQ(e.selected(), 1u);
    EXPECT_GT(e.revision(), r0);
    ASSERT_TRUE(e.rename("layer2"));
    EXPECT_EQ(e.layer(e.add()).name, "layer1");
    EXPECT_EQ(e.layer(e.add()).name, "layer3");

    e.select(0);
    ASSERT_TRUE(e.set("blend", "alpha", RunSettings{}));
    EXPECT_EQ(e.duplicate(), 4u);
    EXPECT_EQ(e.layer(4).name, "flame-copy");
    EXPECT_EQ(setting(e.layer(4), "blend"), "alpha");
    e.select(0);
    EXPECT_EQ(e.layer(e.duplicate()).name, "flame-copy2");

    // A copy of a 64-character name stays within 64.
    e.select(0);
    ASSERT_TRUE(e.rename(std::string(64, 'x')));
    const auto& copy = e.layer(e.duplicate());
    EXPECT_EQ(copy.name.size(), 64u);
    EXPECT_TRUE(firelab::harness::validLayerName(copy.name));
}

TEST(EffectEditor, RemovesTheSelectedButNotTheLastLayer) {
    EffectEditor e;
    EXPECT_FALSE(e.remove());
    EXPECT_FALSE(e.ok());
    EXPECT_NE(e.message().find("at least one layer"), std::string::npos) << e.message();
    e.add();
    e.add();
    e.select(1);
    const auto r = e.revision();
    EXPECT_TRUE(e.remove());
    EXPECT_TRUE(e.ok());
    EXPECT_GT(e.revision(), r);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e.layer(1).name, "layer2");
    EXPECT_EQ(e.selected(), 1u);
    EXPECT_TRUE(e.remove());
    EXPECT_EQ(e.selected(), 0u) << "the selection stays on a layer";
    EXPECT_FALSE(e.remove());
}

TEST(EffectEditor, RenamesOnlyToValidUniqueNames) {
    EffectEditor e;
    e.add();
    const auto r = e.revision();
    for (const std::string& bad : std::vector<std::string>{"", "has space", "sl/ash", std::string(65, 'a'), "flame"}) {
        SCOPED_TRACE(bad);
        EXPECT_FALSE(e.rename(bad));
        EXPECT_FALSE(e.ok());
        EXPECT_FALSE(e.message().empty());
        EXPECT_EQ(e.selectedLayer().name, "layer1");
    }
    EXPECT_NE(e.message().find("another layer"), std::string::npos) << e.message();
    EXPECT_EQ(e.revision(), r) << "a refused rename changes nothing";
    EXPECT_TRUE(e.rename("Smoke_2.b-c"));
    EXPECT_TRUE(e.ok());
    EXPECT_EQ(e.layer(1).name, "Smoke_2.b-c");
    EXPECT_TRUE(e.rename(std::string(64, 'a')));
}

TEST(EffectEditor, SetsValidatedOverridesInPlace) {
    EffectEditor e;
    RunSettings run;
    run.params.particles = 5000;
    ASSERT_TRUE(e.set("particles", "300", run));
    ASSERT_TRUE(e.set("blend", "alpha", run));
    ASSERT_TRUE(e.set("particles", "400", run));  // updated where it was, not appended
    ASSERT_EQ(e.selectedLayer().settings.size(), 2u);
    EXPECT_EQ(e.selectedLayer().settings[0], (std::pair<std::string, std::string>{"particles", "400"}));
    EXPECT_EQ(e.layerSettings(run).params.particles, 400u);
    EXPECT_EQ(e.layerSettings(run).render.blend, firelab::render::Blend::Alpha);

    // The widgets' text of a value round-trips (a vector, the gradient).
    RunSettings shown = e.layerSettings(run);
    shown.params.center = {0.1f, 0.9f, 0.0f};
    shown.params.gradient.front().rgba.x = 0.25f;
    for (const char* key : {"center", "gradient"})
        ASSERT_TRUE(e.set(key, firelab::harness::settingText(shown, key), run)) << e.message();
    EXPECT_FLOAT_EQ(e.layerSettings(run).params.center.y, 0.9f);
    EXPECT_FLOAT_EQ(e.layerSettings(run).params.gradient.front().rgba.x, 0.25f);

    const auto before = e.selectedLayer().settings;
    const auto r = e.revision();
    EXPECT_FALSE(e.set("particles", "0", run));
    EXPECT_NE(e.message().find("particles"), std::string::npos) << e.message();
    EXPECT_FALSE(e.set("particles", "many", run));
    EXPECT_FALSE(e.set("blend", "glow", run));
    EXPECT_FALSE(e.set("width", "100", run)) << "the frame's settings are not a layer's";
    EXPECT_NE(e.message().find("not a layer setting"), std::string::npos) << e.message();
    EXPECT_EQ(e.selectedLayer().settings, before);
    EXPECT_EQ(e.revision(), r);

    EXPECT_TRUE(e.unset("particles"));
    EXPECT_EQ(e.layerSettings(run).params.particles, 5000u) << "it follows the run's again";
    EXPECT_FALSE(e.unset("particles"));
}

TEST(EffectEditor, ResolvesTheEditedEffect) {
    EffectEditor e;
    RunSettings run;
    ASSERT_TRUE(e.set("particles", "700", run));
    e.add();
    ASSERT_TRUE(e.set("blend", "alpha", run));
    const auto layers = firelab::harness::resolveLayers(run, e.effect());
    ASSERT_EQ(layers.size(), 2u);
    EXPECT_EQ(layers[0].name, "flame");
    EXPECT_EQ(layers[0].params.particles, 700u);
    EXPECT_EQ(layers[0].params.seed, run.params.seed);
    EXPECT_EQ(layers[1].render.blend, firelab::render::Blend::Alpha);
    EXPECT_EQ(layers[1].params.particles, run.params.particles);
    // Without an effect in memory: the run's (the default flame) as before.
    const auto single = firelab::harness::resolveLayers(run);
    ASSERT_EQ(single.size(), 1u);
    EXPECT_EQ(single[0].params.particles, run.params.particles);
}

TEST_F(EffectEditorTest, SavesAtomicallyAndLoadsBack) {
    EffectEditor e;
    RunSettings run;
    ASSERT_TRUE(e.set("particles", "300", run));
    ASSERT_TRUE(e.set("gradient", "0:1:0.5:0.2:1,1:0.2:0.1:0:0", run));
    e.duplicate();
    ASSERT_TRUE(e.set("texture", "smoke.png", run));
    ASSERT_TRUE(e.rename("smoke"));
    e.setPath(dir_ / "sub" / "mine.toml");  // the folder is made
    ASSERT_TRUE(e.save()) << e.message();
    EXPECT_NE(e.message().find("saved"), std::string::npos);

    const Effect back = firelab::harness::loadEffect(dir_ / "sub" / "mine.toml");
    ASSERT_EQ(back.layers.size(), 2u);
    EXPECT_EQ(back.layers[1].name, "smoke");
    EXPECT_EQ(setting(back.layers[1], "texture"), "smoke.png");

    EffectEditor f;
    ASSERT_TRUE(f.load((dir_ / "sub" / "mine.toml").string())) << f.message();
    EXPECT_EQ(f.path(), dir_ / "sub" / "mine.toml");
    EXPECT_EQ(f.effect().layers.size(), 2u);
    EXPECT_EQ(f.selected(), 0u);
    EXPECT_EQ(f.layerSettings(run).params.particles, 300u);
    // The same layers with the same overrides (a TOML table's keys come back sorted).
    ASSERT_EQ(f.size(), e.size());
    for (size_t i = 0; i < e.size(); ++i) {
        auto saved = e.layer(i).settings, read = f.layer(i).settings;
        std::sort(saved.begin(), saved.end());
        std::sort(read.begin(), read.end());
        EXPECT_EQ(f.layer(i).name, e.layer(i).name);
        EXPECT_EQ(read, saved);
    }
}

TEST_F(EffectEditorTest, KeepsTheEffectWhenLoadingOrSavingFails) {
    EffectEditor e;
    e.add();
    const std::string before = firelab::harness::effectToml(e.effect());
    const auto r = e.revision();
    write("bad.toml", "[[layer]]\nname = \"a\"\nparticles = -3\n");
    write("dup.toml", "[[layer]]\nname = \"a\"\n[[layer]]\nname = \"a\"\n");
    write("junk.toml", "this is not = = toml");
    for (const fs::path& f : {dir_ / "missing.toml", dir_ / "bad.toml", dir_ / "dup.toml", dir_ / "junk.toml"}) {
        SCOPED_TRACE(f);
        EXPECT_FALSE(e.load(f.string()));
        EXPECT_FALSE(e.ok());
        EXPECT_NE(e.message().find(f.filename().string()), std::string::npos) << e.message();
        EXPECT_EQ(firelab::harness::effectToml(e.effect()), before);
    }
    EXPECT_EQ(e.revision(), r);
    EXPECT_EQ(e.path(), fs::path("effects/my-effect.toml"));

    fs::create_directories(dir_ / "folder.toml");
    e.setPath(dir_ / "folder.toml");
    EXPECT_FALSE(e.save());
    EXPECT_FALSE(e.ok());
    e.setPath("/proc/firelab/effect.toml");
    EXPECT_FALSE(e.save());
    EXPECT_FALSE(e.message().empty());
}

TEST(EffectEditor, LoadsTheShippedEffectsByName) {
    EffectEditor e;
    ASSERT_TRUE(e.load((fs::path(FIRELAB_SOURCE_DIR) / "effects" / "campfire.toml").string())) << e.message();
    ASSERT_EQ(e.size(), 4u);
    EXPECT_EQ(e.layer(2).name, "embers");
    EXPECT_EQ(e.layer(3).name, "ember-trails");
}

}  // namespace
