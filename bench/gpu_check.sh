#!/bin/sh
# gpu_check.sh: on the GPU machine. For every generated kernel in build/gpu/ (made on the
# development machine by `make gpu-prep`), builds a harness that runs the original C on the
# CPU and <fn>_launch on the GPU on the same random inputs (outputs poisoned with NaN on
# both sides; NaN never passes), for the sizes in test/roundtrip/sizes, then runs
# compute-sanitizer on the smallest sizes. Prints one line per check and a closing count.
set -u
ARCH=${ARCH:-sm_90a}
out=${OUT:-/tmp}/gpu_check
mkdir -p "$out"
pass=0
fail=0
for cu in build/gpu/*.cu; do
	name=$(basename "$cu" .cu)
	src=$(grep -l "" samples/$name.c test/fuse/$name.c 2>/dev/null | head -n 1)
	[ -n "$src" ] || continue
	if ! gcc -std=c11 -O2 -Iinclude -Wno-unknown-pragmas -c "$src" -o "$out/$name.orig.o" ||
		! nvcc -std=c++17 -O3 -arch=$ARCH -Iinclude -w "build/gpu/$name.harness.cu" "$cu" "$out/$name.orig.o" -o "$out/$name.run" 2>"$out/$name.nvcc"; then
		echo "FAIL $name: build"; cat "$out/$name.nvcc" | head -20
		fail=$((fail + 1))
		continue
	fi
	input=${src%.c}
	first=1
	grep "^$input " test/roundtrip/sizes | while read -r _ sizes; do
		# shellcheck disable=SC2086
		if timeout 300 "$out/$name.run" $sizes seed=7 >"$out/$name.log" 2>&1; then
			echo "ok   $name $sizes: $(grep -o 'max rel err [^ ]*' "$out/$name.log" | tr '\n' ' ')"
		else
			echo "FAIL $name $sizes"; tail -5 "$out/$name.log"
		fi
		if [ $first = 1 ]; then
			first=0
			# shellcheck disable=SC2086
			if compute-sanitizer --error-exitcode=9 "$out/$name.run" $sizes >"$out/$name.san" 2>&1; then
				echo "ok   $name $sizes: compute-sanitizer clean"
			else
				echo "FAIL $name $sizes: compute-sanitizer"; grep -m5 "=========" "$out/$name.san"
			fi
		fi
	done
done
