"""Writes float32 tensors to a GGUF file (version 3): the trained weights that
tools/synth --weights reads, quantizes and writes as a complete model."""
import struct

import numpy as np

_ALIGN = 32
_TYPE_STRING, _TYPE_F32_TENSOR = 8, 0


def _string(s):
    data = s.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def write(path, tensors, name):
    """tensors: list of (name, numpy float32 array in row-major order of GGUF's reversed
    dims: a [rows, cols] array is GGUF ne = {cols, rows})."""
    header = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), 1)
    header += _string("general.name") + struct.pack("<I", _TYPE_STRING) + _string(name)
    infos, offset, blobs = b"", 0, []
    for tname, array in tensors:
        array = np.ascontiguousarray(array, dtype=np.float32)
        dims = list(reversed(array.shape))
        infos += _string(tname) + struct.pack("<I", len(dims))
        infos += b"".join(struct.pack("<Q", n) for n in dims)
        infos += struct.pack("<IQ", _TYPE_F32_TENSOR, offset)
        blob = array.tobytes()
        pad = (-len(blob)) % _ALIGN
        blobs.append(blob + b"\0" * pad)
        offset += len(blob) + pad
    head = header + infos
    head += b"\0" * ((-len(head)) % _ALIGN)
    with open(path, "wb") as f:
        f.write(head)
        for blob in blobs:
            f.write(blob)
