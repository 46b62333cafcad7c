#version 450 core
// --sort wboit's resolve (McGuire & Bavoil, JCGT 2013): the alpha layers' weighted average colour, covering
// 1 - revealage of the pixel, over the frame: frame = avg * (1 - r) + frame * r, with blending (ONE, SRC_ALPHA).
uniform sampler2D uAccum;   // RGBA16F: sum of premultiplied colour * w, sum of coverage * w
uniform sampler2D uReveal;  // R16F: the product of (1 - coverage)
out vec4 fragColor;
void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    float r = texelFetch(uReveal, px, 0).r;
    if (r >= 1.0) discard;  // no alpha fragment here
    vec4 accum = texelFetch(uAccum, px, 0);
    vec3 average = accum.rgb / max(accum.a, 1e-5);
    fragColor = vec4(average * (1.0 - r), r);
}
