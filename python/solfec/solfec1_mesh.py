"""Solfec-1.0's MESH files (msh.c MESH_Write: an HDF5 file holding the mesh packed by
MESH_Pack and compressed by FastLZ, cmp.c), as TETRAHEDRALIZE caches them: a deck shipped
with such a file (e.g. inp/devel/runtime-split/pipe1.mesh) gets Solfec-1.0's very mesh,
node numbers included, where TetGen here could mesh differently."""

import numpy as np
import h5py
import numpy as np


def fastlz_decompress(data, maxout):
    """The first `maxout` bytes FastLZ (levels 1 and 2; the level in the top bits of the
    first byte) decodes from `data`."""
    ip, n = 0, len(data)
    level = (data[0] >> 5) + 1
    out = bytearray()
    ctrl = data[ip] & 31
    ip += 1
    while True:
        if ctrl >= 32:
            ln = (ctrl >> 5) - 1
            ofs = (ctrl & 31) << 8
            ref = len(out) - ofs - 1
            if ln == 6:
                if level == 1:
                    ln += data[ip]; ip += 1
                else:
                    while True:
                        code = data[ip]; ip += 1
                        ln += code
                        if code != 255:
                            break
            code = data[ip]; ip += 1
            ref -= code
            if level == 2 and code == 255 and ofs == (31 << 8):
                ofs = (data[ip] << 8) + data[ip + 1]; ip += 2
                ref = len(out) - ofs - 8191 - 1
            if ref < 0:
                raise ValueError("bad reference")
            for k in range(ln + 3):
                out.append(out[ref + k])
        else:
            ctrl += 1
            out += data[ip:ip + ctrl]
            ip += ctrl
        if len(out) >= maxout or ip >= n:
            break
        ctrl = data[ip]; ip += 1
    return bytes(out[:maxout])


def read(path):
    with h5py.File(path, "r") as f:
        data = np.asarray(f["compressed mesh data"], dtype="<i4")
    alg, doubles, ints, rem = (int(x) for x in data[-4:])
    raw = data.tobytes()
    total = doubles * 8 + ints * 4
    body = raw[:len(raw) - 16]
    if total >= 16:
        out = fastlz_decompress(body, total)
    else:
        out = body[:total]
    d = np.frombuffer(out[:doubles * 8], dtype="<f8")
    i = np.frombuffer(out[doubles * 8:total], dtype="<i4")
    return d, i



def read_mesh(path):
    """(nodes (n, 3) referential, elements [(node list, volid)], faces [(node list, surfid)])
    of a Solfec-1.0 MESH file, or None when `path` is not one."""
    try:
        import h5py
        with h5py.File(path, "r") as f:
            if "compressed mesh data" not in f:
                return None
            data = np.asarray(f["compressed mesh data"], dtype="<i4")
    except (OSError, ValueError, ImportError):
        return None
    try:
        return _unpack(*_decompress(data))
    except (ValueError, IndexError):
        return None


def _decompress(data):
    """cmp.c decompress: the trailer (alg, doubles, ints, remainder), FastLZ before it."""
    doubles, ints = int(data[-3]), int(data[-2])
    raw = data.tobytes()[:-16]
    total = doubles * 8 + ints * 4
    out = fastlz_decompress(raw, total) if total >= 16 else raw[:total]
    if len(out) != total:
        raise ValueError("truncated mesh data")
    return (np.frombuffer(out[:doubles * 8], dtype="<f8"),
            np.frombuffer(out[doubles * 8:], dtype="<i4"))


def _unpack(d, i):
    """msh.c MESH_Unpack: node count, bulk and surface element counts; current then
    referential nodes; elements (type, neighbours, volume id, nodes, neighbour indices,
    material flag (+ label), faces (normal; type, nodes, index, surface id))."""
    ip, dp = 0, 0

    def ints(k):
        nonlocal ip
        v = i[ip:ip + k].tolist()
        ip += k
        if len(v) != k:
            raise ValueError("truncated")
        return v

    n, nbulk, nsurf = ints(3)
    ref = d[3 * n:6 * n].reshape(n, 3)
    dp = 6 * n
    elements, faces = [], []
    for _ in range(nbulk + nsurf):
        typ, neighs, volid = ints(3)
        nodes = ints(typ)
        ints(neighs)
        if ints(1)[0]:  # a material label (pck.c pack_string: length, one int a character)
            ints(ints(1)[0])
        for _ in range(ints(1)[0]):
            dp += 3  # normal
            ftype = ints(1)[0]
            fnodes = ints(ftype)
            _index, surface = ints(2)
            faces.append((fnodes, surface))
        elements.append((nodes, volid))
    if dp > len(d):
        raise ValueError("truncated")
    return np.array(ref), elements, faces
