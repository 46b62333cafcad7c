#version 450 core
// HDR to the 8-bit frame: the light times the exposure, tone-mapped. Clamp at exposure 1 is the look of
// blending in 8 bits; Reinhard (c / (1 + c)) rolls the highlights off; ACES (Narkowicz's fit of the
// filmic curve) keeps contrast and desaturates the hottest core towards white.
uniform sampler2D uFrame;
uniform float uExposure;
uniform int uTonemap;  // 0 clamp, 1 reinhard, 2 aces
in vec2 vUv;
out vec4 fragColor;
vec3 aces(vec3 x) { return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0); }
void main() {
    vec3 c = texelFetch(uFrame, ivec2(gl_FragCoord.xy), 0).rgb * uExposure;
    vec3 mapped = uTonemap == 0 ? clamp(c, 0.0, 1.0) : uTonemap == 1 ? c / (1.0 + c) : aces(c);
    fragColor = vec4(mapped, 1.0);
}
