// volume: the medium volume-reference integrates per pixel (render/particles/medium.h), in real time: each
// frame compute shaders splat every kernel into a view-aligned froxel grid of emission and optical depth
// (shaders/volume_splat.comp, fixed-point atomic adds: the sums are order-free), integrate each column front
// to back (volume_integrate.comp), and a full-screen pass composites the integrated grid at each pixel's
// scene depth (volume_composite.frag). Additive and alpha layers are one medium, so layer order does not
// arise. The grid (--volume-cell pixels square, --volume-slices slices) is fitted each frame to the depth
// range the kernels reach: froxels rather than a world-space box because their resolution follows the
// screen, where the picture is judged, and fitting the slices to the medium spends none on empty depth.
#include <algorithm>

#include "render/strategies/medium_strategy.h"

namespace firelab::render {
namespace {

constexpr StrategyInfo kInfo{
    .name = "volume",
    .summary = "the particles' medium splatted into a froxel grid by compute shaders, integrated front to back",
    .primitive = Primitive::Medium,
    .textured = false};

enum Binding : GLuint { kKernels = 0, kCells = 1 };

class Volume : public MediumStrategy {
public:
    explicit Volume(const StrategyContext& c)
        : MediumStrategy(c),
          splat_(c.dataDir / "shaders", {"volume_splat.comp"}),
          integrate_(c.dataDir / "shaders", {"volume_integrate.comp"}),
          composite_(c.dataDir / "shaders", {"fullscreen.vert", "volume_composite.frag"}) {}

    std::string_view name() const override { return kInfo.name; }

    void draw(const DrawPass& pass) override {
        if (!filled_) return;
        const int slices = volumeSliceCount(context().options.volumeSlices);
        beginBlend(pass);
        const gl::Program& p = composite_;
        p.set("uIntegrated", 0);
        p.set("uTouched", 1);
        p.set("uSceneDepth", 2);
        p.set("uHasDepth", pass.sceneDepth != 0 ? 1 : 0);
        p.set("uDepthTerms", depthTerms(pass.camera));
        p.set("uPassSize", glm::vec2(pass.camera.viewportWidth, pass.camera.viewportHeight));
        p.set("uGridScale", gridScale_);
        p.set("uDepthRange", glm::vec2(depthRange_.x, sliceDepth_));
        p.set("uSlices", slices);
        p.set("uCountOverdraw", static_cast<int>(pass.mode));
        glBindTextureUnit(0, integrated_.id());
        glBindTextureUnit(1, touched_.id());
        glBindTextureUnit(2, pass.sceneDepth);
        p.use();
        glBindVertexArray(empty_.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
        endBlend();
        FIRELAB_GL_CHECK();
    }

private:
    // The grid for this frame's camera: splat, then integrate (both timed as their passes).
    void prepare(const Camera& camera) override {
        const RenderOptions& o = context().options;
        const int cell = volumeCellPixels(o.volumeCell), slices = volumeSliceCount(o.volumeSlices);
        const glm::ivec3 grid((camera.viewportWidth + cell - 1) / cell, (camera.viewportHeight + cell - 1) / cell,
                              slices);
        depthRange_ = kernelDepthRange(kernels(), camera);
        filled_ = !kernels().empty() && depthRange_.y > depthRange_.x;
        if (!filled_) return;
        sliceDepth_ = (depthRange_.y - depthRange_.x) / static_cast<float>(slices);
        gridScale_ = glm::vec2(camera.viewportWidth, camera.viewportHeight) / glm::vec2(grid.x * cell, grid.y * cell);
        allocate(grid);
        for (const gl::Program* p : {&splat_, &integrate_}) {
            setCommonUniforms(*p, camera);
            glProgramUniform3i(p->id(), p->location("uGrid"), grid.x, grid.y, grid.z);
            p->set("uCellPixels", cell);
            p->set("uDepthRange", depthRange_);
            p->set("uSliceDepth", sliceDepth_);
        }
        {
            PassTimer::Scope s(timer(), Pass::Splat);
            glClearNamedBufferData(cells_.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kKernels, kernelBuffer());
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kCells, cells_.id());
            splat_.use();
            glDispatchCompute(static_cast<GLuint>(std::min<size_t>((kernels().size() + 63) / 64, 65535)), 1, 1);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        }
        {
            PassTimer::Scope s(timer(), Pass::Integrate);
            glBindImageTexture(0, integrated_.id(), 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_RGBA16F);
            glBindImageTexture(1, touched_.id(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
            integrate_.use();
            glDispatchCompute(static_cast<GLuint>((grid.x + 7) / 8), static_cast<GLuint>((grid.y + 7) / 8), 1);
            glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        }
        FIRELAB_GL_CHECK();
    }

    // The splat's sums, the integrated layers and the touched counts for `grid`, when it changes size.
    void allocate(const glm::ivec3& grid) {
        if (grid == grid_) return;
        grid_ = grid;
        const size_t cells = static_cast<size_t>(grid.x) * static_cast<size_t>(grid.y) * static_cast<size_t>(grid.z);
        glNamedBufferData(cells_.id(), static_cast<GLsizeiptr>(cells * 16), nullptr, GL_DYNAMIC_COPY);
        integrated_ = gl::Texture(GL_TEXTURE_3D);
        glTextureStorage3D(integrated_.id(), 1, GL_RGBA16F, grid.x, grid.y, grid.z + 1);
        for (const GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
            glTextureParameteri(integrated_.id(), wrap, GL_CLAMP_TO_EDGE);
        glTextureParameteri(integrated_.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTextureParameteri(integrated_.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        touched_ = gl::Texture(GL_TEXTURE_2D);
        glTextureStorage2D(touched_.id(), 1, GL_R32F, grid.x, grid.y);
        glTextureParameteri(touched_.id(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTextureParameteri(touched_.id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTextureParameteri(touched_.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTextureParameteri(touched_.id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }

    gl::Program splat_, integrate_, composite_;
    gl::Buffer cells_;
    gl::Texture integrated_{GL_TEXTURE_3D}, touched_{GL_TEXTURE_2D};
    glm::ivec3 grid_{0};
    glm::vec2 depthRange_{0.0f}, gridScale_{1.0f};
    float sliceDepth_ = 1.0f;
    bool filled_ = false;
    gl::VertexArray empty_;
};

}  // namespace

extern constexpr StrategyEntry kVolumeStrategy{kInfo, [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
                                                   gl::requireComputeShaders(
                                                       kInfo.name, "compute", GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, 2,
                                                       "splats and integrates its kernels through storage buffers");
                                                   return std::make_unique<Volume>(c);
                                               }};

}  // namespace firelab::render
