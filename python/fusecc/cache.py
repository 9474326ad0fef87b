"""The kernel cache behind fusecc.torch.load: one directory per build, named by a key of
everything the build reads, so that a second load is a lookup and any edit rebuilds.

The key of a build is the hash of
  - the source key: the C file's path and contents, the flags, the fusecc binary (path,
    size, modification time), the contents of fusecc's headers (the .cu includes them),
    and the caller's context (PyTorch's version, the CUDA flags);
  - every file the C file includes, path and contents: the list fusecc's -MD wrote the
    last time this source key was built, kept in a manifest (manifest/<source key>).
A lookup hashes the C file and the headers the manifest names, and finds the build
directory or not; a miss runs fusecc (which writes the new list) and hashes again. This is
make's rule with contents instead of times, as ccache's direct mode does it.

Nothing here needs PyTorch; fusecc.torch builds and loads what prepare() returns.
"""

import hashlib
import json
import os
import re
import shutil
import tempfile

from . import find_fusecc, include_dir, run

KEY_LEN = 16  # hex digits of a key in directory and library names


def default_root():
    """$FUSECC_CACHE_DIR, else $XDG_CACHE_HOME/fusecc, else ~/.cache/fusecc."""
    env = os.environ.get("FUSECC_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fusecc")


def parse_depfile(text):
    """The prerequisites of the first rule of a make dependency file (fusecc -MD): names
    unescaped (backslash-space, backslash-#, $$), continuation lines joined."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    rule = text.split("\n", 1)[0]
    words, cur, i, in_target = [], [], 0, True
    while i < len(rule):
        c = rule[i]
        if c == "\\" and i + 1 < len(rule) and rule[i + 1] in " #\\":
            cur.append(rule[i + 1])
            i += 2
            continue
        if c == "$" and i + 1 < len(rule) and rule[i + 1] == "$":
            cur.append("$")
            i += 2
            continue
        if in_target and c == ":" and (i + 1 == len(rule) or rule[i + 1] in " \t"):
            in_target, cur = False, []
            i += 1
            continue
        if c in " \t":
            if cur and not in_target:
                words.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if cur and not in_target:
        words.append("".join(cur))
    return words


def _hash(*parts):
    h = hashlib.sha256()
    for p in parts:
        b = p if isinstance(p, bytes) else str(p).encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def file_digest(path):
    """sha256 of a file's contents, or None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


_tool_ids = {}


def tool_id(fusecc):
    """What identifies a fusecc and its headers: the binary's path, size and modification
    time, and the contents of every file in its include directory."""
    real = os.path.realpath(fusecc)
    st = os.stat(real)
    stamp = (real, st.st_size, st.st_mtime_ns)
    if stamp not in _tool_ids:
        inc = include_dir(fusecc)
        parts = [real, st.st_size, st.st_mtime_ns, inc]
        for name in sorted(os.listdir(inc)):
            parts += [name, file_digest(os.path.join(inc, name)) or ""]
        _tool_ids[stamp] = _hash(*parts)
    return _tool_ids[stamp]


def source_key(source, flags, context, fusecc):
    """The hash of the C file (absolute path and contents), the flags, the tool and the
    caller's context strings."""
    with open(source, "rb") as f:
        text = f.read()
    return _hash("source", os.path.abspath(source), text, tool_id(fusecc), *["flag:" + f for f in flags], *["ctx:" + c for c in context])


def build_key(skey, deps):
    """The key of a build: the source key and each dependency's path and contents; None
    when one of them is gone (a removed header: the manifest is stale)."""
    parts = ["build", skey]
    for d in deps:
        dig = file_digest(d)
        if dig is None:
            return None
        parts += [d, dig]
    return _hash(*parts)


def _manifest_path(root, skey):
    return os.path.join(root, "manifest", skey + ".json")


def read_manifest(root, skey):
    """The dependency list recorded for a source key, or None."""
    try:
        with open(_manifest_path(root, skey)) as f:
            deps = json.load(f)["deps"]
        return deps if isinstance(deps, list) and all(isinstance(d, str) for d in deps) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_manifest(root, skey, deps):
    path = _manifest_path(root, skey)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump({"deps": deps}, f, indent=1)
    os.replace(tmp, path)


def stem_of(source):
    """The C file's base name as an identifier: attention.c -> attention."""
    base = os.path.basename(source)
    if base.endswith(".c"):
        base = base[:-2]
    return re.sub(r"[^A-Za-z0-9_]", "_", base) or "kernel"


_OP_DEF = re.compile(r'^\s*m\.def\("([A-Za-z_][A-Za-z0-9_]*)\(', re.M)


def ops_of(torch_cpp):
    """The operator names a generated _torch.cpp defines (its m.def lines)."""
    with open(torch_cpp) as f:
        return _OP_DEF.findall(f.read())


class Prepared:
    """A build directory with the generated sources: key, dir, cu, cpp, library (the
    extension's name), ops (the operator names), built (whether the library is there
    from an earlier build), warnings (fusecc's, when it ran)."""

    def __init__(self, key, dir, stem, warnings=""):
        self.key = key
        self.dir = dir
        self.cu = os.path.join(dir, stem + ".cu")
        self.cpp = os.path.join(dir, stem + "_torch.cpp")
        self.library = f"fusecc_{stem}_{key[:KEY_LEN]}"
        self.so = os.path.join(dir, self.library + ".so")
        self.ops = ops_of(self.cpp)
        self.warnings = warnings

    @property
    def built(self):
        return os.path.exists(os.path.join(self.dir, "built")) and os.path.exists(self.so)

    def mark_built(self):
        with open(os.path.join(self.dir, "built"), "w") as f:
            f.write(self.library + ".so\n")


def _dir_for(root, stem, key):
    return os.path.join(root, f"{stem}-{key[:KEY_LEN]}")


def prepare(source, flags=(), root=None, context=(), fusecc=None):
    """Finds or makes the build directory of `source` compiled with `flags`: on a hit,
    nothing runs; on a miss, fusecc writes STEM.cu (with -MD) and STEM_torch.cpp into a
    fresh directory, which is then named by the build key. Raises CompileError with
    fusecc's diagnostics when the input has errors. Relative paths in the flags are
    relative to the current directory, as on a command line."""
    fusecc = fusecc or find_fusecc()
    root = os.path.abspath(root or default_root())
    source = os.path.abspath(source)
    flags = [str(f) for f in flags]
    stem = stem_of(source)
    skey = source_key(source, flags, context, fusecc)
    deps = read_manifest(root, skey)
    key = build_key(skey, deps) if deps else None
    if key and os.path.exists(os.path.join(_dir_for(root, stem, key), stem + "_torch.cpp")):
        return Prepared(key, _dir_for(root, stem, key), stem)
    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f".{stem}-", dir=root)
    try:
        cu = os.path.join(tmp, stem + ".cu")
        warnings = run(flags + [source, "-o", cu, "-MD", "-MF", os.path.join(tmp, stem + ".d")], fusecc)
        run(flags + ["-Wno-fallback", source, "--emit=torch", "-o", os.path.join(tmp, stem + "_torch.cpp")], fusecc)
        with open(os.path.join(tmp, stem + ".d")) as f:
            deps = [os.path.abspath(d) for d in parse_depfile(f.read())]
        key = build_key(skey, deps)
        if key is None:
            raise OSError(f"a file {source} includes changed while fusecc ran: try again")
        final = _dir_for(root, stem, key)
        try:
            os.rename(tmp, final)
        except OSError:
            # Made by another process meanwhile (same key, same contents), or left by a
            # build that failed: a complete one is kept, an incomplete one replaced.
            if not os.path.exists(os.path.join(final, "built")):
                shutil.rmtree(final, ignore_errors=True)
                os.rename(tmp, final)
        write_manifest(root, skey, deps)
        return Prepared(key, final, stem, warnings)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prepare_generated(cu, torch_cpp, incdir, root=None, context=()):
    """The build directory of files fusecc generated elsewhere (STEM.cu, STEM_torch.cpp):
    keyed by their contents, the headers in incdir and the context; the two are copied in."""
    root = os.path.abspath(root or default_root())
    stem = stem_of(cu[:-3] + ".c" if cu.endswith(".cu") else cu)
    parts = ["generated", stem]
    for path in [cu, torch_cpp] + [os.path.join(incdir, n) for n in sorted(os.listdir(incdir))]:
        dig = file_digest(path)
        if dig is None:
            raise OSError(f"cannot read {path}")
        parts += [os.path.basename(path), dig]
    key = _hash(*parts, *["ctx:" + c for c in context])
    final = _dir_for(root, stem, key)
    if not os.path.exists(os.path.join(final, stem + "_torch.cpp")):
        os.makedirs(final, exist_ok=True)
        shutil.copyfile(cu, os.path.join(final, stem + ".cu"))
        shutil.copyfile(torch_cpp, os.path.join(final, stem + "_torch.cpp"))
    return Prepared(key, final, stem)


class lock:
    """An exclusive lock on one C file's builds in a cache (a file lock; nothing where
    fcntl is missing): two processes loading the same kernel build it once."""

    def __init__(self, root, stem):
        self.path = os.path.join(os.path.abspath(root or default_root()), f".lock-{stem}")
        self.f = None

    def __enter__(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.f = open(self.path, "w")
        try:
            import fcntl
            fcntl.flock(self.f, fcntl.LOCK_EX)
        except ImportError:
            pass
        return self

    def __exit__(self, *exc):
        self.f.close()  # closing releases the lock
        return False
