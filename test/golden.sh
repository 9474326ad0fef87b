#!/bin/sh
# golden.sh FUSECC: each sample's generated outputs against test/golden/, and each bad
# input in test/bad/ against its expected diagnostics (.err), exit status 1 and no output
# file left behind. UPDATE=1 rewrites the goldens instead (review the diff like code).
# In test/bad, files named c_*.c hold C errors whose wording is libclang's: only the
# location of the first error is compared for them (DESIGN §7).
set -u
fusecc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

for src in samples/*.c test/fuse/*.c; do
	name=$(basename "$src" .c)
	for kind in fused.c; do
		exp=test/golden/$name.$kind
		if ! "$fusecc" "$src" -o "$tmp/$name.$kind" 2>"$tmp/err"; then
			echo "FAIL: $src: fusecc failed"; cat "$tmp/err"; fail=$((fail + 1)); continue
		fi
		if [ "${UPDATE:-}" = 1 ]; then
			cp "$tmp/$name.$kind" "$exp"
		fi
		if diff -u "$exp" "$tmp/$name.$kind"; then pass=$((pass + 1)); else echo "FAIL: $exp"; fail=$((fail + 1)); fi
	done
done

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
