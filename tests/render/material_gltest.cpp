// ParticleMaterial: one program per shader variant, built (and set up) once, on first use.
#include <gtest/gtest.h>

#include <set>

#include "gl_fixture.h"
#include "render/particle_material.h"

namespace firelab::testing {
namespace {

class Material : public GlTest {};

TEST_F(Material, BuildsEachVariantOnceOnFirstUse) {
    render::StrategyContext c{FIRELAB_SOURCE_DIR, {}, {}, 1.0f / 60.0f};
    c.options.soft = 0.5f;
    int built = 0;
    render::ParticleMaterial material(c, {"billboard_instanced.vert", "quad.frag"},
                                      [&](const gl::Program&) { ++built; });
    EXPECT_EQ(built, 1);  // the colour pass's, at construction

    const gl::Texture depth(GL_TEXTURE_2D);
    render::DrawPass pass;
    pass.sceneDepth = depth.id();
    std::set<GLuint> programs;
    auto draw = [&](render::DrawMode mode, GLuint sceneDepth) {
        pass.mode = mode, pass.sceneDepth = sceneDepth;
        programs.insert(material.begin(pass).id());
        render::ParticleMaterial::end();
    };
    draw(render::DrawMode::Color, depth.id());
    EXPECT_EQ(built, 1);
    draw(render::DrawMode::CountShaded, depth.id());
    draw(render::DrawMode::CountShaded, depth.id());
    EXPECT_EQ(built, 2);
    draw(render::DrawMode::CountVisible, 0);
    EXPECT_EQ(built, 3);
    draw(render::DrawMode::Color, 0);  // no scene depth: soft particles off
    EXPECT_EQ(built, 4);
    EXPECT_EQ(programs.size(), 4u);
}

}  // namespace
}  // namespace firelab::testing
