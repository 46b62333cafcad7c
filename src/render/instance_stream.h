// The per-particle record the CPU-simulated strategies upload, its construction from the pool
// (optionally sorted back to front), and the stream that carries it to a GL buffer each frame.
#pragma once
#include <cstdint>
#include <vector>

#include <glm/vec4.hpp>

#include "render/camera.h"
#include "render/gl.h"
#include "render/options.h"
#include "sim/fire_system.h"

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

}  // namespace firelab::render
