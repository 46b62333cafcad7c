// Hand-built scenes for the GL tests: `n` motionless particles of one size at one place (a burst on the
// first step; the steady emission is negligible), a still cloud of one colour, and an opaque white sprite to
// texture them with.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>

#include <glm/vec3.hpp>

#include "image/image.h"
#include "render/frame/layer_stack.h"
#include "sim/params.h"

namespace firelab::testing {

inline sim::FireParams stillParticles(const glm::vec3& at, float size, uint32_t n = 1) {
    sim::FireParams p;
    p.shape = sim::EmitterShape::Rect;
    p.center = at;
    p.extent = glm::vec3(1e-6f);
    p.coneAngleDeg = 0, p.speedMean = p.speedVar = p.accelMean = p.accelVar = glm::vec3(0.0f);
    p.turbulence = 0, p.sizeVar = 0, p.sizeStart = p.sizeEnd = size;
    p.particles = 1, p.lifetimeMean = 500, p.lifetimeVar = 0, p.burst = n;
    return p;
}

// A layer of `particles` alpha sprites of one colour and coverage, `size` wide, that do not move: spread
// over `extent` around `center`, the emitter's steady rate.
inline render::LayerSetup stillCloud(const char* name, glm::vec3 rgb, float alpha, const glm::vec3& center,
                                     const glm::vec3& extent, float size, uint32_t particles) {
    render::LayerSetup l{name, {}, {}, {}};
    l.params.particles = particles;
    l.params.center = center;
    l.params.extent = extent;
    l.params.speedMean = glm::vec3(0.0f), l.params.speedVar = glm::vec3(0.0f);
    l.params.accelMean = glm::vec3(0.0f), l.params.accelVar = glm::vec3(0.0f);
    l.params.turbulence = 0.0f;
    l.params.sizeStart = l.params.sizeEnd = size;
    l.params.gradient = {{0.0f, glm::vec4(rgb, alpha)}, {1.0f, glm::vec4(rgb, alpha)}};
    l.render.blend = render::Blend::Alpha;
    l.render.hdr = false;
    return l;
}

inline void writeWhiteSprite(const std::filesystem::path& file) {
    image::Image white(8, 8);
    std::fill(white.pixels.begin(), white.pixels.end(), uint8_t{255});
    image::writePng(file, white);
}

}  // namespace firelab::testing
