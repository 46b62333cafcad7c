#include "harness/settings/effect.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "core/error.h"
#include "fluid/fluid_sim.h"
#include "core/hash.h"
#include "core/text.h"
#include "harness/settings/config.h"
#include "harness/platform/data_dir.h"
#include "physics/physical_fire.h"
#include "render/strategies/strategy.h"
#include "sim/fire_system.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {
// The keys a layer may set, for messages: its render options (core::kLayer) and the model's parameters.
std::string keyList() {
    std::vector<std::string> options;
    for (const auto& k : layerKeys())
        if (isLayerRenderOption(k)) options.push_back(k);
    return core::join(options) + " and every model parameter (firelab run --help)";
}

// splitmix64: a well-mixed 64-bit function of the run's seed and the layer's name.
uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

bool setsKey(const LayerSpec& spec, const std::string& key) {
    return std::any_of(spec.settings.begin(), spec.settings.end(), [&](const auto& kv) { return kv.first == key; });
}

// --override-layers: the names it lists. Throws Error(BadValue) for an empty item or a name that is not a
// setting a layer may set.
std::vector<std::string> overriddenNames(const RunSettings& run) {
    if (run.overrideLayers.empty()) return {};
    const std::vector<std::string> names = core::trimmed(core::split(run.overrideLayers, ','));
    const auto& keys = layerKeys();
    for (const std::string& name : names) {
        if (name.empty())
            throw Error(ErrorCode::BadValue, "--override-layers " + run.overrideLayers +
                                                 ": an empty item; give a comma list of setting names (lit,sort)");
        if (std::find(keys.begin(), keys.end(), name) == keys.end())
            throw Error(ErrorCode::BadValue, "--override-layers " + run.overrideLayers + ": '" + name +
                                                 "' is not a setting a layer may set (a comma list of " + keyList() +
                                                 ")");
    }
    return names;
}

// The layer less the settings --override-layers gives back to the run: what it sets for itself.
LayerSpec ownSettings(const LayerSpec& spec, const std::vector<std::string>& overridden) {
    LayerSpec own{spec.name, {}};
    for (const auto& kv : spec.settings)
        if (std::find(overridden.begin(), overridden.end(), kv.first) == overridden.end()) own.settings.push_back(kv);
    return own;
}

}  // namespace

void checkOverrideLayers(const RunSettings& run) { overriddenNames(run); }

RunSettings layerSettings(const RunSettings& run, const LayerSpec& spec, const std::string& where) {
    RunSettings s = run;
    auto apply = [&](const std::vector<std::pair<std::string, std::string>>& settings) {
        for (const auto& [key, value] : settings) {
            try {
                applySetting(s, key, value);
            } catch (const Error& e) {
                throw Error(e.code(), where + "layer '" + spec.name + "' " + key + ": " + e.what());
            }
        }
    };
    apply(spec.settings);
    apply(run.layerForce);  // a reference's settings win over the layer's own
    try {
        sim::validate(s.params);
    } catch (const Error& e) {
        throw Error(e.code(), where + "layer '" + spec.name + "': " + e.what());
    }
    return s;
}

bool validLayerName(const std::string& n) {
    return !n.empty() && n.size() <= 64 &&
           n.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
               std::string::npos;
}

fs::path resolveEffectPath(const std::string& text) { return resolveDataFile(text, "effects"); }

void checkEffectFile(const std::string& text) {
    if (text.empty()) return;
    try {
        loadEffect(resolveEffectPath(text));
    } catch (const Error& e) {
        throw Error(e.code(), "--effect " + text + ": " + e.what());
    }
}

namespace {
// At most 1 MiB, parsed, and holding only [effect] and [[layer]] tables.
toml::table parseEffectFile(const fs::path& file) {
    std::error_code ec;
    if (const auto size = fs::file_size(file, ec); !ec && size > (1u << 20))
        throw Error(ErrorCode::BadFile, file.string() + ": " + std::to_string(size) +
                                            " bytes; an effect file is a few [[layer]] tables (at most 1 MiB)");
    toml::table t = parseTomlFile(file);
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (k != "effect" && k != "layer")
            throw Error(ErrorCode::BadFile, tomlLine(file.string(), node) + ": unknown table [" + k +
                                                "]; an effect has [effect] and [[layer]] tables");
    }
    return t;
}

// [effect]: its description, the only key.
std::string effectDescription(const toml::table& t, const std::string& f) {
    std::string description;
    if (const auto* ex = t["effect"].as_table())
        for (const auto& [key, node] : *ex) {
            if (key.str() != "description")
                throw Error(ErrorCode::BadFile, tomlLine(f, node) + ": [effect] '" + std::string(key.str()) +
                                                    "': the only key is description");
            if (auto d = node.value<std::string>()) description = *d;
        }
    return description;
}

// One [[layer]] table: its name (valid, default "layerN") and its keys (layer keys only), in file order.
LayerSpec loadLayer(const toml::node& node, size_t index, const std::string& f) {
    const auto* tb = node.as_table();
    if (!tb) throw Error(ErrorCode::BadFile, tomlLine(f, node) + ": each [[layer]] must be a table");
    LayerSpec spec;
    spec.name = "layer" + std::to_string(index + 1);
    for (const auto& [key, value] : *tb) {
        const std::string k(key.str());
        const std::string where = tomlLine(f, value) + ": ";
        if (k == "name") {
            spec.name = value.value<std::string>().value_or("");
            if (!validLayerName(spec.name))
                throw Error(ErrorCode::BadValue,
                            where + "layer name '" + spec.name + "': use 1 to 64 letters, digits, '.', '_' or '-'");
            continue;
        }
        if (std::find(layerKeys().begin(), layerKeys().end(), k) == layerKeys().end())
            throw Error(ErrorCode::UnknownName,
                        where + "layer key '" + k + "' is not a layer setting; a layer sets " + keyList());
        spec.settings.emplace_back(k, tomlValueText(value, where + k, k));
    }
    return spec;
}
}  // namespace

Effect loadEffect(const fs::path& file) {
    const toml::table t = parseEffectFile(file);
    const std::string f = file.string();
    Effect e;
    e.description = effectDescription(t, f);
    const auto* layers = t["layer"].as_array();
    if (!layers || layers->empty())
        throw Error(ErrorCode::BadFile, f + ": no [[layer]] table: an effect has at least one layer");
    std::set<std::string> names;
    const RunSettings probe;
    for (const auto& node : *layers) {
        LayerSpec spec = loadLayer(node, e.layers.size(), f);
        const std::string line = tomlLine(f, node);
        if (!names.insert(spec.name).second)
            throw Error(ErrorCode::BadValue, line + ": two layers are called '" + spec.name + "'; names must differ");
        layerSettings(probe, spec, line + ": ");  // every value parses and is in range
        e.layers.push_back(std::move(spec));
    }
    return e;
}

std::string effectToml(const Effect& e) {
    std::ostringstream out;
    if (!e.description.empty()) out << "[effect]\ndescription = " << tomlSettingValue("label", e.description) << "\n";
    for (const auto& layer : e.layers) {
        out << "\n[[layer]]\nname = " << tomlSettingValue("label", layer.name) << "\n";
        for (const auto& [key, value] : layer.settings) out << key << " = " << tomlSettingValue(key, value) << "\n";
    }
    return out.str();
}

namespace {
// --fire-diameter and --heat-release set the single flame's parameters (physics/physical_fire.h).
RunSettings withPhysicalFire(const RunSettings& run) {
    const physics::FireSize fire{run.fireDiameter, run.heatRelease};
    if (!fire.given()) return run;
    if (!run.effect.empty())
        throw Error(ErrorCode::BadValue,
                    "--fire-diameter and --heat-release set a single flame's parameters; --effect " + run.effect +
                        " has layers of its own: drop one or the other");
    RunSettings out = run;
    out.params = physics::physicalFire(run.params, fire);
    return out;
}
}  // namespace

Effect defaultEffect() { return Effect{"", {LayerSpec{"flame", {}}}}; }

uint64_t layerSeed(uint64_t seed, const std::string& name) {
    return name == "flame" ? seed : mix(seed ^ core::fnv1a(name));
}

std::vector<Layer> resolveLayers(const RunSettings& run) {
    return resolveLayers(run, run.effect.empty() ? defaultEffect() : loadEffect(resolveEffectPath(run.effect)));
}

std::vector<Layer> resolveLayers(const RunSettings& given, const Effect& effect) {
    const RunSettings run = withPhysicalFire(given);
    const std::string where = run.effect.empty() ? "" : "--effect " + run.effect + ": ";
    const std::vector<std::string> overridden = overriddenNames(run);
    std::vector<Layer> layers;
    for (size_t i = 0; i < effect.layers.size(); ++i) {
        const LayerSpec spec = ownSettings(effect.layers[i], overridden);  // the run's values win where it says
        RunSettings s = layerSettings(run, spec, where);
        if (!setsKey(spec, "seed")) s.params.seed = layerSeed(run.params.seed, spec.name);
        // --energy-preserving's scale (the caller's run.render.alphaScale) is a count ratio: a layer with
        // a count of its own does not follow the run's count, nor its scale.
        if (setsKey(spec, "particles")) s.render.alphaScale = 1.0f;
        // A layer that asks for sorting, drawn by a strategy that cannot sort (gpu-stateless), is drawn
        // unsorted rather than refused, so every strategy draws every effect; quality scoring shows the cost.
        std::string note;
        const render::StrategyInfo& info = render::strategyInfo(run.strategy);
        if (setsKey(spec, "sort") && s.render.sort == render::Sort::BackToFront && !info.canSort) {
            s.render.sort = render::Sort::None;
            note = "layer '" + spec.name + "': " + run.strategy + " cannot sort; drawn unsorted";
        }
        // A closed form bounces on the plane only: an effect's layer that asks for the stage (the campfire's embers)
        // bounces on the ground alone there, rather than the effect being refused; a trail layer too, so that it
        // still follows the particles of the layer it repeats.
        if (setsKey(spec, "ground") && s.params.ground == sim::Ground::Stage && info.closedForm) {
            s.params.ground = sim::Ground::Bounce;
            note += std::string(note.empty() ? "" : "; ") + "layer '" + spec.name + "': " + run.strategy +
                    " bounces its particles on the ground plane only, not on the logs and stone";
        }
        // GL_POINTS are screen squares whatever the facing: a ring meant to lie on the ground stands up.
        if (setsKey(spec, "facing") && s.render.facing != render::Facing::ViewPlane &&
            info.primitive == render::Primitive::Points)
            note += std::string(note.empty() ? "" : "; ") + "layer '" + spec.name + "': " + run.strategy +
                    " draws GL_POINTS, screen squares: --facing " +
                    std::string(render::kFacingNames[static_cast<size_t>(s.render.facing)]) + " is drawn as view-plane";
        layers.push_back({spec.name, s.params, s.render, note});
    }
    return layers;
}

void checkEffect(const RunSettings& run) {
    const bool named = !run.effect.empty();
    const std::vector<Layer> layers = resolveLayers(run);
    render::checkFluid(run.strategy, run.fluid);  // what the strategy can draw of the fire model
    if (run.fluid.model == fluid::Model::Fluid && !layers.empty()) {
        fluid::validate(run.fluid, layers.front().params, run.dt);
        fluid::checkThreads(run.threads);
    }
    double bytes = 0.0;
    std::string each;
    for (const auto& layer : layers) {
        try {
            if (render::orderIndependent(layer.render.sort) && layer.render.sort != run.render.sort)
                throw Error(ErrorCode::BadValue,
                            "sort = " + std::string(render::kSortNames[static_cast<size_t>(layer.render.sort)]) +
                                ": an order-independent mode blends every alpha layer of the frame together, so it is "
                                "the run's: give --sort " +
                                std::string(render::kSortNames[static_cast<size_t>(layer.render.sort)]) +
                                " for the run");
            if (render::drawnByStrategy(layer)) {  // trails and haze are drawn by their own, from the CPU's particles
                render::checkOptions(run.strategy, layer.render);
                render::checkModel(run.strategy, layer.params);
            }
            render::checkColor(layer.params, run.fluid);
        } catch (const Error& err) {
            if (!named) throw;
            throw Error(err.code(), "--effect " + run.effect + ", layer '" + layer.name + "': " + err.what());
        }
        const double b = sim::FireSystem::poolBytes(layer.params);
        bytes += b;
        constexpr size_t kNamed = 8;  // the message names this many layers, then counts the rest
        const size_t i = static_cast<size_t>(&layer - layers.data());
        if (i < kNamed)
            each += (each.empty() ? "" : ", ") + layer.name + " " +
                    core::formatFloat(static_cast<float>(b / 1073741824.0)) + " GiB";
        else if (i + 1 == layers.size())
            each += " and " + std::to_string(layers.size() - kNamed) + " more layers";
    }
    // The layers' pools live together: each may fit the machine while all of them do not.
    const double budget = sim::FireSystem::memoryBudgetBytes();
    if (named && layers.size() > 1 && budget > 0 && bytes > budget)
        throw Error(
            ErrorCode::TooLarge,
            "--effect " + run.effect + ": its layers' pools together would need " +
                core::formatFloat(static_cast<float>(bytes / 1073741824.0)) + " GiB (" + each + "), more than the " +
                core::formatFloat(static_cast<float>(budget / 1073741824.0)) +
                " GiB (three quarters of the memory this process may use) they may take; lower the layers' particle counts");
}

render::RenderOptions frameOptions(const RunSettings& run, const std::vector<Layer>& layers) {
    render::RenderOptions o = run.render;
    o.soft = 0.0f;
    for (const auto& l : layers) o.soft = std::max(o.soft, l.render.soft);
    return o;
}

}  // namespace firelab::harness
