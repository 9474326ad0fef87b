#!/usr/bin/env python3
"""rows.py: the row reductions (softmax, log-sum-exp, RMSNorm, LayerNorm, cross-entropy with
class indices) that fusecc lowers to one CTA per row (fused, or the row's loops as written), timed against PyTorch in one process on the
same inputs, with the memory bandwidth each reaches.

On the GPU machine, from the repository root, after `make gpu-prep` on the development
machine (build/gpu/<name>.cu):

    python3 bench/rows.py [--rows 4096] [--json OUT.json]

Bandwidth is counted on the bytes the operation must move (each input read once, each
output written once); the peak is that of a large device-to-device copy measured in the
same run. Each kernel's output is checked against PyTorch in float64 first (a failure is
reported and the kernel is not timed). The last lines are the table.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import tempfile

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(name, fn, arch, libdir, gpudir="build/gpu"):
    cu = os.path.join(ROOT, gpudir, f"{name}.cu")
    so = os.path.join(libdir, f"lib{name}.so")
    r = subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-O3", f"-arch={arch}", "-Iinclude", "-w", cu, "-o", so],
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("nvcc failed:\n" + (r.stdout + r.stderr)[-3000:])
    return getattr(ctypes.CDLL(so), f"{fn}_launch")


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def stream():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def timed(fn, reps=20):
    """Median milliseconds of fn() over reps runs (after two warm-up runs)."""
    for _ in range(2):
        fn()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def copy_peak():
    """GB/s of a 1 GiB device-to-device copy (read + write counted)."""
    a = torch.empty(1 << 29, dtype=torch.float16, device="cuda")
    b = torch.empty_like(a)
    ms = timed(lambda: b.copy_(a), 10)
    return 2 * a.numel() * 2 / ms / 1e6


# Each case: (build/gpu/<name>.cu, its C function, label, C, setup) where setup(R, C) returns
# (run fusecc, run PyTorch, check -> max error, bytes moved).
def softmax_f32(R, C, fn):
    x = torch.randn(R, C, device="cuda") * 3
    y = torch.full_like(x, float("nan"))
    run = lambda: fn(R, C, ptr(x), ptr(y), stream())
    peer = lambda: torch.softmax(x, -1)
    check = lambda: (y.double() - torch.softmax(x.double(), -1)).abs().max().item()
    return run, peer, check, 2 * R * C * 4


def softmax_bf16(R, C, fn):
    x = (torch.randn(R, C, device="cuda") * 3).bfloat16()
    y = torch.full_like(x, float("nan"))
    run = lambda: fn(R, C, ptr(x), ptr(y), stream())
    peer = lambda: torch.softmax(x, -1)
    check = lambda: ((y.double() - torch.softmax(x.double(), -1)).abs() / (torch.softmax(x.double(), -1).abs() + 1e-6)).clamp(max=1).max().item()
    return run, peer, check, 2 * R * C * 2


def lse_f16(R, C, fn):
    x = (torch.randn(R, C, device="cuda") * 3).half()
    out = torch.full((R,), float("nan"), device="cuda")
    run = lambda: fn(R, C, ptr(x), ptr(out), stream())
    peer = lambda: torch.logsumexp(x, -1)
    check = lambda: (out.double() - torch.logsumexp(x.double(), -1)).abs().max().item()
    return run, peer, check, R * C * 2 + R * 4


def rmsnorm_f16(R, C, fn):
    x = torch.randn(R, C, device="cuda").half()
    w = torch.randn(C, device="cuda").half()
    y = torch.full_like(x, float("nan"))
    eps = 1e-6
    run = lambda: fn(R, C, ctypes.c_float(eps), ptr(x), ptr(w), ptr(y), stream())
    peer = lambda: F.rms_norm(x, (C,), w, eps)
    ref = lambda: F.rms_norm(x.double(), (C,), w.double(), eps)
    check = lambda: ((y.double() - ref()).abs() / (ref().abs() + 1)).max().item()
    return run, peer, check, 2 * R * C * 2 + C * 2


def rmsnorm_bf16_4096(R, C, fn):
    """test/zoo/r04_rmsnorm_bf16: HIDDEN is 4096 in the C; nothing to fuse (one sum)."""
    x = torch.randn(R, C, device="cuda").bfloat16()
    w = torch.randn(C, device="cuda").bfloat16()
    y = torch.full_like(x, float("nan"))
    eps = 1e-6
    run = lambda: fn(R, ctypes.c_float(eps), ptr(x), ptr(w), ptr(y), stream())
    peer = lambda: F.rms_norm(x, (C,), w, eps)
    ref = lambda: F.rms_norm(x.double(), (C,), w.double(), eps)
    check = lambda: ((y.double() - ref()).abs() / (ref().abs() + 1)).max().item()
    return run, peer, check, 2 * R * C * 2 + C * 2


def layernorm(dtype):
    """LayerNorm, fp32 gamma and beta: nothing to fuse (sum and sum of squares in one
    loop), or the two-pass variance left unfused (mean, then sum of (x - mean)^2)."""
    def setup(R, C, fn):
        x = (torch.randn(R, C, device="cuda") * 2 + 1).to(dtype)
        g = torch.randn(C, device="cuda")
        b = torch.randn(C, device="cuda")
        y = torch.full_like(x, float("nan"))
        eps = 1e-5
        run = lambda: fn(R, C, ctypes.c_float(eps), ptr(x), ptr(g), ptr(b), ptr(y), stream())
        gd, bd = g.to(dtype), b.to(dtype)
        peer = lambda: F.layer_norm(x, (C,), gd, bd, eps)
        ref = lambda: F.layer_norm(x.double(), (C,), g.double(), b.double(), eps)
        check = lambda: ((y.double() - ref()).abs() / (ref().abs() + 1)).max().item()
        return run, peer, check, 2 * R * C * x.element_size() + 2 * C * 4
    return setup


def xent_bf16(R, C, fn):
    x = (torch.randn(R, C, device="cuda") * 3).bfloat16()
    t = torch.randint(0, C, (R,), device="cuda", dtype=torch.int32)
    loss = torch.full((R,), float("nan"), device="cuda")
    tl = t.long()
    run = lambda: fn(R, C, ptr(x), ptr(t), ptr(loss), stream())
    peer = lambda: F.cross_entropy(x, tl, reduction="none")
    check = lambda: (loss.double() - F.cross_entropy(x.double(), tl, reduction="none")).abs().max().item()
    return run, peer, check, R * C * 2 + R * 8


def xent_ignore_bf16(R, C, fn):
    """Cross-entropy with ignore_index written as an if/else around the row
    (test/zoo/row_xent_ignore_index_ifelse_bf16): a tenth of the targets ignored."""
    x = (torch.randn(R, C, device="cuda") * 3).bfloat16()
    t = torch.randint(0, C, (R,), device="cuda", dtype=torch.int64)
    t[torch.rand(R, device="cuda") < 0.1] = -100
    loss = torch.full((R,), float("nan"), device="cuda")
    run = lambda: fn(R, C, -100, ptr(x), ptr(t), ptr(loss), stream())
    peer = lambda: F.cross_entropy(x, t, ignore_index=-100, reduction="none")
    check = lambda: (loss.double() - F.cross_entropy(x.double(), t, ignore_index=-100, reduction="none")).abs().max().item()
    return run, peer, check, R * C * 2 + R * 12


def softmax_inplace_f16(R, C, fn):
    """x.softmax_(-1) written with the exponentials stored into x, then normalised in place
    (test/zoo/row_softmax_inplace_exp_written_fp16); checked on a first run from a copy."""
    x0 = torch.randn(R, C, device="cuda").half()
    x = x0.clone()
    run = lambda: fn(R, C, ptr(x), stream())
    peer = lambda: torch.softmax(x0, -1)
    ref = torch.softmax(x0.double(), -1)

    def check():
        x.copy_(x0)
        run()
        torch.cuda.synchronize()
        return (x.double() - ref).abs().max().item()  # absolute: most probabilities of a 32K row are fp16 subnormals
    return run, peer, check, 2 * R * C * 2


def groupnorm_f16(R, C, fn):
    """test/zoo/n08_groupnorm_nchw_rtHW_fp16: a diffusion UNet's GroupNorm, N x 320 channels
    of 64 x 64, 32 groups (each (n, g) a row of 10 * 4096 elements through a channel nest);
    R rows of groups: N = R / 32."""
    N, G, CPG, HW = max(R // 32, 1), 32, 10, 4096
    x = torch.randn(N, G * CPG, HW, device="cuda").half()
    g = torch.randn(G * CPG, device="cuda")
    b = torch.randn(G * CPG, device="cuda")
    y = torch.full_like(x, float("nan"))
    eps = 1e-5
    run = lambda: fn(N, G, CPG, HW, ctypes.c_float(eps), ptr(x), ptr(g), ptr(b), ptr(y), stream())
    peer = lambda: F.group_norm(x, G, g.half(), b.half(), eps)
    ref = lambda: F.group_norm(x.double(), G, g.double(), b.double(), eps)
    check = lambda: ((y.double() - ref()).abs() / (ref().abs() + 1)).max().item()
    return run, peer, check, 2 * x.numel() * 2 + 2 * G * CPG * 4


CASES = [
    ("safe_softmax", "safe_softmax", "softmax fp32", 32768, softmax_f32),
    ("row_safe_softmax_bf16", "softmax_bf16", "softmax bf16", 32768, softmax_bf16),
    ("row_lse_fp16", "row_logsumexp", "logsumexp fp16", 32768, lse_f16),
    ("row_rmsnorm_fp16", "rmsnorm", "rmsnorm fp16", 8192, rmsnorm_f16),
    ("xent_index", "xent_index", "cross-entropy bf16", 128256, xent_bf16),
    ("row_xent_ignore_index_ifelse_bf16", "xent_ignore", "cross-entropy bf16, ignore_index if/else", 128256, xent_ignore_bf16),
    ("row_softmax_inplace_exp_written_fp16", "softmax_inplace", "softmax fp16 in place, exp stored", 32768, softmax_inplace_f16),
    ("r04_rmsnorm_bf16", "rmsnorm", "rmsnorm bf16 (1 pass)", 4096, rmsnorm_bf16_4096),
    ("row_layernorm_sumsq", "layernorm", "layernorm fp32 sumsq", 8192, layernorm(torch.float32)),
    ("row_layernorm_twopass_auto_bf16", "layernorm", "layernorm bf16 2-pass", 8192, layernorm(torch.bfloat16)),
    ("n08_groupnorm_nchw_rtHW_fp16", "groupnorm", "groupnorm fp16 NCHW", 40960, groupnorm_f16),
]

# --short: rows shorter than a CTA's step (a class count, a MoE router's experts, a small
# hidden size), where a wave a row (4 rows a CTA) replaces a CTA a row.
SHORT = [(name, fname, f"{label} C={C}", C, setup) for C in (8, 21, 64, 100, 256, 1000, 2000)
         for name, fname, label, setup in (("safe_softmax", "safe_softmax", "softmax fp32", softmax_f32),
                                           ("row_safe_softmax_bf16", "softmax_bf16", "softmax bf16", softmax_bf16),
                                           ("row_lse_fp16", "row_logsumexp", "logsumexp fp16", lse_f16))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--json")
    ap.add_argument("--dir", default="build/gpu", help="where the .cu files are (relative to the repository)")
    ap.add_argument("--short", action="store_true", help="the short-row sweep (SHORT) instead of CASES")
    args = ap.parse_args()
    torch.manual_seed(0)
    libdir = tempfile.mkdtemp(prefix="fusecc-rows-")
    peak = copy_peak()
    print(f"# {torch.cuda.get_device_name()}, copy peak {peak:.0f} GB/s", flush=True)
    rows = []
    built = {}
    for name, fname, label, C, setup in SHORT if args.short else CASES:
        R = args.rows
        try:
            if name not in built:
                built[name] = build(name, fname, args.arch, libdir, args.dir)
            fn = built[name]
        except Exception as e:  # noqa: BLE001 - reported per case
            print(f"# {name}: {e}", flush=True)
            continue
        run, peer, check, nbytes = setup(R, C, fn)
        run()
        torch.cuda.synchronize()
        err = check()
        ok = err == err and err < 2e-2
        ms = timed(run) if ok else float("nan")
        pms = timed(peer)
        rows.append(dict(case=label, kernel=name, R=R, C=C, err=err, ok=ok, ms=ms, torch_ms=pms,
                         gbs=nbytes / ms / 1e6, torch_gbs=nbytes / pms / 1e6, peak_gbs=peak))
        print(f"# {label}: err {err:.2e} fusecc {ms:.3f} ms torch {pms:.3f} ms", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), rows=rows), f, indent=1)
    print(f"{'case':22s} {'R x C':>14s} {'fusecc GB/s':>12s} {'% peak':>7s} {'torch GB/s':>11s} {'vs torch':>9s}  check")
    for r in rows:
        print(f"{r['case']:22s} {r['R']:>6d} x {r['C']:<6d} {r['gbs']:12.0f} {100 * r['gbs'] / peak:6.0f}% {r['torch_gbs']:11.0f} "
              f"{r['torch_ms'] / r['ms']:8.2f}x  {'ok' if r['ok'] else 'FAIL'} ({r['err']:.1e})")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
