// H5Table's direct chunk path: blocks encoded off the library (shuffle + deflate, possibly on
// another thread) store the very bytes of HDF5's filter pipeline and read back the same.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "io/chunk_codec.h"
#include "io/h5_table.h"
#include "io/io_test_files.h"
#include "io/results_layout.h"

namespace solfec::io {
namespace {

std::vector<uint8_t> RawChunk(hid_t dset, hsize_t row) {
  hsize_t offset[2] = {row, 0}, size = 0;
  EXPECT_GE(H5Dget_chunk_storage_size(dset, offset, &size), 0);
  std::vector<uint8_t> bytes(size);
  uint32_t mask = 0;
  EXPECT_GE(H5Dread_chunk(dset, H5P_DEFAULT, offset, &mask, bytes.data()), 0);
  EXPECT_EQ(mask, 0u);  // both filters applied
  return bytes;
}

hid_t Dataset(hid_t file, const std::string& name) {
  return H5Dopen2(file, name.c_str(), H5P_DEFAULT);
}

// Constraint states (256-byte compound rows, fill value def = -1), a block of 300 rows at
// row 128 (the last of its 3 chunks partly filled), and a 2-D table of doubles: the direct
// path and Write give byte-identical chunks, and the rows read back equal.
TEST(H5Table, EncodedChunksAreTheFilterPipelinesBytesAndReadBackTheSame) {
  const std::string path = TempPath("direct.h5");
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  if (!DeflateAvailable()) GTEST_SKIP() << "libhdf5 without the deflate encoder";
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<ConstraintStateRow> rows(300);
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].def = static_cast<int64_t>(i);
    rows[i].age = static_cast<int32_t>(i % 7);
    for (double& v : rows[i].R) v = U(rng);
    rows[i].gap = i % 3 ? U(rng) : 0.0;
  }
  std::vector<double> xyz(3 * 1000);
  for (size_t i = 0; i < xyz.size(); ++i) xyz[i] = i % 5 ? U(rng) : 1.0;
  ConstraintStateRow none;
  none.def = -1;
  const hid_t type = Types().constraint_state;
  {
    H5Table a, b, c, d;
    a.Create(file, "a", type, 0, 128, true, 6, &none);
    b.Create(file, "b", type, 0, 128, true, 6, &none);
    c.Create(file, "c", H5T_NATIVE_DOUBLE, 3, 256, true, 1);
    d.Create(file, "d", H5T_NATIVE_DOUBLE, 3, 256, true, 1);
    ASSERT_TRUE(b.direct() && d.direct());
    a.Write(128, rows.data(), rows.size());
    c.Write(0, xyz.data(), 1000);
    H5Table::EncodedBlock eb, ed;
    b.Stage(128, rows.data(), rows.size(), eb);
    d.Stage(0, xyz.data(), 1000, ed);
    EXPECT_EQ(eb.num_chunks(), 3u);
    EXPECT_EQ(ed.num_chunks(), 4u);
    H5Table::Encode(eb);
    H5Table::Encode(ed);
    b.WriteEncoded(eb);
    d.WriteEncoded(ed);
    EXPECT_EQ(b.rows(), a.rows());
    EXPECT_EQ(d.rows(), c.rows());
  }
  const hid_t da = Dataset(file, "a"), db = Dataset(file, "b");
  for (hsize_t r = 128; r < 128 + 3 * 128; r += 128)
    EXPECT_EQ(RawChunk(da, r), RawChunk(db, r)) << "constraint chunk at row " << r;
  const hid_t dc = Dataset(file, "c"), dd = Dataset(file, "d");
  for (hsize_t r = 0; r < 1024; r += 256)
    EXPECT_EQ(RawChunk(dc, r), RawChunk(dd, r)) << "xyz chunk at row " << r;
  for (hid_t ds : {da, db, dc, dd}) H5Dclose(ds);
  // read back through the library's pipeline
  H5Table b, d;
  b.Open(file, "b", type);
  d.Open(file, "d", H5T_NATIVE_DOUBLE);
  EXPECT_TRUE(b.direct() && d.direct());  // recognised on reopening (appended runs)
  std::vector<ConstraintStateRow> back(rows.size() + 1);
  b.Read(0, back.data(), 1);
  EXPECT_EQ(back[0].def, -1);  // a row before the block: the fill value
  b.Read(128, back.data(), rows.size());
  EXPECT_EQ(std::memcmp(back.data(), rows.data(), rows.size() * sizeof(ConstraintStateRow)), 0);
  std::vector<double> xyz_back(xyz.size());
  d.Read(0, xyz_back.data(), 1000);
  EXPECT_EQ(xyz_back, xyz);
  H5Fclose(file);
}

TEST(H5Table, OnlyShuffledDeflatedTablesTakeTheDirectPath) {
  const std::string path = TempPath("kinds.h5");
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5Table plain;
  plain.Create(file, "plain", H5T_NATIVE_DOUBLE, 0, 64, false);
  EXPECT_FALSE(plain.direct());
  // deflate without shuffle (a file of another writer): the pipeline is not the one encoded
  const hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {64};
  const hid_t space = H5Screate_simple(1, dims, maxdims);
  const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(plist, 1, chunk);
  H5Pset_deflate(plist, 6);
  H5Dclose(H5Dcreate2(file, "deflate_only", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, plist,
                      H5P_DEFAULT));
  H5Pclose(plist);
  H5Sclose(space);
  H5Table other;
  other.Open(file, "deflate_only", H5T_NATIVE_DOUBLE);
  EXPECT_TRUE(other.deflated());
  EXPECT_FALSE(other.direct());
  // the file stores doubles but the writer's memory type is int64: no raw chunk copy
  H5Table z;
  z.Create(file, "z", H5T_NATIVE_DOUBLE, 0, 64, true);
  z.Close();
  z.Open(file, "z", H5T_NATIVE_INT64);
  EXPECT_EQ(z.direct(), false);
  H5Fclose(file);
}

TEST(ChunkCodec, ShuffleGathersEachBytePositionOfTheElements) {
  const uint8_t in[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};  // three 3-byte elements + 1 byte
  uint8_t out[10];
  ShuffleBytes(in, 10, 3, out);
  const uint8_t expect[10] = {1, 4, 7, 2, 5, 8, 3, 6, 9, 10};
  EXPECT_EQ(std::memcmp(out, expect, 10), 0);
}

}  // namespace
}  // namespace solfec::io
