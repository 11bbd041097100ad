// Results file: frames written by ResultsWriter read back record by record, restored into a
// fresh domain, appended to after a reopen, and an unwritable path rejected up front.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "base/errors.h"
#include "body/body_factory.h"
#include "domain/domain.h"
#include "io/h5_table.h"
#include "io/output.h"
#include "io/restore.h"
#include "io/results_writer.h"
#include "solvers/gauss_seidel_solver.h"

namespace solfec::io {
namespace {

std::string TempPath(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("solfec_io_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

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
  const auto cons = ReadAll<ConstraintRow>(f, "frames/constraints", Types().constraint);
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
  s.constraints.assign(cons.begin() + frames[1].con_start, cons.end());
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
    EXPECT_EQ(c.X2, a->X2);
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

TEST(ResultsWriter, UnwritablePathFailsBeforeComputing) {
  EXPECT_THROW(ResultsWriter("/nonexistent-dir/x/y.h5", ResultsWriter::Mode::kCreate),
               InputError);
}

}  // namespace
}  // namespace solfec::io
