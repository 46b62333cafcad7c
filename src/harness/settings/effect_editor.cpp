#include "harness/settings/effect_editor.h"

#include <algorithm>

#include "core/atomic_file.h"
#include "core/error.h"

namespace firelab::harness {
namespace fs = std::filesystem;

EffectEditor::EffectEditor(Effect effect, fs::path path) : effect_(std::move(effect)), path_(std::move(path)) {
    if (effect_.layers.empty()) effect_ = defaultEffect();
}

void EffectEditor::select(size_t i) { selected_ = std::min(i, effect_.layers.size() - 1); }

bool EffectEditor::refuse(std::string why) {
    message_ = std::move(why);
    ok_ = false;
    return false;
}

void EffectEditor::changed(std::string what) {
    ++revision_;
    message_ = std::move(what);
    ok_ = true;
}

bool EffectEditor::taken(const std::string& name) const {
    return std::any_of(effect_.layers.begin(), effect_.layers.end(),
                       [&](const LayerSpec& l) { return l.name == name; });
}

// base, base2, base3... (numberFirst: base1, base2...), the base shortened so that the name fits 64.
std::string EffectEditor::uniqueName(const std::string& base, bool numberFirst) const {
    for (size_t n = numberFirst ? 1 : 0;; n = n == 0 ? 2 : n + 1) {
        const std::string suffix = n == 0 ? "" : std::to_string(n);
        const std::string name = base.substr(0, 64 - suffix.size()) + suffix;
        if (!taken(name)) return name;
    }
}

size_t EffectEditor::add() {
    effect_.layers.push_back(LayerSpec{uniqueName("layer", true), {}});
    selected_ = effect_.layers.size() - 1;
    changed("added layer '" + selectedLayer().name + "'");
    return selected_;
}

size_t EffectEditor::duplicate() {
    LayerSpec copy = selectedLayer();
    copy.name = uniqueName(copy.name + "-copy", false);
    effect_.layers.push_back(std::move(copy));
    selected_ = effect_.layers.size() - 1;
    changed("added layer '" + selectedLayer().name + "', a copy");
    return selected_;
}

bool EffectEditor::remove() {
    if (effect_.layers.size() <= 1) return refuse("an effect keeps at least one layer");
    const std::string name = selectedLayer().name;
    effect_.layers.erase(effect_.layers.begin() + static_cast<std::ptrdiff_t>(selected_));
    select(selected_);
    changed("removed layer '" + name + "'");
    return true;
}

bool EffectEditor::rename(const std::string& name) {
    if (name == selectedLayer().name) return true;
    if (!validLayerName(name)) return refuse("layer name '" + name + "': use 1 to 64 letters, digits, '.', '_' or '-'");
    if (taken(name)) return refuse("another layer is called '" + name + "'; names must differ");
    const std::string old = selectedLayer().name;
    effect_.layers[selected_].name = name;
    changed("renamed layer '" + old + "' to '" + name + "'");
    return true;
}

RunSettings EffectEditor::layerSettings(const RunSettings& run) const {
    return harness::layerSettings(run, selectedLayer());
}

bool EffectEditor::set(const std::string& key, const std::string& value, const RunSettings& run) {
    const auto& keys = layerKeys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
        return refuse("'" + key + "' is not a layer setting (layer render options and model parameters)");
    LayerSpec spec = selectedLayer();
    auto it = std::find_if(spec.settings.begin(), spec.settings.end(), [&](const auto& kv) { return kv.first == key; });
    if (it != spec.settings.end() && it->second == value) return true;
    if (it != spec.settings.end())
        it->second = value;
    else
        spec.settings.emplace_back(key, value);
    try {
        harness::layerSettings(run, spec);
    } catch (const Error& e) {
        return refuse(e.what());
    }
    effect_.layers[selected_] = std::move(spec);
    changed("layer '" + selectedLayer().name + "': " + key + " = " + value);
    return true;
}

bool EffectEditor::unset(const std::string& key) {
    auto& settings = effect_.layers[selected_].settings;
    const auto it = std::find_if(settings.begin(), settings.end(), [&](const auto& kv) { return kv.first == key; });
    if (it == settings.end()) return refuse("layer '" + selectedLayer().name + "' does not set " + key);
    settings.erase(it);
    changed("layer '" + selectedLayer().name + "': " + key + " follows the run's");
    return true;
}

bool EffectEditor::save() {
    try {
        if (path_.empty()) return refuse("no file to save to");
        if (path_.has_parent_path() && !fs::exists(path_.parent_path())) fs::create_directories(path_.parent_path());
        core::AtomicFile f(path_);
        f.stream() << effectToml(effect_);
        f.commit();
    } catch (const Error& e) {
        return refuse(e.what());
    } catch (const fs::filesystem_error& e) {
        return refuse("cannot write " + path_.string() + ": " + e.code().message());
    }
    message_ = "saved " + path_.string() + " (firelab run --effect accepts it)";
    ok_ = true;
    return true;
}

bool EffectEditor::load(const std::string& file) {
    if (file.empty()) return refuse("no file to load");
    const fs::path resolved = resolveEffectPath(file);
    try {
        effect_ = loadEffect(resolved);
    } catch (const Error& e) {
        return refuse(e.what());
    }
    path_ = resolved;
    selected_ = 0;
    changed("loaded " + resolved.string() + " (" + std::to_string(effect_.layers.size()) + " layers)");
    return true;
}

}  // namespace firelab::harness
