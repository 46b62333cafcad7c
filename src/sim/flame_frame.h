// The paper's colour by position in the flame (--color-position; seeds/003: bright white at the core, yellow, red at
// the outer flame): the flame's frame and where in the colour table a particle's rgb is looked up. Written once here
// and once in shaders/particle_common.glsl (colorCoordinate).
#pragma once
#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/emitter.h"
#include "sim/params.h"

namespace firelab::sim {

// --color-position (the paper's colour by position in the flame): the flame's frame, from the emitter (its centre,
// turned by its rotation; a --path does not move it) and its size: radius --flame-radius (0: the emitter's radius,
// or a rect's larger half-width) and height --flame-height (0: the mean particle's height above the emitter at the end
// of its mean life, from the mean launch speed and acceleration by the drag's closed form; none if it ends below the
// emitter), each at least 5 cm.
struct FlameFrame {
    float weight = 0.0f;  // colorPosition
    glm::vec3 center{0.0f};
    glm::mat3 rotation{1.0f};  // emitter -> world
    glm::vec2 size{1.0f};      // radius, height
};
inline FlameFrame flameFrame(const FireParams& p) {
    FlameFrame f;
    f.weight = p.colorPosition;
    f.center = p.center;
    f.rotation = emitterTransform(p).rotation;
    float radius = p.flameRadius, height = p.flameHeight;
    if (radius <= 0.0f) radius = p.shape == EmitterShape::Rect ? std::max(p.extent.x, p.extent.z) : p.extent.x;
    if (height <= 0.0f) {
        const glm::vec2 g = driftIntegrals(p, p.lifetimeMean);
        const float launch = p.shape == EmitterShape::Sphere ? 0.0f : p.speedMean.y;  // along the emitter's y
        height = std::max(0.0f, launch * g.x + (glm::transpose(f.rotation) * p.accelMean).y * g.y);  // 0 if it fell
    }
    f.size = glm::max(glm::vec2(radius, height), glm::vec2(0.05f));
    return f;
}
// Where the colour is looked up for a particle at `position` of normalised age t: mix(t, s, weight), s its place in
// the flame, sqrt((r / radius)^2 + (h / height)^2) up to 1, r its distance from the emitter's axis and h its height
// above the emitter (0 below it), in the emitter's frame. shaders/particle_common.glsl (colorCoordinate) repeats it.
inline float colorCoordinate(const FlameFrame& f, float t, const glm::vec3& position) {
    if (f.weight <= 0.0f) return t;
    const glm::vec3 l = glm::transpose(f.rotation) * (position - f.center);
    const float r = std::sqrt(l.x * l.x + l.z * l.z) / f.size.x, h = std::max(l.y, 0.0f) / f.size.y;
    const float s = std::min(std::sqrt(r * r + h * h), 1.0f);
    return t + (s - t) * f.weight;
}

}  // namespace firelab::sim
