// H5Table: an extendible, chunked HDF5 dataset of fixed-width rows (1-D, or N x width)
// written at a row cursor; the building block of the results file (libhdf5 C API).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>

namespace solfec::io {

// True when libhdf5 can encode the deflate filter (otherwise tables are stored plain).
bool DeflateAvailable();

// Throws std::runtime_error naming the operation and the file when `status` < 0.
void H5Check(herr_t status, const std::string& what);
hid_t H5CheckId(hid_t id, const std::string& what);

class H5Table {
 public:
  H5Table() = default;
  H5Table(const H5Table&) = delete;
  H5Table& operator=(const H5Table&) = delete;
  H5Table(H5Table&& o) noexcept { *this = std::move(o); }
  H5Table& operator=(H5Table&& o) noexcept;
  ~H5Table() { Close(); }

  // New dataset `name` under `parent` with element type `type` (not owned), rows of
  // `width` elements (width 0 = 1-D), chunks of `chunk_rows` rows, optional deflate (with
  // shuffle, at `level`; ignored when DeflateAvailable() is false); rows never written read
  // as `fill` (one element of `type`; null: zeros).
  void Create(hid_t parent, const std::string& name, hid_t type, int width, hsize_t chunk_rows,
              bool deflate, int level = 1, const void* fill = nullptr);
  // Opens an existing dataset; `type` is the memory type used for writes.
  void Open(hid_t parent, const std::string& name, hid_t type);
  void Close();
  bool is_open() const { return dset_ >= 0; }

  // Writes n rows at row `at`, extending the dataset when needed.
  void Write(hsize_t at, const void* rows, hsize_t n);
  // Reads n rows at row `at` into `rows`.
  void Read(hsize_t at, void* rows, hsize_t n) const;
  hsize_t rows() const;  // current extent
  const std::string& name() const { return name_; }
  bool deflated() const { return deflated_; }
  hsize_t chunk_rows() const { return chunk_rows_; }
  // Row where a block appended at row cursor `at` starts: `at` for plain tables; for deflated
  // ones the next chunk boundary, so that every block is written once in chunks of its own
  // (rewriting a compressed chunk leaves its old copy in the file as dead space). The rows
  // skipped belong to no block and read as zeros.
  // The largest end address of the chunks at the table's tail that reach past `eoa` (0 if
  // none): a writer killed in SWMR mode can leave index entries of its last chunks pointing
  // past the end of allocation it recorded. Chunks are appended in row order, so the walk
  // goes back from the last chunk until one lies within eoa.
  haddr_t TailEndPast(haddr_t eoa) const;
  hsize_t AlignedStart(hsize_t at) const {
    return deflated_ ? (at + chunk_rows_ - 1) / chunk_rows_ * chunk_rows_ : at;
  }

 private:
  hid_t dset_ = -1;
  hid_t type_ = -1;  // memory type, borrowed
  int width_ = 0;
  hsize_t chunk_rows_ = 1;
  bool deflated_ = false;
  std::string name_;
};

}  // namespace solfec::io
