#!/bin/sh
# zoo.sh FUSECC: the natural-input corpus (test/zoo/*.c, written as different people port
# attention and row reductions from PyTorch). For each input and output kind, what fusecc
# does: the tile lowering ("tile"), one CTA per row ("rows"), one thread per row where the
# rows hold no loop ("elementwise": a gather), the one-thread-per-row fallback (naming the
# kernels that fall back, with the reason), or a refusal (its first line). The table is compared
# with test/zoo/status (diff -u); UPDATE=1 rewrites it. The numbers are checked elsewhere:
# the fused C against the original by roundtrip.sh (test/zoo/sizes), the kernels on the
# GPU machine by bench/gpu_check.sh. KINDS="cu ..." checks only those output kinds (the
# sanitizer run); inputs run JOBS at a time (default: the number of CPUs).
set -u
kinds=${KINDS:-fused.c cu hip}

# One input, every kind: the worker that the main loop below runs JOBS at a time; prints
# the input's status lines.
if [ "${1:-}" = --one ]; then
	fusecc=$ZOO_FUSECC
	src=$2
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	name=$(basename "$src" .c)
	for kind in $kinds; do
		if "$fusecc" -Wno-fallback "$src" -o "$tmp/out.$kind" 2>"$tmp/err"; then
			if [ "$kind" = fused.c ]; then
				st=ok
			else
				# One "lowering:" comment per kernel, after the kernel's schedule echo.
				fb=$(awk '/^\/\* kernel/ { k = "" } /^__global__/ { if (fb != "") { n = $0; sub(/^.*__launch_bounds__\([A-Za-z0-9_]+( \* fx::cta_rows\([A-Za-z0-9_]+\))?\) /, "", n); sub(/\(.*/, "", n); sub(/_kernel$/, "", n); print n ": " fb } fb = "" }
					/lowering: one thread per row/ { fb = "fallback" } /lowering: element-wise/ { fb = "elementwise" } /lowering: one CTA (of [0-9]* threads )?per row/ { fb = "rows" } /no tile lowering:/ { r = $0; sub(/.*no tile lowering: /, "", r); sub(/\) \*\/$/, "", r); fb = "fallback (" r ")" }' "$tmp/out.$kind" | sort -u)
				if [ -z "$fb" ]; then st=tile
				elif ! echo "$fb" | grep -qv ': rows$'; then st=rows
				elif ! echo "$fb" | grep -qv ': elementwise$'; then st=elementwise
				elif ! echo "$fb" | grep -qv ': rows$\|: elementwise$'; then st="rows; elementwise"
				else st="fallback: $(echo "$fb" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"; fi
			fi
		else
			st="error: $(head -n 1 "$tmp/err" | sed 's/^[^ ]*: error: //')"
		fi
		printf '%s.%s: %s\n' "$name" "$kind" "$st"
	done
	exit 0
fi

fusecc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/st"
ls test/zoo/*.c | ZOO_FUSECC=$fusecc xargs -P "${JOBS:-$(nproc 2>/dev/null || echo 2)}" -I{} sh -c 'sh "$0" --one "$1" >"$2/st/$(basename "$1" .c)"' "$0" {} "$tmp"
for src in test/zoo/*.c; do cat "$tmp/st/$(basename "$src" .c)"; done >"$tmp/status"
# The expected lines of the kinds checked.
pat=$(echo "$kinds" | sed 's/\./\\./g; s/ /\\|/g')
grep "\.\($pat\): " test/zoo/status >"$tmp/expected"
if [ "${UPDATE:-}" = 1 ]; then cp "$tmp/status" test/zoo/status && cp "$tmp/status" "$tmp/expected"; fi
if diff -u "$tmp/expected" "$tmp/status"; then
	echo "zoo: $(grep -c ': tile$' "$tmp/status") tile, $(grep -c ': rows$' "$tmp/status") rows, $(grep -c ': elementwise$\|: rows; elementwise$' "$tmp/status") elementwise, $(grep -c ': fallback' "$tmp/status") fallback, $(grep -c ': error' "$tmp/status") refused, $(grep -c 'fused.c: ok$' "$tmp/status") fused C of $(ls test/zoo/*.c | wc -l) inputs"
else
	echo "FAIL: test/zoo/status differs (UPDATE=1 sh test/zoo.sh $fusecc rewrites it; review the diff)"
	exit 1
fi
