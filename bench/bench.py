"""bench.py: fusecc's kernels next to PyTorch's attention in one process, same inputs.

Run on the GPU machine after `make gpu-prep` on the development machine:
    python3 bench/bench.py [--sizes 512,1024] [--json OUT.json]
Each kernel in build/gpu/<op>.cu is built into a shared library and called through its
C launcher on PyTorch's tensors and stream. Timing: triton.testing.do_bench (median), the
inputs rotated through several copies larger than L2. Prints TFLOP/s and the ratio of
fusecc to each peer; FLOPs = 4*B*H*N*N*D, half of it for causal.
"""
import argparse, ctypes, json, os, subprocess, sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from triton.testing import do_bench

D = 128
OPS = {  # fusecc sample -> (causal, peer mask)
    "global_pf": False,
    "causal_pf": True,
}


def build(op, out):
    so = os.path.join(out, f"lib{op}.so")
    arch = os.environ.get("ARCH", "sm_90a")
    subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-O3", f"-arch={arch}", "-Iinclude", "-w",
                    f"build/gpu/{op}.cu", "-o", so], check=True)
    fn = getattr(ctypes.CDLL(so), f"{op}_launch")
    fn.restype = ctypes.c_int
    return fn


def peers(causal):
    out = {}
    for name, backend in (("FLASH", SDPBackend.FLASH_ATTENTION), ("CUDNN", SDPBackend.CUDNN_ATTENTION)):
        def run(q, k, v, backend=backend):
            with sdpa_kernel([backend]):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        out[name] = run
    try:
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
        flex = torch.compile(flex_attention)
        masks = {}

        def run_flex(q, k, v):
            n = q.shape[2]
            if causal and n not in masks:
                masks[n] = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None, n, n)
            return flex(q, k, v, block_mask=masks.get(n))
        out["Flex"] = run_flex
    except Exception as e:  # noqa: BLE001 - report and go on without the peer
        print(f"FlexAttention unavailable: {e}", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="512,1024,2048")
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--json", default=os.path.join(os.environ.get("OUT", "/tmp"), "bench.json"))
    args = ap.parse_args()
    out_dir = os.environ.get("OUT", "/tmp")
    torch.manual_seed(0)
    rows = []
    for op, causal in OPS.items():
        fn = build(op, out_dir)
        ps = peers(causal)
        for n in [int(s) for s in args.sizes.split(",")]:
            B, H = 1, args.heads
            scale = D ** -0.5
            copies = max(1, (256 << 20) // (3 * B * H * n * D * 2))  # rotate past L2
            qkv = [[torch.randn(B, H, n, D, device="cuda", dtype=torch.float16) for _ in range(3)] for _ in range(copies)]
            o = torch.empty(B, H, n, D, device="cuda", dtype=torch.float16)
            stream = torch.cuda.current_stream().cuda_stream
            it = [0]

            def ours():
                q, k, v = qkv[it[0] % copies]
                it[0] += 1
                err = fn(B, H, n, ctypes.c_float(scale), ctypes.c_void_p(q.data_ptr()), ctypes.c_void_p(k.data_ptr()),
                         ctypes.c_void_p(v.data_ptr()), ctypes.c_void_p(o.data_ptr()), ctypes.c_void_p(stream))
                assert err == 0, err
            q, k, v = qkv[0]
            ours_first = None
            it[0] = 0
            ours()
            torch.cuda.synchronize()
            ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
            err = (o.float() - ref).abs().max().item()
            assert err == err and err < 2e-2, f"{op} N={n}: max abs error {err}"
            flops = 4 * B * H * n * n * D / (2 if causal else 1)
            row = {"op": op, "B": B, "H": H, "N": n, "max_abs_err": err}
            row["fusecc"] = flops / do_bench(ours, warmup=5, rep=50) / 1e9
            for name, run in ps.items():
                def peer(run=run):
                    q, k, v = qkv[it[0] % copies]
                    it[0] += 1
                    run(q, k, v)
                try:
                    row[name] = flops / do_bench(peer, warmup=5, rep=50) / 1e9
                except Exception as e:  # noqa: BLE001
                    print(f"{name} failed on {op} N={n}: {e}", file=sys.stderr)
            rows.append(row)
            print(json.dumps(row), flush=True)
    with open(args.json, "w") as f:
        json.dump({"gpu": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)
    print(f"\n{'op':<10} {'N':>6} {'fusecc':>8} " + " ".join(f"{p:>8} {'x' + p:>8}" for p in ("FLASH", "CUDNN", "Flex")))
    for r in rows:
        cells = []
        for p in ("FLASH", "CUDNN", "Flex"):
            cells.append(f"{r.get(p, float('nan')):8.1f} {r['fusecc'] / r[p] if p in r else float('nan'):8.3f}")
        print(f"{r['op']:<10} {r['N']:>6} {r['fusecc']:8.2f} " + " ".join(cells))
    print("TFLOP/s; x = fusecc / peer")


if __name__ == "__main__":
    main()
