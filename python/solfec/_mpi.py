"""The MPI handle of this process (docs/parallel.md).

Under `solfec-mpi` the launcher sets `hooks` to its _solfec_mpi module (rank(), size(),
barrier(), decomposition_factory()) before the deck runs; in a serial run it stays None.
Every module asks here, so none of them needs the module that defines RANK or BARRIER."""

hooks = None


def active():
    """True under solfec-mpi (even on a single rank)."""
    return hooks is not None


def rank():
    return 0 if hooks is None else hooks.rank()


def size():
    return 1 if hooks is None else hooks.size()


def barrier():
    if hooks is not None:
        hooks.barrier()
