// The light the scene and lit particles (--lit) receive: the moon from above, and the fire's. The fire's is
// the point lights fitted to the flame each frame (render::Scene::setFireLights, sim/fire_light.h), each by
// Lambert's law with inverse-square falloff (d^2 at least kMinLightDistance2, against the singularity), or,
// with --fire-light 0, a static warm glow falling off with distance from the flame. render::Scene fills the
// block when the lights change and binds it when it draws; the particle passes that follow read it.
#ifndef MAX_FIRE_LIGHTS
#define MAX_FIRE_LIGHTS 16  // render::Scene::kMaxFireLights
#endif
layout(std140, binding = 1) uniform FireLights {
    vec4 uFireLightPos[MAX_FIRE_LIGHTS];        // xyz (m)
    vec4 uFireLightIntensity[MAX_FIRE_LIGHTS];  // rgb: the irradiance at distance d is intensity * cos / d^2
    int uFireLightCount;
    int uFireLit;  // 1: the fitted lights (uFireLightCount of them, maybe none); 0: the static glow
};
const float kMinLightDistance2 = 0.05;  // m^2

// The moon and the sky: what every side receives, the upper more.
vec3 moonLight(vec3 n) { return vec3(0.25 + 0.35 * max(dot(n, normalize(vec3(0.3, 1.0, 0.2))), 0.0)); }

// The fire's irradiance at p on a surface facing n; with translucency t > 0 (a puff of smoke, not a wall), the
// light falling on the side facing away from n also counts, t times: what the puff lets through and scatters
// on towards its front (smoke between the eye and the fire glows).
// What a surface takes of light arriving at cosine c to its normal: Lambert's on its side, t times on the other.
float received(float c, float t) { return max(c, 0.0) + t * max(-c, 0.0); }

vec3 fireLightAt(vec3 p, vec3 n, float t) {
    if (uFireLit == 0) {  // the static glow
        vec3 toFire = vec3(0.0, 0.5, 0.0) - p;
        float d = length(toFire);
        return received(dot(n, toFire / max(d, 1e-3)), t) * 1.6 / (1.0 + 2.5 * d * d) * vec3(1.0, 0.55, 0.2);
    }
    vec3 sum = vec3(0.0);
    for (int k = 0; k < uFireLightCount; ++k) {
        vec3 toLight = uFireLightPos[k].xyz - p;
        float d2 = dot(toLight, toLight);
        float c = dot(n, toLight * inversesqrt(max(d2, 1e-12)));
        sum += uFireLightIntensity[k].rgb * received(c, t) / max(d2, kMinLightDistance2);
    }
    return sum;
}

// Everything an opaque surface at p facing n receives.
vec3 lightAt(vec3 p, vec3 n) { return moonLight(n) + fireLightAt(p, n, 0.0); }
