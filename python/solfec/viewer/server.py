"""The viewer's HTTP server on 127.0.0.1: the page, three.js module files and a JSON API over
the results of the deck's SOLFEC objects (docs/viewer.md)."""

import json
import mimetypes
import os
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .. import _state
from .. import results as R
from .scene import Scene

_PKG = os.path.dirname(os.path.abspath(__file__))


class NotFound(LookupError):
    """A request naming a SOLFEC object or body the viewer does not have: HTTP 404."""


class BadRequest(ValueError):
    """A request with a missing or malformed query parameter: HTTP 400."""


def _int_param(qs, name, default=None):
    """Query parameter `name` as an int (BadRequest when missing or not an integer)."""
    v = qs.get(name, [default])[0]
    if v is None:
        raise BadRequest(f"missing query parameter '{name}'")
    try:
        return int(v)
    except (TypeError, ValueError):
        raise BadRequest(f"query parameter '{name}' must be an integer, got '{v}'") from None


def asset_dirs():
    """Directories holding the page (index.html, viewer.js) and node_modules/three:
    $SOLFEC_VIEWER_DIR, then BUILD/viewer (copied by CMake next to BUILD/python) or, for the
    package run from the sources, ROOT/viewer."""
    env = os.environ.get("SOLFEC_VIEWER_DIR")
    cands = [env] if env else []
    up = os.path.dirname(os.path.dirname(os.path.dirname(_PKG)))  # BUILD or the source root
    cands.append(os.path.join(up, "viewer"))
    return [d for d in cands if d and os.path.isfile(os.path.join(d, "index.html"))]


def find_three(dirs):
    """The directory of the installed three package (node_modules/three), or None."""
    for d in dirs:
        p = os.path.join(d, "node_modules", "three")
        if os.path.isfile(os.path.join(p, "build", "three.module.js")):
            return p
    return None


class Model:
    """One SOLFEC object of the deck as the viewer sees it."""

    def __init__(self, index, solfec, tmpdir):
        self.index, self.solfec = index, solfec
        self.outpath, self.h5 = solfec.outpath, solfec._h5path
        self.read = solfec.mode == "READ"
        self.runs = list(getattr(solfec, "_viewer_runs", []))
        self.path = self.h5 if self.read else self._preview(tmpdir)
        self.scene = Scene(self.path) if self.path else None

    def _preview(self, tmpdir):
        """A model without output: its initial state written as frame 0 of a private file."""
        from .. import _solfec
        p = os.path.join(tmpdir, f"preview{self.index}.h5")
        try:
            out = _solfec.Output(p, os.path.join(tmpdir, f"STATE{self.index}"), False, {})
            out.write_frame(self.solfec._domain)
            out.close()
        except Exception as e:  # noqa: BLE001 - shown on the page instead
            sys.stderr.write(f"solfec viewer: no preview of '{self.outpath}': {e}\n")
            return None
        return p

    def info(self):
        n = 0
        if self.path and os.path.isfile(self.path):
            try:
                with R.Results(self.path) as r:
                    n = r.nframes
            except (OSError, KeyError, ValueError):
                n = 0
        return {"index": self.index, "output": self.outpath, "mode": self.solfec.mode,
                "analysis": self.solfec.analysis, "nframes": int(n), "read": self.read,
                "runs": len(self.runs), "duration": sum(d for _, d in self.runs)}


class Viewer:
    """State shared by the request handlers: the models, the asset folders and a run."""

    def __init__(self, solfecs):
        self.tmp = tempfile.TemporaryDirectory(prefix="solfec-viewer-")
        self.models = [Model(k, s, self.tmp.name) for k, s in enumerate(solfecs)]
        self.dirs = asset_dirs()
        self.three = find_three(self.dirs)
        self.lock = threading.Lock()
        self.child = None
        self.log = os.path.join(self.tmp.name, "run.log")

    def status(self):
        running = self.child is not None and self.child.poll() is None
        rc = None if self.child is None or running else self.child.returncode
        if rc == 0:  # the run wrote the results: no second Run
            for m in self.models:
                m.read = m.read or m.path == m.h5
        log = ""
        if self.child is not None and os.path.isfile(self.log):
            with open(self.log, "rb") as f:
                f.seek(max(0, os.path.getsize(self.log) - 2000))
                log = f.read().decode("utf-8", "replace")
        return {"models": [m.info() for m in self.models], "running": running,
                "returncode": rc, "deck": os.path.basename(_state.options.get("deck") or ""),
                "log": log}

    def start_run(self):
        """Runs the deck in a child `solfec` process: the SOLFEC objects without output write
        their results (the page follows the frames as they appear); READ ones stay as are."""
        if self.child is not None and self.child.poll() is None:
            return {"started": False, "reason": "a run is already in progress"}
        todo = [m for m in self.models if not m.read]
        if not todo:
            return {"started": False, "reason": "every SOLFEC object has output already"}
        from .. import _output
        for m in todo:  # release this process's (empty) writer of the file the child writes
            h = getattr(m.solfec, "_handle", None)
            if h is not None:
                h.close()
                _output.open_outputs[:] = [r for r in _output.open_outputs if r() is not h]
            m.solfec._output = None
            lock = getattr(m.solfec, "_lock", None)   # the child takes the directory's lock
            if lock is not None:
                lock.release()
                m.solfec._lock = None
            m.path, m.scene = m.h5, Scene(m.h5)
        exe = os.path.realpath("/proc/self/exe")
        cmd = [exe] if os.path.basename(exe).startswith("solfec") else \
            [sys.executable, "-m", "solfec.cli"]
        if _state.options.get("subdir"):
            cmd += ["-s", _state.options["subdir"]]
        cmd += [_state.options["deck"], *_state.options.get("argv", [])]
        env = dict(os.environ)
        paths = [p for p in sys.path if p] + [env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(paths)
        with open(self.log, "w") as log:
            self.child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                          cwd=os.getcwd())
        return {"started": True, "command": cmd}

    def stop(self):
        if self.child is not None and self.child.poll() is None:
            self.child.terminate()
            self.child.wait(10)
        self.tmp.cleanup()


def _handler(viewer):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet: the terminal shows the deck's output
            pass

        def _send(self, code, body, ctype="application/json"):
            if isinstance(body, (dict, list)):
                body = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _file(self, root, rel):
            path = os.path.realpath(os.path.join(root, rel))
            if not path.startswith(os.path.realpath(root) + os.sep) or not os.path.isfile(path):
                return self._send(404, {"error": f"not found: {rel}"})
            ctype = mimetypes.guess_type(path)[0] or "application/octet-stream"
            if path.endswith(".js"):
                ctype = "text/javascript"
            with open(path, "rb") as f:
                self._send(200, f.read(), ctype)

        def _model(self, qs):
            k = _int_param(qs, "m", "0")
            if not 0 <= k < len(viewer.models):
                raise NotFound(f"/api: no SOLFEC object m={k} (the deck has "
                               f"{len(viewer.models)}: m=0..{len(viewer.models) - 1})")
            m = viewer.models[k]
            if m.scene is None:
                raise ValueError(f"SOLFEC object {k} has nothing to show")
            return m

        def do_GET(self):  # noqa: N802 - http.server's name
            url = urllib.parse.urlparse(self.path)
            qs = urllib.parse.parse_qs(url.query)
            p = url.path
            try:
                if p in ("/", "/index.html"):
                    return self._file(viewer.dirs[0], "index.html")
                if p.startswith("/static/"):
                    return self._file(viewer.dirs[0], p[len("/static/"):])
                if p.startswith("/three/"):
                    if viewer.three is None:
                        return self._send(404, {"error": "three.js is not installed: run "
                                                "`npm ci` in viewer/ (docs/viewer.md)"})
                    rel = p[len("/three/"):]
                    if not rel.startswith(("build/", "examples/jsm/")):
                        return self._send(404, {"error": "not served"})
                    return self._file(viewer.three, rel)
                if p == "/api/status":
                    return self._send(200, viewer.status())
                if p == "/api/model":
                    with viewer.lock:
                        m = self._model(qs)
                        return self._send(200, {**m.info(), **m.scene.model()})
                if p == "/api/history":
                    with viewer.lock:
                        m = self._model(qs)
                        return self._send(200, m.scene.history(_int_param(qs, "id")))
                if p == "/api/frame":
                    with viewer.lock:
                        m = self._model(qs)
                        fr = m.scene.frame(_int_param(qs, "i", "0"),
                                           qs.get("field", ["displacement"])[0])
                        return self._send(200, fr)
                return self._send(404, {"error": f"unknown path {p}"})
            except (NotFound, R.UnknownBodyError) as e:
                return self._send(404, {"error": str(e)})
            except BadRequest as e:
                return self._send(400, {"error": f"{p}: {e}"})
            except Exception as e:  # noqa: BLE001 - reported to the page
                return self._send(500, {"error": f"{type(e).__name__}: {e}"})

        def do_POST(self):  # noqa: N802
            if urllib.parse.urlparse(self.path).path == "/api/run":
                with viewer.lock:
                    return self._send(200, viewer.start_run())
            return self._send(404, {"error": "unknown path"})

    return Handler


def serve(port=0, solfecs=None):
    """Serves the viewer on 127.0.0.1:port (0: any free port) until interrupted; returns 0."""
    if solfecs is None:
        solfecs = [r() for r in _state.solfec_objects if r() is not None]
    if not solfecs:
        sys.stderr.write("solfec viewer: the deck created no SOLFEC object: nothing to show\n")
        return 1
    viewer = Viewer(solfecs)
    if not viewer.dirs:
        sys.stderr.write("solfec viewer: the page (viewer/index.html) is not installed; build "
                         "solfec with CMake or set SOLFEC_VIEWER_DIR (docs/viewer.md)\n")
        return 1
    if viewer.three is None:
        sys.stderr.write("solfec viewer: three.js is missing: run `npm ci` in viewer/ and "
                         "rebuild (docs/viewer.md)\n")
        return 1
    httpd = ThreadingHTTPServer(("127.0.0.1", int(port)), _handler(viewer))
    httpd.daemon_threads = True
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    sys.stdout.write(f"solfec viewer: serving {url} (port {httpd.server_address[1]}); "
                     f"Ctrl-C to stop\n")
    sys.stdout.flush()
    def stop(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGTERM, stop)  # `kill PID` stops as cleanly as Ctrl-C
    try:
        httpd.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        sys.stdout.write("\nsolfec viewer: stopped\n")
    finally:
        signal.signal(signal.SIGTERM, previous)
        httpd.server_close()
        viewer.stop()
    return 0
