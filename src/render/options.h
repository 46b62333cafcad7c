// Rendering options shared by every strategy, with their names for the CLI, experiment files and viewer.
#pragma once
#include <array>
#include <string>
#include <string_view>

namespace firelab::render {

enum class Blend { Additive, Alpha, Premultiplied };
enum class Sort { None, BackToFront };
enum class Facing { ViewPlane, Viewpoint, Velocity };

inline constexpr std::array<std::string_view, 3> kBlendNames{"additive", "alpha", "premultiplied"};
inline constexpr std::array<std::string_view, 2> kSortNames{"none", "back-to-front"};
inline constexpr std::array<std::string_view, 3> kFacingNames{"view-plane", "viewpoint", "velocity"};

struct RenderOptions {
    Blend blend = Blend::Additive;
    Sort sort = Sort::None;
    Facing facing = Facing::ViewPlane;
    std::string texture = "flame.png";  // under textures/, or a path
    bool flipbook = false;              // use textures/flame_atlas.png (4x4 frames) over the particle's life
    float velocityStretch = 0.35f;      // velocity facing: extra length per m/s, in sizes
    // Multiplies every particle's alpha (its emitted light, for additive blending): the harness sets it
    // to (reference count / run count) for --energy-preserving, so fewer particles emit the same light.
    float alphaScale = 1.0f;
};

}  // namespace firelab::render
