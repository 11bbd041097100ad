// ResultsWriter: appends frames of a Domain to the HDF5 results file (layout in
// docs/output.md) in SWMR mode, so that a killed run leaves a file readable up to its last
// complete frame; nothing per frame is kept in memory.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/background_task.h"
#include "contact/constraint.h"
#include "domain/domain.h"
#include "io/h5_table.h"
#include "io/results_layout.h"

namespace solfec::io {

class ResultsWriter {
 public:
  enum class Mode { kCreate, kAppend };
  // kCreate truncates `path` and writes the root attributes (string values) at once, so an
  // unwritable location fails here, before any computation; kAppend continues an existing
  // file after its last complete frame. Throws InputError/std::runtime_error with the path.
  ResultsWriter(std::string path, Mode mode,
                const std::map<std::string, std::string>& attributes = {});
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;

  // Deflate compression of the datasets; effective only before the first frame.
  void set_compression(bool on) { compression_ = on; }
  bool compression() const { return compression_; }
  // How deflated per-frame blocks are written (the file is the same byte for byte):
  // kPipeline through libhdf5's filters (H5Dwrite), kDirect encoded here and stored with
  // H5Dwrite_chunk, kBackground (default) as kDirect with large frames encoded on a worker
  // thread while the next step computes (tests/benchmarks/run_output_write.py compares them).
  enum class WriteMode { kPipeline, kDirect, kBackground };
  void set_write_mode(WriteMode m) {
    Drain();
    write_mode_ = m;
  }
  WriteMode write_mode() const { return write_mode_; }
  // Reduced bases (BC-RO / BC-MODAL) in /shapes/bases: whole (true, default) or only a
  // fingerprint, the deck supplying E on read (OUTPUT(..., bases='DECK'); docs/output.md).
  // Applies to bodies first written after the call.
  void set_bases_in_file(bool on) { bases_in_file_ = on; }
  bool bases_in_file() const { return bases_in_file_; }

  // Appends one frame (definitions of new bodies first); newbods/delbods are the counts
  // since the previous frame. Reopens the file if Close() was called.
  void WriteFrame(const domain::Domain& d, int newbods, int delbods);
  // Writes the frame in flight, if any: a frame whose deflated blocks are large is compressed
  // on a worker thread while the next step computes, and written (then counted) by the next
  // WriteFrame or by Drain. Output::EndRun drains, so after RUN every frame is in the file.
  void Drain();
  bool pending() const { return pending_.active; }
  // Drains, then closes the file (other readers in this process may open it); the next
  // frame reopens it.
  void Close();
  bool is_open() const { return file_ >= 0; }

  int64_t frames() const { return frames_; }  // complete frames (counted in the file)
  double last_frame_time() const { return last_time_; }
  double seconds() const { return seconds_; }  // wall time spent writing [s]
  const std::string& path() const { return path_; }

 private:
  void CreateLayout(const domain::Domain& d);  // chunks sized from d's first frame
  void OpenLayout();
  void CheckVersion();  // throws InputError unless the file has kFormatVersion
  void MendEndOfAllocation();  // a killed writer's chunks past the EOA (see the .cc)
  void StartSwmr();
  void StageDefinition(const body::Body& b);  // into the def_* buffers
  void WriteDefinitions();                     // one write per table
  void StageBodyStates(const domain::Domain& d, FrameRow& f);  // states_, qbuf_, ubuf_
  void StageConstraints(const domain::Domain& d);              // cons_, new_defs_
  static ConstraintRow RowOf(const contact::Constraint& c);
  // First row of a block of `rows` rows appended at `cursor` (H5Table::AlignedStart).
  static int64_t AlignedRow(const H5Table& t, int64_t cursor, size_t rows);
  void Flush();
  void CloseTables();  // closes the datasets and the file (no drain)
  // Per-frame table `t`: n rows at `at`, through the worker (pending_) when `t` is direct.
  void WriteBlock(H5Table& t, int64_t at, const void* rows, size_t n);
  void CommitFrame(const FrameRow& f);  // frame row, then the count that makes it visible
  void FinishPending();                 // writes the pending frame's chunks, commits it

  std::string path_;
  hid_t file_ = -1;
  hid_t count_ = -1;  // /frames/count
  bool compression_ = false;
  WriteMode write_mode_ = WriteMode::kBackground;
  bool bases_in_file_ = true;
  bool layout_ = false;  // datasets exist
  H5Table frame_, body_state_, q_, u_, constraint_, constraint_def_;
  H5Table def_, labels_, convex_, vertices_, face_, face_vertices_, sphere_, mesh_,
      mesh_element_, mesh_face_;
  H5Table ellipsoid_;  // /shapes/ellipsoids (ELLIP)
  H5Table bases_;  // /shapes/bases: reduced bases of BC-RO/BC-MODAL bodies (docs/output.md)
  int64_t frames_ = 0, body_rows_ = 0, q_rows_ = 0, u_rows_ = 0, con_rows_ = 0, def_rows_ = 0;
  int64_t con_def_rows_ = 0;  // extent of /constraints/table
  double last_time_ = 0.0, seconds_ = 0.0;
  std::unordered_set<Id> defined_;
  // scratch reused between frames (sized by the model, not by the number of frames)
  std::vector<BodyStateRow> states_;
  std::vector<double> qbuf_, ubuf_;
  std::vector<ConstraintStateRow> cons_;
  std::vector<ConstraintDefRow> new_defs_;  // written at row new_def0_
  int64_t new_def0_ = 0;
  // definition row and fields of the constraints of the last frame written (and of the one
  // being staged): bounded by the model, not by the number of frames
  std::unordered_map<Id, std::pair<int64_t, ConstraintDefRow>> live_, next_live_;
  struct Staged {
    std::vector<BodyDefRow> defs;
    std::vector<uint8_t> labels;
    std::vector<ConvexRow> convexes;
    std::vector<double> vertices;  // x, y, z
    std::vector<FaceRow> faces;
    std::vector<int32_t> face_vertices;
    std::vector<SphereRow> spheres;
    std::vector<EllipsoidRow> ellipsoids;
    std::vector<MeshRow> meshes;
    std::vector<MeshElementRow> elements;
    std::vector<MeshFaceRow> mesh_faces;
    std::vector<double> bases;  // records [id, form, 3N, n, E column-wise, evals]
    // first rows of the tables (extent when staging started)
    int64_t label0 = 0, convex0 = 0, vertex0 = 0, face0 = 0, fv0 = 0, sphere0 = 0, mesh0 = 0,
            element0 = 0, mface0 = 0, base0 = 0, ellipsoid0 = 0;
  } st_;
  // The frame whose deflated blocks are being encoded (at most one).
  struct Pending {
    bool active = false;
    FrameRow frame;
    std::vector<std::pair<H5Table*, H5Table::EncodedBlock>> blocks;  // reused between frames
    size_t used = 0;                                                // blocks of this frame
    size_t bytes = 0;                                               // their raw bytes
  } pending_;
  BackgroundTask encoder_;
};

}  // namespace solfec::io
