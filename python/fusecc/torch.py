"""fusecc.torch: a C file with #pragma fuse regions as PyTorch operators, in one call.

    import fusecc.torch
    ops = fusecc.torch.load("attention.c", flags=["-DD=128"])
    o = ops.attention(q, k, v, scale)      # torch.ops.fusecc.attention

load() runs fusecc twice (the CUDA file, with -MD, and --emit=torch), builds the two
files with torch.utils.cpp_extension.load into a cache directory named by the contents
of the C file, the headers it includes, the flags, fusecc itself and PyTorch's version
(fusecc.cache), loads the library and returns torch.ops.fusecc. A second call, in this
process or a later one, finds the build and only loads it; an edit of the C file or of a
header it includes builds again. Errors in the input raise fusecc.CompileError with
fusecc's `file:line:col: error:` diagnostics.
"""

import os
import sys
import warnings

import torch
import torch.utils.cpp_extension

from . import FuseccError, find_fusecc, include_dir
from . import cache

# PyTorch's nvcc flags turn off __half and __nv_bfloat16 operators and conversions,
# which the generated kernels use; these come after them and win.
NVCC_FLAGS = [
    "-U__CUDA_NO_HALF_OPERATORS__",
    "-U__CUDA_NO_HALF_CONVERSIONS__",
    "-U__CUDA_NO_HALF2_OPERATORS__",
    "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
]

_loaded = {}  # build key -> library path, in this process
_owner = {}  # operator name -> build key that registered it


def arch_flags():
    """The -gencode of the current GPU (sm_90a on Hopper: the kernels use wgmma there),
    unless TORCH_CUDA_ARCH_LIST chooses (then PyTorch adds its own)."""
    if os.environ.get("TORCH_CUDA_ARCH_LIST"):
        return []
    major, minor = torch.cuda.get_device_capability()
    sm = f"{major}{minor}" + ("a" if (major, minor) == (9, 0) else "")
    return [f"-gencode=arch=compute_{sm},code=sm_{sm}"]


def _cuda_flags(extra_cuda_cflags):
    flags = list(extra_cuda_cflags)
    if not any("arch" in f for f in flags):
        flags += arch_flags()
    return flags + NVCC_FLAGS


def _context(cuda_flags):
    """What the build depends on besides the sources: PyTorch, CUDA, Python, nvcc flags."""
    return [f"torch {torch.__version__}", f"cuda {torch.version.cuda}", f"python {sys.implementation.cache_tag}",
            *["nvcc " + f for f in cuda_flags], f"arch list {os.environ.get('TORCH_CUDA_ARCH_LIST', '')}"]


def _build_and_load(p, what, incdir, cuda_flags, verbose):
    """Builds the prepared directory's library unless it is there, and loads it once per
    process; refuses operators that another build registered in this process."""
    if p.key in _loaded:
        return torch.ops.fusecc
    clash = [op for op in p.ops if _owner.get(op, p.key) != p.key]
    if clash:
        raise FuseccError(f"fusecc.torch: {what}: operator(s) {', '.join('fusecc.' + o for o in clash)} are already "
                          "loaded in this process from another build (an earlier version of the file, or another file "
                          "with a function of the same name); PyTorch cannot replace an operator: restart Python to "
                          "load this one")
    if not p.built:
        torch.utils.cpp_extension.load(name=p.library, sources=[p.cu, p.cpp], build_directory=p.dir,
                                       extra_include_paths=[incdir], extra_cuda_cflags=cuda_flags,
                                       is_python_module=False, verbose=verbose)
        p.mark_built()
    else:
        torch.ops.load_library(p.so)
    _loaded[p.key] = p.so
    for op in p.ops:
        _owner[op] = p.key
    return torch.ops.fusecc


def load(source, flags=(), *, cache_dir=None, extra_cuda_cflags=(), verbose=False, fusecc=None):
    """Compiles `source` (a C file with #pragma fuse regions) into PyTorch operators and
    returns torch.ops.fusecc, on which each of its functions is an operator:
    ops.<fn>(input tensors..., scalars...) -> output tensor(s) (docs/pytorch.md).

    flags: fusecc options (-I, -D, -U, -std=, ...), relative paths as on a command line.
    cache_dir: the cache (default $FUSECC_CACHE_DIR, else ~/.cache/fusecc).
    extra_cuda_cflags: more nvcc flags (an -arch or -gencode here replaces the default).
    fusecc: the binary (default fusecc.find_fusecc()).
    """
    fusecc = fusecc or find_fusecc()
    cuda_flags = _cuda_flags(extra_cuda_cflags)
    root = cache_dir or cache.default_root()
    with cache.lock(root, cache.stem_of(source)):
        p = cache.prepare(source, flags, root, _context(cuda_flags), fusecc)
        for line in p.warnings.splitlines():
            if ": warning: " in line:
                warnings.warn(f"fusecc: {line}", stacklevel=2)
        return _build_and_load(p, source, include_dir(fusecc), cuda_flags, verbose)


def load_generated(cu, torch_cpp, include_dir, *, cache_dir=None, extra_cuda_cflags=(), verbose=False):
    """Builds and loads what fusecc generated elsewhere: X.cu and X_torch.cpp (fusecc X.c
    -o X.cu; fusecc X.c --emit=torch -o X_torch.cpp), with fusecc's headers in
    include_dir, for a machine without fusecc (a deployment). Cached by the contents of
    the two files and of the headers; returns torch.ops.fusecc."""
    cuda_flags = _cuda_flags(extra_cuda_cflags)
    root = cache_dir or cache.default_root()
    stem = cache.stem_of(cu[:-3] + ".c" if cu.endswith(".cu") else cu)
    with cache.lock(root, stem):
        p = cache.prepare_generated(cu, torch_cpp, include_dir, root, _context(cuda_flags))
        return _build_and_load(p, cu, os.path.abspath(include_dir), cuda_flags, verbose)
