#!/bin/sh
# rows_cpu.sh FUSECC GEN: runs on the CPU the CUDA and HIP kernels of every sample, test/fuse
# and test/zoo input that gets a CTA-per-row kernel (src/emit/emit_rows.c) and no tensor-core
# tiles, through test/cpu_emu/ (a block's threads are real threads, __syncthreads a
# barrier, warp exchanges emulated: testing only), with the harness of roundtrip_gen --gpu:
# every output against the float64 build of the original C, poisoned with NaN first, the
# launcher refusing a negative size and a misaligned array; every line of
# test/roundtrip/sizes and test/zoo/sizes. TSAN=1 builds under ThreadSanitizer, which
# reports two threads of a block touching an element with no barrier between them (slow:
# give ONLY). ONLY="name ...": those inputs only. Needs clang++ (C++20, _Float16).
set -u
fusecc=$1
gen=$2
CXX=${CXX:-$(command -v clang++-16 || command -v clang++ || echo c++)}
ONLY=${ONLY:-}
san=
[ "${TSAN:-}" = 1 ] && san="-fsanitize=thread -g"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for src in samples/*.c test/fuse/*.c test/zoo/*.c; do
	case $src in *.fused.c) continue ;; esac
	name=$(basename "$src" .c)
	if [ -n "$ONLY" ]; then case " $ONLY " in *" $name "*) ;; *) continue ;; esac; fi
	sizes=$(cat test/roundtrip/sizes test/zoo/sizes | grep "^${src%.c} " | sed "s|^${src%.c} *||")
	[ -n "$sizes" ] || continue
	# Inputs named in ONLY that are not run say why.
	skip() { [ -z "$ONLY" ] || echo "SKIP $name: $1"; }
	"$fusecc" -Wno-fallback "$src" -o "$tmp/$name.cu" 2>/dev/null || { skip "refused for CUDA"; continue; }
	grep -q 'lowering: one CTA' "$tmp/$name.cu" || { skip "no CTA-per-row kernel"; continue; }
	grep -q 'lowering: \(tensor-core\|matrix-core\)' "$tmp/$name.cu" && { skip "tensor-core kernels (not emulated)"; continue; }
	"$gen" --gpu "$src" >"$tmp/$name.harness.cu" || { echo "FAIL $name: harness"; fail=$((fail + 1)); continue; }
	flags=$(sed -n 's|^// ref64-flags: ||p' "$tmp/$name.harness.cu")
	# shellcheck disable=SC2086
	if ! gcc -std=gnu11 -O1 -Iinclude -Wno-unknown-pragmas -c "$src" -o "$tmp/$name.orig.o" ||
		! gcc -std=gnu11 -O1 -Iinclude -Wno-unknown-pragmas -include test/roundtrip/fp64.h $flags -c "$src" -o "$tmp/$name.ref64.o" ||
		! $CXX -std=c++20 -O1 -w -pthread $san -Itest/cpu_emu -Iinclude -x c++ -c "$tmp/$name.harness.cu" -o "$tmp/$name.harness.o"; then
		echo "FAIL $name: build"
		fail=$((fail + 1))
		continue
	fi
	for ext in cu hip; do
		"$fusecc" -Wno-fallback "$src" -o "$tmp/$name.$ext" 2>/dev/null || { echo "FAIL $name.$ext: fusecc"; fail=$((fail + 1)); continue; }
		# k<<<cfg>>>(args); is not C++.
		sed -E 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>]*>)?)<<<(.*)>>>\((.*)\);/emu::Launch(\3).run([\&] { \1(\4); });/' "$tmp/$name.$ext" >"$tmp/$name.$ext.cc"
		# shellcheck disable=SC2086
		if ! $CXX -std=c++20 -O1 -w -pthread $san -Itest/cpu_emu -Iinclude -c "$tmp/$name.$ext.cc" -o "$tmp/$name.$ext.o" 2>"$tmp/log" ||
			! $CXX -pthread $san "$tmp/$name.harness.o" "$tmp/$name.$ext.o" "$tmp/$name.orig.o" "$tmp/$name.ref64.o" -lm -o "$tmp/$name.$ext.run" 2>>"$tmp/log"; then
			echo "FAIL $name.$ext: build"
			head -20 "$tmp/log"
			fail=$((fail + 1))
			continue
		fi
		echo "$sizes" | while read -r s; do
			# shellcheck disable=SC2086
			if "$tmp/$name.$ext.run" $s seed=7 >"$tmp/out" 2>&1 && ! grep -q 'WARNING: ThreadSanitizer' "$tmp/out"; then
				echo "ok   $name.$ext $s: $(sed -n 's/^[^:]*: \([^:]*\): [0-9]* elements, max rel err vs fp64: gpu \([^ ]*\).*/\1 \2/p' "$tmp/out" | tr '\n' ' ')"
			else
				echo "FAIL $name.$ext $s"
				grep -v 'max rel err vs fp64' "$tmp/out" | head -20
			fi
		done
	done
done >"$tmp/results"
cat "$tmp/results"
pass=$(grep -c '^ok' "$tmp/results")
fail=$(grep -c '^FAIL' "$tmp/results")
echo "rows_cpu: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
