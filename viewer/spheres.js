// The spheres of the solfec viewer page (viewer.js; docs/viewer.md, "Drawing"): on a view change,
// those small on screen and entirely in the view as impostors (PointSet, faces.js: exact
// ray-sphere, or ray-ellipsoid for a pseudo-rigid F), the others one InstancedMesh; picked
// analytically.
import * as THREE from 'three';
import { PointSet, stretch, toLocal } from './faces.js';

export class Spheres {
  // items: [entry {body, q, visible}, [cx, cy, cz, r]] with centres local to the mass centre;
  // material: of the meshes (instance colours applied); colour(body) -> THREE.Color (linear);
  // light: unit vector; segments: [width, height] of a sphere mesh; lod: the largest screen size
  // [px] of an impostor (0: none)
  constructor(items, { material, colour, light, segments, lod }) {
    this.items = items;
    this.mesh = new THREE.InstancedMesh(new THREE.SphereGeometry(1, ...segments), material, items.length);
    this.colour = new Float32Array(3 * items.length);
    items.forEach(([e], i) => { this.mesh.setColorAt(i, colour(e.body)); colour(e.body).toArray(this.colour, 3 * i); });
    this.mesh.frustumCulled = false;
    this.mesh.raycast = () => {};  // picked by pick()
    this.points = lod > 0 ? new PointSet(items.length, null, light) : null;
    this.objects = this.points ? [this.mesh, this.points.mesh] : [this.mesh];  // for the scene
    this.lod = lod;
    this.view = new Float64Array(32);
    this.size = new THREE.Vector2();
    this.frustum = new THREE.Frustum();
    this.stale = true;
    this.drawn = 0;
    this.impostorCount = 0;
  }

  update() { this.stale = true; }  // a new frame: drawn at the next prepare

  // the world centre of sphere i into c (THREE.Vector3); returns the sphere's bounding radius
  centre(i, c) {
    const [e, [x, y, z, r]] = this.items[i], q = e.q;
    c.set(q[0] * x + q[3] * y + q[6] * z + q[9], q[1] * x + q[4] * y + q[7] * z + q[10], q[2] * x + q[5] * y + q[8] * z + q[11]);
    return r * stretch(q, 0);
  }

  prepare(camera, size) {  // the instances and impostors of this view (when it or the frame changed)
    camera.updateMatrixWorld();
    const w = camera.matrixWorld.elements, p = camera.projectionMatrix.elements, v = this.view;
    let same = !this.stale && this.size.equals(size);
    for (let i = 0; i < 16; i++) {
      if (v[i] !== w[i] || v[16 + i] !== p[i]) same = false;
      v[i] = w[i]; v[16 + i] = p[i];
    }
    this.size.copy(size);
    if (same) return;
    this.stale = false;
    const planes = this.frustum.setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix,
      camera.matrixWorldInverse)).planes;
    const a = this.mesh.instanceMatrix.array, col = this.mesh.instanceColor.array, C = this.colour, c = new THREE.Vector3();
    const f = p[5] * size.y / 2, pts = this.points;
    if (pts) pts.begin(camera, size);
    let n = 0;
    this.items.forEach(([e, [, , , r]], i) => {
      if (!e.visible) return;
      const g = this.centre(i, c), q = e.q;
      let inside = true;
      for (const pl of planes) {
        const dist = pl.distanceToPoint(c);
        if (dist < -g) return;  // outside the view
        if (dist < g) inside = false;
      }
      const d = (c.x - w[12]) * -w[8] + (c.y - w[13]) * -w[9] + (c.z - w[14]) * -w[10];  // view depth
      if (pts && inside && d > g && 2 * g * f <= this.lod * (d - g)) { pts.add(q, 0, c.x, c.y, c.z, r, g, C, i); return; }
      const o = 16 * n;
      a[o] = q[0] * r; a[o + 1] = q[1] * r; a[o + 2] = q[2] * r; a[o + 3] = 0;
      a[o + 4] = q[3] * r; a[o + 5] = q[4] * r; a[o + 6] = q[5] * r; a[o + 7] = 0;
      a[o + 8] = q[6] * r; a[o + 9] = q[7] * r; a[o + 10] = q[8] * r; a[o + 11] = 0;
      a[o + 12] = c.x; a[o + 13] = c.y; a[o + 14] = c.z; a[o + 15] = 1;
      col[3 * n] = C[3 * i]; col[3 * n + 1] = C[3 * i + 1]; col[3 * n + 2] = C[3 * i + 2];
      n++;
    });
    this.mesh.count = n;
    for (const [attr, k] of [[this.mesh.instanceMatrix, 16], [this.mesh.instanceColor, 3]]) {
      attr.clearUpdateRanges();
      attr.addUpdateRange(0, k * n);
      attr.needsUpdate = true;
    }
    if (pts) pts.end();
    this.impostorCount = pts ? pts.n : 0;
    this.drawn = n + this.impostorCount;
  }

  pick(ray) {  // [[entry, distance]] of the shown spheres the ray (unit direction) hits
    const hits = [], o = [0, 0, 0], u = [0, 0, 0], c = new THREE.Vector3(), s = new Float32Array(12);
    this.items.forEach(([e, [, , , r]], i) => {
      if (!e.visible) return;
      const g = this.centre(i, c);
      if (ray.distanceSqToPoint(c) > g * g) return;
      for (let k = 0; k < 9; k++) s[k] = e.q[k] * r;  // x = (r F) X + c: X on the unit sphere
      s[9] = c.x; s[10] = c.y; s[11] = c.z;
      if (!toLocal(s, ray.origin.x, ray.origin.y, ray.origin.z, o)) return;
      toLocal(s, ray.direction.x, ray.direction.y, ray.direction.z, u, true);
      const A = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], B = o[0] * u[0] + o[1] * u[1] + o[2] * u[2];
      const h = B * B - A * (o[0] * o[0] + o[1] * o[1] + o[2] * o[2] - 1);
      if (h >= 0) hits.push([e, (-B - Math.sqrt(h)) / A]);
    });
    return hits;
  }
}
