// The medium's kernels and view rays, shared by volume-reference's and volume's compute shaders
// (render/particles/medium.h gives the model). Included after #version.
struct Kernel {  // render::Kernel
    vec4 centerSigma;
    vec4 emissionExtinction;  // rgb: emission weight, a: extinction weight (optical depth through the centre)
};
layout(std430, binding = 0) readonly buffer Kernels { Kernel kernels[]; };

uniform uint uKernelCount;
uniform vec3 uCamEye, uCamRight, uCamUp, uCamForward;
uniform vec2 uTanHalf;    // 1 / proj[0][0], 1 / proj[1][1]: the view's half extent at depth 1
uniform float uNear;      // the near plane's view depth
uniform ivec2 uTarget;    // the pass's size in pixels

const float kReach = 3.0;  // render::kKernelReach
const float kSqrt2 = 1.41421356;

// The unnormalised direction through pixel position `px` (pixels, row 0 at the bottom): forward component 1.
vec3 rayThrough(vec2 px) {
    vec2 ndc = px / vec2(uTarget) * 2.0 - 1.0;
    return uCamForward + uCamRight * (ndc.x * uTanHalf.x) + uCamUp * (ndc.y * uTanHalf.y);
}

// erf(x), Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
float erfApprox(float x) {
    float s = sign(x), a = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * a);
    float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-a * a);
    return s * y;
}

// The pixel rectangle (inclusive lo, exclusive hi, unclipped) a kernel's reach covers; false when it lies
// wholly behind the near plane. A kernel that crosses the near plane covers the whole target.
bool kernelRect(Kernel k, out vec2 lo, out vec2 hi) {
    vec3 v = k.centerSigma.xyz - uCamEye;
    float r = kReach * k.centerSigma.w;
    float z = dot(v, uCamForward);
    if (z + r < uNear) return false;
    if (z - r <= uNear) {
        lo = vec2(0.0), hi = vec2(uTarget);
        return true;
    }
    vec2 xy = vec2(dot(v, uCamRight), dot(v, uCamUp));
    // The view-space box around the sphere, projected: its extreme corners bound the sphere's image.
    vec2 a = (xy - r) / uTanHalf, b = (xy + r) / uTanHalf;
    vec2 ndcLo = min(a / (z - r), a / (z + r)), ndcHi = max(b / (z - r), b / (z + r));
    lo = (ndcLo * 0.5 + 0.5) * vec2(uTarget);
    hi = (ndcHi * 0.5 + 0.5) * vec2(uTarget);
    return true;
}
