// --sort moment (render/frame/order_independent.h): moment-based order-independent transparency after
// Munstermann, Krumpen, Klein & Peters, "Moment-Based Order-Independent Transparency" (PACMCGIT 1(1), 2018),
// with four power moments in 32-bit floats.
//
// A fragment of coverage a at view distance d stands for absorbance A = -ln(1 - a) at the warped depth
// x = warp(d) in [-1, 1]. The first pass sums, per pixel, b0 = sum A and b_k = sum A x^k (k = 1..4). The
// second pass asks, for each fragment, how much of b0 lies in front of it: the moments m_k = b_k / b0 are
// those of a distribution of absorbance over depth, and the one the moments pin down best is the three-point
// one with a point at x itself (the canonical representation): its weight at x is the Christoffel function
// 1 / (e(x)' H^-1 e(x)), with H the Hankel matrix of m0..m4 and e(x) = (1, x, x^2); its other two points are
// the roots of the quadratic whose coefficients are H^-1 e(x). The absorbance in front is b0 times the weight
// of the points nearer than x, plus kMomentOverestimation of the weight at x (between the lower bound, 0, and
// the upper, 1, as the paper interpolates). The derivation is ours; the paper's bias and overestimation are
// the ideas.
// Included by particle_output.glsl after view_depth.glsl.

// The moments are blended towards those of absorbance spread evenly over [-1, 1] (m = 0, 1/3, 0, 1/5) by
// kMomentBias: it keeps H positive definite when every fragment of a pixel lies at one depth. The absorbance
// in front counts kMomentOverestimation of the weight at x: the fragments at about x's depth, some of which lie
// in front (the paper takes 0.25). Both measured against the abuffer's exact order (firelab run --sort moment --reference
// 'sort=abuffer', 640x360, the explosion 0.4 s after its burst and the campfire; flip_fire):
//   bias 5e-7 0.066 / 0.005, 5e-5 0.068 / 0.006, 5e-4 0.067 / 0.008 (overestimation 0.25);
//   overestimation 0 0.150 / 0.008, 0.25 (the paper's) 0.066 / 0.005, 0.4 0.030 / 0.003, 0.5 0.047 / 0.002,
//   0.8 0.103 / 0.004 (bias 5e-7).
// A reversed draw order, and one sorted within each layer, stay within one 8-bit step at every bias tried
// (tests/render/frame/oit_gltest.cpp).
const float kMomentBias = 5e-7;
const float kMomentOverestimation = 0.4;
const float kMomentMaxCoverage = 0.9999;  // a fully opaque fragment would be infinite absorbance

#if OIT_STAGE == 5  // read by the shading pass; the accumulating pass writes them
layout(binding = 7) uniform sampler2D uMomentTotal;  // R32F: b0
layout(binding = 8) uniform sampler2D uMoments;      // RGBA32F: b1..b4
#endif

// The warp's terms for the pass's camera, set once a pass (ParticleMaterial::bind): ln near, 2 / (ln far - ln near).
uniform vec2 uMomentWarp;

// View distance -> [-1, 1], logarithmic between the projection's near and far planes (the paper's warp: depth
// resolution where the eye is).
float momentWarp(float d) { return clamp((log(d) - uMomentWarp.x) * uMomentWarp.y - 1.0, -1.0, 1.0); }

float momentAbsorbance(float coverage) { return -log(1.0 - min(coverage, kMomentMaxCoverage)); }

// The moments one fragment adds: (b0, b1..b4).
void momentsOf(float coverage, float d, out float b0, out vec4 b) {
    float x = momentWarp(d), x2 = x * x;
    b0 = momentAbsorbance(coverage);
    b = b0 * vec4(x, x2, x2 * x, x2 * x2);
}

// The fraction of the distribution with moments (1, m.x .. m.w) that lies in front of x (overestimated by
// kMomentOverestimation of its weight at x).
float momentFractionInFront(vec4 m, float x) {
    m = mix(m, vec4(0.0, 1.0 / 3.0, 0.0, 1.0 / 5.0), kMomentBias);
    // H = L D L' with H = [1 m1 m2; m1 m2 m3; m2 m3 m4]: L = [1 0 0; m1 1 0; m2 l21 1], D = diag(1, d1, d2).
    // d1, d2 > 0 in exact arithmetic (the bias); in 32 bits they may round to 0 or below: kept positive.
    float d1 = max(m.y - m.x * m.x, 1e-12);
    float l21 = (m.z - m.x * m.y) / d1;
    float d2 = max(m.w - m.y * m.y - l21 * l21 * d1, 1e-12);
    // c = H^-1 e(x): forward (L y = e), scale (D), back (L' c = y).
    float y1 = x - m.x, y2 = x * x - m.y - l21 * y1;
    float c2 = y2 / d2;
    float c1 = y1 / d1 - l21 * c2;
    float c0 = 1.0 - m.x * c1 - m.y * c2;
    float weightAtX = clamp(1.0 / (c0 + c1 * x + c2 * x * x), 0.0, 1.0);
    // The two other points: the roots of c2 t^2 + c1 t + c0 (stable form), nearest first.
    float disc = sqrt(max(c1 * c1 - 4.0 * c2 * c0, 0.0));
    float q = -0.5 * (c1 + (c1 >= 0.0 ? disc : -disc));
    q = abs(q) < 1e-30 ? 1e-30 : q;  // c1 = c0 = 0: both roots at 0 (c0 / q), not 0 / 0
    float r1 = clamp(q / c2, -1e3, 1e3), r2 = clamp(c0 / q, -1e3, 1e3);  // a root far outside [-1, 1] holds ~no weight
    float z1 = min(r1, r2), z2 = max(r1, r2);
    // Their weights carry the rest of m0 and m1.
    float rest0 = 1.0 - weightAtX, rest1 = m.x - weightAtX * x;
    float w1 = clamp((z2 * rest0 - rest1) / max(z2 - z1, 1e-7), 0.0, rest0);
    float inFront = (x > z2) ? rest0 : (x > z1 ? w1 : 0.0);
    return clamp(inFront + kMomentOverestimation * weightAtX, 0.0, 1.0);
}

#if OIT_STAGE == 5
// The transmittance in front of view distance d at this pixel.
float momentTransmittanceAt(float d) {
    ivec2 px = ivec2(gl_FragCoord.xy);
    float b0 = texelFetch(uMomentTotal, px, 0).r;
    if (b0 < 1e-5) return 1.0;
    vec4 m = texelFetch(uMoments, px, 0) / b0;
    return exp(-b0 * momentFractionInFront(m, momentWarp(d)));
}
#endif
