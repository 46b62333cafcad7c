#include "app/render_flags.h"

#include "harness/experiment.h"

namespace firelab::app {

void RenderFlags::addTo(CLI::App& cmd) {
    options_ = {
        cmd.add_option("--blend", blend, "additive | alpha | premultiplied")->capture_default_str()->group("Render"),
        cmd.add_option("--sort", sort, "none | back-to-front (by view depth)")->capture_default_str()->group("Render"),
        cmd.add_option("--facing", facing, "view-plane | viewpoint | velocity")->capture_default_str()->group("Render"),
        cmd.add_option("--texture", texture, "sprite under textures/ (or a path)")->capture_default_str()->group("Render"),
        cmd.add_flag("--flipbook", flipbook, "animate textures/flame_atlas.png (4x4) over each particle's life")
            ->group("Render"),
    };
}

void RenderFlags::applyTo(harness::RunSettings& s) const {
    // Only the flags given: values from a --config file stay unless a flag overrides them.
    const std::string texts[] = {blend, sort, facing, texture, flipbook ? "true" : "false"};
    const char* names[] = {"blend", "sort", "facing", "texture", "flipbook"};
    for (size_t i = 0; i < options_.size(); ++i)
        if (options_[i]->count() > 0) harness::applySetting(s, names[i], texts[i]);
}

}  // namespace firelab::app
