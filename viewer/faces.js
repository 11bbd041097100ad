// Merged drawing of many flat-faced bodies on software WebGL (docs/viewer.md, "Drawing"): per
// drawn frame the page keeps only the bodies in the view and their faces turned towards the
// camera, front to back, and writes their world vertices and lit face colours to one buffer, so
// the CPU rasteriser sets up half the triangles, runs a trivial vertex shader and rejects most
// hidden pixels by depth before shading them.
import * as THREE from 'three';

const VERTEX = `
attribute vec4 tint;
varying vec3 vColour;
void main() {
  vColour = tint.rgb;
  gl_Position = projectionMatrix * (viewMatrix * vec4(position, 1.0));
}`;
const FRAGMENT = `
varying vec3 vColour;
void main() {
  gl_FragColor = vec4(vColour, 1.0);
}`;

// linear colour [0, 1] -> sRGB byte (the renderer's output colour space), 4096 steps
const kSrgb = Uint8Array.from({ length: 4096 }, (_, i) => {
  const c = i / 4095;
  return Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));
});

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
  const vs = [0], ts = [0], vert = [], tri = [];
  g.forEach((f, j) => {
    plane.set([...f.n, f.d], 4 * j);
    const own = [...new Set(f.tri)];
    vert.push(...own);
    tri.push(...f.tri.map((v) => own.indexOf(v)));
    vs.push(vert.length); ts.push(tri.length);
  });
  let radius = 0;
  for (let i = 0; i < P.length; i += 3) radius = Math.max(radius, Math.hypot(P[i], P[i + 1], P[i + 2]));
  return { plane, vertStart: Uint32Array.from(vs), vert: Uint32Array.from(vert), triStart: Uint32Array.from(ts),
    tri: Uint32Array.from(tri), radius, P, I };
}

// x = F^-1 (y - c) of placement q (12 floats) into out (F^-1 y for a direction); returns det F
// (0: singular, out unset)
function toLocal(q, y0, y1, y2, out, direction = false) {
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
  // light: unit vector (two-sided Lambert, as the other meshes of the page)
  constructor(entries, colour, light) {
    let nv = 0, ni = 0;
    for (const e of entries) { nv += e.faces.P.length / 3; ni += e.faces.I.length; }
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
    const dynamic = (a, n, norm = false) => new THREE.BufferAttribute(a, n, norm).setUsage(THREE.DynamicDrawUsage);
    this.position = dynamic(new Float32Array(3 * nv), 3);
    this.tint = dynamic(new Uint8Array(4 * nv), 4, true);
    this.index = dynamic(new Uint32Array(ni), 1);
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', this.position);
    geo.setAttribute('tint', this.tint);
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
  }

  update() {  // a new frame: the placements of the shown bodies
    const Q = this.Q, shown = this.shown;
    this.entries.forEach((e, k) => {
      shown[k] = e.visible ? 1 : 0;
      if (e.visible) Q.set(e.q, 12 * k);
    });
    this.stale = true;
  }

  // The bodies in the view frustum front to back (sort keys), returns their number
  order(camera) {
    const w = camera.matrixWorld.elements, ex = w[12], ey = w[13], ez = w[14];
    const dx = -w[8], dy = -w[9], dz = -w[10];  // eye, view direction
    const fr = this.frustum.setFromProjectionMatrix(this.matrix.multiplyMatrices(camera.projectionMatrix,
      camera.matrixWorldInverse)).planes, P = this.planes;
    for (let j = 0; j < 6; j++) { fr[j].normal.toArray(P, 4 * j); P[4 * j + 3] = fr[j].constant; }
    const Q = this.Q, shown = this.shown, rad = this.radius, depth = this.depth, keys = this.keys;
    let n = 0, lo = Infinity, hi = -Infinity;
    for (let k = 0, nb = shown.length; k < nb; k++) {
      if (!shown[k]) continue;
      const o = 12 * k, cx = Q[o + 9], cy = Q[o + 10], cz = Q[o + 11];
      let s = 0;
      for (let i = o; i < o + 9; i++) s += Q[i] * Q[i];
      const r = -rad[k] * Math.sqrt(s);  // -(>= the largest stretch of F times the radius)
      let j = 0;
      for (; j < 24; j += 4) if (P[j] * cx + P[j + 1] * cy + P[j + 2] * cz + P[j + 3] < r) break;
      if (j < 24) continue;
      const d = (cx - ex) * dx + (cy - ey) * dy + (cz - ez) * dz;
      if (d < lo) lo = d;
      if (d > hi) hi = d;
      depth[k] = d;
      keys[n++] = k;
    }
    // keys = quantised depth * 2^21 + k: one numeric sort
    const scale = hi > lo ? (2 ** 24 - 1) / (hi - lo) : 0;
    for (let i = 0; i < n; i++) { const k = keys[i]; keys[i] = Math.floor((depth[k] - lo) * scale) * 2 ** 21 + k; }
    keys.subarray(0, n).sort();
    return n;
  }

  // The vertex and index buffers of this camera's view (only when the frame or view changed):
  // bodies front to back, each with its faces turned towards the camera. Typed arrays only.
  prepare(camera) {
    camera.updateMatrixWorld();
    const w = camera.matrixWorld.elements, p = camera.projectionMatrix.elements, v = this.view;
    let same = !this.stale;
    for (let i = 0; i < 16; i++) {
      if (v[i] !== w[i] || v[16 + i] !== p[i]) same = false;
      v[i] = w[i]; v[16 + i] = p[i];
    }
    if (same) return;
    this.stale = false;
    const n = this.order(camera), keys = this.keys, Q = this.Q, C = this.colour, shapes = this.shapes;
    const sid = this.shape, L = this.light, lx = L.x, ly = L.y, lz = L.z, ex = w[12], ey = w[13], ez = w[14];
    const pos = this.position.array, tint = this.tint.array, out = this.index.array;
    let m = 0, nv = 0;
    for (let i = 0; i < n; i++) {
      const k = keys[i] % 2 ** 21, o = 12 * k, f = shapes[sid[k]], pl = f.plane, X = f.P;
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
        }
      }
    }
    for (const [attr, count] of [[this.position, 3 * nv], [this.tint, 4 * nv], [this.index, m]]) {
      attr.clearUpdateRanges();
      attr.addUpdateRange(0, count);
      attr.needsUpdate = true;
    }
    this.mesh.geometry.setDrawRange(0, m);
    this.drawn = n;
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
