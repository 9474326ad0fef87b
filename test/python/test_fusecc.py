"""test_fusecc.py: python/fusecc without PyTorch: running fusecc, CompileError with its
diagnostics, the dependency-file parser, and the cache behind fusecc.torch.load (a second
prepare is a lookup that runs nothing; an edit of the C file or of an included header, or
other flags, prepare again). FUSECC names the binary (make check: build/fusecc).

    FUSECC=build/fusecc python3 -m unittest discover -s test/python -v
"""

import importlib.util
import os
import shutil
import stat
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import fusecc  # noqa: E402
from fusecc import cache  # noqa: E402

FUSECC = os.path.abspath(os.environ.get("FUSECC", os.path.join(ROOT, "build", "fusecc")))


class Tmp(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="fusecc-py-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path


class TestRun(Tmp):
    def test_compile_writes_the_output(self):
        out = os.path.join(self.tmp, "a.fused.c")
        warnings = fusecc.compile(os.path.join(ROOT, "samples", "attention.c"), out, fusecc=FUSECC)
        self.assertEqual(warnings, "")
        with open(out) as f:
            self.assertIn("void attention_fused(", f.read())

    def test_input_errors_raise_compile_error_with_locations(self):
        bad = os.path.join(ROOT, "test", "bad", "mean_abs_deviation.c")
        with self.assertRaises(fusecc.CompileError) as cm:
            fusecc.compile(bad, os.path.join(self.tmp, "x.fused.c"), fusecc=FUSECC)
        e = cm.exception
        self.assertEqual(e.returncode, 1)
        self.assertIn("mean_abs_deviation.c:15:4: error:", str(e))
        d = e.diagnostics[0]
        self.assertEqual((os.path.basename(d.file), d.line, d.col, d.severity), ("mean_abs_deviation.c", 15, 4, "error"))
        self.assertIsInstance(e, fusecc.FuseccError)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.fused.c")))

    def test_a_bad_command_line_is_not_a_compile_error(self):
        with self.assertRaises(fusecc.FuseccError) as cm:
            fusecc.run(["--no-such-option", "x.c"], fusecc=FUSECC)
        self.assertNotIsInstance(cm.exception, fusecc.CompileError)
        self.assertEqual(cm.exception.returncode, 2)
        self.assertIn("unknown option", str(cm.exception))

    def test_find_fusecc_follows_the_environment(self):
        old = os.environ.get("FUSECC")
        os.environ["FUSECC"] = "/some/fusecc"
        try:
            self.assertEqual(fusecc.find_fusecc(), "/some/fusecc")
        finally:
            if old is None:
                del os.environ["FUSECC"]
            else:
                os.environ["FUSECC"] = old

    def test_include_dir(self):
        self.assertTrue(os.path.isfile(os.path.join(fusecc.include_dir(FUSECC), "fusecc.h")))

    def test_fusecc_torch_is_imported_on_first_use(self):
        # Importing fusecc needs no PyTorch; fusecc.torch imports it when first used.
        self.assertNotIn("fusecc.torch", sys.modules)
        if importlib.util.find_spec("torch") is None:
            with self.assertRaises(ModuleNotFoundError) as cm:
                fusecc.torch
            self.assertEqual(cm.exception.name, "torch")


class TestDepfile(unittest.TestCase):
    def test_rules_and_escapes(self):
        text = "out.cu: \\\n src/a.c \\\n inc/my\\ header.h \\\n cost$$.h\n\ninc/my\\ header.h:\n"
        self.assertEqual(cache.parse_depfile(text), ["src/a.c", "inc/my header.h", "cost$.h"])

    def test_one_line_and_a_colon_in_a_target(self):
        self.assertEqual(cache.parse_depfile("C:/x/out.cu: a.c b.h\n"), ["a.c", "b.h"])

    def test_what_fusecc_writes(self):
        tmp = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(tmp, "my inc"))
            with open(os.path.join(tmp, "my inc", "h.h"), "w") as f:
                f.write("#define D 128\n")
            src = os.path.join(tmp, "k.c")
            with open(os.path.join(ROOT, "samples", "attention.c")) as f:
                text = f.read().replace("#define D 128 /* head dimension */", '#include "h.h"')
            with open(src, "w") as f:
                f.write(text)
            fusecc.compile(src, os.path.join(tmp, "k.fused.c"), ["-I", os.path.join(tmp, "my inc")], depfile=os.path.join(tmp, "k.d"), fusecc=FUSECC)
            with open(os.path.join(tmp, "k.d")) as f:
                deps = cache.parse_depfile(f.read())
            self.assertEqual(deps[0], src)
            self.assertIn(os.path.join(tmp, "my inc", "h.h"), deps)
        finally:
            shutil.rmtree(tmp)


class TestCache(Tmp):
    """prepare() through a wrapper that counts fusecc's runs."""

    def setUp(self):
        super().setUp()
        self.log = os.path.join(self.tmp, "runs")
        self.exe = self.write("fusecc-counting", f'#!/bin/sh\necho "$*" >>"{self.log}"\nexec "{FUSECC}" "$@"\n')
        os.chmod(self.exe, os.stat(self.exe).st_mode | stat.S_IXUSR)
        self.root = os.path.join(self.tmp, "cache")
        self.header = self.write("scale.h", "#define D 128\n")
        with open(os.path.join(ROOT, "samples", "attention.c")) as f:
            text = f.read().replace("#define D 128 /* head dimension */", '#include "scale.h"')
        self.src = self.write("attn.c", text)

    def runs(self):
        # fusecc --print-include-dir runs once per process for the tool's identity; count
        # the compilations only.
        if not os.path.exists(self.log):
            return 0
        with open(self.log) as f:
            return len([line for line in f if "--print-include-dir" not in line])

    def prepare(self, flags=(), context=("ctx",)):
        before = self.runs()
        p = cache.prepare(self.src, flags, self.root, context, self.exe)
        return p, self.runs() - before

    def test_second_prepare_runs_nothing(self):
        p1, n1 = self.prepare()
        self.assertEqual(n1, 2)  # the .cu (with -MD) and the _torch.cpp
        self.assertTrue(os.path.isfile(p1.cu) and os.path.isfile(p1.cpp))
        self.assertEqual(p1.ops, ["attention"])
        self.assertEqual(os.path.basename(p1.dir), "attn-" + p1.key[:cache.KEY_LEN])
        self.assertEqual(p1.library, "fusecc_attn_" + p1.key[:cache.KEY_LEN])
        self.assertFalse(p1.built)
        p2, n2 = self.prepare()
        self.assertEqual((n2, p2.key, p2.dir), (0, p1.key, p1.dir))

    def test_editing_the_header_prepares_again(self):
        p1, _ = self.prepare()
        with open(self.header, "a") as f:
            f.write("/* edited */\n")
        p2, n2 = self.prepare()
        self.assertEqual(n2, 2)
        self.assertNotEqual(p2.key, p1.key)
        p3, n3 = self.prepare()
        self.assertEqual((n3, p3.key), (0, p2.key))

    def test_editing_the_source_prepares_again(self):
        p1, _ = self.prepare()
        with open(self.src, "a") as f:
            f.write("/* edited */\n")
        p2, n2 = self.prepare()
        self.assertEqual(n2, 2)
        self.assertNotEqual(p2.key, p1.key)

    def test_flags_and_context_are_in_the_key(self):
        p1, _ = self.prepare()
        p2, n2 = self.prepare(flags=["-DUNUSED=1"])
        p3, n3 = self.prepare(context=("another torch",))
        self.assertEqual((n2, n3), (2, 2))
        self.assertEqual(len({p1.key, p2.key, p3.key}), 3)

    def test_a_removed_header_runs_fusecc_again(self):
        self.prepare()
        os.remove(self.header)
        with self.assertRaises(fusecc.CompileError):
            self.prepare()

    def test_errors_leave_nothing_behind(self):
        with open(self.src, "a") as f:
            f.write("int broken(\n")
        with self.assertRaises(fusecc.CompileError) as cm:
            self.prepare()
        self.assertIn("attn.c:", str(cm.exception))
        self.assertEqual([d for d in os.listdir(self.root) if not d.startswith(".lock")], [])

    def test_built_marker(self):
        p, _ = self.prepare()
        with open(p.so, "w") as f:
            f.write("")
        p.mark_built()
        self.assertTrue(self.prepare()[0].built)

    def test_generated_files(self):
        cu = os.path.join(self.tmp, "attention.cu")
        cpp = os.path.join(self.tmp, "attention_torch.cpp")
        fusecc.compile(os.path.join(ROOT, "samples", "attention.c"), cu, fusecc=FUSECC)
        fusecc.compile(os.path.join(ROOT, "samples", "attention.c"), cpp, fusecc=FUSECC)
        inc = fusecc.include_dir(FUSECC)
        p1 = cache.prepare_generated(cu, cpp, inc, self.root, ("ctx",))
        p2 = cache.prepare_generated(cu, cpp, inc, self.root, ("ctx",))
        self.assertEqual((p1.key, p1.ops), (p2.key, ["attention"]))
        with open(cpp, "a") as f:
            f.write("// edited\n")
        self.assertNotEqual(cache.prepare_generated(cu, cpp, inc, self.root, ("ctx",)).key, p1.key)


if __name__ == "__main__":
    unittest.main()
