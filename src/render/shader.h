// GLSL programs loaded from files under shaders/. A line `#include "name.glsl"` is replaced by that
// file (one level deep is all the shaders need). A compile or link failure throws
// firelab::Error(ShaderCompile) naming the file, the stage and the driver's log (trimmed).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "render/gl.h"

namespace firelab::gl {

class Program {
public:
    Program() = default;
    // Stages are chosen by extension: .vert .geom .frag .comp. Paths relative to shaderDir.
    Program(const std::filesystem::path& shaderDir, const std::vector<std::string>& files);

    GLuint id() const { return program_.id(); }
    void use() const { glUseProgram(program_.id()); }
    GLint location(const char* name) const { return glGetUniformLocation(program_.id(), name); }

    void set(const char* name, float v) const { glProgramUniform1f(id(), location(name), v); }
    void set(const char* name, int v) const { glProgramUniform1i(id(), location(name), v); }
    void set(const char* name, unsigned v) const { glProgramUniform1ui(id(), location(name), v); }
    void set(const char* name, const glm::vec2& v) const { glProgramUniform2f(id(), location(name), v.x, v.y); }
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
    ProgramObject program_;
};

// The source of `file` with its #include lines expanded. Throws MissingFile naming the file.
std::string loadShaderSource(const std::filesystem::path& shaderDir, const std::string& file);

}  // namespace firelab::gl
