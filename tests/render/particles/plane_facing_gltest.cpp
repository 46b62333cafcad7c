// --facing plane (the explosion answer's fixed-plane quads): a sprite lies in the emitter's plane, its xz plane
// turned by --rotate-x/y/z. Unturned it is the ground's quad, the same pixels; turned upright it shows its face to
// a camera in front of it and its edge to one beside it, in every strategy that turns sprites.
#include <gtest/gtest.h>

#include "render/frame/frame_pipeline.h"
#include "render/frame/layer_stack.h"
#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/particles/sprite_geometry.h"
#include "support/gl_fixture.h"
#include "support/still_particles.h"

namespace firelab::testing {
namespace {

class PlaneFacing : public GlTest {};

constexpr int kSide = 96;

// One still sprite 0.6 m wide (the flame sprite: a soft disk) at (0, 0.6, 0), additive white, in its emitter's plane turned by `turn` degrees.
render::LayerSetup upright(render::Facing facing, const glm::vec3& turn) {
    render::LayerSetup l{"flame", stillParticles({0.0f, 0.6f, 0.0f}, 0.6f), {}, {}};
    l.params.rotationDeg = turn;
    l.params.gradient = {{0.0f, glm::vec4(1.0f)}, {1.0f, glm::vec4(1.0f)}};
    l.render.facing = facing;
    l.render.hdr = false;
    return l;
}

image::Image drawn(const std::string& strategy, const render::LayerSetup& layer, const glm::vec3& eye) {
    render::Scene scene(FIRELAB_SOURCE_DIR);
    render::RenderOptions frame;
    frame.hdr = false;
    render::FramePipeline pipeline(FIRELAB_SOURCE_DIR, frame, kSide, kSide);
    render::FrameTarget target(kSide, kSide);
    const render::Camera camera = render::lookAtCamera(eye, {0.0f, 0.6f, 0.0f}, 40.0f, kSide, kSide);
    render::LayerStack stack(FIRELAB_SOURCE_DIR, strategy, {layer}, 1.0f / 60, 1);
    stack.step(1.0f / 60);
    stack.upload(camera);
    pipeline.draw(scene, stack.ordered(camera), camera, target);
    return target.read();
}

// Pixels the sprite lights, seen from `eye`: brighter than the scene without it (the sprite drawn transparent).
int litPixels(const std::string& strategy, render::LayerSetup layer, const glm::vec3& eye,
              image::Image* picture = nullptr) {
    const image::Image img = drawn(strategy, layer, eye);
    if (picture) *picture = img;
    layer.params.gradient = {{0.0f, glm::vec4(0.0f)}, {1.0f, glm::vec4(0.0f)}};
    const image::Image scene = drawn(strategy, layer, eye);
    int lit = 0;
    for (size_t i = 0; i < img.pixels.size(); i += 4) lit += img.pixels[i] > scene.pixels[i] + 30 ? 1 : 0;
    return lit;
}

TEST_F(PlaneFacing, UnturnedItIsTheGroundsQuadAndUprightItFacesOneWay) {
    for (const auto& strategy : render::strategyNames([](const render::StrategyInfo& s) {
             return s.primitive == render::Primitive::Sprites && !s.viewPlaneOnly && !s.referenceOnly;
         })) {
        SCOPED_TRACE(strategy);
        image::Image ground, plane;
        const glm::vec3 above(0.4f, 2.0f, 1.2f);
        litPixels(strategy, upright(render::Facing::Ground, glm::vec3(0.0f)), above, &ground);
        litPixels(strategy, upright(render::Facing::Plane, glm::vec3(0.0f)), above, &plane);
        EXPECT_EQ(ground.pixels, plane.pixels) << "the unturned plane is not the ground's";
        // Upright, facing +z (turned 90 degrees about x): its face from in front, its edge from the side.
        const render::LayerSetup wall = upright(render::Facing::Plane, {90.0f, 0.0f, 0.0f});
        const int front = litPixels(strategy, wall, {0.0f, 0.6f, 2.0f});
        const int side = litPixels(strategy, wall, {2.0f, 0.6f, 0.0f});
        EXPECT_GT(front, 300) << "from in front it should show its face";
        EXPECT_LT(side, front / 10) << "from the side it should show its edge (" << side << " against " << front << ")";
    }
}

TEST(PlaneAxes, TheSpriteLiesInTheEmittersTurnedPlane) {
    sim::FireParams p;
    p.rotationDeg = {90.0f, 0.0f, 0.0f};
    render::RenderOptions o;
    o.facing = render::Facing::Plane;
    const render::Camera camera = render::lookAtCamera({3.0f, 1.0f, 2.0f}, {0.0f, 0.5f, 0.0f}, 40.0f, 64, 64);
    glm::vec3 right, up;
    float w, h;
    render::billboardAxes(camera, o, glm::vec3(0.0f), 0.5f, glm::vec3(0.0f), right, up, w, h, render::spritePlane(p));
    EXPECT_NEAR(std::abs(right.z), 0.0f, 1e-6f);
    EXPECT_NEAR(std::abs(up.z), 0.0f, 1e-6f) << "upright about x, the sprite lies in the xy plane";
    EXPECT_NEAR(std::abs(glm::cross(right, up).z), 1.0f, 1e-6f);
    EXPECT_FLOAT_EQ(w, 0.25f);
    EXPECT_FLOAT_EQ(h, 0.25f);
}

}  // namespace
}  // namespace firelab::testing
