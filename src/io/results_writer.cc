// Frames and body definitions written to the HDF5 results file with the libhdf5 C API.
#include "io/results_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

#include "base/errors.h"
#include "base/timer.h"
#include "body/body.h"
#include "body/body_state.h"
#include "body/fem/fe_body.h"
#include "body/fem/ffr_body.h"
#include "body/fem/reduced_fe_body.h"
#include "contact/constraint.h"
#include "contact/constraint_record.h"
#include "material/hyperelastic.h"

namespace solfec::io {

namespace {

// Chunk sizes. An uncompressed chunk takes its full size on disk once touched, so the chunks
// of the per-frame state (bodies, q, u) are sized from the first frame: about 16 frames per
// chunk, at most the former fixed sizes, so a small model's file stays small. Deflated tables
// start every appended block at a chunk boundary (H5Table::AlignedStart): a compressed chunk
// is then written once, and its unused rows (zeros) cost next to nothing on disk; their chunks
// hold about one frame (state with compression 'ON') or many (shapes, written once).
constexpr hsize_t kValuesChunkMax = 8192;  // flat q, u
constexpr hsize_t kRowsChunkMax = 1024;    // body state rows
constexpr hsize_t kSmallChunk = 32;        // frame table
constexpr hsize_t kConChunk = 128;         // constraint states (128 x 256 B: deflate's window)
constexpr hsize_t kConDefChunk = 64;       // constraint definitions
constexpr hsize_t kShapeChunk = 1024;      // labels, face indices, faces, bases values
constexpr int kStaticLevel = 6;            // deflate level of tables written once
constexpr size_t kAsyncBytes = 64 * 1024;  // frames with more deflated bytes: worker thread

// Smallest power of two >= n, clamped to [lo, hi].
hsize_t Pow2Chunk(size_t n, hsize_t lo, hsize_t hi) {
  hsize_t c = 1;
  while (c < n && c < hi) c <<= 1;
  return std::clamp(c, lo, hi);
}

hid_t FileAccess() {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  return fapl;
}

// utf8: a variable-length UTF-8 string (h5py reads it as str); else fixed-length ASCII.
void StringAttribute(hid_t obj, const std::string& name, const std::string& value,
                     bool utf8 = false) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, utf8 ? H5T_VARIABLE : std::max<size_t>(1, value.size()));
  if (utf8) H5Tset_cset(type, H5T_CSET_UTF8);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attr = H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* text = value.c_str();
  const herr_t st = attr < 0 ? -1 : utf8 ? H5Awrite(attr, type, &text)
                                         : H5Awrite(attr, type, text);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  H5Check(st, "write attribute '" + name + "'");
}

void IntAttribute(hid_t obj, const std::string& name, int value) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attr = H5Acreate2(obj, name.c_str(), H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t st = attr < 0 ? -1 : H5Awrite(attr, H5T_NATIVE_INT, &value);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Check(st, "write attribute '" + name + "'");
}

// The 'units' attribute (SI; docs/output.md) of every dataset that holds physical values.
void UnitAttributes(hid_t file) {
  static const char* const kUnits[][2] = {
      {"frames/table",
       "time: s; step: s; merit: 1; timing: s; energy: J; other fields: counts or row indices"},
      {"frames/bodies", "energy: J (kinetic, internal, external, contact, friction)"},
      {"frames/q",
       "m for positions (mass centres, FE nodes); 1 for rotation and deformation-gradient "
       "entries and reduced coordinates (docs/output.md)"},
      {"frames/u",
       "m/s for velocities (mass centres, FE nodes); 1/s for angular velocities and dF/dt "
       "entries (docs/output.md)"},
      {"frames/constraints",
       "point, point2, X1, X2, gap: m; base: 1; R: N; U: m/s; area: m^2; merit: 1; age: steps"},
      {"constraints/table", "ids and surface/piece indices: 1"},
      {"bodies/table",
       "mass: kg; volume: m^3; center: m; tensor: kg m^2; young: Pa; poisson: 1; "
       "density: kg/m^3"},
      {"shapes/vertices", "m"},
      {"shapes/spheres", "center: m; radius: m"},
      {"frames/count", "1"},
  };
  for (const auto& [path, units] : kUnits) {
    const hid_t obj = H5Oopen(file, path, H5P_DEFAULT);
    H5CheckId(obj, std::string("open '") + path + "'");
    try {
      StringAttribute(obj, "units", units, /*utf8=*/true);
    } catch (...) {
      H5Oclose(obj);
      throw;
    }
    H5Oclose(obj);
  }
}

void Copy3(const Vec3& v, double* out) {
  for (int i = 0; i < 3; ++i) out[i] = v[i];
}

// (sum |e|, sum e, sum e w) over E column after column, w = frac(0.618... i): enough to tell
// a deck's base from the one a file was written with (python/solfec/results.py repeats it).
std::array<double, 3> BaseFingerprint(const MatX& E) {
  constexpr double kGolden = 0.6180339887498949;
  std::array<double, 3> f{0.0, 0.0, 0.0};
  for (Eigen::Index i = 0; i < E.size(); ++i) {
    const double e = E.data()[i];
    double w = static_cast<double>(i) * kGolden;
    w -= std::floor(w);
    f[0] += std::abs(e);
    f[1] += e;
    f[2] += e * w;
  }
  return f;
}

}  // namespace

ResultsWriter::ResultsWriter(std::string path, Mode mode,
                             const std::map<std::string, std::string>& attributes)
    : path_(std::move(path)) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions, not prints
  if (mode == Mode::kAppend) {
    OpenLayout();
    return;
  }
  const hid_t fapl = FileAccess();
  errno = 0;
  file_ = H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (file_ < 0) {
    const std::string why = errno ? std::string(": ") + std::strerror(errno) : "";
    throw InputError("OUTPUT: cannot create the results file '" + path_ + "'" + why +
                     "; check that the output directory is writable and the disk not full");
  }
  StringAttribute(file_, "format", kFormatName);
  IntAttribute(file_, "version", kFormatVersion);
  for (const auto& [k, v] : attributes) StringAttribute(file_, k, v);
  H5Check(H5Fflush(file_, H5F_SCOPE_LOCAL), "flush '" + path_ + "'");
}

ResultsWriter::~ResultsWriter() {
  try {
    Close();
  } catch (...) {
  }
}

void ResultsWriter::CreateLayout(const domain::Domain& d) {
  const RecordTypes& t = Types();
  const bool z = compression_;
  size_t nb = 0, nq = 0, nu = 0;  // sizes of the first frame
  for (const auto& b : d.bodies()) {
    ++nb;
    nq += static_cast<size_t>(b->q().size());
    nu += static_cast<size_t>(b->u().size());
  }
  const auto state_chunk = [z](size_t n, hsize_t lo, hsize_t hi) {
    return z ? Pow2Chunk(n, lo, hi) : Pow2Chunk(16 * n, 16 * lo, hi);
  };
  const hid_t frames = H5CheckId(H5Gcreate2(file_, "frames", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                                 "create group 'frames'");
  const hid_t bodies = H5Gcreate2(file_, "bodies", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t shapes = H5Gcreate2(file_, "shapes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t cons = H5Gcreate2(file_, "constraints", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  frame_.Create(frames, "table", t.frame, 0, kSmallChunk, false);
  body_state_.Create(frames, "bodies", t.body_state, 0, state_chunk(nb, 2, kRowsChunkMax), z);
  q_.Create(frames, "q", H5T_NATIVE_DOUBLE, 0, state_chunk(nq, 64, kValuesChunkMax), z);
  u_.Create(frames, "u", H5T_NATIVE_DOUBLE, 0, state_chunk(nu, 64, kValuesChunkMax), z);
  // constraints and the tables written once are deflated whenever libhdf5 can; rows between
  // frames' blocks of constraint tables read as def = -1 and id = -1 (unused)
  ConstraintStateRow no_state;
  no_state.def = -1;
  ConstraintDefRow no_def;
  no_def.id = -1;
  constraint_.Create(frames, "constraints", t.constraint_state, 0, kConChunk, true, kStaticLevel,
                     &no_state);
  constraint_def_.Create(cons, "table", t.constraint_def, 0, kConDefChunk, true, kStaticLevel,
                         &no_def);
  // rows [0, def_count) of /bodies/table are read as a block: contiguous, hence plain
  def_.Create(bodies, "table", t.body_def, 0, Pow2Chunk(nb, 8, kRowsChunkMax), false);
  labels_.Create(bodies, "labels", H5T_NATIVE_UINT8, 0, kShapeChunk, true, kStaticLevel);
  convex_.Create(shapes, "convexes", t.convex, 0, 256, true, kStaticLevel);
  vertices_.Create(shapes, "vertices", H5T_NATIVE_DOUBLE, 3, 2048, true, kStaticLevel);
  face_.Create(shapes, "faces", t.face, 0, kShapeChunk, true, kStaticLevel);
  face_vertices_.Create(shapes, "face_vertices", H5T_NATIVE_INT32, 0, 4096, true, kStaticLevel);
  sphere_.Create(shapes, "spheres", t.sphere, 0, 256, true, kStaticLevel);
  ellipsoid_.Create(shapes, "ellipsoids", t.ellipsoid, 0, 256, true, kStaticLevel);
  mesh_.Create(shapes, "meshes", t.mesh, 0, 16, true, kStaticLevel);
  mesh_element_.Create(shapes, "mesh_elements", t.mesh_element, 0, 1024, true, kStaticLevel);
  mesh_face_.Create(shapes, "mesh_faces", t.mesh_face, 0, 1024, true, kStaticLevel);
  // a stream of records parsed in sequence, so contiguous: a later batch of reduced bodies
  // rewrites the partial last chunk (its old copy, at most one chunk, stays as dead space)
  bases_.Create(shapes, "bases", H5T_NATIVE_DOUBLE, 0, kShapeChunk, true, kStaticLevel);
  hsize_t one = 1;
  const hid_t space = H5Screate_simple(1, &one, nullptr);
  count_ = H5CheckId(H5Dcreate2(frames, "count", H5T_NATIVE_INT64, space, H5P_DEFAULT,
                                H5P_DEFAULT, H5P_DEFAULT),
                     "create dataset 'count'");
  H5Sclose(space);
  const int64_t zero = 0;
  H5Check(H5Dwrite(count_, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &zero), "write 'count'");
  IntAttribute(file_, "compression", z ? 1 : 0);
  UnitAttributes(file_);
  H5Gclose(frames);
  H5Gclose(bodies);
  H5Gclose(shapes);
  H5Gclose(cons);
  layout_ = true;
  StartSwmr();
}

void ResultsWriter::StartSwmr() {
  H5Check(H5Fstart_swmr_write(file_), "start SWMR writing of '" + path_ + "'");
}

void ResultsWriter::OpenLayout() {
  const hid_t fapl = FileAccess();
  file_ = H5Fopen(path_.c_str(), H5F_ACC_RDWR, fapl);
  if (file_ < 0) {
    // A writer killed in SWMR mode leaves the 'open for writing' mark; the file itself is
    // consistent (MendEndOfAllocation aside), so clear the mark as h5clear does.
    hbool_t clear = 1;
    if (H5Pset(fapl, "clear_status_flags", &clear) >= 0)
      file_ = H5Fopen(path_.c_str(), H5F_ACC_RDWR, fapl);
  }
  H5Pclose(fapl);
  if (file_ < 0)
    throw InputError("OUTPUT: cannot open the results file '" + path_ +
                     "' for appending; check that it exists, is a solfec results file and is "
                     "writable");
  CheckVersion();
  const RecordTypes& t = Types();
  const hid_t frames = H5Gopen2(file_, "frames", H5P_DEFAULT);
  if (frames < 0) {  // created but no frame written yet
    layout_ = false;
    return;
  }
  const hid_t bodies = H5Gopen2(file_, "bodies", H5P_DEFAULT);
  const hid_t shapes = H5Gopen2(file_, "shapes", H5P_DEFAULT);
  const hid_t cons = H5CheckId(H5Gopen2(file_, "constraints", H5P_DEFAULT),
                               "open group 'constraints' of '" + path_ + "'");
  frame_.Open(frames, "table", t.frame);
  body_state_.Open(frames, "bodies", t.body_state);
  q_.Open(frames, "q", H5T_NATIVE_DOUBLE);
  u_.Open(frames, "u", H5T_NATIVE_DOUBLE);
  constraint_.Open(frames, "constraints", t.constraint_state);
  constraint_def_.Open(cons, "table", t.constraint_def);
  def_.Open(bodies, "table", t.body_def);
  labels_.Open(bodies, "labels", H5T_NATIVE_UINT8);
  convex_.Open(shapes, "convexes", t.convex);
  vertices_.Open(shapes, "vertices", H5T_NATIVE_DOUBLE);
  face_.Open(shapes, "faces", t.face);
  face_vertices_.Open(shapes, "face_vertices", H5T_NATIVE_INT32);
  sphere_.Open(shapes, "spheres", t.sphere);
  if (H5Lexists(shapes, "ellipsoids", H5P_DEFAULT) > 0)  // (files written before ELLIP lack it)
    ellipsoid_.Open(shapes, "ellipsoids", t.ellipsoid);
  else
    ellipsoid_.Create(shapes, "ellipsoids", t.ellipsoid, 0, 256, true, kStaticLevel);
  mesh_.Open(shapes, "meshes", t.mesh);
  mesh_element_.Open(shapes, "mesh_elements", t.mesh_element);
  mesh_face_.Open(shapes, "mesh_faces", t.mesh_face);
  bases_.Open(shapes, "bases", H5T_NATIVE_DOUBLE);
  count_ = H5CheckId(H5Dopen2(frames, "count", H5P_DEFAULT), "open 'frames/count'");
  MendEndOfAllocation();
  H5Gclose(frames);
  H5Gclose(bodies);
  H5Gclose(shapes);
  H5Gclose(cons);
  int64_t n = 0;
  H5Check(H5Dread(count_, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &n), "read 'count'");
  n = std::min<int64_t>(n, static_cast<int64_t>(frame_.rows()));
  frames_ = n;
  // New frames go after the current extents: rows of a frame killed before its count was
  // written stay unused (and compressed chunks are never rewritten).
  body_rows_ = static_cast<int64_t>(body_state_.rows());
  q_rows_ = static_cast<int64_t>(q_.rows());
  u_rows_ = static_cast<int64_t>(u_.rows());
  con_rows_ = static_cast<int64_t>(constraint_.rows());
  con_def_rows_ = static_cast<int64_t>(constraint_def_.rows());
  def_rows_ = 0;
  defined_.clear();
  if (n > 0) {
    FrameRow last;
    frame_.Read(n - 1, &last, 1);
    def_rows_ = last.def_count;
    last_time_ = last.time;
    std::vector<BodyDefRow> defs(def_rows_);
    def_.Read(0, defs.data(), defs.size());
    for (const BodyDefRow& d : defs) defined_.insert(d.id);
  }
  layout_ = true;
  StartSwmr();
}

// A writer killed mid-frame can leave chunk index entries of that frame on disk whose
// chunks lie past the end of allocation (EOA) in the superblock, their data never written.
// Writing rows into such a chunk then fails ('addr overflow'), and space allocated from the
// stale EOA would overlap them: move the EOA past them (h5clear --increment does the same
// blindly); reads past the end of the file give zeros, rows no complete frame refers to.
void ResultsWriter::MendEndOfAllocation() {
  haddr_t eoa = 0;
  H5Check(H5Fget_eoa(file_, &eoa), "read the end of allocation of '" + path_ + "'");
  haddr_t end = 0;
  for (const H5Table* t : {&frame_, &body_state_, &q_, &u_, &constraint_, &constraint_def_,
                           &def_, &labels_, &convex_, &vertices_, &face_, &face_vertices_,
                           &sphere_, &mesh_, &mesh_element_, &mesh_face_, &bases_,
                           &ellipsoid_})
    end = std::max(end, t->TailEndPast(eoa));
  if (end > eoa)
    H5Check(H5Fincrement_filesize(file_, end - eoa), "mend the end of '" + path_ + "'");
}

void ResultsWriter::CheckVersion() {
  int version = 0;
  if (H5Aexists(file_, "version") > 0) {
    const hid_t attr = H5Aopen(file_, "version", H5P_DEFAULT);
    if (attr >= 0) {
      if (H5Aread(attr, H5T_NATIVE_INT, &version) < 0) version = 0;
      H5Aclose(attr);
    }
  }
  if (version == kFormatVersion) return;
  H5Fclose(file_);
  file_ = -1;
  throw InputError("OUTPUT: the results file '" + path_ + "' has format version " +
                   std::to_string(version) + " but this solfec writes version " +
                   std::to_string(kFormatVersion) + " (docs/output.md); it cannot be continued: "
                   "run the deck with -w to recompute it");
}

void ResultsWriter::Close() {
  if (file_ < 0) return;
  try {
    Drain();
  } catch (...) {
    CloseTables();  // the file stays readable up to its last complete frame
    throw;
  }
  CloseTables();
}

void ResultsWriter::CloseTables() {
  for (H5Table* t : {&frame_, &body_state_, &q_, &u_, &constraint_, &constraint_def_, &def_,
                     &labels_, &convex_, &vertices_, &face_, &face_vertices_, &sphere_, &mesh_,
                     &mesh_element_, &mesh_face_, &bases_, &ellipsoid_})
    t->Close();
  if (count_ >= 0) H5Dclose(count_);
  count_ = -1;
  const herr_t st = H5Fclose(file_);
  file_ = -1;
  H5Check(st, "close '" + path_ + "'");
}

void ResultsWriter::Flush() {
  H5Check(H5Fflush(file_, H5F_SCOPE_LOCAL), "flush '" + path_ + "'");
}

void ResultsWriter::StageDefinition(const body::Body& b) {
  Staged& S = st_;
  BodyDefRow r;
  r.id = b.id();
  r.kind = static_cast<int32_t>(b.kind());
  r.nq = static_cast<int32_t>(b.q().size());
  r.nu = static_cast<int32_t>(b.u().size());
  r.first_frame = frames_;
  r.mass = b.mass();
  r.volume = b.volume();
  Copy3(b.center(), r.center);
  for (int j = 0; j < 9; ++j) r.tensor[j] = b.tensor()(j % 3, j / 3);
  r.young = b.material().young;
  r.poisson = b.material().poisson;
  r.density = b.material().density;
  r.model = static_cast<int32_t>(material::HyperModelFromName(b.material().model));
  const std::string& label = b.label();
  const std::string& mat = b.material().label;
  r.label_start = S.label0 + static_cast<int64_t>(S.labels.size());
  r.label_len = static_cast<int64_t>(label.size());
  r.material_start = r.label_start + r.label_len;
  r.material_len = static_cast<int64_t>(mat.size());
  S.labels.insert(S.labels.end(), label.begin(), label.end());
  S.labels.insert(S.labels.end(), mat.begin(), mat.end());

  const geometry::Shape& s = b.ref_shape();
  const auto vertex_row = [&S] { return S.vertex0 + static_cast<int64_t>(S.vertices.size() / 3); };
  // A FINITE_ELEMENT body's convexes are its mesh elements, stored once as its mesh below;
  // only embedded pieces (background-mesh bodies) are convexes of their own.
  const body::FeBody* fe_body = b.MeshBody();
  const bool element_convexes = fe_body != nullptr && !fe_body->embedded();
  r.convex_start = S.convex0 + static_cast<int64_t>(S.convexes.size());
  r.convex_count = element_convexes ? 0 : static_cast<int64_t>(s.convexes.size());
  for (const geometry::Convex& c : s.convexes) {
    if (element_convexes) break;
    ConvexRow cr;
    cr.body = b.id();
    cr.volid = c.volid;
    cr.vertex_start = vertex_row();
    cr.vertex_count = static_cast<int64_t>(c.vertices.size());
    cr.face_start = S.face0 + static_cast<int64_t>(S.faces.size());
    cr.face_count = static_cast<int64_t>(c.faces.size());
    for (const Vec3& v : c.vertices) S.vertices.insert(S.vertices.end(), {v.x(), v.y(), v.z()});
    for (const geometry::ConvexFace& f : c.faces) {
      S.faces.push_back({S.fv0 + static_cast<int64_t>(S.face_vertices.size()),
                         static_cast<int32_t>(f.vertices.size()), f.surfid});
      S.face_vertices.insert(S.face_vertices.end(), f.vertices.begin(), f.vertices.end());
    }
    S.convexes.push_back(cr);
  }
  r.sphere_start = S.sphere0 + static_cast<int64_t>(S.spheres.size());
  r.sphere_count = static_cast<int64_t>(s.spheres.size());
  for (const geometry::Sphere& sp : s.spheres) {
    SphereRow sr;
    sr.body = b.id();
    Copy3(sp.center, sr.center);
    sr.radius = sp.radius;
    sr.volid = sp.volid;
    sr.surfid = sp.surfid;
    S.spheres.push_back(sr);
  }
  r.ellipsoid_start = S.ellipsoid0 + static_cast<int64_t>(S.ellipsoids.size());
  r.ellipsoid_count = static_cast<int64_t>(s.ellipsoids.size());
  for (const geometry::Ellipsoid& e : s.ellipsoids) {
    EllipsoidRow er;
    er.body = b.id();
    Copy3(e.center, er.center);
    Copy3(e.radii, er.radii);
    for (int k = 0; k < 9; ++k) er.rot[k] = e.rot(k / 3, k % 3);
    er.volid = e.volid;
    er.surfid = e.surfid;
    S.ellipsoids.push_back(er);
  }
  // FINITE_ELEMENT bodies: the referential mesh (node order = the order of q and u) is stored
  // as the body's mesh, next to its per-element convexes (docs/output.md).
  std::vector<const geometry::Mesh*> meshes;
  for (const geometry::Mesh& m : s.meshes) meshes.push_back(&m);
  if (fe_body) meshes.push_back(&fe_body->mesh());
  r.mesh_start = S.mesh0 + static_cast<int64_t>(S.meshes.size());
  r.mesh_count = static_cast<int64_t>(meshes.size());
  for (const geometry::Mesh* mp : meshes) {
    const geometry::Mesh& m = *mp;
    MeshRow mr;
    mr.body = b.id();
    mr.default_surfid = m.default_surfid;
    mr.node_start = vertex_row();
    mr.node_count = static_cast<int64_t>(m.nodes.size());
    for (const Vec3& v : m.nodes) S.vertices.insert(S.vertices.end(), {v.x(), v.y(), v.z()});
    mr.element_start = S.element0 + static_cast<int64_t>(S.elements.size());
    mr.element_count = static_cast<int64_t>(m.elements.size());
    for (const geometry::MeshElement& e : m.elements) {
      MeshElementRow er;
      er.num_nodes = e.num_nodes;
      for (int k = 0; k < 8; ++k) er.nodes[k] = k < e.num_nodes ? e.nodes[k] : -1;
      er.volid = e.volid;
      S.elements.push_back(er);
    }
    mr.face_start = S.mface0 + static_cast<int64_t>(S.mesh_faces.size());
    mr.face_count = static_cast<int64_t>(m.surface_faces.size());
    for (const geometry::MeshFace& f : m.surface_faces) {
      MeshFaceRow fr;
      fr.num_nodes = static_cast<int32_t>(std::min<size_t>(4, f.nodes.size()));
      for (int k = 0; k < fr.num_nodes; ++k) fr.nodes[k] = f.nodes[k];
      fr.surfid = f.surfid;
      S.mesh_faces.push_back(fr);
    }
    S.meshes.push_back(mr);
  }
  // BC-RO / BC-MODAL: the reduced base once, so that readers rebuild x = Lambda (Z + E q_bar)
  // (eq. 58) from the stored q = [Lambda, q_bar] with Z = the mesh nodes above.
  // With OUTPUT(..., bases='DECK') the record holds -3N and a fingerprint of E instead of E:
  // the deck supplies E on read and readers check it against the fingerprint.
  if (const body::ReducedFeBody* rb = b.AsReducedFeBody()) {
    const MatX& E = rb->base();
    const double rows = static_cast<double>(E.rows());
    S.bases.insert(S.bases.end(), {static_cast<double>(b.id()),
                                   static_cast<double>(static_cast<int>(rb->form())),
                                   bases_in_file_ ? rows : -rows, static_cast<double>(E.cols())});
    if (bases_in_file_) {
      S.bases.insert(S.bases.end(), E.data(), E.data() + E.size());
    } else {
      const std::array<double, 3> f = BaseFingerprint(E);
      S.bases.insert(S.bases.end(), f.begin(), f.end());
    }
    const VecX& ev = rb->eigenvalues();
    for (int i = 0; i < E.cols(); ++i) S.bases.push_back(i < ev.size() ? ev[i] : 0.0);
  }
  S.defs.push_back(r);
  defined_.insert(b.id());
}

void ResultsWriter::WriteDefinitions() {
  Staged& S = st_;
  labels_.Write(S.label0, S.labels.data(), S.labels.size());
  convex_.Write(S.convex0, S.convexes.data(), S.convexes.size());
  vertices_.Write(S.vertex0, S.vertices.data(), S.vertices.size() / 3);
  face_.Write(S.face0, S.faces.data(), S.faces.size());
  face_vertices_.Write(S.fv0, S.face_vertices.data(), S.face_vertices.size());
  sphere_.Write(S.sphere0, S.spheres.data(), S.spheres.size());
  ellipsoid_.Write(S.ellipsoid0, S.ellipsoids.data(), S.ellipsoids.size());
  mesh_.Write(S.mesh0, S.meshes.data(), S.meshes.size());
  mesh_element_.Write(S.element0, S.elements.data(), S.elements.size());
  mesh_face_.Write(S.mface0, S.mesh_faces.data(), S.mesh_faces.size());
  bases_.Write(S.base0, S.bases.data(), S.bases.size());
  def_.Write(def_rows_, S.defs.data(), S.defs.size());
  def_rows_ += static_cast<int64_t>(S.defs.size());
  S = Staged();  // releases the staging memory
}

int64_t ResultsWriter::AlignedRow(const H5Table& t, int64_t cursor, size_t rows) {
  return rows == 0 ? cursor : static_cast<int64_t>(t.AlignedStart(static_cast<hsize_t>(cursor)));
}

void ResultsWriter::StageBodyStates(const domain::Domain& d, FrameRow& f) {
  states_.clear();
  qbuf_.clear();
  ubuf_.clear();
  const std::unordered_map<const body::Body*, double> spring_energy = d.SpringEnergies();
  for (const auto& b : d.bodies()) {
    BodyStateRow s;
    s.id = b->id();
    s.energy[0] = b->KineticEnergy();
    const auto spring = spring_energy.find(b.get());
    s.energy[1] = b->InternalEnergy() + (spring == spring_energy.end() ? 0.0 : spring->second);
    const body::BodyState state = body::PackState(*b);
    std::copy(state.work.begin(), state.work.end(), s.energy + 2);  // external, contact, friction
    for (int k = 0; k < 5; ++k) f.energy[k] += s.energy[k];
    states_.push_back(s);
    qbuf_.insert(qbuf_.end(), state.q, state.q + state.nq);
    ubuf_.insert(ubuf_.end(), state.u, state.u + state.nu);
  }
}

ConstraintRow ResultsWriter::RowOf(const contact::Constraint& c) {
  return RowOfRecord(contact::RecordOf(c));
}

// A constraint's definition row is reused while its fixed fields stay the same (live_ holds
// those of the previous frame's constraints); new and changed ones get a row in new_defs_.
void ResultsWriter::StageConstraints(const domain::Domain& d) {
  cons_.clear();
  new_defs_.clear();
  next_live_.clear();
  new_def0_ = static_cast<int64_t>(constraint_def_.AlignedStart(con_def_rows_));
  for (const contact::Constraint& c : d.constraints()) {
    const ConstraintRow r = RowOf(c);
    ConstraintDefRow def = ConstraintDefOf(r);
    ConstraintStateRow st = ConstraintStateOf(r);
    const auto it = live_.find(r.id);
    if (it != live_.end() && SameDefinition(it->second.second, def)) {
      st.def = it->second.first;
      def = it->second.second;
    } else {
      def.first_frame = frames_;
      st.def = new_def0_ + static_cast<int64_t>(new_defs_.size());
      new_defs_.push_back(def);
    }
    next_live_[r.id] = {st.def, def};
    cons_.push_back(st);
  }
}

void ResultsWriter::WriteFrame(const domain::Domain& d, int newbods, int delbods) {
  Timer timer;
  timer.Start();
  if (file_ < 0) OpenLayout();
  if (!layout_) CreateLayout(d);
  FinishPending();  // the previous frame first: frames_ and the cursors then count it
  bool staged = false;
  for (const auto& b : d.bodies()) {
    if (defined_.count(b->id())) continue;
    if (!staged) {  // appended after the current extents (rows of a killed frame stay unused)
      const auto start = [](const H5Table& t) {
        return static_cast<int64_t>(t.AlignedStart(t.rows()));
      };
      st_.label0 = start(labels_);
      st_.convex0 = start(convex_);
      st_.vertex0 = start(vertices_);
      st_.face0 = start(face_);
      st_.fv0 = start(face_vertices_);
      st_.sphere0 = start(sphere_);
      st_.ellipsoid0 = start(ellipsoid_);
      st_.mesh0 = start(mesh_);
      st_.element0 = start(mesh_element_);
      st_.mface0 = start(mesh_face_);
      st_.base0 = static_cast<int64_t>(bases_.rows());  // records parsed in sequence
      staged = true;
    }
    StageDefinition(*b);
  }
  if (staged) WriteDefinitions();

  FrameRow f;
  f.time = d.time();
  f.step = d.step();
  f.step_count = d.step_count();
  StageBodyStates(d, f);
  StageConstraints(d);
  f.body_start = AlignedRow(body_state_, body_rows_, states_.size());
  f.body_count = static_cast<int64_t>(states_.size());
  f.q_start = AlignedRow(q_, q_rows_, qbuf_.size());
  f.q_count = static_cast<int64_t>(qbuf_.size());
  f.u_start = AlignedRow(u_, u_rows_, ubuf_.size());
  f.u_count = static_cast<int64_t>(ubuf_.size());
  f.con_start = AlignedRow(constraint_, con_rows_, cons_.size());
  f.con_count = static_cast<int64_t>(cons_.size());
  f.def_count = def_rows_;
  f.next_constraint_id = d.next_constraint_id();
  f.newbods = newbods;
  f.delbods = delbods;
  const auto& st = d.solver_stats();
  f.gsiters = st.iters;
  // -1: no solve yet (the frame before the first step, e.g. frame 0); else 1/0 (see docs)
  f.converged = d.step_count() == 0 ? -1 : (st.converged ? 1 : 0);
  f.merit = st.merit;
  const auto& tm = d.stage_times();
  const double times[6] = {tm.TIMINT, tm.CONUPD, tm.CONDET, tm.LOCDYN, tm.CONSOL, tm.PARBAL};
  std::copy(times, times + 6, f.timing);

  pending_.used = pending_.bytes = 0;
  WriteBlock(body_state_, f.body_start, states_.data(), states_.size());
  WriteBlock(q_, f.q_start, qbuf_.data(), qbuf_.size());
  WriteBlock(u_, f.u_start, ubuf_.data(), ubuf_.size());
  WriteBlock(constraint_def_, new_def0_, new_defs_.data(), new_defs_.size());
  WriteBlock(constraint_, f.con_start, cons_.data(), cons_.size());
  // The rows of this frame are taken: the next frame's blocks go after them.
  body_rows_ = f.body_start + f.body_count;
  q_rows_ = f.q_start + f.q_count;
  u_rows_ = f.u_start + f.u_count;
  con_rows_ = f.con_start + f.con_count;
  if (!new_defs_.empty()) con_def_rows_ = new_def0_ + static_cast<int64_t>(new_defs_.size());
  live_.swap(next_live_);
  pending_.frame = f;
  // Deflate (level 6) runs at ~60 MB/s on the near-random doubles of the states: a large
  // frame is encoded on the worker while the next step computes; a small one at once (the
  // hand-over would cost more than it saves).
  if (write_mode_ == WriteMode::kBackground && pending_.bytes >= kAsyncBytes) {
    pending_.active = true;
    encoder_.Run([this] {
      for (size_t i = 0; i < pending_.used; ++i) H5Table::Encode(pending_.blocks[i].second);
    });
  } else {
    for (size_t i = 0; i < pending_.used; ++i) H5Table::Encode(pending_.blocks[i].second);
    pending_.active = true;
    FinishPending();
  }
  seconds_ += timer.Stop();
}

void ResultsWriter::WriteBlock(H5Table& t, int64_t at, const void* rows, size_t n) {
  if (n == 0) return;
  const hsize_t first = static_cast<hsize_t>(at);
  if (write_mode_ == WriteMode::kPipeline || !t.direct() || first % t.chunk_rows() != 0) {
    t.Write(first, rows, n);
    return;
  }
  if (pending_.used == pending_.blocks.size()) pending_.blocks.emplace_back();
  auto& [table, block] = pending_.blocks[pending_.used++];
  table = &t;
  t.Stage(first, rows, n, block);
  pending_.bytes += block.raw.size();
}

void ResultsWriter::FinishPending() {
  if (!pending_.active) return;
  pending_.active = false;  // a failure below loses this frame only, reported once
  encoder_.Wait();
  for (size_t i = 0; i < pending_.used; ++i)
    pending_.blocks[i].first->WriteEncoded(pending_.blocks[i].second);
  pending_.used = 0;
  CommitFrame(pending_.frame);
}

void ResultsWriter::CommitFrame(const FrameRow& f) {
  frame_.Write(frames_, &f, 1);
  Flush();  // the frame's data is on disk before the count that makes it visible
  const int64_t n = frames_ + 1;
  H5Check(H5Dwrite(count_, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &n), "write 'count'");
  Flush();
  frames_ = n;
  last_time_ = f.time;
}

void ResultsWriter::Drain() {
  if (!pending_.active) return;
  Timer timer;
  timer.Start();
  FinishPending();
  seconds_ += timer.Stop();
}

}  // namespace solfec::io
