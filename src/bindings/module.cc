// The solfec Python extension module (_solfec): one Define<Area>(m) per area.
#include <pybind11/pybind11.h>

#include "bindings/bindings.h"

PYBIND11_MODULE(_solfec, m) {
  m.doc() = "solfec core (internal API; decks use the routines of the solfec package)";
  solfec::bindings::DefineErrors(m);
  solfec::bindings::DefineBase(m);
  solfec::bindings::DefineGeometry(m);
  solfec::bindings::DefineSolvers(m);
  solfec::bindings::DefineDomain(m);
  solfec::bindings::DefineIo(m);
  solfec::bindings::DefineBases(m);
  solfec::bindings::DefineContact(m);
  solfec::bindings::DefineFem(m);
  solfec::bindings::DefineExport(m);
  solfec::bindings::DefineSplit(m);
}
