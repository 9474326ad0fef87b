/* test_pragma.c: the `#pragma fuse` parser, checker and printers. Pragma lines are given
 * as text and split into tokens here the way the front end's token scan would. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <check.h>
#include <string.h>

#include "front/pragma.h"

static Program prog;
static char *diag_buf;
static size_t diag_len;

/* Each test gets a fresh arena, error count and diagnostic buffer. */
static void setup(void)
{
	prog = (Program){0};
	diag_reset();
	diag_stream = open_memstream(&diag_buf, &diag_len);
}

static void teardown(void)
{
	fclose(diag_stream);
	diag_stream = NULL;
	free(diag_buf);
	diag_buf = NULL;
	arena_free(&prog.arena);
}

/* Everything reported so far. */
static const char *diags(void)
{
	fflush(diag_stream);
	return diag_buf ? diag_buf : "";
}

/* Splits `src`, line `line` of t.c, into tokens: identifiers, pp-numbers (so `0x40`,
 * `1.5` and `64u` stay one token, as in C), string literals (PT_OTHER) and one-character
 * punctuators. */
static PragmaLine lex(const char *src, int line)
{
	static const char word_chars[] = "._abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                                 "0123456789";
	PTok *toks = arena_alloc(&prog.arena, sizeof(PTok) * (strlen(src) + 1));
	int n = 0;
	for (const char *s = src; *s;) {
		if (*s == ' ' || *s == '\t') {
			s++;
			continue;
		}
		const char *b = s;
		PTokKind kind = PT_PUNCT;
		if (*s == '_' || ((*s | 32) >= 'a' && (*s | 32) <= 'z')) {
			kind = PT_IDENT;
			s += strspn(s, word_chars + 1); /* identifiers do not take '.' */
		} else if (*s >= '0' && *s <= '9') {
			kind = PT_NUMBER;
			s += strspn(s, word_chars);
		} else if (*s == '"') {
			kind = PT_OTHER;
			s += strcspn(s + 1, "\"") + 1 + (strchr(s + 1, '"') != NULL);
		} else {
			s++;
		}
		toks[n++] = (PTok){kind, arena_strndup(&prog.arena, b, (size_t)(s - b)),
		                   (Loc){"t.c", line, (int)(b - src) + 1}};
	}
	return (PragmaLine){(Loc){"t.c", line, 1}, toks, n};
}

/* Parses the NULL-terminated lines `src` into *s. */
static bool parse_lines(Schedule *s, const char *const *src)
{
	PragmaLine lines[8];
	int n = 0;
	while (n < 8 && src[n]) {
		lines[n] = lex(src[n], n + 1);
		n++;
	}
	return pragma_parse(&prog, lines, n, s);
}

/* Parses the lines given as arguments into *s. */
#define PARSE(s, ...) parse_lines((s), (const char *const[]){__VA_ARGS__, NULL})

static bool parse1(Schedule *s, const char *line) { return PARSE(s, line); }

/* The normalised echo of s, in the arena. */
static const char *echo(const Schedule *s)
{
	StrBuf b = {0};
	print_schedule(&b, s);
	char *r = arena_strdup(&prog.arena, b.s);
	sb_free(&b);
	return r;
}

/* Parses one line that must be accepted, and returns its echo. */
static const char *roundtrip(const char *line)
{
	Schedule s;
	ck_assert_msg(parse1(&s, line), "rejected: %s\n%s", line, diags());
	ck_assert_int_eq(error_count(), 0);
	return echo(&s);
}

/* Parses lines that must be rejected with a diagnostic containing `want`. */
#define REJECTS(want, ...)                                                                         \
	do {                                                                                       \
		Schedule s_;                                                                       \
		ck_assert(!PARSE(&s_, __VA_ARGS__));                                               \
		ck_assert_msg(strstr(diags(), want), "want \"%s\" in:\n%s", want, diags());        \
	} while (0)

/* ---- good parses ---- */

START_TEST(test_kernel_only)
{
	ck_assert_str_eq(roundtrip("kernel"), "kernel");
	ck_assert_str_eq(roundtrip("kernel(attn)"), "kernel(attn)");
}
END_TEST

START_TEST(test_full_line)
{
	Schedule s;
	ck_assert(parse1(&s, "kernel(attn) parallel(b, h, i) tile(i:128, j:64) rolling(j)"));
	ck_assert_str_eq(s.name, "attn");
	ck_assert_int_eq(s.nparallel, 3);
	ck_assert_str_eq(s.parallel[2].loop, "i");
	ck_assert_int_eq(s.parallel[2].loc.col, 29);
	ck_assert_int_eq(s.ntile, 2);
	ck_assert_str_eq(s.tile[1].loop, "j");
	ck_assert_int_eq(s.tile[1].value, 64);
	ck_assert_int_eq(s.nrolling, 1);
	ck_assert_int_eq(s.nsplitk, 0);
	ck_assert_int_eq(s.ntune, 0);
	ck_assert_int_eq(s.loc.line, 1);
	ck_assert_str_eq(echo(&s), "kernel(attn) parallel(b, h, i) tile(i:128, j:64) rolling(j)");
}
END_TEST

START_TEST(test_accumulate_lines)
{
	Schedule s;
	ck_assert(PARSE(&s, "kernel(attn)", "parallel(b, h) tile(i:128)", "parallel(i) tile(j:64)",
	                "rolling(j)"));
	ck_assert_int_eq(s.nparallel, 3);
	ck_assert_int_eq(s.parallel[2].loc.line, 3);
	ck_assert_str_eq(echo(&s), "kernel(attn) parallel(b, h, i) tile(i:128, j:64) rolling(j)");
}
END_TEST

START_TEST(test_normalised_order)
{
	ck_assert_str_eq(
	        roundtrip("kernel tune(warps:{4,8}) rolling(j) tile(j:64) parallel(b,h,i)"),
	        "kernel parallel(b, h, i) tile(j:64) rolling(j) tune(warps:{4,8})");
}
END_TEST

START_TEST(test_commas_between_clauses)
{
	ck_assert_str_eq(roundtrip("kernel, parallel(i), tile(i:64) , rolling(j)"),
	                 "kernel parallel(i) tile(i:64) rolling(j)");
}
END_TEST

START_TEST(test_splitk)
{
	Schedule s;
	ck_assert(parse1(&s, "kernel(dec) parallel(b, h) splitk(j)"));
	ck_assert_int_eq(s.nsplitk, 1);
	ck_assert_int_eq(s.splitk[0].value, 0);
	ck_assert_str_eq(echo(&s), "kernel(dec) parallel(b, h) splitk(j)");
	ck_assert_str_eq(roundtrip("kernel splitk(j:16)"), "kernel splitk(j:16)");
	ck_assert_str_eq(roundtrip("kernel splitk(j, k:4)"), "kernel splitk(j, k:4)");
}
END_TEST

START_TEST(test_tune)
{
	Schedule s;
	ck_assert(parse1(&s, "kernel tune(i:{64,128}, j:{32, 64}, warps:{4,8}, stages:{2,3})"));
	ck_assert_int_eq(s.ntune, 4);
	ck_assert_str_eq(s.tune[1].key, "j");
	ck_assert_int_eq(s.tune[1].nvalues, 2);
	ck_assert_int_eq(s.tune[1].values[1], 64);
	ck_assert_int_eq(s.tune[2].loc.col, 37);
	ck_assert_str_eq(echo(&s), "kernel tune(i:{64,128}, j:{32,64}, warps:{4,8}, stages:{2,3})");
	ck_assert_str_eq(roundtrip("kernel tune(i:{64}) tune(j:{16,32})"),
	                 "kernel tune(i:{64}, j:{16,32})");
}
END_TEST

START_TEST(test_specialize)
{
	Schedule s;
	ck_assert(parse1(&s, "kernel specialize(DK: 192, 64, DV: 128) rolling(j)"));
	ck_assert_int_eq(s.nspec, 2);
	ck_assert_str_eq(s.spec[0].key, "DK");
	ck_assert_int_eq(s.spec[0].nvalues, 2);
	ck_assert_int_eq(s.spec[0].values[1], 64);
	ck_assert_str_eq(s.spec[1].key, "DV");
	ck_assert_int_eq(s.spec[1].values[0], 128);
	ck_assert_str_eq(echo(&s), "kernel rolling(j) specialize(DK:{192,64}, DV:{128})");
	ck_assert_str_eq(roundtrip("kernel specialize(D:{64,128}, E:{1})"), "kernel specialize(D:{64,128}, E:{1})");
	REJECTS("value 64 appears twice in the values of 'D'", "kernel specialize(D: 64, 64)");
	REJECTS("'D' appears twice in 'specialize'", "kernel specialize(D: 64, D: 128)");
	REJECTS("expected ':' after 'D' in 'specialize'", "kernel specialize(D)");
}
END_TEST

START_TEST(test_limits)
{
	ck_assert_str_eq(roundtrip("kernel tile(i:1048576, j:1, k:48)"),
	                 "kernel tile(i:1048576, j:1, k:48)");
}
END_TEST

START_TEST(test_names_not_checked)
{
	/* Whether the loops exist is schedule_check's business. */
	ck_assert_str_eq(roundtrip("kernel parallel(nosuch)"), "kernel parallel(nosuch)");
}
END_TEST

/* ---- errors ---- */

START_TEST(test_must_start_with_kernel)
{
	REJECTS("t.c:1:1: error: a fuse region must start with 'kernel'", "parallel(i) kernel");
	REJECTS("a fuse region must start with 'kernel'", "tile(i:64)", "kernel");
	REJECTS("a fuse region must start with 'kernel'", "");
	REJECTS("a fuse region must start with 'kernel'", "(kernel)");
}
END_TEST

START_TEST(test_empty_input)
{
	Schedule s;
	ck_assert(!pragma_parse(&prog, NULL, 0, &s));
	ck_assert_ptr_nonnull(strstr(diags(), "must start with 'kernel'"));
}
END_TEST

START_TEST(test_kernel_twice)
{
	REJECTS("t.c:1:8: error: 'kernel' appears twice in this region", "kernel kernel(x)");
	ck_assert_ptr_nonnull(strstr(diags(), "t.c:1:1: note: the first 'kernel' is here"));
	REJECTS("t.c:2:1: error: 'kernel' appears twice", "kernel(a) tile(i:64)", "kernel(b)");
}
END_TEST

START_TEST(test_kernel_args)
{
	REJECTS("empty argument list in 'kernel()'", "kernel()");
	REJECTS("t.c:1:8: error: expected a kernel name in 'kernel(...)', found '3'", "kernel(3)");
	REJECTS("expected ')' after the kernel name, found ','", "kernel(a, b)");
	REJECTS("expected ')' after the kernel name, found the end of the line", "kernel(a");
}
END_TEST

START_TEST(test_unknown_clause)
{
	REJECTS("t.c:1:8: error: unknown clause 'tiles'; did you mean 'tile'?",
	        "kernel tiles(i:64)");
	REJECTS("unknown clause 'kernal'; did you mean 'kernel'?", "kernal(attn)");
	REJECTS("did you mean 'rolling'?", "kernel rollin(j)");
	REJECTS("did you mean 'splitk'?", "kernel split_k(j)");
	REJECTS("unknown clause 'frobnicate' (the clauses are: kernel, parallel, tile, rolling, "
	        "splitk, tune, specialize, precision)",
	        "kernel frobnicate");
}
END_TEST

START_TEST(test_unknown_clause_skips_args)
{
	/* The unknown clause's arguments are skipped, so the only error is the clause. */
	Schedule s;
	ck_assert(!parse1(&s, "kernel unroll(j:4) rolling(j)"));
	ck_assert_int_eq(error_count(), 1);
	ck_assert_int_eq(s.nrolling, 1);
}
END_TEST

START_TEST(test_missing_parens)
{
	REJECTS("t.c:1:12: error: expected '(' after 'tile', found the end of the line (syntax: "
	        "tile(i:128, j:64))",
	        "kernel tile");
	REJECTS("expected '(' after 'parallel', found 'i'", "kernel parallel i");
	REJECTS("expected '(' after 'splitk', found '['", "kernel splitk[j]");
	REJECTS("t.c:1:17: error: expected ')' to close 'tile('", "kernel tile(i:64");
	REJECTS("expected ')' to close 'rolling('", "kernel rolling(j");
	REJECTS("expected a loop name in 'rolling', found the end of the line",
	        "kernel rolling(j,");
	REJECTS("expected ',' or ')' in 'parallel', found 'h'", "kernel parallel(b h)");
	REJECTS("expected ',' or ')' in 'tune', found ']'", "kernel tune(i:{64}]");
}
END_TEST

START_TEST(test_empty_lists)
{
	REJECTS("t.c:1:17: error: empty argument list in 'parallel()'", "kernel parallel()");
	REJECTS("empty argument list in 'tile()'", "kernel tile()");
	REJECTS("empty argument list in 'tune()'", "kernel tune()");
	REJECTS("empty value list for 'i' in 'tune'", "kernel tune(i:{})");
}
END_TEST

START_TEST(test_loop_names)
{
	REJECTS("expected a loop name in 'parallel', found ')'", "kernel parallel(b,)");
	REJECTS("expected a loop name in 'tile', found '128'", "kernel tile(128)");
	REJECTS("'parallel' takes loop names only, found ':' after 'i'", "kernel parallel(i:128)");
	REJECTS("'rolling' takes loop names only", "kernel rolling(j:64)");
	REJECTS("expected a loop name, 'warps' or 'stages' in 'tune', found '{'",
	        "kernel tune({64})");
}
END_TEST

START_TEST(test_expected_colon)
{
	REJECTS("t.c:1:14: error: expected ':' after loop name 'i' in 'tile', found ','",
	        "kernel tile(i, j:64)");
	REJECTS("expected ':' after loop name 'j' in 'tile', found ')'", "kernel tile(i:64, j)");
	REJECTS("expected ':' after 'warps' in 'tune', found '{'", "kernel tune(warps{4})");
	REJECTS("expected '{' after 'i:' in 'tune', found '64'", "kernel tune(i:64)");
	REJECTS("expected ',' or '}' in the values of 'i', found ')'", "kernel tune(i:{64)");
}
END_TEST

START_TEST(test_bad_numbers)
{
	REJECTS("t.c:1:15: error: tile size must be a positive integer, found '0'",
	        "kernel tile(i:0)");
	REJECTS("tile size must be a positive integer, found '-64'", "kernel tile(i:-64)");
	REJECTS("tile size must be a positive integer, found 'BM' (macros are not expanded",
	        "kernel tile(i:BM)");
	REJECTS("tile size must be a positive integer, found ')'", "kernel tile(i:)");
	REJECTS("tile size must be a decimal integer, found '0x40'", "kernel tile(i:0x40)");
	REJECTS("tile size must be an integer, found '1.5'", "kernel tile(i:1.5)");
	REJECTS("tile size must be an integer, found '1e3'", "kernel tile(i:1e3)");
	REJECTS("tile size must be written with decimal digits only, found '64u'",
	        "kernel tile(i:64u)");
	REJECTS("tile size '010' has a leading zero", "kernel tile(i:010)");
	REJECTS("tile size 1048577 is too large (at most 1048576)", "kernel tile(i:1048577)");
	REJECTS("tile size 99999999999999999999999 is too large",
	        "kernel tile(i:99999999999999999999999)");
	REJECTS("chunk count must be a positive integer, found '0'", "kernel splitk(j:0)");
	REJECTS("tune value must be a decimal integer, found '0x10'", "kernel tune(i:{0x10})");
}
END_TEST

START_TEST(test_duplicates)
{
	REJECTS("t.c:1:23: error: loop 'i' appears twice in 'parallel'",
	        "kernel parallel(i, j, i)");
	ck_assert_ptr_nonnull(strstr(diags(), "t.c:1:17: note: 'i' first appears here"));
	REJECTS("t.c:2:6: error: loop 'i' appears twice in 'tile'", "kernel tile(i:64)",
	        "tile(i:64)");
	REJECTS("loop 'j' appears twice in 'rolling'", "kernel rolling(j) rolling(j)");
	REJECTS("loop 'j' appears twice in 'splitk'", "kernel splitk(j) splitk(j:8)");
	REJECTS("'i' appears twice in 'tune'", "kernel tune(i:{64}, i:{128})");
	REJECTS("'warps' appears twice in 'tune'", "kernel tune(warps:{4})", "tune(warps:{8})");
	REJECTS("value 64 appears twice in the values of 'i'", "kernel tune(i:{64,128,64})");
}
END_TEST

START_TEST(test_separators)
{
	REJECTS("t.c:1:8: error: expected a clause name, found ','", "kernel,, rolling(j)");
	REJECTS("expected a clause after ','", "kernel rolling(j),");
	REJECTS("expected a clause name, found ')'", "kernel rolling(j))");
	REJECTS("expected a clause name, found '\"x\"'", "kernel \"x\"");
}
END_TEST

START_TEST(test_every_error_reported)
{
	/* Errors on one line and on later lines are all reported. */
	Schedule s;
	ck_assert(!PARSE(&s, "kernel tile(i:0) tiles(j:64) rolling(j)", "parallel(b h)",
	                 "splitk(k)"));
	ck_assert_int_eq(error_count(), 3);
	ck_assert_int_eq(s.nrolling, 1);
	ck_assert_int_eq(s.nsplitk, 1);
}
END_TEST

START_TEST(test_unbalanced_gives_up_line)
{
	/* After an unclosed clause the rest of the line is skipped, not misread. */
	Schedule s;
	ck_assert(!PARSE(&s, "kernel tile(i:64 rolling(j)", "parallel(i)"));
	ck_assert_int_eq(error_count(), 1);
	ck_assert_int_eq(s.nrolling, 0);
	ck_assert_int_eq(s.nparallel, 1);
}
END_TEST

/* ---- schedule_check ---- */

/* A `for` over iterator `name` with the given body (one statement, or NULL). */
static Stmt *mk_for(const char *name, Stmt *body)
{
	Stmt *s = NEW(&prog.arena, Stmt);
	s->kind = ST_FOR;
	s->var = NEW(&prog.arena, Var);
	s->var->kind = VAR_LOOP;
	s->var->name = name;
	s->var->ty = TY_INT;
	if (body) {
		s->nbody = 1;
		s->body = NEW(&prog.arena, Stmt *);
		s->body[0] = body;
	}
	return s;
}

/* A block of up to three statements (NULL ends the list). */
static Stmt *mk_block(Stmt *a, Stmt *b, Stmt *c)
{
	Stmt *s = NEW(&prog.arena, Stmt);
	s->kind = ST_BLOCK;
	s->body = arena_alloc(&prog.arena, 3 * sizeof(Stmt *));
	Stmt *in[] = {a, b, c};
	for (int k = 0; k < 3 && in[k]; k++)
		s->body[s->nbody++] = in[k];
	return s;
}

/* An `if` with only a then-branch. */
static Stmt *mk_if(Stmt *then)
{
	Stmt *s = NEW(&prog.arena, Stmt);
	s->kind = ST_IF;
	s->nbody = 2;
	s->body = arena_alloc(&prog.arena, 2 * sizeof(Stmt *));
	s->body[0] = then;
	return s;
}

/* Attention's shape: b { h { i { for j (max); for j (sum, inside an if); d { for j } } } }. */
static Stmt *attn_region(void)
{
	Stmt *assign = NEW(&prog.arena, Stmt);
	assign->kind = ST_ASSIGN;
	Stmt *inner = mk_block(mk_for("j", assign), mk_if(mk_for("j", NULL)),
	                       mk_for("d", mk_for("j", NULL)));
	return mk_for("b", mk_for("h", mk_for("i", inner)));
}

/* Parses `line` (which must parse) and runs schedule_check on the attention region. */
static bool check_line(const char *line)
{
	Schedule s;
	ck_assert_msg(parse1(&s, line), "rejected: %s\n%s", line, diags());
	return schedule_check(&s, attn_region());
}

#define CHECK_REJECTS(want, line)                                                                  \
	do {                                                                                       \
		ck_assert(!check_line(line));                                                      \
		ck_assert_msg(strstr(diags(), want), "want \"%s\" in:\n%s", want, diags());        \
	} while (0)

START_TEST(test_check_good)
{
	ck_assert(check_line("kernel(attn) parallel(b, h, i) tile(i:128, j:64) rolling(j)"));
	ck_assert(check_line("kernel splitk(j:16) parallel(b, h, i, d)"));
	ck_assert(
	        check_line("kernel tune(i:{64,128}, j:{32,64}, warps:{1,2,4,8,16}, stages:{1,8})"));
	ck_assert(check_line("kernel rolling(j) splitk(d)"));
	ck_assert_int_eq(error_count(), 0);
}
END_TEST

START_TEST(test_check_no_such_loop)
{
	CHECK_REJECTS(
	        "t.c:1:17: error: no loop named 'k' in this region (its loops: b, h, i, j, d)",
	        "kernel parallel(k)");
	CHECK_REJECTS("no loop named 'jj' in this region; did you mean 'j'?", "kernel rolling(jj)");
	CHECK_REJECTS("no loop named 'row' in this region (its loops: b, h, i, j, d)",
	              "kernel tile(row:64)");
	CHECK_REJECTS("no loop named 'kv' in this region", "kernel splitk(kv)");
	CHECK_REJECTS("no loop named 'jx' in this region; did you mean 'j'?",
	              "kernel tune(jx:{64})");
}
END_TEST

START_TEST(test_check_conflicts)
{
	CHECK_REJECTS("t.c:1:31: error: loop 'j' cannot be both 'parallel' and 'rolling'",
	              "kernel parallel(i, j) rolling(j)");
	ck_assert_ptr_nonnull(strstr(diags(), "t.c:1:20: note: 'j' is made 'parallel' here"));
	CHECK_REJECTS("loop 'j' cannot be both 'parallel' and 'splitk'",
	              "kernel parallel(j) splitk(j:4)");
	CHECK_REJECTS("loop 'j' cannot be both 'rolling' and 'splitk'",
	              "kernel rolling(j) splitk(j)");
}
END_TEST

START_TEST(test_check_tune_ranges)
{
	CHECK_REJECTS("t.c:1:13: error: 'warps' must be a power of two from 1 to 16, found 3",
	              "kernel tune(warps:{4,3})");
	CHECK_REJECTS("'warps' must be a power of two from 1 to 16, found 32",
	              "kernel tune(warps:{32})");
	CHECK_REJECTS("'stages' must be from 1 to 8, found 9", "kernel tune(stages:{2,9})");
}
END_TEST

/* ---- reference ---- */

START_TEST(test_reference)
{
	StrBuf b = {0};
	print_pragma_reference(&b);
	ck_assert_ptr_nonnull(strstr(b.s, "| [`tile`](#tile) | `tile(i:128, j:64)` | tile sizes"));
	ck_assert_ptr_nonnull(strstr(b.s, "`splitk(j)` / `splitk(j:16)`"));
	ck_assert_ptr_nonnull(strstr(b.s, "\n## tune\n"));
	ck_assert_ptr_nonnull(strstr(b.s, "```c\n#pragma fuse kernel(attn)\n```\n"));
	ck_assert_ptr_nonnull(strstr(b.s, "at most 1048576"));
	sb_free(&b);
}
END_TEST

/* Parses every ```c block of the reference as one region's pragma lines: the examples
 * in the documentation must be accepted as written. */
START_TEST(test_reference_examples_parse)
{
	StrBuf b = {0};
	print_pragma_reference(&b);
	int nblocks = 0;
	for (char *p = strstr(b.s, "```c\n"); p; p = strstr(p, "```c\n")) {
		p += 5;
		const char *lines[8];
		int n = 0;
		while (strncmp(p, "```", 3)) {
			char *nl = strchr(p, '\n');
			*nl = 0;
			ck_assert(!strncmp(p, "#pragma fuse ", 13));
			ck_assert_int_lt(n, 7);
			lines[n++] = p + 13;
			p = nl + 1;
		}
		lines[n] = NULL;
		Schedule s;
		ck_assert_msg(parse_lines(&s, lines), "example rejected:\n%s", diags());
		nblocks++;
	}
	ck_assert_int_ge(nblocks, 6);
	sb_free(&b);
}
END_TEST

Suite *pragma_suite(void)
{
	Suite *s = suite_create("pragma");
	TCase *parse = tcase_create("parse");
	tcase_add_checked_fixture(parse, setup, teardown);
	tcase_add_test(parse, test_kernel_only);
	tcase_add_test(parse, test_full_line);
	tcase_add_test(parse, test_accumulate_lines);
	tcase_add_test(parse, test_normalised_order);
	tcase_add_test(parse, test_commas_between_clauses);
	tcase_add_test(parse, test_splitk);
	tcase_add_test(parse, test_tune);
	tcase_add_test(parse, test_specialize);
	tcase_add_test(parse, test_limits);
	tcase_add_test(parse, test_names_not_checked);
	suite_add_tcase(s, parse);

	TCase *errors = tcase_create("errors");
	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(errors, test_must_start_with_kernel);
	tcase_add_test(errors, test_empty_input);
	tcase_add_test(errors, test_kernel_twice);
	tcase_add_test(errors, test_kernel_args);
	tcase_add_test(errors, test_unknown_clause);
	tcase_add_test(errors, test_unknown_clause_skips_args);
	tcase_add_test(errors, test_missing_parens);
	tcase_add_test(errors, test_empty_lists);
	tcase_add_test(errors, test_loop_names);
	tcase_add_test(errors, test_expected_colon);
	tcase_add_test(errors, test_bad_numbers);
	tcase_add_test(errors, test_duplicates);
	tcase_add_test(errors, test_separators);
	tcase_add_test(errors, test_every_error_reported);
	tcase_add_test(errors, test_unbalanced_gives_up_line);
	suite_add_tcase(s, errors);

	TCase *check = tcase_create("check");
	tcase_add_checked_fixture(check, setup, teardown);
	tcase_add_test(check, test_check_good);
	tcase_add_test(check, test_check_no_such_loop);
	tcase_add_test(check, test_check_conflicts);
	tcase_add_test(check, test_check_tune_ranges);
	tcase_add_test(check, test_reference);
	tcase_add_test(check, test_reference_examples_parse);
	suite_add_tcase(s, check);
	return s;
}
