// --motion fluid's side in the model (sim/flow.h, FireSystem::setFlow): particles carried by a velocity field
// move with it, whatever their drawn speeds, accelerations, drag and turbulence, and still bounce on the ground.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/fire_system.h"

namespace firelab::sim {
namespace {

// A uniform wind, and a solid-body turn about the y axis (|v| = omega r).
struct Wind : Flow {
    glm::vec3 v;
    explicit Wind(glm::vec3 velocity) : v(velocity) {}
    glm::vec3 velocityAt(const glm::vec3&) const override { return v; }
};
struct Turn : Flow {
    float omega = 2.0f;
    glm::vec3 velocityAt(const glm::vec3& p) const override { return {-omega * p.z, 0.0f, omega * p.x}; }
};

FireParams noBirths() {
    FireParams p;
    p.particles = 500;
    p.lifetimeMean = 100.0f, p.lifetimeVar = 0.0f;
    return p;
}

TEST(Flow, ParticlesMoveWithTheFlowNotTheirOwnMotion) {
    const Wind wind({0.5f, -0.25f, 1.0f});
    FireParams p = noBirths();
    p.turbulence = 0.0f;  // the paper's motion below: the drawn accelerations alone
    FireSystem fire(p, 2);
    fire.emit(200);
    const ParticlePool& q = fire.pool();
    std::vector<glm::vec3> start;
    for (size_t i = 0; i < q.alive(); ++i) start.emplace_back(q.px[i], q.py[i], q.pz[i]);
    fire.setFlow(&wind);
    for (int s = 0; s < 30; ++s) fire.integrate(1.0f / 60.0f);
    for (size_t i = 0; i < q.alive(); ++i) {
        const glm::vec3 moved = glm::vec3(q.px[i], q.py[i], q.pz[i]) - start[i];
        EXPECT_NEAR(moved.x, 0.25f, 1e-4f);
        EXPECT_NEAR(moved.y, -0.125f, 1e-4f);
        EXPECT_NEAR(moved.z, 0.5f, 1e-4f);
        EXPECT_FLOAT_EQ(q.vz[i], 1.0f) << "the particle's velocity is the flow's";
    }
    fire.setFlow(nullptr);  // the paper's motion again: the drawn upward acceleration (at least 0.7 m/s^2) acts
    fire.integrate(0.1f);
    EXPECT_GT(q.vy[0], -0.25f);
}

// The midpoint rule keeps a particle on its circle: after a whole turn in 600 steps its radius has drifted by
// under 0.1 % (a forward Euler step would grow it by about 1.7 %: (1 + (omega dt)^2)^(n/2)).
TEST(Flow, TheMidpointRuleFollowsACurvedFlow) {
    const Turn turn;
    FireParams p = noBirths();
    p.shape = EmitterShape::Circle, p.extent = {0.5f, 0.0f, 0.5f}, p.distribution = Distribution::Uniform;
    FireSystem fire(p, 1);
    fire.emit(50);
    fire.setFlow(&turn);
    const ParticlePool& q = fire.pool();
    std::vector<float> r0;
    for (size_t i = 0; i < q.alive(); ++i) r0.push_back(std::hypot(q.px[i], q.pz[i]));
    const int steps = 600;
    const float dt = 2.0f * 3.14159265f / turn.omega / static_cast<float>(steps);
    for (int s = 0; s < steps; ++s) fire.integrate(dt);
    for (size_t i = 0; i < q.alive(); ++i)
        if (r0[i] > 0.05f) {
            EXPECT_NEAR(std::hypot(q.px[i], q.pz[i]) / r0[i], 1.0f, 1e-3f) << i;
        }
}

TEST(Flow, TheGroundStillBouncesCarriedParticles) {
    const Wind down({0.0f, -3.0f, 0.0f});
    FireParams p = noBirths();
    p.ground = Ground::Bounce, p.groundHeight = 0.0f;
    FireSystem fire(p, 1);
    fire.emit(100);
    fire.setFlow(&down);
    for (int s = 0; s < 60; ++s) fire.integrate(1.0f / 60.0f);
    for (size_t i = 0; i < fire.pool().alive(); ++i) EXPECT_GE(fire.pool().py[i], 0.0f);
}

}  // namespace
}  // namespace firelab::sim
