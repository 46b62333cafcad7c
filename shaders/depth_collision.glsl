// --ground stage in the compute strategy: particles collide with the scene's depth buffer (the logs, the stone,
// the ground as the camera saw them on the last frame drawn), as GPU particle systems do (Unity VFX Graph's and
// Niagara's depth-buffer collision). A particle that moved behind the visible surface, by less than
// uCollisionThickness, is put back on it and bounces as sim::bounceOnGround does on the plane: restitution x its
// normal speed, tangential speed x (1 - friction). Only a particle that crossed the surface during the step collides:
// one that began the step behind it already (born behind a log, or passing behind one) goes on. The normal comes
// from the depth buffer's neighbours. What the camera does not see (the back of a log, the ground under it) does not
// collide, and a particle that moves more than the thickness past a surface in one step passes it: the method's
// limits, which the CPU's exact boxes do not have.
// Included after fire_model.glsl (uRestitution, uFriction).
uniform bool uDepthCollide;          // a depth to collide with has been given
uniform sampler2D uCollisionDepth;   // the scene's depth (depth-buffer values)
uniform mat4 uCollisionViewProj;     // the camera it was drawn from
uniform mat4 uCollisionInvViewProj;
uniform vec3 uCollisionEye;
uniform float uCollisionThickness;   // m: how far behind a surface still counts as inside it

vec3 unprojectDepth(vec2 pixel, float depth) {
    vec2 ndc = pixel / vec2(textureSize(uCollisionDepth, 0)) * 2.0 - 1.0;
    vec4 w = uCollisionInvViewProj * vec4(ndc, depth * 2.0 - 1.0, 1.0);
    return w.xyz / w.w;
}

// The visible surface's point at the pixel, or false where the depth buffer holds nothing (the cleared far plane).
bool surfaceAt(ivec2 pixel, out vec3 s) {
    ivec2 size = textureSize(uCollisionDepth, 0);
    if (any(lessThan(pixel, ivec2(0))) || any(greaterThanEqual(pixel, size))) return false;
    float d = texelFetch(uCollisionDepth, pixel, 0).r;
    s = unprojectDepth(vec2(pixel) + 0.5, d);
    return d < 1.0;
}

// The surface's normal at the pixel from its neighbours on the side nearer in depth (not across an edge); false
// where an axis has no neighbour with a surface or the two tangents are parallel.
bool normalAt(ivec2 pixel, vec3 s, out vec3 n) {
    vec3 l = s, r = s, d = s, u = s;
    bool hl = surfaceAt(pixel - ivec2(1, 0), l), hr = surfaceAt(pixel + ivec2(1, 0), r);
    bool hd = surfaceAt(pixel - ivec2(0, 1), d), hu = surfaceAt(pixel + ivec2(0, 1), u);
    if (!(hl || hr) || !(hd || hu)) return false;
    vec3 dx = (hr && (!hl || distance(r, s) < distance(l, s))) ? r - s : s - l;
    vec3 dy = (hu && (!hd || distance(u, s) < distance(d, s))) ? u - s : s - d;
    vec3 c = cross(dx, dy);
    if (!(dot(c, c) > 1e-20)) return false;
    n = normalize(c);
    if (dot(n, uCollisionEye - s) < 0.0) n = -n;
    return true;
}

// Returns whether it bounced (as bounceOnGround; stepSpeed: |a| dt).
bool collideWithDepth(inout vec3 p, inout vec3 v, float dt, float stepSpeed) {
    if (!uDepthCollide) return false;
    vec4 c = uCollisionViewProj * vec4(p, 1.0);
    if (c.w <= 0.0) return false;
    vec3 ndc = c.xyz / c.w;
    if (any(greaterThan(abs(ndc), vec3(1.0)))) return false;
    ivec2 pixel = ivec2((ndc.xy * 0.5 + 0.5) * vec2(textureSize(uCollisionDepth, 0)));
    vec3 s;
    if (!surfaceAt(pixel, s)) return false;
    float depth = texelFetch(uCollisionDepth, pixel, 0).r;
    if (ndc.z * 0.5 + 0.5 <= depth) return false;  // in front of the surface
    vec3 n;
    if (!normalAt(pixel, s, n)) return false;
    float below = dot(s - p, n);  // how far behind the surface, along its normal
    if (!(below >= 0.0 && below <= uCollisionThickness)) return false;
    if (dot(s - (p - v * dt), n) > 1e-3) return false;  // behind it already when the step began: it did not cross it
    // As sim::bounceOnBox: the step's slide along the surface is cut by the friction too.
    float vn = dot(v, n);
    vec3 tangential = v - vn * n;
    p += n * (below * (1.0 + uRestitution) + 1e-4) - uFriction * tangential * dt;
    v = tangential * (1.0 - uFriction) + abs(vn) * uRestitution * n;
    return isBounce(abs(vn), abs(vn) * uRestitution, stepSpeed);
}
