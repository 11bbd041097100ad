// Shuffle + deflate of a chunk, byte for byte as HDF5's H5Z shuffle and deflate filters.
#include "io/chunk_codec.h"

#include <zlib.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace solfec::io {

void ShuffleBytes(const uint8_t* in, size_t bytes, size_t elem, uint8_t* out) {
  const size_t n = elem > 0 ? bytes / elem : 0;
  if (elem <= 1 || n <= 1) {
    std::memcpy(out, in, bytes);
    return;
  }
  for (size_t j = 0; j < elem; ++j) {
    uint8_t* o = out + j * n;
    const uint8_t* p = in + j;
    for (size_t i = 0; i < n; ++i, p += elem) o[i] = *p;
  }
  const size_t whole = n * elem;
  std::memcpy(out + whole, in + whole, bytes - whole);
}

void EncodeShuffleDeflate(const uint8_t* chunk, size_t bytes, size_t elem, int level,
                          std::vector<uint8_t>& scratch, std::vector<uint8_t>& out) {
  scratch.resize(bytes);
  ShuffleBytes(chunk, bytes, elem, scratch.data());
  uLongf size = compressBound(static_cast<uLong>(bytes));
  out.resize(size);
  const int st = compress2(out.data(), &size, scratch.data(), static_cast<uLong>(bytes), level);
  if (st != Z_OK)
    throw std::runtime_error("OUTPUT: deflate of a " + std::to_string(bytes) +
                             "-byte chunk failed (zlib error " + std::to_string(st) + ")");
  out.resize(size);
}

}  // namespace solfec::io
