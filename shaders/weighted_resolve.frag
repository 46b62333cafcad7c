#version 450 core
// The resolve of --sort wboit (McGuire & Bavoil, JCGT 2013) and --sort moment (Munstermann et al. 2018): the
// alpha layers' weighted average colour, covering 1 - T of the pixel, over the frame:
// frame = average * (1 - T) + frame * T, written as (C, T) with blending (ONE, SRC_ALPHA).
// wboit: T is the revealage, the product of (1 - coverage); moment (MOMENT 1): T = exp(-b0), b0 the summed
// absorbance, the same product computed another way.
#ifndef MOMENT
#define MOMENT 0
#endif
uniform sampler2D uAccum;   // RGBA32F: sum of premultiplied colour * w, sum of coverage * w
uniform sampler2D uReveal;  // R32F: wboit's revealage, or moment's b0
out vec4 fragColor;
void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    float r = texelFetch(uReveal, px, 0).r;
    if (MOMENT != 0) r = exp(-r);
    if (r >= 1.0) discard;  // no alpha fragment here
    vec4 accum = texelFetch(uAccum, px, 0);
    vec3 average = accum.rgb / max(accum.a, 1e-5);
    fragColor = vec4(average * (1.0 - r), r);
}
