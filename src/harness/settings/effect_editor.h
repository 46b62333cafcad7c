// The viewer's effect editor without the GUI: an effect's layers with a selection; adding, copying,
// removing and renaming layers; setting a layer's overrides (validated as the layer resolves against the
// run's settings); saving and loading the effect file. The viewer's Layers panel is a view over it.
// A refused operation leaves the effect as it was and says why in message() (ok() is false).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

#include "harness/settings/effect.h"
#include "harness/settings/experiment.h"

namespace firelab::harness {

class EffectEditor {
public:
    static constexpr const char* kDefaultPath = "effects/my-effect.toml";

    explicit EffectEditor(Effect effect = defaultEffect(), std::filesystem::path path = kDefaultPath);

    const Effect& effect() const { return effect_; }
    size_t size() const { return effect_.layers.size(); }
    const LayerSpec& layer(size_t i) const { return effect_.layers.at(i); }
    size_t selected() const { return selected_; }
    const LayerSpec& selectedLayer() const { return effect_.layers[selected_]; }
    void select(size_t i);  // clamped to the layers
    // Moves on every change to the effect: a front end rebuilds what it drew from it.
    uint64_t revision() const { return revision_; }
    // What the last operation did, or why it was refused.
    const std::string& message() const { return message_; }
    bool ok() const { return ok_; }
    // Where save() writes (and the last load() read).
    const std::filesystem::path& path() const { return path_; }
    void setPath(std::filesystem::path p) { path_ = std::move(p); }

    // A new layer at the end, named "layerN" (unique), without overrides; selected. Returns its index.
    size_t add();
    // A copy of the selected layer at the end, named "NAME-copy" (unique); selected. Returns its index.
    size_t duplicate();
    // Removes the selected layer; refuses the last one.
    bool remove();
    // Renames the selected layer; refuses a name that is invalid (validLayerName) or another layer's.
    bool rename(const std::string& name);

    // The run's settings with the selected layer's overrides: what the layer's widgets show.
    RunSettings layerSettings(const RunSettings& run) const;
    // Sets (or updates in place) the selected layer's override of `key` (layerKeys()) to `value` (text as
    // the flag takes it); refuses a key that is not a layer setting or a value the layer cannot take
    // against `run` (applySetting, sim::validate).
    bool set(const std::string& key, const std::string& value, const RunSettings& run);
    // Drops the selected layer's override of `key`: it follows the run's again. False if it had none.
    bool unset(const std::string& key);

    // Writes effectToml(effect()) to path() atomically, making its folder if needed.
    bool save();
    // Reads `file` (loadEffect; a bare name as resolveEffectPath finds it); on success it becomes the
    // effect and path() (selection 0); on error the current effect stays.
    bool load(const std::string& file);

private:
    bool refuse(std::string why);
    void changed(std::string what);
    bool taken(const std::string& name) const;
    std::string uniqueName(const std::string& base, bool numberFirst) const;

    Effect effect_;
    std::filesystem::path path_;
    size_t selected_ = 0;
    uint64_t revision_ = 0;
    std::string message_;
    bool ok_ = true;
};

}  // namespace firelab::harness
