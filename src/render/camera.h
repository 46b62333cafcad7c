// The camera: matrices plus the vectors billboards are built from, and the views a run looks from
// (CameraSettings): the scripted orbit (today's default, frame for frame), a fixed eye, or a path of
// keyframes. Every view is a function of the simulation time alone, so any frame can be reproduced
// from its time, in the runner, the quality replay, capture and the viewer.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "core/setting.h"

namespace firelab::render {

struct Camera {
    glm::mat4 view{1.0f}, proj{1.0f}, viewProj{1.0f};
    glm::vec3 eye{0.0f}, forward{0.0f, 0.0f, -1.0f}, up{0.0f, 1.0f, 0.0f}, right{1.0f, 0.0f, 0.0f};
    int viewportWidth = 1, viewportHeight = 1;
};

// The projection's terms that turn a depth-buffer value back into view distance (shaders/view_depth.glsl's
// uDepthTerms): z_ndc = (A z + B) / -z with A = proj[2][2], B = proj[3][2].
inline glm::vec2 depthTerms(const Camera& camera) { return {camera.proj[2][2], camera.proj[3][2]}; }

// The near plane's view distance (glm::perspective's zNear) read back from a perspective projection:
// z_ndc = -1 at z = -near, so near = B / (A - 1). Any other projection (an orthographic one, the identity of
// a default Camera) has no near plane in front of the eye: -infinity, behind which nothing lies.
float nearDistance(const Camera& camera);

// Whether the box [lo, hi] lies wholly outside the camera's view volume: all its corners beyond one of the six
// clip planes (conservative: a box beside a corner of the frustum may be kept). Never for an empty box (lo > hi).
bool boxOutsideView(const Camera& camera, const glm::vec3& lo, const glm::vec3& hi);

// The view plane's near distance of every camera firelab makes (m).
inline constexpr float kNearPlane = 0.05f;

Camera lookAtCamera(const glm::vec3& eye, const glm::vec3& target, float fovYDeg, int width, int height);

// World size -> pixels at view depth 1 in a viewport `viewportHeight` pixels tall: what a particle of size s
// at view depth w measures on screen is s * pixelsPerUnit / w (shaders' uProjScale).
inline float pixelsPerUnit(const Camera& camera, float viewportHeight) {
    return camera.proj[1][1] * 0.5f * viewportHeight;
}

struct OrbitParams {
    glm::vec3 target{0.0f, 0.7f, 0.0f};
    float radius = 3.2f;
    float height = 1.3f;
    float periodSeconds = 40.0f;  // one turn; 0 stops the orbit
    float startDeg = 20.0f;
    float fovYDeg = 45.0f;
};
Camera orbitCamera(double time, int width, int height, const OrbitParams& o = {});
glm::vec3 orbitEye(double time, const OrbitParams& o);

// --- the views a run looks from ---------------------------------------------------------------------

// orbit: the eye turns around the target (--orbit-period per turn); fixed: the orbit's eye at time 0, still;
// path: keyframes read from --camera-path.
enum class CameraMode { Orbit, Fixed, Path, Count };
inline constexpr auto kCameraModeNames = std::to_array<std::string_view>({"orbit", "fixed", "path"});
static_assert(core::namesEveryValue<CameraMode>(kCameraModeNames));

// The ranges of a view, for --fov and --camera-target (harness::visitCameraSettings) and a path's keys
// (harness/settings/camera_path.h): the field of view strictly between kFovLimitsDeg (degrees), every
// coordinate within kMaxViewCoordinate of the origin (m).
inline constexpr float kFovLimitsDeg[2] = {1.0f, 170.0f};
inline constexpr float kMaxViewCoordinate = 10000.0f;

// One keyframe of a camera path: at `time` (simulated seconds, the clock the orbit turns by) the eye, the
// point looked at and the vertical field of view (degrees).
struct CameraKey {
    double time = 0.0;
    glm::vec3 eye{0.0f}, target{0.0f};
    float fovDeg = 45.0f;
};

// A run's view (harness::visitRunSettings declares each field as a setting). The defaults are the orbit
// every run looked from before the camera was a setting.
struct CameraSettings {
    CameraMode mode = CameraMode::Orbit;
    float distance = 3.2f;  // the eye's horizontal distance from the target (m)
    float height = 1.3f;    // the eye's height above the ground (m)
    float yawDeg = 20.0f;   // the eye's angle around the target at time 0 (degrees, from +x towards +z)
    glm::vec3 target{0.0f, 0.7f, 0.0f};
    float fovDeg = 45.0f;       // vertical field of view (degrees)
    float orbitPeriod = 40.0f;  // seconds per turn of the orbit; 0 stops it
    std::string path;           // --camera-path: a keyframe file (harness/settings/camera_path.h)
};

// The orbit's parameters of orbit and fixed settings.
OrbitParams orbitOf(const CameraSettings& c);

// The keyframes' view at `time`: a cubic Hermite spline through the keys (Catmull-Rom tangents over the
// keys' own times, so unevenly spaced keys keep a smooth speed) for the eye, the target and the field of
// view (kept inside (1, 170) degrees where the spline overshoots); exactly each key at its time, the first
// key's view before it and the last's after. `keys` holds at least one key, times increasing.
CameraKey samplePath(const std::vector<CameraKey>& keys, double time);

// The eye, target and field of view of `settings` at simulated time `time`; `keys` are the path's (read by
// the caller from settings.path; unused by orbit and fixed).
CameraKey viewKeyAt(const CameraSettings& settings, const std::vector<CameraKey>& keys, double time);
// That view's camera for a width x height viewport.
Camera viewAt(const CameraSettings& settings, const std::vector<CameraKey>& keys, double time, int width, int height);

}  // namespace firelab::render
