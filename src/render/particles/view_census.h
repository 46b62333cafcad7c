// What a view makes of the fire, counted on the CPU from the state a frame draws (the pool its strategy
// uploads): the particles wholly behind the camera (which the CPU-simulated strategies skip before upload,
// seed 004, and the GPU-simulated ones leave to the clipper), the particles a GL_POINTS strategy would draw
// larger than the implementation allows (gl_PointSize is clamped to GL_POINT_SIZE_RANGE, silently), and how
// large the fire appears. The runner records it for every run (fire_px, behind_camera_fraction,
// points_clamped_fraction); it does not touch GL.
//
//   ViewCensus c;
//   for (each layer) c.add(countView(fire, camera, layerOptions, info.pointSizeMax));
//   double px = firePixels(c, camera);
#pragma once
#include <cstddef>
#include <limits>
#include <string>

#include <glm/vec3.hpp>

#include "render/camera.h"
#include "render/options.h"
#include "sim/fire_system.h"

namespace firelab::render {

// A GL_POINTS particle's size on screen (pixels), as points.vert writes gl_PointSize: its world size
// times the pass's pixels per unit (pixelsPerUnit) over its clip w, at least 1.
inline float pointPixels(float size, float pixelsPerUnitAtOne, float clipW) {
    const float px = size * pixelsPerUnitAtOne / clipW;
    return px > 1.0f ? px : 1.0f;
}
// The particle pass's pixels per unit at w = 1 (the shaders' uProjScale): its viewport is the frame's at
// --particle-scale (passSize).
inline float passPixelsPerUnit(const Camera& frame, const RenderOptions& options) {
    return pixelsPerUnit(frame, static_cast<float>(passSize(frame.viewportHeight, options.particleScale)));
}

struct ViewCensus {
    size_t alive = 0;   // live particles
    size_t behind = 0;  // of those, wholly behind the near plane (behindNear)
    size_t faded = 0;   // of the others, faded out by --camera-fade (at NEAR or nearer): not drawn
    // GL_POINTS: the particles a points strategy draws (their centre inside the clip volume: a point whose
    // vertex is clipped is dropped whole), and those of them larger on screen than the largest point.
    size_t points = 0, clamped = 0;
    // The box every live particle's sprite lies in (centre +- spriteRadius); empty (lo > hi) when none lives.
    glm::vec3 lo{std::numeric_limits<float>::infinity()}, hi{-std::numeric_limits<float>::infinity()};

    void add(const ViewCensus& other);
    double behindFraction() const { return alive ? static_cast<double>(behind) / static_cast<double>(alive) : 0.0; }
    double clampedFraction() const { return points ? static_cast<double>(clamped) / static_cast<double>(points) : 0.0; }
};

// Counts `fire`'s live particles as `camera` (the frame's: its viewport is the frame's) sees them drawn
// with `options` (the facing decides a sprite's reach, particle-scale the pass's pixels, camera fade which
// are drawn), against the largest point `maxPointPixels` (GL_POINT_SIZE_RANGE's upper end).
ViewCensus countView(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options,
                     float maxPointPixels);

// A particle as `camera` sees it, for `firelab snapshot --view` (kViewColumns): its view depth (m), its centre
// in window pixels from the bottom-left (empty when behind the eye), its size on screen as gl_PointSize would
// be before the clamp (pixels at the pass's size), and 1 when it lies wholly behind the near plane.
inline constexpr const char* kViewColumns = "view_depth,screen_x,screen_y,screen_px,behind";
std::string viewFields(const sim::FireSystem& fire, size_t i, const Camera& camera, const RenderOptions& options);

// The fire's projected size in the frame (pixels): the diameter of the sphere around the census's box, at
// the view depth of its centre (no nearer than the near plane), as a particle's size projects. It grows
// as 1/distance and exceeds the frame's height once the fire overfills it; 0 when nothing lives.
double firePixels(const ViewCensus& census, const Camera& camera);

}  // namespace firelab::render
