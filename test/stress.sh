#!/bin/sh
# stress.sh FUSECC: fusecc on generated and hostile inputs: a 5 MB file, thousands of
# regions and statements, 200 nested loops, a long expression, long pragma lines, huge
# constants, random bytes, and files that cannot be read or written. Each case must end
# within 60 seconds with exit status 0 or 1 (an answer or an error about the input; never
# a crash), with the status the case expects where it expects one, and without leaving an
# output file behind on failure. Inputs are generated here, not committed. Prints
# `stress: N passed, M failed` last. STRESS_QUICK=1 makes the largest inputs smaller
# (for sanitizer builds); STRESS_VERBOSE=1 prints each case's status and time.
set -u
fusecc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$root" || exit 1
pass=0
fail=0
if [ "${STRESS_QUICK:-}" = 1 ]; then big=1000000 nregions=200; else big=5000000 nregions=1000; fi

no() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# run NAME WANT INPUT [ARGS...]: fusecc INPUT -o $tmp/out/NAME.c ARGS under a 60 s timeout.
# WANT is 0, 1, or "any" (0 or 1). Fails on a timeout, a crash (any other status), a status
# other than WANT, an error that is not fusecc's `file:line:col: error:` or `fusecc:
# error:` form, or an output file (or temporary) left behind by a failed run.
run() {
	name=$1
	want=$2
	input=$3
	shift 3
	out=$tmp/out/$name.c
	rm -rf "$tmp/out" && mkdir "$tmp/out"
	start=$(date +%s)
	timeout 60 "$fusecc" "$input" -o "$out" "$@" >"$tmp/$name.stdout" 2>"$tmp/$name.err"
	status=$?
	[ "${STRESS_VERBOSE:-}" = 1 ] && echo "$name: status $status, $(($(date +%s) - start)) s"
	case "$status" in
	0 | 1) ;;
	124) no "$name: no answer within 60 s"; return ;;
	*) no "$name: exit status $status (a crash)"; head -n 5 "$tmp/$name.err"; return ;;
	esac
	if [ "$want" != any ] && [ "$status" != "$want" ]; then
		no "$name: exit status $status, expected $want"
		head -n 5 "$tmp/$name.err"
		return
	fi
	if [ "$status" = 1 ]; then
		if [ -n "$(ls -A "$tmp/out")" ]; then no "$name: output file left behind"; return; fi
		if ! grep -Eq '(^fusecc|:[0-9]+:[0-9]+|^[^:]+): error: ' "$tmp/$name.err"; then
			no "$name: exit status 1 without an error message"
			head -n 5 "$tmp/$name.err"
			return
		fi
	fi
	pass=$((pass + 1))
}

# expect NAME TEXT: the last run's diagnostics mention TEXT.
expect() {
	if grep -Fq -e "$2" "$tmp/$1.err"; then pass=$((pass + 1)); else
		no "$1: diagnostics do not mention '$2'"
		head -n 5 "$tmp/$1.err"
	fi
}

# ---- large valid inputs ----

# $big bytes of plain C functions, then one region: the front end scans every token.
awk -v size="$big" 'BEGIN {
	print "#include <math.h>"
	for (k = 0; n < size; k++) {
		line = sprintf("static float helper_%d(float a, float b) { return a * %d.5f + b / (a + %d.0f); }\n", k, k % 97, k % 13 + 1)
		printf "%s", line
		n += length(line)
	}
	print "void f(int N, int M, const float x[N][M], float y[N])\n{"
	print "#pragma fuse kernel(big) parallel(i) rolling(j)"
	print "\tfor (int i = 0; i < N; i++) {\n\t\tfloat s = 0.0f;\n\t\tfor (int j = 0; j < M; j++)\n\t\t\ts += expf(x[i][j]);\n\t\ty[i] = s;\n\t}\n}"
}' >"$tmp/big.c"
run big_file 0 "$tmp/big.c"

# Many small regions, one per function.
awk -v n="$nregions" 'BEGIN {
	for (k = 0; k < n; k++) {
		printf "void f%d(int N, int M, const float x[N][M], float y[N])\n{\n", k
		printf "#pragma fuse kernel parallel(i) tile(i:%d)\n", k % 64 + 1
		printf "\tfor (int i = 0; i < N; i++) {\n\t\tfloat s = 0.0f;\n\t\tfor (int j = 0; j < M; j++)\n"
		printf "\t\t\ts += x[i][j] * %d.0f;\n\t\ty[i] = s;\n\t}\n}\n", k
	}
}' >"$tmp/regions.c"
run many_regions 0 "$tmp/regions.c"
run many_regions_cuda any "$tmp/regions.c" --emit=cuda

# Many functions whose regions are all refused: one error each, no crash.
awk 'BEGIN {
	for (k = 0; k < 500; k++)
		printf "void f%d(int N, float y[N])\n{\n#pragma fuse kernel parallel(i)\n\tfor (int i = 1; i < N; i *= 2)\n\t\ty[i] = 0.0f;\n}\n", k
}' >"$tmp/errors.c"
run many_errors 1 "$tmp/errors.c"

# A region nesting 200 loops: refused (the analysis would take minutes and gigabytes).
awk 'BEGIN {
	print "void f(int N, float y[N])\n{\n#pragma fuse kernel(deep) parallel(i0)"
	for (k = 0; k < 200; k++) printf "for (int i%d = 0; i%d < N; i%d++)\n", k, k, k
	print "y[i0] = 1.0f;\n}"
}' >"$tmp/deep.c"
run deep_loops 1 "$tmp/deep.c"
expect deep_loops "a region may nest at most"

# 2000 statements in one region: refused for the same reason.
awk 'BEGIN {
	print "void f(int N, const float x[N], float y[N])\n{\n#pragma fuse kernel(many) parallel(i)\n\tfor (int i = 0; i < N; i++) {"
	for (k = 0; k < 2000; k++) printf "\t\ty[i] = y[i] * 0.5f + x[i] * %d.0f;\n", k
	print "\t}\n}"
}' >"$tmp/statements.c"
run many_statements 1 "$tmp/statements.c"
expect many_statements "too large for the dependence analysis"

# 100 statements in one region: within the limits, answered.
awk 'BEGIN {
	print "void f(int N, const float x[N], float y[N])\n{\n#pragma fuse kernel(some) parallel(i)\n\tfor (int i = 0; i < N; i++) {"
	for (k = 0; k < 100; k++) printf "\t\ty[i] = y[i] * 0.5f + x[i] * %d.0f;\n", k
	print "\t}\n}"
}' >"$tmp/statements100.c"
run some_statements 0 "$tmp/statements100.c"

# Nested blocks deeper than C parsers allow (clang's bracket depth is 256).
awk 'BEGIN {
	print "void f(int N, float y[N])\n{\n#pragma fuse kernel(b) parallel(i)\n\tfor (int i = 0; i < N; i++)"
	for (k = 0; k < 300; k++) printf "{"
	printf "y[i] = 1.0f;"
	for (k = 0; k < 300; k++) printf "}"
	print "\n}"
}' >"$tmp/braces.c"
run deep_braces 1 "$tmp/braces.c"

# A 1000-term expression.
awk 'BEGIN {
	print "void f(int N, const float x[N], float y[N])\n{\n#pragma fuse kernel(e) parallel(i)\n\tfor (int i = 0; i < N; i++)"
	printf "\t\ty[i] = x[i]"
	for (k = 0; k < 1000; k++) printf " + x[i] * %d.0f", k % 10
	print ";\n}"
}' >"$tmp/expr.c"
run long_expression 0 "$tmp/expr.c"

# Machine-written sums: 4000 terms print (the operator of each is found from its left
# operand, not by a walk down the tree: linear); 15000 terms nest past the converter's
# limit and get a located error, not a crash of the stack.
for n in 4000 15000; do
	awk -v n=$n 'BEGIN {
		print "void f(int N, const float x[N], float y[N])\n{\n#pragma fuse kernel(e) parallel(i)\n\tfor (int i = 0; i < N; i++)"
		printf "\t\ty[i] = x[i]"
		for (k = 0; k < n; k++) printf " + x[i] * %d.0f", k % 10
		print ";\n}"
	}' >"$tmp/expr$n.c"
done
run long_expression_4000 0 "$tmp/expr4000.c"
run long_expression_15000 1 "$tmp/expr15000.c"
expect long_expression_15000 "expression nested more than 5000 deep"

# 5000 parenthesised levels (beyond clang's bracket depth).
awk 'BEGIN {
	print "void f(int N, const float x[N], float y[N])\n{\n#pragma fuse kernel(e) parallel(i)\n\tfor (int i = 0; i < N; i++)"
	printf "\t\ty[i] = "
	for (k = 0; k < 5000; k++) printf "("
	printf "x[i]"
	for (k = 0; k < 5000; k++) printf " + 1.0f)"
	print ";\n}"
}' >"$tmp/parens.c"
run deep_parentheses 1 "$tmp/parens.c"

# ---- long pragma lines and huge numbers ----
region() { # $1: the pragma lines
	printf 'void f(int N, int M, const float x[N][M], float y[N])\n{\n%s\n' "$1"
	printf '\tfor (int i = 0; i < N; i++) {\n\t\tfloat s = 0.0f;\n\t\tfor (int j = 0; j < M; j++)\n\t\t\ts += x[i][j];\n\t\ty[i] = s;\n\t}\n}\n'
}
region "#pragma fuse kernel(k) parallel($(awk 'BEGIN { for (k = 0; k < 5000; k++) printf "%sl%d", k ? ", " : "", k }'))" >"$tmp/long_pragma.c"
run long_pragma 1 "$tmp/long_pragma.c"
region "#pragma fuse kernel(k) parallel(i) tile($(awk 'BEGIN { for (k = 0; k < 5000; k++) printf "%si:%d", k ? ", " : "", k + 1 }'))" >"$tmp/repeated_tile.c"
run repeated_tile 1 "$tmp/repeated_tile.c"
region "$(awk 'BEGIN { printf "#pragma fuse kernel(k) parallel(i)\n"; for (k = 0; k < 2000; k++) printf "#pragma fuse tune(i:{%d})\n", k + 1 }')" >"$tmp/many_pragma_lines.c"
run many_pragma_lines 1 "$tmp/many_pragma_lines.c"
region "#pragma fuse kernel(k) parallel(i) tile(i:$(awk 'BEGIN { for (k = 0; k < 10000; k++) printf "9" }'))" >"$tmp/huge_tile.c"
run huge_tile 1 "$tmp/huge_tile.c"
expect huge_tile "is too large"
region "#pragma fuse kernel(k) parallel(i) tile(i:99999999999999999999)" >"$tmp/tile_2e20.c"
run tile_2e20 1 "$tmp/tile_2e20.c"
region "#pragma fuse kernel(k) parallel(i) tune(warps:{18446744073709551616}, stages:{4294967297})" >"$tmp/huge_tune.c"
run huge_tune 1 "$tmp/huge_tune.c"
region "#pragma fuse kernel($(awk 'BEGIN { for (k = 0; k < 100000; k++) printf "k" }')) parallel(i)" >"$tmp/long_name.c"
run long_kernel_name 0 "$tmp/long_name.c"
region "#pragma fuse kernel(k) parallel($(awk 'BEGIN { for (k = 0; k < 100000; k++) printf "q" }'))" >"$tmp/long_loop_name.c"
run long_loop_name 1 "$tmp/long_loop_name.c"
printf 'void f(int N, float y[N])\n{\n#pragma fuse kernel(k) parallel(i)\n\tfor (int i = 0; i < N; i++)\n\t\ty[i] = 99999999999999999999 + 1e999f + 0x1p99999;\n}\n' >"$tmp/huge_literals.c"
run huge_literals 1 "$tmp/huge_literals.c"
printf 'void f(int N, float y[N])\n{\n#pragma fuse kernel(k) parallel(i)\n\tfor (int i = 0; i < 2147483647; i++)\n\t\ty[i + 2147483647] = 3.4e38f * 3.4e38f;\n}\n' >"$tmp/int_max.c"
run int_max_bounds any "$tmp/int_max.c"
printf 'void f(int N, float y[N])\n{\n#pragma fuse kernel(k) parallel(i)\n\tfor (int i = -2147483647 - 1; i <= 2147483647; i++)\n\t\ty[i] = 0.0f;\n}\n' >"$tmp/int_range.c"
run int_full_range any "$tmp/int_range.c"

# ---- bytes that are not C ----
: >"$tmp/empty.c"
run empty_file 1 "$tmp/empty.c"
printf '\n\n\n' >"$tmp/newlines.c"
run only_newlines 1 "$tmp/newlines.c"
perl -e 'srand(1); print map { chr(int(rand(256))) } 1 .. 200000' >"$tmp/random.c"
run random_bytes 1 "$tmp/random.c"
perl -e 'srand(2); print map { chr(1 + int(rand(255))) } 1 .. 200000' >"$tmp/random_no_nul.c"
run random_bytes_no_nul 1 "$tmp/random_no_nul.c"
perl -e 'srand(3); my @t = ("#pragma fuse ", "kernel", "(", ")", "for", "int", "i", "=", "<", "++", ";", "{", "}", "[", "]", "float", "\n", ",", ":", "64", "tile", "parallel", "rolling", "splitk", "tune", "{4}", "void", "f", "N", "x", "+=", "expf", "#define ", "#if ", "#endif\n", "\\\n", "/*", "*/", "\"");
	print join(" ", map { $t[int(rand(@t))] } 1 .. 50000)' >"$tmp/token_soup.c"
run token_soup 1 "$tmp/token_soup.c"
{ cat samples/attention.c; printf '\0'; } >"$tmp/trailing_nul.c"
run trailing_nul 1 "$tmp/trailing_nul.c"
sed 's/$/\r/' samples/attention.c >"$tmp/crlf.c"
run crlf_line_ends 0 "$tmp/crlf.c"
head -c 1000 samples/attention.c >"$tmp/truncated.c"
run truncated_file 1 "$tmp/truncated.c"

# ---- files that cannot be read or written ----
run missing_input 1 "$tmp/no/such/file.c"
expect missing_input "fusecc: error: cannot read"
mkdir "$tmp/dir.c"
run input_is_directory 1 "$tmp/dir.c"
expect input_is_directory "fusecc: error: cannot read"
if [ "$(id -u)" != 0 ]; then
	cp samples/attention.c "$tmp/unreadable.c" && chmod 000 "$tmp/unreadable.c"
	run unreadable_input 1 "$tmp/unreadable.c"
	expect unreadable_input "fusecc: error: cannot read"
else
	echo "SKIP: unreadable_input (root reads any file)"
fi
# Output that cannot be written: status 1, `fusecc: error:`, no file (nor temporary) left.
outcase() { # NAME OUTPUT
	rm -f "$tmp/$1.err"
	timeout 60 "$fusecc" samples/attention.c -o "$2" 2>"$tmp/$1.err"
	status=$?
	if [ "$status" != 1 ]; then no "$1: exit status $status, expected 1"; head -n 5 "$tmp/$1.err"; return; fi
	if ! grep -q '^fusecc: error: ' "$tmp/$1.err"; then no "$1: no 'fusecc: error:' message"; head -n 5 "$tmp/$1.err"; return; fi
	pass=$((pass + 1))
}
outcase output_dir_missing /nonexistent/dir/x.c
if [ -e /nonexistent ]; then no "output_dir_missing: /nonexistent was created"; fi
mkdir "$tmp/outdir" "$tmp/outdir/x.c"
outcase output_is_directory "$tmp/outdir/x.c"
if [ -n "$(ls -A "$tmp/outdir/x.c")" ] || [ "$(ls -A "$tmp/outdir")" != x.c ]; then no "output_is_directory: files left behind"; fi
if [ "$(id -u)" != 0 ]; then
	mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
	outcase output_dir_read_only "$tmp/ro/x.c"
	if [ -n "$(ls -A "$tmp/ro")" ]; then no "output_dir_read_only: files left behind"; fi
else
	echo "SKIP: output_dir_read_only (root writes anywhere)"
fi

echo "stress: $pass passed, $fail failed"
[ "$fail" = 0 ]
