// --ground stage on the CPU: particles bounce on the stage's boxes (the logs and the stone, sim/stage.h) by
// the ground plane's rule in each box's frame (sim/ground.h's bounceOnBox), and come to rest on what they land on.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "sim/fire_system.h"
#include "sim/ground.h"
#include "sim/stage.h"

namespace firelab::sim {
namespace {

// A single particle born still, `above` metres over the world point `at`, falling under gravity alone.
FireParams droppedAt(const glm::vec3& at, float above) {
    FireParams p;
    p.shape = EmitterShape::Rect;
    p.center = at + glm::vec3(0.0f, above, 0.0f);
    p.extent = glm::vec3(1e-6f);
    p.speedMean = p.speedVar = glm::vec3(0.0f);
    p.accelMean = {0.0f, -9.81f, 0.0f};
    p.accelVar = glm::vec3(0.0f);
    p.drag = 0.0f;
    p.turbulence = 0.0f;
    p.lifetimeMean = 10.0f, p.lifetimeVar = 0.0f;
    p.particles = 1, p.rate = 1e-3f, p.burst = 1;
    p.ground = Ground::Stage;
    p.restitution = 0.3f, p.friction = 1.0f;
    return p;
}

glm::vec3 inBox(const StageCollider& b, const glm::vec3& p) { return glm::transpose(b.rotation) * (p - b.origin); }

TEST(StageCollision, AParticleDroppedOnALogStopsOnItsSurface) {
    const StageCollider log = stageColliders().front();
    const glm::vec3 top = log.origin + log.rotation * glm::vec3(0.1f, log.half.y, 0.0f);  // on its upper face
    FireSystem fire(droppedAt(top, 0.4f));
    const float dt = 1.0f / 60.0f;
    for (int i = 0; i < 150; ++i) fire.step(dt);  // 2.5 s: fallen, bounced and settled
    ASSERT_EQ(fire.pool().alive(), 1u);
    const ParticlePool& q = fire.pool();
    const glm::vec3 before(q.px[0], q.py[0], q.pz[0]);
    for (int i = 0; i < 30; ++i) fire.step(dt);
    EXPECT_LT(glm::distance(before, glm::vec3(q.px[0], q.py[0], q.pz[0])), 1e-3f) << "still moving after 2.5 s";
    const glm::vec3 p(q.px[0], q.py[0], q.pz[0]);
    const glm::vec3 local = inBox(log, p);
    EXPECT_NEAR(local.y, log.half.y, 2e-3f) << "not on the log's upper face";
    EXPECT_LT(std::fabs(local.x), log.half.x);
    EXPECT_LT(std::fabs(local.z), log.half.z);
    EXPECT_NEAR(local.x, 0.1f, 0.08f) << "friction 1: it stays about where it landed (it slid only while bouncing)";
    EXPECT_LT(glm::length(glm::vec3(q.vx[0], q.vy[0], q.vz[0])), 0.05f) << "still moving";
    EXPECT_GT(p.y, 0.1f) << "fell through to the ground";
}

TEST(StageCollision, WithoutTheStageItFallsThroughTheLogToTheGround) {
    const StageCollider log = stageColliders().front();
    const glm::vec3 top = log.origin + log.rotation * glm::vec3(0.1f, log.half.y, 0.0f);
    FireParams p = droppedAt(top, 0.4f);
    p.ground = Ground::Bounce;
    FireSystem fire(p);
    for (int i = 0; i < 180; ++i) fire.step(1.0f / 60.0f);
    EXPECT_NEAR(fire.pool().py[0], 0.0f, 2e-3f);
}

TEST(StageCollision, AFrictionlessParticleSlidesDownTheTiltedLog) {
    const StageCollider log = stageColliders().front();
    const glm::vec3 top = log.origin + log.rotation * glm::vec3(0.0f, log.half.y, 0.0f);
    FireParams p = droppedAt(top, 0.05f);
    p.friction = 0.0f, p.restitution = 0.0f;
    FireSystem fire(p);
    for (int i = 0; i < 20; ++i) fire.step(1.0f / 60.0f);
    const ParticlePool& q = fire.pool();
    const glm::vec3 local = inBox(log, {q.px[0], q.py[0], q.pz[0]});
    EXPECT_NEAR(local.y, log.half.y, 1e-4f) << "restitution 0: on the face";
    // The log rises towards its far end (+x in its frame, tilted 0.35 rad): the particle slides to -x.
    EXPECT_LT(local.x, -0.01f);
}

TEST(StageCollision, ABounceLeavesTheNearestFaceAtRestitutionTimesTheNormalSpeed) {
    StageCollider box;
    box.origin = {1.0f, 2.0f, 3.0f};
    box.half = {0.5f, 0.2f, 0.5f};
    const GroundPlane g{0.0f, 0.5f, 0.6f};
    glm::vec3 p = box.origin + glm::vec3(0.1f, 0.15f, -0.2f);  // 0.05 inside the top face, nearest
    glm::vec3 v(1.0f, -2.0f, 0.5f);
    ASSERT_NE(bounceOnBox(p, v, box, g, 0.1f), Contact::None);
    EXPECT_NEAR(p.y - box.origin.y, 0.2f + 0.05f * 0.5f, 1e-6f);
    EXPECT_NEAR(p.x - box.origin.x, 0.1f - 0.4f * 1.0f * 0.1f, 1e-6f) << "the step's slide not cut by the friction";
    EXPECT_NEAR(v.y, 1.0f, 1e-6f);
    EXPECT_NEAR(v.x, 0.6f, 1e-6f);
    EXPECT_NEAR(v.z, 0.3f, 1e-6f);
    glm::vec3 outside = box.origin + glm::vec3(0.0f, 0.3f, 0.0f), w(0.0f, -1.0f, 0.0f);
    EXPECT_EQ(bounceOnBox(outside, w, box, g, 0.1f), Contact::None);
    EXPECT_EQ(w.y, -1.0f);
}

TEST(StageCollision, AFastParticleLeavesThroughTheFaceItCameInByNotTheNearest) {
    StageCollider box;
    box.half = {0.5f, 0.07f, 0.5f};
    const GroundPlane g{-10.0f, 0.0f, 1.0f};
    // Falling fast through the top: in one step from 0.02 above it to 0.1 below it, nearer the bottom face.
    glm::vec3 p(0.0f, -0.03f, 0.0f), v(0.0f, -6.0f, 0.0f);
    ASSERT_NE(bounceOnBox(p, v, box, g, 0.02f), Contact::None);  // it began at y = 0.09, above the top
    EXPECT_NEAR(p.y, 0.07f, 1e-6f) << "pushed out through the bottom: it tunnelled";
    EXPECT_GE(v.y, 0.0f);
}

TEST(StageCollision, TheCollidersAreTheScenesBoxes) {
    const std::vector<StageBox> boxes = stageBoxes();
    const std::vector<StageCollider> colliders = stageColliders();
    ASSERT_EQ(colliders.size(), boxes.size());
    for (size_t i = 0; i < boxes.size(); ++i) {
        const glm::vec3 corner = colliders[i].origin + colliders[i].rotation * (colliders[i].half * 0.99f);
        EXPECT_TRUE(insideBox(boxes[i], corner));
        const glm::vec3 out = colliders[i].origin + colliders[i].rotation * (colliders[i].half * 1.01f);
        EXPECT_FALSE(insideBox(boxes[i], out));
    }
}

}  // namespace
}  // namespace firelab::sim
