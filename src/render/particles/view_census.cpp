#include "render/particles/view_census.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec4.hpp>

#include "render/particles/instance_stream.h"
#include "render/particles/sprite_geometry.h"
#include "sim/snapshot.h"

namespace firelab::render {
namespace {

// One live particle as the camera sees it.
struct Seen {
    glm::vec3 p;
    float size, radius, depth;  // world size, sprite reach, view depth (a perspective camera's clip w)
};

Seen seen(const sim::FireSystem& fire, size_t i, const Camera& camera, const RenderOptions& options) {
    const sim::ParticlePool& q = fire.pool();
    Seen s;
    s.p = {q.px[i], q.py[i], q.pz[i]};
    s.size = spriteWorldSize(fire.params(), camera, s.p, sim::sizeAt(fire.params(), q.age[i] / q.life[i], q.scale[i]));
    s.radius = spriteRadius(options, s.size, {q.vx[i], q.vy[i], q.vz[i]});
    s.depth = glm::dot(camera.forward, s.p - camera.eye);
    return s;
}

// Whether a point's vertex lies inside the clip volume (a point outside it is dropped whole).
bool insideClipVolume(const Camera& camera, const glm::vec3& p) {
    const glm::vec4 c = camera.viewProj * glm::vec4(p, 1.0f);
    return c.w > 0.0f && std::fabs(c.x) <= c.w && std::fabs(c.y) <= c.w && std::fabs(c.z) <= c.w;
}

}  // namespace

void ViewCensus::add(const ViewCensus& o) {
    alive += o.alive, behind += o.behind, faded += o.faded, points += o.points, clamped += o.clamped;
    lo = glm::min(lo, o.lo), hi = glm::max(hi, o.hi);
}

ViewCensus countView(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options,
                     float maxPointPixels) {
    const float near = nearDistance(camera), perUnit = passPixelsPerUnit(camera, options);
    ViewCensus c;
    c.alive = fire.pool().alive();
    for (size_t i = 0; i < c.alive; ++i) {
        const Seen s = seen(fire, i, camera, options);
        c.lo = glm::min(c.lo, s.p - s.radius), c.hi = glm::max(c.hi, s.p + s.radius);
        if (behindNear(s.depth, s.radius, near)) {
            ++c.behind;
        } else if (cameraFadeAt(options.cameraFade, s.depth) <= 0.0f) {
            ++c.faded;
        } else if (insideClipVolume(camera, s.p)) {
            ++c.points;
            c.clamped += pointPixels(s.size, perUnit, s.depth) > maxPointPixels;
        }
    }
    return c;
}

std::string viewFields(const sim::FireSystem& fire, size_t i, const Camera& camera, const RenderOptions& options) {
    const Seen s = seen(fire, i, camera, options);
    const int behind = behindNear(s.depth, s.radius, nearDistance(camera)) ? 1 : 0;
    char out[160];
    if (s.depth <= 0.0f) {  // at or behind the eye: no place on the screen
        std::snprintf(out, sizeof out, "%.7g,,,,%d", double(s.depth), behind);
        return out;
    }
    const glm::vec4 c = camera.viewProj * glm::vec4(s.p, 1.0f);
    const float x = (c.x / c.w * 0.5f + 0.5f) * static_cast<float>(camera.viewportWidth);
    const float y = (c.y / c.w * 0.5f + 0.5f) * static_cast<float>(camera.viewportHeight);
    std::snprintf(out, sizeof out, "%.7g,%.7g,%.7g,%.7g,%d", double(s.depth), double(x), double(y),
                  double(pointPixels(s.size, passPixelsPerUnit(camera, options), s.depth)), behind);
    return out;
}

double firePixels(const ViewCensus& c, const Camera& camera) {
    if (c.alive == 0 || c.lo.x > c.hi.x) return 0.0;
    const glm::vec3 centre = 0.5f * (c.lo + c.hi);
    const float radius = 0.5f * glm::length(c.hi - c.lo);
    const float nearest = std::max(nearDistance(camera), kNearPlane);
    const float depth = std::max(glm::dot(camera.forward, centre - camera.eye), nearest);
    const float perUnit = pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight));
    return 2.0 * static_cast<double>(radius) * static_cast<double>(perUnit) / static_cast<double>(depth);
}

}  // namespace firelab::render
