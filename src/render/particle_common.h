// What the strategies share: the per-particle record the CPU-simulated strategies upload, its
// construction from the pool (optionally sorted back to front), and ParticleMaterial, which owns the
// sprite texture and colour gradient and sets the common uniforms and blend state of shaders/particle_common.glsl.
#pragma once
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "render/shader.h"
#include "render/strategy.h"
#include "render/texture.h"

namespace firelab::render {

// One particle as the GPU sees it (std430 and vertex-attribute compatible): position and world size,
// velocity and normalised age t = age / lifetime (which picks the colour and flipbook frame).
struct Instance {
    glm::vec4 posSize;
    glm::vec4 velAge;
};
static_assert(sizeof(Instance) == 32);

// Working memory of the back-to-front sort, kept by its owner so frames do not allocate.
struct SortScratch {
    std::vector<float> depth;
    std::vector<uint32_t> order, keys, tmpKeys, tmpOrder;
};

// Fills `out` with the live particles; with Sort::BackToFront the farthest along the view direction
// comes first.
void buildInstances(const sim::FireSystem& fire, const Camera& camera, Sort sort, std::vector<Instance>& out,
                    SortScratch& scratch);

// Indices of `keys` ordered by decreasing key (stable LSD radix sort on the float bits) into
// scratch.order.
void sortDescending(const std::vector<float>& keys, SortScratch& scratch);

// The Instance records of the CPU-simulated strategies: built on the CPU each frame and streamed into
// a GL buffer (orphaned each frame, so the driver never waits for the previous frame's draw).
class InstanceStream {
public:
    void upload(const sim::FireSystem& fire, const Camera& camera, Sort sort);
    GLuint buffer() const { return buffer_.id(); }
    size_t count() const { return count_; }

private:
    std::vector<Instance> cpu_;
    SortScratch scratch_;
    gl::Buffer buffer_;
    size_t capacity_ = 0;  // in instances
    size_t count_ = 0;
};

// Streams `bytes` into `buffer`, growing it (to twice the need) when it is too small, and orphaning
// the old storage otherwise.
void streamInto(gl::Buffer& buffer, size_t& capacityBytes, const void* data, size_t bytes);

// The sprite a strategy samples: textures/flame_atlas.png with --flipbook, else options.texture (a path,
// or a name under textures/).
std::filesystem::path spritePath(const std::filesystem::path& dataDir, const RenderOptions& options);
// Checks, without GL, that the sprite exists and is a readable image: firelab::Error MissingFile/BadFile.
void checkSprite(const std::filesystem::path& dataDir, const RenderOptions& options);

class ParticleMaterial {
public:
    explicit ParticleMaterial(const StrategyContext& context);

    // Binds the textures (unit 0 sprite, unit 1 gradient) and sets the camera and option uniforms.
    void bind(const gl::Program& program, const Camera& camera) const;
    // Blending per the options, depth test on, depth writes off. Restore with endParticles().
    void beginParticles() const;
    static void endParticles();

    const RenderOptions& options() const { return options_; }

    // Fragment counting, for every strategy at once: while on, particle shaders output 1 per fragment
    // and blending adds them (into a float target), so the target holds fragments per pixel. Visible
    // counts the fragments that survive the shader's discard (overdraw); Shaded counts every fragment
    // the shader runs on (rasterised and past the depth test, discarded or not).
    enum class Counting { Off, Visible, Shaded };
    static void setCounting(Counting mode) { counting_ = mode; }
    static Counting counting() { return counting_; }

private:
    static inline Counting counting_ = Counting::Off;
    RenderOptions options_;
    gl::Texture2D sprite_;
    gl::Texture gradient_;
};

// The axes and half-extents of a particle's quad for the options' facing; the C++ twin of
// billboardCorner() in shaders/particle_common.glsl (corner = p + right*cx*halfW + up*cy*halfH).
void billboardAxes(const Camera& camera, const RenderOptions& options, const glm::vec3& p, float size,
                   const glm::vec3& vel, glm::vec3& right, glm::vec3& up, float& halfW, float& halfH);

// Applies a TurbulenceField to a program's uWaveK/uWaveAmp/uWavePhase uniforms (GPU-simulated strategies).
void setTurbulenceUniforms(const gl::Program& program, const sim::TurbulenceField& field);
// Applies the model parameters to a program's shaders/fire_model.glsl uniforms (GPU-simulated strategies).
void setModelUniforms(const gl::Program& program, const sim::FireParams& params);

}  // namespace firelab::render
