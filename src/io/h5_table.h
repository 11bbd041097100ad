// H5Table: an extendible, chunked HDF5 dataset of fixed-width rows (1-D, or N x width)
// written at a row cursor; the building block of the results file (libhdf5 C API).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

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
  // Deflated blocks off the library (Direct tables): Stage copies n rows starting at a chunk
  // boundary `at` into whole chunks padded with the fill value (main thread); Encode applies
  // shuffle + deflate to them, exactly as the filter pipeline (any thread: no HDF5 call);
  // WriteEncoded extends the table and stores the chunks with H5Dwrite_chunk (main thread).
  // The result reads back as Write(at, rows, n) would have left it.
  struct EncodedBlock {
    hsize_t at = 0, n = 0;
    size_t chunk_bytes = 0, elem = 0;
    int level = 0;
    std::vector<uint8_t> raw;                  // the block's chunks, padded
    std::vector<std::vector<uint8_t>> chunks;  // encoded, one per chunk
    std::vector<uint8_t> scratch;
    size_t num_chunks() const { return chunk_bytes ? raw.size() / chunk_bytes : 0; }
  };
  // True for a table with exactly the shuffle + deflate filters and a file type equal to the
  // memory type (then Stage/Encode/WriteEncoded may replace Write for aligned blocks).
  bool direct() const { return direct_; }
  void Stage(hsize_t at, const void* rows, hsize_t n, EncodedBlock& b) const;
  static void Encode(EncodedBlock& b);
  void WriteEncoded(const EncodedBlock& b);
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
  void InspectFilters();  // sets deflated_, direct_, level_, elem_, fill_ from the dataset

  hid_t dset_ = -1;
  hid_t type_ = -1;  // memory type, borrowed
  int width_ = 0;
  hsize_t chunk_rows_ = 1;
  bool deflated_ = false;
  bool direct_ = false;
  int level_ = 0;
  size_t elem_ = 0;            // bytes of one element of the type
  std::vector<uint8_t> fill_;  // one element: the fill value in the memory type
  std::string name_;
};

}  // namespace solfec::io
