#!/bin/sh
# tools.sh FUSECC: fusecc where users run kernels (docs/install.md, docs/cmake.md,
# docs/pytorch.md): --emit=torch on the command line; `make install` into a DESTDIR
# staging tree, the installed fusecc run from another directory (and after the tree is
# moved) with its headers found beside it, its .cu compiled with nvcc -I$(fusecc
# --print-include-dir), `make uninstall`; the CMake package from the source tree and from
# the install, samples/cmake built, a header edit regenerating the kernel (cmake and nvcc
# needed); python/fusecc's tests (python3 needed); the PyTorch extensions compiled against
# PyTorch's headers (only where PyTorch is installed). Prints `tools: N passed, M failed`.
set -u
fusecc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
no() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}
check() {
	_what=$1
	shift
	if "$@"; then ok; else no "$_what"; fi
}
has() { grep -q -e "$1" "$2"; }
cd "$root" || exit 1
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)

# ---- --emit=torch ----
"$fusecc" samples/attention.c --emit=torch -o - >"$tmp/a.stdout" 2>"$tmp/err"
check "--emit=torch -o - succeeds quietly" test ! -s "$tmp/err"
check "--emit=torch registers the operator" has '^	m.def("attention(Tensor q, Tensor k, Tensor v, float scale) -> Tensor");$' "$tmp/a.stdout"
"$fusecc" samples/attention.c -o "$tmp/x_torch.cpp"
check "-o X_torch.cpp is --emit=torch" cmp -s "$tmp/a.stdout" "$tmp/x_torch.cpp"
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$fusecc" "$root/samples/attention.c" --emit=torch -MD)
check "without -o, --emit=torch writes ./attention_torch.cpp, the same bytes from another directory" cmp -s "$tmp/a.stdout" "$tmp/cwd/attention_torch.cpp"
check "-MD next to a _torch.cpp: attention_torch.d" has '^attention_torch.cpp:' "$tmp/cwd/attention_torch.d"
printf '#include <math.h>\nvoid noout(int R, int C, const float x[R][C])\n{\n#pragma fuse kernel(noout) parallel(r)\n\tfor (int r = 0; r < R; r++) {\n\t\tfloat m = -INFINITY;\n\t\tfor (int c = 0; c < C; c++)\n\t\t\tm = fmaxf(m, x[r][c]);\n\t}\n}\n' >"$tmp/noout.c"
"$fusecc" "$tmp/noout.c" -o "$tmp/noout_torch.cpp" 2>"$tmp/err"
check "a function with no output array is refused for --emit=torch (status 1)" test $? = 1
check "... with a located error" has "noout.c:2:6: error: --emit=torch: 'noout' has no output array" "$tmp/err"
check "... and no output file" test ! -e "$tmp/noout_torch.cpp"
# Where PyTorch is installed: the extensions compile against its headers (syntax only).
TORCH_INC=$(python3 -c 'import torch.utils.cpp_extension as c; print(" ".join("-I" + p for p in c.include_paths()))' 2>/dev/null || true)
if [ -n "$TORCH_INC" ] && CUDA_INC=$(dirname "$(dirname "${NVCC:-/none}")")/include && [ -f "$CUDA_INC/cuda_runtime.h" ]; then
	for g in test/golden/*_torch.cpp; do
		# shellcheck disable=SC2086
		check "$g compiles against PyTorch's headers" c++ -std=c++17 -fsyntax-only $TORCH_INC -I"$CUDA_INC" "$g"
	done
else
	echo "SKIP: PyTorch (or CUDA's headers) not installed: the _torch.cpp goldens are not compiled"
fi

# ---- make install / uninstall into a staging tree ----
stage=$tmp/stage
make -s install DESTDIR="$stage" PREFIX=/opt/fusecc >"$tmp/install.log" 2>&1
check "make install DESTDIR=... PREFIX=/opt/fusecc" test $? = 0
p=$stage/opt/fusecc
for f in bin/fusecc include/fusecc/fusecc.h include/fusecc/fusecc_tile_cuda.h include/fusecc/fusecc_tile_hip.h \
	share/man/man1/fusecc.1 share/doc/fusecc/README.md share/doc/fusecc/docs/command-line.md share/doc/fusecc/docs/pytorch.md \
	share/cmake/fusecc/fusecc-config.cmake share/cmake/fusecc/fusecc-config-version.cmake \
	share/fusecc/python/fusecc/__init__.py share/fusecc/python/fusecc/torch.py share/fusecc/python/fusecc/cache.py; do
	check "installed: $f" test -f "$p/$f"
done
check "the installed version file names the version" has 'set(PACKAGE_VERSION "[0-9]*\.[0-9]*\.[0-9]*")' "$p/share/cmake/fusecc/fusecc-config-version.cmake"
if command -v groff >/dev/null 2>&1; then
	check "the man page formats without warnings" sh -c '[ -z "$(groff -man -Tutf8 -ww -z "$1" 2>&1)" ]' sh "$p/share/man/man1/fusecc.1"
fi
mkdir "$tmp/elsewhere"
cp samples/attention.c "$tmp/elsewhere/"
inc=$(cd "$tmp/elsewhere" && "$p/bin/fusecc" --print-include-dir)
check "the installed fusecc finds its headers beside it ($inc)" test "$inc" = "$p/include/fusecc"
(cd "$tmp/elsewhere" && "$p/bin/fusecc" attention.c -o attention.cu && "$p/bin/fusecc" attention.c -o attention.fused.c)
check "the installed fusecc compiles a sample from another directory" test -s "$tmp/elsewhere/attention.cu"
check "... to the same kernel as the source tree's" cmp -s "$tmp/elsewhere/attention.cu" test/golden/attention.cu
check "... and the same fused C" cmp -s "$tmp/elsewhere/attention.fused.c" test/golden/attention.fused.c
(cd "$tmp/elsewhere" && PATH="$p/bin:$PATH" fusecc attention.c -MMD -o a2.fused.c)
check "found on PATH, -MMD leaves the installed fusecc.h out as a system header" sh -c '! grep -q fusecc.h "$1"' sh "$tmp/elsewhere/a2.fused.d"
cp samples/xent_index.c "$tmp/elsewhere/"
(cd "$tmp/elsewhere" && "$p/bin/fusecc" xent_index.c -MD -o xent_index.fused.c)
check "-MD lists the installed fusecc.h a sample includes" has "^ $p/include/fusecc/fusecc.h" "$tmp/elsewhere/xent_index.fused.d"
if [ -n "$NVCC" ]; then
	(cd "$tmp/elsewhere" && "$NVCC" -std=c++17 -arch=sm_80 -w -I"$("$p/bin/fusecc" --print-include-dir)" -c attention.cu -o attention.o)
	check "nvcc -I\$(fusecc --print-include-dir) compiles the installed fusecc's kernel" test -s "$tmp/elsewhere/attention.o"
else
	echo "SKIP: nvcc not found: the installed fusecc's kernel is not compiled"
fi
# Relocatable: the whole tree moved elsewhere still finds its headers.
mv "$p" "$tmp/moved"
check "a moved install finds its headers" test "$("$tmp/moved/bin/fusecc" --print-include-dir)" = "$tmp/moved/include/fusecc"
(cd "$tmp/elsewhere" && "$tmp/moved/bin/fusecc" xent_index.c -o moved.fused.c)
check "a moved install compiles a sample that includes fusecc.h" test -s "$tmp/elsewhere/moved.fused.c"
mv "$tmp/moved" "$p"
# The in-tree build still uses the source tree's headers.
check "the in-tree fusecc prints the source tree's include/" test "$("$fusecc" --print-include-dir)" = "$root/include"
if command -v python3 >/dev/null 2>&1; then
	got=$(cd "$tmp" && env -u FUSECC PYTHONPATH="$p/share/fusecc/python" python3 -c 'import fusecc; print(fusecc.find_fusecc())')
	check "the installed Python package finds the installed fusecc ($got)" test "$got" = "$p/bin/fusecc"
fi

# ---- CMake ----
if command -v cmake >/dev/null 2>&1 && [ -n "$NVCC" ]; then
	cm="-DCMAKE_CUDA_COMPILER=$NVCC"
	# built LOG WHAT: passes when the configure-and-build before it succeeded, else shows LOG.
	built() {
		if [ "$_st" = 0 ]; then ok; else
			no "$2"
			tail -n 20 "$1"
		fi
	}
	cmake -S samples/cmake -B "$tmp/cm-tree" "$cm" -Dfusecc_DIR="$root/cmake" >"$tmp/cm1.log" 2>&1 &&
		cmake --build "$tmp/cm-tree" >>"$tmp/cm1.log" 2>&1
	_st=$?
	built "$tmp/cm1.log" "samples/cmake with the source tree's package (find_package(fusecc 0.1), fusecc_add_kernel) builds"
	check "... libkernels.a holds attention_launch and xent_index_launch" sh -c 'nm "$1" | grep -q " T attention_launch" && nm "$1" | grep -q " T xent_index_launch"' sh "$tmp/cm-tree/libkernels.a"
	check "... its attention.cu is the golden's" cmp -s "$tmp/cm-tree/fusecc/attention.cu" test/golden/attention.cu
	cmake -S samples/cmake -B "$tmp/cm-inst" "$cm" -DCMAKE_PREFIX_PATH="$p" >"$tmp/cm2.log" 2>&1 && cmake --build "$tmp/cm-inst" >>"$tmp/cm2.log" 2>&1
	_st=$?
	built "$tmp/cm2.log" "samples/cmake with the installed package (CMAKE_PREFIX_PATH) builds"
	check "... with the installed fusecc" has "^FUSECC_EXECUTABLE:FILEPATH=$p/bin/fusecc$" "$tmp/cm-inst/CMakeCache.txt"
	mkdir "$tmp/cm-v9src"
	sed 's/find_package(fusecc 0.1 REQUIRED)/find_package(fusecc 9.0 REQUIRED)/' samples/cmake/CMakeLists.txt >"$tmp/cm-v9src/CMakeLists.txt"
	cmake -S "$tmp/cm-v9src" -B "$tmp/cm-v9" "$cm" -Dfusecc_DIR="$root/cmake" >"$tmp/cm3.log" 2>&1
	check "find_package(fusecc 9.0) refuses version 0.1" sh -c '[ $1 != 0 ] && grep -q "version" "$2"' sh $? "$tmp/cm3.log"
	# A header the kernel includes: editing it regenerates the kernel, once (DEPFILE).
	h=$tmp/cm-hdr
	mkdir "$h"
	printf 'cmake_minimum_required(VERSION 3.20)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nproject(h LANGUAGES CXX CUDA)\nfind_package(fusecc REQUIRED)\nadd_library(k STATIC)\nfusecc_add_kernel(k sm.c TARGETS cuda FLAGS -Iinc)\n' >"$h/CMakeLists.txt"
	mkdir "$h/inc"
	printf '/* rows.h */\n' >"$h/inc/rows.h"
	{
		echo '#include "rows.h"'
		cat samples/safe_softmax.c
	} >"$h/sm.c"
	cmake -S "$h" -B "$h/b" "$cm" -Dfusecc_DIR="$root/cmake" >"$tmp/cm4.log" 2>&1 && cmake --build "$h/b" >>"$tmp/cm4.log" 2>&1
	_st=$?
	built "$tmp/cm4.log" "a kernel whose C file includes a header (FLAGS -Iinc) builds"
	check "... its dependency file lists the header" has "^ $h/inc/rows.h" "$h/b/fusecc/sm.cu.d"
	sleep 1
	touch "$tmp/marker"
	sleep 1
	printf '/* rows.h, edited */\n' >"$h/inc/rows.h"
	cmake --build "$h/b" >"$tmp/cm5.log" 2>&1
	check "editing the header regenerates the kernel" test "$h/b/fusecc/sm.cu" -nt "$tmp/marker"
	cmake --build "$h/b" >"$tmp/cm6.log" 2>&1
	check "... and a third build does nothing" sh -c '! grep -q "fusecc.*sm.cu" "$1"' sh "$tmp/cm6.log"
	check "fusecc_add_kernel refuses an unknown kind" sh -c 'cd "$1" && sed "s/TARGETS cuda/TARGETS opencl/" CMakeLists.txt >c && mv c CMakeLists.txt && ! cmake -S . -B b2 "$2" -Dfusecc_DIR="$3" >log 2>&1 && grep -q "unknown target kind .opencl." log' sh "$h" "$cm" "$root/cmake"
else
	echo "SKIP: cmake or nvcc not found: the CMake package is not tested"
fi

make -s uninstall DESTDIR="$stage" PREFIX=/opt/fusecc >"$tmp/uninstall.log" 2>&1
check "make uninstall" test $? = 0
left=$(find "$stage" -type f | head -n 5)
check "make uninstall leaves no file behind${left:+ (left: $left)}" test -z "$left"

# ---- python/fusecc ----
if command -v python3 >/dev/null 2>&1; then
	if FUSECC="$fusecc" python3 -m unittest discover -s test/python >"$tmp/py.log" 2>&1; then ok; else
		no "python/fusecc's tests (test/python)"
		cat "$tmp/py.log"
	fi
else
	echo "SKIP: python3 not found: python/fusecc is not tested"
fi
# pip install ./python: the package metadata (an sdist, which needs no wheel package), and
# a real install where pip can build offline (setuptools and wheel present).
v=$(sed -n 's/^#define FUSECC_VERSION "\(.*\)"/\1/p' src/version.h)
check "python/pyproject.toml has fusecc's version ($v)" has "^version = \"$v\"$" python/pyproject.toml
check "the man page names fusecc's version" has "^\.TH FUSECC 1 .* \"fusecc $v\"" docs/fusecc.1
check "fusecc.__version__ is fusecc's version" has "^__version__ = \"$v\"$" python/fusecc/__init__.py
if python3 -c 'import setuptools.build_meta' 2>/dev/null; then
	cp -r python "$tmp/py"
	(cd "$tmp/py" && python3 -c 'from setuptools import build_meta as b; b.build_sdist("dist")' >"$tmp/sdist.log" 2>&1)
	check "python/ makes an sdist with the package's modules" sh -c 'tar tzf "$1"/dist/fusecc-"$2".tar.gz | grep -q "fusecc/torch.py$"' sh "$tmp/py" "$v"
	if python3 -c 'import wheel' 2>/dev/null; then
		python3 -m pip install -q --no-build-isolation --no-deps --target "$tmp/pip" "$tmp/py" >"$tmp/pip.log" 2>&1
		check "pip install ./python" sh -c 'cd / && PYTHONPATH="$1" python3 -c "import fusecc.cache"' sh "$tmp/pip"
	else
		echo "SKIP: no wheel package: pip install ./python is not tried"
	fi
fi

echo "tools: $pass passed, $fail failed"
[ "$fail" = 0 ]
