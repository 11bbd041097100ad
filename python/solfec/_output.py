"""The results-file policy of a SOLFEC object (docs/output.md, docs/cli.md): READ or WRITE
mode from the results present and the options -w / -c, the one-writer lock of the output
directory, the results file and its writer (_solfec.Output), the copy of the deck, the disk
space checks, and where each rank writes under solfec-mpi. model.SOLFEC calls select_mode;
nothing here knows the deck language."""

import atexit
import os
import shutil
import sys
import tempfile
import weakref

from . import _mpi
from . import _outlock
from . import _solfec
from . import _state
from . import results
from ._version import __version__


def select_mode(sol, out, analysis, h):
    """'READ' if valid results exist (unless -w or -c); otherwise 'WRITE' with a new
    results file; -c with valid results continues them (WRITE, restored at RUN)."""
    name = os.path.basename(os.path.normpath(out))
    sol._h5path = os.path.join(out, name + ".h5")
    sol._mode = "WRITE"
    sol._output = None          # _solfec.Output in WRITE mode
    sol._results = None         # results.Results in READ mode (opened lazily)
    sol._frame = -1             # current frame in READ mode
    sol._present = None         # body ids of the current frame in READ mode
    sol._continue = False       # -c: restore the last frame at the first RUN
    sol._deck_time = 0.0        # sum of RUN durations (restart targets)
    other = _claim_output_path(sol, out)
    lock = None
    if other is not None:   # a Python session reusing a directory: this process holds it
        lock = getattr(other, "_lock", None)
    elif _mpi.rank() == 0:   # solfec-mpi: rank 0 writes `out`
        lock = _outlock.acquire(out)  # before the results are read, let alone truncated
    busy = lock if isinstance(lock, str) else None
    try:
        _select_locked(sol, out, analysis, h, name, lock, busy, other is not None)
    except BaseException:
        if lock is not None and not busy and other is None:
            lock.release()   # a traceback kept by the caller must not keep the lock
        sol._lock = None
        raise
    _claimed[os.path.realpath(out)] = weakref.ref(sol)


def _select_locked(sol, out, analysis, h, name, lock, busy, shared):
    opts = _state.options
    if busy and (opts["write"] or opts.get("continue")):
        raise ValueError(_busy_message(out, busy))
    valid = results.is_valid(sol._h5path)
    if busy and not valid:
        raise ValueError(_busy_message(out, busy))
    out = rank_output_dir(out, valid)   # solfec-mpi: ranks > 0 write to a private copy
    sol._h5path = os.path.join(out, name + ".h5")
    if valid and opts.get("continue"):
        sol._continue = True
        sol._lock = lock
        _start_output(sol, out, analysis, h, append=True)
    elif valid and not opts["write"]:
        sol._mode = "READ"
        if lock is not None and not busy and not shared:
            lock.release()   # reading does not keep writers out
        if lock is not None and not shared:  # rank 0 (or serial) tells it once
            _tell_read_mode(out, sol._h5path, busy)
    else:
        sol._lock = lock
        check_free_space(out, 1 << 20, "SOLFEC")
        _start_output(sol, out, analysis, h, append=False)
        deck = opts.get("deck")
        if deck and os.path.isfile(deck):
            dst = os.path.join(out, name + ".py")
            try:
                if not (os.path.exists(dst) and os.path.samefile(deck, dst)):
                    shutil.copyfile(deck, dst)
            except OSError as e:
                raise ValueError(f"SOLFEC: cannot copy the deck to '{dst}' (argument "
                                 f"'output'): {e.strerror}") from None


def _start_output(sol, out, analysis, h, append):
    attrs = {"analysis": analysis, "step": repr(h), "solfec_version": __version__,
             "deck": os.path.basename(_state.options.get("deck") or "")}
    try:
        sol._output = _solfec.Output(sol._h5path, os.path.join(out, "STATE"), append, attrs)
    except ValueError as e:
        raise ValueError(str(e).replace("OUTPUT:", "SOLFEC:", 1) +
                         " (argument 'output')") from None
    sol._output.attach(sol._domain)
    sol._handle = _OutputHandle(sol._output, sol._domain)
    results.register_writer(sol._h5path, sol._handle)
    open_outputs.append(weakref.ref(sol._handle))


class _OutputHandle:
    """Weak-referencable handle of a writer: close() releases the file (reopened by the next
    frame) so that h5py may read it in this process; finish() also writes STATE."""

    def __init__(self, output, domain):
        self.output = output
        self.domain = domain

    def close(self):
        self.output.close()

    def finish(self):
        self.output.finish(self.domain)


open_outputs = []


@atexit.register
def _close_outputs():
    for ref in open_outputs:
        h = ref()
        if h is not None:
            try:
                h.finish()
            except Exception:  # noqa: BLE001 - exiting anyway
                pass


# Output directories of the live SOLFEC objects of this process, by real path.
_claimed = {}


def _claim_output_path(sol, out):  # noqa: ARG001 - registered by select_mode on success
    """Another live SOLFEC object of this process using the output directory `out`, or None.
    In a deck run by solfec that raises unless the other object has run (the second would
    overwrite, or silently replay, the first's results); a Python session using the package
    (a script, a test that writes then reads back) may reuse the directory: the new object
    shares the lock."""
    key = os.path.realpath(out)
    other = _claimed.get(key)
    if other is not None and other() is not None:
        import gc
        gc.collect()   # an object the deck no longer holds may linger in a reference cycle
    other = other() if other is not None else None
    # A deck may create a second SOLFEC object on a directory whose first object has run, to
    # read its results back (Solfec-1.0's validation decks do: compute, then READ): it shares
    # the lock. Before the first object's RUN, the second would overwrite or replay it: refused.
    if other is not None and _state.options.get("deck") and not getattr(other, "_ran", False):
        raise ValueError(_shared_message(out))
    return other


def _shared_message(out):
    return (f"SOLFEC: the output directory '{out}' is already used by another SOLFEC object "
            f"of this deck (argument 'output'); give each SOLFEC object its own output "
            f"directory")


def _busy_message(out, holder):
    return (f"SOLFEC: the output directory '{out}' is being written by another solfec run "
            f"({holder}) (argument 'output'); two runs writing one directory would destroy "
            f"its results: wait for that run to end (or stop it), or write elsewhere (another "
            f"output path, or -s SUBDIR)")


def _tell_read_mode(out, h5path, busy):
    """The one line a READ-mode SOLFEC prints on stderr: the results replayed, nothing is
    computed, and how to recompute; or that another run is still writing them."""
    what = "results"
    try:
        with results.Results(h5path) as r:
            what = f"results ({r.nframes} frames, t = {r.times[0]:g} to {r.times[-1]:g})"
    except Exception:  # noqa: BLE001 - the line is informative; READ reports real errors
        pass
    if busy:
        line = (f"solfec: READ mode: '{out}' is being written by another solfec run ({busy}); "
                f"its {what} so far are replayed, nothing is computed; wait for that run to "
                f"end for complete results")
    else:
        line = (f"solfec: READ mode: '{out}' holds {what} of an earlier run, which the deck "
                f"replays; nothing is computed (run with -w to recompute, -c to continue)")
    sys.stdout.flush()
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def check_free_space(path, need, routine):
    """Raises ValueError if the file system of `path` has fewer than `need` bytes free."""
    try:
        st = os.statvfs(path)
    except OSError:
        return
    free = st.f_bavail * st.f_frsize
    if free < need:
        raise ValueError(f"{routine}: not enough disk space for the output in '{path}': "
                         f"{free / 1e6:.1f} MB free, about {need / 1e6:.4g} MB needed; free "
                         f"space, choose another output directory or a longer OUTPUT interval")


def rank_output_dir(out, valid):
    """Directory this rank writes the results of a SOLFEC object with output `out` to.
    Under solfec-mpi (docs/parallel.md) every rank holds the synchronised model at output
    time but only rank 0 writes into `out`; a rank > 0 that would write (no valid results, -w
    or -c) writes into a private scratch copy removed at exit, so two ranks never write the
    same file.
    Collective: every rank calls it from SOLFEC(); the barrier keeps rank 0 from creating
    results before every rank has judged the existing ones (`valid`)."""
    if not _mpi.active():
        return out
    opts = _state.options
    if _mpi.rank() > 0 and (not valid or opts["write"] or opts.get("continue")):
        scratch = tempfile.mkdtemp(prefix=f"solfec-mpi-rank{_mpi.rank()}-")
        atexit.register(shutil.rmtree, scratch, True)
        name = os.path.basename(os.path.normpath(out))
        mine = os.path.join(scratch, name)
        if valid and opts.get("continue"):
            shutil.copytree(out, mine)   # continue from a private copy of rank 0's results
        else:
            os.makedirs(mine)
        out = mine
    _mpi.barrier()
    return out
