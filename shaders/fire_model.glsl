// The fire model of src/sim on the GPU (gpu-stateless, compute): the counter-based generator of
// src/sim/random.h with the same bits, the emitter and birth state of src/sim/emitter.cpp draw for draw,
// the curl turbulence field with the CPU's fastCos (src/sim/turbulence.h) and size over life.
// Included after #version. Keyed by the same birth number, compute draws the births of the CPU model;
// they agree to float rounding (transcendentals differ in the last bits; a rejection test on the edge
// may go the other way, rarely).

#include "pcg_hash.glsl"

uniform int uShape;         // sim::EmitterShape: 0 rect, 1 circle, 2 sphere, 3 ring
uniform int uDistribution;  // sim::Distribution: 0 uniform, 1 normal
uniform vec3 uCenter, uExtent;
uniform float uSigma;
uniform float uConeCos;  // cos of the cone half-angle
uniform bool uEmitterRotated;
uniform mat3 uEmitterRotation;  // sim::EmitterTransform
uniform vec3 uPathAmplitude, uPathFrequency;  // sim::pathOffset: the emitter carried along a path
uniform vec3 uSpeedMean, uSpeedVar, uAccelMean, uAccelVar;
uniform float uDrag;
uniform bool uDragLaunch;  // sim::DragOn::Launch (gpu-stateless; compute steps with uUndamp)
uniform bool uGroundBounce;  // sim::Ground::Bounce
uniform float uGroundHeight, uRestitution, uFriction;
uniform float uLifetimeMean, uLifetimeVar;
uniform float uSizeStart, uSizeEnd, uSizeVar;
uniform uvec2 uSeed;  // the 64-bit seed, low and high words

// The field sum_i amp_i cos(k_i . p + phase_i): setTurbulenceUniforms() fills the waves at the current time.
uniform vec3 uWaveK[4], uWaveAmp[4];
uniform float uWavePhase[4];

const float kTwoPi = 6.283185307179586;

// A particle as the compute strategy stores it (std430, 64 bytes). Dead slots have scale 0.
struct Particle {
    vec4 posAge;      // position, age (s)
    vec4 velLife;     // velocity, lifetime (s)
    vec4 accelScale;  // acceleration, size scale (0: the slot is free)
    vec4 look;        // rnd (its look: particle_look.glsl), bounces (sim::ParticlePool::bounces), unused
};

// sim::Rng: the stream keyed by the seed and a 64-bit counter (lo, hi): the birth number (compute), or
// slot and life (gpu-stateless). The same bits as the CPU; uniform01 and symmetric are exact, so they
// give the same floats too; normal2 goes through log, sqrt, cos and sin, which differ in the last bits.
uint rngInit(uint lo, uint hi) {
    return pcgHash(uSeed.x ^ pcgHash(uSeed.y ^ pcgHash(lo ^ pcgHash(hi))));
}
uint rngNext(inout uint s) {
    uint word = pcgHash(s);
    s = s * 747796405u + 2891336453u;
    return word;
}
float uniform01(inout uint s) { return float(rngNext(s) >> 8) * (1.0 / 16777216.0); }  // [0, 1)
float symmetric(inout uint s) { return uniform01(s) * 2.0 - 1.0; }                    // [-1, 1)
vec2 normal2(inout uint s) {  // two independent standard normals (Box-Muller: no loop, no spare)
    float r = sqrt(-2.0 * log(1.0 - uniform01(s)));
    float phi = kTwoPi * uniform01(s);
    return r * vec2(cos(phi), sin(phi));
}

// src/sim/emitter.cpp, draw for draw (every draw a statement of its own, in the CPU's order).
// Bounded rejection: after kMaxRejectionTries misses the point is drawn uniformly in the region; the
// proposal is the normal while sigma <= kWideSigma, the uniform weighted by the normal beyond.
const int kMaxRejectionTries = 32;
const float kWideSigma = 0.7;

float normalWeight(float r2) { return exp(-0.5 * r2 / (uSigma * uSigma)); }

// sim's truncatedNormal<>, written out per dimension (GLSL has no templates).
float truncatedNormal1(inout uint s) {  // N(0, sigma^2) conditioned on [-1, 1]
    for (int i = 0; i < kMaxRejectionTries; ++i) {
        if (uSigma > kWideSigma) {
            float x = symmetric(s);
            if (uniform01(s) < normalWeight(x * x)) return x;
        } else {
            float x = normal2(s).x * uSigma;
            if (x * x <= 1.0) return x;
        }
    }
    return symmetric(s);
}

vec2 uniformDisc(inout uint s) {
    float r = sqrt(uniform01(s));
    float phi = kTwoPi * uniform01(s);
    return vec2(r * cos(phi), r * sin(phi));
}

vec2 truncatedNormalDisc(inout uint s) {
    for (int i = 0; i < kMaxRejectionTries; ++i) {
        if (uSigma > kWideSigma) {
            vec2 v = uniformDisc(s);
            if (uniform01(s) < normalWeight(dot(v, v))) return v;
        } else {
            vec2 v = normal2(s) * uSigma;
            if (dot(v, v) <= 1.0) return v;
        }
    }
    return uniformDisc(s);
}

vec3 uniformUnitVector(inout uint s) {
    float z = symmetric(s);
    float phi = kTwoPi * uniform01(s);
    float r = sqrt(max(0.0, 1.0 - z * z));
    return vec3(r * cos(phi), z, r * sin(phi));
}

vec3 uniformBall(inout uint s) {
    vec3 d = uniformUnitVector(s);
    return d * pow(uniform01(s), 1.0 / 3.0);
}

vec3 truncatedNormalBall(inout uint s) {
    for (int i = 0; i < kMaxRejectionTries; ++i) {
        if (uSigma > kWideSigma) {
            vec3 v = uniformBall(s);
            if (uniform01(s) < normalWeight(dot(v, v))) return v;
        } else {
            vec2 xy = normal2(s);
            float z = normal2(s).x;
            vec3 v = vec3(xy, z) * uSigma;
            if (dot(v, v) <= 1.0) return v;
        }
    }
    return uniformBall(s);
}

vec3 samplePosition(inout uint s) {
    bool normal = uDistribution == 1;
    if (uShape == 0) {  // rect: x, y (only when it has depth), z
        float x = normal ? truncatedNormal1(s) : symmetric(s);
        float y = uExtent.y > 0.0 ? (normal ? truncatedNormal1(s) : symmetric(s)) : 0.0;
        float z = normal ? truncatedNormal1(s) : symmetric(s);
        return uCenter + vec3(x, y, z) * uExtent;
    }
    if (uShape == 1) {  // circle
        vec2 v = normal ? truncatedNormalDisc(s) : uniformDisc(s);
        return uCenter + vec3(v.x, 0.0, v.y) * uExtent.x;
    }
    if (uShape == 3) {  // ring: the edge, an azimuth
        float phi = kTwoPi * uniform01(s);
        return uCenter + vec3(cos(phi), 0.0, sin(phi)) * uExtent.x;
    }
    return uCenter + (normal ? truncatedNormalBall(s) : uniformBall(s)) * uExtent.x;  // sphere
}

vec3 sampleDirection(vec3 position, inout uint s) {
    if (uShape == 2) {
        vec3 d = position - uCenter;
        float len = length(d);
        return len > 1e-6 ? d / len : uniformUnitVector(s);
    }
    if (uShape == 3) {  // ring: outwards through the particle's azimuth, tilted by the cone's angle
        vec2 r = position.xz - uCenter.xz;
        float len = length(r);
        vec2 o = len > 1e-6 ? r / len : vec2(1.0, 0.0);
        float sinA = sqrt(max(0.0, 1.0 - uConeCos * uConeCos));
        return vec3(o.x * sinA, uConeCos, o.y * sinA);
    }
    float cosT = 1.0 - uniform01(s) * (1.0 - uConeCos);  // uniform over the spherical cap
    float sinT = sqrt(max(0.0, 1.0 - cosT * cosT));
    float phi = kTwoPi * uniform01(s);
    return vec3(sinT * cos(phi), cosT, sinT * sin(phi));
}

// sim::fromEmissionFrame: the minimal rotation taking +y to dir (Rodrigues), applied to `local`.
vec3 fromEmissionFrame(vec3 dir, vec3 local) {
    float c = dir.y;
    vec3 v = vec3(dir.z, 0.0, -dir.x);
    float s2 = dir.x * dir.x + dir.z * dir.z;
    if (c < 0.0 && s2 < 1e-30) return vec3(local.x, -local.y, -local.z);
    float k = c >= 0.0 ? 1.0 / (1.0 + c) : (1.0 - c) / s2;
    return c * local + cross(v, local) + v * (dot(v, local) * k);
}

// sim::Birth: a particle's initial state, drawn as sim::sampleBirth draws it. rnd (its look, as the CPU
// pool's) is drawn last.
struct Birth {
    vec3 pos, vel, accel;
    float life, scale, rnd;
};

// sim::pathOffset: where the path has taken the emitter at time t.
vec3 pathOffset(float t) {
    if (uPathAmplitude == vec3(0.0)) return vec3(0.0);
    vec3 w = kTwoPi * uPathFrequency * t;
    return uPathAmplitude * vec3(sin(w.x), sin(w.y), cos(w.z));
}

// birthTime: when the particle is born (the emitter's path puts it there).
Birth sampleBirth(inout uint s, float birthTime) {
    Birth b;
    b.pos = samplePosition(s);
    vec3 dir = sampleDirection(b.pos, s);
    vec3 localV;
    for (int a = 0; a < 3; ++a) localV[a] = uSpeedMean[a] + symmetric(s) * uSpeedVar[a];
    b.vel = fromEmissionFrame(dir, localV);
    if (uEmitterRotated) {
        b.pos = uCenter + uEmitterRotation * (b.pos - uCenter);
        b.vel = uEmitterRotation * b.vel;
    }
    b.pos += pathOffset(birthTime);
    if (uGroundBounce) b.pos.y = max(b.pos.y, uGroundHeight);  // sim::aboveGround
    for (int a = 0; a < 3; ++a) b.accel[a] = uAccelMean[a] + symmetric(s) * uAccelVar[a];
    b.life = uLifetimeMean + symmetric(s) * uLifetimeVar;
    b.scale = 1.0 + symmetric(s) * uSizeVar;
    b.rnd = uniform01(s);
    return b;
}

// sim::fastCos: the CPU update's cosine approximation (about 1e-3), so that trajectories agree.
// roundEven(y) is the CPU's (y + 1.5 * 2^23) - 1.5 * 2^23, which a shader compiler may fold away.
float fastCos(float x) {
    float y = x * 0.15915494309189535 + 0.25;
    y -= roundEven(y);
    float s = 8.0 * y - 16.0 * y * abs(y);
    return 0.225 * (s * abs(s) - s) + s;
}

// The curl field with every wave's phase shifted by phaseShift[i] (0: now), as sim::evaluateTurbulence.
vec3 turbulenceAt(vec3 p, vec4 phaseShift) {
    vec3 r = vec3(0.0);
    for (int i = 0; i < 4; ++i) r += uWaveAmp[i] * fastCos(dot(uWaveK[i], p) + uWavePhase[i] + phaseShift[i]);
    return r;
}

// sim::kRestSpeed (m/s) and sim::contactOf: whether a contact hit at `hit` and left at `leave` is a bounce, not the
// touch of a particle resting on the surface (stepSpeed: |a| dt, what one step's acceleration gives).
const float kRestSpeed = 0.05, kRestSteps = 3.0;
bool isBounce(float hit, float leave, float stepSpeed) { return hit > kRestSteps * stepSpeed && leave >= kRestSpeed; }

// sim::bounceOnGround (src/sim/ground.h): after a move that ended below the plane, leave it upward at
// restitution x the normal speed, the overshoot reflected above it at the same fraction. Returns whether it
// bounced (sim::Contact::Bounce).
bool bounceOnGround(inout vec3 p, inout vec3 v, float stepSpeed) {
    if (!uGroundBounce || !(p.y < uGroundHeight)) return false;
    float hit = abs(v.y);
    p.y = uGroundHeight + (uGroundHeight - p.y) * uRestitution;
    v.y = hit * uRestitution;
    v.xz *= 1.0 - uFriction;
    return isBounce(hit, v.y, stepSpeed);
}

// sim::sizeAt
float sizeAt(float normalisedAge, float scale) {
    return (uSizeStart + (uSizeEnd - uSizeStart) * normalisedAge) * scale;
}
