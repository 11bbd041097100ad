// The bytes HDF5's shuffle and deflate filters store for one chunk, computed without the
// library (no HDF5 call: safe on any thread), for chunks written with H5Dwrite_chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace solfec::io {

// HDF5's shuffle filter: byte j of element i goes to out[j * n + i] (n = bytes / elem whole
// elements; trailing bytes of a partial element are copied as they are). out != in.
void ShuffleBytes(const uint8_t* in, size_t bytes, size_t elem, uint8_t* out);

// Shuffle (element size `elem`), then deflate at `level` (the zlib stream HDF5's deflate
// filter writes), into `out` (resized); `scratch` holds the shuffled bytes. Throws
// std::runtime_error if zlib fails.
void EncodeShuffleDeflate(const uint8_t* chunk, size_t bytes, size_t elem, int level,
                          std::vector<uint8_t>& scratch, std::vector<uint8_t>& out);

}  // namespace solfec::io
