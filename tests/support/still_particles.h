// Hand-built scenes for the GL tests: `n` motionless particles of one size at one place (a burst on the
// first step; the steady emission is negligible), and an opaque white sprite to texture them with.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>

#include <glm/vec3.hpp>

#include "image/image.h"
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

inline void writeWhiteSprite(const std::filesystem::path& file) {
    image::Image white(8, 8);
    std::fill(white.pixels.begin(), white.pixels.end(), uint8_t{255});
    image::writePng(file, white);
}

}  // namespace firelab::testing
