// Results file: frames written by ResultsWriter read back record by record, restored into a
// fresh domain, appended to after a reopen, and an unwritable path rejected up front.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "base/errors.h"
#include "body/body_factory.h"
#include "domain/domain.h"
#include "io/h5_table.h"
#include "io/io_test_files.h"
#include "io/output.h"
#include "io/restore.h"
#include "io/results_writer.h"
#include "solvers/gauss_seidel_solver.h"

namespace solfec::io {
namespace {

geometry::Shape Box(double half, const Vec3& c) {
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i)
    p.push_back(c + half * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
  geometry::Shape s;
  s.convexes.push_back(geometry::Hull(p, 1, 1));
  return s;
}

// A ball dropped onto a floor from 0.0105 m: it lands after 46 ms (sqrt(2 * 0.0105 / 10)).
void Build(domain::Domain& d) {
  material::BulkMaterial m;
  m.label = "steel";
  d.AddBody(body::MakeBody(body::BodyKind::kObstacle, Box(1.0, Vec3(0, 0, -1)), m, "floor"));
  geometry::Shape ball;
  ball.spheres.push_back({Vec3(0, 0, 0.1105), 0.1, 1, 1});
  d.AddBody(body::MakeBody(body::BodyKind::kRigid, ball, m, "ball"));
  material::SurfaceMaterial s;
  s.friction = 0.3;
  d.surface_materials().Insert(s);
  d.gravity() = {ScalarOrSeries(0.0), ScalarOrSeries(0.0), ScalarOrSeries(-10.0)};
}

template <typename T>
std::vector<T> ReadAll(hid_t file, const std::string& name, hid_t type) {
  H5Table t;
  t.Open(file, name, type);
  std::vector<T> v(t.rows());
  t.Read(0, v.data(), v.size());
  return v;
}

// /frames/constraints rows joined with their /constraints/table rows (as readers do).
std::vector<ConstraintRow> ReadConstraints(hid_t file) {
  const auto states = ReadAll<ConstraintStateRow>(file, "frames/constraints",
                                                  Types().constraint_state);
  const auto defs = ReadAll<ConstraintDefRow>(file, "constraints/table", Types().constraint_def);
  std::vector<ConstraintRow> out;
  for (const ConstraintStateRow& s : states)
    out.push_back(s.def >= 0 && s.def < static_cast<int64_t>(defs.size())
                      ? JoinConstraint(defs[s.def], s)
                      : ConstraintRow{});
  return out;
}

hsize_t StorageBytes(hid_t file, const std::string& name) {
  const hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  const hsize_t n = H5Dget_storage_size(d);
  H5Dclose(d);
  return n;
}

int64_t Count(hid_t file) {
  int64_t n = 0;
  const hid_t d = H5Dopen2(file, "frames/count", H5P_DEFAULT);
  H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &n);
  H5Dclose(d);
  return n;
}

TEST(ResultsWriter, StoredFrameRestoresStateAndContactsExactly) {
  const std::string path = TempPath("restore.h5");
  domain::Domain d(domain::Analysis::kDynamic, 1e-3);
  Build(d);
  solvers::GaussSeidelSolver gs;
  {
    ResultsWriter w(path, ResultsWriter::Mode::kCreate, {{"analysis", "DYNAMIC"}});
    w.WriteFrame(d, 0, 0);
    d.Run(gs, 0.06);
    ASSERT_GT(d.constraints().size(), 0u);  // the ball touches the floor
    w.WriteFrame(d, 0, 0);
    EXPECT_EQ(w.frames(), 2);
  }
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(Count(f), 2);
  const auto frames = ReadAll<FrameRow>(f, "frames/table", Types().frame);
  const auto states = ReadAll<BodyStateRow>(f, "frames/bodies", Types().body_state);
  const auto q = ReadAll<double>(f, "frames/q", H5T_NATIVE_DOUBLE);
  const auto u = ReadAll<double>(f, "frames/u", H5T_NATIVE_DOUBLE);
  const auto cons = ReadConstraints(f);
  const auto defs = ReadAll<BodyDefRow>(f, "bodies/table", Types().body_def);
  const auto spheres = ReadAll<SphereRow>(f, "shapes/spheres", Types().sphere);
  H5Fclose(f);

  ASSERT_EQ(frames.size(), 2u);
  EXPECT_DOUBLE_EQ(frames[0].time, 0.0);
  EXPECT_NEAR(frames[1].time, 0.06, 1e-12);
  EXPECT_EQ(frames[1].step_count, 60);
  EXPECT_EQ(frames[1].body_count, 2);
  EXPECT_EQ(frames[1].q_count, 24);  // two rigid layouts of 12
  ASSERT_EQ(defs.size(), 2u);
  EXPECT_EQ(defs[1].kind, 0);  // RIGID
  EXPECT_EQ(defs[0].kind, 3);  // OBSTACLE
  ASSERT_EQ(spheres.size(), 1u);
  EXPECT_DOUBLE_EQ(spheres[0].radius, 0.1);
  EXPECT_EQ(static_cast<size_t>(frames[1].con_count), d.constraints().size());

  // Restore frame 1 into a fresh copy of the model: bitwise equal states and reactions.
  domain::Domain d2(domain::Analysis::kDynamic, 1e-3);
  Build(d2);
  FrameState s;
  s.frame = frames[1];
  s.bodies.assign(states.begin() + frames[1].body_start, states.end());
  s.nq = {12, 12};
  s.nu = {6, 6};
  s.q.assign(q.begin() + frames[1].q_start, q.end());
  s.u.assign(u.begin() + frames[1].u_start, u.end());
  s.constraints.assign(cons.begin() + frames[1].con_start,
                       cons.begin() + frames[1].con_start + frames[1].con_count);
  const RestoreReport rep = RestoreFrame(d2, s);
  EXPECT_EQ(rep.bodies_restored, 2);
  EXPECT_EQ(rep.constraints_restored, static_cast<int>(d.constraints().size()));
  EXPECT_EQ(d2.time(), d.time());
  EXPECT_EQ(d2.bodies()[1]->q(), d.bodies()[1]->q());
  EXPECT_EQ(d2.bodies()[1]->u(), d.bodies()[1]->u());
  auto a = d.constraints().begin();
  for (const auto& c : d2.constraints()) {
    EXPECT_EQ(c.id, a->id);
    EXPECT_EQ(c.R, a->R);
    EXPECT_EQ(c.U, a->U);
    EXPECT_EQ(c.base, a->base);
    EXPECT_EQ(c.point, a->point);
    EXPECT_EQ(c.X1, a->X1);
    EXPECT_EQ(c.X2, a->X2);
    EXPECT_EQ(c.surf1, a->surf1);
    EXPECT_EQ(c.source, a->source);
    ++a;
  }
  // Continuing both for 20 steps gives identical states (restart exactness).
  d.Run(gs, 0.02);
  solvers::GaussSeidelSolver gs2;
  d2.Run(gs2, 0.02);
  EXPECT_EQ(d2.bodies()[1]->q(), d.bodies()[1]->q());
}

TEST(ResultsWriter, AppendContinuesAfterTheLastCompleteFrame) {
  const std::string path = TempPath("append.h5");
  domain::Domain d(domain::Analysis::kDynamic, 1e-3);
  Build(d);
  solvers::GaussSeidelSolver gs;
  {
    auto out = std::make_shared<Output>(path, "", false);
    Output::Attach(out, d);
    out->set_interval(0.005);
    out->BeginRun(d);
    d.Run(gs, 0.02);  // frames at 0, 5, 10, 15, 20 ms
    EXPECT_EQ(out->writer().frames(), 5);
    out->writer().Close();
    d.Run(gs, 0.01);  // reopens: frames at 25, 30 ms
    EXPECT_EQ(out->writer().frames(), 7);
    out->Finish(d);  // closes the file (the domain's observer keeps `out` alive)
    EXPECT_FALSE(out->writer().is_open());
  }
  ResultsWriter w(path, ResultsWriter::Mode::kAppend);
  EXPECT_EQ(w.frames(), 7);
  EXPECT_NEAR(w.last_frame_time(), 0.03, 1e-12);
  w.WriteFrame(d, 0, 0);
  w.Close();
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const auto frames = ReadAll<FrameRow>(f, "frames/table", Types().frame);
  EXPECT_EQ(Count(f), 8);
  H5Fclose(f);
  for (size_t i = 1; i < frames.size(); ++i) {
    EXPECT_EQ(frames[i].body_start, frames[i - 1].body_start + frames[i - 1].body_count);
    EXPECT_EQ(frames[i].q_start, frames[i - 1].q_start + frames[i - 1].q_count);
  }
  EXPECT_NEAR(frames[1].time, 0.005, 1e-12);
}

TEST(ConstraintRecords, SplitIntoDefinitionAndStateJoinsBackBitwise) {
  ConstraintRow r;
  r.id = 42, r.kind = 4, r.age = 7, r.body1 = 3, r.body2 = 9;
  for (int i = 0; i < 3; ++i) {
    r.point[i] = 0.1 * (i + 1) + 1e-17, r.point2[i] = -1.0 / (i + 3), r.R[i] = 1e5 * i;
    r.U[i] = -0.3 * i, r.X1[i] = 1.0 / 7 + i, r.X2[i] = 2.0 / 9 - i;
  }
  for (int j = 0; j < 9; ++j) r.base[j] = 1.0 / (j + 2);
  r.gap = -1e-9, r.area = 2.5e-3, r.merit = 1e-12;
  r.surf1 = 5, r.surf2 = 6, r.piece1 = -3, r.piece2 = 11, r.cohesive = 1;
  const ConstraintRow j = JoinConstraint(ConstraintDefOf(r), ConstraintStateOf(r));
  EXPECT_EQ(std::memcmp(&j, &r, sizeof(r)), 0);  // every byte, padding included (zeros)
  ConstraintDefRow other = ConstraintDefOf(r);
  EXPECT_TRUE(SameDefinition(other, ConstraintDefOf(r)));
  other.piece1 = -4;  // a node-to-face contact moved to another face
  EXPECT_FALSE(SameDefinition(other, ConstraintDefOf(r)));
}

// A ball resting on the floor keeps one contact for all frames: its fixed fields are stored
// once, its state every frame, and the deflated constraint tables start each frame at a
// chunk boundary (128 rows) without rewriting earlier chunks.
TEST(ResultsWriter, ConstraintDefinitionsAreStoredOncePerConstraint) {
  const std::string path = TempPath("defs.h5");
  domain::Domain d(domain::Analysis::kDynamic, 1e-3);
  Build(d);
  solvers::GaussSeidelSolver gs;
  std::vector<Id> ids;
  {
    ResultsWriter w(path, ResultsWriter::Mode::kCreate);
    d.Run(gs, 0.06);  // landed at 46 ms
    for (int k = 0; k < 40; ++k) {
      d.Run(gs, 1e-3);
      w.WriteFrame(d, 0, 0);
      for (const auto& c : d.constraints()) ids.push_back(c.id);
    }
  }
  std::sort(ids.begin(), ids.end());
  const size_t distinct = std::unique(ids.begin(), ids.end()) - ids.begin();
  ASSERT_GE(ids.size(), 40u);  // at least one contact in every frame
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const auto frames = ReadAll<FrameRow>(f, "frames/table", Types().frame);
  const auto defs = ReadAll<ConstraintDefRow>(f, "constraints/table", Types().constraint_def);
  const auto cons = ReadConstraints(f);
  const auto states = ReadAll<ConstraintStateRow>(f, "frames/constraints",
                                                  Types().constraint_state);
  const hsize_t stored = StorageBytes(f, "frames/constraints");
  H5Fclose(f);
  EXPECT_EQ(defs.size(), distinct);  // one definition row per constraint (no changes here)
  EXPECT_EQ(defs[0].first_frame, 0);
  int64_t rows = 0;
  for (const FrameRow& fr : frames) {
    rows += fr.con_count;
    if (DeflateAvailable()) {
      EXPECT_EQ(fr.con_start % 128, 0);
    }
    for (int64_t i = fr.con_start; i < fr.con_start + fr.con_count; ++i)
      EXPECT_EQ(cons[i].kind, 0);  // CONTACT, joined from its definition
  }
  EXPECT_EQ(static_cast<size_t>(rows), ids.size());
  // the rows between the frames' blocks are unused: they read as def = -1
  const auto unused = std::count_if(states.begin(), states.end(),
                                    [](const ConstraintStateRow& s) { return s.def == -1; });
  EXPECT_EQ(static_cast<size_t>(unused + rows), states.size());
  // 40 frames of 256-byte rows in 40 chunks of 128 rows (1.3 MB uncompressed): deflated, the
  // zero rows vanish and no chunk is stored twice; the bound is the raw size of the rows.
  if (DeflateAvailable()) {
    EXPECT_LE(stored, static_cast<hsize_t>(rows) * 256);
  }
}

// compression 'ON': every frame's q starts at a chunk of its own (64 values for 24 per frame),
// also after reopening the file for appending; the stored doubles read back bitwise.
TEST(ResultsWriter, CompressedFramesStartAtChunkBoundariesAndReadBackExactly) {
  const std::string path = TempPath("deflate.h5");
  domain::Domain d(domain::Analysis::kDynamic, 1e-3);
  Build(d);
  solvers::GaussSeidelSolver gs;
  std::vector<VecX> qs;
  {
    ResultsWriter w(path, ResultsWriter::Mode::kCreate);
    w.set_compression(true);
    for (int k = 0; k < 5; ++k) {
      w.WriteFrame(d, 0, 0);
      qs.push_back(d.bodies()[1]->q());
      d.Run(gs, 0.015);
    }
  }
  {
    ResultsWriter w(path, ResultsWriter::Mode::kAppend);
    for (int k = 0; k < 3; ++k) {
      d.Run(gs, 0.01);
      w.WriteFrame(d, 0, 0);
      qs.push_back(d.bodies()[1]->q());
    }
  }
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(Count(f), 8);
  const auto frames = ReadAll<FrameRow>(f, "frames/table", Types().frame);
  const auto q = ReadAll<double>(f, "frames/q", H5T_NATIVE_DOUBLE);
  const auto cons = ReadConstraints(f);
  H5Fclose(f);
  ASSERT_EQ(frames.size(), 8u);
  for (size_t i = 0; i < frames.size(); ++i) {
    if (DeflateAvailable()) {
      EXPECT_EQ(frames[i].q_start % 64, 0) << "frame " << i;
    }
    const VecX stored = Eigen::Map<const VecX>(q.data() + frames[i].q_start + 12, 12);
    EXPECT_EQ(stored, qs[i]) << "frame " << i;  // the ball's q after the floor's 12 values
    for (int64_t k = frames[i].con_start; k < frames[i].con_start + frames[i].con_count; ++k)
      EXPECT_TRUE(cons[k].body2 == 1 || cons[k].body1 == 1);  // ball-floor contacts
  }
}

// A constraint whose fixed fields change (a node-to-face contact sliding to another face,
// cohesion breaking) gets a second definition row under the same id from that frame on;
// earlier frames keep joining the first one.
TEST(ResultsWriter, ChangedFixedFieldsAppendANewDefinitionRowForTheSameId) {
  const std::string path = TempPath("redef.h5");
  domain::Domain d(domain::Analysis::kDynamic, 1e-3);
  Build(d);
  contact::Constraint c;
  c.kind = contact::ConstraintKind::kContact;
  c.body1 = d.bodies()[0].get();
  c.body2 = d.bodies()[1].get();
  c.source = contact::NodeFace{3, 7};  // node-to-face: node 3 on face 7 (-9, -5 in the file)
  c.cohesive = true;
  const Id id = d.AddConstraint(c).id;
  {
    ResultsWriter w(path, ResultsWriter::Mode::kCreate);
    w.WriteFrame(d, 0, 0);
    w.WriteFrame(d, 0, 0);
    d.mutable_constraints().front().source = contact::NodeFace{3, 8};  // slid onto face 8
    w.WriteFrame(d, 0, 0);
    d.mutable_constraints().front().cohesive = false;  // cohesion broken
    w.WriteFrame(d, 0, 0);
  }
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const auto frames = ReadAll<FrameRow>(f, "frames/table", Types().frame);
  auto defs = ReadAll<ConstraintDefRow>(f, "constraints/table", Types().constraint_def);
  const auto cons = ReadConstraints(f);
  H5Fclose(f);
  defs.erase(std::remove_if(defs.begin(), defs.end(),
                            [](const ConstraintDefRow& r) { return r.id < 0; }),  // unused rows
             defs.end());
  ASSERT_EQ(defs.size(), 3u);
  EXPECT_EQ(defs[0].first_frame, 0);
  EXPECT_EQ(defs[1].first_frame, 2);
  EXPECT_EQ(defs[2].first_frame, 3);
  const int expect_piece1[4] = {-9, -9, -10, -10}, expect_cohesive[4] = {1, 1, 1, 0};
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(frames[i].con_count, 1);
    const ConstraintRow& r = cons[frames[i].con_start];
    EXPECT_EQ(r.id, id);
    EXPECT_EQ(r.piece1, expect_piece1[i]) << "frame " << i;
    EXPECT_EQ(r.piece2, -5);
    EXPECT_EQ(r.cohesive, expect_cohesive[i]) << "frame " << i;
  }
}

TEST(ResultsWriter, FileOfAnotherFormatVersionIsRefusedForAppendingNamingItsVersion) {
  const std::string path = TempPath("v1.h5");
  domain::Domain d(domain::Analysis::kDynamic, 1e-3);
  Build(d);
  {
    ResultsWriter w(path, ResultsWriter::Mode::kCreate);
    w.WriteFrame(d, 0, 0);
  }
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const int one = 1;
  const hid_t a = H5Aopen(f, "version", H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_INT, &one);
  H5Aclose(a);
  H5Fclose(f);
  try {
    ResultsWriter w(path, ResultsWriter::Mode::kAppend);
    FAIL() << "a version-1 file was opened for appending";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("format version 1"), std::string::npos) << e.what();
  }
}

TEST(ResultsWriter, UnwritablePathFailsBeforeComputing) {
  EXPECT_THROW(ResultsWriter("/nonexistent-dir/x/y.h5", ResultsWriter::Mode::kCreate),
               InputError);
}

}  // namespace
}  // namespace solfec::io
