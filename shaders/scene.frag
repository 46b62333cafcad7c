#version 450 core
// Moonlight from above plus the fire's warm glow, falling off with distance from the flame.
in vec3 vPos;
in vec3 vNormal;
in vec3 vColor;
out vec4 fragColor;
void main() {
    vec3 n = normalize(vNormal);
    float moon = 0.25 + 0.35 * max(dot(n, normalize(vec3(0.3, 1.0, 0.2))), 0.0);
    vec3 toFire = vec3(0.0, 0.5, 0.0) - vPos;
    float d = length(toFire);
    float glow = max(dot(n, toFire / max(d, 1e-3)), 0.0) * 1.6 / (1.0 + 2.5 * d * d);
    fragColor = vec4(vColor * (moon + glow * vec3(1.0, 0.55, 0.2)), 1.0);
}
