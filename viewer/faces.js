// Merged drawing of many flat-faced bodies on software WebGL (docs/viewer.md, "Drawing"): per
// drawn frame the page keeps only the bodies in the view and their faces turned towards the
// camera, front to back, and writes their world vertices and lit face colours to one buffer, so
// the CPU rasteriser sets up half the triangles, runs a trivial vertex shader and rejects most
// hidden pixels by depth before shading them. Bodies small on screen (convex, at most kMaxPlanes
// face planes) are drawn instead as impostors (PointSet): one point per body whose fragment
// shader casts the pixel's view ray against the body's face planes (exact depth and normal).
import * as THREE from 'three';

// A parallelogram face (box faces) is one triangle of twice its area with corner coordinates
// (0, 0), (1, 0), (0, 1): the face is where both are <= 1/2 (half the triangles of a box to set
// up; the rest of the triangle is discarded); other faces have corner (0, 0) everywhere.
const VERTEX = `
attribute vec4 tint;
attribute vec2 corner;
varying vec3 vColour;
varying vec2 vCorner;
void main() {
  vColour = tint.rgb;
  vCorner = corner;
  gl_Position = projectionMatrix * (viewMatrix * vec4(position, 1.0));
}`;
const FRAGMENT = `
varying vec3 vColour;
varying vec2 vCorner;
void main() {
  if (max(vCorner.x, vCorner.y) > 0.5) discard;
  gl_FragColor = vec4(vColour, 1.0);
}`;

// linear colour [0, 1] -> sRGB byte (the renderer's output colour space), 4096 steps
const kSrgb = Uint8Array.from({ length: 4096 }, (_, i) => {
  const c = i / 4095;
  return Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));
});

// Impostors: one point per body, placed and sized on the screen by the vertex shader to cover
// the projection of the body's bounding sphere (exact bounds of a projected sphere per screen
// axis); the fragment shader intersects the pixel's view ray with the body in its own frame,
// X = F^-1 (x - c): the convex polyhedron of face planes n.X <= d (NPLANES of them) or the unit
// sphere (SPHERE: F^-1 scaled by 1 / radius), and writes the hit's depth and lit colour (the
// two-sided Lambert of the meshes). Per point: centre c, the columns of F^-1, bounding radius,
// linear colour.
const POINT_VERTEX = `
attribute vec3 fi0, fi1, fi2, tint;
attribute float radius;
uniform mat3 rcam;  // camera to world rotation
uniform vec3 eye;
uniform vec4 proj;  // P00, P11, P22, P32 of the projection matrix
uniform vec2 viewport;  // drawing buffer pixels
flat varying mat3 vM;  // view direction -> body frame
flat varying vec3 vE, vColour;  // the eye in the body frame, the body's colour
#ifdef BOX
uniform mat3 boxN;  // columns: the normals n_k of the parallelepiped's 3 pairs of faces
uniform vec3 light;
flat varying vec3 vShade;  // the Lambert factor of the faces of each pair
#endif
void main() {
  mat3 Fi = mat3(fi0, fi1, fi2);
  vM = Fi * rcam;
  vE = Fi * (eye - position);
  vColour = tint;
#ifdef BOX  // in the coordinates n_k.X of the faces: the slabs lo_k <= n_k.X <= hi_k
  vM = transpose(boxN) * vM;
  vE = transpose(boxN) * vE;
  mat3 W = transpose(Fi) * boxN;  // columns: the world normals F^-T n_k
  vShade = 0.35 + 0.8 * abs(vec3(dot(normalize(W[0]), light), dot(normalize(W[1]), light), dot(normalize(W[2]), light)));
#endif
  vec3 c = (viewMatrix * vec4(position, 1.0)).xyz;
  float z = -c.z, r = radius;
  vec2 t = sqrt(c.xy * c.xy + z * z - r * r);  // per axis: the tangents from the eye
  vec2 lo = (c.xy * t - r * z) / (z * t + c.xy * r) * proj.xy;
  vec2 hi = (c.xy * t + r * z) / (z * t - c.xy * r) * proj.xy;
  vec2 px = (hi - lo) * 0.5 * viewport;
  gl_PointSize = max(px.x, px.y) + 0.5;
  gl_Position = vec4(0.5 * (lo + hi), (proj.z * c.z + proj.w) / z, 1.0);
}`;
const POINT_FRAGMENT = `
uniform vec3 light;
uniform mat3 rcam;
uniform vec4 proj;
uniform vec2 viewport;
#ifdef NPLANES
uniform vec4 planes[NPLANES];
#endif
#ifdef BOX
uniform vec3 boxLo, boxHi;
flat varying vec3 vShade;
#endif
flat varying mat3 vM;
flat varying vec3 vE, vColour;
void main() {  // the ray X = E + t D, t the view depth of the point
  vec3 D = vM * vec3((gl_FragCoord.xy / viewport * 2.0 - 1.0) / proj.xy, -1.0);
#ifdef SPHERE
  float a = dot(D, D), b = dot(vE, D), h = b * b - a * (dot(vE, vE) - 1.0);
  if (h < 0.0) discard;
  float t = (-b - sqrt(h)) / a;
  vec3 n = vE + t * D;
#elif defined(BOX)  // the slab method: the entering face is the one of the largest entry
  vec3 inv = 1.0 / D, t1 = (boxLo - vE) * inv, t2 = (boxHi - vE) * inv, tn = min(t1, t2), tx = max(t1, t2);
  float t = max(max(tn.x, tn.y), tn.z);
  if (t > min(min(tx.x, tx.y), tx.z)) discard;
  float shade = t == tn.x ? vShade.x : t == tn.y ? vShade.y : vShade.z;
#else
  float t = -1e30, tf = 1e30;  // entering and leaving the half-spaces n.X <= d
  vec3 n = vec3(0.0);
  for (int j = 0; j < NPLANES; j++) {
    vec3 m = planes[j].xyz;
    float den = dot(m, D), s = (planes[j].w - dot(m, vE)) / den;
    if (den < 0.0) { if (s > t) { t = s; n = m; } }
    else tf = min(tf, s);
  }
  if (t > tf) discard;
#endif
  gl_FragDepth = 0.5 - 0.5 * (proj.z * t - proj.w) / t;
#ifdef BOX
  gl_FragColor = vec4(vColour * shade, 1.0);
#else
  vec3 nw = normalize(rcam * (n * vM));  // F^-T n
  gl_FragColor = vec4(vColour * (0.35 + 0.8 * abs(dot(nw, light))), 1.0);
#endif
#include <colorspace_fragment>
}`;
export const kMaxPlanes = 32;  // shapes with more face planes are always meshes

// sqrt of the Gershgorin bound of the largest eigenvalue of F^T F (F column-wise at Q[o..o+8]):
// the largest stretch of F, exactly 1 for a rotation
export function stretch(Q, o) {
  const a = Q[o], b = Q[o + 1], c = Q[o + 2], d = Q[o + 3], e = Q[o + 4], f = Q[o + 5];
  const g = Q[o + 6], h = Q[o + 7], i = Q[o + 8];
  const g00 = a * a + b * b + c * c, g11 = d * d + e * e + f * f, g22 = g * g + h * h + i * i;
  const g01 = Math.abs(a * d + b * e + c * f), g02 = Math.abs(a * g + b * h + c * i);
  const g12 = Math.abs(d * g + e * h + f * i);
  return Math.sqrt(Math.max(g00 + g01 + g02, g11 + g01 + g12, g22 + g02 + g12));
}

export class PointSet {
  // capacity: points; planes: Float32Array of (n, d) per face plane, or null for unit spheres;
  // box: a parallelepiped's {N: 3 normals (9 floats), lo, hi: 3 floats}, drawn by slabs
  constructor(capacity, planes, light, box = null) {
    const geo = new THREE.BufferGeometry();
    this.attrs = {};
    for (const [name, n] of [['position', 3], ['fi0', 3], ['fi1', 3], ['fi2', 3], ['tint', 3], ['radius', 1]]) {
      this.attrs[name] = new THREE.BufferAttribute(new Float32Array(n * capacity), n).setUsage(THREE.DynamicDrawUsage);
      geo.setAttribute(name, this.attrs[name]);
    }
    geo.setDrawRange(0, 0);
    const np = planes ? planes.length / 4 : 0;
    this.uniforms = { light: { value: light }, rcam: { value: new THREE.Matrix3() }, eye: { value: new THREE.Vector3() },
      proj: { value: new THREE.Vector4() }, viewport: { value: new THREE.Vector2(1, 1) } };
    if (box) {
      const N = box.N;
      this.uniforms.boxN = { value: new THREE.Matrix3().set(N[0], N[3], N[6], N[1], N[4], N[7], N[2], N[5], N[8]) };
      this.uniforms.boxLo = { value: new THREE.Vector3(...box.lo) };
      this.uniforms.boxHi = { value: new THREE.Vector3(...box.hi) };
    } else if (planes) {
      this.uniforms.planes = { value: Array.from({ length: np }, (_, j) => new THREE.Vector4().fromArray(planes, 4 * j)) };
    }
    const defines = box ? { BOX: 1 } : planes ? { NPLANES: np } : { SPHERE: 1 };
    this.mesh = new THREE.Points(geo, new THREE.ShaderMaterial({ defines,
      uniforms: this.uniforms, vertexShader: POINT_VERTEX, fragmentShader: POINT_FRAGMENT }));
    this.mesh.frustumCulled = false;
    this.mesh.raycast = () => {};  // picked by the owner
    this.n = 0;
  }

  begin(camera, size) {  // a new view: the camera's uniforms, no points
    const u = this.uniforms, p = camera.projectionMatrix.elements;
    u.rcam.value.setFromMatrix4(camera.matrixWorld);
    u.eye.value.setFromMatrixPosition(camera.matrixWorld);
    u.proj.value.set(p[0], p[5], p[10], p[14]);
    u.viewport.value.copy(size);
    this.n = 0;
  }

  // a point of centre (x, y, z), placement F (column-wise at Q[o..o+8]) scaled by s (a sphere's
  // radius, else 1), bounding radius r in the world, linear colour C[3 k..3 k + 2]
  add(Q, o, x, y, z, s, r, C, k) {
    const a = Q[o] * s, b = Q[o + 3] * s, c = Q[o + 6] * s, d = Q[o + 1] * s, e = Q[o + 4] * s;
    const f = Q[o + 7] * s, g = Q[o + 2] * s, h = Q[o + 5] * s, i = Q[o + 8] * s;
    const A = e * i - f * h, B = f * g - d * i, D = d * h - e * g, det = a * A + b * B + c * D;
    if (!(Math.abs(det) > 1e-30)) return;
    const at = this.attrs, n = this.n++, m = 3 * n, w = 1 / det;
    at.position.array[m] = x; at.position.array[m + 1] = y; at.position.array[m + 2] = z;
    const f0 = at.fi0.array, f1 = at.fi1.array, f2 = at.fi2.array, t = at.tint.array;
    f0[m] = A * w; f0[m + 1] = B * w; f0[m + 2] = D * w;
    f1[m] = (c * h - b * i) * w; f1[m + 1] = (a * i - c * g) * w; f1[m + 2] = (b * g - a * h) * w;
    f2[m] = (b * f - c * e) * w; f2[m + 1] = (c * d - a * f) * w; f2[m + 2] = (a * e - b * d) * w;
    t[m] = C[3 * k]; t[m + 1] = C[3 * k + 1]; t[m + 2] = C[3 * k + 2];
    at.radius.array[n] = r;
  }

  end() {
    for (const a of Object.values(this.attrs)) {
      a.clearUpdateRanges();
      a.addUpdateRange(0, a.itemSize * this.n);
      a.needsUpdate = this.n > 0;
    }
    this.mesh.geometry.setDrawRange(0, this.n);
  }
}

// The faces of a flat surface {P, N, I} (one vertex per vertex and face plane, so a face owns its
// vertices): triangles grouped by plane (normal n, offset d = n.X); a face is seen from a local
// point E only if n.E > d. Per face: its vertices and its triangles numbered within them.
export function facePlanes(flat) {
  const { P, N, I } = flat, groups = new Map();
  for (let t = 0; t < I.length; t += 3) {
    const v = 3 * I[t], n = [N[v], N[v + 1], N[v + 2]];
    const d = n[0] * P[v] + n[1] * P[v + 1] + n[2] * P[v + 2];
    const key = `${n.map((x) => Math.round(x * 1e4)).join(',')},${d.toPrecision(5)}`;
    if (!groups.has(key)) groups.set(key, { n, d, tri: [] });
    groups.get(key).tri.push(I[t], I[t + 1], I[t + 2]);
  }
  const g = [...groups.values()], plane = new Float32Array(4 * g.length);
  const vs = [0], ts = [0], vert = [], tri = [], corner = [], extra = [];
  g.forEach((f, j) => {
    plane.set([...f.n, f.d], 4 * j);
    const own = [...new Set(f.tri)], pg = own.length === 4 && f.tri.length === 6 ? parallelogram(P, own) : null;
    if (pg) {  // one triangle A, A + 2 (B - A), A + 2 (D - A), the parallelogram its corner u, v <= 1/2
      const [A, B, D] = pg.map((v) => [P[3 * v], P[3 * v + 1], P[3 * v + 2]]);
      const e = P.length / 3 + extra.length / 3;
      extra.push(...A, ...A.map((x, i) => x + 2 * (B[i] - x)), ...A.map((x, i) => x + 2 * (D[i] - x)));
      vert.push(e, e + 1, e + 2);
      corner.push(0, 0, 255, 0, 0, 255);
      const u = B.map((x, i) => x - A[i]), w = D.map((x, i) => x - A[i]);  // outward winding
      const out = (u[1] * w[2] - u[2] * w[1]) * f.n[0] + (u[2] * w[0] - u[0] * w[2]) * f.n[1] + (u[0] * w[1] - u[1] * w[0]) * f.n[2];
      tri.push(...(out > 0 ? [0, 1, 2] : [0, 2, 1]));
    } else {
      vert.push(...own);
      corner.push(...own.flatMap(() => [0, 0]));
      tri.push(...f.tri.map((v) => own.indexOf(v)));
    }
    vs.push(vert.length); ts.push(tri.length);
  });
  let radius = 0;
  for (let i = 0; i < P.length; i += 3) radius = Math.max(radius, Math.hypot(P[i], P[i + 1], P[i + 2]));
  // convex (every vertex inside every face plane, to 1e-4 of the size): drawable as an impostor
  let convex = g.length <= kMaxPlanes;
  for (let j = 0; convex && j < g.length; j++) {
    for (let i = 0; i < P.length; i += 3) {
      if (plane[4 * j] * P[i] + plane[4 * j + 1] * P[i + 1] + plane[4 * j + 2] * P[i + 2] > plane[4 * j + 3] + 1e-4 * radius) {
        convex = false;
        break;
      }
    }
  }
  // drawn: the face vertices (X: the surface's and the parallelogram triangles' corners), corner
  // codes; picked: the surface's triangles (P, I)
  // a parallelepiped (3 pairs of opposite face planes): its slabs lo_k <= n_k.X <= hi_k
  let box = null;
  if (convex && g.length === 6) {
    const N = [], lo = [], hi = [], used = new Set();
    for (let j = 0; j < 6; j++) {
      if (used.has(j)) continue;
      const k = g.findIndex((o, i) => i !== j && !used.has(i) && o.n.every((x, c) => Math.abs(x + g[j].n[c]) < 1e-4));
      if (k < 0) break;
      used.add(j).add(k);
      N.push(...g[j].n); hi.push(g[j].d); lo.push(-g[k].d);
    }
    if (used.size === 6) box = { N, lo, hi };
  }
  return { plane, vertStart: Uint32Array.from(vs), vert: Uint32Array.from(vert), triStart: Uint32Array.from(ts),
    tri: Uint32Array.from(tri), corner: Uint8Array.from(corner), X: Float32Array.from([...P, ...extra]), radius, P, I,
    convex, box };
}

// The vertices [A, B, D] of a parallelogram A B C D (C = B + D - A) of the 4 vertex indices v of
// P (to 1e-5 of their size), or null
function parallelogram(P, v) {
  const p = (i, k) => P[3 * v[i] + k];
  let size = 0;
  for (let i = 0; i < 4; i++) for (let k = 0; k < 3; k++) size = Math.max(size, Math.abs(p(i, k)));
  for (const [a, c, b, d] of [[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]]) {  // diagonals a-c, b-d
    let off = 0;
    for (let k = 0; k < 3; k++) off = Math.max(off, Math.abs(p(a, k) + p(c, k) - p(b, k) - p(d, k)));
    if (off <= 1e-5 * size) return [v[a], v[b], v[d]];
  }
  return null;
}

// x = F^-1 (y - c) of placement q (12 floats) into out (F^-1 y for a direction); returns det F
// (0: singular, out unset)
export function toLocal(q, y0, y1, y2, out, direction = false) {
  const a = q[0], b = q[3], c = q[6], d = q[1], e = q[4], f = q[7], g = q[2], h = q[5], i = q[8];
  const A = e * i - f * h, B = f * g - d * i, C = d * h - e * g, det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 1e-30)) return 0;
  const x = direction ? y0 : y0 - q[9], y = direction ? y1 : y1 - q[10], z = direction ? y2 : y2 - q[11];
  out[0] = (A * x + (c * h - b * i) * y + (b * f - c * e) * z) / det;
  out[1] = (B * x + (a * i - c * g) * y + (c * d - a * f) * z) / det;
  out[2] = (C * x + (b * g - a * h) * y + (a * e - b * d) * z) / det;
  return det;
}

export class Faces {
  // entries: {body, q, visible, faces: facePlanes(flat)}; colour(body) -> THREE.Color (linear);
  // light: unit vector (two-sided Lambert, as the other meshes of the page); lod: the largest
  // screen size [px] of a body drawn as an impostor (0: none; at most maxPoint, the GL's largest
  // point size, less the margin of off-axis projection)
  constructor(entries, colour, light, lod = 0, maxPoint = 0) {
    let nv = 0, ni = 0;
    for (const e of entries) { nv += e.faces.vert.length; ni += e.faces.I.length; }
    this.entries = entries;
    this.light = light;
    const nb = entries.length;  // per body, preallocated: shown, placement, colour, radius, depth
    this.shown = new Uint8Array(nb);
    this.Q = new Float32Array(12 * nb);
    this.colour = new Float32Array(3 * nb);
    entries.forEach((e, k) => colour(e.body).toArray(this.colour, 3 * k));
    this.radius = Float32Array.from(entries, (e) => e.faces.radius);
    this.depth = new Float64Array(nb);
    this.keys = new Float64Array(nb);
    this.shapes = [...new Set(entries.map((e) => e.faces))];  // face data of each shape
    const sid = new Map(this.shapes.map((f, i) => [f, i]));
    this.shape = Uint32Array.from(entries, (e) => sid.get(e.faces));
    const count = this.shapes.map(() => 0);
    for (const k of this.shape) count[k]++;
    this.impostors = this.shapes.map((f, i) => (f.convex && lod > 0 ? new PointSet(count[i], f.plane, light, f.box) : null));
    this.lod = Math.min(lod, maxPoint / 1.5 - 4);
    this.size = new THREE.Vector2(1, 1);  // the drawing buffer's pixels of the last prepare
    const dynamic = (a, n, norm = false) => new THREE.BufferAttribute(a, n, norm).setUsage(THREE.DynamicDrawUsage);
    this.position = dynamic(new Float32Array(3 * nv), 3);
    this.tint = dynamic(new Uint8Array(4 * nv), 4, true);
    this.corner = dynamic(new Uint8Array(2 * nv), 2, true);
    this.index = dynamic(new Uint32Array(ni), 1);
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', this.position);
    geo.setAttribute('tint', this.tint);
    geo.setAttribute('corner', this.corner);
    geo.setIndex(this.index);
    geo.setDrawRange(0, 0);
    this.mesh = new THREE.Mesh(geo, new THREE.ShaderMaterial({ vertexShader: VERTEX, fragmentShader: FRAGMENT }));
    this.mesh.frustumCulled = false;
    this.mesh.raycast = () => {};  // vertices of one view only: picked by pick() below
    this.mesh.userData.faces = this;
    this.planes = new Float64Array(24);  // the view frustum's
    this.view = new Float64Array(32);  // the camera of the last prepare (world, projection)
    this.frustum = new THREE.Frustum();
    this.matrix = new THREE.Matrix4();
    this.stale = true;
    this.drawn = 0;
    this.impostorCount = 0;  // of the drawn bodies, impostors
    this.objects = [this.mesh, ...this.impostors.filter(Boolean).map((p) => p.mesh)];  // for the scene
  }

  update() {  // a new frame: the placements of the shown bodies
    const Q = this.Q, shown = this.shown;
    this.entries.forEach((e, k) => {
      shown[k] = e.visible ? 1 : 0;
      if (e.visible) Q.set(e.q, 12 * k);
    });
    this.stale = true;
  }

  // The bodies in the view frustum: those small on screen and entirely in the view added to the
  // impostors, the others front to back (sort keys); returns their number
  order(camera) {
    const w = camera.matrixWorld.elements, ex = w[12], ey = w[13], ez = w[14];
    const dx = -w[8], dy = -w[9], dz = -w[10];  // eye, view direction
    const fr = this.frustum.setFromProjectionMatrix(this.matrix.multiplyMatrices(camera.projectionMatrix,
      camera.matrixWorldInverse)).planes, P = this.planes;
    for (let j = 0; j < 6; j++) { fr[j].normal.toArray(P, 4 * j); P[4 * j + 3] = fr[j].constant; }
    const Q = this.Q, shown = this.shown, rad = this.radius, depth = this.depth, keys = this.keys;
    const imp = this.impostors, sid = this.shape, C = this.colour;
    for (const p of imp) if (p) p.begin(camera, this.size);
    // a body of bounding radius r at depth d spans < 2 r f / (d - r) pixels on the axis
    const f = camera.projectionMatrix.elements[5] * this.size.y / 2, lod = this.lod;
    let n = 0, lo = Infinity, hi = -Infinity, points = 0;
    for (let k = 0, nb = shown.length; k < nb; k++) {
      if (!shown[k]) continue;
      const o = 12 * k, cx = Q[o + 9], cy = Q[o + 10], cz = Q[o + 11];
      let s = 0;
      for (let i = o; i < o + 9; i++) s += Q[i] * Q[i];
      const r = -rad[k] * Math.sqrt(s);  // -(>= the largest stretch of F times the radius)
      let j = 0;
      for (; j < 24; j += 4) if (P[j] * cx + P[j + 1] * cy + P[j + 2] * cz + P[j + 3] < r) break;
      if (j < 24) continue;
      const d = (cx - ex) * dx + (cy - ey) * dy + (cz - ez) * dz, p = imp[sid[k]];
      if (p) {  // small and entirely in the view (points are clipped by their centre): an impostor
        const g = rad[k] * stretch(Q, o);
        for (j = 0; j < 24; j += 4) if (P[j] * cx + P[j + 1] * cy + P[j + 2] * cz + P[j + 3] < g) break;
        if (j === 24 && d > g && 2 * g * f <= lod * (d - g)) {
          p.add(Q, o, cx, cy, cz, 1, g, C, k);
          points++;
          continue;
        }
      }
      if (d < lo) lo = d;
      if (d > hi) hi = d;
      depth[k] = d;
      keys[n++] = k;
    }
    // keys = quantised depth * 2^21 + k: one numeric sort
    const scale = hi > lo ? (2 ** 24 - 1) / (hi - lo) : 0;
    for (let i = 0; i < n; i++) { const k = keys[i]; keys[i] = Math.floor((depth[k] - lo) * scale) * 2 ** 21 + k; }
    keys.subarray(0, n).sort();
    for (const p of imp) if (p) p.end();
    this.impostorCount = points;
    return n;
  }

  // The vertex and index buffers of this camera's view (only when the frame or view changed):
  // bodies front to back, each with its faces turned towards the camera. Typed arrays only.
  prepare(camera, size) {  // size: the drawing buffer's pixels (THREE.Vector2)
    camera.updateMatrixWorld();
    const w = camera.matrixWorld.elements, p = camera.projectionMatrix.elements, v = this.view;
    let same = !this.stale && this.size.equals(size);
    this.size.copy(size);
    for (let i = 0; i < 16; i++) {
      if (v[i] !== w[i] || v[16 + i] !== p[i]) same = false;
      v[i] = w[i]; v[16 + i] = p[i];
    }
    if (same) return;
    this.stale = false;
    const n = this.order(camera), keys = this.keys, Q = this.Q, C = this.colour, shapes = this.shapes;
    const sid = this.shape, L = this.light, lx = L.x, ly = L.y, lz = L.z, ex = w[12], ey = w[13], ez = w[14];
    const pos = this.position.array, tint = this.tint.array, corner = this.corner.array, out = this.index.array;
    let m = 0, nv = 0;
    for (let i = 0; i < n; i++) {
      const k = keys[i] % 2 ** 21, o = 12 * k, f = shapes[sid[k]], pl = f.plane, X = f.X, cor = f.corner;
      const vs = f.vertStart, vert = f.vert, ts = f.triStart, tri = f.tri;
      const a = Q[o], b = Q[o + 3], c = Q[o + 6], d = Q[o + 1], e = Q[o + 4], g = Q[o + 7];
      const h = Q[o + 2], l = Q[o + 5], t = Q[o + 8], cx = Q[o + 9], cy = Q[o + 10], cz = Q[o + 11];
      // the eye in the body's frame, E = F^-1 (eye - c) = adj(F) (eye - c) / det F
      const A = e * t - g * l, B = g * h - d * t, D = d * l - e * h, det = a * A + b * B + c * D;
      const x = ex - cx, y = ey - cy, z = ez - cz;
      const Ex = (A * x + (c * l - b * t) * y + (b * g - c * e) * z) / det;
      const Ey = (B * x + (a * t - c * h) * y + (c * d - a * g) * z) / det;
      const Ez = (D * x + (b * h - a * l) * y + (a * e - b * d) * z) / det;
      const cull = det > 0;  // else (mirrored or singular F) all faces
      for (let j = 0, nf = vs.length - 1; j < nf; j++) {
        const nx = pl[4 * j], ny = pl[4 * j + 1], nz = pl[4 * j + 2];
        if (cull && nx * Ex + ny * Ey + nz * Ez <= pl[4 * j + 3]) continue;
        // the face's colour: two-sided Lambert of the world normal F n, sRGB bytes
        const wx = a * nx + b * ny + c * nz, wy = d * nx + e * ny + g * nz, wz = h * nx + l * ny + t * nz;
        const s = 0.35 + 0.8 * Math.abs(wx * lx + wy * ly + wz * lz) / (Math.sqrt(wx * wx + wy * wy + wz * wz) || 1);
        const r = kSrgb[Math.min(4095, (4095 * s * C[3 * k]) | 0)], gr = kSrgb[Math.min(4095, (4095 * s * C[3 * k + 1]) | 0)];
        const bl = kSrgb[Math.min(4095, (4095 * s * C[3 * k + 2]) | 0)];
        for (let q = ts[j]; q < ts[j + 1]; q++) out[m++] = nv + tri[q];
        for (let q = vs[j]; q < vs[j + 1]; q++, nv++) {
          const u = 3 * vert[q], X0 = X[u], X1 = X[u + 1], X2 = X[u + 2];
          pos[3 * nv] = a * X0 + b * X1 + c * X2 + cx;
          pos[3 * nv + 1] = d * X0 + e * X1 + g * X2 + cy;
          pos[3 * nv + 2] = h * X0 + l * X1 + t * X2 + cz;
          tint[4 * nv] = r; tint[4 * nv + 1] = gr; tint[4 * nv + 2] = bl; tint[4 * nv + 3] = 255;
          corner[2 * nv] = cor[2 * q]; corner[2 * nv + 1] = cor[2 * q + 1];
        }
      }
    }
    for (const [attr, count] of [[this.position, 3 * nv], [this.tint, 4 * nv], [this.corner, 2 * nv], [this.index, m]]) {
      attr.clearUpdateRanges();
      attr.addUpdateRange(0, count);
      attr.needsUpdate = true;
    }
    this.mesh.geometry.setDrawRange(0, m);
    this.drawn = n + this.impostorCount;
  }

  // [[entry, distance]] of the shown bodies the ray (THREE.Ray, unit direction) hits
  pick(ray) {
    const hits = [], o = [0, 0, 0], u = [0, 0, 0], V = new THREE.Vector3(), W = new THREE.Vector3();
    const A = new THREE.Vector3(), B = new THREE.Vector3(), C = new THREE.Vector3();
    for (const e of this.entries) {
      const q = e.q;
      if (!e.visible) continue;
      let s = 0;
      for (let i = 0; i < 9; i++) s += q[i] * q[i];
      const r = e.faces.radius * Math.sqrt(s), c = V.set(q[9], q[10], q[11]);
      if (ray.distanceSqToPoint(c) > r * r) continue;
      const det = toLocal(q, ray.origin.x, ray.origin.y, ray.origin.z, o);
      if (!det) continue;
      toLocal(q, ray.direction.x, ray.direction.y, ray.direction.z, u, true);
      const local = new THREE.Ray(new THREE.Vector3(...o), new THREE.Vector3(...u));
      const { I, P } = e.faces;
      let best = Infinity;
      for (let t = 0; t < I.length; t += 3) {  // x = o + t u in both frames: t is the distance
        A.fromArray(P, 3 * I[t]); B.fromArray(P, 3 * I[t + 1]); C.fromArray(P, 3 * I[t + 2]);
        if (local.intersectTriangle(A, B, C, det > 0, W)) {
          best = Math.min(best, W.sub(local.origin).dot(local.direction) / local.direction.lengthSq());
        }
      }
      if (best < Infinity) hits.push([e, best]);
    }
    return hits;
  }
}
