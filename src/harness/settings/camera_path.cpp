#include "harness/settings/camera_path.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

#include <toml++/toml.h>

#include "core/error.h"
#include "core/text.h"
#include "harness/platform/data_dir.h"
#include "harness/settings/config.h"
#include "harness/settings/run_settings.h"

namespace firelab::harness {
namespace fs = std::filesystem;

namespace {
constexpr double kMaxCoordinate = render::kMaxViewCoordinate;  // m, as --camera-target allows

// What a node is, for "expected a number, not ...".
std::string whatNode(const toml::node& node) {
    if (const auto text = node.value_exact<std::string>()) return "the text \"" + *text + "\"";
    if (node.is_boolean()) return "a boolean";
    if (node.is_array()) return "an array";
    if (node.is_table()) return "a table";
    return "a date or time";
}

// The node of `key`'s entry `name`, or an error naming the [[key]] table's line.
const toml::node& keyEntry(const toml::table& key, const char* name, const std::string& file) {
    const toml::node* node = key.get(name);
    if (!node) throw Error(ErrorCode::BadValue, tomlLine(file, key) + ": " + name + ": missing from this [[key]]");
    return *node;
}

// A key's number: present, a TOML integer or float, finite and in [lo, hi] (open at both ends when `open`).
double keyNumber(const toml::table& key, const char* name, const std::string& file, double lo, double hi,
                 bool open = false) {
    const toml::node& node = keyEntry(key, name, file);
    const std::string at = tomlLine(file, node) + ": " + name;
    const auto v = node.is_number() ? node.value<double>() : std::nullopt;
    if (!v) throw Error(ErrorCode::BadValue, at + ": expected a number, not " + whatNode(node));
    const bool inside = open ? (*v > lo && *v < hi) : (*v >= lo && *v <= hi);
    if (!std::isfinite(*v) || !inside) {
        char msg[160];
        std::snprintf(msg, sizeof msg, ": %g is not a finite number in %s%g, %g%s", *v, open ? "(" : "[", lo, hi,
                      open ? ")" : "]");
        throw Error(ErrorCode::BadValue, at + msg);
    }
    return *v;
}

// A key's point: an array of three numbers, each finite and within kMaxCoordinate of the origin.
glm::vec3 keyPoint(const toml::table& key, const char* name, const std::string& file) {
    const toml::node& node = keyEntry(key, name, file);
    const std::string at = tomlLine(file, node) + ": " + name;
    const toml::array* a = node.as_array();
    if (!a || a->size() != 3) throw Error(ErrorCode::BadValue, at + ": expected [x, y, z], three numbers in m");
    glm::vec3 p;
    for (size_t i = 0; i < 3; ++i) {
        const auto v = (*a)[i].is_number() ? (*a)[i].value<double>() : std::nullopt;
        if (!v || !std::isfinite(*v) || std::fabs(*v) > kMaxCoordinate)
            throw Error(ErrorCode::BadValue, at + ": expected [x, y, z], three finite numbers within " +
                                                 core::formatFloat(static_cast<float>(kMaxCoordinate)) + " m");
        p[static_cast<int>(i)] = static_cast<float>(*v);
    }
    return p;
}

// One [[key]] table: its four keys, nothing else.
render::CameraKey loadKey(const toml::table& t, const std::string& file) {
    const std::string where = tomlLine(file, t);
    for (const auto& [name, node] : t) {
        const std::string k(name.str());
        if (k != "time" && k != "eye" && k != "target" && k != "fov")
            throw Error(ErrorCode::BadFile,
                        tomlLine(file, node) + ": unknown key '" + k + "'; a [[key]] has time, eye, target and fov");
    }
    render::CameraKey key;
    key.time = keyNumber(t, "time", file, -1e9, 1e9);
    key.eye = keyPoint(t, "eye", file);
    key.target = keyPoint(t, "target", file);
    const render::CameraKey defaults;
    key.fovDeg =
        t.get("fov")
            ? static_cast<float>(keyNumber(t, "fov", file, render::kFovLimitsDeg[0], render::kFovLimitsDeg[1], true))
            : defaults.fovDeg;
    const glm::vec3 d = key.target - key.eye;
    if (d.x * d.x + d.y * d.y + d.z * d.z < 1e-8f)
        throw Error(ErrorCode::BadValue, where + ": eye and target are the same point; the view has no direction");
    if (std::fabs(d.y) > 0.9999f * std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z))
        throw Error(ErrorCode::BadValue,
                    where + ": the eye looks straight up or down; the view's up (+y) is undefined");
    return key;
}
}  // namespace

namespace {
// A key as read, with the file:line of its time (for the order's message).
struct ReadKey {
    render::CameraKey key;
    std::string timeLine;
};

// The file's [[key]] tables in file order, each checked alone (its keys and values), none about the order.
std::vector<ReadKey> readKeyTables(const fs::path& file) {
    const std::string f = file.string();
    std::error_code ec;
    if (const auto size = fs::file_size(file, ec); !ec && size > (4u << 20))
        throw Error(ErrorCode::BadFile, f + ": " + std::to_string(size) + " bytes; a camera path is at most 4 MiB");
    const toml::table t = parseTomlFile(file);
    for (const auto& [name, node] : t)
        if (name.str() != "key" || !node.is_array_of_tables())
            throw Error(ErrorCode::BadFile, tomlLine(f, node) + ": '" + std::string(name.str()) +
                                                "': a camera path is a list of [[key]] tables, and nothing else");
    std::vector<ReadKey> out;
    if (const toml::array* keys = t["key"].as_array())
        for (const toml::node& node : *keys) {
            const toml::table& k = *node.as_table();
            out.push_back({loadKey(k, f), tomlLine(f, k.get("time") ? *k.get("time") : node)});
        }
    return out;
}
}  // namespace

std::vector<render::CameraKey> loadCameraPath(const fs::path& file) {
    const std::vector<ReadKey> read = readKeyTables(file);
    if (read.size() < 2)
        throw Error(ErrorCode::BadFile, file.string() + ": " + std::to_string(read.size()) +
                                            " [[key]] table(s); a camera path needs at least 2 keys");
    std::vector<render::CameraKey> keys;
    for (const ReadKey& r : read) {
        if (!keys.empty() && !(r.key.time > keys.back().time))
            throw Error(ErrorCode::BadFile,
                        r.timeLine + ": time: " + core::formatFloat(static_cast<float>(r.key.time)) +
                            " does not follow the key before it (" +
                            core::formatFloat(static_cast<float>(keys.back().time)) + "); times must increase");
        keys.push_back(r.key);
    }
    return keys;
}

std::string cameraPathWith(const fs::path& file, const render::CameraKey& key) {
    std::vector<render::CameraKey> keys;
    std::error_code ec;
    if (fs::exists(file, ec))
        for (const ReadKey& r : readKeyTables(file)) keys.push_back(r.key);
    std::erase_if(keys, [&](const render::CameraKey& k) { return k.time == key.time; });
    keys.insert(std::upper_bound(keys.begin(), keys.end(), key.time,
                                 [](double t, const render::CameraKey& k) { return t < k.time; }),
                key);
    std::string text =
        "# a camera path (firelab run --camera path --camera-path FILE): time in simulated seconds, "
        "eye and target in m, fov in degrees\n";
    for (const auto& k : keys) text += "\n" + cameraKeyToml(k);
    return text;
}

fs::path resolveCameraPath(const std::string& text) {
    return resolveDataFile(text, fs::path("experiments") / "cameras");
}

namespace {
// The keys of the file --camera-path names; errors say "--camera-path TEXT: " and why.
std::vector<render::CameraKey> readPathSetting(const std::string& text) {
    try {
        return loadCameraPath(resolveCameraPath(text));
    } catch (const Error& e) {
        throw Error(e.code(), "--camera-path " + text + ": " + e.what());
    }
}
}  // namespace

std::vector<render::CameraKey> cameraKeys(const RunSettings& s) {
    if (s.camera.mode != render::CameraMode::Path) return {};
    if (s.camera.path.empty())
        throw Error(ErrorCode::BadValue, "--camera path: no --camera-path FILE of keyframes given");
    return readPathSetting(s.camera.path);
}

void checkCamera(const RunSettings& s) {
    cameraKeys(s);
    // A file given but not followed is read too, so that a bad one never waits for --camera path.
    if (s.camera.mode != render::CameraMode::Path && !s.camera.path.empty()) readPathSetting(s.camera.path);
}

std::string cameraKeyToml(const render::CameraKey& key) {
    auto f = [](float v) { return core::formatFloat(v); };
    auto point = [&](const glm::vec3& p) { return "[" + f(p.x) + ", " + f(p.y) + ", " + f(p.z) + "]"; };
    char time[32];
    const auto end = std::to_chars(time, time + sizeof time, key.time).ptr;  // the shortest text that reads back
    std::string t(time, end);
    if (t.find_first_of(".e") == std::string::npos) t += ".0";
    return "[[key]]\ntime = " + t + "\neye = " + point(key.eye) + "\ntarget = " + point(key.target) +
           "\nfov = " + f(key.fovDeg) + "\n";
}

RunCamera::RunCamera(const RunSettings& s) : settings_(s.camera), keys_(cameraKeys(s)) {}

}  // namespace firelab::harness
