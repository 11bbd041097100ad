"""One writer per output directory (docs/cli.md, "One writer per output directory").

A run that writes an output directory (WRITE mode, -w, -c) holds an exclusive flock(2) on
DIR/.solfec.lock for as long as its SOLFEC object lives (in practice: until the process ends).
The file names the holder (pid, host, start time, deck); the lock itself is the kernel's, so a
run killed even by SIGKILL releases it and the stale file left behind blocks nobody. A second
writer is refused before it touches the results; a READ-mode run of a directory being written
is told so (solfec/_output.py)."""

import errno
import fcntl
import os
import socket
import time

LOCK_NAME = ".solfec.lock"


def _holder_text(fd):
    """The holder's description stored in the lock file, or a neutral phrase."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 4096).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text if text else "a process that has not yet written its pid"


class DirectoryLock:
    """The exclusive lock of output directory `out` held by this process; release() or
    garbage collection of the object (or the end of the process) gives it up."""

    def __init__(self, fd, path):
        self._fd, self.path = fd, path

    def release(self):
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError:
                pass

    def __del__(self):
        self.release()


def acquire(out):
    """Takes the exclusive lock of output directory `out`. Returns a DirectoryLock, or a
    string describing the holder if another process (or another open of this process) holds
    it. On a file system without locks (ENOLCK, EOPNOTSUPP) or a read-only directory it
    returns a DirectoryLock holding nothing (no protection is possible there)."""
    path = os.path.join(out, LOCK_NAME)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return DirectoryLock(None, path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            text = _holder_text(fd)
            os.close(fd)
            return text
        os.close(fd)
        return DirectoryLock(None, path)
    from . import _state
    deck = os.path.basename(_state.options.get("deck") or "") or "-"
    stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    text = f"pid {os.getpid()} on host {socket.gethostname()}, started {stamp}, deck {deck}\n"
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, text.encode("utf-8"), 0)
    except OSError:
        pass  # the lock holds without the description
    return DirectoryLock(fd, path)
