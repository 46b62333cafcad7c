// billboards-geometry: the same points as `points`, expanded into camera-facing quads by a geometry
// shader (shaders/billboard_geometry.geom) instead of being rasterised as points.
#include "render/points_strategy.h"

namespace firelab::render {
namespace {

class BillboardsGeometry : public RenderStrategy {
public:
    explicit BillboardsGeometry(const StrategyContext& c)
        : material_(c),
          program_(c.dataDir / "shaders", {"billboard_geometry.vert", "billboard_geometry.geom", "quad.frag"}),
          sort_(c.options.sort) {
        setInstanceAttributes(vao_, 0);
    }
    std::string_view name() const override { return "billboards-geometry"; }
    void upload(const sim::FireSystem& fire, const Camera& camera) override { stream_.upload(fire, camera, sort_); }
    void draw(const Camera& camera) override {
        material_.beginParticles();
        program_.use();
        material_.bind(program_, camera);
        glBindVertexArray(vao_.id());
        glVertexArrayVertexBuffer(vao_.id(), 0, stream_.buffer(), 0, sizeof(Instance));
        glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(stream_.count()));
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

std::unique_ptr<RenderStrategy> makeBillboardsGeometry(const StrategyContext& c) {
    return std::make_unique<BillboardsGeometry>(c);
}

}  // namespace firelab::render
