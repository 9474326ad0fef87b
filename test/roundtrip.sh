#!/bin/sh
# roundtrip.sh FUSECC GEN: for each line of test/roundtrip/sizes and test/zoo/sizes
# ("path/input NAME=V ..."), builds the input's original and fused C into one harness and
# compares their outputs. The original compiles as gcc's default GNU dialect does (M_LOG2E
# declared); fusecc's fused C must be standard C11. A zoo input that fusecc refuses (test/zoo/status says so, and
# test/zoo.sh checks that it still does) is skipped. ONLY="name ..." checks only the inputs
# whose names (without directory and .c) are listed; SIZES="file ..." reads other size files.
# Inputs run JOBS at a time (default: the number of CPUs); the report is in input order
# whatever JOBS is.
set -u

# One input, every size line of it: the worker that the main loop below runs JOBS at a time.
# Writes $RT_TMP/res/INDEX.out (messages) and INDEX.count ("pass fail skip").
if [ "${1:-}" = --one ]; then
	index=$2
	input=$3
	fusecc=$RT_FUSECC
	gen=$RT_GEN
	tmp=$RT_TMP
	res=$tmp/res/$index
	sample=$(echo "$input" | tr / _)
	awk -v i="$input" '$1 == i { $1 = ""; sub(/^ /, ""); print }' "$tmp/sizes" >"$tmp/$sample.sizes"
	lines=$(wc -l <"$tmp/$sample.sizes")
	case "$input" in test/zoo/*)
		if grep -q "^$(basename "$input").fused.c: error" test/zoo/status; then
			echo "0 0 $lines" >"$res.count"
			exit 0
		fi ;;
	esac
	CC=${CC:-cc}
	if ! "$fusecc" "$input.c" -o "$tmp/$sample.fused.c" ||
		! "$gen" "$input.c" >"$tmp/$sample.harness.c" ||
		! $CC -std=c11 -O1 -Iinclude -Wno-unknown-pragmas -c "$tmp/$sample.fused.c" -o "$tmp/$sample.fused.o" ||
		! $CC -std=gnu11 -O1 -Iinclude -Wno-unknown-pragmas "$tmp/$sample.harness.c" "$input.c" "$tmp/$sample.fused.o" -lm -o "$tmp/$sample.run"; then
		echo "FAIL: $sample: could not build the harness" >>"$res.out"
		echo "0 $lines 0" >"$res.count"
		exit 0
	fi
	pass=0
	fail=0
	while read -r sizes; do
		# shellcheck disable=SC2086
		if "$tmp/$sample.run" $sizes >"$tmp/$sample.log" 2>&1; then
			pass=$((pass + 1))
		else
			{ echo "FAIL: $sample $sizes"; cat "$tmp/$sample.log"; } >>"$res.out"
			fail=$((fail + 1))
		fi
	done <"$tmp/$sample.sizes"
	rm -f "$tmp/$sample".*
	echo "$pass $fail 0" >"$res.count"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/res"
# Size lines without comments or blanks; the inputs in the order they first appear.
grep -hv '^[[:space:]]*\(#\|$\)' ${SIZES:-test/roundtrip/sizes test/zoo/sizes} >"$tmp/sizes"
awk '!seen[$1]++ { print $1 }' "$tmp/sizes" | while read -r input; do
	if [ -n "${ONLY:-}" ] && ! echo " $ONLY " | grep -q " $(basename "$input") "; then continue; fi
	echo "$input"
done | awk '{ printf "%05d %s\n", NR, $0 }' >"$tmp/inputs"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
RT_FUSECC=$1 RT_GEN=$2 RT_TMP=$tmp xargs -P "$JOBS" -n 2 sh "$0" --one <"$tmp/inputs"
pass=0
fail=0
skip=0
while read -r index input; do
	[ -s "$tmp/res/$index.out" ] && cat "$tmp/res/$index.out"
	if [ -s "$tmp/res/$index.count" ]; then
		read -r p f s <"$tmp/res/$index.count"
	else
		echo "FAIL: $input: the round trip stopped before reporting"
		p=0 f=1 s=0
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + s))
done <"$tmp/inputs"
echo "roundtrip: $pass passed, $fail failed ($skip zoo lines of refused inputs skipped)"
[ "$fail" = 0 ]
