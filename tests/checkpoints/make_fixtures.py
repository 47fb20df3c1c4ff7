#!/usr/bin/env python3
"""Writes the checkpoints tests/checkpoints holds, with real PyTorch (outside `make test`):

    /tmp/torchenv/bin/python tests/checkpoints/make_fixtures.py

- pytorch_net.pt: torch.save(net.state_dict()) of net.Net with set_state's values, and
  pytorch_net.safetensors: the same through safetensors.torch.save_file (the safetensors
  package, which needs numpy: pip install safetensors numpy);
  pytorch_misc.pt: the other values a checkpoint holds (dtypes, views sharing a storage, a
  Parameter, numbers, strings, bytes, torch.Size, a device, nested containers).
- hostile/: files torch.load and safetensors' load_file must refuse (their PyTorch outcome in
  hostile/PYTORCH.txt).
- saved_by_fusescope.torch.out: what PyTorch prints loading saved_by_fusescope.pt (which
  Fusescope's checkpoint test writes and compares with its own save), by load_in_pytorch.py.
PRODUCED_BY records the torch version.
"""
import collections
import io
import os
import pathlib
import pickle
import subprocess
import sys
import zipfile

import torch
from safetensors.torch import load_file, save_file

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here))
from net import Net, set_state  # noqa: E402

torch.save(set_state(Net()).state_dict(), here / "pytorch_net.pt")
save_file(set_state(Net()).state_dict(), here / "pytorch_net.safetensors", metadata={"format": "pt"})

base = torch.arange(12, dtype=torch.float64).reshape(3, 4) / 8
misc = {
    "step": 12,
    "big": 2**40,
    "negative": -70000,
    "lr": 0.001,
    "name": "net",
    "flags": [True, False, None],
    "shape": torch.Size([2, 3]),
    "dtype": torch.bfloat16,
    "device": torch.device("cpu"),
    "ids": {3, 1, 2},
    "blob": b"\x00\x01fuse",
    "pair": (1, "two"),
    "base": base,
    "view": base[1:, ::2],
    "ints": torch.tensor([[1, -2], [3, 2**40]]),
    "int32": torch.tensor([5, -6], dtype=torch.int32),
    "mask": torch.tensor([True, False, True]),
    "half": torch.tensor([0.5, -1.25, 3.0], dtype=torch.float16),
    "bf16": torch.tensor([0.5, -1.25, 3.0], dtype=torch.bfloat16),
    "param": torch.nn.Parameter(torch.tensor([[1.5, -2.0]])),
    "frozen": torch.nn.Parameter(torch.tensor([0.25]), requires_grad=False),
    "scalar": torch.tensor(3.5),
    "empty": torch.zeros(0, 3),
    "empty_past_its_storage": torch.tensor([]).as_strided((0, 1, 0), (2, 2, 2), 1),  # no bounds to check
    "nested": collections.OrderedDict([("inner", {"t": torch.ones(2)}), ("list", [torch.tensor([9])])]),
}
torch.save(misc, here / "pytorch_misc.pt")

# Hostile files.
hostile = here / "hostile"
hostile.mkdir(exist_ok=True)


class Custom:
    pass


class RunsACommand:
    def __reduce__(self):
        return (os.system, ("echo this must never run",))


torch.save({"x": Custom()}, hostile / "custom_class.pt")
torch.save({"x": RunsACommand()}, hostile / "runs_a_command.pt")
torch.save({"w": torch.ones(2)}, hostile / "legacy_format.pt", _use_new_zipfile_serialization=False)
whole = (here / "pytorch_net.pt").read_bytes()
(hostile / "truncated.pt").write_bytes(whole[: len(whole) // 2])
(hostile / "not_a_checkpoint.pt").write_bytes(b"hello, I am text\n")


class StorageRef:
    pass


def storage_pickle(numel, size, stride):
    """A data.pkl whose one tensor claims a storage of `numel` floats and a view of it."""

    class Tensorish:
        def __reduce__(self):
            return (torch._utils._rebuild_tensor_v2, (StorageRef(), 0, size, stride, False, collections.OrderedDict()))

    class Pickler(pickle.Pickler):
        def persistent_id(self, obj):
            return ("storage", torch.FloatStorage, "0", "cpu", numel) if isinstance(obj, StorageRef) else None

    buffer = io.BytesIO()
    Pickler(buffer, protocol=2).dump({"w": Tensorish()})
    return buffer.getvalue()


def archive(path, pickle_bytes, storage=b"\0" * 24):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in (("data.pkl", pickle_bytes), ("byteorder", "little"), ("data/0", storage), ("version", "3\n")):
            z.writestr(zipfile.ZipInfo("archive/" + name, date_time=(2026, 1, 1, 0, 0, 0)), data)  # the same bytes each run


archive(hostile / "huge_storage.pt", storage_pickle(2**60, (2**60,), (1,)))
archive(hostile / "view_out_of_bounds.pt", storage_pickle(6, (10,), (1,)))
depth = 100000
archive(hostile / "deep_nesting.pt", b"\x80\x02" + b"]" * depth + b"a" * (depth - 1) + b".")
archive(hostile / "bad_opcode.pt", b"\x80\x02\xff.")

# Hostile safetensors files: each header's flaw in its name.
def safetensors_file(name, header, data=b""):
    (hostile / name).write_bytes(len(header).to_bytes(8, "little") + header + data)


(hostile / "st_header_too_small.safetensors").write_bytes(b"\x05\x00\x00")
(hostile / "st_header_length_past_end.safetensors").write_bytes((1000).to_bytes(8, "little") + b"{}")
(hostile / "st_header_too_large.safetensors").write_bytes((200_000_000).to_bytes(8, "little") + b"{}")
safetensors_file("st_not_json.safetensors", b"{not json")
safetensors_file("st_offsets_past_data.safetensors", b'{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', b"\0" * 8)
safetensors_file("st_shape_mismatch.safetensors", b'{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}', b"\0" * 16)
safetensors_file("st_overlapping.safetensors",
                 b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', b"\0" * 12)

with open(hostile / "PYTORCH.txt", "w") as out:
    out.write(f"# torch.load(path) (safetensors' load_file for .safetensors) of each file here, in PyTorch {torch.__version__}: "
              "the exception's type and first line\n")
    for path in sorted(list(hostile.glob("*.pt")) + list(hostile.glob("*.safetensors"))):
        try:
            torch.load(path) if path.suffix == ".pt" else load_file(path)
            outcome = "loaded"
        except BaseException as e:  # noqa: BLE001: recording whatever PyTorch raised
            outcome = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        out.write(f"{path.name}: {outcome}\n")

saved = here / "saved_by_fusescope.pt"
if saved.exists():
    result = subprocess.run([sys.executable, "load_in_pytorch.py"], cwd=here, capture_output=True, text=True, check=True)
    (here / "saved_by_fusescope.torch.out").write_text(result.stdout)
(here / "PRODUCED_BY").write_text(f"torch {torch.__version__}\n")
