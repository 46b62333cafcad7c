#include "app/flags/setting_flags.h"

namespace firelab::app {

void SettingFlags::addTo(CLI::App& cmd) {
    // The run-level settings from harness::visitRunSettings (the render options are RenderFlags').
    for (const auto& setting : harness::runSettings()) {
        if (setting.renderOption) continue;
        auto& [text, opt] = run[setting.name];
        const std::string help = harness::settingHelp(setting);
        // On/off settings are flags: --quality alone means true, --quality=false turns it off.
        opt = setting.kind == harness::SettingInfo::Kind::Flag
                  ? cmd.add_flag("--" + setting.name + "{true}", text, help)
                  : cmd.add_option("--" + setting.name, text, help);
        opt->group("Run (lists make sweep axes)");
    }
    render.addTo(cmd, "Render (lists make sweep axes)");
    model.addTo(cmd, false);
}

void SettingFlags::applyTo(harness::Experiment& e) const {
    for (const auto& given : {givenFlags(run), render.given(), model.given()})
        for (const auto& [name, text] : given) e.override(name, text);
}

}  // namespace firelab::app
