// --draw-as haze: each particle a view-plane quad that writes a screen-space offset (shaders/haze.frag: a drifting
// noise x the layer's --haze-strength x the particle's heat, 1 - age / life, falling to 0 at its edge). It draws
// nothing into the picture: the frame pipeline draws the haze layers into its offset target after the opaque
// scene, and its haze pass refracts the scene by the summed offsets before the fire is drawn
// (render/frame/frame_pipeline.h).
#include "render/layers/layer_kinds.h"
#include "render/particles/instance_stream.h"
#include "render/particles/particle_material.h"

namespace firelab::render {
namespace {

// The layer's options as the haze draws them: view-plane quads added into the offset target, untextured.
StrategyContext hazeContext(StrategyContext c) {
    c.options.facing = Facing::ViewPlane;
    c.options.blend = Blend::Additive;
    c.options.sort = Sort::None;
    c.options.flipbook = {};
    c.options.hull = Hull::Quad;
    return c;
}

class HazeLayer : public RenderStrategy {
public:
    explicit HazeLayer(const StrategyContext& context)
        : material_(hazeContext(context), {"haze.vert", "haze.frag"},
                    [s = context.options.hazeStrength](const gl::Program& p) { p.set("uHazeStrength", s); }),
          options_(hazeContext(context).options) {
        for (GLuint a = 0; a < 2; ++a) {
            glEnableVertexArrayAttrib(vao_.id(), a);
            glVertexArrayAttribFormat(vao_.id(), a, 4, GL_FLOAT, GL_FALSE, a * 16);
            glVertexArrayAttribBinding(vao_.id(), a, 0);
        }
        glVertexArrayBindingDivisor(vao_.id(), 0, 1);
    }

    std::string_view name() const override { return "haze"; }
    bool distorts() const override { return true; }
    void upload(const sim::FireSystem& fire, const Camera& camera) override {
        stream_.upload(fire, camera, options_);
        rect_ = viewPlaneRect(stream_.instances(), camera);
    }
    std::optional<glm::ivec4> screenRect() const override { return rect_; }

    // Into the offset target (the frame pipeline's haze pass): signed offsets added, depth-tested against the scene.
    void draw(const DrawPass& pass) override {
        if (pass.mode != DrawMode::Color || stream_.count() == 0) return;
        material_.begin(pass);
        glBlendFunc(GL_ONE, GL_ONE);
        glBindVertexArray(vao_.id());
        glVertexArrayVertexBuffer(vao_.id(), 0, stream_.buffer(), 0, sizeof(Instance));
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(stream_.count()));
        ParticleMaterial::end();
        FIRELAB_GL_CHECK();
    }
    size_t drawnCount() const override { return stream_.count(); }

private:
    ParticleMaterial material_;
    RenderOptions options_;
    gl::VertexArray vao_;
    InstanceStream stream_;
    std::optional<glm::ivec4> rect_;
};

}  // namespace

std::unique_ptr<RenderStrategy> makeHazeLayer(const StrategyContext& context) {
    return std::make_unique<HazeLayer>(context);
}

}  // namespace firelab::render
