// The compute strategy's GPU state, read back through the storage-buffer bindings documented in
// shaders/compute_buffers.glsl: the draw list holds live particles only, once each, and with
// --sort back-to-front it is ordered by decreasing view depth (the GPU bitonic sort).
#include <gtest/gtest.h>

#include <glm/geometric.hpp>
#include <set>
#include <vector>

#include "support/gl_fixture.h"
#include "render/camera.h"
#include "render/strategies/strategy.h"

namespace firelab::testing {
namespace {

struct GpuParticle {
    glm::vec4 posAge, velLife, accelScale, look;
};

template <class T>
std::vector<T> readBinding(GLuint binding, size_t count) {
    GLint buffer = 0;
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, binding, &buffer);
    std::vector<T> out(count);
    if (count)
        glGetNamedBufferSubData(static_cast<GLuint>(buffer), 0, static_cast<GLsizeiptr>(count * sizeof(T)), out.data());
    return out;
}

class ComputeState : public GlTest {
protected:
    // 1.5 s of a 3000-particle fire drawn once by the compute strategy; the GPU state stays bound.
    std::unique_ptr<render::RenderStrategy> drawCompute(render::Sort sort) {
        params_.particles = 3000;
        sim::FireSystem fire(params_, 1);
        for (int i = 0; i < 90; ++i) fire.step(1.0f / 60.0f);
        render::StrategyContext sc;
        sc.dataDir = FIRELAB_SOURCE_DIR;
        sc.params = params_;
        sc.options.sort = sort;
        auto strategy = render::makeStrategy("compute", sc);
        camera_ = render::orbitCamera(fire.time(), 160, 120);
        strategy->upload(fire, camera_);
        strategy->draw({camera_});
        glFinish();
        return strategy;
    }
    sim::FireParams params_;
    render::Camera camera_;
};

TEST_F(ComputeState, SortedDrawListHoldsEveryLiveParticleOnceBackToFront) {
    const auto strategy = drawCompute(render::Sort::BackToFront);
    const auto& p = params_;
    const auto& camera = camera_;
    const size_t live = strategy->drawnCount();
    ASSERT_GT(live, 2000u);
    const auto counters = readBinding<GLuint>(2, 5);
    EXPECT_EQ(counters[0], 4u);  // one quad per instance
    EXPECT_EQ(counters[1], live);
    const auto list = readBinding<glm::uvec2>(3, live);
    const size_t capacity = sim::FireSystem::capacityFor(p, 1.0f / 60.0f);
    const auto particles = readBinding<GpuParticle>(0, capacity);

    std::set<GLuint> slots;
    float previous = std::numeric_limits<float>::infinity();
    size_t inversions = 0;
    for (const auto& entry : list) {
        ASSERT_LT(entry.y, capacity);
        EXPECT_TRUE(slots.insert(entry.y).second) << "slot " << entry.y << " drawn twice";
        const GpuParticle& q = particles[entry.y];
        EXPECT_LT(q.posAge.w, q.velLife.w) << "a dead particle in the draw list";
        const float depth = glm::dot(camera.forward, glm::vec3(q.posAge) - camera.eye);
        inversions += depth > previous + 1e-4f;
        previous = depth;
    }
    EXPECT_EQ(inversions, 0u) << "the draw list is not back to front";
}

TEST_F(ComputeState, UnsortedDrawListIsNotSorted) {
    // Contrast for the test above: without --sort the order is the GPU's append order.
    const auto strategy = drawCompute(render::Sort::None);
    const auto& p = params_;
    const auto& camera = camera_;
    const size_t live = strategy->drawnCount();
    const auto list = readBinding<glm::uvec2>(3, live);
    const auto particles = readBinding<GpuParticle>(0, sim::FireSystem::capacityFor(p, 1.0f / 60.0f));
    size_t inversions = 0;
    for (size_t i = 1; i < list.size(); ++i) {
        const float a = glm::dot(camera.forward, glm::vec3(particles[list[i - 1].y].posAge) - camera.eye);
        const float b = glm::dot(camera.forward, glm::vec3(particles[list[i].y].posAge) - camera.eye);
        inversions += b > a;
    }
    EXPECT_GT(inversions, live / 10);
}

// --ground bounce in the compute update: under gravity, with the plane 0.15 m above the emitter (births
// start on it), no live slot is below the plane after 1.5 s, and particles rest near it (within 2 cm).
TEST_F(ComputeState, NoParticleIsBelowTheGround) {
    params_.accelMean = {0.0f, -9.81f, 0.0f};
    params_.ground = sim::Ground::Bounce;
    params_.groundHeight = 0.15f;
    params_.restitution = 0.7f;
    const auto strategy = drawCompute(render::Sort::None);
    const auto particles = readBinding<GpuParticle>(0, sim::FireSystem::capacityFor(params_, 1.0f / 60.0f));
    size_t live = 0, nearGround = 0;
    for (const GpuParticle& q : particles) {
        if (q.accelScale.w == 0.0f) continue;  // a free slot
        ++live;
        ASSERT_GE(q.posAge.y, 0.15f);
        nearGround += q.posAge.y < 0.17f;
    }
    EXPECT_GT(live, 2000u);
    EXPECT_GT(nearGround, live / 20);
}

}  // namespace
}  // namespace firelab::testing
