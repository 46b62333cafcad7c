#include "app/flags/scene_flags.h"

#include <string>

#include "harness/settings/camera_path.h"
#include "harness/settings/effect.h"

namespace firelab::app {

void EffectFlags::addTo(CLI::App& cmd, bool withFireLight) {
    for (const char* name : {"effect", "override-layers", "fire-diameter", "heat-release", "fire-light"}) {
        if (!withFireLight && std::string(name) == "fire-light") continue;
        auto& [text, opt] = flags[name];
        opt = cmd.add_option(std::string("--") + name, text, harness::settingHelp(*harness::findRunSetting(name)));
    }
}

void EffectFlags::applyTo(harness::RunSettings& s) const {
    for (const auto& [name, text] : givenFlags(flags)) {
        harness::applySetting(s, name, text);
        if (name == "effect") harness::checkEffectFile(text);  // a bad file fails here, naming it
    }
}

void CameraFlags::addTo(CLI::App& cmd) {
    for (const auto& name : harness::cameraSettingNames()) {
        auto& [text, opt] = flags[name];
        opt = cmd.add_option("--" + name, text, harness::settingHelp(*harness::findRunSetting(name)));
        opt->group("Camera");
    }
}

void CameraFlags::applyTo(harness::RunSettings& s) const {
    for (const auto& [name, text] : givenFlags(flags)) harness::applySetting(s, name, text);
    harness::checkCamera(s);
}

void FluidFlags::addTo(CLI::App& cmd) {
    for (const auto& name : harness::fluidSettingNames()) {
        auto& [text, opt] = flags[name];
        opt = cmd.add_option("--" + name, text, harness::settingHelp(*harness::findRunSetting(name)));
        opt->group("Fire model and grid fluid");
    }
}

void FluidFlags::applyTo(harness::RunSettings& s) const {
    for (const auto& [name, text] : givenFlags(flags)) harness::applySetting(s, name, text);
}

}  // namespace firelab::app
