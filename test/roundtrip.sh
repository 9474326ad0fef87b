#!/bin/sh
# roundtrip.sh FUSECC GEN: for each line of test/roundtrip/sizes ("path/input NAME=V ..."),
# builds the input's original and fused C into one harness and compares their outputs.
set -u
fusecc=$1
gen=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
pass=0
fail=0
built=""
while read -r input sizes; do
	case "$input" in '' | '#'*) continue ;; esac
	src=$input.c
	sample=$(echo "$input" | tr / _)
	if ! echo "$built" | grep -qw "$sample"; then
		if ! "$fusecc" "$src" -o "$tmp/$sample.fused.c" ||
			! "$gen" "$src" >"$tmp/$sample.harness.c" ||
			! $CC -std=c11 -O1 -Iinclude -Wno-unknown-pragmas "$tmp/$sample.harness.c" "$src" "$tmp/$sample.fused.c" -lm -o "$tmp/$sample.run"; then
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
done <test/roundtrip/sizes
echo "roundtrip: $pass passed, $fail failed"
[ "$fail" = 0 ]
