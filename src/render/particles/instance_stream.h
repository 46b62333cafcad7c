// The per-particle record the CPU-simulated strategies upload, its construction from the pool (less the
// particles wholly behind the camera, optionally sorted back to front), and the stream that carries it to a GL buffer each frame.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec4.hpp>

#include "render/camera.h"
#include "render/gl/gl.h"
#include "render/options.h"
#include "sim/fire_light.h"
#include "sim/fire_system.h"

namespace firelab::render {

// One particle as the GPU sees it (std430 and vertex-attribute compatible): position and world size,
// velocity and normalised age t = age / lifetime (which picks the colour and flipbook frame).
struct Instance {
    glm::vec4 posSize;
    glm::vec4 velAge;
};
static_assert(sizeof(Instance) == 32);

// A particle's look as the shaders read it (a vec4 attribute, or a storage buffer for compute-splat): its
// tint at colour coordinate t (sim::colorCoordinate: its normalised age, or with --color-position its place) after
// `bounces` bounces (sim::lookTint: with a blackbody temperature variance, its colour;
// with --bounce-fog, fogged) and, w, its
// sprite's angle at `age` seconds (sim/look.h). Streamed only when the model varies it (sim::hasLook);
// otherwise the attribute is left off and reads kPlainLook, which changes nothing.
using Look = glm::vec4;
inline constexpr Look kPlainLook{1.0f, 1.0f, 1.0f, 0.0f};
Look lookOf(const sim::FireParams& params, float rnd, float age, float t,
            float gasKelvin = std::numeric_limits<float>::quiet_NaN(), uint32_t bounces = 0);
// --color grid: the temperature of the gas a particle at `position` is in (its fire's flow's, K); NaN otherwise.
float gasKelvinAt(const sim::FireSystem& fire, const glm::vec3& position);

// The camera as sim sees pixel sizes (sim::PixelView: its eye, forward and the metres a pixel spans at depth 1).
inline sim::PixelView pixelView(const Camera& camera) {
    return {camera.eye, camera.forward, 1.0f / pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight))};
}

// A particle's size in metres for `camera` at `position` (sim::sizeAt's): as it is, or with --size-unit px the
// metres that many pixels of `camera`'s frame span at the particle's view depth (its absolute value: behind the eye
// it only serves to cull). The GPU-simulated strategies do the same in particle_common.glsl (spriteSize).
inline float spriteWorldSize(const sim::FireParams& params, const Camera& camera, const glm::vec3& position,
                             float size) {
    if (params.sizeUnit != sim::SizeUnit::Pixels) return size;
    return pixelView(camera).metres(position, size);
}

// Working memory of the back-to-front sort, kept by its owner so frames do not allocate.
struct SortScratch {
    std::vector<float> depth;
    std::vector<uint32_t> order, keys, tmpKeys, tmpOrder, kept;
};

// Whether a particle whose centre lies at view depth `depth` (dot(camera.forward, p - camera.eye)) and whose
// sprite reaches no farther than `radius` from it lies wholly behind the near plane at view distance `near`
// (nearDistance): nothing of it can reach the screen. A little slack for the rounding of the GPU's own
// transform keeps what touches the plane.
inline bool behindNear(float depth, float radius, float near) {
    return depth + radius + 1e-4f * (1.0f + (depth < 0.0f ? -depth : depth)) < near;
}

// Fills `out` with the live particles, less (with options.cullBehind) those wholly behind the camera's near
// plane (behindNear with spriteRadius for the options' facing): they draw nothing. With options.sort
// BackToFront the farthest along the view direction comes first, and scratch.order holds each record's
// particle index. `looks`, if given, gets their looks in the same order when the model varies them, and is
// emptied when it does not.
void buildInstances(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options,
                    std::vector<Instance>& out, SortScratch& scratch, std::vector<Look>* looks = nullptr);

// Indices of `keys` ordered by decreasing key (stable LSD radix sort on the float bits) into
// scratch.order.
void sortDescending(const std::vector<float>& keys, SortScratch& scratch);

// The Instance records of the CPU-simulated strategies: built on the CPU each frame and streamed into
// a GL buffer (orphaned each frame, so the driver never waits for the previous frame's draw).
class InstanceStream {
public:
    void upload(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options);
    GLuint buffer() const { return buffer_.id(); }
    // The Look records in the same order, or 0 when the model does not vary them (or nothing lives).
    GLuint lookBuffer() const { return looks_.empty() ? 0 : lookBuffer_.id(); }
    size_t count() const { return count_; }
    // The records streamed by the last upload.
    std::span<const Instance> instances() const { return {cpu_.data(), count_}; }

private:
    std::vector<Instance> cpu_;
    std::vector<Look> looks_;
    SortScratch scratch_;
    gl::Buffer buffer_, lookBuffer_;
    size_t capacity_ = 0;  // in instances
    size_t lookBytes_ = 0;
    size_t count_ = 0;
};

// The pixels (x, y, width, height; row 0 at the bottom) that the records' view-plane squares (edge posSize.w, centred
// at posSize.xyz) can cover in the camera's viewport, with a pixel's margin; width 0 when none is in view; nullopt when
// one reaches the near plane (its projection has no bound). The haze pass's scissor (render/layers/haze_layer.cpp).
std::optional<glm::ivec4> viewPlaneRect(std::span<const Instance> instances, const Camera& camera);

// Feeds vertex attribute `attrib` of `vao` from `looks` (binding `binding`, one Look per vertex, or per
// instance with divisor 1), or, when `looks` is 0, turns it off so that it reads kPlainLook.
void bindLooks(GLuint vao, GLuint attrib, GLuint binding, GLuint looks, GLuint divisor);

// Streams `bytes` into `buffer`, growing it (to twice the need) when it is too small, and orphaning
// the old storage otherwise.
void streamInto(gl::Buffer& buffer, size_t& capacityBytes, const void* data, size_t bytes);

}  // namespace firelab::render
