// The embedded interpreter of the `solfec` and `solfec-mpi` launchers (docs/cli.md): the Python
// they were built against whatever `python3` PATH finds first (a pyenv or venv python there
// would otherwise lend its prefix, without numpy), in UTF-8 mode (decks are UTF-8, PEP 3120;
// paths are bytes of the file system, whatever the locale), with single-threaded BLAS unless
// the user asked otherwise, and a missing module reported in one line naming its package.
#pragma once

#include <pybind11/embed.h>

#include <cctype>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifndef SOLFEC_PYTHON_EXECUTABLE
#define SOLFEC_PYTHON_EXECUTABLE ""
#endif
#ifndef SOLFEC_PYTHON_HOME
#define SOLFEC_PYTHON_HOME ""
#endif

namespace solfec::apps {

namespace py = pybind11;

// OpenBLAS (numpy's BLAS on Debian) starts one busy-waiting worker per core: the small dense
// products of a deck (bases, meshes, per-body matrices) gain nothing from them and the spinning
// workers take the cores the solver needs (about 40% of the CPU in profiles of FE decks). The
// launcher therefore defaults to one BLAS thread; a user's own setting wins. Must run before
// the interpreter starts (OpenBLAS reads it when numpy loads it).
inline void DefaultThreadPolicy() {
  setenv("OPENBLAS_NUM_THREADS", "1", 0);
  setenv("OMP_NUM_THREADS", "1", 0);
}

// Starts the interpreter for the launcher's command line (sys.argv = argv, not parsed by
// Python); finalizes it when destroyed.
class EmbeddedPython {
 public:
  EmbeddedPython(int argc, char** argv) {
    PyPreConfig pre;
    PyPreConfig_InitPythonConfig(&pre);
    pre.utf8_mode = 1;  // stdio and file names in UTF-8 even under LANG=C
    Check(Py_PreInitialize(&pre), "pre-initialize Python");
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.parse_argv = 0;  // the options are solfec's (solfec.cli), not Python's
    const std::string exe = SOLFEC_PYTHON_EXECUTABLE;
    const std::string home = SOLFEC_PYTHON_HOME;
    if (!exe.empty()) {
      Set(&config, &config.program_name, exe);
      Set(&config, &config.executable, exe);
    }
    if (!home.empty() && std::getenv("PYTHONHOME") == nullptr) Set(&config, &config.home, home);
    py::initialize_interpreter(&config, argc, argv, false);  // clears `config`
  }
  ~EmbeddedPython() { py::finalize_interpreter(); }
  EmbeddedPython(const EmbeddedPython&) = delete;
  EmbeddedPython& operator=(const EmbeddedPython&) = delete;

 private:
  static void Check(PyStatus status, const char* what) {
    if (PyStatus_Exception(status))
      throw std::runtime_error(std::string("cannot ") + what + ": " +
                               (status.err_msg ? status.err_msg : "unknown error"));
  }
  static void Set(PyConfig* config, wchar_t** field, const std::string& value) {
    PyStatus status = PyConfig_SetBytesString(config, field, value.c_str());
    if (PyStatus_Exception(status)) {
      PyConfig_Clear(config);
      Check(status, "configure Python");
    }
  }
};

// The Debian package of a top-level Python module (python3-<name> for most).
inline std::string DebianPackage(std::string module) {
  module = module.substr(0, module.find('.'));
  if (module == "PIL") return "python3-pil";
  if (module == "yaml") return "python3-yaml";
  if (module == "mpi4py") return "python3-mpi4py";
  std::string pkg = "python3-";
  for (char c : module) pkg += c == '_' ? '-' : static_cast<char>(std::tolower(c));
  return pkg;
}

// One line for a Python module missing at start-up (e.g. numpy), or "" if `e` is another error.
inline std::string MissingModuleLine(py::error_already_set& e, const std::string& program) {
  if (!e.matches(PyExc_ModuleNotFoundError)) return "";
  std::string name;
  try {
    py::object n = e.value().attr("name");
    if (!n.is_none()) name = n.cast<std::string>();
  } catch (...) {
  }
  if (name.empty()) return "";
  std::string exe = SOLFEC_PYTHON_EXECUTABLE;
  if (exe.empty()) exe = "python3";
  return program + ": the Python module '" + name + "' is missing from " + exe +
         " (the Python " + program + " was built with): install the Debian package " +
         DebianPackage(name) + " (sudo apt install " + DebianPackage(name) + ")";
}

// A Python error at start-up as "Type: message", without pybind11's "At:" frame list (the
// frames of the import machinery say nothing to a user).
inline std::string StartupError(py::error_already_set& e, const std::string& program) {
  const std::string missing = MissingModuleLine(e, program);
  if (!missing.empty()) return missing;
  std::string what = e.what();
  const size_t at = what.find("\n\nAt:");
  if (at != std::string::npos) what.resize(at);
  return program + ": " + what;
}

}  // namespace solfec::apps
