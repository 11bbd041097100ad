// The `solfec` launcher: embeds Python, puts the solfec package on sys.path and hands the
// command line to solfec.cli.main (deck execution, errors and exit codes live there).
#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace py = pybind11;

int main(int argc, char** argv) {
  py::scoped_interpreter python;
  try {
    py::module_ sys = py::module_::import("sys");
    const char* env = std::getenv("SOLFEC_PYTHON_PATH");
    sys.attr("path").attr("insert")(0, env ? std::string(env) : std::string(SOLFEC_PYTHON_DIR));
    std::vector<std::string> args(argv + 1, argv + argc);
    sys.attr("argv") = std::vector<std::string>(argv, argv + argc);
    py::object code = py::module_::import("solfec.cli").attr("main")(args);
    std::cout.flush();
    py::module_::import("sys").attr("stdout").attr("flush")();
    return code.is_none() ? 0 : code.cast<int>();
  } catch (const std::exception& e) {
    std::cerr << "solfec: " << e.what() << std::endl;
    return 1;
  }
}
