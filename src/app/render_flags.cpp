#include "app/render_flags.h"

#include "sim/params.h"

namespace firelab::app {

void RenderFlags::addTo(CLI::App& cmd) {
    cmd.add_option("--blend", blend, "additive | alpha | premultiplied")->capture_default_str()->group("Render");
    cmd.add_option("--sort", sort, "none | back-to-front (by view depth)")->capture_default_str()->group("Render");
    cmd.add_option("--facing", facing, "view-plane | viewpoint | velocity")->capture_default_str()->group("Render");
    cmd.add_option("--texture", texture, "sprite under textures/ (or a path)")->capture_default_str()->group("Render");
    cmd.add_flag("--flipbook", flipbook, "animate textures/flame_atlas.png (4x4) over each particle's life")
        ->group("Render");
}

render::RenderOptions RenderFlags::resolve() const {
    render::RenderOptions o;
    o.blend = static_cast<render::Blend>(sim::parseChoice("--blend", blend, render::kBlendNames));
    o.sort = static_cast<render::Sort>(sim::parseChoice("--sort", sort, render::kSortNames));
    o.facing = static_cast<render::Facing>(sim::parseChoice("--facing", facing, render::kFacingNames));
    o.texture = texture;
    o.flipbook = flipbook;
    return o;
}

}  // namespace firelab::app
