#version 450 core
// volume-reference: its integrated image onto the pass's target (premultiplied over the scene: light plus
// transmittance times what is behind), or in the counting passes the kernels each ray met. Drawn with
// fullscreen.vert.
uniform sampler2D uMedium;   // light, 1 - transmittance (the counts in .r while counting)
uniform int uCountOverdraw;  // DrawMode: 0 colour, else counts
out vec4 fragColor;
void main() {
    vec4 v = texelFetch(uMedium, ivec2(gl_FragCoord.xy), 0);
    if (v == vec4(0.0)) discard;
    fragColor = uCountOverdraw != 0 ? vec4(v.r) : v;
}
