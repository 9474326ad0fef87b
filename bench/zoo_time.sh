#!/bin/sh
# zoo_time.sh: on the GPU machine, from the repository root, with build/gpu/ made by `make
# gpu-prep` on the development machine. Times each test/zoo input next to the operator it
# corresponds to (test/zoo/bench: `INPUT SIZES... | REFERENCE SIZES...`), both through
# the roundtrip_gen --gpu harness's time=N mode (the launcher run N times back to back
# after 3 warm-ups, CUDA events; the kernels' sum for a file of several functions).
# Prints one line per pair, then a table sorted by ratio = reference time / input time
# (>= 1: the input is as fast as its reference; issue #17 asks >= 0.8). The numbers are
# not checked here: bench/gpu_check.sh checks every input at the test sizes.
#   sh bench/zoo_time.sh      ITERS=20 ONLY="name ..." ARCH=sm_90a OUT=/tmp by default
set -u
ARCH=${ARCH:-sm_90a}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ITERS=${ITERS:-20}
ONLY=${ONLY:-}
out=${OUT:-/tmp}/zoo_time
mkdir -p "$out"
[ "${KEEP:-}" = 1 ] || : >"$out/cache"
. bench/harness_build.sh

pairs=$out/pairs
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' test/zoo/bench >"$pairs"
if [ -n "$ONLY" ]; then
	for n in $ONLY; do grep "^test/zoo/$n " "$pairs"; done >"$pairs.only"
	mv "$pairs.only" "$pairs"
fi
# Every program once, built in parallel, JOBS at a time (nproc by default: hundreds of nvcc at
# once exhaust the memory). KEEP=1 keeps programs an earlier run in the same OUT built, so a
# long list can be timed over several calls.
# (a for loop, not a pipeline into while: that runs in a subshell, whose jobs wait does not see)
JOBS=${JOBS:-$(nproc)}
running=0
for p in $(tr '|' '\n' <"$pairs" | awk 'NF { print $1 }' | sort -u); do
	n=$(basename "$p")
	[ "${KEEP:-}" = 1 ] && [ -f "$out/$n.cu.built" ] && continue
	[ -f "build/gpu/$n.cu" ] && [ -f "build/gpu/$n.harness.cu" ] || continue
	build_one "$p.c" "$n" cu &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait
		running=0
	fi
done
wait

# Microseconds of program $1 (a path without .c) at sizes $2..., or "-" with the reason on stderr.
time_of() {
	n=$(basename "$1")
	shift
	key="$n $*"
	hit=$(awk -v k="$key" -F'\t' '$1 == k { print $2 }' "$out/cache" 2>/dev/null)
	if [ -n "$hit" ]; then
		echo "$hit"
		return
	fi
	if [ ! -f "$out/$n.cu.built" ]; then
		echo "$n: not built" >&2
		echo -
		return
	fi
	# shellcheck disable=SC2068
	if ! timeout 300 "$out/$n.cu.run" $@ time="$ITERS" >"$out/$n.time" 2>&1; then
		echo "$n: $(tail -n 2 "$out/$n.time" | tr '\n' ' ')" >&2
		echo -
		return
	fi
	t=$(awk '/: time [0-9.]+ us$/ { t += $(NF - 1); n++ } END { if (n) printf "%.1f", t; else print "-" }' "$out/$n.time")
	printf '%s\t%s\n' "$key" "$t" >>"$out/cache"
	echo "$t"
}

table=$out/table
: >"$table"
while IFS='|' read -r a r; do
	# shellcheck disable=SC2086
	set -- $a
	in=$1
	shift
	ta=$(time_of "$in" "$@")
	# shellcheck disable=SC2086
	set -- $r
	ref=$1
	shift
	tr_=$(time_of "$ref" "$@")
	ratio=$(awk -v a="$ta" -v r="$tr_" 'BEGIN { if (a == "-" || r == "-" || a <= 0) print "-"; else printf "%.2f", r / a }')
	line=$(printf '%-52s %10s us  %-42s %10s us  %5s' "$(basename "$in")" "$ta" "$(basename "$ref")" "$tr_" "$ratio")
	echo "$line"
	echo "$line" >>"$table"
done <"$pairs"
echo
echo "input                                                 time          reference                                  time      ratio (ref/input)"
sort -k7,7g "$table" | awk '{ print } $7 != "-" { n++; if ($7 < 0.8) low++ } END { printf "%d timed, %d below 0.8\n", n, low }'
