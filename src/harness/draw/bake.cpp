#include "harness/draw/bake.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <glm/geometric.hpp>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text.h"
#include "harness/draw/layer_rig.h"
#include "image/image.h"
#include "render/draw_pass.h"
#include "render/gl/frame_target.h"
#include "render/particles/medium.h"
#include "render/particles/particle_material.h"

namespace firelab::harness {
namespace {

constexpr const char* kRenderer = "volume-reference";
constexpr double kBoundsTail = 0.005;  // the light left outside the framed square on each side, before the margin

// Frames the bake draws: the atlas's, and the loop's crossfade beyond them.
int clipFrames(const BakeSettings& s) { return s.layout.frames() + s.loopFrames; }

RunSettings bakeRun(const BakeSettings& s) {
    RunSettings run = s.run;
    run.strategy = kRenderer;
    run.width = run.height = s.cell;
    return run;
}

long stepsTo(const BakeSettings& s, int k) {
    return std::lround(static_cast<double>(s.start + static_cast<float>(k) / s.fps) / static_cast<double>(s.run.dt));
}

// Steps `rig` from its time to frame k's.
void advance(LayerRig& rig, const BakeSettings& s, long& done, int k) {
    for (const long target = stepsTo(s, k); done < target; ++done) rig.step(s.run.dt);
}

// Every kernel of the rig's medium now, with its velocity.
void mediumNow(LayerRig& rig, const render::Camera& camera, std::vector<render::Kernel>& kernels,
               std::vector<glm::vec3>& velocities) {
    kernels.clear(), velocities.clear();
    const auto layers = rig.stack().mediumLayers();
    render::buildKernels(layers, camera, kernels, &velocities);
}

float brightness(const render::Kernel& k) {
    return std::max({k.emissionExtinction.x, k.emissionExtinction.y, k.emissionExtinction.z, k.emissionExtinction.w});
}

// The weighted quantile q of the samples (value, weight).
float weightedQuantile(std::vector<glm::vec2>& samples, double q) {
    std::sort(samples.begin(), samples.end(), [](const glm::vec2& a, const glm::vec2& b) { return a.x < b.x; });
    double total = 0.0;
    for (const auto& v : samples) total += static_cast<double>(v.y);
    double sum = 0.0;
    for (const auto& v : samples)
        if ((sum += static_cast<double>(v.y)) >= q * total) return v.x;
    return samples.back().x;
}

// The square that holds the clip's light: along x and y, the span from the kBoundsTail to the 1 - kBoundsTail
// quantile of the kernels' centres weighted by their light (over every frame), widened by a kernel's reach at each
// end; seen along -z. A first pass over the clip, simulating only. Stray embers far from the flame are left out.
BakeView frameTheClip(const BakeSettings& s) {
    LayerRig rig(bakeRun(s), s.dataDir);
    const render::Camera any = bakeCamera({}, s.cell);
    std::vector<glm::vec2> xs, ys;
    double z = 0.0, weights = 0.0;
    float reach = 0.0f;
    std::vector<render::Kernel> kernels;
    std::vector<glm::vec3> velocities;
    long done = 0;
    for (int k = 0; k < clipFrames(s); ++k) {
        advance(rig, s, done, k);
        mediumNow(rig, any, kernels, velocities);
        for (const auto& kernel : kernels) {
            const float w = brightness(kernel);
            if (!(w > 0.0f)) continue;
            xs.emplace_back(kernel.centerSigma.x, w), ys.emplace_back(kernel.centerSigma.y, w);
            z += static_cast<double>(kernel.centerSigma.z * w), weights += static_cast<double>(w);
            reach = std::max(reach, render::kKernelReach * kernel.centerSigma.w);
        }
    }
    if (xs.empty())
        throw Error(ErrorCode::BadValue,
                    "bake: the fire has no light between " + core::formatFloat(s.start) + " and " +
                        core::formatFloat(static_cast<float>(bakeFrameTime(s, clipFrames(s) - 1))) +
                        " s: nothing to bake (a later --time, or a fire that burns)");
    const glm::vec2 lo(weightedQuantile(xs, kBoundsTail), weightedQuantile(ys, kBoundsTail));
    const glm::vec2 hi(weightedQuantile(xs, 1.0 - kBoundsTail), weightedQuantile(ys, 1.0 - kBoundsTail));
    BakeView v;
    v.center = glm::vec3((lo + hi) * 0.5f, static_cast<float>(z / weights));
    v.size = std::max(hi.x - lo.x, hi.y - lo.y) + 2.0f * reach;
    return v;
}

// Where world point p falls in a cell-pixel frame seen by `camera` (pixel units, y up), and its clip w.
glm::vec3 toPixels(const render::Camera& camera, const glm::vec3& p, int cell) {
    const glm::vec4 c = camera.viewProj * glm::vec4(p, 1.0f);
    return {(glm::vec2(c) / c.w * 0.5f + 0.5f) * static_cast<float>(cell), c.w};
}

// Each pixel's motion: the kernels' velocities over one frame, projected through the bake's camera, averaged with
// the weight of each kernel's light (or extinction) at the pixel's centre (its Gaussian's column through the pixel).
std::vector<glm::vec2> motionField(const std::vector<render::Kernel>& kernels, const std::vector<glm::vec3>& velocities,
                                   const render::Camera& camera, int cell, float fps) {
    const size_t n = static_cast<size_t>(cell) * static_cast<size_t>(cell);
    std::vector<glm::vec3> sum(n, glm::vec3(0.0f));  // weight x (du, dv), weight
    const float pixelsAtOne = render::pixelsPerUnit(camera, static_cast<float>(cell));
    for (size_t i = 0; i < kernels.size(); ++i) {
        const glm::vec4& k = kernels[i].centerSigma;
        const float w = brightness(kernels[i]) / (k.w * k.w);  // the column's peak: the kernel's weight / sigma^2
        const glm::vec3 at = toPixels(camera, glm::vec3(k), cell);
        if (!(w > 0.0f) || !(at.z > 0.0f)) continue;
        const glm::vec3 to = toPixels(camera, glm::vec3(k) + velocities[i] / fps, cell);
        const glm::vec2 d = (glm::vec2(to) - glm::vec2(at)) / static_cast<float>(cell);  // cells per frame, v up
        const float sigma = k.w * pixelsAtOne / at.z;                                    // pixels
        const float reach = render::kKernelReach * sigma;
        const int x0 = std::max(0, static_cast<int>(std::floor(at.x - reach))),
                  x1 = std::min(cell - 1, static_cast<int>(std::ceil(at.x + reach)));
        const int y0 = std::max(0, static_cast<int>(std::floor(at.y - reach))),
                  y1 = std::min(cell - 1, static_cast<int>(std::ceil(at.y + reach)));
        const float inv = 1.0f / (2.0f * sigma * sigma);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                const float dx = static_cast<float>(x) + 0.5f - at.x, dy = static_cast<float>(y) + 0.5f - at.y;
                const float g = w * std::exp(-(dx * dx + dy * dy) * inv);
                sum[static_cast<size_t>(y) * static_cast<size_t>(cell) + static_cast<size_t>(x)] += glm::vec3(d * g, g);
            }
    }
    std::vector<glm::vec2> motion(n, glm::vec2(0.0f));
    for (size_t p = 0; p < n; ++p)
        if (sum[p].z > 0.0f) motion[p] = glm::vec2(sum[p]) / sum[p].z;
    return motion;
}

// Frame k drawn by volume-reference into an RGBA32F target cleared to nothing: (light, coverage).
std::vector<glm::vec4> drawLight(LayerRig& rig, const render::Camera& camera, int cell) {
    render::FrameTarget target(cell, cell, GL_RGBA16F);
    target.bind();
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    rig.upload(camera);
    render::DrawPass pass{camera};
    for (render::RenderStrategy* s : rig.ordered(camera))
        if (!s->distorts()) s->draw(pass);  // a haze layer bends the scene behind the sprite, not the sprite's light
    std::vector<glm::vec4> light(static_cast<size_t>(cell) * static_cast<size_t>(cell));
    glGetTextureImage(target.colorTexture(), 0, GL_RGBA, GL_FLOAT,
                      static_cast<GLsizei>(light.size() * sizeof(glm::vec4)), light.data());
    FIRELAB_GL_CHECK();
    return light;
}

// The loop: frame k < loopFrames becomes the frame loop after the clip's end (which follows its last frame)
// crossfading into its own by k / loopFrames.
void closeTheLoop(std::vector<BakedFrame>& frames, int atlasFrames, int loopFrames) {
    for (int k = 0; k < loopFrames; ++k) {
        const float w = static_cast<float>(k) / static_cast<float>(loopFrames);
        BakedFrame& f = frames[static_cast<size_t>(k)];
        const BakedFrame& after = frames[static_cast<size_t>(atlasFrames + k)];
        for (size_t p = 0; p < f.light.size(); ++p) {
            f.light[p] = after.light[p] * (1.0f - w) + f.light[p] * w;
            f.motion[p] = after.motion[p] * (1.0f - w) + f.motion[p] * w;
        }
    }
    frames.resize(static_cast<size_t>(atlasFrames));
}

// The light scale: the clip's brightest channel, or less where the run's tone mapping shows it white anyway
// (within 0.5 %): 8 bits then cover what can be seen (ACES at exposure 0.35 is white from about 20).
float lightScaleOf(const std::vector<BakedFrame>& frames, const render::RenderOptions& o) {
    float brightest = 0.0f;
    for (const auto& f : frames)
        for (const glm::vec4& l : f.light) brightest = std::max({brightest, l.r, l.g, l.b});
    if (!(brightest > 0.0f)) return 1.0f;
    const auto white = [&o](float light) {
        return render::displayedLight(light, o.hdr, o.tonemap, o.exposure) >= 0.995f;
    };
    if (!white(brightest)) return brightest;
    float lo = 0.0f, hi = brightest;  // the least light shown white, to a part in a thousand
    while (hi - lo > 1e-3f * hi) (white(0.5f * (lo + hi)) ? hi : lo) = 0.5f * (lo + hi);
    return hi;
}

uint8_t byte(float v) { return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

// Frame k's cell of an atlas (row 0 of a frame at the bottom, the image's row 0 at the top).
template <class Texel>
void writeCell(image::Image& atlas, const BakeSettings& s, int k, const std::vector<Texel>& texels,
               glm::vec4 (*encode)(const Texel&, float), float scale) {
    const int cx = (k % s.layout.cols) * s.cell, cy = (k / s.layout.cols) * s.cell;
    for (int y = 0; y < s.cell; ++y)
        for (int x = 0; x < s.cell; ++x) {
            const glm::vec4 v = encode(
                texels[static_cast<size_t>(s.cell - 1 - y) * static_cast<size_t>(s.cell) + static_cast<size_t>(x)],
                scale);
            uint8_t* out = atlas.at(cx + x, cy + y);
            for (int c = 0; c < 4; ++c) out[c] = byte(v[c]);
        }
}

glm::vec4 lightTexel(const glm::vec4& light, float scale) { return encodeLight(light, scale); }
glm::vec4 motionTexel(const glm::vec2& motion, float) { return glm::vec4(encodeMotion(motion), 0.0f, 1.0f); }

void writeMetadata(const BakeSettings& s, const BakeResult& r, const std::filesystem::path& motion) {
    std::filesystem::path file = s.out;
    file.replace_extension(".toml");
    core::AtomicFile meta(file);
    auto& o = meta.stream();
    const RunSettings defaults;
    o << "# firelab bake: a flipbook of the fire below, drawn by " << kRenderer << " (src/harness/draw/bake.h).\n"
      << "# Play it on sprites: --texture " << s.out.filename().string() << " --flipbook "
      << render::flipbookText(s.layout) << " --flipbook-blend motion, sprites `size` metres wide living `duration`\n"
      << "# seconds, --sprite-gain light_scale / the sprites alive at once.\n"
      << "atlas = " << tomlString(s.out.filename().string()) << "\n"
      << "motion = " << tomlString(motion.filename().string()) << "\n"
      << "layout = \"" << render::flipbookText(s.layout) << "\"\n"
      << "cell = " << s.cell << "\n"
      << "fps = " << core::formatFloat(s.fps) << "\n"
      << "duration = " << core::formatFloat(static_cast<float>(s.layout.frames()) / s.fps) << "\n"
      << "loop_frames = " << s.loopFrames << "\n"
      << "start = " << core::formatFloat(static_cast<float>(r.times.front())) << "\n"
      << "light_scale = " << core::formatFloat(r.lightScale) << "\n"
      << "center = [" << core::formatFloat(r.view.center.x) << ", " << core::formatFloat(r.view.center.y) << ", "
      << core::formatFloat(r.view.center.z) << "]\n"
      << "size = " << core::formatFloat(r.view.size) << "\n"
      << "motion_range = " << core::formatFloat(render::kMotionRange) << "\n"
      << "command = " << tomlString(s.commandLine) << "\n\n"
      << "# The fire: every setting that is not its default.\n[fire]\n";
    for (const auto& info : runSettings()) {
        if (info.renderOption) continue;
        const std::string v = settingText(s.run, info.name);
        if (v != settingText(defaults, info.name)) o << info.name << " = " << tomlSettingValue(info.name, v) << "\n";
    }
    meta.commit();
}

}  // namespace

render::Camera bakeCamera(const BakeView& view, int cell) {
    const float distance = kBakeDistancePerSize * view.size;
    const float fov = 2.0f * std::atan(0.5f * view.size / distance) * 180.0f / 3.14159265f;
    return render::lookAtCamera(view.center + glm::vec3(0.0f, 0.0f, distance), view.center, fov, cell, cell);
}

double bakeFrameTime(const BakeSettings& s, int k) {
    return static_cast<double>(stepsTo(s, k)) * static_cast<double>(s.run.dt);
}

glm::vec4 encodeLight(const glm::vec4& light, float scale) {
    const glm::vec3 l = glm::max(glm::vec3(light), glm::vec3(0.0f)) / scale;
    const float alpha = std::clamp(std::max({light.a, l.r, l.g, l.b}), 0.0f, 1.0f);
    return alpha > 0.0f ? glm::vec4(l / alpha, alpha) : glm::vec4(0.0f);
}

glm::vec3 decodedLight(const uint8_t* rgba, float scale) {
    const float a = static_cast<float>(rgba[3]) / 255.0f;
    return glm::vec3(rgba[0], rgba[1], rgba[2]) / 255.0f * a * scale;
}

glm::vec2 encodeMotion(const glm::vec2& cells) {
    const glm::vec2 m = glm::clamp(cells / render::kMotionRange, glm::vec2(-1.0f), glm::vec2(1.0f));
    return (m * 127.0f + 128.0f) / 255.0f;
}

void checkBake(const BakeSettings& s) {
    const std::string layout = "--flipbook " + render::flipbookText(s.layout);
    if (!s.layout)
        throw Error(ErrorCode::BadValue, "bake needs a layout: --flipbook RxC (rows x columns, e.g. 8x8), not off");
    const long side = static_cast<long>(std::max(s.layout.cols, s.layout.rows)) * s.cell;
    if (side > kMaxAtlasSide)
        throw Error(ErrorCode::BadValue, layout + " --frame " + std::to_string(s.cell) + ": an atlas " +
                                             std::to_string(s.layout.cols * s.cell) + "x" +
                                             std::to_string(s.layout.rows * s.cell) + " pixels; its sides may be " +
                                             std::to_string(kMaxAtlasSide) +
                                             " at most (fewer frames or a smaller --frame)");
    if (s.loopFrames >= s.layout.frames())
        throw Error(ErrorCode::BadValue, "--loop " + std::to_string(s.loopFrames) +
                                             ": the crossfade must be shorter "
                                             "than the clip's " +
                                             std::to_string(s.layout.frames()) + " frames");
    // Every frame's light (4 floats) and motion (2) and the motion pass's sums (3) are held until the scale is known.
    const double bytes = static_cast<double>(clipFrames(s)) * s.cell * s.cell * (16.0 + 8.0) + 12.0 * s.cell * s.cell;
    const double free = static_cast<double>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    const double allowed = std::min(0.5 * free, kBakeBudgetBytes);
    if (bytes > allowed)
        throw Error(ErrorCode::BadValue,
                    layout + " --frame " + std::to_string(s.cell) + " --loop " + std::to_string(s.loopFrames) + ": " +
                        std::to_string(clipFrames(s)) + " frames of " + std::to_string(s.cell) + "x" +
                        std::to_string(s.cell) + " hold " + std::to_string(static_cast<long>(bytes / 1048576.0)) +
                        " MiB while baking, over the " + std::to_string(static_cast<long>(allowed / 1048576.0)) +
                        " MiB a bake may take (half of what this machine has free, " +
                        std::to_string(static_cast<long>(kBakeBudgetBytes / 1048576.0)) +
                        " MiB at most); bake fewer or smaller frames");
}

BakeResult bake(const BakeSettings& s) {
    checkBake(s);
    BakeResult r;
    r.view = frameTheClip(s);
    const render::Camera camera = bakeCamera(r.view, s.cell);
    LayerRig rig(bakeRun(s), s.dataDir);
    std::vector<BakedFrame> frames;
    std::vector<render::Kernel> kernels;
    std::vector<glm::vec3> velocities;
    long done = 0;
    for (int k = 0; k < clipFrames(s); ++k) {
        advance(rig, s, done, k);
        if (k < s.layout.frames()) r.times.push_back(static_cast<double>(done) * static_cast<double>(s.run.dt));
        mediumNow(rig, camera, kernels, velocities);
        frames.push_back({drawLight(rig, camera, s.cell), motionField(kernels, velocities, camera, s.cell, s.fps)});
    }
    closeTheLoop(frames, s.layout.frames(), s.loopFrames);
    r.lightScale = lightScaleOf(frames, s.run.render);

    image::Image atlas(s.layout.cols * s.cell, s.layout.rows * s.cell), motion(atlas.width, atlas.height);
    for (int k = 0; k < s.layout.frames(); ++k) {
        writeCell(atlas, s, k, frames[static_cast<size_t>(k)].light, &lightTexel, r.lightScale);
        writeCell(motion, s, k, frames[static_cast<size_t>(k)].motion, &motionTexel, 1.0f);
    }
    const auto motionFile = render::motionAtlasPath(s.out);
    image::writePng(motionFile, motion);
    image::writePng(s.out, atlas);
    writeMetadata(s, r, motionFile);
    return r;
}

}  // namespace firelab::harness
