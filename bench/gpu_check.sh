#!/bin/sh
# gpu_check.sh: on the GPU machine, from the repository root. For every sample (samples/*.c,
# test/fuse/*.c, test/zoo/*.c) whose kernel is in build/gpu/ (made on the development machine by `make
# gpu-prep`), builds the harness from roundtrip_gen --gpu: it runs <fn>_launch on the GPU,
# the original C on the CPU and a float64 build of the original C (test/roundtrip/fp64.h)
# on the same random inputs, outputs poisoned with NaN before each run, and checks the GPU
# against the fp64 reference (NaN never passes; the launcher must refuse a negative size
# and an array one byte off its alignment).
# Every line of test/roundtrip/sizes (and test/zoo/sizes) runs once per seed in SEEDS; compute-sanitizer runs on
# every size with the first seed (SANITIZE=first: on the smallest size only). A sample
# without a kernel is a SKIP line, never silent. Prints one line per check, then a summary
# table as the last lines; exits 1 on any failure (or when nothing was checked).
# TARGETS: cu checks the .cu files; hip checks the .hip files, compiled by nvcc through
# bench/hip_on_cuda/ (HIP runtime calls spelled as CUDA's, 64-lane wavefronts and mfma
# emulated from their documented semantics): what fusecc prints for HIP, run on NVIDIA.
# ONLY: the samples to check, by name (ONLY="alibi_pf alibi_dc"); every sample when unset.
#   sh bench/gpu_check.sh  ARCH=sm_90a SEEDS="7 1234" SANITIZE=all TARGETS="cu hip" OUT=/tmp by default
set -u
ARCH=${ARCH:-sm_90a}
SEEDS=${SEEDS:-7 1234}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
# first: compute-sanitizer on each sample's first (smallest) size; all: on every size.
SANITIZE=${SANITIZE:-all}
TARGETS=${TARGETS:-cu hip}
ONLY=${ONLY:-}
# Whether sample $1 is among those to check.
wanted() { [ -z "$ONLY" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
out=${OUT:-/tmp}/gpu_check
mkdir -p "$out"
summary="$out/summary"
: >"$summary"
total_pass=0
total_fail=0
skipped=0

# One row of the summary table: sample, passed, failed, note.
row() { printf '%-20s %6s %6s  %s\n' "$1" "$2" "$3" "$4" >>"$summary"; }

# Kernels in build/gpu/ with no source: reported, not checked.
for cu in build/gpu/*.cu build/gpu/*.hip; do
	[ -e "$cu" ] || continue
	case $cu in *.harness.cu) continue ;; esac
	name=$(basename "$cu"); ext=${name##*.}; name=${name%.*}
	if [ ! -f "samples/$name.c" ] && [ ! -f "test/fuse/$name.c" ] && [ ! -f "test/zoo/$name.c" ]; then
		echo "SKIP $name: $cu has no source in samples/, test/fuse/ or test/zoo/"
		row "$name.$ext" - - "SKIP: no source"
		skipped=$((skipped + 1))
	fi
done

# build_one SRC NAME EXT: bench/harness_build.sh
. bench/harness_build.sh

# All builds at once (nvcc is slow; the GPU machine has cores to spare).
for ext in $TARGETS; do
	for src in samples/*.c test/fuse/*.c test/zoo/*.c; do
		case $src in *.fused.c) continue ;; esac
		name=$(basename "$src" .c)
		wanted "$name" && [ -f "build/gpu/$name.$ext" ] && [ -f "build/gpu/$name.harness.cu" ] && build_one "$src" "$name" "$ext" &
	done
done
wait

for ext in $TARGETS; do
for src in samples/*.c test/fuse/*.c test/zoo/*.c; do
	case $src in *.fused.c) continue ;; esac
	name=$(basename "$src" .c)
	wanted "$name" || continue
	cu=build/gpu/$name.$ext
	harness=build/gpu/$name.harness.cu
	run=$out/$name.$ext.run
	if [ ! -f "$cu" ]; then
		echo "SKIP $name.$ext: no $cu (not printable for the GPU yet, or make gpu-prep not run)"
		row "$name.$ext" - - "SKIP: no kernel"
		skipped=$((skipped + 1))
		continue
	fi
	pass=0
	fail=0
	# The fp64 reference's renames (-D<fn>=<fn>_ref64) are written into the harness.
	ref64_flags=$(sed -n 's|^// ref64-flags: ||p' "$harness" 2>/dev/null)
	if [ ! -f "$harness" ] || [ -z "$ref64_flags" ]; then
		echo "FAIL $name.$ext: build: $harness missing or stale (no ref64-flags line); rerun make gpu-prep"
		row "$name.$ext" 0 1 "FAIL: build"
		total_fail=$((total_fail + 1))
		continue
	fi
	if [ ! -f "$out/$name.$ext.built" ]; then
		echo "FAIL $name.$ext: build"
		cat "$out/$name.$ext.gcc" "$out/$name.$ext.nvcc" 2>/dev/null | head -20
		row "$name.$ext" 0 1 "FAIL: build"
		total_fail=$((total_fail + 1))
		continue
	fi
	cat test/roundtrip/sizes test/zoo/sizes 2>/dev/null | grep "^${src%.c} " | sed "s|^${src%.c} *||" >"$out/$name.sizes"
	if [ ! -s "$out/$name.sizes" ]; then
		echo "FAIL $name: no sizes for ${src%.c} in test/roundtrip/sizes"
		row "$name.$ext" 0 1 "FAIL: no sizes"
		total_fail=$((total_fail + 1))
		continue
	fi
	first=1
	while read -r sizes; do
		for seed in $SEEDS; do
			# shellcheck disable=SC2086
			timeout 300 "$run" $sizes seed=$seed >"$out/$name.log" 2>&1
			rc=$?
			# "fn: o: N elements, max rel err vs fp64: gpu E (tol T, at K), cpu original E2 (at K2)"
			# "fn: q: N codes, K one step apart" (bytes and fp8, against the fp32 original)
			errs=$(sed -n -e 's/^[^:]*: \([^:]*\): [0-9]* elements, max rel err vs fp64: /\1: /p' -e 's/^[^:]*: \([^:]*\): \([0-9]* codes, \)/\1: \2/p' "$out/$name.log" | tr '\n' ';' | sed 's/;$//')
			if [ $rc = 0 ]; then
				echo "ok   $name.$ext $sizes seed=$seed: $errs"
				pass=$((pass + 1))
			else
				echo "FAIL $name.$ext $sizes seed=$seed (exit $rc): $errs"
				grep -v 'max rel err vs fp64' "$out/$name.log" | tail -8
				fail=$((fail + 1))
			fi
		done
		if [ $first = 1 ] || [ "$SANITIZE" = all ]; then
			first=0
			seed=${SEEDS%% *}
			# shellcheck disable=SC2086
			"$SANITIZER" --error-exitcode=9 "$run" $sizes seed=$seed >"$out/$name.san" 2>&1
			rc=$?
			if [ $rc = 0 ]; then
				echo "ok   $name.$ext $sizes seed=$seed: compute-sanitizer clean"
				pass=$((pass + 1))
			else
				echo "FAIL $name.$ext $sizes seed=$seed: compute-sanitizer (exit $rc$([ $rc = 9 ] && echo ": errors found"))"
				grep -m5 "=========" "$out/$name.san" || tail -5 "$out/$name.san"
				fail=$((fail + 1))
			fi
		fi
	done <"$out/$name.sizes"
	row "$name.$ext" $pass $fail "$([ $fail = 0 ] || echo FAIL)"
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
done
done

echo
echo "== gpu_check summary (fp64 reference, seeds $SEEDS, $ARCH; .hip through bench/hip_on_cuda)${ONLY:+; only $ONLY}"
printf '%-20s %6s %6s\n' sample passed failed
cat "$summary"
printf '%-20s %6s %6s  %s\n' total $total_pass $total_fail "($skipped skipped)"
[ $total_fail = 0 ] && [ $((total_pass + total_fail)) -gt 0 ]
