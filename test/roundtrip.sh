#!/bin/sh
# roundtrip.sh FUSECC GEN: for each line of test/roundtrip/sizes and test/zoo/sizes
# ("path/input NAME=V ..."), builds the input's original and fused C into one harness and
# compares their outputs. The original compiles as gcc's default GNU dialect does (M_LOG2E
# declared); fusecc's fused C must be standard C11. A zoo input that fusecc refuses (test/zoo/status says so, and
# test/zoo.sh checks that it still does) is skipped. ONLY="name ..." checks only the inputs
# whose names (without directory and .c) are listed.
set -u
fusecc=$1
gen=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
pass=0
fail=0
skip=0
built=""
while read -r input sizes; do
	case "$input" in '' | '#'*) continue ;; esac
	if [ -n "${ONLY:-}" ] && ! echo " $ONLY " | grep -q " $(basename "$input") "; then continue; fi
	src=$input.c
	sample=$(echo "$input" | tr / _)
	case "$input" in test/zoo/*)
		if grep -q "^$(basename "$input").fused.c: error" test/zoo/status; then skip=$((skip + 1)); continue; fi ;;
	esac
	if ! echo "$built" | grep -qw "$sample"; then
		if ! "$fusecc" "$src" -o "$tmp/$sample.fused.c" ||
			! "$gen" "$src" >"$tmp/$sample.harness.c" ||
			! $CC -std=c11 -O1 -Iinclude -Wno-unknown-pragmas -c "$tmp/$sample.fused.c" -o "$tmp/$sample.fused.o" ||
			! $CC -std=gnu11 -O1 -Iinclude -Wno-unknown-pragmas "$tmp/$sample.harness.c" "$src" "$tmp/$sample.fused.o" -lm -o "$tmp/$sample.run"; then
			echo "FAIL: $sample: could not build the harness"
			fail=$((fail + 1))
			continue
		fi
		built="$built $sample"
	fi
	# shellcheck disable=SC2086
	if "$tmp/$sample.run" $sizes >"$tmp/out" 2>&1; then
		pass=$((pass + 1))
	else
		echo "FAIL: $sample $sizes"
		cat "$tmp/out"
		fail=$((fail + 1))
	fi
done <<SIZES
$(cat test/roundtrip/sizes test/zoo/sizes)
SIZES
echo "roundtrip: $pass passed, $fail failed ($skip zoo lines of refused inputs skipped)"
[ "$fail" = 0 ]
