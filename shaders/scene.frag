#version 450 core
// Moonlight from above plus the fire's light: without fire lights (uFireLit false) a static warm glow
// falling off with distance from the flame; with them (render::Scene::setFireLights), each point light's
// Lambert term with inverse-square falloff (d^2 at least kMinDistance2, against the singularity).
#ifndef MAX_FIRE_LIGHTS
#define MAX_FIRE_LIGHTS 16  // render::Scene compiles in its kMaxFireLights
#endif
in vec3 vPos;
in vec3 vNormal;
in vec3 vColor;
out vec4 fragColor;
uniform bool uFireLit;
uniform int uFireLightCount;
uniform vec3 uFireLightPos[MAX_FIRE_LIGHTS];
uniform vec3 uFireLightIntensity[MAX_FIRE_LIGHTS];  // RGB radiant intensity
const float kMinDistance2 = 0.05;  // m^2

vec3 fireLight(vec3 n) {
    vec3 sum = vec3(0.0);
    for (int k = 0; k < uFireLightCount; ++k) {
        vec3 toLight = uFireLightPos[k] - vPos;
        float d2 = dot(toLight, toLight);
        float cosine = max(dot(n, toLight * inversesqrt(max(d2, 1e-12))), 0.0);
        sum += uFireLightIntensity[k] * cosine / max(d2, kMinDistance2);
    }
    return sum;
}

void main() {
    vec3 n = normalize(vNormal);
    float moon = 0.25 + 0.35 * max(dot(n, normalize(vec3(0.3, 1.0, 0.2))), 0.0);
    if (uFireLit) {
        fragColor = vec4(vColor * (moon + fireLight(n)), 1.0);
        return;
    }
    vec3 toFire = vec3(0.0, 0.5, 0.0) - vPos;
    float d = length(toFire);
    float glow = max(dot(n, toFire / max(d, 1e-3)), 0.0) * 1.6 / (1.0 + 2.5 * d * d);
    fragColor = vec4(vColor * (moon + glow * vec3(1.0, 0.55, 0.2)), 1.0);
}
