// The `solfec-mpi` launcher: MPI_Init, then runs the deck on every rank through solfec.cli (as
// `solfec` does) with NCPU/RANK/HERE/BARRIER answering for the MPI job; a failure on any rank
// prints its message once, tagged with the rank, and aborts every rank (docs/parallel.md).
#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "embedded_python.h"
#include "parallel/communicator.h"
#include "parallel/domain_decomposition.h"

namespace py = pybind11;
using solfec::parallel::Communicator;

namespace {

Communicator* g_world = nullptr;  // set in main before the interpreter starts

// Prints "rank k: message" once (from this rank only) to stderr and ends every rank of the
// job with `code` (MPI_Abort): the launcher's decision on a failed deck (the library only
// throws). Call it from the rank that failed; never returns.
[[noreturn]] void AbortJob(const Communicator& comm, const std::string& message, int code) {
  std::fprintf(stderr, "rank %d: %s\n", comm.rank(), message.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  MPI_Abort(comm.comm(), code == 0 ? 1 : code);
  std::abort();  // MPI_Abort does not return; keeps [[noreturn]] honest
}

}  // namespace

// What solfec.run's NCPU, RANK, HERE and BARRIER consult under solfec-mpi.
PYBIND11_EMBEDDED_MODULE(_solfec_mpi, m) {
  m.doc() = "MPI job of the solfec-mpi launcher";
  m.def("rank", [] { return g_world->rank(); });
  m.def("size", [] { return g_world->size(); });
  // SOLFEC() hands this to Domain._attach_decomposition (docs/parallel.md).
  m.def("decomposition_factory", [] {
    return py::capsule(reinterpret_cast<void*>(&solfec::parallel::CreateDomainDecomposition));
  });
  m.def("barrier", [] {
    py::gil_scoped_release release;
    g_world->Barrier();
  });
}

namespace {

// Runs in the embedded interpreter before the deck: the report of a failed deck, which
// solfec.cli prints with traceback.print_exception, is kept in _solfec_mpi.failure instead, so
// main() prints it once, from the failing rank, tagged "rank k:".
constexpr const char* kCaptureFailure = R"PY(
import traceback as _tb, types as _types, _solfec_mpi
import solfec.cli as _cli
_solfec_mpi.failure = None
def _keep(etype, value, tb, *args, **kwargs):
    _solfec_mpi.failure = "".join(_tb.format_exception(etype, value, tb))
_proxy = _types.ModuleType("traceback")
_proxy.__dict__.update(_tb.__dict__)
_proxy.print_exception = _keep
_cli.traceback = _proxy
)PY";

// Every line of `text` prefixed with "rank k: ".
std::string Tagged(const std::string& text, int rank) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    out << (first ? "" : "\n") << "rank " << rank << ": " << line;
    first = false;
  }
  return out.str();
}

// Whether every rank's stdout reaches the terminal (SOLFEC_MPI_STDOUT=all).
bool StdoutOfAllRanks() {
  const char* keep = std::getenv("SOLFEC_MPI_STDOUT");
  return keep && std::string(keep) == "all";
}

// Ranks > 0 print the same progress and deck output as rank 0 (docs/parallel.md): their stdout
// would repeat rank 0's, so it is discarded unless SOLFEC_MPI_STDOUT=all.
void SilenceStdoutOfOtherRanks(int rank) {
  if (rank == 0 || StdoutOfAllRanks()) return;
  int devnull = ::open("/dev/null", O_WRONLY);
  if (devnull >= 0) {
    ::dup2(devnull, STDOUT_FILENO);
    ::close(devnull);
  }
}

// True when the options before the deck path ask for the viewer (-v), which would start one
// web server per rank; solfec-mpi refuses it (as Solfec-1's solfec-mpi took only -c -s -i).
bool AsksForViewer(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-v") return true;
    if (a == "-s" || a == "-i" || a == "-g" || a == "--port") {
      ++i;
    } else if (a.empty() || a[0] != '-' || a == "-") {
      return false;  // the deck path: what follows belongs to the deck
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // A rank waiting in a collective yields its core instead of spinning (unless the user set
  // it): on a machine shared with other work (or more ranks than cores) spinning ranks steal
  // the time slices the computing ranks need; measured on the drum benchmark on a loaded
  // 2-core machine: 4.2 s instead of 21.7 s (docs/parallel.md).
  setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
  solfec::parallel::MpiSession mpi(&argc, &argv);
  Communicator world;
  g_world = &world;
  if (AsksForViewer(std::vector<std::string>(argv + 1, argv + argc))) {
    // Every rank sees the same command line: all return 2 together, no abort needed.
    if (world.rank() == 0)
      std::cerr << "solfec-mpi: the viewer (-v) is not available under MPI; view the deck "
                   "with `solfec -v`" << std::endl;
    return 2;
  }
  SilenceStdoutOfOtherRanks(world.rank());
  solfec::apps::DefaultThreadPolicy();
  int code = 0;
  bool usage = false;  // a bad command line: every rank saw it alike and returns 2, no abort
  std::string failure;
  try {
    solfec::apps::EmbeddedPython python(argc, argv);
    try {
      py::module_ sys = py::module_::import("sys");
      const char* env = std::getenv("SOLFEC_PYTHON_PATH");
      sys.attr("path").attr("insert")(0, env ? std::string(env) : std::string(SOLFEC_PYTHON_DIR));
      // When several ranks print, each line of the deck's output goes out in one write (line
      // buffered, not written through piece by piece as under PYTHONUNBUFFERED, where
      // print('HELLO', rank) is four writes): lines of different ranks do not mix.
      if (StdoutOfAllRanks() && world.size() > 1 && py::hasattr(sys.attr("stdout"), "reconfigure"))
        sys.attr("stdout").attr("reconfigure")(py::arg("line_buffering") = true,
                                               py::arg("write_through") = false);
      py::module_ hooks = py::module_::import("_solfec_mpi");
      py::module_::import("solfec._mpi").attr("hooks") = hooks;
      py::exec(kCaptureFailure);
      py::list argv_list = sys.attr("argv");
      py::list args;  // sys.argv[1:] as Python decoded them (UTF-8, surrogateescape)
      for (size_t i = 1; i < argv_list.size(); ++i) args.append(argv_list[i]);
      py::module_ cli = py::module_::import("solfec.cli");
      py::object rc = cli.attr("main")(args);
      code = rc.is_none() ? 0 : rc.cast<int>();
      usage = py::hasattr(cli, "usage_failed") && cli.attr("usage_failed").cast<bool>();
      if (!hooks.attr("failure").is_none()) failure = hooks.attr("failure").cast<std::string>();
    } catch (py::error_already_set& e) {
      failure = solfec::apps::StartupError(e, "solfec-mpi");
      code = 1;
    }
    std::cout.flush();
    py::module_::import("sys").attr("stdout").attr("flush")();
    py::module_::import("sys").attr("stderr").attr("flush")();
  } catch (const std::exception& e) {
    failure = std::string("solfec-mpi: ") + e.what();
    code = 1;
  }
  if (usage) return code;  // solfec.cli printed the message on rank 0
  if (code != 0) {
    // A deck failing on every rank (bad input) fails on all at once: ranks > 0 wait a moment so
    // rank 0's abort usually ends them before they print, and the message appears once.
    if (world.rank() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    if (failure.empty()) failure = "solfec-mpi: the deck ended with exit code " +
                                   std::to_string(code);
    std::cerr << Tagged(failure, world.rank()) << std::endl;
    AbortJob(world, "solfec-mpi: terminating all ranks (exit code " + std::to_string(code) + ")",
             code);
  }
  return 0;
}
