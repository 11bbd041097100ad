"""Solfec-1.0's PBF files (its XDR "portable binary format", pbf.c): a writer and a reader.

A PBF file `path` is three files:

- `path.dat`: one block per time frame, a byte 0 (1 would mean FastLZ compression, which the
  writer never uses and the reader refuses) followed by the frame's XDR stream;
- `path.idx`: per frame, XDR double time, uint64 offset of the frame's block in .dat, then
  (int label index, uint position of the label's data in the frame's XDR stream) pairs and
  int -1; after the last frame a final frame: DBL_MAX, the size of .dat, int -2;
- `path.lab`: the label names, XDR strings, in order of first use (label index = position).

XDR is big-endian: int/uint/short 4 bytes, double 8, uint64 8, a string its uint length and
bytes padded to a multiple of 4. Labels mark positions; they add nothing to the .dat stream.
`read_states` decodes frames written by dom_write_state (Solfec-1.0's dio.c, as SOLFEC_EXPORT
writes them)."""

import os
import struct

__all__ = []

DBL_MAX = 1.7976931348623157e308


def _xdr_string(s):
    b = s.encode()
    return struct.pack(">I", len(b)) + b + b"\0" * (-len(b) % 4)


class Writer:
    """PBF_Write / PBF_Time / PBF_Label / PBF_Int ... / PBF_Close of Solfec-1.0 (no
    compression)."""

    def __init__(self, path):
        self.paths = [path + ".dat", path + ".idx", path + ".lab"]
        self.dat, self.idx, self.lab = (open(p, "wb") for p in self.paths)
        self.buf = bytearray()
        self.labels = {}
        self.time_ = None

    def _write_frame(self):
        if self.idx.tell() > 0:
            self.idx.write(struct.pack(">i", -1))
            self.dat.write(b"\0" + bytes(self.buf))
            self.buf = bytearray()

    def time(self, t):
        if self.time_ is not None and t < self.time_:
            raise ValueError(f"PBF: output time decreased ({t} < {self.time_})")
        self._write_frame()
        self.idx.write(struct.pack(">dQ", t, self.dat.tell()))
        self.time_ = t

    def label(self, name):
        if name not in self.labels:
            self.labels[name] = len(self.labels)
            self.lab.write(_xdr_string(name))
        self.idx.write(struct.pack(">iI", self.labels[name], len(self.buf)))

    def ints(self, values):
        self.buf += struct.pack(f">{len(values)}i", *values)

    def uints(self, values):
        self.buf += struct.pack(f">{len(values)}I", *values)

    def shorts(self, values):  # XDR encodes a short in 4 bytes
        self.buf += struct.pack(f">{len(values)}i", *values)

    def doubles(self, values):
        self.buf += struct.pack(f">{len(values)}d", *(float(v) for v in values))

    def string(self, s):
        self.buf += _xdr_string(s)

    def close(self):
        self._write_frame()
        self.idx.write(struct.pack(">dQi", DBL_MAX, self.dat.tell(), -2))
        empty = self.dat.tell() == 0
        for f in (self.dat, self.idx, self.lab):
            f.close()
        if empty:
            for p in self.paths:
                os.remove(p)


class _Stream:
    def __init__(self, data, pos=0):
        self.data, self.pos = data, pos

    def take(self, fmt):
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise ValueError("PBF: a frame ends before its data (corrupted or not written by "
                             "dom_write_state)")
        v = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return v

    def int(self):
        return self.take(">i")[0]

    def uint(self):
        return self.take(">I")[0]

    def doubles(self, n):
        return list(self.take(f">{n}d")) if n else []

    def string(self):
        n = self.uint()
        s = bytes(self.data[self.pos:self.pos + n]).decode()
        self.pos += n + (-n % 4)
        return s


def read_frames(path):
    """[(time, frame bytes, {label: position})] of the PBF file `path` (without extension)."""
    with open(path + ".lab", "rb") as f:
        lab = f.read()
    names, s = [], _Stream(lab)
    while s.pos < len(lab):
        names.append(s.string())
    with open(path + ".idx", "rb") as f:
        idx = _Stream(f.read())
    with open(path + ".dat", "rb") as f:
        dat = f.read()
    marks = []
    while True:
        t, doff = idx.take(">dQ")
        k = idx.int()
        labels = {}
        while k >= 0:
            labels[names[k]] = idx.uint()
            k = idx.int()
        if k == -2:
            marks.append((t, doff, None))
            break
        marks.append((t, doff, labels))
    frames = []
    for (t, a, labels), (_, b, _) in zip(marks, marks[1:]):
        if dat[a] != 0:
            raise ValueError(f"PBF: '{path}.dat' holds a compressed frame (FastLZ), which this "
                             f"reader does not decode")
        frames.append((t, dat[a + 1:b], labels))
    return frames


# Solfec-1.0's constraint kinds (dom.h) and body kinds (bod.h)
CON_KINDS = ("CONTACT", "FIXPNT", "FIXDIR", "VELODIR", "VELODIR3", "RIGLNK", "SPRING")
BODY_KINDS = ("OBSTACLE", "RIGID", "PSEUDO_RIGID", "FINITE_ELEMENT")
Z_SIZE = 7


def read_states(path):
    """The frames of a file written by SOLFEC_EXPORT (Solfec-1.0's dom_write_state): a list
    of dicts: time, iover, step, merit, bodies {id: {label, kind, conf, velo, energy}},
    constraints [{id, kind, R, U, V, point, base, merit, master, slave, (contacts:) material,
    state, area, gap, spair, (RIGLNK, VELODIR, SPRING:) Z}], timers {name: seconds}."""
    out = []
    for t, data, labels in read_frames(path):
        s = _Stream(data, labels["DOM"])
        fr = {"time": t}
        s.pos = labels["IOVER"]
        fr["iover"] = s.int()
        s.pos = labels["STEP"]
        fr["step"] = s.doubles(1)[0]
        s.pos = labels["MERIT"]
        fr["merit"] = s.doubles(1)[0]
        s.pos = labels["BODS"]
        at = {v: k for k, v in labels.items()}
        bodies = {}
        for _ in range(s.int()):
            bid = s.uint()
            label = at.get(s.pos)  # a body label marks the position after the id
            kind, nq, nu = s.int(), s.int(), s.int()
            conf, velo = s.doubles(nq), s.doubles(nu)
            energy = s.doubles(0 if kind == 0 else 4 if kind == 1 else 5)
            bodies[bid] = {"label": label, "kind": BODY_KINDS[kind], "conf": conf,
                           "velo": velo, "energy": energy}
        fr["bodies"] = bodies
        s.pos = labels["CONS"]
        cons = []
        for _ in range(s.int()):
            c = {"id": s.uint()}
            k = s.int()
            c["kind"] = CON_KINDS[k]
            c["R"], c["U"] = s.doubles(3), s.doubles(3)
            if k == 0:
                c["V"] = s.doubles(3)
            c["point"], c["base"], c["merit"] = s.doubles(3), s.doubles(9), s.doubles(1)[0]
            c["master"], c["slave"] = s.uint(), s.uint()
            if k == 0:
                c["material"] = s.int()
                c["state"] = s.doubles(s.int())
                c["area"], c["gap"] = s.doubles(2)
                c["spair"] = [s.int(), s.int()]
            if c["kind"] in ("RIGLNK", "VELODIR", "SPRING"):
                c["Z"] = s.doubles(Z_SIZE)
            cons.append(c)
        fr["constraints"] = cons
        s.pos = labels["TIMERS"]
        timers = {}
        for _ in range(s.int()):
            total = s.doubles(1)[0]
            timers[s.string()] = total
        fr["timers"] = timers
        out.append(fr)
    return out
