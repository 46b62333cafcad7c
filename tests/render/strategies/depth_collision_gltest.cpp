// --ground stage in the compute strategy: its particles collide with the scene's depth buffer (the frame pipeline
// hands it the depth after the scene, shaders/depth_collision.glsl). A particle dropped on a log the camera sees
// comes to rest on the log's surface, where the CPU model's exact boxes put it too; with only the ground plane it
// falls through to the ground.
#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "render/frame/frame_pipeline.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/strategies/strategy.h"
#include "sim/ground.h"
#include "support/gl_fixture.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {

class DepthCollision : public GlTest {};

constexpr int kSide = 256;

// One particle born still over the first log's upper face, falling.
sim::FireParams dropped(sim::Ground ground) {
    const sim::StageCollider log = sim::stageColliders().front();
    const glm::vec3 top = log.origin + log.rotation * glm::vec3(0.1f, log.half.y, 0.0f);
    sim::FireParams p = stillParticles(top + glm::vec3(0.0f, 0.4f, 0.0f), 0.03f);
    p.accelMean = {0.0f, -9.81f, 0.0f};
    p.drag = 0.0f;
    p.ground = ground;
    p.restitution = 0.3f, p.friction = 1.0f;
    return p;
}

// Where the compute strategy's particle is after `seconds`, drawn every frame from `camera`, or (everyFrame false)
// stepped to that time in one upload, as a capture's first frame is.
glm::vec3 restingPlace(const sim::FireParams& p, const render::Camera& camera, float seconds, bool everyFrame = true) {
    constexpr float kDt = 1.0f / 60.0f;
    render::Scene scene(FIRELAB_SOURCE_DIR);
    render::RenderOptions o;
    o.hdr = false;
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, o, kSide, kSide);
    render::FrameTarget target(kSide, kSide);
    auto strategy = render::makeStrategy("compute", {FIRELAB_SOURCE_DIR, o, p, kDt});
    sim::FireSystem clock(p);
    for (int f = 0; f < static_cast<int>(seconds / kDt); ++f) {
        clock.advanceClock(kDt);
        if (!everyFrame) continue;
        strategy->upload(clock, camera);
        pipeline.draw(scene, *strategy, camera, target);
    }
    if (!everyFrame) strategy->upload(clock, camera);  // the whole fall in one upload: the strategy draws its own depth
    const std::vector<glm::vec3> live = strategy->gpuPositions();
    EXPECT_EQ(live.size(), 1u);
    return live.empty() ? glm::vec3(0.0f) : live.front();
}

TEST_F(DepthCollision, AParticleDroppedOnALogStopsOnItsSurface) {
    const sim::StageCollider log = sim::stageColliders().front();
    const glm::vec3 top = log.origin + log.rotation * glm::vec3(0.1f, log.half.y, 0.0f);
    // From above and in front, so the log's upper face is in the depth buffer.
    const render::Camera camera = render::lookAtCamera(top + glm::vec3(0.3f, 1.2f, 1.0f), top, 40.0f, kSide, kSide);
    const glm::vec3 p = restingPlace(dropped(sim::Ground::Stage), camera, 2.0f);
    const glm::vec3 local = glm::transpose(log.rotation) * (p - log.origin);
    EXPECT_NEAR(local.y, log.half.y, 0.01f) << "not on the log's upper face: " << p.x << ", " << p.y << ", " << p.z;
    EXPECT_NEAR(local.x, 0.1f, 0.08f) << "friction 1: it stays about where it landed (it slid only while bouncing)";
    EXPECT_LT(std::abs(local.z), log.half.z);

    const glm::vec3 once = restingPlace(dropped(sim::Ground::Stage), camera, 2.0f, false);
    const glm::vec3 onceLocal = glm::transpose(log.rotation) * (once - log.origin);
    EXPECT_NEAR(onceLocal.y, log.half.y, 0.01f) << "stepped in one upload, before any frame, it fell through the log";

    const glm::vec3 fell = restingPlace(dropped(sim::Ground::Bounce), camera, 2.0f);
    EXPECT_NEAR(fell.y, 0.0f, 0.01f) << "with the plane alone it should fall through the log to the ground";
}

}  // namespace
}  // namespace firelab::testing
