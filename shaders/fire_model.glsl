// The fire model of src/sim on the GPU (gpu-stateless, compute): a counter-keyed hash RNG, the
// emitter (src/sim/emitter.cpp), a particle's birth state in the order FireSystem::emit draws it, the
// curl turbulence field (src/sim/turbulence.h) and size over life. Included after #version.
// The random bits differ from the CPU's PCG32 streams; the distributions are the same.

uniform int uShape;         // sim::EmitterShape: 0 rect, 1 circle, 2 sphere
uniform int uDistribution;  // sim::Distribution: 0 uniform, 1 normal
uniform vec3 uCenter, uExtent;
uniform float uSigma;
uniform float uConeCos;  // cos of the cone half-angle
uniform vec3 uSpeedMean, uSpeedVar, uAccelMean, uAccelVar;
uniform float uDrag;
uniform float uLifetimeMean, uLifetimeVar;
uniform float uSizeStart, uSizeEnd, uSizeVar;
uniform uvec2 uSeed;  // the 64-bit seed, low and high words

// The field sum_i amp_i cos(k_i . p + phase_i): setTurbulenceUniforms() fills the waves at the current time.
uniform vec3 uWaveK[4], uWaveAmp[4];
uniform float uWavePhase[4];

const float kTwoPi = 6.283185307179586;

// A particle as the compute strategy stores it (std430, 48 bytes). Dead slots have scale 0.
struct Particle {
    vec4 posAge;      // position, age (s)
    vec4 velLife;     // velocity, lifetime (s)
    vec4 accelScale;  // acceleration, size scale (0: the slot is free)
};

// PCG hash (Jarzynski & Olano 2020, "Hash Functions for GPU Rendering").
uint pcgHash(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// A random stream keyed by the seed and two counters (birth number, or slot and life).
uint rngInit(uint a, uint b) {
    return pcgHash(uSeed.x ^ pcgHash(uSeed.y ^ pcgHash(a ^ pcgHash(b))));
}
uint rngNext(inout uint s) {
    s = s * 747796405u + 2891336453u;
    uint word = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
    return (word >> 22u) ^ word;
}
float uniform01(inout uint s) { return float(rngNext(s) >> 8) * (1.0 / 16777216.0); }  // [0, 1)
float symmetric(inout uint s) { return uniform01(s) * 2.0 - 1.0; }                    // [-1, 1]
vec2 normal2(inout uint s) {  // two independent standard normals (Box-Muller: no rejection loop)
    float r = sqrt(-2.0 * log(1.0 - uniform01(s)));
    float phi = kTwoPi * uniform01(s);
    return r * vec2(cos(phi), sin(phi));
}

// Rejection sampling as on the CPU, but bounded: after 32 misses (only when sigma is so wide that the
// truncated normal is nearly flat over the region) the point is drawn uniformly in the region instead.
const int kMaxTries = 32;

float truncatedNormal(inout uint s, float limit) {
    for (int i = 0; i < kMaxTries; ++i) {
        float x = normal2(s).x;
        if (abs(x) <= limit) return x;
    }
    return symmetric(s) * limit;
}

vec3 uniformUnitVector(inout uint s) {
    float z = symmetric(s);
    float phi = kTwoPi * uniform01(s);
    float r = sqrt(max(0.0, 1.0 - z * z));
    return vec3(r * cos(phi), z, r * sin(phi));
}

vec3 samplePosition(inout uint s) {
    bool normal = uDistribution == 1;
    if (uShape == 0) {  // rect
        if (!normal) return uCenter + vec3(symmetric(s) * uExtent.x, 0.0, symmetric(s) * uExtent.z);
        float lim = 1.0 / uSigma;  // the region's edge, in sigmas
        float x = truncatedNormal(s, lim), z = truncatedNormal(s, lim);
        return uCenter + vec3(x * uSigma * uExtent.x, 0.0, z * uSigma * uExtent.z);
    }
    float r = uExtent.x;
    if (uShape == 1) {  // circle
        if (normal) {
            for (int i = 0; i < kMaxTries; ++i) {  // isotropic 2-D normal truncated to the disc
                vec2 xz = normal2(s) * uSigma;
                if (dot(xz, xz) <= 1.0) return uCenter + vec3(xz.x * r, 0.0, xz.y * r);
            }
        }
        float rr = r * sqrt(uniform01(s));
        float phi = kTwoPi * uniform01(s);
        return uCenter + vec3(rr * cos(phi), 0.0, rr * sin(phi));
    }
    if (normal) {  // sphere: isotropic 3-D normal truncated to the ball
        for (int i = 0; i < kMaxTries; ++i) {
            vec3 v = vec3(normal2(s), normal2(s).x) * uSigma;
            if (dot(v, v) <= 1.0) return uCenter + v * r;
        }
    }
    return uCenter + uniformUnitVector(s) * (r * pow(uniform01(s), 1.0 / 3.0));
}

vec3 sampleDirection(vec3 position, inout uint s) {
    if (uShape == 2) {
        vec3 d = position - uCenter;
        float len = length(d);
        return len > 1e-6 ? d / len : uniformUnitVector(s);
    }
    float cosT = 1.0 - uniform01(s) * (1.0 - uConeCos);  // uniform over the spherical cap
    float sinT = sqrt(max(0.0, 1.0 - cosT * cosT));
    float phi = kTwoPi * uniform01(s);
    return vec3(sinT * cos(phi), cosT, sinT * sin(phi));
}

// sim::fromEmissionFrame: the minimal rotation taking +y to dir, applied to `local`.
vec3 fromEmissionFrame(vec3 dir, vec3 local) {
    float c = dir.y;
    if (c < -0.9999) return vec3(local.x, -local.y, -local.z);
    vec3 v = vec3(dir.z, 0.0, -dir.x);
    vec3 vxs = cross(v, local);
    return local + vxs + cross(v, vxs) / (1.0 + c);
}

struct Birth {
    vec3 pos, vel, accel;
    float life, scale;
};

// A particle's initial state, drawn in the order of FireSystem::emit.
Birth sampleBirth(inout uint s) {
    Birth b;
    b.pos = samplePosition(s);
    vec3 dir = sampleDirection(b.pos, s);
    vec3 localV = uSpeedMean + vec3(symmetric(s), symmetric(s), symmetric(s)) * uSpeedVar;
    b.vel = fromEmissionFrame(dir, localV);
    b.accel = uAccelMean + vec3(symmetric(s), symmetric(s), symmetric(s)) * uAccelVar;
    b.life = uLifetimeMean + symmetric(s) * uLifetimeVar;
    b.scale = 1.0 + symmetric(s) * uSizeVar;
    return b;
}

// The curl field with every wave's phase shifted by phaseShift[i] (0: now).
vec3 turbulenceAt(vec3 p, vec4 phaseShift) {
    vec3 r = vec3(0.0);
    for (int i = 0; i < 4; ++i) r += uWaveAmp[i] * cos(dot(uWaveK[i], p) + uWavePhase[i] + phaseShift[i]);
    return r;
}

// sim::sizeAt
float sizeAt(float normalisedAge, float scale) {
    return (uSizeStart + (uSizeEnd - uSizeStart) * normalisedAge) * scale;
}
