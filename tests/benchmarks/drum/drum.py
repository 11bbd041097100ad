# Rotating drum of N rigid bodies (half spheres, half tilted cubes): the strong-scaling deck.
#
# Usage: solfec drum.py [N] [steps] [step] [outdir] [omega] [settle]
#        mpirun --oversubscribe -np 2 solfec-mpi drum.py [N] [steps] [step] [outdir] [...]
# Defaults: N = 10000 bodies, 60 timed steps of 4 ms after 50 untimed settling steps,
# outdir out/drum/n<N>, omega = 1 rad/s.
#
# Scene: a horizontal drum (axis y, inner radius 1.5 m) made of one OBSTACLE body: 32 flat
# wall slabs (inner faces tangent to the 1.5 m circle) and two end caps, spinning about its
# axis at omega rad/s from t = 0 (an OBSTACLE keeps its initial velocity; it turns about its
# mass centre, the drum centre). The drum length grows with N: 280 bodies per 0.1 m layer
# along the axis (10000 bodies: 36 layers, 3.66 m). Bodies: spheres of radius 0.05 m and
# cubes of edge 0.08 m tilted by up to 8 degrees about random axes (fixed seed), density
# 2000 kg/m^3, at rest on a 0.1 m lattice (spheres and cubes alternate like a checkerboard, so
# no two bodies overlap) filling the lowest lattice sites of the drum, the lowest ones 2 mm
# from the wall. Gravity 9.81 m/s^2 along -z, SIGNORINI_COULOMB friction 0.3, restitution 0,
# GAUSS_SEIDEL_SOLVER(1e-4, 100, meritval=1e-6). During the `settle` steps (not timed) the
# loose lattice collapses onto the wall (10000 bodies: ~15000 contacts after 50 steps); the
# timed `steps` follow (~25000 contacts) while the wall drags the bed up the rising side.
# Bodies leaving the drum would be deleted (EXTENTS), a contact deeper than 2 cm stops the run
# (UNPHYSICAL_PENETRATION). Results are written once (OUTPUT every 1000 s).
#
# DRUM_SHAPES=SPHERES or ELLIPSOIDS (environment) fills the drum with one shape instead
# (run_drum_shapes.py): ellipsoids of semi-axes (0.048, 0.036, 0.024) m (aspect 2 : 1.5 : 1)
# turned about random axes by random angles (fixed seed), or spheres of the same volume
# (radius (0.048 * 0.036 * 0.024)^(1/3) = 0.0346 m), on the same lattice sites (the largest
# semi-axis 0.048 m < PITCH / 2 and < CLEAR: no overlaps at the start).
#
# At the end every rank writes its timings and the state of the bodies it owns (HERE) into
# OUTDIR/drum-ranks/, and rank 0 merges them into one line `DRUM_RESULT {json}` with the
# SOLFEC.parallel_stats of solfec-mpi when present (see tests/benchmarks/README.md).
import json
import math
import os
import random
import sys
import time

argv = sys.argv[1:]
N = int(argv[0]) if len(argv) > 0 else 10000
STEPS = int(argv[1]) if len(argv) > 1 else 60
H = float(argv[2]) if len(argv) > 2 else 4E-3
OUTDIR = argv[3] if len(argv) > 3 else 'out/drum/n%d' % N
OMEGA = float(argv[4]) if len(argv) > 4 else 1.0
SETTLE = int(argv[5]) if len(argv) > 5 else 50

R = 1.5           # inner (flat-face) radius of the drum [m]
T = 0.1           # wall thickness [m]
NSEG = 32         # wall slabs
RS = 0.05         # sphere radius [m]
A = 0.08          # cube edge [m]
TILT = 8.0        # largest cube tilt [degrees]
PITCH = 0.1       # lattice pitch [m]
CLEAR = 0.052     # lattice sites keep this distance from the wall [m]
FILL = 280        # bodies per lattice layer along the axis (sets the drum length)
SHAPES = os.environ.get('DRUM_SHAPES', 'MIXED').upper()
if SHAPES not in ('MIXED', 'SPHERES', 'ELLIPSOIDS'):
    raise ValueError("drum.py: DRUM_SHAPES = %r; use MIXED, SPHERES or ELLIPSOIDS" % SHAPES)
ELL = (0.048, 0.036, 0.024)  # ellipsoid semi-axes [m] (DRUM_SHAPES=ELLIPSOIDS)
RE = (ELL[0] * ELL[1] * ELL[2]) ** (1.0 / 3.0)  # radius of the sphere of the same volume
NY = max(1, int(math.ceil(N / FILL)))
L = NY * PITCH + 2 * 0.03   # inner length of the drum [m]


def wall_slab(k):
    """Wall slab k: inner face at distance R from the axis, spans the caps too."""
    th, half = 2 * math.pi * k / NSEG, math.pi / NSEG
    er, et = (math.cos(th), math.sin(th)), (-math.sin(th), math.cos(th))
    pts = []
    for rad in (R, R + T):
        w = rad * math.tan(half)
        for s in (-1, 1):
            x, z = rad * er[0] + s * w * et[0], rad * er[1] + s * w * et[1]
            for y in (-L / 2 - T, L / 2 + T):
                pts += [x, y, z]
    return HULL(pts, 1, 1)


def end_cap(y0, y1):
    """Polygonal plate covering the drum's cross-section between y0 and y1."""
    rc = (R + T) / math.cos(math.pi / NSEG)
    pts = []
    for k in range(NSEG):
        th = 2 * math.pi * (k + 0.5) / NSEG
        for y in (y0, y1):
            pts += [rc * math.cos(th), y, rc * math.sin(th)]
    return HULL(pts, 1, 1)


CUBE_FACES = [4, 0, 3, 2, 1, 2, 4, 4, 5, 6, 7, 2, 4, 0, 1, 5, 4, 2, 4, 1, 2, 6, 5, 2,
              4, 2, 3, 7, 6, 2, 4, 3, 0, 4, 7, 2]


def cube(c, rng):
    a = A / 2
    v = []
    for (sx, sy, sz) in ((-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1),
                         (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)):
        v += [c[0] + sx * a, c[1] + sy * a, c[2] + sz * a]
    shape = CONVEX(v, CUBE_FACES, 1)
    axis = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
    if sum(x * x for x in axis) > 1e-6:
        ROTATE(shape, c, axis, rng.uniform(-TILT, TILT))
    return shape


def ellipsoid(c, rng):
    shape = ELLIP(c, ELL, 1, 2)
    axis = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
    if sum(x * x for x in axis) > 1e-6:
        ROTATE(shape, c, axis, rng.uniform(0.0, 180.0))
    return shape


def particle(c, parity, rng):
    """The body shape at lattice site c (parity: the site's checkerboard colour)."""
    if SHAPES == 'SPHERES':
        return SPHERE(c, RE, 1, 2)
    if SHAPES == 'ELLIPSOIDS':
        return ellipsoid(c, rng)
    return SPHERE(c, RS, 1, 2) if parity == 0 else cube(c, rng)


def lattice_sites():
    """The N lowest lattice sites inside the drum (ties broken by distance from the plane x=0)."""
    r_max = R - CLEAR
    m = int(r_max / PITCH) + 1
    sites = []
    for j in range(NY):
        y = (j - (NY - 1) / 2) * PITCH
        for i in range(-m, m + 1):
            for k in range(-m, m + 1):
                x, z = i * PITCH, k * PITCH
                if x * x + z * z <= r_max * r_max:
                    sites.append((z, abs(x), j, i, k, (x, y, z)))
    sites.sort()
    if len(sites) < N:
        raise ValueError('drum.py: %d bodies do not fit (%d sites)' % (N, len(sites)))
    return [(s[5], (s[2] + s[3] + s[4]) % 2) for s in sites[:N]]


t_setup = time.perf_counter()
sol = SOLFEC('DYNAMIC', H, OUTDIR)
sol.verbose = 'OFF'
OUTPUT(sol, 1000.0)
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=1E9, poisson=0.25, density=2E3)
SURFACE_MATERIAL(sol, model='SIGNORINI_COULOMB', friction=0.3, restitution=0.0)
CONTACT_POINTS(sol, 4)  # up to 4 points per touching convex pair (the measured tables' model)
GRAVITY(sol, (0, 0, -9.81))

drum_shapes = [wall_slab(k) for k in range(NSEG)]
drum_shapes += [end_cap(-L / 2 - T, -L / 2), end_cap(L / 2, L / 2 + T)]
drum = BODY(sol, 'OBSTACLE', drum_shapes, bulk, label='drum')
INITIAL_VELOCITY(drum, (0, 0, 0), (0, OMEGA, 0))

rng = random.Random(20261126)
bodies = []
for c, parity in lattice_sites():
    bodies.append(BODY(sol, 'RIGID', particle(c, parity, rng), bulk))
big = R + 1.0
EXTENTS(sol, (-big, -L / 2 - 1.0, -big, big, L / 2 + 1.0, big))  # escaped bodies are deleted
UNPHYSICAL_PENETRATION(sol, 0.02)  # a SolverError if any contact gap < -2 cm
gs = GAUSS_SEIDEL_SOLVER(1E-4, 100, meritval=1E-6, stopping="EITHER")
# solfec-mpi: how rows of different ranks see each other within a sweep (docs/parallel.md);
# DRUM_VARIANT overrides the default 'FULL'. No effect in serial runs.
gs.variant = os.environ.get('DRUM_VARIANT', 'FULL')
# solfec-mpi: repartition when the largest rank load (bodies + their constraints) exceeds the
# average by 10% (checked every 10 steps); DRUM_IMBALANCE overrides. No effect in serial runs.
IMBALANCE_TOLERANCE(sol, float(os.environ.get('DRUM_IMBALANCE', '1.1')))
t_setup = time.perf_counter() - t_setup

STAGES = ('TIMINT', 'CONUPD', 'CONDET', 'LOCDYN', 'CONSOL', 'PARBAL')
acc = {'stages': dict.fromkeys(STAGES, 0.0), 'contacts': [], 'iters': [], 'merits': [],
       'unconverged': 0,
       'timed': False, 'n': 0}


def local_state():
    """{id: [x, y, z, kinetic energy]} of the RIGID bodies held by this rank (HERE)."""
    d = sol._domain
    out = {}
    for b in bodies:
        if not d.has_body(b.id) or not HERE(sol, b):
            continue
        q, u = b.conf, b.velo
        m, J = b.mass, b.tensor  # J: referential inertia tensor, column-wise
        W, v = u[0:3], u[3:6]
        JW = [sum(J[r + 3 * c] * W[c] for c in range(3)) for r in range(3)]
        ke = 0.5 * m * sum(x * x for x in v) + 0.5 * sum(W[r] * JW[r] for r in range(3))
        out[b.id] = [q[9], q[10], q[11], ke]
    return out


def summary(state):
    """Mean centre, mean and largest distance from the drum axis, total kinetic energy."""
    n = max(1, len(state))
    mean = [sum(s[k] for s in state.values()) / n for k in range(3)]
    radii = [math.hypot(s[0], s[2]) for s in state.values()] or [0.0]
    return mean, sum(radii) / n, max(radii), sum(s[3] for s in state.values())


TRACE = os.environ.get('DRUM_TRACE')  # path: every 10 steps one JSON line (rank 0's bodies)
if RANK() != 0:
    TRACE = None
if os.environ.get('DRUM_VERBOSE'):
    sol.verbose = 'ON'


def per_step():
    acc['n'] += 1
    if TRACE and acc['n'] % 10 == 0:
        mean, rmean, rmax, ke = summary(local_state())
        with open(TRACE, 'a') as f:
            f.write(json.dumps({'t': sol.time, 'ncon': sol.ncon, 'iters': gs.iters,
                                'kinetic': ke, 'mean': mean, 'rmean': rmean, 'rmax': rmax,
                                'nbod': sol.nbod - 1, 'timed': acc['timed'],
                                'wall': time.perf_counter() - w0}) + '\n')
    if not acc['timed']:
        return 1
    for s in STAGES:
        acc['stages'][s] += TIMING(sol, s)
    acc['contacts'].append(sol.ncon)
    acc['iters'].append(gs.iters)
    acc['merits'].append(gs.merit)
    if gs.error != 'OK':
        acc['unconverged'] += 1
    return 1


def parallel_stats():
    """SOLFEC.parallel_stats of solfec-mpi (collective: every rank calls it), else None."""
    if not hasattr(sol, 'parallel_stats'):
        return None
    ps = sol.parallel_stats
    ps = ps() if callable(ps) else ps
    return dict(ps) if isinstance(ps, dict) else None


def stats_since(p0, p1):
    """The statistics of the timed steps: totals minus those after settling ('*_per_step'
    averages re-weighted by 'steps'; other keys, e.g. 'ranks', as at the end)."""
    if p1 is None or p0 is None:
        return p1
    out = {}
    n0, n1 = p0.get('steps', 0), p1.get('steps', 0)
    for k, v in p1.items():
        v0 = p0.get(k)
        if not isinstance(v, (int, float)) or not isinstance(v0, (int, float)) or k == 'ranks':
            out[k] = v
        elif k.endswith('_per_step'):
            out[k] = (v * n1 - v0 * n0) / (n1 - n0) if n1 > n0 else v
        else:
            out[k] = v - v0
    return out


# Each rank writes its part into RANKDIR; rank 0 merges after a barrier (the deck language has
# no reductions; a shared file system is assumed, as on one machine).
RANKDIR = os.path.join(OUTDIR, 'drum-ranks')
os.makedirs(RANKDIR, exist_ok=True)
rank_file = os.path.join(RANKDIR, 'rank%d.json' % RANK())
if os.path.exists(rank_file):
    os.remove(rank_file)
CALLBACK(sol, H, (), per_step)
w0 = time.perf_counter()
RUN(sol, gs, SETTLE * H)
settle_wall = time.perf_counter() - w0
settle_contacts = sol.ncon
acc['timed'] = True
stats0 = parallel_stats()
BARRIER()
c0 = time.process_time()
w0 = time.perf_counter()
RUN(sol, gs, STEPS * H)
wall = time.perf_counter() - w0
cpu = time.process_time() - c0

mine = {'rank': RANK(), 'wall': wall, 'cpu': cpu, 'settle_wall': settle_wall,
        'settle_contacts': settle_contacts, 'stages': acc['stages'],
        'contacts': acc['contacts'], 'iters': acc['iters'], 'merits': acc['merits'],
        'unconverged': acc['unconverged'],
        'nbod': sol.nbod - 1, 'bodies': local_state()}
stats1 = parallel_stats()
mine['parallel_stats'] = stats_since(stats0, stats1)
mine['parallel_stats_total'] = stats1
with open(rank_file + '.tmp', 'w') as f:
    json.dump(mine, f)
os.replace(rank_file + '.tmp', rank_file)
BARRIER()


def merge(parts):
    """One result from the ranks' parts. 'replicated': every rank owned every body (serial or
    the interim solfec-mpi); 'decomposed': bodies owned by one rank each (merged by id)."""
    nr = len(parts)
    state = {}
    for p in parts:
        state.update({int(k): v for k, v in p['bodies'].items()})
    replicated = nr == 1 or all(len(p['bodies']) == len(state) for p in parts)
    # Contacts: when every rank sees the same count every step (every rank holds all of them
    # at callbacks: the interim launcher, or solfec-mpi's Synchronize copies), rank 0's;
    # otherwise each rank holds its own and they add up.
    if all(p['contacts'] == parts[0]['contacts'] for p in parts):
        con = parts[0]['contacts']
    else:
        con = [sum(c) for c in zip(*(p['contacts'] for p in parts))]
    its = parts[0]['iters']
    mean, rmean, rmax, ke = summary(state)
    res = {'n': N, 'shapes': SHAPES, 'nbod': len(state), 'steps': STEPS, 'settle': SETTLE, 'step': H,
           'omega': OMEGA, 'drum_radius': R, 'drum_length': L, 'ranks': nr,
           'mode': 'replicated' if replicated else 'decomposed', 'setup': t_setup,
           'wall': max(p['wall'] for p in parts), 'cpu': max(p['cpu'] for p in parts),
           'cpu_sum': sum(p['cpu'] for p in parts),
           'settle_wall': max(p['settle_wall'] for p in parts),
           'settle_contacts': parts[0]['settle_contacts'] if con is parts[0]['contacts'] else
           sum(p['settle_contacts'] for p in parts),
           'wall_per_step': max(p['wall'] for p in parts) / max(1, STEPS),
           'stages': {s: max(p['stages'][s] for p in parts) for s in STAGES},
           'stages_per_rank': [p['stages'] for p in parts],
           'contacts_mean': sum(con) / max(1, len(con)), 'contacts_last': con[-1] if con else 0,
           'contacts_mean_per_rank': [sum(p['contacts']) / max(1, len(con)) for p in parts],
           'iters_mean': sum(its) / max(1, len(its)), 'iters_max': max(its) if its else 0,
           'unconverged': parts[0]['unconverged'],
           'merit_max': max(parts[0]['merits']) if its else 0.0,
           'merit_mean': sum(parts[0]['merits']) / max(1, len(its)),
           'mean_position': mean, 'mean_radius': rmean, 'max_radius': rmax,
           'kinetic': ke, 'time': sol.time}
    if parts[0]['parallel_stats'] is not None:  # the same on every rank (reduced)
        res['parallel_stats'] = parts[0]['parallel_stats']
        res['parallel_stats_total'] = parts[0]['parallel_stats_total']
    return res


if RANK() == 0:
    parts = []
    for k in range(NCPU(sol)):
        with open(os.path.join(RANKDIR, 'rank%d.json' % k)) as f:
            parts.append(json.load(f))
    print('DRUM_RESULT ' + json.dumps(merge(parts)), flush=True)
    if os.environ.get('DRUM_STATE'):  # every body's [x, y, z, kinetic energy] by id
        with open(os.environ['DRUM_STATE'], 'w') as f:
            json.dump({k: v for p in parts for k, v in p['bodies'].items()}, f)
