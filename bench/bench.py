#!/usr/bin/env python3
"""bench.py: the ten Neptune attention operators (DESIGN.md section 5), fusecc next to PyTorch.

Run on the GPU machine, from anywhere, after `make gpu-prep` on the development machine wrote
build/gpu/<op>.cu:

    python3 bench/bench.py                          # every operator, the full sweep
    python3 bench/bench.py --quick                  # N 1024,4096,16384; batch 1,8
    python3 bench/bench.py --ops causal_pf,gqa_dc --seqs 1024,2048 --batches 1,16

Operators (fusecc source samples/<op>.c; fp16 in, fp32 accumulate, D = 128, scale = 1/sqrt(128)):
    global_pf causal_pf gqa_pf alibi_pf softcap_pf window_pf      prefill, Lq = Lkv = N
    causal_dc gqa_dc alibi_dc softcap_dc                          decode, one query row, KV length L

Sizes: first B = 1 over --seqs (N for prefill, L for decode), then --batches at N = L = --batch-seq;
the sizes are visited in that order, every operator at each size, so a --max-seconds budget cuts
the large sizes of every operator rather than whole operators.

For each operator and size:
  1. fusecc: build/gpu/<op>.cu is built once into a shared library (nvcc -shared -Iinclude,
     -arch=$ARCH, default sm_90a; all operators in parallel at start) and its launcher
     `<op>_launch(<the sample's parameters, arrays as device pointers>, cudaStream_t)` is called
     through ctypes on PyTorch's tensors and current stream. The launcher's parameter list is
     checked against the table OPS below. An operator without a .cu is skipped (its peers too,
     unless --peers-for-missing).
  2. Correctness before timing: the output is poisoned with NaN, the kernel runs once, and the
     result is compared to a float64 PyTorch reference written from the sample's loops (mask, bias,
     softcap, GQA by repeat of K/V heads). Large sizes are checked on a subset: batches 0 and B-1,
     query heads 0, 1 and Hq-1, all rows up to 2048 and otherwise the first and last 256 rows, 512
     spread rows and the rows at the window edge. The whole output must be finite. Max abs error
     > --atol or relative Frobenius error > --rtol marks the row FAIL and skips fusecc's timing.
     Every peer is checked against the same reference (a failing peer is not timed).
     q is drawn as N(0,1) * --qstd (default 4, scores with std 4): with N(0,1) scores the softcap
     50*tanh(s/50) differs from s by 1e-4 and a kernel without it would pass.
  3. Peers, same process, same inputs (views of the same memory, head h of Hq reads KV head h // G):
     SDPA with the FLASH and CUDNN backends where they apply (global/causal/GQA prefill, causal and
     GQA decode; enable_gqa=True, or K/V repeated to Hq heads if a backend refuses it: the row's
     note says so) and FlexAttention, torch.compile(flex_attention), with score_mod (ALiBi,
     softcap), block_mask (causal, window) and enable_gqa. Decode peers see a query of length 1.
  4. Timing: triton.testing.do_bench(return_mode="median"), the inputs (and fusecc's outputs)
     rotated through copies totalling >= 256 MiB, fusecc and peers alike. A fusecc call slower
     than 100 ms is timed over 3 calls instead, and one slower than --max-call-seconds ends that
     operator's sweep (the fallback lowering would take minutes at large N).
Metrics: prefill TFLOP/s, FLOPs = 4*B*Hq*Lq*Lkv*D, half for causal; window counts its keys,
sum_i min(i+1, W). Decode GB/s of K and V read, 2*B*HKV*L*D*2 bytes. Ratio = fusecc / peer (> 1:
fusecc is faster).

Output: one JSON line per (op, size) on stdout as it goes (other lines start with '# '), all rows
rewritten to --json after each row (default $OUT/bench.json, else /tmp/bench.json) with the GPU,
versions and date, then a table and the geomean ratio per peer. Sizes needing more than --max-gb
of GPU memory are skipped, as are those left when --max-seconds runs out; both are listed.
Small decode sizes are bound by CPU launch overhead (~10-30 us per call) for every implementation.
"""
import argparse
import contextlib
import ctypes
import dataclasses
import datetime
import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import torch
import torch._dynamo
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
D = 128
SCALE = ctypes.c_float(D ** -0.5).value  # the float32 value the launcher receives
ROTATE_BYTES = 256 << 20                  # inputs rotated through copies of at least this total
FULL_ROWS = 2048                          # up to this many query rows, check them all
REF_CHUNK = 1024                          # reference rows per float64 block
PEERS = ("FLASH", "CUDNN", "EFFICIENT", "Flex")


@dataclasses.dataclass(frozen=True)
class Op:
    name: str
    decode: bool
    hq: int                 # query heads
    hkv: int                # KV heads (G = hq / hkv query heads per KV head)
    params: tuple           # the C parameter list of samples/<name>.c, stream excluded
    causal: bool = False    # decode: the query sits at L - 1 and the mask hides nothing
    window: int = 0         # keys i - W < j <= i
    softcap: float = 0.0    # s = cap * tanh(s / cap)
    alibi: bool = False     # s += slope[h] * (j - i)
    src: str = ""           # the input's path without .c (samples/<name> when empty)
    fn: str = ""            # its C function (name when empty)
    dtype: str = "float16"  # q, k, v and o (float32: fp32 inputs, FLASH/CUDNN do not apply)

    @property
    def file(self):
        return os.path.basename(self.src) if self.src else self.name

    @property
    def cfn(self):
        return self.fn or self.name


_MHA = ("B", "H", "N", "scale", "q", "k", "v", "o")
_GQA = ("B", "HKV", "G", "N", "scale", "q", "k", "v", "o")
OPS = [
    Op("global_pf", False, 32, 32, _MHA),
    Op("causal_pf", False, 32, 32, _MHA, causal=True),
    Op("gqa_pf", False, 64, 8, _GQA, causal=True),
    Op("alibi_pf", False, 32, 32, ("B", "H", "N", "scale", "slope", "q", "k", "v", "o"), causal=True, alibi=True),
    Op("softcap_pf", False, 32, 16, _GQA, causal=True, softcap=50.0),
    Op("window_pf", False, 32, 8, ("B", "HKV", "G", "N", "W", "scale", "q", "k", "v", "o"),
       causal=True, window=4096, softcap=50.0),
    Op("causal_dc", True, 32, 32, ("B", "H", "L", "scale", "q", "k", "v", "o")),
    Op("gqa_dc", True, 64, 8, ("B", "HKV", "G", "L", "scale", "q", "k", "v", "o")),
    Op("alibi_dc", True, 32, 32, ("B", "H", "L", "scale", "slope", "q", "k", "v", "o"), alibi=True),
    Op("softcap_dc", True, 32, 16, ("B", "HKV", "G", "L", "scale", "q", "k", "v", "o"), softcap=50.0),
    # Natural forms next to their sample: test/fuse/rtd_causal.c is causal_pf with a
    # run-time head dim and the scale computed before the region (kernels specialised by D).
    Op("rtd_causal", False, 32, 32, ("B", "H", "N", "D", "q", "k", "v", "o"), causal=True),
    # Natural-input corpus (test/zoo) next to their samples: q scaled before the dot
    # product through a local copy (global_pf), ALiBi from a slope array with a helper
    # local in P.V (alibi_pf), a sliding window with a clamped start (window_pf, no cap).
    Op("zoo_prescaled_q", False, 32, 32, ("B", "H", "N", "D", "q", "k", "v", "o"), src="test/zoo/pf_prescaled_q_rtD", fn="attn_prescaled"),
    Op("zoo_alibi_slopearr", False, 32, 32, ("B", "H", "N", "D", "scale", "slope", "q", "k", "v", "o"), causal=True, alibi=True,
       src="test/zoo/pf_alibi_slopearr_rtD", fn="alibi_prefill"),
    Op("zoo_window_clamp", False, 32, 32, ("B", "H", "N", "D", "W", "scale", "q", "k", "v", "o"), causal=True, window=4096,
       src="test/zoo/pf_window_clamp_rtD", fn="swa_prefill"),
    # fp32 storage (three tf32 products per fp32 product) next to global_pf / causal_pf /
    # causal_dc in fp16; their peer is SDPA's EFFICIENT kernel, the one that takes fp32.
    Op("zoo_global_fp32", False, 32, 32, ("B", "H", "N", "D", "scale", "q", "k", "v", "out"), src="test/zoo/pf_global_rtD_scale_param",
       fn="sdpa_global", dtype="float32"),
    Op("zoo_causal_fp32", False, 32, 32, ("B", "H", "N", "D", "scale", "q", "k", "v", "o"), causal=True, src="test/zoo/pf_causal_scale_in_exp_rtD",
       fn="causal_scale_in_exp", dtype="float32"),
    # fp32 with precision(tf32): one tf32 product per fp32 product (opt-in, fp16-like accuracy).
    Op("zoo_global_tf32", False, 32, 32, ("B", "H", "N", "D", "q", "k", "v", "o"), src="test/zoo/pf_global_tf32_optin_rtD",
       fn="attn_tf32", dtype="float32"),
    Op("zoo_causal_tf32", False, 32, 32, ("B", "H", "N", "scale", "q", "k", "v", "o"), causal=True, src="test/zoo/pf_causal_tf32_optin_d128",
       fn="causal_tf32", dtype="float32"),
    Op("zoo_decode_fp32", True, 32, 32, ("B", "H", "L", "D", "scale", "q", "k", "v", "o"), src="test/zoo/dc_pbuf_inv_rtD_fp32",
       fn="decode_fp32", dtype="float32"),
    # The second corpus batch: a max written as a branch and double exp() (global_pf), the
    # score recomputed inside P.V's d loop (window_pf without the cap), MQA decode with no
    # strategy clause (causal_dc), run-time D with the scale a parameter (global_pf).
    Op("zoo_p12_ifmax_dblexp", False, 32, 32, ("B", "H", "N", "D", "q", "k", "v", "o"), src="test/zoo/p12_double_exp_fltmax_fp16", fn="attn_np"),
    Op("zoo_p09_window_recompute", False, 32, 32, ("B", "H", "N", "W", "scale", "q", "k", "v", "o"), causal=True, window=4096,
       src="test/zoo/p09_sliding_window_clamp_fp16", fn="swa_attn"),
    Op("zoo_d04_mqa", True, 32, 1, ("B", "H", "L", "q", "k", "v", "o"), src="test/zoo/d04_decode_mqa_nostrategy_fp16", fn="mqa_decode"),
    Op("zoo_p01_mha", False, 32, 32, ("B", "H", "N", "D", "scale", "q", "k", "v", "o"), src="test/zoo/p01_mha_fp16_rtD", fn="mha_fwd"),
    # Flat pointers with pointer row locals (causal_pf), flattened 1-D fp32 tensors with
    # offset locals (zoo_global_fp32): the subscripts read as dims by the front end.
    Op("zoo_f02_ptr_causal", False, 32, 32, ("B", "H", "N", "q", "k", "v", "o"), causal=True, src="test/zoo/f02_ptr_rowlocals_causal_fp16",
       fn="causal_attention"),
    Op("zoo_f08_flat1d_fp32", False, 32, 32, ("B", "H", "N", "D", "scale", "q", "k", "v", "o"), src="test/zoo/f08_flat1d_offsets_fp32",
       fn="attn_flat", dtype="float32"),
    # Causal written as ifs around each pass's statements, over the full key range (causal_pf).
    Op("zoo_g02_ifguard", False, 32, 32, ("B", "H", "N", "scale", "q", "k", "v", "o"), causal=True, src="test/zoo/g02_causal_ifguard_each_pass_fp16",
       fn="attn_ifguard"),
    Op("zoo_g03_ifblock", False, 32, 32, ("B", "H", "N", "D", "scale", "q", "k", "v", "o"), causal=True, src="test/zoo/g03_causal_ifblock_jouter_rtD_fp16",
       fn="attn_ifblock"),
    # Scores accumulated in s[j] (global_pf); the score buffer declared per batch (causal_pf).
    Op("zoo_y01_dot_into_s", False, 32, 32, ("B", "H", "N", "D", "scale", "q", "k", "v", "o"), src="test/zoo/y01_dot_into_s_scale_stmt_fp16_rtD",
       fn="attn_dot_into_s"),
    # Online softmax written by hand (undone into the max's and the sums' loops, then fused
    # again): a causal prefill next to causal_pf.
    Op("zoo_online_ptr", False, 32, 32, ("B", "H", "N", "D", "sm_scale", "q", "k", "v", "o"), causal=True,
       src="test/zoo/pf_online_handwritten_ptr_causal_rtD_fp16", fn="fa_fwd"),
    # ... in base 2 with l_new (global_pf); softcap through helper functions (softcap_pf's math, MHA).
    Op("zoo_online_exp2", False, 32, 32, _MHA, src="test/zoo/pf_online_exp2_lnew_d128_fp16", fn="attn_online_exp2"),
    Op("zoo_softcap_helpers", False, 32, 32, _MHA, causal=True, softcap=50.0,
       src="test/zoo/pf_softcap_helper_functions_causal_fp16", fn="attn_helpers"),
    Op("zoo_y08_scratch_per_batch", False, 32, 32, ("B", "H", "N", "D", "scale", "q", "k", "v", "o"), causal=True,
       src="test/zoo/y08_scratch_per_batch_dot_into_s_fp16_rtD", fn="causal_scratch_per_batch"),
    # A dot-product helper with a loop and array parameters, inlined before its statement
    # (global_pf's math, the scores in s[N]).
    Op("zoo_helper_dot128", False, 32, 32, _MHA, src="test/zoo/pf_helper_dot128_rowargs_fp16", fn="attn_helper"),
]
INT_PARAMS = {"B", "H", "HKV", "G", "N", "L", "W", "D"}
PTR_PARAMS = {"slope", "q", "k", "v", "o", "out"}
ALIASES = {"out": "o"}  # the inputs' names for the output, as the Copy calls it


def say(msg):
    print(f"# {msg}", flush=True)


# ---------------------------------------------------------------------------------------------
# fusecc kernels


def launcher_params(cu, name):
    """[(type, name)] of `extern "C" cudaError_t <name>_launch(...)` in the generated file."""
    with open(cu) as f:
        m = re.search(r'extern\s+"C"\s+cudaError_t\s+' + name + r'_launch\s*\(([^)]*)\)', f.read())
    if not m:
        raise RuntimeError(f"{cu}: no {name}_launch")
    out = []
    for p in m.group(1).split(","):
        ty, nm = re.match(r"\s*(.*?)\s*\**\s*(\w+)\s*$", p).groups()
        out.append(("ptr" if "*" in p else ty, nm))
    return out


def build(op, libdir, arch):
    """ctypes function for op's launcher, or raise with nvcc's complaint."""
    cu = os.path.join(ROOT, "build", "gpu", f"{op.file}.cu")
    got = launcher_params(cu, op.cfn)
    want = [("int" if p in INT_PARAMS else "ptr" if p in PTR_PARAMS else "float", p) for p in op.params]
    want.append(("cudaStream_t", "stream"))
    if got != want:
        raise RuntimeError(f"{op.cfn}_launch parameters {got} differ from bench.py's {want}")
    so = os.path.join(libdir, f"lib{op.name}.so")
    r = subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-O3", f"-arch={arch}", "-Iinclude", "-w",
                        cu, "-o", so], cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("nvcc failed:\n" + (r.stdout + r.stderr)[-3000:])
    fn = getattr(ctypes.CDLL(so), f"{op.cfn}_launch")
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_int if ty == "int" else ctypes.c_float if ty == "float" else ctypes.c_void_p
                   for ty, _ in want]
    return fn


def build_all(ops, arch):
    """{op name: launcher or exception}; operators without a .cu are left out."""
    libdir = tempfile.mkdtemp(prefix="fusecc-bench-")
    todo = [op for op in ops if os.path.exists(os.path.join(ROOT, "build", "gpu", f"{op.file}.cu"))]

    def one(op):
        try:
            return build(op, libdir, arch)
        except Exception as e:  # noqa: BLE001 - reported per operator
            return e
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        return dict(zip((op.name for op in todo), pool.map(one, todo)))


# ---------------------------------------------------------------------------------------------
# Inputs, reference, checks


@dataclasses.dataclass
class Copy:
    q: torch.Tensor  # (B, Hq, Lq, D): the memory of q[B][HKV][G][N][D] / q[B][H][D]
    k: torch.Tensor  # (B, Hkv, Lkv, D)
    v: torch.Tensor
    o: torch.Tensor  # fusecc's output, q's shape


def esize(op):
    return 4 if op.dtype == "float32" else 2


def copy_bytes(op, B, lq, lkv):
    return esize(op) * (2 * B * op.hq * lq * D + 2 * B * op.hkv * lkv * D)


def make_copy(op, B, lq, lkv, qstd):
    dt = getattr(torch, op.dtype)

    def rnd(h, n):
        return torch.randn(B, h, n, D, device="cuda", dtype=dt)
    return Copy(rnd(op.hq, lq).mul_(qstd), rnd(op.hkv, lkv), rnd(op.hkv, lkv),
                torch.empty(B, op.hq, lq, D, device="cuda", dtype=dt))


def alibi_slopes(h):
    return torch.tensor([2.0 ** (-8.0 * (i + 1) / h) for i in range(h)], device="cuda", dtype=torch.float32)


def check_rows(op, lq):
    if lq <= FULL_ROWS:
        return torch.arange(lq, device="cuda")
    parts = [torch.arange(256), torch.arange(lq - 256, lq), torch.linspace(0, lq - 1, 512).round().long()]
    if op.window and op.window + 1 < lq:
        parts.append(torch.arange(op.window - 2, op.window + 2))
    return torch.unique(torch.cat(parts)).cuda()


def reference(op, x, B, lq, lkv, slope):
    """[(b, h, rows, float64 output)] on the checked subset, the math of samples/<op>.c."""
    g = op.hq // op.hkv
    j = torch.arange(lkv, device="cuda", dtype=torch.float64)[None, :]
    slopes = slope.double().tolist() if slope is not None else None
    refs = []
    for b, h in sorted({(b, h) for b in (0, B - 1) for h in (0, 1, op.hq - 1)}):
        k, v = x.k[b, h // g].double(), x.v[b, h // g].double()
        for rows in check_rows(op, lq).split(REF_CHUNK):
            i = (rows + (lkv - lq)).double()[:, None]  # position of the query row (decode: L - 1)
            s = (x.q[b, h, rows].double() @ k.T) * SCALE
            if op.softcap:
                s = op.softcap * torch.tanh(s / op.softcap)
            if op.alibi:
                s = s + slopes[h] * (j - i)
            if op.causal:
                s = s.masked_fill(j > i, -math.inf)
            if op.window:
                s = s.masked_fill(j <= i - op.window, -math.inf)
            refs.append((b, h, rows, torch.softmax(s, dim=-1) @ v))
    return refs


def compare(out, refs, atol, rtol):
    """Check out (B, Hq, Lq, D) against the reference: dict with status ok/FAIL and errors."""
    nonfinite = int((~torch.isfinite(out)).sum())
    errs, num, den = [], 0.0, 0.0
    for b, h, rows, ref in refs:
        d = out[b, h, rows].double() - ref
        errs.append(d.abs().max())
        num += float(d.square().sum())
        den += float(ref.square().sum())
    max_abs = float(torch.stack(errs).max())
    rel = math.sqrt(num / den) if den > 0 else float("nan")
    ok = nonfinite == 0 and max_abs <= atol and rel <= rtol  # NaN compares false: fails
    res = {"status": "ok" if ok else "FAIL", "max_abs_err": max_abs, "rel_fro_err": rel}
    if nonfinite:
        res["nonfinite"] = nonfinite
    return res


# ---------------------------------------------------------------------------------------------
# Timing


def metric(op, B, lq, lkv, ms):
    """(value, unit) for a call of ms milliseconds."""
    if op.decode:
        return 2 * B * op.hkv * lkv * D * esize(op) / (ms * 1e-3) / 1e9, "GB/s"
    if op.window:
        w = op.window
        keys = lq * (lq + 1) // 2 if lq <= w else w * (w + 1) // 2 + (lq - w) * w
        flops = 4 * B * op.hq * D * keys
    else:
        flops = 4 * B * op.hq * lq * lkv * D / (2 if op.causal else 1)
    return flops / (ms * 1e-3) / 1e12, "TFLOP/s"


def time_calls(call, ncopies, warmup, rep):
    """Median ms of call(copy index), rotating through the copies."""
    from triton.testing import do_bench
    it = itertools.cycle(range(ncopies))
    return do_bench(lambda: call(next(it)), warmup=warmup, rep=rep, return_mode="median")


def time_few(call, ncopies, n=3):
    """Median ms of n calls timed one by one with events (for calls too slow for do_bench)."""
    ms = []
    for c in range(n):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        call(c % ncopies)
        b.record()
        b.synchronize()
        ms.append(a.elapsed_time(b))
    return sorted(ms)[n // 2]


# ---------------------------------------------------------------------------------------------
# Peers: each returns [(note, thunk)], alternatives in order of preference; a thunk builds the
# call(copy index) -> output (B, Hq, Lq, D) outside the timed region.


class Flex:
    """torch.compile(flex_attention), one score_mod and mask_mod per operator."""

    def __init__(self, static):
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
        for key, val in (("cache_size_limit", 1024), ("recompile_limit", 1024),
                         ("accumulated_cache_size_limit", 8192), ("accumulated_recompile_limit", 8192)):
            with contextlib.suppress(Exception):
                if hasattr(torch._dynamo.config, key):
                    setattr(torch._dynamo.config, key, val)
        self.fn = torch.compile(flex_attention, dynamic=False if static else None)
        self.create_block_mask = create_block_mask
        self.mods = {}

    def mods_for(self, op, slope):
        """(score_mod, mask_mod, offset tensor); made once per operator to avoid recompiles."""
        if op.name not in self.mods:
            off = torch.zeros(1, device="cuda", dtype=torch.int32)  # position of query row 0
            score_mod = mask_mod = None
            if op.alibi:
                def score_mod(score, b, h, qi, ki):
                    return score + slope[h] * (ki - qi - off[0])
            elif op.softcap:
                cap = op.softcap

                def score_mod(score, b, h, qi, ki):
                    return cap * torch.tanh(score / cap)
            if op.window:
                w = op.window

                def mask_mod(b, h, qi, ki):
                    return (qi >= ki) & (qi - ki < w)
            elif op.causal:
                def mask_mod(b, h, qi, ki):
                    return qi >= ki
            self.mods[op.name] = (score_mod, mask_mod, off)
        return self.mods[op.name]

    def block_mask(self, mask_mod, lq, lkv):
        try:
            return self.create_block_mask(mask_mod, None, None, lq, lkv, device="cuda", _compile=True)
        except TypeError:
            return self.create_block_mask(mask_mod, None, None, lq, lkv, device="cuda")

    def peer(self, op, copies, lq, lkv, slope):
        def thunk():
            score_mod, mask_mod, off = self.mods_for(op, slope)
            off.fill_(lkv - lq)
            bm = self.block_mask(mask_mod, lq, lkv) if mask_mod else None
            kw = dict(score_mod=score_mod, block_mask=bm, scale=SCALE, enable_gqa=op.hq != op.hkv)
            return lambda c: self.fn(copies[c].q, copies[c].k, copies[c].v, **kw)
        return [("", thunk)]


def sdpa_peer(op, copies):
    g = op.hq // op.hkv
    kw = dict(is_causal=op.causal, scale=SCALE)

    def native():
        extra = dict(enable_gqa=True) if g > 1 else {}
        return lambda c: F.scaled_dot_product_attention(copies[c].q, copies[c].k, copies[c].v, **kw, **extra)

    def repeated():
        kv = [(x.k.repeat_interleave(g, 1), x.v.repeat_interleave(g, 1)) for x in copies]
        return lambda c: F.scaled_dot_product_attention(copies[c].q, *kv[c], **kw)
    alts = [("", native)]
    if g > 1:
        alts.append((f"K/V repeated to {op.hq} heads (enable_gqa refused)", repeated))
    return alts


def peers_for(op, names, flex):
    """{peer name: (context factory, alternatives factory(copies, lq, lkv, slope))}."""
    out = {}
    plain = not (op.alibi or op.softcap or op.window)  # SDPA: no mask or plain causal only
    # FLASH/CUDNN take 16-bit inputs only; EFFICIENT (memory-efficient attention) is
    # SDPA's kernel for fp32, so it is the peer there.
    backends = ((("FLASH", SDPBackend.FLASH_ATTENTION), ("CUDNN", SDPBackend.CUDNN_ATTENTION)) if op.dtype != "float32"
                else (("EFFICIENT", SDPBackend.EFFICIENT_ATTENTION),))
    for name, backend in backends:
        if name in names and plain:
            out[name] = (lambda backend=backend: sdpa_kernel([backend]),
                         lambda copies, lq, lkv, slope: sdpa_peer(op, copies))
    if "Flex" in names and flex is not None:
        out["Flex"] = (contextlib.nullcontext,
                       lambda copies, lq, lkv, slope: flex.peer(op, copies, lq, lkv, slope))
    return out


# ---------------------------------------------------------------------------------------------
# One (operator, size)


def run_fusecc(op, fn, copies, B, n, slope, refs, args):
    lq, lkv = (1, n) if op.decode else (n, n)
    vals = {"B": B, "H": op.hq, "HKV": op.hkv, "G": op.hq // op.hkv, "N": n, "L": n, "W": op.window, "D": D,
            "scale": SCALE, "sm_scale": SCALE, "slope": slope.data_ptr() if slope is not None else None}
    stream = torch.cuda.current_stream().cuda_stream
    cargs = [[vals[p] if p in vals else getattr(x, ALIASES.get(p, p)).data_ptr() for p in op.params] + [stream] for x in copies]

    def call(c):
        err = fn(*cargs[c])
        if err:
            raise RuntimeError(f"{op.name}_launch returned cudaError {err}")
    copies[0].o.fill_(float("nan"))
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    call(0)
    b.record()
    torch.cuda.synchronize()
    first_ms = a.elapsed_time(b)
    res = compare(copies[0].o, refs, args.atol, args.rtol)
    res["first_call_ms"] = first_ms
    if res["status"] != "ok":
        return res
    if first_ms > 100:
        ms = time_few(call, len(copies))
        res["note"] = "slow: median of 3 calls, not do_bench"
    else:
        ms = time_calls(call, len(copies), args.warmup, args.rep)
    res["ms"] = ms
    res["value"] = metric(op, B, lq, lkv, ms)[0]
    return res


def run_peer(op, ctx, alts, copies, B, lq, lkv, refs, args):
    res = {}
    with ctx():
        errors = []
        for note, thunk in alts:
            try:
                call = thunk()
                out = call(0)
                torch.cuda.synchronize()
                break
            except RuntimeError as e:  # e.g. "No available kernel": try the next alternative
                errors.append(str(e).splitlines()[0][:300])
        else:
            cuda_alive()  # a kernel fault is not a refusal: stop everything
            return {"status": "error", "error": " | ".join(errors)}
        if note:
            res["note"] = note
        res.update(compare(out, refs, args.atol, args.rtol))  # (B, Hq, Lq, D), any strides
        del out
        if res["status"] != "ok":
            return res
        ms = time_calls(call, len(copies), args.warmup, args.rep)
    res["ms"] = ms
    res["value"] = metric(op, B, lq, lkv, ms)[0]
    return res


def row_head(op, B, n):
    lq, lkv = (1, n) if op.decode else (n, n)
    return {"op": op.name, "mode": "decode" if op.decode else "prefill", "B": B, "Hq": op.hq, "Hkv": op.hkv,
            "Lq": lq, "Lkv": lkv, "unit": metric(op, B, lq, lkv, 1.0)[1]}


def run_point(op, fn, peers, B, n, args, slope):
    row = row_head(op, B, n)
    lq, lkv = row["Lq"], row["Lkv"]
    ncopies = max(1, math.ceil(ROTATE_BYTES / copy_bytes(op, B, lq, lkv)))
    row["copies"] = ncopies
    copies = [make_copy(op, B, lq, lkv, args.qstd) for _ in range(ncopies)]
    refs = reference(op, copies[0], B, lq, lkv, slope)
    if fn is not None:
        try:
            row["fusecc"] = run_fusecc(op, fn, copies, B, n, slope, refs, args)
        except Exception as e:  # noqa: BLE001 - the row records it; peers still run
            row["fusecc"] = {"status": "error", "error": f"{type(e).__name__}: {e}"[:500]}
            cuda_alive()
    row["peers"] = {}
    for name, (ctx, make) in peers.items():
        try:
            row["peers"][name] = run_peer(op, ctx, make(copies, lq, lkv, slope), copies, B, lq, lkv, refs, args)
        except Exception as e:  # noqa: BLE001
            row["peers"][name] = {"status": "error", "error": f"{type(e).__name__}: {e}"[:500]}
            cuda_alive()
    row["status"] = row.get("fusecc", {}).get("status", "missing")
    return row


def footprint(op, B, n, has_sdpa):
    """Bytes of GPU memory one (op, size) needs, roughly."""
    lq, lkv = (1, n) if op.decode else (n, n)
    per = copy_bytes(op, B, lq, lkv)
    ncopies = max(1, math.ceil(ROTATE_BYTES / per))
    total = ncopies * per + 2 * (2 * B * op.hq * lq * D)  # copies, peer outputs
    if has_sdpa and op.hq != op.hkv:                          # K/V repeated if enable_gqa is refused
        total += ncopies * 2 * 2 * B * op.hq * lkv * D
    return total + 8 * REF_CHUNK * lkv * 4 + (B * op.hq * lq * D)  # reference blocks, isfinite


class CudaLost(Exception):
    pass


def cuda_alive():
    """Raise CudaLost if the context is broken (a kernel fault is sticky: nothing more can run)."""
    try:
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001
        raise CudaLost(str(e)) from e


# ---------------------------------------------------------------------------------------------
# Report


def fmt(x, width=8, prec=2):
    return f"{x:{width}.{prec}f}" if isinstance(x, (int, float)) and x == x else f"{'-':>{width}}"


def print_table(rows, peers):
    say("")
    head = f"{'op':<11} {'B':>3} {'N/L':>6} {'unit':<7} {'fusecc':>8} " + " ".join(f"{p:>8} {'x' + p:>7}" for p in peers)
    print(head)
    ratios = {p: [] for p in peers}
    order = {op.name: i for i, op in enumerate(OPS)}
    for r in sorted(rows, key=lambda r: order[r["op"]]):  # stable: each operator's sizes in run order
        f = r.get("fusecc", {})
        ours = f.get("value")
        cell = fmt(ours) if ours is not None else f"{f.get('status', r.get('status', 'missing')):>8}"
        cells = []
        for p in peers:
            val = r["peers"].get(p, {}).get("value")
            ratio = ours / val if ours and val else None
            if ratio:
                ratios[p].append(ratio)
            cells.append(f"{fmt(val)} {fmt(ratio, 7, 3)}")
        print(f"{r['op']:<11} {r['B']:>3} {r['Lkv']:>6} {r['unit']:<7} {cell} " + " ".join(cells))
    print("TFLOP/s (prefill) or GB/s of K and V (decode); x = fusecc / peer, > 1 means fusecc is faster")
    for p, rs in ratios.items():
        if rs:
            print(f"geomean fusecc/{p}: {math.exp(sum(map(math.log, rs)) / len(rs)):.3f} over {len(rs)} rows")
    sys.stdout.flush()


def meta(args):
    import triton
    m = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
         "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
         "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
         "arch": args.arch, "args": vars(args)}
    for key, cmd in (("nvcc", ["nvcc", "--version"]), ("commit", ["git", "-C", ROOT, "rev-parse", "HEAD"])):
        with contextlib.suppress(Exception):
            m[key] = subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    # The commit `make gpu-prep` generated the kernels from: the copy on the GPU machine may
    # carry a stale .git.
    with contextlib.suppress(OSError):
        with open(os.path.join(ROOT, "build", "gpu", "COMMIT")) as f:
            m["commit"] = " ".join(f.read().split())
    return m


def write_json(path, doc):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, path)


def compact(row):
    """The row with floats rounded, for the one-line print."""
    def r(x):
        if isinstance(x, float):
            return float(f"{x:.4g}")
        if isinstance(x, dict):
            return {k: r(v) for k, v in x.items()}
        return x
    return json.dumps(r(row))


# ---------------------------------------------------------------------------------------------


def ints(s):
    return [int(x) for x in s.split(",") if x]


def parse_args():
    names = [op.name for op in OPS]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--ops", default=",".join(names), help="comma-separated subset of: " + " ".join(names))
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated subset of: " + " ".join(PEERS))
    ap.add_argument("--seqs", type=ints, help="N (prefill) / L (decode) at B = 1 [512,...,32768]")
    ap.add_argument("--batches", type=ints, help="B of the batch sweep [1,4,16,32]")
    ap.add_argument("--batch-seq", type=int, default=8192, help="N / L of the batch sweep [8192]")
    ap.add_argument("--quick", action="store_true", help="--seqs 1024,4096,16384 --batches 1,8 (unless given)")
    ap.add_argument("--window", type=int, default=4096, help="W of window_pf [4096]")
    ap.add_argument("--qstd", type=float, default=4.0, help="q ~ N(0,1) * qstd [4]")
    ap.add_argument("--atol", type=float, default=2e-2, help="max abs error allowed [2e-2]")
    ap.add_argument("--rtol", type=float, default=1e-2, help="relative Frobenius error allowed [1e-2]")
    ap.add_argument("--warmup", type=int, default=25, help="do_bench warmup, ms [25]")
    ap.add_argument("--rep", type=int, default=100, help="do_bench repetitions, ms [100]")
    ap.add_argument("--max-seconds", type=float, default=500,
                    help="after this many seconds from start, remaining sizes are skipped; 0: no limit [500]")
    ap.add_argument("--max-call-seconds", type=float, default=2.0,
                    help="a fusecc call slower than this ends its operator's sweep [2]")
    ap.add_argument("--max-gb", type=float, default=40, help="skip sizes needing more GPU memory [40]")
    ap.add_argument("--flex-static", action="store_true",
                    help="torch.compile(flex_attention, dynamic=False): one compile per shape (slow to sweep)")
    ap.add_argument("--peers-for-missing", action="store_true",
                    help="run the peers of operators whose build/gpu/<op>.cu is missing")
    ap.add_argument("--arch", default=os.environ.get("ARCH", "sm_90a"), help="nvcc -arch [$ARCH or sm_90a]")
    ap.add_argument("--json", default=os.path.join(os.environ.get("OUT", "/tmp"), "bench.json"))
    args = ap.parse_args()
    if args.seqs is None:
        args.seqs = [1024, 4096, 16384] if args.quick else [512, 1024, 2048, 4096, 8192, 16384, 32768]
    if args.batches is None:
        args.batches = [1, 8] if args.quick else [1, 4, 16, 32]
    args.ops = args.ops.split(",")
    args.peers = args.peers.split(",")
    for bad, known in ((set(args.ops) - set(names), "operator"), (set(args.peers) - set(PEERS), "peer")):
        if bad:
            ap.error(f"unknown {known}: {', '.join(sorted(bad))}")
    return args


def main():
    args = parse_args()
    t0 = time.monotonic()
    ops = [dataclasses.replace(op, window=args.window) if op.window else op for op in OPS if op.name in args.ops]
    torch.manual_seed(0)
    doc = {"meta": meta(args), "rows": [], "skipped": []}
    say(f"{doc['meta']['gpu']}, torch {torch.__version__}, triton {doc['meta']['triton']}, arch {args.arch}")

    libs = build_all(ops, args.arch)
    say(f"built in {time.monotonic() - t0:.0f} s")
    flex = None
    if "Flex" in args.peers:
        try:
            flex = Flex(args.flex_static)
        except Exception as e:  # noqa: BLE001
            say(f"FlexAttention unavailable: {e}")
    active = []
    for op in ops:
        lib = libs.get(op.name)
        if isinstance(lib, Exception):
            say(f"{op.name}: build failed: {lib}")
            doc["skipped"].append({"op": op.name, "reason": f"build failed: {str(lib)[:2000]}"})
            continue
        if lib is None:
            msg = f"build/gpu/{op.file}.cu missing"
            if not args.peers_for_missing:
                say(f"{op.name}: skipped, {msg}")
                doc["skipped"].append({"op": op.name, "reason": msg})
                continue
            say(f"{op.name}: {msg}, peers only")
        slope = alibi_slopes(op.hq) if op.alibi else None
        active.append((op, lib, slope, peers_for(op, args.peers, flex)))

    points = [(1, n) for n in args.seqs]
    points += [(b, args.batch_seq) for b in args.batches if (b, args.batch_seq) not in points]
    stopped = {}  # op name -> reason its sweep ended
    lost = None
    for B, n in points:
        for op, lib, slope, peers in active:
            where = row_head(op, B, n)
            reason = None
            if lost:
                reason = f"CUDA context lost: {lost}"
            elif args.max_seconds and time.monotonic() - t0 > args.max_seconds:
                reason = f"--max-seconds {args.max_seconds:g} spent"
            elif op.name in stopped:
                reason = stopped[op.name]
            elif footprint(op, B, n, "FLASH" in peers or "CUDNN" in peers) > args.max_gb * 1e9:
                reason = f"needs more than --max-gb {args.max_gb:g}"
            if reason:
                say(f"skip {op.name} B={B} N={n}: {reason}")
                doc["skipped"].append({"op": op.name, "B": B, "N": n, "reason": reason})
                continue
            try:
                row = run_point(op, lib, peers, B, n, args, slope)
            except CudaLost as e:
                lost = str(e).splitlines()[0] if str(e) else "error"
                row = dict(where, status="error", error=f"CUDA context lost: {e}"[:500], peers={})
            except Exception as e:  # noqa: BLE001 - record and go on with the next one
                row = dict(where, status="error", error=f"{type(e).__name__}: {e}"[:500], peers={})
                try:
                    cuda_alive()
                except CudaLost as e2:
                    lost = str(e2).splitlines()[0] if str(e2) else "error"
            first = row.get("fusecc", {}).get("first_call_ms")
            if first and first > 1e3 * args.max_call_seconds:
                stopped[op.name] = f"fusecc took {first / 1e3:.1f} s at B={B} N={n} (--max-call-seconds)"
            row["t_s"] = round(time.monotonic() - t0, 1)
            doc["rows"].append(row)
            print(compact(row), flush=True)
            write_json(args.json, doc)
            torch.cuda.empty_cache()
    write_json(args.json, doc)
    print_table(doc["rows"], [p for p in PEERS if p in args.peers])
    if doc["skipped"]:
        say(f"skipped {len(doc['skipped'])}:")
        for s in doc["skipped"]:
            say("  " + " ".join(f"{k}={v}" for k, v in s.items() if k != "reason") + f": {s['reason'][:200]}")
    say(f"{len(doc['rows'])} rows in {time.monotonic() - t0:.0f} s; written to {args.json}")


if __name__ == "__main__":
    main()
