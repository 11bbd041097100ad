"""solfec: multibody contact dynamics driven by Python decks (the Solfec input language).

`from solfec import *` gives every deck routine; `solfec deck.py` runs a deck with them as
builtins.

Layers of the package: a module imports only modules of lower layers, at the top of the file
or inside a function alike (tests/python/test_import_graph.py checks it; _solfec is the C++
extension, below them all):

  layer 0: _state _args _version _mpi meshfile pbf solfec1_mesh
  layer 1: _outlock results _reduced_base solvers py2deck tetgen_process
  layer 2: _output xdmf shapes viewer.scene
  layer 2: fracture_check
  layer 3: model meshgen mesh_split viewer.server stored_bodies
  layer 4: constraints loads contact_method partition compat initial_state history viewer fields split
  layer 4: mbfcp
  layer 5: bases run solfec_export
  layer 6: fclib tetgen
  layer 7: fracture_export
  layer 8: __init__
  layer 9: cli

_mpi holds the MPI handle the solfec-mpi launcher sets; _output the results-file policy of a
SOLFEC object (READ/WRITE mode, the output directory's lock, the writer); model the deck's
model objects (SOLFEC, BODY, CONSTRAINT, materials); the deck routines build on them."""

from .shapes import *          # noqa: F401,F403
from .model import *           # noqa: F401,F403
from .loads import *           # noqa: F401,F403
from .constraints import *     # noqa: F401,F403
from .solvers import *         # noqa: F401,F403
from .run import *             # noqa: F401,F403
from .history import *         # noqa: F401,F403
from .fclib import *           # noqa: F401,F403
from .bases import *           # noqa: F401,F403
from .contact_method import *  # noqa: F401,F403
from .partition import *       # noqa: F401,F403
from .meshgen import *         # noqa: F401,F403
from .initial_state import *   # noqa: F401,F403
from .compat import *          # noqa: F401,F403
from .tetgen import *          # noqa: F401,F403
from .split import *           # noqa: F401,F403
from .mesh_split import *      # noqa: F401,F403
from .fields import *          # noqa: F401,F403
from .solfec_export import *   # noqa: F401,F403
from .mbfcp import *           # noqa: F401,F403
from .fracture_export import *  # noqa: F401,F403
from . import shapes as _shapes, model as _model, loads as _loads, constraints as _constraints
from . import solvers as _solvers, run as _run, history as _history, fclib as _fclib
from . import bases as _bases
from . import contact_method as _contact_method
from . import partition as _partition
from . import meshgen as _meshgen
from . import initial_state as _initial_state
from . import compat as _compat
from . import tetgen as _tetgen
from . import split as _split
from . import mesh_split as _mesh_split
from . import fields as _fields
from . import solfec_export as _solfec_export
from . import mbfcp as _mbfcp
from . import fracture_export as _fracture_export
from . import results          # noqa: F401  (solfec.results: h5py reader of output files)

from ._version import __version__  # noqa: F401

__all__ = (_shapes.__all__ + _model.__all__ + _loads.__all__ + _constraints.__all__ +
           _solvers.__all__ + _run.__all__ + _history.__all__ + _fclib.__all__ +
           _bases.__all__ + _contact_method.__all__ + _partition.__all__ + _meshgen.__all__ +
           _initial_state.__all__ + _compat.__all__ + _tetgen.__all__ +
           _mesh_split.__all__ + _fields.__all__ + _solfec_export.__all__ + _mbfcp.__all__ +
           _fracture_export.__all__ + _split.__all__)
