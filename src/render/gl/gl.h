// Move-only owners of OpenGL objects: a distinct type per kind (a VertexArray cannot be passed where a
// Buffer belongs), copy deleted, noexcept move, id(), and the destructor deletes the object.
// Objects are created with the DSA entry points of GL 4.5 (glCreate*).
#pragma once
#include <epoxy/gl.h>

#include <type_traits>
#include <utility>

namespace firelab::gl {

template <class Traits>
class Object {
public:
    Object() : id_(Traits::create()) {}
    explicit Object(GLenum target) : id_(Traits::create(target)) {}
    ~Object() { reset(); }
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;
    Object(Object&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
    Object& operator=(Object&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, 0);
        }
        return *this;
    }
    GLuint id() const { return id_; }
    explicit operator bool() const { return id_ != 0; }

private:
    void reset() {
        if (id_) Traits::destroy(id_);
        id_ = 0;
    }
    GLuint id_ = 0;
};

struct BufferTraits {
    static GLuint create() {
        GLuint id = 0;
        glCreateBuffers(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct VertexArrayTraits {
    static GLuint create() {
        GLuint id = 0;
        glCreateVertexArrays(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct TextureTraits {
    static GLuint create(GLenum target) {
        GLuint id = 0;
        glCreateTextures(target, 1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct FramebufferTraits {
    static GLuint create() {
        GLuint id = 0;
        glCreateFramebuffers(1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct QueryTraits {
    static GLuint create(GLenum target) {
        GLuint id = 0;
        glCreateQueries(target, 1, &id);
        return id;
    }
    static void destroy(GLuint id) { glDeleteQueries(1, &id); }
};
struct ProgramTraits {
    static GLuint create() { return glCreateProgram(); }
    static void destroy(GLuint id) { glDeleteProgram(id); }
};

using Buffer = Object<BufferTraits>;
using VertexArray = Object<VertexArrayTraits>;
using Texture = Object<TextureTraits>;
using Framebuffer = Object<FramebufferTraits>;
using Query = Object<QueryTraits>;
using ProgramObject = Object<ProgramTraits>;

static_assert(!std::is_copy_constructible_v<Buffer>);
static_assert(std::is_nothrow_move_constructible_v<Buffer>);
static_assert(!std::is_same_v<Buffer, VertexArray>);

// A buffer of `bytes` bytes: glNamedBufferData with `usage` (contents undefined when data is null).
inline Buffer makeBuffer(GLsizeiptr bytes, const void* data, GLenum usage) {
    Buffer b;
    glNamedBufferData(b.id(), bytes, data, usage);
    return b;
}

// Debug-build GL error check; compiles to nothing in Release so timings stay clean.
#ifndef NDEBUG
void checkError(const char* file, int line);
#define FIRELAB_GL_CHECK() ::firelab::gl::checkError(__FILE__, __LINE__)
#else
#define FIRELAB_GL_CHECK() ((void)0)
#endif

}  // namespace firelab::gl
