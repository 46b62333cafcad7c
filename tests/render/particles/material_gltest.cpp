// ParticleMaterial: one program per shader variant, built (and set up) once, on first use; --filter
// reaches the sprite's sampler and changes the picture a little (bilinear) or more (nearest).
#include <gtest/gtest.h>

#include <set>

#include "support/gl_fixture.h"
#include "harness/quality/image_metrics.h"
#include "render/particles/particle_material.h"

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

TEST_F(Material, FilterSetsTheSpriteSampler) {
    struct Expected {
        render::Filter filter;
        GLint min, mag;
    };
    for (const Expected& e : {Expected{render::Filter::Trilinear, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR},
                              Expected{render::Filter::Bilinear, GL_LINEAR_MIPMAP_NEAREST, GL_LINEAR},
                              Expected{render::Filter::Nearest, GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST}}) {
        const auto sprite = gl::loadTexture(std::filesystem::path(FIRELAB_SOURCE_DIR) / "textures/flame.png");
        render::setSpriteFilter(sprite, e.filter);
        GLint min = 0, mag = 0;
        glGetTextureParameteriv(sprite.texture.id(), GL_TEXTURE_MIN_FILTER, &min);
        glGetTextureParameteriv(sprite.texture.id(), GL_TEXTURE_MAG_FILTER, &mag);
        EXPECT_EQ(min, e.min);
        EXPECT_EQ(mag, e.mag);
    }
}

// Bilinear from the nearest mip level is close to trilinear but not the same picture; nearest is
// farther (PSNR over the fire's pixels, against trilinear; llvmpipe's figures in the comments).
TEST_F(Material, CoarserFiltersChangeThePictureByDegrees) {
    auto s = smallCapture({"billboards-instanced"});
    s.width = 320, s.height = 240;
    auto frame = [&](render::Filter f) {
        s.render.filter = f;
        return harness::renderStrategies(s).at(0);
    };
    const auto trilinear = frame(render::Filter::Trilinear), bilinear = frame(render::Filter::Bilinear),
               nearest = frame(render::Filter::Nearest);
    std::vector<bool> fire(trilinear.overdraw.counts.size());
    for (size_t i = 0; i < fire.size(); ++i) fire[i] = trilinear.overdraw.counts[i] > 0.0f;
    const double bilinearDb = harness::psnr(trilinear.image, bilinear.image, fire);
    const double nearestDb = harness::psnr(trilinear.image, nearest.image, fire);
    EXPECT_GT(bilinearDb, 40.0);  // 47 dB
    EXPECT_LT(bilinearDb, 100.0);
    EXPECT_LT(nearestDb, bilinearDb - 5.0);  // 36 dB
}

}  // namespace
}  // namespace firelab::testing
