"""fusecc from Python: run the compiler, and (fusecc.torch) load its kernels as PyTorch
operators.

    import fusecc.torch
    ops = fusecc.torch.load("attention.c")          # torch.ops.fusecc
    o = ops.attention(q, k, v, scale)

This module needs nothing beyond the standard library; fusecc.torch needs PyTorch.
The fusecc binary is found as find_fusecc() says.
"""

import os
import re
import shutil
import subprocess

__version__ = "0.1.0"

__all__ = ["FuseccError", "CompileError", "Diagnostic", "find_fusecc", "compile", "include_dir"]


class FuseccError(RuntimeError):
    """fusecc could not be run, or failed other than on the input (a bad command line,
    exit status 2; an internal error, 70)."""

    def __init__(self, message, command=None, returncode=None, stderr=""):
        super().__init__(message)
        self.command = command
        self.returncode = returncode
        self.stderr = stderr


class Diagnostic:
    """One `file:line:col: severity: message` line of fusecc's output."""

    __slots__ = ("file", "line", "col", "severity", "message")

    def __init__(self, file, line, col, severity, message):
        self.file, self.line, self.col, self.severity, self.message = file, line, col, severity, message

    def __repr__(self):
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"


_DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note): (.*)$")


def parse_diagnostics(text):
    """The located diagnostics in fusecc's standard error, in order."""
    out = []
    for line in text.splitlines():
        m = _DIAG.match(line)
        if m:
            out.append(Diagnostic(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    return out


class CompileError(FuseccError):
    """The input has errors (fusecc's exit status 1): C errors, pragma errors, a refused
    fusion or a GPU printer's refusal. str() is fusecc's own report, `file:line:col:
    error: ...` with the source line and a caret; .diagnostics holds the parsed lines."""

    def __init__(self, message, command=None, returncode=1, stderr=""):
        super().__init__(message, command, returncode, stderr)
        self.diagnostics = parse_diagnostics(stderr)


def _here():
    return os.path.dirname(os.path.abspath(__file__))


def find_fusecc():
    """The fusecc binary: $FUSECC; else the one installed with this package (make install
    puts the package in PREFIX/share/fusecc/python, beside PREFIX/bin/fusecc); else the
    source tree's build/fusecc (python/fusecc is this package); else fusecc on PATH."""
    env = os.environ.get("FUSECC")
    if env:
        return env
    pkg = _here()
    for cand in (os.path.join(pkg, "..", "..", "..", "..", "bin", "fusecc"),
                 os.path.join(pkg, "..", "..", "build", "fusecc")):
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.normpath(cand)
    found = shutil.which("fusecc")
    if found:
        return found
    raise FuseccError("fusecc not found: set FUSECC to the binary, or put it on PATH")


def run(args, fusecc=None, cwd=None):
    """Runs fusecc with `args`; returns its standard error (warnings) on success. Raises
    CompileError for errors in the input, FuseccError for anything else."""
    exe = fusecc or find_fusecc()
    cmd = [exe] + [str(a) for a in args]
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise FuseccError(f"cannot run {exe}: {e}", cmd) from None
    if p.returncode == 0:
        return p.stderr
    err = p.stderr.rstrip("\n")
    if p.returncode == 1:
        raise CompileError(err, cmd, 1, p.stderr)
    what = {2: "bad command line", 70: "internal error"}.get(p.returncode, f"exit status {p.returncode}")
    raise FuseccError(f"fusecc: {what}: {err}", cmd, p.returncode, p.stderr)


def compile(source, output, flags=(), emit=None, depfile=None, fusecc=None):
    """fusecc [flags] SOURCE -o OUTPUT [--emit=EMIT] [-MD -MF DEPFILE]. Returns fusecc's
    warnings (text, possibly empty)."""
    args = list(flags) + [source, "-o", output]
    if emit:
        args.append(f"--emit={emit}")
    if depfile:
        args += ["-MD", "-MF", depfile]
    return run(args, fusecc)


_include_dirs = {}


def include_dir(fusecc=None):
    """fusecc --print-include-dir: the -I that its .cu files need."""
    exe = fusecc or find_fusecc()
    if exe not in _include_dirs:
        _include_dirs[exe] = subprocess.run([exe, "--print-include-dir"], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
    return _include_dirs[exe]


def __getattr__(name):
    # `import fusecc` then fusecc.torch: the submodule is imported when first used, so that
    # importing fusecc never needs PyTorch.
    if name == "torch":
        import importlib
        return importlib.import_module(__name__ + ".torch")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
