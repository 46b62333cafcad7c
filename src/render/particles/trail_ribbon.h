// Trails (a layer drawn as trails, --draw-as trail): each particle leaves a ribbon through its last positions,
// as Unreal's Niagara ribbons and Unity's Trail module draw sparks. GL-free, so what a trail is can be tested
// without a context: TrailHistory keeps every live particle's past positions (by its id, sim::ParticlePool::id,
// since kills move particles between slots), and buildRibbons turns them into the triangles the trail layer
// (render/layers/trail_layer.cpp) draws.
//
//   TrailHistory history(options.trailSeconds);
//   history.record(fire.pool(), fire.time());          // once a frame, after the step
//   buildRibbons(fire, history, camera, options, vertices);
//
// A ribbon runs from the particle now (its head) through its recorded points, newest first, to the oldest one
// younger than trailSeconds. Its width is the particle's size x trailWidth at the head, narrowing to zero at the
// tail; its alpha is the particle's, fading to zero at the tail; it faces the camera (each point's side is across
// the ribbon's tangent and the view ray), and `across` (-1 .. 1) lets the shader soften its edges.
#pragma once
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "render/camera.h"
#include "render/options.h"
#include "sim/fire_system.h"

namespace firelab::render {

struct TrailPoint {
    glm::vec3 position;
    double time;
};

class TrailHistory {
public:
    static constexpr size_t kMaxPoints = 512;  // points a trail keeps at most (the newest): 2 s at 1/256 s steps

    explicit TrailHistory(float seconds) : seconds_(seconds) {}
    // Records every live particle's position at `time` (a second call at the same time records nothing), forgets
    // the particles no longer alive and the points older than the trail's seconds. Time going back (a restart)
    // forgets everything first.
    void record(const sim::ParticlePool& pool, double time);
    // The recorded points of the particle `id`, newest first (empty for one never recorded).
    std::span<const TrailPoint> points(uint32_t id) const;
    double lastTime() const { return lastTime_; }

private:
    struct Track {
        std::vector<TrailPoint> points;  // newest first
        uint64_t seen = 0;               // the last record() that found its particle alive
    };
    float seconds_;
    double lastTime_ = -1.0;
    uint64_t records_ = 0;
    std::unordered_map<uint32_t, Track> tracks_;
};

struct RibbonVertex {
    glm::vec3 position;
    float along;  // 0 at the head (the particle now) .. 1 at the tail (its oldest point)
    glm::vec4 color;
    float across;  // -1 on one edge, 1 on the other
    float pad[3];
};
static_assert(sizeof(RibbonVertex) == 48);

// The triangles (6 vertices a segment) of every live particle's ribbon: the particle now, then its recorded points
// younger than options.trailSeconds, into `out` (cleared first); returns the ribbons built. A particle with no
// recorded point draws nothing.
size_t buildRibbons(const sim::FireSystem& fire, const TrailHistory& history, const Camera& camera,
                    const RenderOptions& options, std::vector<RibbonVertex>& out);

}  // namespace firelab::render
