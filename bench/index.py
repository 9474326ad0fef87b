#!/usr/bin/env python3
"""index.py: attention read through index arrays (paged KV cache, packed variable-length
batches, block-sparse layouts) and cross-entropy with class indices, fusecc next to PyTorch
in one process on the same inputs.

On the GPU machine, from the repository root, after `make gpu-prep` on the development
machine (build/gpu/<name>.cu):

    python3 bench/index.py [--only paged,varlen,sparse,xent] [--json OUT.json]

  paged   test/zoo/x08_paged_decode_rtpage_fp16 (vLLM's layout: pages of a pool, block
          table, per-sequence lengths, page size at run time) against the same decode on a
          contiguous token-major cache (test/zoo/x07_decode_bthd_contig_fp16), and against
          SDPA (FLASH) on the cache gathered into contiguous tensors, without and with the
          gather. The block table is a random permutation of the pool. GB/s of K and V read.
          At page 16, also samples/paged_decode.c (the page size a constant) on the same
          cache (paged_const).
  varlen  samples/varlen_prefill.c on S sequences of mixed lengths packed by cu_seqlens,
          against SDPA over the padded batch with a boolean mask (padding and causal), the
          varlen function of torch.nn.attention when this PyTorch has it, and fusecc's own
          fixed-length causal prefill (samples/causal_pf.c) on as many tokens. TFLOP/s on
          the real tokens (4 * H * D * len * (len + 1) / 2 per sequence).
  sparse  samples/blocksparse_prefill.c at block densities 10%, 25%, 50%, 100% (blocks of
          128, the diagonal always kept), against FlexAttention with a BlockMask of the same
          layout. TFLOP/s counted on the kept blocks; time against the dense kernel.
  xent    samples/xent_index.c (bf16 logits, int32 targets) against
          F.cross_entropy(reduction='none'); GB/s of the logits read.

Each output is checked against a float64 reference first (on a subset of rows for the large
ones); a failing kernel is reported and not timed. Timing: triton.testing.do_bench (median,
L2 flushed between calls). The last lines are the table.
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import subprocess
import sys
import tempfile

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
D = 128
SCALE = ctypes.c_float(D ** -0.5).value
LIBDIR = os.environ.get("INDEX_LIBDIR") or tempfile.mkdtemp(prefix="fusecc-index-")  # lib<name>.so found there are used


def launcher(name, fn):
    cu = os.path.join(ROOT, "build", "gpu", f"{name}.cu")
    so = os.path.join(LIBDIR, f"lib{name}.so")
    arch = os.environ.get("ARCH", "sm_90a")
    r = subprocess.run(["true"]) if os.path.exists(so) else subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-O3", f"-arch={arch}", "-Iinclude", "-w", cu, "-o", so],
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"nvcc {name}:\n" + (r.stdout + r.stderr)[-3000:])
    f = getattr(ctypes.CDLL(so), f"{fn}_launch")
    f.restype = ctypes.c_int
    return f


def P(t):
    return ctypes.c_void_p(t.data_ptr())


def I(x):
    return ctypes.c_int(int(x))


def Fl(x):
    return ctypes.c_float(x)


def S():
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def call(f, *args):
    err = f(*args, S())
    if err:
        raise RuntimeError(f"launcher returned cudaError {err}")


def bench_ms(fn):
    from triton.testing import do_bench
    return do_bench(fn, warmup=10, rep=50, return_mode="median")


def rel_err(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


ROWS = []


def row(**kw):
    ROWS.append(kw)
    print(json.dumps(kw), flush=True)


def attn_ref(q, k, v, mask=None):
    """float64 softmax(q k^T * scale) v; q (..., M, D), k, v (..., N, D); mask True = keep."""
    s = (q.double() @ k.double().transpose(-1, -2)) * SCALE
    if mask is not None:
        s = s.masked_fill(~mask, -math.inf)
    return torch.softmax(s, -1) @ v.double()


# ---------------------------------------------------------------------------------------------


def paged(args):
    H = 32
    fp = launcher("x08_paged_decode_rtpage_fp16", "paged_attention")
    fc = launcher("x07_decode_bthd_contig_fp16", "decode_bthd")
    fk = launcher("paged_decode", "paged_decode")  # PAGE = 16 at compile time
    sizes = [(1, 1024), (1, 8192), (1, 32768), (8, 8192), (8, 32768), (32, 8192), (64, 4096)]
    for page in (16, 128):
        for B, L in sizes:
            npages = B * ((L + page - 1) // page)
            maxp = (L + page - 1) // page
            g = torch.Generator(device="cuda").manual_seed(B * 7 + L)
            q = torch.randn(B, H, D, device="cuda", dtype=torch.float16) * 2
            kc = torch.randn(npages, page, H, D, device="cuda", dtype=torch.float16)
            vc = torch.randn(npages, page, H, D, device="cuda", dtype=torch.float16)
            bt = torch.randperm(npages, device="cuda", generator=g).to(torch.int32).view(B, maxp).contiguous()
            lens = torch.full((B,), L, device="cuda", dtype=torch.int32)
            o = torch.full((B, H, D), float("nan"), device="cuda", dtype=torch.float16)
            run = lambda: call(fp, I(B), I(H), I(npages), I(maxp), I(page), Fl(SCALE), P(q), P(kc), P(vc), P(bt), P(lens), P(o))

            def gather():  # (B, L, H, D) contiguous, token-major
                return kc[bt.long()].view(B, maxp * page, H, D)[:, :L], vc[bt.long()].view(B, maxp * page, H, D)[:, :L]
            kg, vg = (x.contiguous() for x in gather())
            oc = torch.full((B, H, D), float("nan"), device="cuda", dtype=torch.float16)
            run_c = lambda: call(fc, I(B), I(H), I(L), Fl(SCALE), P(q), P(kg), P(vg), P(oc))
            ok_ = torch.full((B, H, D), float("nan"), device="cuda", dtype=torch.float16)
            run_k = lambda: call(fk, I(B), I(H), I(L), I(npages), I(maxp), Fl(SCALE), P(q), P(kc), P(vc), P(bt), P(ok_))
            run()
            run_c()
            if page == 16:
                run_k()
            torch.cuda.synchronize()
            hs = [0, H - 1]
            ref = attn_ref(q[:, hs, None, :], kg[:, :, hs].transpose(1, 2), vg[:, :, hs].transpose(1, 2))[:, :, 0]
            err_p, err_c = rel_err(o[:, hs], ref), rel_err(oc[:, hs], ref)
            err_k = rel_err(ok_[:, hs], ref) if page == 16 else 0.0
            ok = err_p < 1e-2 and err_c < 1e-2 and err_k < 1e-2
            nbytes = 2 * B * L * H * D * 2
            res = dict(case="paged", B=B, L=L, page=page, err_paged=err_p, err_contig=err_c, err_paged_const=err_k)
            if ok:
                qs = q[:, :, None, :]
                kt, vt = kg.transpose(1, 2), vg.transpose(1, 2)  # (B, H, L, D) strided views

                def sdpa():
                    with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
                        return F.scaled_dot_product_attention(qs, kt, vt, scale=SCALE)

                def sdpa_gather():
                    k2, v2 = gather()
                    with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
                        return F.scaled_dot_product_attention(qs, k2.transpose(1, 2), v2.transpose(1, 2), scale=SCALE)
                t = {"paged": bench_ms(run), "contig": bench_ms(run_c)}
                if page == 16:
                    t["paged_const"] = bench_ms(run_k)
                try:
                    t["sdpa"] = bench_ms(sdpa)
                    t["sdpa_gather"] = bench_ms(sdpa_gather)
                except RuntimeError as e:
                    res["sdpa_error"] = str(e)[:200]
                for k_, ms in t.items():
                    res[f"{k_}_us"] = ms * 1e3
                    res[f"{k_}_GBs"] = nbytes / ms / 1e6
                res["paged_vs_contig"] = t["contig"] / t["paged"]
                if "sdpa" in t:
                    res["paged_vs_sdpa"] = t["sdpa"] / t["paged"]
                    res["paged_vs_sdpa_gather"] = t["sdpa_gather"] / t["paged"]
            else:
                res["status"] = "FAIL"
            row(**res)
            del kc, vc, kg, vg
            torch.cuda.empty_cache()


def varlen(args):
    H = 32
    fv = launcher("varlen_prefill", "varlen_prefill")
    ff = launcher("causal_pf", "causal_pf")
    g = torch.Generator().manual_seed(11)
    sets = {
        "16 seqs 128..8K": [int(round(math.exp(x))) for x in torch.empty(16).uniform_(math.log(128), math.log(8192), generator=g).tolist()],
        "64 seqs 128..2K": [int(round(math.exp(x))) for x in torch.empty(64).uniform_(math.log(128), math.log(2048), generator=g).tolist()],
    }
    varlen_fn = None
    try:
        from torch.nn.attention.varlen import varlen_attn as varlen_fn  # PyTorch >= 2.9
    except Exception:  # noqa: BLE001
        pass
    for label, lens in sets.items():
        S_, total, maxlen = len(lens), sum(lens), max(lens)
        cu = torch.tensor([0] + list(itertools_acc(lens)), device="cuda", dtype=torch.int32)
        q = torch.randn(total, H, D, device="cuda", dtype=torch.float16) * 2
        k = torch.randn(total, H, D, device="cuda", dtype=torch.float16)
        v = torch.randn(total, H, D, device="cuda", dtype=torch.float16)
        o = torch.full_like(q, float("nan"))
        run = lambda: call(fv, I(S_), I(total), I(H), Fl(SCALE), P(cu), P(q), P(k), P(v), P(o))
        run()
        torch.cuda.synchronize()
        errs = []
        for s in (0, S_ // 2, S_ - 1):
            a, n = int(cu[s]), lens[s]
            rows = torch.arange(n, device="cuda")[-256:]
            causal = rows[:, None] >= torch.arange(n, device="cuda")[None, :]
            ref = attn_ref(q[a + rows].transpose(0, 1), k[a:a + n].transpose(0, 1), v[a:a + n].transpose(0, 1), causal)
            errs.append(rel_err(o[a + rows].transpose(0, 1), ref))
        flops = sum(4 * H * D * n * (n + 1) / 2 for n in lens)
        res = dict(case="varlen", set=label, S=S_, tokens=total, max_len=maxlen, err=max(errs))
        if max(errs) > 1e-2:
            res["status"] = "FAIL"
            row(**res)
            continue
        # the padded batch (B = S, N = maxlen) with a boolean mask: padding and causal
        qp = torch.zeros(S_, H, maxlen, D, device="cuda", dtype=torch.float16)
        kp, vp = torch.zeros_like(qp), torch.zeros_like(qp)
        keep = torch.zeros(S_, 1, maxlen, maxlen, device="cuda", dtype=torch.bool)
        ar = torch.arange(maxlen, device="cuda")
        for s, n in enumerate(lens):
            a = int(cu[s])
            qp[s, :, :n], kp[s, :, :n], vp[s, :, :n] = q[a:a + n].transpose(0, 1), k[a:a + n].transpose(0, 1), v[a:a + n].transpose(0, 1)
            keep[s, 0] = (ar[:, None] >= ar[None, :]) & (ar[None, :] < n)
        t = {"fusecc": bench_ms(run)}
        t["sdpa_padded_mask"] = bench_ms(lambda: F.scaled_dot_product_attention(qp, kp, vp, attn_mask=keep, scale=SCALE))
        if varlen_fn is not None:
            try:
                cu64 = cu.to(torch.int32)
                try:
                    varlen_fn(q, k, v, cu64, cu64, maxlen, maxlen, is_causal=True)
                    kw = dict(is_causal=True)
                except TypeError:  # later PyTorch: a window of (-1, 0) is causal
                    kw = dict(window_size=(-1, 0))
                t["torch_varlen"] = bench_ms(lambda: varlen_fn(q, k, v, cu64, cu64, maxlen, maxlen, **kw))
            except Exception as e:  # noqa: BLE001
                res["torch_varlen_error"] = str(e)[:200]
        # fusecc's fixed-length causal prefill on the same number of tokens
        N = 4096
        Bf = max(1, total // N)
        qf = torch.randn(Bf, H, N, D, device="cuda", dtype=torch.float16)
        kf, vf, of = torch.randn_like(qf), torch.randn_like(qf), torch.empty_like(qf)
        ms_f = bench_ms(lambda: call(ff, I(Bf), I(H), I(N), Fl(SCALE), P(qf), P(kf), P(vf), P(of)))
        fixed_tflops = 4 * Bf * H * D * N * (N + 1) / 2 / ms_f / 1e9
        for k_, ms in t.items():
            res[f"{k_}_ms"] = ms
            res[f"{k_}_TFLOPs"] = flops / ms / 1e9
        res["fixed_causal_pf_TFLOPs"] = fixed_tflops
        res["vs_sdpa_padded"] = t["sdpa_padded_mask"] / t["fusecc"]
        if "torch_varlen" in t:
            res["vs_torch_varlen"] = t["torch_varlen"] / t["fusecc"]
        res["vs_fixed_length"] = res["fusecc_TFLOPs"] / fixed_tflops
        row(**res)
        del qp, kp, vp, keep
        torch.cuda.empty_cache()


def itertools_acc(xs):
    s = 0
    for x in xs:
        s += x
        yield s


def sparse(args):
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    flex = torch.compile(flex_attention, dynamic=False)
    fs = launcher("blocksparse_prefill", "blocksparse_prefill")
    B, H, BLK = 1, 32, 128
    for N in (8192, 16384):
        NB = N // BLK
        q = torch.randn(B, H, N, D, device="cuda", dtype=torch.float16) * 2
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        o = torch.empty_like(q)
        dense_ms = None
        for density in (1.0, 0.5, 0.25, 0.1):
            g = torch.Generator(device="cuda").manual_seed(int(density * 100) + N)
            layout = torch.rand(H, NB, NB, device="cuda", generator=g) < density
            layout |= torch.eye(NB, device="cuda", dtype=torch.bool)[None]
            kept = int(layout.sum())
            o.fill_(float("nan"))
            run = lambda: call(fs, I(B), I(H), I(N), I(NB), Fl(SCALE), P(layout), P(q), P(k), P(v), P(o))
            run()
            torch.cuda.synchronize()
            rows = torch.cat([torch.arange(256), torch.arange(N - 256, N)]).cuda()
            cols = torch.arange(N, device="cuda") // BLK
            errs = [rel_err(o[0, h, rows], attn_ref(q[0, h, rows], k[0, h], v[0, h], layout[h][rows // BLK][:, cols])) for h in (0, H - 1)]
            res = dict(case="sparse", N=N, H=H, density=density, kept_blocks=kept, err=max(errs))
            if max(errs) > 1e-2:
                res["status"] = "FAIL"
                row(**res)
                continue

            def mask_mod(b, h, qi, ki):
                return layout[h, qi // BLK, ki // BLK]
            bm = create_block_mask(mask_mod, None, H, N, N, device="cuda", BLOCK_SIZE=BLK)
            ms = bench_ms(run)
            ms_flex = bench_ms(lambda: flex(q, k, v, block_mask=bm, scale=SCALE))
            if density == 1.0:
                dense_ms = ms
            flops = 4 * B * D * BLK * BLK * kept
            row(**res, fusecc_ms=ms, flex_ms=ms_flex, fusecc_TFLOPs=flops / ms / 1e9, flex_TFLOPs=flops / ms_flex / 1e9,
                vs_flex=ms_flex / ms, time_vs_dense=ms / dense_ms if dense_ms else None,
                kept_fraction=kept / (H * NB * NB))


def xent(args):
    fx = launcher("xent_index", "xent_index")
    for T in (4096, 16384, 32768):
        for V in (32000, 128256):
            if T * V * 2 > 6e9:
                continue
            logits = torch.randn(T, V, device="cuda", dtype=torch.bfloat16) * 3
            target = torch.randint(0, V, (T,), device="cuda", dtype=torch.int32)
            loss = torch.full((T,), float("nan"), device="cuda")
            run = lambda: call(fx, I(T), I(V), P(logits), P(target), P(loss))
            run()
            torch.cuda.synchronize()
            sub = torch.arange(0, T, max(1, T // 512), device="cuda")
            ref = F.cross_entropy(logits[sub].double(), target[sub].long(), reduction="none")
            err = ((loss[sub].double() - ref).abs().max() / ref.abs().max()).item()
            res = dict(case="xent", T=T, V=V, err=err)
            if not err < 1e-3:
                res["status"] = "FAIL"
                row(**res)
                continue
            tl = target.long()
            ms = bench_ms(run)
            ms_t = bench_ms(lambda: F.cross_entropy(logits, tl, reduction="none"))
            nbytes = T * V * 2
            row(**res, fusecc_us=ms * 1e3, torch_us=ms_t * 1e3, fusecc_GBs=nbytes / ms / 1e6, torch_GBs=nbytes / ms_t / 1e6, vs_torch=ms_t / ms)
            del logits
            torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--only", default="paged,varlen,sparse,xent")
    ap.add_argument("--json", default=os.path.join(os.environ.get("OUT", "/tmp"), "index.json"))
    args = ap.parse_args()
    cases = {"paged": paged, "varlen": varlen, "sparse": sparse, "xent": xent}
    for name in args.only.split(","):
        try:
            cases[name](args)
        except Exception as e:  # noqa: BLE001 - one case's failure does not stop the others
            row(case=name, status="ERROR", error=str(e)[-1500:])
        with open(args.json, "w") as f:
            json.dump(dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, date=datetime.date.today().isoformat(),
                           rows=ROWS), f, indent=1)
    print("# table")
    for r in ROWS:
        keys = [k for k in r if k.startswith("vs_") or k.endswith("_GBs") or k.endswith("_TFLOPs") or k in ("status", "error")]
        ident = {k: r[k] for k in ("case", "B", "L", "page", "set", "N", "density", "T", "V") if k in r}
        print(ident, {k: (round(r[k], 3) if isinstance(r[k], float) else r[k]) for k in keys})


if __name__ == "__main__":
    sys.exit(main())
