"""The Blender side of the Mantaflow peer (scripts/peers/mantaflow_peer.py runs it): a gas fire stepped frame by frame.

    blender --background --factory-startup --python-exit-code 1 -t THREADS \\
        --python scripts/peers/mantaflow_scene.py -- --grid N --frames F --warmup W --cache-dir DIR

It starts from an empty scene and builds:
  - a domain: a closed cube of 3.2 m edge standing on z = 0, a FLUID modifier of type DOMAIN, GAS, with
    resolution_max = N (so N^3 cells of 3.2/N m), no noise, no adaptive domain, the floor a wall and the other
    five sides open;
  - one step a frame: 60 frames a second, timesteps_min = timesteps_max = 1, no adaptive time steps and the largest
    CFL number Blender allows, so Mantaflow never cuts a frame into sub-steps;
  - a source: a closed disc 0.35 m across and 0.1 m thick, its underside 0.1 m above the floor's centre, a FLOW
    modifier of type FIRE (fuel) and behaviour INFLOW.
The cache is REPLAY: setting frame f + 1 after frame f simulates exactly that frame, in this process, synchronously
(MODULAR and ALL bake a whole range through an operator instead, so no single step can be timed). Each simulated
frame also writes its grids to the cache folder: OpenVDB without compression at full precision where Blender has it
(else UNI), and the driver puts the folder on a RAM disc, so that writing costs as little as Blender allows. A
frame's time is therefore Mantaflow's step plus that write: an upper bound on the step.

Output, one line each, on stdout:
  PEER_INFO KEY VALUE       the Blender version, the threads, the cells, the cache format and the domain's physics
  WARMUP_MS FRAME MS        a warm-up frame's wall clock (frame 1 allocates the solver and runs its set-up script)
  STEP_MS FRAME MS          a timed frame's wall clock, time.perf_counter around scene.frame_set
  STEP_CPU_MS FRAME MS      the CPU time of the whole process (every thread) during that frame
  PEER_CHECK flame_max X density_max Y   after the last frame: proof that the fire burns (both > 0)
Exit 2 on bad arguments or when this is not run inside Blender.
"""
import argparse
import math
import sys
import time

try:
    import bpy
except ImportError:
    print("mantaflow_scene.py runs inside Blender: blender --background --python mantaflow_scene.py -- ARGS",
          file=sys.stderr)
    sys.exit(2)

EDGE_M = 3.2          # the domain's edge, as firelab_bench's BM_FluidStep cube
SOURCE_DIAMETER_M = 0.35
SOURCE_THICKNESS_M = 0.1
SOURCE_LIFT_M = 0.1   # above the floor, clear of the wall cells at 32^3 (0.1 m) and finer
FPS = 60


def fail(message):
    print(f"mantaflow_scene.py: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def parse(argv):
    p = argparse.ArgumentParser(prog="mantaflow_scene.py", description="Step a Mantaflow gas fire frame by frame.")
    p.add_argument("--grid", type=int, default=64, help="resolution_max: cells along the cube's edge (default 64)")
    p.add_argument("--frames", type=int, default=40, help="frames stepped, 1..F (default 40)")
    p.add_argument("--warmup", type=int, default=10, help="the first W frames are reported as WARMUP_MS (default 10)")
    p.add_argument("--cache-dir", required=True, help="an empty folder for the REPLAY cache (a RAM disc is best)")
    p.add_argument("--format", choices=["auto", "OPENVDB", "UNI"], default="auto",
                   help="cache_data_format; auto: OpenVDB uncompressed where Blender has it, else UNI")
    a = p.parse_args(argv)
    if a.grid < 8:
        fail(f"--grid {a.grid}: the grid needs at least 8 cells an edge")
    if a.warmup < 1:
        fail(f"--warmup {a.warmup}: at least 1 (frame 1 sets the solver up and is never a step's cost)")
    if a.frames <= a.warmup:
        fail(f"--frames {a.frames}: must exceed --warmup {a.warmup}, or no frame is timed")
    return a


def box_mesh(name, x0, x1, y0, y1, z0, z1):
    verts = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
    faces = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    return mesh


def disc_mesh(name, radius, z0, z1, segments=32):
    """A closed cylinder: a ring of `segments` at each height, a cap at each end, the sides as quads."""
    ring = [(radius * math.cos(2 * math.pi * i / segments), radius * math.sin(2 * math.pi * i / segments))
            for i in range(segments)]
    verts = [(x, y, z0) for x, y in ring] + [(x, y, z1) for x, y in ring]
    faces = [tuple(reversed(range(segments))), tuple(range(segments, 2 * segments))]
    for i in range(segments):
        j = (i + 1) % segments
        faces.append((i, j, segments + j, segments + i))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    return mesh


def add_object(name, mesh):
    ob = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(ob)
    return ob


def choose_format(domain, wanted):
    """OPENVDB without compression at full precision where this Blender has OpenVDB, else UNI."""
    has_vdb = bool(getattr(bpy.app.build_options, "openvdb", False))
    fmt = wanted if wanted != "auto" else ("OPENVDB" if has_vdb else "UNI")
    if fmt == "OPENVDB" and not has_vdb:
        fail("--format OPENVDB: this Blender was built without OpenVDB; use --format UNI")
    try:  # the formats offered depend on the build and the domain's type, so the assignment is the test
        domain.cache_data_format = fmt
    except TypeError as e:
        fail(f"--format {fmt}: this Blender refuses it ({e})")
    if fmt == "OPENVDB":
        domain.openvdb_cache_compress_type = "NONE"
        try:
            domain.openvdb_data_depth = "32"
        except TypeError:
            pass  # an older or newer Blender without the full-precision item keeps its default
    return fmt


def build(args):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.render.fps_base = 1.0
    scene.frame_start = 1
    scene.frame_end = args.frames

    half = EDGE_M / 2
    domain_ob = add_object("Domain", box_mesh("DomainMesh", -half, half, -half, half, 0.0, EDGE_M))
    mod = domain_ob.modifiers.new(name="Fluid", type='FLUID')
    mod.fluid_type = 'DOMAIN'
    d = mod.domain_settings
    d.domain_type = 'GAS'
    d.resolution_max = args.grid
    d.use_noise = False
    d.use_adaptive_domain = False
    d.cache_type = 'REPLAY'
    d.cache_directory = args.cache_dir
    d.cache_frame_start = 1
    d.cache_frame_end = args.frames
    d.time_scale = 1.0
    d.use_adaptive_timesteps = False
    d.timesteps_min = 1
    d.timesteps_max = 1
    d.cfl_condition = d.bl_rna.properties["cfl_condition"].hard_max
    # firelab's boundaries: the floor a wall, the top and the sides open.
    d.use_collision_border_bottom = True
    for side in ("top", "front", "back", "left", "right"):
        setattr(d, "use_collision_border_" + side, False)
    fmt = choose_format(d, args.format)

    r = SOURCE_DIAMETER_M / 2
    source_ob = add_object("Source", disc_mesh("SourceMesh", r, SOURCE_LIFT_M, SOURCE_LIFT_M + SOURCE_THICKNESS_M))
    fmod = source_ob.modifiers.new(name="Fluid", type='FLUID')
    fmod.fluid_type = 'FLOW'
    f = fmod.flow_settings
    f.flow_type = 'FIRE'
    f.flow_behavior = 'INFLOW'
    f.flow_source = 'MESH'
    f.use_initial_velocity = False
    f.surface_distance = 1.0   # how far from the disc's surface it still emits (Blender's default: 1.5)
    f.subframes = 0
    return scene, domain_ob, d, fmt


def evaluated(domain_ob):
    depsgraph = bpy.context.evaluated_depsgraph_get()
    return domain_ob.evaluated_get(depsgraph).modifiers["Fluid"].domain_settings


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    args = parse(argv)
    scene, domain_ob, d, fmt = build(args)

    print(f"PEER_INFO blender_version {bpy.app.version_string}", flush=True)
    print(f"PEER_INFO threads {scene.render.threads}", flush=True)
    depth = f" {d.openvdb_cache_compress_type} {d.openvdb_data_depth}" if fmt == "OPENVDB" else ""
    print(f"PEER_INFO cache_format {fmt}{depth}", flush=True)
    for key in ("alpha", "beta", "vorticity", "burning_rate", "flame_smoke", "flame_vorticity", "flame_ignition",
                "flame_max_temp", "cfl_condition", "timesteps_min", "timesteps_max"):
        print(f"PEER_INFO {key} {getattr(d, key)}", flush=True)

    for frame in range(1, args.frames + 1):
        c0 = time.process_time()
        t0 = time.perf_counter()
        scene.frame_set(frame)
        wall_ms = 1e3 * (time.perf_counter() - t0)
        cpu_ms = 1e3 * (time.process_time() - c0)
        if frame == 1:
            print(f"PEER_INFO cells {'x'.join(str(n) for n in evaluated(domain_ob).domain_resolution)}", flush=True)
        if frame <= args.warmup:
            print(f"WARMUP_MS {frame} {wall_ms:.4f}", flush=True)
        else:
            print(f"STEP_MS {frame} {wall_ms:.4f}", flush=True)
            print(f"STEP_CPU_MS {frame} {cpu_ms:.4f}", flush=True)

    ev = evaluated(domain_ob)  # the simulation's grids live on the evaluated copy, not on the original
    flame = max(ev.flame_grid) if len(ev.flame_grid) else 0.0
    density = max(ev.density_grid) if len(ev.density_grid) else 0.0
    print(f"PEER_CHECK flame_max {flame:.6g} density_max {density:.6g}", flush=True)


main()
