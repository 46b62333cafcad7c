#version 450 core
// One sprite fetch and a multiply: additive light, premultiplied.
uniform sampler2D uSprite;
in vec2 vUv;
flat in vec4 vColor;
out vec4 fragColor;
void main() {
    vec4 s = texture(uSprite, vUv);
    fragColor = vColor * vec4(s.rgb * s.a, s.a);
}
