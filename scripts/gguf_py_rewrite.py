#!/usr/bin/python3
"""Rewrites a GGUF file with llama.cpp's own gguf-py writer, as files from model hubs are written.

Every metadata key and every tensor's bytes are copied; gguf-py lays out the header, the
metadata, the tensor infos, alignment and padding itself, and the tensors go in the order
of their names sorted as strings (as a converter reading a checkpoint's sorted keys emits
them: blk.10 before blk.2), not in the order of the input. Used to run the benchmarks on
files this project did not write (docs/BENCHMARKS.md).

  /usr/bin/python3 scripts/gguf_py_rewrite.py --gguf-py .refs/llama.cpp/gguf-py IN.gguf OUT.gguf

Needs numpy (Debian's python3-numpy) and a llama.cpp checkout's gguf-py directory.
"""

import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf-py", required=True, help="llama.cpp's gguf-py directory")
    parser.add_argument("input")
    parser.add_argument("output")
    args = parser.parse_args()
    sys.path.insert(0, args.gguf_py)
    import gguf  # pylint: disable=import-outside-toplevel

    reader = gguf.GGUFReader(args.input)
    arch = reader.fields[gguf.Keys.General.ARCHITECTURE].contents()
    writer = gguf.GGUFWriter(args.output, arch)
    for field in reader.fields.values():
        # GGUF.* are the reader's virtual fields; the writer adds general.architecture itself.
        if field.name == gguf.Keys.General.ARCHITECTURE or field.name.startswith("GGUF."):
            continue
        value_type = field.types[0]
        sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), value_type, sub_type=sub_type)

    tensors = sorted(reader.tensors, key=lambda t: t.name)
    for t in tensors:
        writer.add_tensor_info(t.name, t.data.shape, t.data.dtype, t.data.nbytes, t.tensor_type)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    for t in tensors:
        writer.write_tensor_data(t.data, tensor_endianess=reader.endianess)
    writer.close()
    print(f"{args.output}: {len(tensors)} tensors, {len(reader.fields)} fields, written by gguf-py")


if __name__ == "__main__":
    main()
