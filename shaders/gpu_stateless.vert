#version 450 core
// gpu-stateless: every particle computed from the time alone (NVIDIA's closed form). Slot i is born
// first at aSlot.x and, if aSlot.z is 1, reborn every aSlot.w seconds (its period: its lifetime aSlot.y,
// or longer with --rate, which leaves a gap between lives); life k draws its birth state from the stream
// keyed by (seed, i, k), and the motion is integrated in closed form.
#include "particle_common.glsl"
#include "sprite_hull.glsl"
#include "fire_model.glsl"
#include "particle_look.glsl"
#define PARTICLE_EMITS
#include "particle_light.glsl"
layout(location = 0) in vec4 aSlot;  // first birth (s), lifetime (s), 1 = respawns, period (s)
uniform float uTime;
uniform float uStep;  // the stepped models' step (s): a contact counts as a bounce as theirs does (sim::contactOf)
uniform float uWaveRate[4];  // each wave's phase speed (rad/s), to evaluate the field in the past
out vec2 vUv;
flat out vec4 vColor;
flat out vec4 vNext;  // flipbookNext()

// Integrals of the drag kernel over [0, tau]: g1 = (1 - e^{-d tau})/d, g2 = (tau - g1)/d, with
// their series where d tau is small (the exact forms cancel catastrophically there).
vec2 dragIntegrals(float tau) {
    float x = uDrag * tau;
    if (x < 0.02) return vec2(tau * (1.0 - x * (0.5 - x / 6.0)), tau * tau * (0.5 - x * (1.0 / 6.0 - x / 24.0)));
    float g1 = (1.0 - exp(-x)) / uDrag;
    return vec2(g1, (tau - g1) / uDrag);
}

const int kTurbulenceSamples = 4;

// --ground bounce in closed form. The turbulence-free path is cut into segments at its contacts with
// the plane: segment i starts at time gT0[i] from gP0[i] with velocity gV0[i] and moves by the drag
// closed form under the same acceleration. A contact is the first time the segment's height comes down
// through the plane; the next segment leaves the contact point with the normal speed x -restitution and
// the tangential speed x (1 - friction), as sim::bounceOnGround. After kMaxBounces bounces, or when the
// rebound would be slower than kRestSpeed under a downward acceleration, the particle rests: the last
// segment keeps y on the plane and slides with drag (its horizontal acceleration only). Turbulence is
// left out of the contacts (it is added afterwards, over the whole life, as without the plane).
const int kMaxBounces = 4;
vec3 gP0[kMaxBounces + 2], gV0[kMaxBounces + 2];
float gT0[kMaxBounces + 2];
int gSegments = 1;
bool gRests = false;  // the last segment rests on the plane
int gBounces = 0;     // contacts left at kRestSpeed or faster (sim::ParticlePool::bounces)

// The acceleration's integrals over [0, t]: (velocity, position) per unit acceleration. --drag-on velocity: the
// drag kernel's; --drag-on launch (NVIDIA's shader): undamped, (t, t^2 / 2).
vec2 accelIntegrals(float t) { return uDragLaunch ? vec2(t, 0.5 * t * t) : dragIntegrals(t); }

// A segment of the path, from its start: p = p0 + u g1 + w s + a K2, v = u e^{-d s} + w + a K1 (K: accelIntegrals).
// u is the damped velocity, w the undamped one: 0 with --drag-on velocity; with launch, a x the particle's age at the
// segment's start (the velocity the acceleration gave it, which the drag leaves alone).
float heightAt(float y0, float u, float w, float ay, float t) {
    return y0 + u * dragIntegrals(t).x + w * t + ay * accelIntegrals(t).y;
}
float vyAt(float u, float w, float ay, float t) { return u * exp(-uDrag * t) + w + ay * accelIntegrals(t).x; }

// The downward crossing of the plane in [lo, hi] on a piece of path with y'' of one sign and y(lo) on or above
// the plane, or -1: a convex piece comes down only until its lowest point (v = 0), a concave one once at most;
// either way there iff the height at the bracket's end is below the plane. 8 bisection steps, then 2 Newton
// steps kept inside the bracket. tLow: the convex piece's lowest point, if known (else found by bisection).
float crossingIn(float y0, float u, float w, float ay, float lo, float hi, bool convex, float tLow) {
    float end = hi;
    if (convex) {
        if (vyAt(u, w, ay, lo) >= 0.0) return -1.0;
        if (tLow >= 0.0) {
            end = min(hi, tLow);
        } else if (vyAt(u, w, ay, hi) > 0.0) {
            float a = lo, b = hi;
            for (int i = 0; i < 16; ++i) {
                float mid = 0.5 * (a + b);
                if (vyAt(u, w, ay, mid) < 0.0) a = mid; else b = mid;
            }
            end = b;
        }
    }
    if (!(heightAt(y0, u, w, ay, end) < uGroundHeight)) return -1.0;
    float a = lo, b = end;
    for (int i = 0; i < 8; ++i) {
        float mid = 0.5 * (a + b);
        if (heightAt(y0, u, w, ay, mid) < uGroundHeight) b = mid; else a = mid;
    }
    float t = 0.5 * (a + b);
    for (int i = 0; i < 2; ++i) {
        float v = vyAt(u, w, ay, t);
        if (v < 0.0) t = clamp(t - (heightAt(y0, u, w, ay, t) - uGroundHeight) / v, a, b);
    }
    return t;
}

// The first time in (0, T] at which the segment comes down through the plane (y0 on or above it), or -1.
// --drag-on velocity: y'' = (ay - d u) e^{-d t} has one sign for all t, and a convex path with ay > 0 is lowest
// at e^{-d t} = ay / (ay - d u): t = ln(1 + x) / d, x = -d u / ay. --drag-on launch: y'' = ay - d u e^{-d t}
// changes sign at most once, where e^{-d t} = ay / (d u): the path is cut there into two such pieces.
float firstContact(float y0, float u, float w, float ay, float T) {
    if (!uDragLaunch) {
        bool convex = ay - uDrag * u >= 0.0;
        float tLow = T;
        if (convex && ay > 0.0 && u < 0.0) {
            float x = -uDrag * u / ay;
            tLow = x < 1e-3 ? -u / ay * (1.0 - x * (0.5 - x / 3.0)) : log(1.0 + x) / uDrag;
        }
        return crossingIn(y0, u, w, ay, 0.0, T, convex, tLow);
    }
    float r = uDrag * u != 0.0 ? ay / (uDrag * u) : -1.0;
    float cut = r > 0.0 && r < 1.0 ? min(T, -log(r) / uDrag) : T;
    float t = crossingIn(y0, u, w, ay, 0.0, cut, ay - uDrag * u >= 0.0, -1.0);
    if (t >= 0.0 || cut >= T) return t;
    return crossingIn(y0, u, w, ay, cut, T, ay >= 0.0, -1.0);  // past the inflection y'' has ay's sign
}

// The undamped velocity at the start of segment i (see heightAt), under `accel`.
vec3 undampedAt(int i, vec3 accel) { return uDragLaunch ? accel * gT0[i] : vec3(0.0); }

// Position and velocity at time s into segment i.
void segmentAt(int i, vec3 accel, float s, out vec3 p, out vec3 v) {
    vec3 w = undampedAt(i, accel);
    vec3 u = gV0[i] - w;
    vec2 g = dragIntegrals(s), k = accelIntegrals(s);
    p = gP0[i] + u * g.x + w * s + accel * k.y;
    v = u * exp(-uDrag * s) + w + accel * k.x;
}

// The segments of the path over [0, tau] (one, the free flight, without --ground bounce).
void findSegments(Birth b, float tau) {
    gP0[0] = b.pos;
    gV0[0] = b.vel;
    gT0[0] = 0.0;
    gSegments = 1;
    gRests = false;
    gBounces = 0;
    if (!uGroundBounce) return;
    for (int i = 0; i <= kMaxBounces; ++i) {
        float w = undampedAt(i, b.accel).y;
        float tc = firstContact(gP0[i].y, gV0[i].y - w, w, b.accel.y, tau - gT0[i]);
        if (tc < 0.0) return;
        vec3 pc, vc;
        segmentAt(i, b.accel, tc, pc, vc);
        pc.y = uGroundHeight;
        vc.xz *= 1.0 - uFriction;
        float hit = -vc.y;
        vc.y = hit * uRestitution;
        if (isBounce(hit, vc.y, length(b.accel) * uStep)) ++gBounces;
        gRests = i == kMaxBounces || (b.accel.y <= 0.0 && vc.y < kRestSpeed);
        // At rest the CPU's particle hops through the plane every step and each hop takes the fraction
        // friction of its sliding speed: with friction it stops within a few steps, without it slides on.
        if (gRests) vc = vec3(uFriction > 0.0 ? vec2(0.0) : vc.xz, 0.0).xzy;
        gP0[i + 1] = pc;
        gV0[i + 1] = vc;
        gT0[i + 1] = gT0[i] + tc;
        gSegments = i + 2;
        if (gRests) return;
    }
}

// Position and velocity on the turbulence-free path at time s in [0, tau].
void pathAt(vec3 accel, float s, out vec3 p, out vec3 v) {
    int k = 0;
    for (int i = 1; i < gSegments; ++i)
        if (gT0[i] <= s) k = i;
    if (gRests && k == gSegments - 1) accel.y = 0.0;
    segmentAt(k, accel, s - gT0[k], p, v);
}

void main() {
    float since = uTime - aSlot.x;
    float life = aSlot.y;
    float k = floor(since / aSlot.w);
    float tau = since - k * aSlot.w;
    // Not born yet, a burst particle gone, or between two lives (only a period longer than the life has a gap).
    if (since < 0.0 || (aSlot.z == 0.0 ? since >= life : aSlot.w > life && tau >= life)) {
        gl_Position = kCulledPosition;
        vUv = vec2(0.0);
        vColor = vec4(0.0);
        vNext = vec4(0.0);
        return;
    }
    tau = clamp(tau, 0.0, life);
    uint rng = rngInit(uint(gl_InstanceID), uint(k));
    Birth b = sampleBirth(rng, aSlot.x + k * aSlot.w);

    // dv/dt = a - d v exactly: p = p0 + v0 g1 + a g2, v = v0 e^{-d tau} + a g1, segment by segment (--drag-on
    // launch: p = p0 + v0 g1 + a tau^2 / 2, v = v0 e^{-d tau} + a tau, NVIDIA's closed form).
    findSegments(b, tau);
    vec3 p, v;
    pathAt(b.accel, tau, p, v);

    // Turbulence has no closed form: a midpoint quadrature of its response over the particle's life,
    // each sample the field at the time it acted, at the turbulence-free position of that time.
    vec4 rate = vec4(uWaveRate[0], uWaveRate[1], uWaveRate[2], uWaveRate[3]);
    float h = tau / float(kTurbulenceSamples);
    for (int j = 0; j < kTurbulenceSamples; ++j) {
        float s = (float(j) + 0.5) * h;
        vec3 ps, vs;
        pathAt(b.accel, s, ps, vs);
        vec3 f = turbulenceAt(ps, -rate * (tau - s)) * h;
        // A contact restarts the vertical motion from the turbulence-free path, and one resting is held
        // on the plane: only the vertical push since the last contact counts, none while resting.
        if (gRests || s < gT0[gSegments - 1]) f.y = 0.0;
        p += f * dragIntegrals(tau - s).x;
        v += f * exp(-uDrag * (tau - s));
    }
    // Turbulence may push a particle on the plane below it: it stays on the plane (sim's guarantee).
    if (uGroundBounce && p.y < uGroundHeight) {
        p.y = uGroundHeight;
        v.y = max(v.y, 0.0);
    }

    float t = tau / life;
    float size = spriteSize(p, sizeAt(t, b.scale));
    vec2 uv = hullUv(gl_VertexID, t, hullSlot(p, size));  // the sprite polygon's strip
    float fade = cameraFade(p);
    float angle = spriteAngle(b.rnd, tau);
    vec3 side;
    vec3 corner = billboardCorner(p, size, v, uv * 2.0 - 1.0, angle, side);
    gl_Position = fade > 0.0 ? uViewProj * vec4(corner, 1.0) : kCulledPosition;
    litVertex(corner, side, billboardBack(p));
    vUv = spriteUv(uv, flipbookCell(t));
    vNext = flipbookNext(t);
    float at = colorCoordinate(t, p);
    vColor = tinted(particleColor(t, at), lookTint(b.rnd, at, float(gBounces))) * vec4(1.0, 1.0, 1.0, fade);
}
