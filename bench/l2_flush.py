#!/usr/bin/env python3
"""l2_flush.py: how much of a short decode's time under do_bench is its L2 flush's.

triton.testing.do_bench (what bench.py times with) zeroes a 256 MB buffer before every
call to flush L2. The memset leaves L2 full of dirty lines, so the timed call's first
reads must first write ~50 MB back to HBM: a fixed cost of several microseconds that
every implementation pays, and that a short decode (67 MB of K and V at B = 1, L = 4096)
cannot hide. This times the same calls with do_bench and with the same loop flushed by a
256 MB read instead (clean lines), fusecc and PyTorch's FLASH backend alike, B = 1.

    python3 bench/l2_flush.py [--seqs 4096,16384]       (after make gpu-prep, like bench.py)
"""
import argparse
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def timed_loop(call, n, flush):
    """Median ms of n calls, each after flush(), timed with events around the call."""
    ev = []
    for i in range(n):
        flush()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        call(i)
        b.record()
        ev.append((a, b))
    torch.cuda.synchronize()
    ms = sorted(a.elapsed_time(b) for a, b in ev)
    return ms[len(ms) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--op", default="causal_dc")
    ap.add_argument("--seqs", default="4096,16384")
    ap.add_argument("--arch", default="sm_90a")
    args = ap.parse_args()
    op = {o.name: o for o in bench.OPS}[args.op]
    fn = bench.build_all([op], args.arch)[op.name]
    if isinstance(fn, Exception):
        raise fn
    buf = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    flushes = {"memset": buf.zero_, "read": buf.sum}
    print(f"# {torch.cuda.get_device_name()}, {op.name}, B = 1; GB/s of K and V")
    print(f"{'L':>6} {'impl':7} {'do_bench us':>11} {'memset us':>9} {'read us':>8} {'do_bench GB/s':>13} {'read GB/s':>9}")
    for n in bench.ints(args.seqs):
        ncopies = max(1, math.ceil(bench.ROTATE_BYTES / bench.copy_bytes(op, 1, 1, n)))
        copies = [bench.make_copy(op, 1, 1, n, 4.0) for _ in range(ncopies)]
        vals = {"B": 1, "H": op.hq, "HKV": op.hkv, "G": op.hq // op.hkv, "L": n, "scale": bench.SCALE}
        stream = torch.cuda.current_stream().cuda_stream
        cargs = [[vals[p] if p in vals else getattr(x, p).data_ptr() for p in op.params] + [stream] for x in copies]
        calls = {"fusecc": lambda i: fn(*cargs[i % ncopies])}
        if op.hq == op.hkv and not (op.alibi or op.softcap or op.window):
            calls["FLASH"] = lambda i: F.scaled_dot_product_attention(copies[i % ncopies].q, copies[i % ncopies].k,
                                                                      copies[i % ncopies].v, scale=bench.SCALE)
        gb = 2 * op.hkv * n * bench.D * 2 / 1e9
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
            for name, call in calls.items():
                for i in range(20):
                    call(i)
                db = bench.time_calls(call, ncopies, 25, 100)
                t = {k: timed_loop(call, 300, f) for k, f in flushes.items()}
                print(f"{n:6d} {name:7} {db * 1e3:11.1f} {t['memset'] * 1e3:9.1f} {t['read'] * 1e3:8.1f} "
                      f"{gb / db * 1e3:13.0f} {gb / t['read'] * 1e3:9.0f}", flush=True)


if __name__ == "__main__":
    main()
