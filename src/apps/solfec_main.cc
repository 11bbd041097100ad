// The `solfec` launcher: embeds Python (embedded_python.h: the interpreter solfec was built
// with, UTF-8 mode, BLAS thread policy), puts the solfec package on sys.path and hands the
// command line to solfec.cli.main (options, deck execution, errors and exit codes live there).
#include <pybind11/embed.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "embedded_python.h"

namespace py = pybind11;

int main(int argc, char** argv) {
  solfec::apps::DefaultThreadPolicy();
  try {
    solfec::apps::EmbeddedPython python(argc, argv);
    try {
      py::module_ sys = py::module_::import("sys");
      const char* env = std::getenv("SOLFEC_PYTHON_PATH");
      sys.attr("path").attr("insert")(0, env ? std::string(env) : std::string(SOLFEC_PYTHON_DIR));
      py::list argv_list = sys.attr("argv");
      py::list args;  // sys.argv[1:] as Python decoded them (UTF-8, surrogateescape)
      for (size_t i = 1; i < argv_list.size(); ++i) args.append(argv_list[i]);
      py::object code = py::module_::import("solfec.cli").attr("main")(args);
      std::cout.flush();
      sys.attr("stdout").attr("flush")();
      return code.is_none() ? 0 : code.cast<int>();
    } catch (py::error_already_set& e) {
      std::cerr << solfec::apps::StartupError(e, "solfec") << std::endl;
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "solfec: " << e.what() << std::endl;
    return 1;
  }
}
