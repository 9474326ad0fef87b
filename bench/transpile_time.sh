#!/bin/sh
# transpile_time.sh [FUSECC]: fusecc's time and peak memory on every sample and corpus input
# (to .cu, the costliest output: run-time head dims print one kernel set per value) next
# to `clang -fsyntax-only` on the same file, best of 3 runs each. A benchmark, not a test:
# it prints a table (ratio = fusecc / clang) and the worst ratio last; it never fails.
# Target (#17): within 4x of clang -fsyntax-only and under 150 MB on every input.
set -u
fusecc=${1:-build/fusecc}
clang=${CLANG:-$(command -v clang-16 || command -v clang)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# best TIME_S PEAK_KB of 3 runs of "$@"
best() {
	b=""
	for _ in 1 2 3; do
		/usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>&1
		t=$(tail -n 1 "$tmp/t" | cut -d' ' -f1)
		m=$(tail -n 1 "$tmp/t" | cut -d' ' -f2)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; bm=$m; fi
	done
	echo "$b $bm"
}
printf '%-36s %8s %8s %7s %8s\n' input fusecc clang ratio peakMB
worst=0
worst_in=""
for f in samples/*.c test/fuse/*.c test/zoo/*.c; do
	case $f in *.fused.c) continue ;; esac
	set -- $(best "$fusecc" -Wno-fallback "$f" -o "$tmp/out.cu")
	ft=$1 fm=$2
	set -- $(best "$clang" -fsyntax-only -Iinclude -Wno-unknown-pragmas "$f")
	ct=$1
	r=$(echo "scale=1; $ft / ($ct + 0.005)" | bc)
	printf '%-36s %7ss %7ss %6sx %8d\n' "$(basename "$f")" "$ft" "$ct" "$r" $((fm / 1024))
	if [ "$(echo "$r > $worst" | bc)" = 1 ]; then worst=$r; worst_in=$f; fi
done
echo "worst ratio: ${worst}x ($worst_in)"
