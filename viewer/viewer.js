// The solfec viewer page: renders the SOLFEC objects of a deck and their frames (served by
// python/solfec/viewer/server.py) with three.js; see docs/viewer.md.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { Faces, facePlanes } from './faces.js';
import { Spheres } from './spheres.js';

const $ = (id) => document.getElementById(id);
const view = $('view');
// Software WebGL (SwiftShader, llvmpipe: headless or GPU-less machines) rasterises on the CPU:
// there the page draws without multisampling at one pixel per CSS pixel; ?aa=0|1 overrides.
const software = (() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const ext = gl && gl.getExtension('WEBGL_debug_renderer_info');
  const name = ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : '';
  if (gl) gl.getExtension('WEBGL_lose_context')?.loseContext();
  return { name, on: /swiftshader|llvmpipe|software/i.test(name) };
})();
const aa = new URLSearchParams(location.search).get('aa');
const renderer = new THREE.WebGLRenderer({ antialias: aa !== null ? aa === '1' : !software.on });
const pixelRatio = software.on ? 1 : Math.min(window.devicePixelRatio || 1, 2);
renderer.setPixelRatio(pixelRatio);
// While frames play or the view is dragged, software GL draws at this share of the resolution per
// axis (the browser scales the canvas up; a paused or stepped frame and a still view are drawn at
// full resolution): ?playscale=F
const playScale = Number(new URLSearchParams(location.search).get('playscale') ?? (software.on ? 0.5 : 1));
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x2b3038);
const camera = new THREE.PerspectiveCamera(40, 1, 0.001, 1000);
camera.up.set(0, 0, 1);  // solfec decks: gravity along -z
const controls = new OrbitControls(camera, renderer.domElement);
scene.add(new THREE.AmbientLight(0xffffff, 0.55));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(1, -2, 3);
scene.add(sun);
const world = new THREE.Group();  // bodies
const overlay = new THREE.Group();  // contacts
scene.add(world, overlay);

const state = {
  models: [], model: null, mi: 0, frame: null, index: 0, nframes: 0, bodies: new Map(),
  playing: false, loading: false, picked: null, radius: 1, ready: false, frames: 0,
  field: 'displacement', running: false, batches: [],
};

// --- data decoding: {f32: base64} and {u32: base64} arrays of the server, decoded once (kept
// on the object: a cached frame shown again decodes nothing) and natively where supported
function decode(o) {
  if (o.array) return o.array;
  const s = o.f32 ?? o.u32;
  let b;
  if (Uint8Array.fromBase64) b = Uint8Array.fromBase64(s);
  else {
    const t = atob(s);
    b = new Uint8Array(t.length);
    for (let i = 0; i < t.length; i++) b[i] = t.charCodeAt(i);
  }
  o.array = o.f32 !== undefined ? new Float32Array(b.buffer) : new Uint32Array(b.buffer);
  return o.array;
}

async function api(path, opts) {
  const r = await fetch(path, opts);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// --- colours
function colormap(t, out) {  // blue (0) -> red (1)
  const c = new THREE.Color().setHSL((1 - Math.min(1, Math.max(0, t))) * 0.66, 1, 0.5);
  out[0] = c.r; out[1] = c.g; out[2] = c.b;
}
function bodyColour(b) {
  if (b.kind === 'OBSTACLE') return new THREE.Color(0x8a8a8a);
  return new THREE.Color().setHSL(((b.id * 0.618034) % 1), 0.55, 0.55);
}

// --- bodies. Bodies of one referential shape (same local vertices and triangles, e.g. the cubes
// of a box of cubes) form one InstancedMesh on a GPU: one 4x4 matrix per body per frame, the GPU
// places the vertices and rotates the fixed per-face normals (no per-vertex JS work). Software
// WebGL draws instances ~2.5x slower than the same triangles merged (measured, docs/viewer.md),
// so there (and for bodies of unique shape) the convex surfaces form one merged mesh of the faces
// seen from the camera (Faces, faces.js); the OBSTACLEs form another (Batch, translucent, all
// faces), spheres impostors or one InstancedMesh (class Spheres), and each FINITE_ELEMENT body
// its own mesh (nodes from the frame).
const instancing = new URLSearchParams(location.search).get('instancing') ?? (software.on ? '0' : '1');
// Impostors (PointSet, faces.js): spheres whenever they fit in a GL point (?impostors=0: never);
// merged convex bodies whose bounding sphere is at most ?lod=N drawing-buffer pixels across
// (software GL: 8, i.e. small bodies while playing at reduced resolution; their ray casting per
// pixel costs more than their few triangles when larger, docs/viewer.md; GPU: 0, none)
const query = new URLSearchParams(location.search);
const lod = Number(query.get('lod') ?? (software.on ? 8 : 0)), sphereLod = query.get('impostors') === '0' ? 0 : Infinity;
const maxPoint = (() => {
  const r = renderer.getContext().getParameter(renderer.getContext().ALIASED_POINT_SIZE_RANGE);
  return r ? r[1] : 1;
})();
function clearWorld() {
  for (const g of [world, overlay]) {
    g.traverse((o) => { if (o.geometry) o.geometry.dispose(); });
    g.clear();
  }
  state.bodies.clear();
  state.batches = [];
  state.spheres = null;
}

// Two-sided Lambert shading evaluated per vertex (a flat-shaded polyhedron has one normal per
// face, so this equals per-pixel shading there) with a light fixed in the world; instance
// matrices and colours of an InstancedMesh applied on the GPU.
const LIT_VERTEX = `
uniform vec3 light;
varying vec3 vColour;
void main() {  // matrix-vector products only (software GL runs this per vertex on the CPU)
  vec4 p = vec4(position, 1.0);
  vec3 n = normal, c = vec3(1.0);
#ifdef USE_INSTANCING
  p = instanceMatrix * p;
  n = mat3(instanceMatrix) * n;
#endif
#ifdef USE_INSTANCING_COLOR
  c = instanceColor;
#endif
#ifdef USE_COLOR
  c *= color;
#endif
  n = normalize(mat3(modelMatrix) * n);
  vColour = c * (0.35 + 0.8 * abs(dot(n, light)));
  gl_Position = projectionMatrix * (viewMatrix * (modelMatrix * p));
}`;
const LIT_FRAGMENT = `
uniform float opacity;
varying vec3 vColour;
void main() {
  gl_FragColor = vec4(vColour, opacity);
#include <colorspace_fragment>
}`;
// Closed convex surfaces (outward triangles) are drawn front faces only: the hidden back half
// of the triangles is culled before rasterisation (-35 % time in software GL); translucent
// OBSTACLEs, seen from inside too, both sides.
const LIGHT = new THREE.Vector3(1, -2, 3).normalize();
function litMaterial(opacity = 1, vertexColors = false) {
  return new THREE.ShaderMaterial({
    uniforms: { light: { value: LIGHT }, opacity: { value: opacity } },
    vertexShader: LIT_VERTEX, fragmentShader: LIT_FRAGMENT, vertexColors,
    side: opacity < 1 ? THREE.DoubleSide : THREE.FrontSide,
    transparent: opacity < 1, depthWrite: opacity >= 1,
  });
}

function flatSurface(local, tri) {  // {P, N, I}: local positions, face normals, triangles  // one vertex per (vertex, face plane): exact face normals
  const P = [], N = [], I = [], ids = new Map();
  for (let t = 0; t < tri.length; t += 3) {
    const v = [0, 1, 2].map((k) => new THREE.Vector3().fromArray(local, 3 * tri[t + k]));
    const n = new THREE.Vector3().subVectors(v[1], v[0]).cross(new THREE.Vector3().subVectors(v[2], v[0]));
    if (n.lengthSq() > 0) n.normalize();
    const nk = n.toArray().map((x) => Math.round(x * 1e4)).join(',');
    for (let k = 0; k < 3; k++) {
      const key = `${tri[t + k]}:${nk}`;
      if (!ids.has(key)) { ids.set(key, P.length / 3); P.push(...v[k].toArray()); N.push(...n.toArray()); }
      I.push(ids.get(key));
    }
  }
  return { P: new Float32Array(P), N: new Float32Array(N), I: new Uint32Array(I) };
}

function shapeKey(e) {  // equal for bodies whose local surfaces agree to 1e-5 of their size,
  // whatever the order of vertices and the triangulation of faces: the sorted vertices and the
  // sorted set of triangle plane normals (a convex hull is fixed by its vertices)
  const X = e.local, T = e.tri;
  let size = 0;
  for (let i = 0; i < X.length; i++) size = Math.max(size, Math.abs(X[i]));
  const h = 1e-5 * (size || 1), v = [], n = new Set();
  for (let i = 0; i < X.length; i += 3) v.push(`${Math.round(X[i] / h)},${Math.round(X[i + 1] / h)},${Math.round(X[i + 2] / h)}`);
  for (let t = 0; t < T.length; t += 3) {
    const a = 3 * T[t], b = 3 * T[t + 1], c = 3 * T[t + 2];
    const u = [X[b] - X[a], X[b + 1] - X[a + 1], X[b + 2] - X[a + 2]];
    const w = [X[c] - X[a], X[c + 1] - X[a + 1], X[c + 2] - X[a + 2]];
    const m = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const l = Math.hypot(...m) || 1;
    n.add(m.map((x) => Math.round(1e4 * x / l)).join(','));
  }
  return `${v.sort().join(';')}|${[...n].sort().join(';')}`;
}

class Instanced {
  constructor(entries) {
    this.entries = entries;
    const f = entries[0].flat, geo = new THREE.BufferGeometry();
    geo.setAttribute('position', new THREE.BufferAttribute(f.P, 3));
    geo.setAttribute('normal', new THREE.BufferAttribute(f.N, 3));
    geo.setIndex(new THREE.BufferAttribute(f.I, 1));
    this.mesh = new THREE.InstancedMesh(geo, litMaterial(), entries.length);
    entries.forEach((e, i) => this.mesh.setColorAt(i, bodyColour(e.body)));
    this.mesh.frustumCulled = false;  // no per-frame bounding sphere of all instances
    this.mesh.userData.instanced = this;
    world.add(this.mesh);
  }

  update() {
    const a = this.mesh.instanceMatrix.array;
    this.entries.forEach((e, i) => {
      const q = e.q, o = 16 * i;
      if (!e.visible) { a.fill(0, o, o + 16); return; }  // a hidden body: a zero matrix
      a[o] = q[0]; a[o + 1] = q[1]; a[o + 2] = q[2]; a[o + 3] = 0;
      a[o + 4] = q[3]; a[o + 5] = q[4]; a[o + 6] = q[5]; a[o + 7] = 0;
      a[o + 8] = q[6]; a[o + 9] = q[7]; a[o + 10] = q[8]; a[o + 11] = 0;
      a[o + 12] = q[9]; a[o + 13] = q[10]; a[o + 14] = q[11]; a[o + 15] = 1;
    });
    this.mesh.instanceMatrix.needsUpdate = true;
    this.mesh.boundingSphere = null;  // recomputed by a pick only
  }
}

class Batch {
  constructor(entries, obstacle) {
    let nv = 0, nt = 0;
    for (const e of entries) { e.v0 = nv; e.nv = e.flat.P.length / 3; nv += e.nv; nt += e.flat.I.length / 3; }
    this.entries = entries;
    this.local = new Float32Array(3 * nv);
    this.normal = new Float32Array(3 * nv);
    this.triEntry = new Array(nt);
    const index = new Uint32Array(3 * nt), colour = new Float32Array(3 * nv);
    let t = 0;
    for (const e of entries) {
      const I = e.flat.I;
      this.local.set(e.flat.P, 3 * e.v0);
      this.normal.set(e.flat.N, 3 * e.v0);
      const c = bodyColour(e.body);
      for (let i = e.v0; i < e.v0 + e.nv; i++) { colour[3 * i] = c.r; colour[3 * i + 1] = c.g; colour[3 * i + 2] = c.b; }
      for (let i = 0; i < I.length; i++) index[3 * t + i] = I[i] + e.v0;
      for (let i = 0; i < I.length / 3; i++) this.triEntry[t + i] = e;
      t += I.length / 3;
    }
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * nv), 3));
    geo.setAttribute('normal', new THREE.BufferAttribute(new Float32Array(3 * nv), 3));
    geo.setAttribute('color', new THREE.BufferAttribute(colour, 3));
    geo.setIndex(new THREE.BufferAttribute(index, 1));
    this.mesh = new THREE.Mesh(geo, litMaterial(obstacle ? 0.45 : 1, true));
    this.mesh.frustumCulled = false;  // no per-frame bounding sphere
    this.mesh.userData.batch = this;
    world.add(this.mesh);
  }

  update() {  // x = R X + c, n = R N of every vertex (R column-wise in q[0..8], c = q[9..11])
    const pos = this.mesh.geometry.attributes.position.array, X = this.local;
    const nor = this.mesh.geometry.attributes.normal.array, N = this.normal;
    for (const e of this.entries) {
      const q = e.q, end = 3 * (e.v0 + e.nv);
      if (!e.visible) { pos.fill(0, 3 * e.v0, end); continue; }  // a hidden body: one point
      for (let i = 3 * e.v0; i < end; i += 3) {
        const x = X[i], y = X[i + 1], z = X[i + 2], a = N[i], b = N[i + 1], c = N[i + 2];
        pos[i] = q[0] * x + q[3] * y + q[6] * z + q[9];
        pos[i + 1] = q[1] * x + q[4] * y + q[7] * z + q[10];
        pos[i + 2] = q[2] * x + q[5] * y + q[8] * z + q[11];
        nor[i] = q[0] * a + q[3] * b + q[6] * c;
        nor[i + 1] = q[1] * a + q[4] * b + q[7] * c;
        nor[i + 2] = q[2] * a + q[5] * b + q[8] * c;
      }
    }
    this.mesh.geometry.attributes.position.needsUpdate = true;
    this.mesh.geometry.attributes.normal.needsUpdate = true;
    this.mesh.geometry.boundingSphere = null;  // recomputed by a pick only
  }
}

function makeBodies(bodies) {
  const solid = [], obstacle = [], spheres = [], shapes = new Map();
  for (const b of bodies) {
    const e = { body: b, q: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]), visible: false, velocity: new Float32Array(3) };
    state.bodies.set(b.id, e);
    if (b.fe) {
      const geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * b.fe.nnodes), 3));
      geo.setAttribute('color', new THREE.BufferAttribute(new Float32Array(3 * b.fe.nnodes), 3));
      geo.setIndex(new THREE.BufferAttribute(decode(b.fe.triangles), 1));
      e.fe = new THREE.Mesh(geo, new THREE.MeshPhongMaterial({ vertexColors: true, side: THREE.DoubleSide }));
      e.fe.userData.entry = e;
      e.fe.visible = false;
      world.add(e.fe);
      continue;
    }
    e.local = decode(b.positions);
    e.tri = decode(b.triangles);
    if (e.tri.length) {
      const k = shapeKey(e);
      if (!shapes.has(k)) shapes.set(k, { flat: flatSurface(e.local, e.tri), solid: [] });
      e.flat = shapes.get(k).flat;
      if (b.kind === 'OBSTACLE') obstacle.push(e); else shapes.get(k).solid.push(e);
    }
    for (const s of b.spheres) spheres.push([e, s]);
  }
  const instanced = [];
  for (const s of shapes.values()) {
    if (!s.solid.length) continue;
    if (instancing === '1' && s.solid.length > 1) instanced.push(s.solid);
    else {
      s.faces ??= facePlanes(s.flat);
      for (const e of s.solid) e.faces = s.faces;
      solid.push(s.solid);
    }
  }
  const merged = solid.flat();
  state.batches = (merged.length ? [new Faces(merged, bodyColour, LIGHT, lod, maxPoint)] : [])
    .concat(obstacle.length ? [new Batch(obstacle, true)] : [], instanced.map((l) => new Instanced(l)));
  for (const b of state.batches) if (b instanceof Faces) world.add(...b.objects);
  // 520 triangles a sphere mesh; 126 on software GL beyond 50k triangles in all (~100 spheres):
  // triangle setup is its cost there
  const coarse = software.on && 520 * spheres.length > 5e4;
  state.spheres = spheres.length ? new Spheres(spheres, { material: litMaterial(), colour: bodyColour, light: LIGHT,
    segments: coarse ? [9, 8] : [20, 14], lod: Math.min(sphereLod, maxPoint / 1.5 - 4) }) : null;
  if (state.spheres) world.add(...state.spheres.objects);
}

function showFrame(fr) {
  const t0 = performance.now();
  state.frame = fr;
  state.index = fr.index;
  const q = decode(fr.placement), vel = decode(fr.velocity);
  if (fr.shown?.model !== state.model) {  // once per frame and model: the entries of its bodies
    fr.shown = { model: state.model, list: fr.ids.map((id) => state.bodies.get(id)) };
  }
  for (const e of state.bodies.values()) e.visible = false;
  let lo = Infinity, hi = -Infinity;
  fr.shown.list.forEach((e, k) => {  // copied to each body's own arrays: nothing allocated
    if (!e) return;
    e.visible = true;
    for (let i = 0; i < 12; i++) e.q[i] = q[12 * k + i];
    for (let i = 0; i < 3; i++) e.velocity[i] = vel[3 * k + i];
  });
  for (const fe of Object.values(fr.fe)) { lo = Math.min(lo, fe.min); hi = Math.max(hi, fe.max); }
  for (const b of state.batches) b.update();
  if (state.spheres) state.spheres.update();
  for (const e of state.bodies.values()) if (e.fe) e.fe.visible = e.visible;
  for (const [id, fe] of Object.entries(fr.fe)) {  // FE surfaces coloured by the field
    const m = state.bodies.get(Number(id)).fe;
    const x = decode(fe.x), s = decode(fe.scalar);
    m.geometry.attributes.position.array.set(x);
    const col = m.geometry.attributes.color.array, c = [0, 0, 0];
    for (let i = 0; i < s.length; i++) {
      colormap(hi > lo ? (s[i] - lo) / (hi - lo) : 0, c);
      col.set(c, 3 * i);
    }
    m.geometry.attributes.position.needsUpdate = true;
    m.geometry.attributes.color.needsUpdate = true;
    m.geometry.computeVertexNormals();
    m.geometry.computeBoundingSphere();
    m.geometry.computeBoundingBox();
  }
  legend(Object.keys(fr.fe).length > 0, lo, hi);
  contacts(fr.contacts);
  $('slider').value = fr.index;
  $('clock').textContent = `t = ${fr.time.toPrecision(6)} s, frame ${fr.index} / ${fr.nframes - 1}`;
  if (state.picked) info(state.picked);
  drawHistory();
  state.frames++;
  state.updateMs = performance.now() - t0;  // the page's JS work of a frame (decoding included)
  redraw();
}

function bodyBox(e, box) {  // expands box by the current extent of a visible body
  if (e.fe) return box.expandByObject(e.fe);
  if (e.local) {
    const X = e.local, q = e.q, p = new THREE.Vector3();
    for (let i = 0; i < X.length; i += 3) {
      box.expandByPoint(p.set(q[0] * X[i] + q[3] * X[i + 1] + q[6] * X[i + 2] + q[9],
        q[1] * X[i] + q[4] * X[i + 1] + q[7] * X[i + 2] + q[10], q[2] * X[i] + q[5] * X[i + 1] + q[8] * X[i + 2] + q[11]));
    }
  }
  for (const [x, y, z, r] of e.body.spheres || []) {
    const q = e.q, c = new THREE.Vector3(q[0] * x + q[3] * y + q[6] * z + q[9], q[1] * x + q[4] * y + q[7] * z + q[10],
      q[2] * x + q[5] * y + q[8] * z + q[11]);
    box.expandByPoint(c.clone().addScalar(r)).expandByPoint(c.addScalar(-r));
  }
  return box;
}

function legend(on, lo, hi) {
  $('legend').hidden = !on;
  if (!on) return;
  const units = state.field === 'mises' ? 'Pa' : 'm';
  $('legend-title').textContent = state.field === 'mises' ? 'von Mises stress' : 'displacement |u|';
  $('legend-max').textContent = `${hi.toPrecision(3)} ${units}`;
  $('legend-min').textContent = `${lo.toPrecision(3)} ${units}`;
  const cv = $('legend-bar'), ctx = cv.getContext('2d'), c = [0, 0, 0];
  for (let y = 0; y < cv.height; y++) {
    colormap(1 - y / (cv.height - 1), c);
    ctx.fillStyle = `rgb(${255 * c[0]},${255 * c[1]},${255 * c[2]})`;
    ctx.fillRect(0, y, cv.width, 1);
  }
}

function contacts(c) {
  redraw();
  overlay.traverse((o) => { if (o.geometry) o.geometry.dispose(); });
  overlay.clear();
  if (!$('contacts').checked || !c.count) return;
  const p = decode(c.point), n = decode(c.normal), r = decode(c.reaction);
  let rmax = 0;
  for (let i = 0; i < c.count; i++) rmax = Math.max(rmax, Math.hypot(r[3 * i], r[3 * i + 1], r[3 * i + 2]));
  const ln = 0.04 * state.radius, lr = 0.15 * state.radius;
  const normals = new Float32Array(6 * c.count), reactions = new Float32Array(6 * c.count);
  for (let i = 0; i < c.count; i++) {
    for (let j = 0; j < 3; j++) {
      const a = p[3 * i + j];
      normals[6 * i + j] = a; normals[6 * i + 3 + j] = a + ln * n[3 * i + j];
      reactions[6 * i + j] = a; reactions[6 * i + 3 + j] = a + (rmax > 0 ? lr * r[3 * i + j] / rmax : 0);
    }
  }
  const pts = new THREE.BufferGeometry();
  pts.setAttribute('position', new THREE.BufferAttribute(p, 3));
  overlay.add(new THREE.Points(pts, new THREE.PointsMaterial({ color: 0xffee55, size: 4, sizeAttenuation: false })));
  for (const [arr, colour] of [[normals, 0x55ddff], [reactions, 0xff4444]]) {
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', new THREE.BufferAttribute(arr, 3));
    overlay.add(new THREE.LineSegments(geo, new THREE.LineBasicMaterial({ color: colour })));
  }
}

// --- frames
const cache = new Map();  // frame requests (promises) by model, index and field
function fetchFrame(i) {
  const key = `${state.mi}:${i}:${state.field}`;
  let fr = cache.get(key);
  if (!fr) {
    const t0 = performance.now();
    fr = api(`/api/frame?m=${state.mi}&i=${i}&field=${state.field}`);
    fr.then(() => { state.fetchMs = performance.now() - t0; }, () => cache.delete(key));
    cache.set(key, fr);
    if (cache.size > 64) cache.delete(cache.keys().next().value);
  }
  return fr;
}
async function loadFrame(i) {
  if (!state.model || !state.nframes) return;
  i = Math.max(0, Math.min(state.nframes - 1, i));
  const fr = fetchFrame(i);
  if (state.playing && i + 1 < state.nframes) fetchFrame(i + 1);  // the next one meanwhile
  showFrame(await fr);
}

let pending = null;  // the latest requested frame while one is loading
async function request(i) {
  if (state.loading) { pending = i; return; }
  state.loading = true;
  try { await loadFrame(i); } catch (e) { status(e.message); }
  state.loading = false;
  if (pending !== null) { const j = pending; pending = null; await request(j); }
}

function fit() {
  const box = new THREE.Box3();
  for (const e of state.bodies.values()) if (e.visible) bodyBox(e, box);
  if (box.isEmpty()) return;
  const s = box.getBoundingSphere(new THREE.Sphere());
  state.radius = Math.max(s.radius, 1e-6);
  controls.target.copy(s.center);
  camera.position.copy(s.center).add(new THREE.Vector3(1.2, -2.0, 1.4).normalize().multiplyScalar(3.2 * state.radius));
  camera.near = state.radius / 100; camera.far = state.radius * 100;
  camera.updateProjectionMatrix();
  controls.update();
}

async function openModel(mi, keepView) {
  state.mi = mi;
  const m = await api(`/api/model?m=${mi}`);
  if (!m.nframes && state.model) return m;  // a run just started: keep showing the preview
  state.model = m;
  state.nframes = m.nframes;
  clearWorld();
  makeBodies(m.bodies);
  $('slider').max = Math.max(0, m.nframes - 1);
  $('run').hidden = m.read || !m.runs;
  if (!keepView) {
    cache.clear();
    state.picked = null;
    $('info').hidden = $('plot').hidden = true;
    await loadFrame(0);
    fit();
    contacts(state.frame.contacts);
  } else await loadFrame(state.index);
  return m;
}

// --- picking and info
const ray = new THREE.Raycaster();
function pickAt(clientX, clientY) {
  const r = renderer.domElement.getBoundingClientRect();
  const p = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
  ray.setFromCamera(p, camera);
  const entry = (h) => {
    const u = h.object.userData;
    return u.batch ? u.batch.triEntry[h.faceIndex] : u.instanced ? u.instanced.entries[h.instanceId] : u.entry;
  };
  let hits = ray.intersectObjects(world.children.filter((g) => g.visible), false).map((h) => [entry(h), h.distance]);
  for (const b of state.batches) if (b.pick) hits.push(...b.pick(ray.ray));  // merged bodies
  if (state.spheres) hits.push(...state.spheres.pick(ray.ray));
  hits.sort((a, b) => a[1] - b[1]);
  hits = hits.map(([e]) => e).filter((e) => e && e.visible);
  const hit = hits.find((e) => e.body.kind !== 'OBSTACLE') || hits[0];  // see through obstacles
  return hit ? hit.body : null;
}
function info(b) {
  state.picked = b;
  const e = state.bodies.get(b.id), v = Array.from((e && e.velocity) || [0, 0, 0]);
  $('info').hidden = false;
  $('info').textContent = `label    ${b.label}\nkind     ${b.kind}\nmass     ${b.mass.toPrecision(5)} kg\n` +
    `velocity ${v.map((x) => x.toExponential(3)).join(', ')} m/s\n|v|      ${Math.hypot(...v).toExponential(3)} m/s`;
}
// --- HISTORY panel of the picked body: kinetic energy and velocity components over time
let history = null;
async function loadHistory() {
  const b = state.picked;
  $('plot').hidden = !($('history').checked && b);
  if ($('plot').hidden) return;
  if (!history || history.id !== b.id || history.mi !== state.mi || history.n !== state.nframes) {
    history = await api(`/api/history?m=${state.mi}&id=${b.id}`);
    Object.assign(history, { mi: state.mi, n: state.nframes });
  }
  drawHistory();
}
function drawHistory() {
  if (!history || $('plot').hidden) return;
  const cv = $('plot-canvas'), ctx = cv.getContext('2d'), t = history.time;
  ctx.clearRect(0, 0, cv.width, cv.height);
  const series = [
    { title: `${history.label}: kinetic energy [J]`, lines: [[history.kinetic, '#fc6']] },
    { title: 'velocity [m/s]: x y z', lines: [0, 1, 2].map((j) => [history.velocity.map((v) => v[j]), ['#f66', '#6f6', '#69f'][j]]) },
  ];
  const h = cv.height / 2, t0 = t[0] ?? 0, t1 = t[t.length - 1] ?? 1;
  const X = (x) => 40 + (cv.width - 50) * (t1 > t0 ? (x - t0) / (t1 - t0) : 0);
  series.forEach((s, k) => {
    const all = s.lines.flatMap(([y]) => y);
    let lo = Math.min(...all, 0), hi = Math.max(...all, 0);
    if (hi === lo) hi = lo + 1;
    const Y = (y) => k * h + 18 + (h - 30) * (1 - (y - lo) / (hi - lo));
    ctx.fillStyle = '#ccc'; ctx.font = '11px sans-serif';
    ctx.fillText(s.title, 40, k * h + 12);
    ctx.fillText(hi.toPrecision(3), 0, Y(hi) + 4); ctx.fillText(lo.toPrecision(3), 0, Y(lo));
    ctx.strokeStyle = '#555'; ctx.strokeRect(40, Y(hi), cv.width - 50, Y(lo) - Y(hi));
    for (const [y, colour] of s.lines) {
      ctx.strokeStyle = colour; ctx.beginPath();
      y.forEach((v, i) => (i ? ctx.lineTo(X(t[i]), Y(v)) : ctx.moveTo(X(t[i]), Y(v))));
      ctx.stroke();
    }
  });
  if (state.frame) {  // the current time
    ctx.strokeStyle = '#fff'; ctx.beginPath();
    ctx.moveTo(X(state.frame.time), 14); ctx.lineTo(X(state.frame.time), cv.height - 4); ctx.stroke();
  }
}
$('history').onchange = () => loadHistory().catch((e) => status(e.message));

let down = null;
renderer.domElement.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
renderer.domElement.addEventListener('pointerup', (e) => {
  if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
  const b = pickAt(e.clientX, e.clientY);
  if (b) info(b); else { state.picked = null; $('info').hidden = true; }
  loadHistory().catch((err) => status(err.message));
});

// --- controls
function status(s) { $('status').textContent = s; }
function step(d) { request(state.index + d); }
$('back').onclick = () => step(-1);
$('fwd').onclick = () => step(1);
$('play').onclick = () => {
  state.playing = !state.playing;
  $('play').innerHTML = state.playing ? '&#10074;&#10074;' : '&#9654;';
  if (state.playing && state.index >= state.nframes - 1) request(0);
};
$('slider').addEventListener('input', () => request(Number($('slider').value)));
$('contacts').onchange = () => state.frame && contacts(state.frame.contacts);
$('field').onchange = () => { state.field = $('field').value; request(state.index); };
$('model').onchange = () => openModel(Number($('model').value), false).catch((e) => status(e.message));
$('shot').onclick = () => {
  const a = document.createElement('a');
  a.href = screenshot();
  a.download = `solfec-frame${state.index}.png`;
  a.click();
};
$('run').onclick = async () => {
  const r = await api('/api/run', { method: 'POST' });
  status(r.started ? 'running...' : r.reason);
  if (r.started) { state.running = true; poll(); }
};
async function poll() {
  const s = await api('/api/status');
  const m = s.models[state.mi];
  if (m && m.nframes > state.nframes) {
    cache.clear();
    await openModel(state.mi, true);
    await request(m.nframes - 1);  // follow the newest frame
  }
  state.running = s.running;
  status(s.running ? `running... ${m ? m.nframes : 0} frames` : (s.returncode ? `run failed (exit ${s.returncode})` : 'run finished'));
  $('status').title = s.log;  // the tail of the run's output
  if (s.running) setTimeout(poll, 1000);
  else if (m && m.nframes !== state.nframes) openModel(state.mi, true);
}

// one drawing of the scene (merged bodies: their faces to draw from this camera first)
const bufferSize = new THREE.Vector2();
function setScale(s) {  // the drawing resolution: s times the full one per axis
  if (renderer.getPixelRatio() !== pixelRatio * s) renderer.setPixelRatio(pixelRatio * s);
}
function render() {
  renderer.getDrawingBufferSize(bufferSize);
  for (const b of state.batches) if (b.prepare) b.prepare(camera, bufferSize);
  if (state.spheres) state.spheres.prepare(camera, bufferSize);
  renderer.render(scene, camera);
}

function screenshot() {
  setScale(1);
  render();
  return renderer.domElement.toDataURL('image/png');
}

function resize() {
  redraw();
  const w = view.clientWidth, h = view.clientHeight;
  renderer.setSize(w, h);
  camera.aspect = w / Math.max(1, h);
  camera.updateProjectionMatrix();
}
window.addEventListener('resize', resize);

// Rendering on demand: a redraw when the frame, the view or the canvas changed (state.continuous:
// every animation frame, as measureFps does).
let last = 0, renders = 0, dirty = true;
function redraw() { dirty = true; }
controls.addEventListener('change', () => { state.dragging = state.pressed; redraw(); });  // not by a click
controls.addEventListener('start', () => { state.pressed = true; });
controls.addEventListener('end', () => { state.pressed = state.dragging = false; redraw(); });
function animate(t) {
  requestAnimationFrame(animate);
  if (state.playing && !state.loading && t - last > 33) {
    last = t;
    if (state.index < state.nframes - 1) request(state.index + 1);
    else $('play').click();
  }
  controls.update();
  const scale = state.playing || state.measuringPlay || state.dragging ? playScale : 1;
  if (renderer.getPixelRatio() !== pixelRatio * scale) redraw();  // e.g. full resolution after playing
  if (!dirty && !state.continuous) return;
  dirty = false;
  setScale(scale);
  render();
  renders++;
}

// --- hooks for tests and scripting (tests/python/test_viewer.py)
window.solfecViewer = {
  state,
  bodyCount: () => [...state.bodies.values()].filter((e) => e.visible).length,
  bodyPosition: (id) => bodyBox(state.bodies.get(id), new THREE.Box3()).getCenter(new THREE.Vector3()).toArray(),
  visibleBody: () => {  // a non-obstacle body whose centre is unoccluded: {id, label, x, y}
    const r = renderer.domElement.getBoundingClientRect();
    for (const [id, e] of state.bodies) {
      const b = e.body;
      if (!e.visible || b.kind === 'OBSTACLE') continue;
      const p = new THREE.Vector3(...window.solfecViewer.bodyPosition(id)).project(camera);
      const x = r.left + (p.x + 1) / 2 * r.width, y = r.top + (1 - p.y) / 2 * r.height;
      const hit = pickAt(x, y);
      if (hit && hit.id === id) return { id, label: b.label, x, y };
    }
    return null;
  },
  goto: (i) => request(i),
  meshes: () => ({ instanced: state.batches.filter((b) => b.mesh.isInstancedMesh).map((b) => b.mesh.count),
    merged: state.batches.filter((b) => !b.mesh.isInstancedMesh).map((b) => b.entries.length) }),
  screenshot,
  // The drawing with bodies up to px pixels across as impostors against the current one (both
  // read back): {current (impostors now drawn), impostors (then drawn), differing (share of the
  // pixels with a channel off by more than 8 of 255), changed (by any), lit (non-background)}
  compareLod: (px) => {
    const pixels = () => {
      render();
      const gl = renderer.getContext(), a = new Uint8Array(4 * gl.drawingBufferWidth * gl.drawingBufferHeight);
      gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, a);
      return a;
    };
    const targets = state.batches.filter((b) => b.impostors).concat(state.spheres ?? []), saved = targets.map((t) => t.lod);
    const a = pixels(), current = targets.reduce((n, t) => n + t.impostorCount, 0);
    for (const t of targets) { t.lod = Math.min(px, maxPoint / 1.5 - 4); t.stale = true; }
    const b = pixels(), impostors = targets.reduce((n, t) => n + t.impostorCount, 0);
    targets.forEach((t, i) => { t.lod = saved[i]; t.stale = true; });
    redraw();
    let differing = 0, changed = 0, lit = 0;
    for (let i = 0; i < a.length; i += 4) {
      const d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2]));
      if (d > 8) differing++;
      if (d > 0) changed++;
      if (a[i] + a[i + 1] + a[i + 2] > 3 * 0x40) lit++;  // brighter than the background
    }
    const n = a.length / 4;
    return { current, impostors, differing: differing / n, changed: changed / n, lit: lit / n, pixels: n };
  },
  imageStats: async () => {  // mean and variance of the luminance of a screenshot
    const img = new Image();
    img.src = screenshot();
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let s = 0, s2 = 0;
    const n = d.length / 4;
    for (let i = 0; i < d.length; i += 4) {
      const l = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
      s += l; s2 += l * l;
    }
    return { mean: s / n, variance: s2 / n - (s / n) ** 2, width: c.width, height: c.height };
  },
  renderMs: (n) => {  // mean wall time of one render call (the GPU work finished by readPixels)
    const px = new Uint8Array(4), gl = renderer.getContext(), t = performance.now();
    for (let i = 0; i < n; i++) { render(); gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); }
    return (performance.now() - t) / n;
  },
  measureFps: (ms) => new Promise((ok) => {  // redraws per second of the render loop, forced
    state.continuous = true;
    const r0 = renders, t0 = performance.now();
    setTimeout(() => { state.continuous = false; ok((renders - r0) * 1000 / (performance.now() - t0)); }, ms);
  }),
  // The render loop while playing: every animation frame shows the next frame (all fetched and
  // decoded first, as a second pass of the play button) and draws it; {fps, frames, ms}
  measurePlayFps: async (ms) => {
    const frames = [];
    for (let i = 0; i < Math.min(state.nframes, 32); i++) frames.push(await fetchFrame(i));
    for (const fr of frames) showFrame(fr);  // decoded once, cached
    state.measuringPlay = true;  // drawn as while playing
    return new Promise((ok) => {
      const r0 = renders, t0 = performance.now();
      let k = 0;
      const next = () => {
        const t = performance.now() - t0, drawn = renders - r0;
        if (t >= ms) {
          state.measuringPlay = false;
          ok({ fps: drawn * 1000 / t, frames: drawn, ms: t, scale: playScale });
          return;
        }
        showFrame(frames[k++ % frames.length]);  // drawn by the render loop in the next animation frame
        requestAnimationFrame(next);
      };
      next();
    });
  },
  profile: (n = 3) => {  // where a frame's time goes: page JS, the GPU's drawing, what is drawn
    const i = renderer.info.render, c = renderer.domElement, size = renderer.getSize(new THREE.Vector2());
    const ms = window.solfecViewer.renderMs(n);
    renderer.setSize(Math.ceil(size.x / 10), Math.ceil(size.y / 10), false);  // 1 % of the pixels:
    const geometryMs = window.solfecViewer.renderMs(n);  // the vertex and triangle-setup cost
    renderer.setSize(size.x, size.y, false);
    let t = performance.now();
    for (let k = 0; k < n; k++) renderer.render(scene, camera);  // CPU side only (not finished)
    const submit = (performance.now() - t) / n;
    t = performance.now();
    for (let k = 0; k < n; k++) {
      for (const b of state.batches.concat(state.spheres ?? [])) { b.update(); if (b.prepare) b.prepare(camera, bufferSize); }
    }
    const bodies = (performance.now() - t) / n;
    const faces = state.batches.find((b) => b.prepare);
    return { render_ms: ms, geometry_ms: geometryMs, submit_ms: submit, body_update_ms: bodies, frame_js_ms: state.updateMs,
      fetch_ms: state.fetchMs, triangles: i.triangles, calls: i.calls, width: c.width, height: c.height,
      pixel_ratio: renderer.getPixelRatio(), antialias: renderer.getContextAttributes().antialias,
      gl_renderer: software.name, drawn_bodies: faces ? faces.drawn : null, impostors: faces ? faces.impostorCount : null,
      points: i.points };
  },
};

async function main() {
  resize();
  requestAnimationFrame(animate);
  const s = await api('/api/status');
  state.models = s.models;
  $('deck').textContent = s.deck || 'solfec';
  document.title = `solfec viewer: ${s.deck}`;
  const sel = $('model');
  s.models.forEach((m) => {
    const o = document.createElement('option');
    o.value = m.index;
    o.textContent = `${m.index}: ${m.output} (${m.read ? `${m.nframes} frames` : 'no output'})`;
    sel.appendChild(o);
  });
  await openModel(0, false);
  if (!state.model.read) status(state.model.runs ? 'no output yet: initial state shown; Run computes it' : 'no output');
  state.ready = true;
}
main().catch((e) => { status(e.message); console.error(e); });
