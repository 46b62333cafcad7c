#version 450 core
// compute: one fixed step of every slot, as FireSystem::integrate then killDead: the live integrate
// (v = (v + (a + turbulence) dt) e^{-drag dt}, + a (age + dt) (1 - e^{-drag dt}) with --drag-on launch, p += v dt, a bounce on the ground plane and, with --ground stage, on
// the scene's depth buffer, age += dt); the
// dead return their slot to the free list; on the frame's last step the survivors are appended to the
// draw list.
layout(local_size_x = 256) in;
#include "fire_model.glsl"
#include "depth_collision.glsl"
#include "compute_buffers.glsl"
uniform uint uCapacity;
uniform float uDt;
uniform float uDamp;    // exp(-drag dt)
uniform float uUndamp;  // --drag-on launch: 1 - uDamp (the damped part is v - a age), else 0
uniform bool uAppend;

void main() {
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < uCapacity; i += stride) {
        Particle q = particles[i];
        if (q.accelScale.w == 0.0) continue;  // a free slot
        vec3 turb = turbulenceAt(q.posAge.xyz, vec4(0.0));
        float age = q.posAge.w + uDt;
        vec3 v = (q.velLife.xyz + (q.accelScale.xyz + turb) * uDt) * uDamp + q.accelScale.xyz * (age * uUndamp);
        if (age >= q.velLife.w) {
            particles[i].accelScale.w = 0.0;
            freeList[atomicAdd(freeCount, 1)] = i;
            continue;
        }
        vec3 p = q.posAge.xyz + v * uDt;
        float stepSpeed = length(q.accelScale.xyz) * uDt;
        bool bounced = bounceOnGround(p, v, stepSpeed);
        bounced = collideWithDepth(p, v, uDt, stepSpeed) || bounced;  // both run; one bounce a step at most
        particles[i].posAge = vec4(p, age);
        particles[i].velLife.xyz = v;
        if (bounced) particles[i].look.y = min(q.look.y + 1.0, 255.0);  // sim::ParticlePool::bounces
        if (uAppend) drawList[atomicAdd(instanceCount, 1u)] = uvec2(0u, i);
    }
}
