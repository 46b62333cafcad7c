#include "render/particles/trail_ribbon.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "render/particles/instance_stream.h"
#include "sim/look.h"
#include "sim/snapshot.h"

namespace firelab::render {

void TrailHistory::record(const sim::ParticlePool& pool, double time) {
    if (time < lastTime_) tracks_.clear();
    if (time == lastTime_) return;
    lastTime_ = time;
    ++records_;
    for (size_t i = 0; i < pool.alive(); ++i) {
        Track& track = tracks_[pool.id[i]];
        track.seen = records_;
        std::vector<TrailPoint>& p = track.points;
        p.insert(p.begin(), TrailPoint{{pool.px[i], pool.py[i], pool.pz[i]}, time});
        while (p.size() > kMaxPoints || time - p.back().time > seconds_) p.pop_back();
    }
    std::erase_if(tracks_, [&](const auto& t) { return t.second.seen != records_; });  // the dead
}

std::span<const TrailPoint> TrailHistory::points(uint32_t id) const {
    const auto found = tracks_.find(id);
    if (found == tracks_.end()) return {};
    return found->second.points;
}

namespace {

// The side a ribbon's point spreads along: across its tangent and the view ray, or the camera's right where
// the two are parallel (a trail seen end on).
glm::vec3 sideAt(const glm::vec3& point, const glm::vec3& tangent, const Camera& camera) {
    const glm::vec3 side = glm::cross(tangent, camera.eye - point);
    const float length = glm::length(side);
    return length > 1e-9f ? side / length : camera.right;
}

}  // namespace

size_t buildRibbons(const sim::FireSystem& fire, const TrailHistory& history, const Camera& camera,
                    const RenderOptions& options, std::vector<RibbonVertex>& out) {
    out.clear();
    const sim::FireParams& p = fire.params();
    const sim::ParticlePool& q = fire.pool();
    const sim::FlameFrame flame = sim::flameFrame(p);
    const double now = fire.time();
    std::vector<glm::vec3> spine;
    std::vector<RibbonVertex> edge;  // two vertices per spine point
    size_t ribbons = 0;
    for (size_t i = 0; i < q.alive(); ++i) {
        // The spine: the particle now, then its recorded points within the trail's seconds (a point recorded now is
        // the head itself).
        spine.assign(1, glm::vec3(q.px[i], q.py[i], q.pz[i]));
        for (const TrailPoint& point : history.points(q.id[i])) {
            if (now - point.time > static_cast<double>(options.trailSeconds)) break;
            // A point where the last one lies (a particle at rest) adds no length and has no tangent: left out.
            if (point.time < now && glm::distance(point.position, spine.back()) > 1e-5f)
                spine.push_back(point.position);
        }
        if (spine.size() < 2) continue;
        const float t = q.age[i] / q.life[i];
        const glm::vec4 color = sim::particleColor(p, flame, q, i);  // the shader applies alphaScale
        const float size = spriteWorldSize(p, camera, spine.front(), sim::sizeAt(p, t, q.scale[i]));
        const float halfWidth = 0.5f * size * options.trailWidth;
        const size_t n = spine.size();
        edge.clear();
        for (size_t k = 0; k < n; ++k) {
            const glm::vec3 tangent = spine[k == 0 ? 0 : k - 1] - spine[std::min(k + 1, n - 1)];
            const glm::vec3 side = sideAt(spine[k], tangent, camera);
            const float along = static_cast<float>(k) / static_cast<float>(n - 1);
            const float w = halfWidth * (1.0f - along);
            const glm::vec4 c(color.r, color.g, color.b, color.a * (1.0f - along));
            edge.push_back({spine[k] + side * w, along, c, 1.0f, {}});
            edge.push_back({spine[k] - side * w, along, c, -1.0f, {}});
        }
        for (size_t k = 0; k + 1 < n; ++k) {
            const RibbonVertex &a = edge[2 * k], &b = edge[2 * k + 1], &c = edge[2 * k + 2], &d = edge[2 * k + 3];
            out.insert(out.end(), {a, b, c, c, b, d});
        }
        ++ribbons;
    }
    return ribbons;
}

}  // namespace firelab::render
