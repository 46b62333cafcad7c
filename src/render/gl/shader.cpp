#include "render/gl/shader.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <glm/gtc/type_ptr.hpp>

#include "core/error.h"

namespace firelab::gl {
namespace {

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::MissingFile, "shader file " + path.string() + " cannot be read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

GLenum stageOf(const std::string& file, const char** stageName) {
    const auto ext = std::filesystem::path(file).extension().string();
    if (ext == ".vert") return *stageName = "vertex", GL_VERTEX_SHADER;
    if (ext == ".geom") return *stageName = "geometry", GL_GEOMETRY_SHADER;
    if (ext == ".frag") return *stageName = "fragment", GL_FRAGMENT_SHADER;
    if (ext == ".comp") return *stageName = "compute", GL_COMPUTE_SHADER;
    throw Error(ErrorCode::BadValue, "shader file " + file + ": unknown stage (use .vert .geom .frag .comp)");
}

std::string trimLog(std::string log) {
    constexpr size_t kMax = 2000;
    while (!log.empty() && (log.back() == '\n' || log.back() == '\0' || log.back() == ' ')) log.pop_back();
    if (log.size() > kMax) log = log.substr(0, kMax) + "\n...";
    return log;
}

}  // namespace

namespace {
// `file` with its #include lines expanded, recursively, each name relative to the including file's folder
// (as C's #include "..."); a file already expanded is left out (as if every file had an include guard),
// so two headers may share a third, wherever they are included from.
void expandIncludes(const std::filesystem::path& file, std::set<std::string>& seen, std::ostringstream& out) {
    std::istringstream in(readFile(file));
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.rfind("#include", 0) != 0) {
            out << line << '\n';
            continue;
        }
        const auto a = line.find('"'), b = line.rfind('"');
        if (a == std::string::npos || b <= a)
            throw Error(ErrorCode::ShaderCompile,
                        "shader file " + file.string() + ":" + std::to_string(lineNo) + ": malformed #include");
        const auto included = (file.parent_path() / line.substr(a + 1, b - a - 1)).lexically_normal();
        if (seen.insert(included.string()).second) expandIncludes(included, seen, out);
        out << "\n#line " << lineNo + 1 << "\n";
    }
}
}  // namespace

std::string loadShaderSource(const std::filesystem::path& dir, const std::string& file) {
    const auto path = (dir / file).lexically_normal();
    std::set<std::string> seen{path.string()};
    std::ostringstream out;
    expandIncludes(path, seen, out);
    return out.str();
}

namespace {
// The source with the defines after its #version line (and #line keeping the driver's line numbers).
std::string withDefines(std::string src, const std::vector<std::string>& defines) {
    if (defines.empty()) return src;
    std::string block;
    for (const auto& d : defines) block += "#define " + d + "\n";
    const size_t eol = src.find('\n');
    const size_t at = src.rfind("#version", 0) == 0 && eol != std::string::npos ? eol + 1 : 0;
    return src.insert(at, block + "#line " + std::to_string(at ? 2 : 1) + "\n");
}
}  // namespace

std::string variantSource(const std::filesystem::path& dir, const std::string& file,
                          const std::vector<std::string>& defines) {
    return withDefines(loadShaderSource(dir, file), defines);
}

void requireComputeShaders(std::string_view who, std::string_view stage, GLenum maxBlocks, int blocks,
                           std::string_view why) {
    GLint major = 0, minor = 0, stageBlocks = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major * 10 + minor < 43 && !epoxy_has_gl_extension("GL_ARB_compute_shader")) {
        const auto* v = glGetString(GL_VERSION);
        throw Error(ErrorCode::GlUnsupported, std::string(who) + " needs OpenGL 4.3 compute shaders; this context is " +
                                                  std::string(v ? reinterpret_cast<const char*>(v) : "unknown"));
    }
    glGetIntegerv(maxBlocks, &stageBlocks);
    if (stageBlocks < blocks)
        throw Error(ErrorCode::GlUnsupported, std::string(who) + " " + std::string(why) + ", but this context's " +
                                                  std::string(stage) + " shaders can read " +
                                                  std::to_string(stageBlocks) + " (it needs " + std::to_string(blocks) +
                                                  ")");
}

Program::Program(const std::filesystem::path& dir, const std::vector<std::string>& files,
                 const std::vector<std::string>& defines) {
    std::vector<GLuint> shaders;
    auto cleanup = [&] {
        for (GLuint s : shaders) glDeleteShader(s);
    };
    for (const auto& file : files) {
        const char* stage = "";
        const GLenum type = stageOf(file, &stage);
        const std::string src = variantSource(dir, file, defines);
        const GLuint sh = glCreateShader(type);
        shaders.push_back(sh);
        const char* p = src.c_str();
        glShaderSource(sh, 1, &p, nullptr);
        glCompileShader(sh);
        GLint ok = 0;
        glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            GLint len = 0;
            glGetShaderiv(sh, GL_INFO_LOG_LENGTH, &len);
            std::string log(static_cast<size_t>(std::max(len, 1)), '\0');
            glGetShaderInfoLog(sh, len, nullptr, log.data());
            cleanup();
            throw Error(ErrorCode::ShaderCompile, "shader " + (dir / file).string() + " (" + stage +
                                                      " stage) failed to compile:\n" + trimLog(log));
        }
        glAttachShader(program_.id(), sh);
    }
    glLinkProgram(program_.id());
    cleanup();
    GLint ok = 0;
    glGetProgramiv(program_.id(), GL_LINK_STATUS, &ok);
    if (!ok) {
        GLint len = 0;
        glGetProgramiv(program_.id(), GL_INFO_LOG_LENGTH, &len);
        std::string log(static_cast<size_t>(std::max(len, 1)), '\0');
        glGetProgramInfoLog(program_.id(), len, nullptr, log.data());
        std::string names;
        for (const auto& f : files) names += (names.empty() ? "" : " + ") + f;
        throw Error(ErrorCode::ShaderCompile, "program " + names + " failed to link:\n" + trimLog(log));
    }
    cacheLocations();
}

void Program::cacheLocations() {
    GLint count = 0, maxLength = 0;
    glGetProgramiv(id(), GL_ACTIVE_UNIFORMS, &count);
    glGetProgramiv(id(), GL_ACTIVE_UNIFORM_MAX_LENGTH, &maxLength);
    std::string name(static_cast<size_t>(std::max(maxLength, 1)), '\0');
    for (GLint i = 0; i < count; ++i) {
        GLsizei length = 0;
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(id(), static_cast<GLuint>(i), maxLength, &length, &size, &type, name.data());
        std::string n(name.data(), static_cast<size_t>(length));
        const GLint loc = glGetUniformLocation(id(), n.c_str());
        if (loc < 0) continue;                                                               // in a uniform block
        if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) n.resize(n.size() - 3);  // an array
        locations_.emplace_back(std::move(n), loc);
    }
    std::sort(locations_.begin(), locations_.end());
}

GLint Program::location(std::string_view name) const {
    const auto it = std::lower_bound(locations_.begin(), locations_.end(), name,
                                     [](const auto& entry, std::string_view n) { return entry.first < n; });
    return it != locations_.end() && it->first == name ? it->second : -1;
}

void Program::set(const char* name, const glm::mat4& m) const {
    glProgramUniformMatrix4fv(id(), location(name), 1, GL_FALSE, glm::value_ptr(m));
}

void Program::setArray(const char* name, const glm::vec3* v, int count) const {
    glProgramUniform3fv(id(), location(name), count, glm::value_ptr(v[0]));
}

}  // namespace firelab::gl
