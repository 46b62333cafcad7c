// The grid fluid's fields on the GPU (fluid/gpu/gpu_fluid.h): a field of size.x x size.y x size.z values, x
// fastest, as fluid::Field; uN the cells. Velocities sit on the faces (u: uN + (1,0,0) values, sample (i,j,k) at
// (i, j + 1/2, k + 1/2) cells from the grid's corner; v and w likewise), the scalars at the cell centres.
uniform ivec3 uN;

const vec3 kCentre = vec3(0.5), kFaceX = vec3(0.0, 0.5, 0.5), kFaceY = vec3(0.5, 0.0, 0.5), kFaceZ = vec3(0.5, 0.5, 0.0);

uint indexIn(ivec3 c, ivec3 size) { return uint(c.x + size.x * (c.y + size.y * c.z)); }
uint cellIndex(ivec3 c) { return indexIn(c, uN); }

// NAME(local, size, offset): the trilinear sample of BUF at `local` (cells from the grid's corner), clamped to
// the field's samples as FluidSim's sampleField is.
#define FLUID_SAMPLER(NAME, BUF)                                                                         \
    float NAME(vec3 local, ivec3 size, vec3 offset) {                                                    \
        ivec3 hi = size - 1;                                                                             \
        vec3 c = clamp(local - offset, vec3(0.0), vec3(hi));                                             \
        ivec3 a = min(ivec3(floor(c)), max(hi - 1, ivec3(0)));                                           \
        vec3 t = c - vec3(a);                                                                            \
        ivec3 b = min(a + 1, hi);                                                                        \
        float c00 = mix(BUF[indexIn(ivec3(a.x, a.y, a.z), size)], BUF[indexIn(ivec3(b.x, a.y, a.z), size)], t.x); \
        float c10 = mix(BUF[indexIn(ivec3(a.x, b.y, a.z), size)], BUF[indexIn(ivec3(b.x, b.y, a.z), size)], t.x); \
        float c01 = mix(BUF[indexIn(ivec3(a.x, a.y, b.z), size)], BUF[indexIn(ivec3(b.x, a.y, b.z), size)], t.x); \
        float c11 = mix(BUF[indexIn(ivec3(a.x, b.y, b.z), size)], BUF[indexIn(ivec3(b.x, b.y, b.z), size)], t.x); \
        return mix(mix(c00, c10, t.y), mix(c01, c11, t.y), t.z);                                         \
    }

// NAME(local, size, offset): the least and largest of the eight samples NAME's sampler would interpolate.
#define FLUID_RANGE(NAME, BUF)                                                                           \
    vec2 NAME(vec3 local, ivec3 size, vec3 offset) {                                                     \
        ivec3 hi = size - 1;                                                                             \
        vec3 c = clamp(local - offset, vec3(0.0), vec3(hi));                                             \
        ivec3 a = min(ivec3(floor(c)), max(hi - 1, ivec3(0)));                                           \
        ivec3 b = min(a + 1, hi);                                                                        \
        float lo = BUF[indexIn(a, size)], up = lo;                                                       \
        for (int q = 0; q < 8; ++q) {                                                                    \
            float x = BUF[indexIn(ivec3((q & 1) != 0 ? b.x : a.x, (q & 2) != 0 ? b.y : a.y, (q & 4) != 0 ? b.z : a.z), size)]; \
            lo = min(lo, x);                                                                             \
            up = max(up, x);                                                                             \
        }                                                                                                \
        return vec2(lo, up);                                                                             \
    }
