// Camera paths (--camera path --camera-path FILE): keyframes of the view, followed through a smooth spline
// (render::samplePath). A path file is a list of [[key]] tables, times increasing, at least two:
//
//   # time: simulated seconds, the clock the orbit turns by (a run measures after its prewarm of one
//   # longest lifetime, or from --start-time); eye and target: m; fov: the vertical field of view in degrees (default 45)
//   [[key]]
//   time = 2.0
//   eye = [3.2, 1.3, 0.0]
//   target = [0.0, 0.7, 0.0]
//   fov = 45
//
// Before the first key the view is the first key's, after the last the last's. The viewer's free camera
// appends its view as a key (cameraKeyToml). Errors name the file, the line and the key.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "render/camera.h"

namespace firelab::harness {

struct RunSettings;

// Reads a path file. Throws firelab::Error: MissingFile, BadFile (not TOML, an unknown table or key, fewer
// than two keys, times not increasing) and BadValue (a number that is missing, text, NaN or out of range,
// a fov outside (1, 170) degrees, an eye on its target), naming FILE:LINE and the key.
std::vector<render::CameraKey> loadCameraPath(const std::filesystem::path& file);
// The file --camera-path `text` names: the path as given when it exists, else relative to the data folder,
// else a bare name (`flythrough`) as experiments/cameras/NAME.toml there.
std::filesystem::path resolveCameraPath(const std::string& text);
// Checks the run's view: --camera path needs --camera-path, whose file must read. Errors say
// "--camera-path TEXT: " and why.
void checkCamera(const RunSettings& s);
// The keys the run's view follows: the path file's with --camera path, none otherwise. Throws as
// loadCameraPath.
std::vector<render::CameraKey> cameraKeys(const RunSettings& s);
// One [[key]] table that loadCameraPath reads back as `key`.
std::string cameraKeyToml(const render::CameraKey& key);
// The text of `file`'s keys (none when it does not exist) with `key` in its place by time, replacing a key
// of the same time: the viewer's "save view as keyframe", which may save out of order. Throws as
// loadCameraPath for a file that does not read (but not for one key, or keys out of order).
std::string cameraPathWith(const std::filesystem::path& file, const render::CameraKey& key);

// What draws a run's settings looks through: its camera settings and keys, at any time.
class RunCamera {
public:
    RunCamera() = default;                     // the default orbit
    explicit RunCamera(const RunSettings& s);  // throws as cameraKeys
    render::Camera at(double time, int width, int height) const {
        return render::viewAt(settings_, keys_, time, width, height);
    }
    // The eye, target and field of view at `time`, as a path's key.
    render::CameraKey keyAt(double time) const { return render::viewKeyAt(settings_, keys_, time); }

private:
    render::CameraSettings settings_;
    std::vector<render::CameraKey> keys_;
};

}  // namespace firelab::harness
