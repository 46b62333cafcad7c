#include "harness/measure/canary.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "harness/results/stats.h"
#include "render/camera.h"
#include "render/frame/scene.h"

namespace firelab::harness {
namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

constexpr int kWidth = 320, kHeight = 180;  // the GL part's target
constexpr size_t kFloats = 1 << 18;         // the CPU part's buffer: 1 MiB
constexpr int kPasses = 4;

}  // namespace

Canary::Canary(render::Scene& scene) : scene_(scene), target_(kWidth, kHeight), buffer_(kFloats) {
    for (size_t i = 0; i < buffer_.size(); ++i) buffer_[i] = static_cast<float>(i % 997) * 0.001f;
}

CanarySample Canary::sample() {
    CanarySample s;
    auto t0 = Clock::now();
    // A dependent chain of square roots over the buffer, kPasses times: the same instructions every call.
    float carry = 1.0f;
    for (int pass = 0; pass < kPasses; ++pass)
        for (float& x : buffer_) {
            carry = std::sqrt(x * x + carry) * 0.5f;
            x = x * 0.999f + carry * 0.001f;
        }
    volatile float sink = carry;  // the chain's result is used: the loop cannot be dropped
    (void)sink;
    s.cpuMs = msSince(t0);

    static const render::Camera camera =
        render::lookAtCamera({0.0f, 1.3f, 3.2f}, {0.0f, 0.7f, 0.0f}, 45.0f, kWidth, kHeight);
    glFinish();  // whatever came before is not the canary's
    t0 = Clock::now();
    scene_.setStaticGlow();
    target_.bind();
    scene_.draw(camera);
    glFinish();
    s.glMs = msSince(t0);
    return s;
}

CanarySample medianOf(const std::vector<CanarySample>& samples) {
    std::vector<double> cpu, gl;
    for (const auto& s : samples) cpu.push_back(s.cpuMs), gl.push_back(s.glMs);
    return {summarize(cpu).median, summarize(gl).median};
}

bool canaryOff(const CanarySample& round, const CanarySample& sweep) {
    auto off = [](double mine, double all) {
        return mine > 0 && all > 0 && std::abs(mine / all - 1.0) > kCanaryMargin;
    };
    return off(round.cpuMs, sweep.cpuMs) || off(round.glMs, sweep.glMs);
}

}  // namespace firelab::harness
