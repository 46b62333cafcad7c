// --draw-as trail: each particle's ribbon through its last positions (render/particles/trail_ribbon.h), rebuilt
// on the CPU each frame and streamed as triangles, blended as the layer's --blend says.
#include <vector>

#include "render/layers/layer_kinds.h"
#include "render/particles/instance_stream.h"
#include "render/particles/particle_material.h"
#include "render/particles/trail_ribbon.h"

namespace firelab::render {
namespace {

class TrailLayer : public RenderStrategy {
public:
    explicit TrailLayer(const StrategyContext& c)
        : material_(c, {"trail.vert", "trail.frag"}), options_(c.options), history_(c.options.trailSeconds) {
        const GLuint a = vao_.id();
        const GLint sizes[4] = {3, 1, 4, 1};
        const GLuint offsets[4] = {0, 12, 16, 32};
        for (GLuint i = 0; i < 4; ++i) {
            glEnableVertexArrayAttrib(a, i);
            glVertexArrayAttribFormat(a, i, sizes[i], GL_FLOAT, GL_FALSE, offsets[i]);
            glVertexArrayAttribBinding(a, i, 0);
        }
    }

    std::string_view name() const override { return "trail"; }

    void stepped(const sim::FireSystem& fire) override { history_.record(fire.pool(), fire.time()); }

    void upload(const sim::FireSystem& fire, const Camera& camera) override {
        history_.record(fire.pool(), fire.time());  // its present (a repeat of the last step's records nothing)
        ribbons_ = buildRibbons(fire, history_, camera, options_, vertices_);
        streamInto(buffer_, capacityBytes_, vertices_.data(), vertices_.size() * sizeof(RibbonVertex));
        count_ = vertices_.size();
    }

    void draw(const DrawPass& pass) override {
        if (count_ == 0 || !material_.drawsIn(pass)) return;
        material_.begin(pass);
        glBindVertexArray(vao_.id());
        glVertexArrayVertexBuffer(vao_.id(), 0, buffer_.id(), 0, sizeof(RibbonVertex));
        glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(count_));
        ParticleMaterial::end();
        FIRELAB_GL_CHECK();
    }

    // The ribbons drawn (a particle with no recorded point yet has none).
    size_t drawnCount() const override { return ribbons_; }

private:
    ParticleMaterial material_;
    RenderOptions options_;
    TrailHistory history_;
    std::vector<RibbonVertex> vertices_;
    gl::VertexArray vao_;
    gl::Buffer buffer_;
    size_t capacityBytes_ = 0, count_ = 0, ribbons_ = 0;
};

}  // namespace

std::unique_ptr<RenderStrategy> makeTrailLayer(const StrategyContext& context) {
    return std::make_unique<TrailLayer>(context);
}

}  // namespace firelab::render
