#include "render/particles/view_census.h"

#include <algorithm>
#include <cstdio>

#include <glm/vec4.hpp>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "render/particles/instance_stream.h"
#include "render/particles/sprite_geometry.h"
#include "sim/snapshot.h"

namespace firelab::render {

void ViewCensus::add(const ViewCensus& o) {
    alive += o.alive, behind += o.behind, clamped += o.clamped;
    lo = glm::min(lo, o.lo), hi = glm::max(hi, o.hi);
}

ViewCensus countView(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options,
                     float maxPointPixels) {
    const sim::ParticlePool& q = fire.pool();
    const sim::FireParams& params = fire.params();
    const float near = nearDistance(camera);
    // The particle pass's pixels per unit at w = 1 (shaders' uProjScale): its viewport is the frame's scaled.
    const float perUnit = pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight) * scaleFactor(options.particleScale));
    ViewCensus c;
    c.alive = q.alive();
    for (size_t i = 0; i < q.alive(); ++i) {
        const glm::vec3 p(q.px[i], q.py[i], q.pz[i]);
        const float size = sim::sizeAt(params, q.age[i] / q.life[i], q.scale[i]);
        const float radius = spriteRadius(options, size, {q.vx[i], q.vy[i], q.vz[i]});
        c.lo = glm::min(c.lo, p - radius), c.hi = glm::max(c.hi, p + radius);
        const float depth = glm::dot(camera.forward, p - camera.eye);  // a perspective camera's clip w
        if (behindNear(depth, radius, near)) {
            ++c.behind;
        } else if (depth > 0.0f && pointPixels(size, perUnit, depth) > maxPointPixels) {
            ++c.clamped;
        }
    }
    return c;
}

std::string viewFields(const sim::FireSystem& fire, size_t i, const Camera& camera, const RenderOptions& options) {
    const sim::ParticlePool& q = fire.pool();
    const glm::vec3 p(q.px[i], q.py[i], q.pz[i]);
    const float size = sim::sizeAt(fire.params(), q.age[i] / q.life[i], q.scale[i]);
    const float radius = spriteRadius(options, size, {q.vx[i], q.vy[i], q.vz[i]});
    const float depth = glm::dot(camera.forward, p - camera.eye);
    const float perUnit = pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight) * scaleFactor(options.particleScale));
    const int behind = behindNear(depth, radius, nearDistance(camera)) ? 1 : 0;
    char out[160];
    if (depth > 0.0f) {
        const glm::vec4 c = camera.viewProj * glm::vec4(p, 1.0f);
        std::snprintf(out, sizeof out, "%.7g,%.7g,%.7g,%.7g,%d", double(depth),
                      double((c.x / c.w * 0.5f + 0.5f) * static_cast<float>(camera.viewportWidth)),
                      double((c.y / c.w * 0.5f + 0.5f) * static_cast<float>(camera.viewportHeight)),
                      double(pointPixels(size, perUnit, depth)), behind);
    } else {  // at or behind the eye: no place on the screen
        std::snprintf(out, sizeof out, "%.7g,,,,%d", double(depth), behind);
    }
    return out;
}

double firePixels(const ViewCensus& c, const Camera& camera) {
    if (c.alive == 0 || c.lo.x > c.hi.x) return 0.0;
    const glm::vec3 centre = 0.5f * (c.lo + c.hi);
    const float radius = 0.5f * glm::length(c.hi - c.lo);
    const float depth = std::max(glm::dot(camera.forward, centre - camera.eye), std::max(nearDistance(camera), kNearPlane));
    return 2.0 * static_cast<double>(radius) *
           static_cast<double>(pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight))) / static_cast<double>(depth);
}

}  // namespace firelab::render
