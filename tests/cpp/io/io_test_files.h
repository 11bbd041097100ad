// Scratch files of the io tests: one directory per test process under the system's temp
// directory (tests of one process share it; their file names differ).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace solfec::io {

inline std::string TempPath(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("solfec_io_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace solfec::io
