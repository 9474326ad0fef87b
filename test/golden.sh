#!/bin/sh
# golden.sh FUSECC: each sample's generated outputs against test/golden/, and each bad
# input in test/bad/ against its expected diagnostics (.err), exit status 1 and no output
# file left behind. UPDATE=1 rewrites the goldens instead (review the diff like code).
# In test/bad, files named c_*.c hold C errors whose wording is libclang's: only the
# location of the first error is compared for them (DESIGN §7). COMPILE=0 skips compiling
# the CUDA and HIP outputs (the sanitizer run: the same bytes were compiled by `make check`).
set -u
fusecc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# An output kind fusecc refuses for an input (the GPU printers, for some regions) has its
# diagnostics as the golden instead: test/golden/NAME.KIND.err.
for src in samples/*.c test/fuse/*.c; do
	case "$src" in *.fused.c) continue ;; esac # outputs of `make -C samples`
	name=$(basename "$src" .c)
	for kind in fused.c cu hip; do
		exp=test/golden/$name.$kind
		got=$tmp/$name.$kind
		if ! "$fusecc" "$src" -o "$got" 2>"$tmp/err"; then
			exp=$exp.err
			got=$tmp/$name.$kind.err
			cp "$tmp/err" "$got"
		fi
		if [ "${UPDATE:-}" = 1 ]; then
			rm -f "test/golden/$name.$kind" "test/golden/$name.$kind.err"
			cp "$got" "$exp"
		fi
		if diff -u "$exp" "$got"; then pass=$((pass + 1)); else echo "FAIL: $exp"; fail=$((fail + 1)); fi
	done
done

# The PyTorch extension (--emit=torch) of a few samples: fp16 attention, bf16 logits with
# int32 or int64 targets, an int argument and an index array, a run-time head dim (specialised).
for src in samples/attention.c samples/xent_index.c samples/xent_int64.c samples/paged_decode.c test/fuse/rtd_causal.c; do
	name=$(basename "$src" .c)
	exp=test/golden/${name}_torch.cpp
	got=$tmp/${name}_torch.cpp
	"$fusecc" "$src" -o "$got" 2>"$tmp/err" || cp "$tmp/err" "$got"
	[ "${UPDATE:-}" = 1 ] && cp "$got" "$exp"
	if diff -u "$exp" "$got"; then pass=$((pass + 1)); else echo "FAIL: $exp"; fail=$((fail + 1)); fi
done

# Every generated CUDA file compiles with nvcc for sm_80 and sm_90a (where nvcc exists).
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
HIPCC=$(command -v hipcc || true)
if [ "${COMPILE:-1}" = 0 ]; then NVCC="" HIPCC=""; echo "SKIP: COMPILE=0: CUDA and HIP files not compiled"; fi
if [ -n "$NVCC" ]; then
	for cu in "$tmp"/*.cu; do
		for arch in sm_80 sm_90a; do
			echo "$arch $cu"
		done
	done | xargs -P 2 -n 2 sh -c '"$0" -std=c++17 -arch=$1 -Iinclude -w -c "$2" -o "$2.$1.o" 2>"$2.$1.log" || { echo "FAIL: nvcc -arch=$1 $(basename "$2")"; cat "$2.$1.log"; }' "$NVCC" >"$tmp/nvcc.out"
	n=$(ls "$tmp"/*.cu | wc -l)
	if [ -s "$tmp/nvcc.out" ]; then cat "$tmp/nvcc.out"; fail=$((fail + 1)); else pass=$((pass + 1)); echo "nvcc: $n CUDA files compile for sm_80 and sm_90a"; fi
elif [ "${COMPILE:-1}" != 0 ]; then
	echo "SKIP: nvcc not found: CUDA files not compiled"
fi

# Every generated HIP file compiles with Debian's hipcc for gfx90a (CDNA2), warnings as
# errors. hipcc can compile without an AMD GPU; running the kernels needs one (none here).
if [ -n "$HIPCC" ]; then
	ls "$tmp"/*.hip | xargs -P 2 -n 1 sh -c '"$0" --offload-arch=gfx90a -std=c++17 -Iinclude -Werror -c "$1" -o "$1.o" >"$1.log" 2>&1 || { echo "FAIL: hipcc $(basename "$1")"; cat "$1.log"; }' "$HIPCC" >"$tmp/hipcc.out"
	n=$(ls "$tmp"/*.hip | wc -l)
	if [ -s "$tmp/hipcc.out" ]; then cat "$tmp/hipcc.out"; fail=$((fail + 1)); else pass=$((pass + 1)); echo "hipcc: $n HIP files compile for gfx90a"; fi
elif [ "${COMPILE:-1}" != 0 ]; then
	echo "SKIP: hipcc not found: HIP files not compiled"
fi

for src in test/bad/*.c; do
	name=$(basename "$src" .c)
	rm -f "$tmp/out.c"
	(cd test/bad && "$fusecc" "$name.c" -o "$tmp/out.c" 2>"$tmp/$name.err")
	status=$?
	ok=1
	if [ "$status" != 1 ]; then echo "FAIL: $src: exit status $status, expected 1"; ok=0; fi
	if [ -e "$tmp/out.c" ] || ls "$tmp"/out.c.tmp.* >/dev/null 2>&1; then echo "FAIL: $src: output file left behind"; ok=0; fi
	case "$name" in
	c_*) head -n 1 "$tmp/$name.err" | sed 's/: error: .*/: error:/' >"$tmp/$name.cmp" ;;
	*) cp "$tmp/$name.err" "$tmp/$name.cmp" ;;
	esac
	if [ "${UPDATE:-}" = 1 ]; then cp "$tmp/$name.cmp" "test/bad/$name.err"; fi
	if ! diff -u "test/bad/$name.err" "$tmp/$name.cmp"; then echo "FAIL: $src: diagnostics differ"; ok=0; fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done

echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
