// billboards-instanced: instead of one point per particle (points), one instanced quad per particle;
// the vertex shader expands the corners (shaders/billboard_instanced.vert) from the same Instance data.
#include "render/points_strategy.h"

namespace firelab::render {
namespace {

class BillboardsInstanced : public RenderStrategy {
public:
    explicit BillboardsInstanced(const StrategyContext& c)
        : material_(c), program_(c.dataDir / "shaders", {"billboard_instanced.vert", "quad.frag"}), sort_(c.options.sort) {
        setInstanceAttributes(vao_, 1);
    }
    std::string_view name() const override { return "billboards-instanced"; }
    void upload(const sim::FireSystem& fire, const Camera& camera) override { stream_.upload(fire, camera, sort_); }
    void draw(const Camera& camera) override {
        material_.beginParticles();
        program_.use();
        material_.bind(program_, camera);
        glBindVertexArray(vao_.id());
        glVertexArrayVertexBuffer(vao_.id(), 0, stream_.buffer(), 0, sizeof(Instance));
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(stream_.count()));
        ParticleMaterial::endParticles();
    }
    size_t drawnCount() const override { return stream_.count(); }

private:
    ParticleMaterial material_;
    gl::Program program_;
    gl::VertexArray vao_;
    InstanceStream stream_;
    Sort sort_;
};

}  // namespace

std::unique_ptr<RenderStrategy> makeBillboardsInstanced(const StrategyContext& c) {
    return std::make_unique<BillboardsInstanced>(c);
}

}  // namespace firelab::render
