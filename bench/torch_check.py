#!/usr/bin/env python3
"""torch_check.py: the PyTorch path (fusecc --emit=torch, python/fusecc) on a GPU machine.

From the repository root, after `make torch-prep` on the development machine (it writes
build/gpu/torch/: the .cu and _torch.cpp of the samples below, for a machine where fusecc
itself cannot run, having no libclang):

    python3 bench/torch_check.py

Checks, each printed as PASS/FAIL/SKIP, exit status 1 on any FAIL:
- samples/attention.c (fp16, D = 128) through fusecc.torch.load when build/fusecc runs
  here, else fusecc.torch.load_generated on build/gpu/torch/: against a float64 PyTorch
  reference at sizes that are not tile multiples, the output's memory poisoned with NaN
  first; samples/xent_index.c the same (bf16 logits, int32 targets, float32 loss), and
  samples/xent_int64.c (int64 targets, as PyTorch keeps class indices);
- the operators' argument checks (dtype, shape, device, contiguity, alignment) raise
  RuntimeError with the message the generated code says;
- a second load in this process returns at once; in a new process it loads the built
  library without building;
- torch.compile(fullgraph=True) traces the operator (static shapes, then dynamic=True),
  and torch.library.opcheck passes (schema, fake tensor, AOT dispatch);
- with fusecc here: an edit of a header the C file includes rebuilds; an input error
  raises fusecc.CompileError with its file:line:col.
"""

import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("FUSECC", os.path.join(ROOT, "build", "fusecc"))

import torch  # noqa: E402

import fusecc  # noqa: E402
import fusecc.torch  # noqa: E402

failures = 0


def report(ok, what, detail=""):
    global failures
    if ok is None:
        print(f"SKIP {what}{': ' + detail if detail else ''}")
        return
    print(f"{'PASS' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    failures += not ok


def fusecc_runs():
    try:
        return subprocess.run([os.environ["FUSECC"], "--version"], stdout=subprocess.PIPE, stderr=subprocess.PIPE).returncode == 0
    except OSError:
        return False


HAVE_FUSECC = fusecc_runs()
# A fresh cache (the first load builds); the new process of the cache check shares it.
CACHE = os.environ.get("FUSECC_TORCH_CHECK_CACHE") or tempfile.mkdtemp(prefix="fusecc-torch-check-")
PREP = os.path.join(ROOT, "build", "gpu", "torch")


def load(name):
    """The sample's operators: through fusecc when it runs here, else from torch-prep's files."""
    if HAVE_FUSECC:
        return fusecc.torch.load(os.path.join(ROOT, "samples", name + ".c"), cache_dir=CACHE)
    cu, cpp = os.path.join(PREP, name + ".cu"), os.path.join(PREP, name + "_torch.cpp")
    if not os.path.exists(cu):
        sys.exit(f"torch_check: {cu} missing and fusecc does not run here: run `make torch-prep` where it does")
    return fusecc.torch.load_generated(cu, cpp, os.path.join(ROOT, "include"), cache_dir=CACHE)


def poison(n, dtype):
    """Fills a block of n elements with NaN and frees it: the caching allocator hands it
    to the next allocation of that size, the operator's output."""
    t = torch.full((n,), float("nan"), dtype=dtype, device="cuda")
    del t


def raises(what, fn, needle):
    try:
        fn()
    except RuntimeError as e:
        report(needle in str(e), what, str(e).splitlines()[0][:200])
        return
    report(False, what, "no error")


def attention_ref(q, k, v, scale):
    s = torch.einsum("bhid,bhjd->bhij", q.double(), k.double()) * scale
    return torch.einsum("bhij,bhjd->bhid", torch.softmax(s, -1), v.double())


def check_attention():
    t0 = time.time()
    ops = load("attention")
    report(True, f"attention: built and loaded in {time.time() - t0:.1f} s")
    torch.manual_seed(0)
    scale = 1 / math.sqrt(128)
    for B, H, N in [(1, 1, 1), (1, 2, 77), (2, 3, 200), (1, 4, 1000)]:
        q, k, v = (torch.randn(B, H, N, 128, device="cuda", dtype=torch.float16) for _ in range(3))
        poison(B * H * N * 128, torch.float16)
        o = ops.attention(q, k, v, scale)
        ref = attention_ref(q, k, v, scale)
        err = (o.double() - ref).abs().max().item()
        ok = o.shape == ref.shape and o.dtype == torch.float16 and not torch.isnan(o).any().item() and err < 2e-2
        report(ok, f"attention B={B} H={H} N={N} against float64", f"max error {err:.2e}")
    # The current stream is the one the kernel runs on.
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        o = ops.attention(q, k, v, scale)
    s.synchronize()
    report((o.double() - ref).abs().max().item() < 2e-2, "attention on a side stream")

    # Argument checks.
    raises("dtype is checked", lambda: ops.attention(q.float(), k, v, scale), "'q' must be torch.float16, not torch.float32")
    raises("shape is checked", lambda: ops.attention(q, k[:, :, :5].contiguous(), v, scale), "'k' has shape")
    raises("rank is checked", lambda: ops.attention(q[0], k, v, scale), "'q' must have 4 dimensions")
    raises("head dim is checked", lambda: ops.attention(q[..., :64].contiguous(), k, v, scale), "'q' has shape")
    raises("contiguity is checked", lambda: ops.attention(q.transpose(1, 2), k, v, scale), "must be contiguous")
    raises("device is checked", lambda: ops.attention(q.cpu(), k.cpu(), v.cpu(), scale), "must be a CUDA tensor")
    raises("mixed devices are checked", lambda: ops.attention(q, k.cpu(), v, scale), "'k' is on cpu")
    flat = torch.empty(q.numel() + 1, device="cuda", dtype=torch.float16)[1:].view(q.shape)
    flat.copy_(q)
    raises("alignment is checked", lambda: ops.attention(flat, k, v, scale), "16-byte aligned")

    # Cache: again in this process, then in a new one (no build).
    t0 = time.time()
    ops2 = load("attention")
    dt = time.time() - t0
    report(ops2 is ops and dt < 0.5, "a second load in the process is instant", f"{dt * 1000:.1f} ms")
    before = {}
    for d in os.listdir(CACHE):
        if os.path.isdir(os.path.join(CACHE, d)):
            for lib in os.listdir(os.path.join(CACHE, d)):
                if lib.endswith(".so"):
                    before[os.path.join(CACHE, d, lib)] = os.stat(os.path.join(CACHE, d, lib)).st_mtime_ns
    code = ("import sys, time; sys.path.insert(0, %r); sys.argv = ['x']\n"
            "import importlib.util as u; s = u.spec_from_file_location('tc', %r); m = u.module_from_spec(s); s.loader.exec_module(m)\n"
            "t = time.time(); ops = m.load('attention'); print(time.time() - t)") % (os.path.join(ROOT, "python"), os.path.abspath(__file__))
    env = dict(os.environ, FUSECC_TORCH_CHECK_CACHE=CACHE)
    p = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    after = {p: os.stat(p).st_mtime_ns for p in before}
    dt = p.stdout.strip().splitlines()[-1] if p.returncode == 0 and p.stdout.strip() else "?"
    report(p.returncode == 0 and before == after and len(before) > 0, "a new process loads the cached build without building", f"{dt} s; {p.stderr.strip()[-300:]}")

    # torch.compile: the meta kernel gives the shapes.
    def f(q, k, v):
        return ops.attention(q, k, v, scale).float().sum(-1) * 2

    try:
        torch._dynamo.reset()
        cf = torch.compile(f, fullgraph=True)
        got, want = cf(q, k, v), f(q, k, v)
        report(torch.allclose(got, want, rtol=1e-3, atol=1e-2), "torch.compile(fullgraph=True)")
        torch._dynamo.reset()
        cd = torch.compile(f, fullgraph=True, dynamic=True)
        ok = True
        for N in (96, 130):
            qq, kk, vv = (torch.randn(1, 2, N, 128, device="cuda", dtype=torch.float16) for _ in range(3))
            ok &= torch.allclose(cd(qq, kk, vv), f(qq, kk, vv), rtol=1e-3, atol=1e-2)
        report(ok, "torch.compile(fullgraph=True, dynamic=True), two sizes")
    except Exception as e:  # noqa: BLE001 (any failure of tracing is the finding)
        report(False, "torch.compile(fullgraph=True)", f"{type(e).__name__}: {str(e)[:600]}")
    if hasattr(torch.library, "opcheck"):
        try:
            torch.library.opcheck(torch.ops.fusecc.attention.default, (q, k, v, scale),
                                  test_utils=("test_schema", "test_faketensor", "test_aot_dispatch_dynamic"))
            report(True, "torch.library.opcheck (schema, fake tensor, AOT dispatch)")
        except Exception as e:  # noqa: BLE001
            report(False, "torch.library.opcheck", f"{type(e).__name__}: {str(e)[:600]}")
    else:
        report(None, "torch.library.opcheck", "not in this PyTorch")


def check_xent():
    ops = load("xent_index")
    torch.manual_seed(1)
    for T, V in [(1, 5), (37, 1000), (300, 32000)]:
        logits = (torch.randn(T, V, device="cuda") * 4).to(torch.bfloat16)
        target = torch.randint(0, V, (T,), device="cuda", dtype=torch.int32)
        poison(T, torch.float32)
        loss = ops.xent_index(logits, target)
        ref = torch.nn.functional.cross_entropy(logits.double(), target.long(), reduction="none")
        err = (loss.double() - ref).abs().max().item()
        ok = loss.dtype == torch.float32 and loss.shape == (T,) and not torch.isnan(loss).any().item() and err < 1e-3 * max(1.0, ref.abs().max().item())
        report(ok, f"xent_index T={T} V={V} against float64", f"max error {err:.2e}")
    raises("int32 targets are checked", lambda: ops.xent_index(logits, target.long()), "'target' must be torch.int32, not torch.int64")
    raises("the size deduced from logits is checked against target", lambda: ops.xent_index(logits, target[:-1].contiguous()), "'target' has shape")
    # int64 class indices, as PyTorch stores them (samples/xent_int64.c, fp32 logits).
    ops = load("xent_int64")
    for T, V in [(1, 3), (129, 50257)]:
        logits = torch.randn(T, V, device="cuda") * 4
        target = torch.randint(0, V, (T,), device="cuda", dtype=torch.int64)
        poison(T, torch.float32)
        loss = ops.xent_int64(logits, target)
        ref = torch.nn.functional.cross_entropy(logits.double(), target, reduction="none")
        err = (loss.double() - ref).abs().max().item()
        ok = loss.shape == (T,) and not torch.isnan(loss).any().item() and err < 1e-3 * max(1.0, ref.abs().max().item())
        report(ok, f"xent_int64 T={T} V={V} against float64", f"max error {err:.2e}")
    raises("int64 targets are checked", lambda: ops.xent_int64(logits, target.int()), "'target' must be torch.int64, not torch.int32")


def check_with_fusecc():
    """What needs fusecc itself: an edit of an included header rebuilds; errors are located."""
    if not HAVE_FUSECC:
        report(None, "header edit rebuilds, CompileError", "fusecc does not run here (test/python covers them on the development machine)")
        return
    bad = os.path.join(ROOT, "test", "bad", "mean_abs_deviation.c")
    try:
        fusecc.torch.load(bad, cache_dir=CACHE)
        report(False, "an input error raises fusecc.CompileError", "no error")
    except fusecc.CompileError as e:
        d = e.diagnostics[0] if e.diagnostics else None
        report(d is not None and d.line == 15 and d.col == 4 and "mean_abs_deviation.c:15:4: error:" in str(e), "an input error raises fusecc.CompileError", repr(d))
    # A header edit: a fresh process each time (an operator cannot be replaced in one).
    work = tempfile.mkdtemp(prefix="fusecc-torch-edit-")
    with open(os.path.join(ROOT, "samples", "safe_softmax.c")) as f:
        src = f.read()
    with open(os.path.join(work, "sm.c"), "w") as f:
        f.write('#include "sm.h"\n' + src)
    code = ("import sys; sys.path.insert(0, %r); import torch, fusecc.torch\n"
            "ops = fusecc.torch.load(%r, cache_dir=%r)\n"
            "x = torch.randn(3, 50, device='cuda')\n"
            "print(float((ops.safe_softmax(x) - torch.softmax(x.double(), -1)).abs().max()))") % (os.path.join(ROOT, "python"), os.path.join(work, "sm.c"), CACHE)
    dirs = []
    for i, text in enumerate(["/* sm.h */\n", "/* sm.h, edited */\n", "/* sm.h, edited */\n"]):
        with open(os.path.join(work, "sm.h"), "w") as f:
            f.write(text)
        p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        dirs.append(sorted(d for d in os.listdir(CACHE) if d.startswith("sm-")))
        ok = p.returncode == 0 and float(p.stdout.split()[-1]) < 1e-5
        report(ok, f"safe_softmax with an included header, run {i + 1}", (p.stdout.strip() + " " + p.stderr.strip()[-300:]).strip())
    report(len(dirs[0]) == 1 and len(dirs[1]) == 2 and dirs[2] == dirs[1], "editing the header builds again, once", str(dirs))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if not torch.cuda.is_available():
        sys.exit("torch_check: no CUDA device")
    else:
        print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, fusecc {'runs here' if HAVE_FUSECC else 'does not run here: build/gpu/torch/ files'}")
        try:
            check_attention()
            check_xent()
            check_with_fusecc()
        finally:
            shutil.rmtree(CACHE, ignore_errors=True)
        print(f"torch_check: {failures} failed")
        sys.exit(1 if failures else 0)
