// Effects: a whole fire as layers (flame, smoke, embers, a shockwave...), each a particle system with
// its own model and look. An effect file (effects/*.toml) is a list of [[layer]] tables:
//
//   [effect]
//   description = "flame, smoke and embers"
//   [[layer]]
//   name = "smoke"
//   blend = "alpha"          # the layer's render options: blend, sort, facing, texture, flipbook, hull, filter, soft
//   particles = 1500         # and every model parameter (sim::visitParams), by the command line's names
//
// A layer's table overrides the run's settings (the command line, [run], [model], [sweep]): what it
// does not name follows the run's, so `--particles 5000` sets the count of every layer that does not
// set its own. The frame-level settings (strategy, size, particle-scale, hdr, tone mapping...) are the
// run's alone. Each layer draws from a seed stream of its own, keyed by the run's seed and its name (the
// layer called "flame" takes the run's seed itself), so adding, removing, renaming or reordering other
// layers never changes a layer's particles (unless it sets `seed` itself).
//
// Without --effect a run is today's single flame: one layer named "flame" with no overrides, which is
// what effects/flame.toml holds.
#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "harness/settings/run_settings.h"
#include "render/frame/layer_stack.h"

namespace firelab::harness {

struct LayerSpec {
    std::string name;
    std::vector<std::pair<std::string, std::string>> settings;  // key, value text (as the flag takes it), in file order
};

struct Effect {
    std::string description;
    std::vector<LayerSpec> layers;
};

// A layer as drawn: the run's settings with the layer's overrides.
using Layer = render::LayerSetup;

// Whether a layer may be called `name`: 1 to 64 letters, digits, '.', '_' or '-'.
bool validLayerName(const std::string& name);

// Reads an effect file. Errors (MissingFile, BadFile, UnknownName, BadValue) name the file, the line,
// the layer and the key. resolveEffectPath: a path as given when it exists, else relative to the data
// folder (effects/campfire.toml from any working directory), else a bare name (`campfire`) as
// effects/NAME.toml there.
Effect loadEffect(const std::filesystem::path& file);
std::filesystem::path resolveEffectPath(const std::string& text);
// Reads the effect --effect `text` names (nothing for ""); errors say "--effect TEXT: " and why.
void checkEffectFile(const std::string& text);
// The effect as a TOML file loadEffect reads back the same (the viewer's save).
std::string effectToml(const Effect& e);
// The effect a run without --effect draws: one layer, "flame", no overrides.
Effect defaultEffect();

// The seed of the layer called `name` of a run seeded `seed`: the seed mixed with the hash of the name,
// or, for the layer called "flame", the run's seed itself (so the default fire is the run's).
uint64_t layerSeed(uint64_t seed, const std::string& name);

// The run's settings with one layer's overrides, then run.layerForce (a reference's); errors name `where`,
// the layer and the key.
RunSettings layerSettings(const RunSettings& run, const LayerSpec& spec, const std::string& where = "");

// The run's layers (its effect's, or the default's) with the run's settings and each layer's overrides;
// run.render.alphaScale (effectiveRenderOptions: --energy-preserving) applies to the layers whose count
// follows the run's. Throws
// firelab::Error naming the layer and key for a value the run's settings make invalid.
std::vector<Layer> resolveLayers(const RunSettings& run);
// The same for an effect in memory (the viewer's, being edited) instead of run.effect's file.
std::vector<Layer> resolveLayers(const RunSettings& run, const Effect& effect);
// Checks that run.strategy draws every layer of the run's effect (render::checkOptions, checkModel per
// layer); throws firelab::Error naming the effect and the layer.
void checkEffect(const RunSettings& run);
// --override-layers: throws Error(BadValue) naming the flag for an empty item or a name no layer may set.
void checkOverrideLayers(const RunSettings& run);

// The frame-level options for the run's layers: the run's, with soft the largest of the layers' (the
// passes copy the scene's depth when any layer reads it).
render::RenderOptions frameOptions(const RunSettings& run, const std::vector<Layer>& layers);

}  // namespace firelab::harness
