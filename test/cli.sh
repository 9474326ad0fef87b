#!/bin/sh
# cli.sh FUSECC: end-to-end tests of fusecc's command line (docs/command-line.md): every
# option, the dependency files (-MD, -MMD, -MF, -MT, -MP), exit statuses, -fsyntax-only,
# determinism of every sample's output, stability of the output under a one-number edit
# of a pragma, and fusecc as a make step (samples/Makefile). Prints
# `cli: N passed, M failed` last and exits non-zero when something failed.
set -u
fusecc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
no() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	_what=$1
	shift
	if "$@"; then ok; else no "$_what"; fi
}
# status WANT DESCRIPTION COMMAND...: runs fusecc's command line with stdout in $tmp/out
# and stderr in $tmp/err; passes when the exit status is WANT.
status() {
	_want=$1
	_what=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	_got=$?
	if [ "$_got" = "$_want" ]; then
		ok
	else
		no "$_what: exit status $_got, expected $_want"
		sed 's/^/    /' "$tmp/err" | head -n 5
	fi
}
has() { grep -q -e "$1" "$2"; }
empty_dir() { [ -z "$(ls -A "$1")" ]; }
# changed A B: how many lines differ between A and B (the larger of the lines taken
# out of A and the lines put into B).
changed() {
	o=$(diff "$1" "$2" | grep -c '^<')
	i=$(diff "$1" "$2" | grep -c '^>')
	if [ "$o" -gt "$i" ]; then echo "$o"; else echo "$i"; fi
}

cd "$root" || exit 1
samples=
for f in samples/*.c; do
	case "$f" in *.fused.c) ;; *) samples="$samples $f" ;; esac
done

# ---- information options ----
status 0 "--version" "$fusecc" --version
check "--version: first line is 'fusecc X.Y.Z'" sh -c 'head -n 1 "$1" | grep -Eqx "fusecc [0-9]+\.[0-9]+\.[0-9]+"' sh "$tmp/out"
check "--version: the libclang version follows" sh -c 'sed -n 2p "$1" | grep -q "clang version"' sh "$tmp/out"
status 0 "--help" "$fusecc" --help
for opt in "-o FILE" "--emit=KIND" "-I DIR" "-D NAME" "-U NAME" "-std=" "-- ARGS" -fsyntax-only -MD -MMD "-MF FILE" \
	"-MT TARGET" -MP --line --no-line -Werror --print-include-dir --help-pragmas --version "Exit status"; do
	check "--help mentions '$opt'" has "$opt" "$tmp/out"
done
status 0 "-h" "$fusecc" -h
status 0 "--print-include-dir" "$fusecc" --print-include-dir
incdir=$(cat "$tmp/out")
check "--print-include-dir names the directory of fusecc.h" test -f "$incdir/fusecc.h"
status 0 "--help-pragmas" "$fusecc" --help-pragmas
check "--help-pragmas prints the directive reference" has '^# `#pragma fuse` directives' "$tmp/out"

# ---- exit statuses ----
status 2 "an unknown option" "$fusecc" --no-such-option samples/attention.c -o -
check "an unknown option is named" has "unknown option '--no-such-option'" "$tmp/err"
status 2 "a misspelt option" "$fusecc" -fsyntax-onyl samples/attention.c
check "a misspelt option gets a suggestion" has "did you mean '-fsyntax-only'" "$tmp/err"
status 2 "no input file" "$fusecc" -o -
status 2 "two input files" "$fusecc" samples/attention.c samples/causal_pf.c -o -
status 2 "-o with no file name" "$fusecc" samples/attention.c -o
status 2 "an output kind not known from the extension" "$fusecc" samples/attention.c -o "$tmp/x.txt"
status 2 "an unknown --emit kind" "$fusecc" samples/attention.c --emit=ptx -o -
status 2 "-MP without -MD" "$fusecc" samples/attention.c -MP -o "$tmp/x.c"
status 1 "a missing input file" "$fusecc" "$tmp/no-such-file.c" -o "$tmp/x.c"
check "a missing input file is named" has "cannot read '$tmp/no-such-file.c'" "$tmp/err"
status 1 "an input error" "$fusecc" test/bad/mean_abs_deviation.c -o "$tmp/bad.fused.c"
check "an input error leaves no output" test ! -e "$tmp/bad.fused.c"
check "an input error is located" has '^test/bad/mean_abs_deviation.c:15:4: error:' "$tmp/err"
status 1 "an output directory that does not exist" "$fusecc" samples/attention.c -o "$tmp/no/such/dir.fused.c"
status 0 "a good input" "$fusecc" samples/attention.c -o "$tmp/good.fused.c"
check "success is silent" test ! -s "$tmp/err"
status 0 "-Werror with no warnings" "$fusecc" -Werror samples/attention.c -o "$tmp/good2.fused.c"
# The input is never overwritten, even through a link or by the dependency file.
cp samples/attention.c "$tmp/self.c"
status 2 "the output is the input" "$fusecc" "$tmp/self.c" -o "$tmp/self.c"
ln -s self.c "$tmp/self-link.c"
status 2 "the output is a link to the input" "$fusecc" "$tmp/self.c" -o "$tmp/self-link.c"
status 2 "the dependency file is the input" "$fusecc" "$tmp/self.c" -o "$tmp/y.fused.c" -MD -MF "$tmp/self.c"
check "the input is left as it was" cmp -s samples/attention.c "$tmp/self.c"
status 2 "the dependency file would be the output" "$fusecc" samples/attention.c --emit=c -o "$tmp/z.d" -MD
# A crash is an internal error (70) and leaves no output: fusecc gets SIGSEGV while it
# reads its input from a pipe (opening the pipe's other end returns once fusecc has
# opened it: fusecc is in main, its signal handlers in place).
mkfifo "$tmp/pipe.c"
"$fusecc" "$tmp/pipe.c" -o "$tmp/crash.fused.c" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/pipe.c"
kill -SEGV "$pid"
wait "$pid"
st=$?
exec 3>&-
check "a crash exits with status 70 (got $st)" test "$st" = 70
check "a crash is reported as an internal error" has "internal error" "$tmp/err"
check "a crash leaves no output" sh -c '! ls "$1"/crash.fused.c* >/dev/null 2>&1' sh "$tmp"

# ---- output file and kind ----
"$fusecc" samples/attention.c --emit=c -o - >"$tmp/attn.stdout.c"
"$fusecc" samples/attention.c --emit=ir -o - >"$tmp/attn.stdout.ir"
check "-o - writes the fused C to standard output" has "^void attention_fused(" "$tmp/attn.stdout.c"
check "-o - writes the IR to standard output" has "^region attention:" "$tmp/attn.stdout.ir"
"$fusecc" samples/attention.c -o "$tmp/attn.fused.c"
check "-o X.c writes the fused C" cmp -s "$tmp/attn.stdout.c" "$tmp/attn.fused.c"
"$fusecc" samples/attention.c -o "$tmp/attn.ir"
check "-o X.ir writes the IR" cmp -s "$tmp/attn.stdout.ir" "$tmp/attn.ir"
"$fusecc" samples/attention.c --emit=ir -o "$tmp/attn2.c"
check "--emit wins over the extension" cmp -s "$tmp/attn.stdout.ir" "$tmp/attn2.c"
# CUDA and HIP: the extension and --emit agree, whether the printer accepts the input or not.
for pair in cu:cuda hip:hip; do
	ext=${pair%%:*}
	kind=${pair#*:}
	for src in samples/attention.c samples/causal_dc.c; do
		"$fusecc" "$src" --emit="$kind" -o - >"$tmp/k.stdout" 2>/dev/null
		s1=$?
		"$fusecc" "$src" -o "$tmp/k.$ext" 2>/dev/null
		s2=$?
		if [ "$s1" = 0 ]; then
			check "-o X.$ext is --emit=$kind ($src)" sh -c '[ "$1" = 0 ] && cmp -s "$2" "$3"' sh "$s2" "$tmp/k.stdout" "$tmp/k.$ext"
		else
			check "-o X.$ext fails as --emit=$kind does ($src)" sh -c '[ "$1" = "$2" ] && [ ! -e "$3" ]' sh "$s1" "$s2" "$tmp/k.$ext"
		fi
		rm -f "$tmp/k.$ext"
	done
done
# Without -o: the input's base name and the kind's extension, in the current directory.
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$fusecc" "$root/samples/attention.c" --emit=c && "$fusecc" "$root/samples/attention.c" --emit=ir)
check "without -o, --emit=c writes ./attention.fused.c" cmp -s "$tmp/attn.stdout.c" "$tmp/cwd/attention.fused.c"
check "without -o, --emit=ir writes ./attention.ir" cmp -s "$tmp/attn.stdout.ir" "$tmp/cwd/attention.ir"
check "without -o, nothing else is written" test "$(ls "$tmp/cwd" | wc -l)" = 2
# The output is replaced in one step; links are written through, pipes in place.
ln -s real.fused.c "$tmp/link.fused.c"
"$fusecc" samples/attention.c -o "$tmp/link.fused.c"
check "-o through a symbolic link keeps the link" test -L "$tmp/link.fused.c"
check "-o through a symbolic link writes its target" cmp -s "$tmp/attn.stdout.c" "$tmp/real.fused.c"
mkfifo "$tmp/out.pipe"
cat "$tmp/out.pipe" >"$tmp/from-pipe.c" &
pid=$!
"$fusecc" samples/attention.c --emit=c -o "$tmp/out.pipe"
if [ -p "$tmp/out.pipe" ]; then
	wait "$pid"
	ok
	check "-o a pipe writes the output into it" cmp -s "$tmp/attn.stdout.c" "$tmp/from-pipe.c"
else
	kill "$pid" 2>/dev/null
	no "-o a pipe replaced the pipe with a file (as it would /dev/null)"
fi
check "no temporary file is left" sh -c '! ls "$1"/*.tmp.* >/dev/null 2>&1' sh "$tmp"

# ---- --line / --no-line (off by default) ----
"$fusecc" samples/attention.c --no-line -o "$tmp/noline.fused.c"
check "--no-line is the default" cmp -s "$tmp/attn.stdout.c" "$tmp/noline.fused.c"
check "the default output has no #line" sh -c '! grep -q "#line" "$1"' sh "$tmp/attn.stdout.c"
status 0 "--line is accepted" "$fusecc" samples/attention.c --line -o "$tmp/line.fused.c"
# The accumulation `dot += ...` is on line 26 of the sample.
check "--line: #line points at the input's statements" sh -c 'grep -A1 "#line 26 \"samples/attention.c\"" "$1" | grep -q "dot +="' sh "$tmp/line.fused.c"
check "--line: the fused C with #line compiles" cc -std=c11 -Iinclude -c "$tmp/line.fused.c" -o "$tmp/line.o"
"$fusecc" samples/attention.c --line -o "$tmp/line.cu"
check "--line: the CUDA has #line too" grep -q '#line [0-9]* "samples/attention.c"' "$tmp/line.cu"

# ---- -fsyntax-only: parse, check, analyse; write nothing ----
mkdir "$tmp/so"
(cd "$tmp/so" && "$fusecc" -fsyntax-only "$root/samples/attention.c" >"$tmp/so.out" 2>"$tmp/so.err")
check "-fsyntax-only succeeds on a good input" test $? = 0
(cd "$tmp/so" && "$fusecc" -fsyntax-only "$root/samples/attention.c" -o attention.cu -MD >>"$tmp/so.out" 2>>"$tmp/so.err")
(cd "$tmp/so" && "$fusecc" -fsyntax-only "$root/samples/rmsnorm_matmul.c" -o - >>"$tmp/so.out" 2>>"$tmp/so.err")
check "-fsyntax-only writes no file, not even with -o and -MD" empty_dir "$tmp/so"
check "-fsyntax-only writes nothing to standard output or error" sh -c '[ ! -s "$1" ] && [ ! -s "$2" ]' sh "$tmp/so.out" "$tmp/so.err"
(cd "$tmp/so" && "$fusecc" -fsyntax-only "$root/test/bad/mean_abs_deviation.c" 2>"$tmp/so.err")
check "-fsyntax-only fails with status 1 on an input error" test $? = 1
check "-fsyntax-only reports the analysis' errors" has "cannot fuse the reduction into 'd'" "$tmp/so.err"
check "-fsyntax-only writes no file on an error" empty_dir "$tmp/so"

# ---- parser options: -I, -D, -U, -std=, -- ----
mkdir -p "$tmp/proj/inc"
cat >"$tmp/proj/p.c" <<'EOF'
/* p.c: a test input with headers of its own; it needs -I inc and -DWIDTH=N. */
#include <math.h>
#include "k.h"
#include "tag.h"
#ifndef WIDTH
#error "compile with -DWIDTH=N"
#endif
#ifdef NO
#error "NO must not be defined"
#endif
#if defined(NEED_C17) && __STDC_VERSION__ < 201710L
#error "compile with -std=c17"
#endif
void p(int R, const float x[R][WIDTH], float y[R])
{
#pragma fuse kernel(p) parallel(r) rolling(c) tile(c:4)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < WIDTH; c++)
			m = fmaxf(m, x[r][c]);
		float l = 0.0f;
		for (int c = 0; c < WIDTH; c++)
			l += expf(x[r][c] * SCALE - m * SCALE);
		y[r] = m * SCALE + logf(l) + TAG;
	}
}
EOF
printf '/* k.h: includes k2.h */\n#include "k2.h"\n' >"$tmp/proj/k.h"
printf '#define SCALE 0.5f\n' >"$tmp/proj/k2.h"
printf '#define TAG 0\n' >"$tmp/proj/inc/tag.h"
cd "$tmp/proj" || exit 1
status 0 "-I DIR -D NAME=V" "$fusecc" p.c -I inc -D WIDTH=24 --emit=c -o -
check "-D's value reaches the output" has "const float x\[R\]\[24\]" "$tmp/out"
status 0 "-Iinc -DNAME=V (glued)" "$fusecc" p.c -Iinc -DWIDTH=24 -o -
status 1 "a header not found without -I" "$fusecc" p.c -DWIDTH=24 -o -
check "the missing header is reported" has "'tag.h' file not found" "$tmp/err"
status 1 "a macro not defined without -D" "$fusecc" p.c -I inc -o -
status 1 "-D NO" "$fusecc" p.c -I inc -DWIDTH=24 -DNO -o -
status 0 "-U after -D, in order" "$fusecc" p.c -I inc -DWIDTH=24 -DNO -U NO -o -
status 1 "the default standard (C11)" "$fusecc" p.c -I inc -DWIDTH=24 -DNEED_C17 -o -
status 0 "-std=c17" "$fusecc" p.c -I inc -DWIDTH=24 -DNEED_C17 -std=c17 -o -
status 0 "-- passes the rest to the parser" "$fusecc" p.c -o - -- -Iinc -DWIDTH=24 -std=c17 -DNEED_C17

# ---- dependency files ----
# A test input with headers of its own: -MMD -MP, exactly as make reads it.
status 0 "-MMD -MP" "$fusecc" p.c -I inc -DWIDTH=8 -MMD -MP -o p.fused.c
printf '%s\n' 'p.fused.c: \' ' p.c \' ' k.h \' ' k2.h \' ' inc/tag.h' '' 'k.h:' '' 'k2.h:' '' 'inc/tag.h:' >"$tmp/p.expected.d"
check "-MMD -MP: X.fused.d lists the input and every header it includes, phony targets for the headers" diff -u "$tmp/p.expected.d" p.fused.d
status 0 "-MD -MP" "$fusecc" p.c -I inc -DWIDTH=8 -MD -MP -o p2.cu --emit=c
check "-MD -MP: the dependency file is named after -o (p2.cu -> p2.d)" test -f p2.d
check "-MD: system headers are listed too" has '^ /.*/math\.h' p2.d
check "-MD -MP: system headers get phony targets too" has '^/.*/math\.h:$' p2.d
check "-MD -MP: no phony target for the input" sh -c '! grep -q "^p\.c:" p2.d'
status 0 "-MF -MT" "$fusecc" p.c -I inc -DWIDTH=8 -MMD -MF p3.dep -MT 'the target' -o p3.fused.c
printf '%s\n' 'the\ target: \' >"$tmp/p3.expected"
check "-MF names the dependency file, -MT the target (spaces escaped)" sh -c 'head -n 1 p3.dep | cmp -s - "$1"' sh "$tmp/p3.expected"
check "-MF: no other dependency file is written" test ! -e p3.fused.d
status 0 "-MMD -MF -MT with -o -" "$fusecc" p.c -I inc -DWIDTH=8 -MMD -MF p4.d -MT p4.fused.c -o -
check "-o - with -MF: the dependency file is written" has '^p4.fused.c: \\$' p4.d
status 2 "-o - with -MD needs -MF and -MT" "$fusecc" p.c -I inc -DWIDTH=8 -MD -o -
(cd inc && "$fusecc" --emit=c ../p.c -I . -DWIDTH=8 -MMD)
check "without -o, the dependency file goes next to the default output" has '^ \.\./k\.h \\$' inc/p.fused.d
rm -f p.fused.d
"$fusecc" p.c -DWIDTH=8 -MD -o p.fused.c 2>/dev/null
check "a failed run writes no dependency file" test ! -e p.fused.d
cd "$root" || exit 1
# A sample that includes fusecc.h (from fusecc's include directory).
mkdir "$tmp/md"
status 0 "-MD on samples/rmsnorm_matmul.c" "$fusecc" samples/rmsnorm_matmul.c -MD -o "$tmp/md/rm.fused.c"
d=$tmp/md/rm.fused.d
check "-MD: the target is the output" sh -c 'head -n 1 "$1" | grep -qxF "$2: \\"' sh "$d" "$tmp/md/rm.fused.c"
check "-MD: the input comes first, as named" sh -c 'sed -n 2p "$1" | grep -qxF " samples/rmsnorm_matmul.c \\"' sh "$d"
check "-MD: fusecc.h is listed" has "^ $incdir/fusecc.h\( \\\\\)\{0,1\}$" "$d"
check "-MD: math.h is listed" has '^ /.*/math\.h \\$' "$d"
check "-MD: every listed file exists" sh -c 'sed -n "2,\$p" "$1" | sed "s/ *\\\\$//; s/^ //" | grep . | while read -r f; do [ -f "$f" ] || exit 1; done' sh "$d"
check "-MD without -MP: no phony targets" test "$(grep -c ':' "$d")" = 1
status 0 "-MMD on samples/rmsnorm_matmul.c" "$fusecc" samples/rmsnorm_matmul.c -MMD -MP -o "$tmp/md/rm2.fused.c"
printf '%s\n' "$tmp/md/rm2.fused.c: \\" ' samples/rmsnorm_matmul.c' >"$tmp/rm2.expected.d"
check "-MMD leaves out system headers and fusecc's own" diff -u "$tmp/rm2.expected.d" "$tmp/md/rm2.fused.d"

# ---- determinism: the same bytes for the same input, wherever fusecc runs from ----
mkdir "$tmp/det" "$tmp/elsewhere"
for src in $samples; do
	(
		for kind in c ir cuda; do
			r=$tmp/det/$(basename "$src" .c).$kind
			if ! "$fusecc" -Wno-fallback "$src" --emit=$kind -o "$r.1" 2>/dev/null; then
				# A region the CUDA printer refuses is a golden .cu.err, not a failure here.
				[ $kind = cuda ] || echo "$src --emit=$kind: failed"
				continue
			fi
			"$fusecc" -Wno-fallback "$src" --emit=$kind -o "$r.2"
			(cd "$tmp/elsewhere" && "$fusecc" -Wno-fallback "$root/$src" --emit=$kind -o "$r.3")
			(cd test && "$fusecc" -Wno-fallback "../$src" --emit=$kind -o "$r.4")
			for n in 2 3 4; do
				cmp -s "$r.1" "$r.$n" || echo "$src --emit=$kind: run $n differs"
			done
		done
	) >"$tmp/det/$(basename "$src" .c).log" 2>&1 &
done
wait
for src in $samples; do
	log=$tmp/det/$(basename "$src" .c).log
	check "deterministic: $src (--emit=c, ir and cuda; twice; from another directory by absolute path and by relative path)" test ! -s "$log"
	[ -s "$log" ] && sed 's/^/    /' "$log"
done

# ---- stability: one tile size changed, a few lines of the fused C change ----
mkdir "$tmp/j64" "$tmp/j32"
cp samples/attention.c "$tmp/j64/attention.c"
sed 's/tile(i:128, j:64)/tile(i:128, j:32)/' samples/attention.c >"$tmp/j32/attention.c"
check "the stability test edits the pragma" sh -c '! cmp -s "$1" "$2"' sh "$tmp/j64/attention.c" "$tmp/j32/attention.c"
"$fusecc" "$tmp/j64/attention.c" -o "$tmp/j64/attention.fused.c"
"$fusecc" "$tmp/j32/attention.c" -o "$tmp/j32/attention.fused.c"
n=$(changed "$tmp/j64/attention.fused.c" "$tmp/j32/attention.fused.c")
check "tile(j:64) -> tile(j:32) changes a few lines of the fused C ($n changed, at most 12)" test "$n" -gt 0 -a "$n" -le 12
"$fusecc" "$tmp/j64/attention.c" -o "$tmp/j64/attention.ir"
"$fusecc" "$tmp/j32/attention.c" -o "$tmp/j32/attention.ir"
n=$(changed "$tmp/j64/attention.ir" "$tmp/j32/attention.ir")
check "tile(j:64) -> tile(j:32) changes a few lines of the IR ($n changed, at most 12)" test "$n" -gt 0 -a "$n" -le 12
# The kernel: the step's extent, its register tiles and the shared-memory offsets.
"$fusecc" "$tmp/j64/attention.c" -o "$tmp/j64/attention.cu"
"$fusecc" "$tmp/j32/attention.c" -o "$tmp/j32/attention.cu"
n=$(changed "$tmp/j64/attention.cu" "$tmp/j32/attention.cu")
check "tile(j:64) -> tile(j:32) changes the CUDA lines that depend on the step ($n changed, at most 30)" test "$n" -gt 0 -a "$n" -le 30

# ---- make: samples/Makefile regenerates what a header change touches, and only that ----
if command -v make >/dev/null 2>&1; then
	(cd samples && make -n -B) >"$tmp/make-n.out" 2>&1
	check "samples/Makefile works from the samples directory (make -n)" has '^\.\./build/fusecc .*-MMD -MP attention\.c -o attention\.fused\.c$' "$tmp/make-n.out"
	check "samples/Makefile builds the fused C of every sample" test "$(grep -c '\.fused\.c$' "$tmp/make-n.out")" = "$(echo "$samples" | wc -w)"
	mk=$tmp/mk
	mkdir "$mk"
	cp samples/Makefile "$mk/Makefile"
	printf '/* local.h: a header of the project */\n#define HEAD_DIM 128\n' >"$mk/local.h"
	{
		echo '#include "local.h"'
		cat samples/attention.c
	} >"$mk/attention.c"
	check "the make test's sample includes its header" has '^#include "local.h"' "$mk/attention.c"
	make -C "$mk" FUSECC="$fusecc" >"$tmp/make1.out" 2>&1
	check "make: first build" test -f "$mk/attention.fused.c"
	check "make: the dependency file lists the local header" has '^ local\.h' "$mk/attention.fused.d"
	check "make: -MP adds a phony target for the header" has '^local\.h:$' "$mk/attention.fused.d"
	# Sources in 2000, outputs a minute later: then the header is touched (now).
	touch -t 200001010000 "$mk/attention.c" "$mk/local.h"
	touch -t 200001010001 "$mk/attention.fused.c" "$mk/attention.fused.d"
	touch -t 200001010002 "$tmp/marker"
	touch "$mk/local.h"
	make -C "$mk" FUSECC="$fusecc" >"$tmp/make2.out" 2>&1
	check "make: touching the header regenerates the output" sh -c 'grep -q -- "-o attention.fused.c" "$1" && [ "$2" -nt "$3" ]' sh "$tmp/make2.out" "$mk/attention.fused.c" "$tmp/marker"
	make -C "$mk" FUSECC="$fusecc" >"$tmp/make3.out" 2>&1
	check "make: a third run rebuilds nothing" sh -c '! grep -q -- "-o attention.fused.c" "$1"' sh "$tmp/make3.out"
	make -q -C "$mk" FUSECC="$fusecc" >/dev/null 2>&1
	check "make -q: everything is up to date" test $? = 0
	# Removing the header (and its #include) must not break the build: -MP's phony target.
	rm "$mk/local.h"
	grep -v '#include "local.h"' "$mk/attention.c" >"$mk/attention.c.new" && mv "$mk/attention.c.new" "$mk/attention.c"
	make -C "$mk" FUSECC="$fusecc" >"$tmp/make4.out" 2>&1
	check "make: a removed header is no error (-MP)" test $? = 0
else
	echo "SKIP: make not found: samples/Makefile not tested"
fi

# GQA decode by h / G: the KV head's query heads share a CTA (src/lower/heads.c), which
# holds when G divides H: the launcher says so (the GPU check runs the kernels).
status 0 "GQA by h / G prints for CUDA" "$fusecc" "$root/test/zoo/dc_gqa_hdivG_rtD_fp16.c" -o "$tmp/gqa.cu"
check "GQA by h / G: the G heads of a KV head are one CTA's rows" has "16 rows of 'h_g' per CTA" "$tmp/gqa.cu"
check "GQA by h / G: the launcher refuses an H that G does not divide" has "H = %d is not a multiple of G = %d" "$tmp/gqa.cu"

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
