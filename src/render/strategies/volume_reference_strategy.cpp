// volume-reference: not a sprite at all. Every particle is the Gaussian blob of gas it stands for
// (render/particles/medium.h), and each pixel integrates emission and absorption along its view ray through
// every blob, from the near plane to the scene's depth: emission-only media in closed form, absorbing ones
// marched with a step halved until halving it changes no pixel by more than 0.5/255. Kernels are binned to
// 16x16 screen tiles by compute shaders first (shaders/medium_bin.comp), so each pixel reads only its tile's,
// each tile's list in kernel order (the same picture every draw, to the bit).
// A reference for quality scoring, capture and the viewer: seconds to minutes a frame, never timed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/error.h"
#include "render/strategies/medium_strategy.h"

namespace firelab::render {
namespace {

constexpr StrategyInfo kInfo{
    .name = "volume-reference",
    .summary = "the medium the particles stand for, integrated per pixel to convergence (a reference, not timed)",
    .primitive = Primitive::Medium,
    .textured = false,
    .referenceOnly = true};

constexpr int kTile = 16;  // medium_bin.comp's uTileSize, volume_reference.comp's work group
enum Binding : GLuint { kKernels = 0, kCounts = 1, kOffsets = 2, kLists = 3, kCounters = 4 };
constexpr GLuint kChunk = 40000;               // list entries per dispatch without a march (its uChunkSize)
constexpr GLuint kLongestMarchedList = 24000;  // a march's first dispatch scans its whole list (kBudget 50000)
constexpr int kMaxDispatches = 1 << 16;

MediumConvergence gLastConvergence;

float displayed(float light, const RenderOptions& o) { return displayedLight(light, o.hdr, o.tonemap, o.exposure); }

// The largest change between two integrated images (light rgb, 1 - transmittance) on the display: the
// light's tone-mapped change plus the transmittance's (which scales the scene behind, at most 1 on the display).
float largestChange(const std::vector<float>& a, const std::vector<float>& b, const RenderOptions& o) {
    float worst = 0.0f;
    for (size_t i = 0; i + 3 < a.size(); i += 4) {
        float light = 0.0f;
        for (size_t c = 0; c < 3; ++c)
            light = std::max(light, std::abs(displayed(a[i + c], o) - displayed(b[i + c], o)));
        worst = std::max(worst, light + std::abs(a[i + 3] - b[i + 3]));
    }
    return worst;
}

std::vector<std::string> binDefines(int pass) { return {"BIN_PASS " + std::to_string(pass)}; }

class VolumeReference : public MediumStrategy {
public:
    explicit VolumeReference(const StrategyContext& c)
        : MediumStrategy(c),
          shaders_(c.dataDir / "shaders"),
          binCount_(shaders_, {"medium_bin.comp"}, binDefines(0)),
          binScan_(shaders_, {"medium_bin.comp"}, binDefines(1)),
          binFill_(shaders_, {"medium_bin.comp"}, binDefines(2)),
          closed_(shaders_, {"volume_reference.comp"}, {"MARCH 0"}),
          march_(shaders_, {"volume_reference.comp"}, {"MARCH 1"}),
          direct_(shaders_, {"volume_reference.comp"}, {"MARCH 1", "DIRECT 1"}),
          count_(shaders_, {"volume_reference.comp"}, {"COUNT 1"}),
          resolve_(shaders_, {"fullscreen.vert", "medium_resolve.frag"}) {}

    std::string_view name() const override { return kInfo.name; }

    void draw(const DrawPass& pass) override {
        const glm::ivec2 size(pass.camera.viewportWidth, pass.camera.viewportHeight);
        if (size != binnedSize_) bin(pass.camera, size.x, size.y);  // once per upload and pass size
        if (pass.mode == DrawMode::Color)
            integrateToConvergence(pass);
        else
            integrate(count_, pass, 0.0f);
        resolve(pass);
        FIRELAB_GL_CHECK();
    }

private:
    void prepare(const Camera&) override { binnedSize_ = {0, 0}; }  // new kernels: bin them at the next draw

    // The kernels into 16x16 tiles of the pass: counts, offsets (a scan), lists.
    void bin(const Camera& camera, int width, int height) {
        binnedSize_ = {width, height};
        tiles_ = glm::ivec2((width + kTile - 1) / kTile, (height + kTile - 1) / kTile);
        const auto tiles = static_cast<size_t>(tiles_.x) * static_cast<size_t>(tiles_.y);
        glNamedBufferData(counts_.id(), static_cast<GLsizeiptr>(tiles * 4), nullptr, GL_DYNAMIC_COPY);
        glClearNamedBufferData(counts_.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
        glNamedBufferData(offsets_.id(), static_cast<GLsizeiptr>((tiles + 1) * 4), nullptr, GL_DYNAMIC_COPY);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kKernels, kernelBuffer());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kCounts, counts_.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kOffsets, offsets_.id());
        const auto groups = static_cast<GLuint>(std::max<size_t>((kernels().size() + 63) / 64, 1));
        for (const gl::Program* p : {&binCount_, &binScan_, &binFill_}) {
            setCommonUniforms(*p, camera);
            p->set("uTiles", tiles_);
            p->set("uTileSize", kTile);
        }
        binCount_.use();
        glDispatchCompute(std::min<GLuint>(groups, 65535), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        binScan_.use();
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        std::vector<GLuint> offsets(tiles + 1);
        glGetNamedBufferSubData(offsets_.id(), 0, static_cast<GLsizeiptr>(offsets.size() * 4), offsets.data());
        const GLuint total = offsets.back();
        longestList_ = 0;
        for (size_t t = 0; t < tiles; ++t) longestList_ = std::max(longestList_, offsets[t + 1] - offsets[t]);
        glNamedBufferData(lists_.id(), static_cast<GLsizeiptr>(std::max<GLuint>(total, 1) * 4), nullptr,
                          GL_DYNAMIC_COPY);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kLists, lists_.id());
        binFill_.use();
        glDispatchCompute(std::min<GLuint>(groups, 65535), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        sortLists(offsets);
    }

    // Each tile's list in kernel order: the fill appends with atomics, in whatever order the threads ran, and
    // the integrals sum their kernels in list order, so without this the last bits of a picture would vary
    // from draw to draw. On the CPU: the lists are a few MB at most, and a reference takes seconds anyway.
    void sortLists(const std::vector<GLuint>& offsets) {
        std::vector<GLuint> lists(offsets.back());
        if (lists.empty()) return;
        glGetNamedBufferSubData(lists_.id(), 0, static_cast<GLsizeiptr>(lists.size() * 4), lists.data());
        for (size_t t = 0; t + 1 < offsets.size(); ++t)
            std::sort(lists.begin() + offsets[t], lists.begin() + offsets[t + 1]);
        glNamedBufferSubData(lists_.id(), 0, static_cast<GLsizeiptr>(lists.size() * 4), lists.data());
    }

    // One integration into the pass-sized image at march step `step` (sigmas; unused without absorption), in
    // as many dispatches as llvmpipe's loop limit needs (shaders/volume_reference.comp): the tile lists in
    // chunks, or the marches resumed until none is left unfinished.
    void integrate(const gl::Program& program, const DrawPass& pass, float step, bool march = false) {
        const int width = pass.camera.viewportWidth, height = pass.camera.viewportHeight;
        if (width != imageSize_.x || height != imageSize_.y) {
            image_ = gl::Texture(GL_TEXTURE_2D);
            glTextureStorage2D(image_.id(), 1, GL_RGBA32F, width, height);
            marchState_ = gl::Texture(GL_TEXTURE_2D);
            glTextureStorage2D(marchState_.id(), 1, GL_RGBA32F, width, height);
            imageSize_ = {width, height};
        }
        for (const gl::Program* p : {&program, static_cast<const gl::Program*>(&direct_)}) {
            setCommonUniforms(*p, pass.camera);
            p->set("uTiles", tiles_);
            p->set("uStep", step);
            p->set("uHasDepth", pass.sceneDepth != 0 ? 1 : 0);
            p->set("uSceneDepth", 2);
        }
        glBindTextureUnit(2, pass.sceneDepth);
        glBindImageTexture(0, image_.id(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA32F);
        glBindImageTexture(1, marchState_.id(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA32F);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kKernels, kernelBuffer());  // the lists may be from an earlier draw
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kOffsets, offsets_.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kLists, lists_.id());
        const GLuint zero[2] = {0, 0};
        glNamedBufferData(counters_.id(), sizeof zero, zero, GL_DYNAMIC_COPY);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kCounters, counters_.id());
        program.use();
        auto dispatch = [&] {
            glDispatchCompute(static_cast<GLuint>(tiles_.x), static_cast<GLuint>(tiles_.y), 1);
            glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                            GL_BUFFER_UPDATE_BARRIER_BIT);
        };
        if (!march) {
            const GLuint chunks = std::max<GLuint>((longestList_ + kChunk - 1) / kChunk, 1);
            program.set("uChunkSize", kChunk);
            for (GLuint c = 0; c < chunks; ++c) {
                program.set("uChunk", c);
                dispatch();
            }
        } else {
            if (longestList_ > kLongestMarchedList)
                throw Error(ErrorCode::GlUnsupported,
                            "volume-reference: a 16x16 tile of the picture holds " + std::to_string(longestList_) +
                                " kernels, more than its march takes (" + std::to_string(kLongestMarchedList) +
                                ", llvmpipe's loop limit); draw fewer particles, or at a higher resolution");
            // The array dispatch, then the direct one for the windows too crowded for the arrays, until no
            // march is left unfinished.
            program.set("uResume", 0);
            dispatch();
            for (int i = 0; i < kMaxDispatches; ++i) {
                GLuint counters[2] = {0, 0};
                glGetNamedBufferSubData(counters_.id(), 0, sizeof counters, counters);
                overflowed_ += counters[0];
                if (counters[1] == 0) break;
                glNamedBufferData(counters_.id(), sizeof zero, zero, GL_DYNAMIC_COPY);
                direct_.use();
                dispatch();
                program.set("uResume", 1);
                program.use();
                dispatch();
            }
        }
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    }

    std::vector<float> readImage() const {
        std::vector<float> pixels(static_cast<size_t>(imageSize_.x) * static_cast<size_t>(imageSize_.y) * 4);
        glGetTextureImage(image_.id(), 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(pixels.size() * sizeof(float)),
                          pixels.data());
        return pixels;
    }

    // Closed form when nothing absorbs; else marched at halving steps until the last halving changed no
    // pixel by more than kMediumTolerance on the display (or the finest step was reached: not converged).
    void integrateToConvergence(const DrawPass& pass) {
        MediumConvergence c;
        if (!absorbs()) {
            integrate(closed_, pass, 0.0f);
            c.integrations = 1;
            gLastConvergence = c;
            return;
        }
        float step = kMediumFirstStep;
        overflowed_ = 0;
        integrate(march_, pass, step, true);
        std::vector<float> previous = readImage();
        c.integrations = 1;
        for (;;) {
            step *= 0.5f;
            integrate(march_, pass, step, true);
            ++c.integrations;
            std::vector<float> current = readImage();
            c.maxChange = largestChange(previous, current, context().options);
            c.step = step;
            c.overflowed = overflowed_;
            if (c.maxChange <= kMediumTolerance) break;
            if (step <= kMediumFinestStep) {
                c.converged = false;
                break;
            }
            previous = std::move(current);
        }
        gLastConvergence = c;
        report(c);
    }

    // Each absorbing frame says how its march ended (it takes seconds to minutes: one line is cheap), and
    // warns when it stopped at the finest step without converging.
    static void report(const MediumConvergence& c) {
        std::fprintf(stderr,
                     "firelab: %svolume-reference: %s at a step of sigma/%.0f, %d integrations, last halving "
                     "changed a pixel by %.2f/255 (tolerance 0.5)\n",
                     c.converged ? "" : "warning: ", c.converged ? "converged" : "NOT converged", 1.0f / c.step,
                     c.integrations, c.maxChange * 255.0f);
    }

    void resolve(const DrawPass& pass) {
        beginBlend(pass);
        resolve_.set("uMedium", 0);
        resolve_.set("uCountOverdraw", static_cast<int>(pass.mode));
        glBindTextureUnit(0, image_.id());
        resolve_.use();
        glBindVertexArray(empty_.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
        endBlend();
    }

    std::filesystem::path shaders_;
    gl::Program binCount_, binScan_, binFill_, closed_, march_, direct_, count_, resolve_;
    gl::Buffer counts_, offsets_, lists_, counters_;
    gl::Texture image_{GL_TEXTURE_2D}, marchState_{GL_TEXTURE_2D};
    GLuint longestList_ = 0;  // the longest tile list of the last binning
    unsigned overflowed_ = 0;
    glm::ivec2 imageSize_{0, 0}, tiles_{0, 0};
    glm::ivec2 binnedSize_{0, 0};  // the pass size the tile lists were made for since the last upload
    gl::VertexArray empty_;
};

}  // namespace

MediumConvergence lastMediumConvergence() { return gLastConvergence; }

extern constexpr StrategyEntry kVolumeReferenceStrategy{
    kInfo, [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
        gl::requireComputeShaders(kInfo.name, "compute", GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, 4,
                                  "bins and integrates its kernels from storage buffers");
        return std::make_unique<VolumeReference>(c);
    }};

}  // namespace firelab::render
