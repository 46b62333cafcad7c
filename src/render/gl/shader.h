// GLSL programs loaded from files under shaders/. A line `#include "name.glsl"` is replaced by that
// file, its own includes expanded, each file once per program; `defines` ("NAME" or "NAME VALUE") follow the #version
// line, so one file compiles to variants. A compile or link failure throws firelab::Error(ShaderCompile)
// naming the file, the stage and the driver's log (trimmed). Uniform locations are looked up once, at
// link: setting a uniform in a frame makes no glGetUniformLocation call.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "render/gl/gl.h"

namespace firelab::gl {

class Program {
public:
    Program() = default;
    // Stages are chosen by extension: .vert .geom .frag .comp. Paths relative to shaderDir.
    Program(const std::filesystem::path& shaderDir, const std::vector<std::string>& files,
            const std::vector<std::string>& defines = {});

    GLuint id() const { return program_.id(); }
    void use() const { glUseProgram(program_.id()); }
    // -1 for a name the program does not use (setting it is then a no-op, as in GL).
    GLint location(std::string_view name) const;

    void set(const char* name, float v) const { glProgramUniform1f(id(), location(name), v); }
    void set(const char* name, int v) const { glProgramUniform1i(id(), location(name), v); }
    void set(const char* name, unsigned v) const { glProgramUniform1ui(id(), location(name), v); }
    void set(const char* name, const glm::vec2& v) const { glProgramUniform2f(id(), location(name), v.x, v.y); }
    void set(const char* name, const glm::ivec2& v) const { glProgramUniform2i(id(), location(name), v.x, v.y); }
    void set(const char* name, const glm::ivec3& v) const { glProgramUniform3i(id(), location(name), v.x, v.y, v.z); }
    void set(const char* name, const glm::vec3& v) const { glProgramUniform3f(id(), location(name), v.x, v.y, v.z); }
    void set(const char* name, const glm::vec4& v) const {
        glProgramUniform4f(id(), location(name), v.x, v.y, v.z, v.w);
    }
    void set(const char* name, const glm::mat4& m) const;
    void setArray(const char* name, const float* v, int count) const {
        glProgramUniform1fv(id(), location(name), count, v);
    }
    void setArray(const char* name, const glm::vec3* v, int count) const;

private:
    void cacheLocations();

    ProgramObject program_;
    std::vector<std::pair<std::string, GLint>> locations_;  // sorted by name; arrays also as "name"
};

// The source of `file` with its #include lines expanded (recursively, each file once). Throws MissingFile
// naming the file.
std::string loadShaderSource(const std::filesystem::path& shaderDir, const std::string& file);

// The source a Program compiles for `file` with `defines`: its includes expanded, the defines after its
// #version line, #line keeping the driver's line numbers those of the file.
std::string variantSource(const std::filesystem::path& shaderDir, const std::string& file,
                          const std::vector<std::string>& defines);

// Before compiling compute shaders, for a clear message: throws firelab::Error(GlUnsupported) naming
// `who` unless the context runs compute shaders (OpenGL 4.3 or GL_ARB_compute_shader) and its `stage`
// shaders read `blocks` storage buffers (`maxBlocks`: GL_MAX_<STAGE>_SHADER_STORAGE_BLOCKS), as `why`
// needs.
void requireComputeShaders(std::string_view who, std::string_view stage, GLenum maxBlocks, int blocks,
                           std::string_view why);

}  // namespace firelab::gl
