#include "app/flags/render_flags.h"

#include "harness/settings/experiment.h"

namespace firelab::app {

void RenderFlags::addTo(CLI::App& cmd, const std::string& group) {
    for (const auto& o : harness::renderOptions()) {
        auto& flag = flags_[o.name];
        const std::string help = harness::renderOptionHelp(o);
        // On/off options: --hdr alone means true, --hdr=false turns off what a --config file turned on.
        flag.option = o.kind == harness::RenderOptionInfo::Kind::Flag
                          ? cmd.add_flag("--" + o.name + "{true}", flag.text, help)
                          : cmd.add_option("--" + o.name, flag.text, help);
        flag.option->group(group);
    }
}

void RenderFlags::applyTo(harness::RunSettings& s) const {
    // Only the flags given: values from a --config file stay unless a flag overrides them.
    for (const auto& [name, text] : given()) harness::applySetting(s, name, text);
}

}  // namespace firelab::app
