// Extendible chunked HDF5 datasets written and read by row ranges.
#include "io/h5_table.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "io/chunk_codec.h"

namespace solfec::io {

bool DeflateAvailable() {
  static const bool ok = [] {
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) return false;
    unsigned int info = 0;
    if (H5Zget_filter_info(H5Z_FILTER_DEFLATE, &info) < 0) return false;
    return (info & H5Z_FILTER_CONFIG_ENCODE_ENABLED) != 0;
  }();
  return ok;
}

void H5Check(herr_t status, const std::string& what) {
  if (status >= 0) return;
  if (std::getenv("SOLFEC_HDF5_DEBUG")) H5Eprint2(H5E_DEFAULT, stderr);
  std::string msg = "OUTPUT: HDF5 failed to " + what;
  if (errno == ENOSPC) msg += " (no space left on the device)";
  else if (errno == EACCES || errno == EROFS) msg += " (" + std::string(std::strerror(errno)) + ")";
  throw std::runtime_error(msg);
}

hid_t H5CheckId(hid_t id, const std::string& what) {
  H5Check(id < 0 ? -1 : 0, what);
  return id;
}

H5Table& H5Table::operator=(H5Table&& o) noexcept {
  if (this != &o) {
    Close();
    dset_ = std::exchange(o.dset_, -1);
    type_ = o.type_;
    width_ = o.width_;
    chunk_rows_ = o.chunk_rows_;
    deflated_ = o.deflated_;
    direct_ = o.direct_;
    level_ = o.level_;
    elem_ = o.elem_;
    fill_ = std::move(o.fill_);
    name_ = std::move(o.name_);
  }
  return *this;
}

void H5Table::Create(hid_t parent, const std::string& name, hid_t type, int width,
                     hsize_t chunk_rows, bool deflate, int level, const void* fill) {
  Close();
  name_ = name;
  type_ = type;
  width_ = width;
  chunk_rows_ = std::max<hsize_t>(1, chunk_rows);
  chunk_rows = chunk_rows_;
  deflated_ = deflate && DeflateAvailable();
  const int rank = width > 0 ? 2 : 1;
  hsize_t dims[2] = {0, static_cast<hsize_t>(width)};
  hsize_t maxdims[2] = {H5S_UNLIMITED, static_cast<hsize_t>(width)};
  hsize_t chunk[2] = {chunk_rows, static_cast<hsize_t>(width)};
  const hid_t space = H5CheckId(H5Screate_simple(rank, dims, maxdims), "create a dataspace");
  const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(plist, rank, chunk);
  if (deflated_) {
    H5Pset_shuffle(plist);
    H5Pset_deflate(plist, static_cast<unsigned>(level));
    H5Pset_fill_time(plist, H5D_FILL_TIME_ALLOC);  // unused rows of a chunk are fill values
  }
  if (fill) H5Pset_fill_value(plist, type, fill);
  dset_ = H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
  H5Pclose(plist);
  H5Sclose(space);
  H5CheckId(dset_, "create dataset '" + name + "'");
  InspectFilters();
}

void H5Table::Open(hid_t parent, const std::string& name, hid_t type) {
  Close();
  name_ = name;
  type_ = type;
  dset_ = H5CheckId(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "open dataset '" + name + "'");
  const hid_t space = H5Dget_space(dset_);
  width_ = 0;
  if (H5Sget_simple_extent_ndims(space) == 2) {
    hsize_t dims[2];
    H5Sget_simple_extent_dims(space, dims, nullptr);
    width_ = static_cast<int>(dims[1]);
  }
  H5Sclose(space);
  const hid_t plist = H5Dget_create_plist(dset_);
  hsize_t chunk[2] = {1, 1};
  chunk_rows_ = H5Pget_chunk(plist, 2, chunk) > 0 ? std::max<hsize_t>(1, chunk[0]) : 1;
  H5Pclose(plist);
  InspectFilters();
}

void H5Table::InspectFilters() {
  const hid_t plist = H5Dget_create_plist(dset_);
  const int nf = H5Pget_nfilters(plist);
  deflated_ = nf > 0;
  // Direct chunk writes need the pipeline we reproduce (shuffle, then deflate) and raw bytes
  // of the memory type equal to those of the file type.
  direct_ = false;
  elem_ = H5Tget_size(type_);
  fill_.assign(elem_, 0);
  if (nf == 2 && H5Pget_layout(plist) == H5D_CHUNKED) {
    unsigned flags = 0, cd[4] = {0, 0, 0, 0};
    size_t ncd = 4;
    char fname[16];
    const auto filter = [&](unsigned i) {
      ncd = 4;
      return H5Pget_filter2(plist, i, &flags, &ncd, cd, sizeof fname, fname, nullptr);
    };
    const H5Z_filter_t f0 = filter(0);
    const H5Z_filter_t f1 = filter(1);  // its level in cd[0]
    const hid_t ftype = H5Dget_type(dset_);
    const bool same = ftype >= 0 && H5Tequal(ftype, type_) > 0;
    if (ftype >= 0) H5Tclose(ftype);
    if (f0 == H5Z_FILTER_SHUFFLE && f1 == H5Z_FILTER_DEFLATE && ncd >= 1 && cd[0] <= 9 && same &&
        H5Pget_fill_value(plist, type_, fill_.data()) >= 0) {
      direct_ = true;
      level_ = static_cast<int>(cd[0]);
    }
  }
  H5Pclose(plist);
}

void H5Table::Close() {
  if (dset_ >= 0) H5Dclose(dset_);
  dset_ = -1;
}

hsize_t H5Table::rows() const {
  const hid_t space = H5Dget_space(dset_);
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  H5Sclose(space);
  return dims[0];
}

haddr_t H5Table::TailEndPast(haddr_t eoa) const {
  haddr_t end = 0;
  const hsize_t n = rows();
  for (hsize_t c = n == 0 ? 0 : (n - 1) / chunk_rows_ + 1; c-- > 0;) {
    hsize_t offset[2] = {c * chunk_rows_, 0};
    unsigned mask = 0;
    haddr_t addr = HADDR_UNDEF;
    hsize_t size = 0;
    if (H5Dget_chunk_info_by_coord(dset_, offset, &mask, &addr, &size) < 0) break;
    if (addr == HADDR_UNDEF) continue;  // never written (fill values)
    if (addr + size <= eoa) break;
    end = std::max<haddr_t>(end, addr + size);
  }
  return end;
}

void H5Table::Write(hsize_t at, const void* rows, hsize_t n) {
  if (n == 0) return;
  const int rank = width_ > 0 ? 2 : 1;
  hsize_t need[2] = {at + n, static_cast<hsize_t>(width_)};
  if (this->rows() < at + n) H5Check(H5Dset_extent(dset_, need), "extend '" + name_ + "'");
  const hid_t fspace = H5Dget_space(dset_);
  hsize_t start[2] = {at, 0}, count[2] = {n, static_cast<hsize_t>(width_)};
  H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, nullptr, count, nullptr);
  const hid_t mspace = H5Screate_simple(rank, count, nullptr);
  const herr_t st = H5Dwrite(dset_, type_, mspace, fspace, H5P_DEFAULT, rows);
  H5Sclose(mspace);
  H5Sclose(fspace);
  H5Check(st, "write '" + name_ + "'");
}

void H5Table::Stage(hsize_t at, const void* rows, hsize_t n, EncodedBlock& b) const {
  const size_t row_bytes = elem_ * static_cast<size_t>(std::max(1, width_));
  b.at = at;
  b.n = n;
  b.elem = elem_;
  b.level = level_;
  b.chunk_bytes = row_bytes * chunk_rows_;
  const size_t nchunks = (n + chunk_rows_ - 1) / chunk_rows_;
  const size_t used = row_bytes * n, total = b.chunk_bytes * nchunks;
  b.raw.resize(total);
  std::memcpy(b.raw.data(), rows, used);
  // rows past the block in its last chunk read as the fill value, as after Write
  for (size_t o = used; o < total; o += elem_) std::memcpy(b.raw.data() + o, fill_.data(), elem_);
  b.chunks.resize(nchunks);
}

void H5Table::Encode(EncodedBlock& b) {
  for (size_t c = 0; c < b.chunks.size(); ++c)
    EncodeShuffleDeflate(b.raw.data() + c * b.chunk_bytes, b.chunk_bytes, b.elem, b.level,
                         b.scratch, b.chunks[c]);
}

void H5Table::WriteEncoded(const EncodedBlock& b) {
  if (b.n == 0) return;
  hsize_t need[2] = {b.at + b.n, static_cast<hsize_t>(width_)};
  if (rows() < b.at + b.n) H5Check(H5Dset_extent(dset_, need), "extend '" + name_ + "'");
  for (size_t c = 0; c < b.chunks.size(); ++c) {
    const hsize_t offset[2] = {b.at + c * chunk_rows_, 0};
    H5Check(H5Dwrite_chunk(dset_, H5P_DEFAULT, 0, offset, b.chunks[c].size(), b.chunks[c].data()),
            "write a chunk of '" + name_ + "'");
  }
}

void H5Table::Read(hsize_t at, void* rows, hsize_t n) const {
  if (n == 0) return;
  const int rank = width_ > 0 ? 2 : 1;
  const hid_t fspace = H5Dget_space(dset_);
  hsize_t start[2] = {at, 0}, count[2] = {n, static_cast<hsize_t>(width_)};
  H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, nullptr, count, nullptr);
  const hid_t mspace = H5Screate_simple(rank, count, nullptr);
  const herr_t st = H5Dread(dset_, type_, mspace, fspace, H5P_DEFAULT, rows);
  H5Sclose(mspace);
  H5Sclose(fspace);
  H5Check(st, "read '" + name_ + "'");
}

}  // namespace solfec::io
