// compute-splat's light buffer (src/render/strategies/compute_splat_strategy.cpp): 4 uints per pixel of the pass,
// row 0 at the bottom as gl_FragCoord: the light's r, g, b in fixed point, kLightScale per unit, and
// in the counting passes the fragments counted. 2^20 per unit holds 4096 units of light per channel
// before a uint wraps: 1000 overlapping full-intensity additive fragments, with a factor 4 to spare
// for --energy-preserving's alpha scale; each fragment's light rounds to 2^-21 (1/8000 of an 8-bit level).
layout(std430, binding = 0) buffer Accum { uint accum[]; };
const float kLightScale = 1048576.0;
