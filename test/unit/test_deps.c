/* test_deps.c: the dependence analysis on small regions parsed by the real front end.
 * Line numbers in the sources below are checked against witnesses and diagnostics:
 * keep one statement per line. */
#include <string.h>
#include <unistd.h>

#include "analysis/deps.h"
#include "front/front.h"
#include "unit.h"

static Captured cap;

/* Parses `src`; fails the test on errors. */
static Program *parse_src(const char *src)
{
	Program *p = unit_parse(src, &cap);
	ck_assert_msg(p != NULL, "%s", cap.text ? cap.text : "");
	free(cap.text);
	cap.text = NULL;
	return p;
}

static const char *diags(void) { return cap.text ? cap.text : ""; }

static void teardown(void)
{
	free(cap.text);
	cap.text = NULL;
}

/* The dependences of the first region; diagnostics are captured. */
static DepInfo *compute(Program *p)
{
	free(cap.text);
	capture_begin(&cap);
	DepInfo *d = deps_compute(p, p->funcs[0]->regions[0]);
	capture_end(&cap);
	return d;
}

/* The nth (from 0) loop over iterator `name` in the region, in textual order. */
static Stmt *find_loop_in(Stmt *s, const char *name, int *nth)
{
	if (!s)
		return NULL;
	if (s->kind == ST_FOR && !strcmp(s->var->name, name) && (*nth)-- == 0)
		return s;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *r = find_loop_in(s->body[i], name, nth);
		if (r)
			return r;
	}
	return NULL;
}

static Stmt *loop_of(Program *p, const char *name, int nth)
{
	Stmt *s = find_loop_in(p->funcs[0]->regions[0]->loop, name, &nth);
	ck_assert_msg(s != NULL, "no loop %s", name);
	return s;
}

/* The first local declared with `name`. */
static Var *find_local_in(Stmt *s, const char *name)
{
	if (!s)
		return NULL;
	if (s->kind == ST_DECL && !strcmp(s->var->name, name))
		return s->var;
	for (int i = 0; i < s->nbody; i++) {
		Var *v = find_local_in(s->body[i], name);
		if (v)
			return v;
	}
	return NULL;
}

static Var *local_of(Program *p, const char *name)
{
	Var *v = find_local_in(p->funcs[0]->regions[0]->loop, name);
	ck_assert_msg(v != NULL, "no local %s", name);
	return v;
}

static Var *param_of(Program *p, const char *name)
{
	Func *f = p->funcs[0];
	for (int i = 0; i < f->nparams; i++)
		if (!strcmp(f->params[i]->name, name))
			return f->params[i];
	ck_abort_msg("no parameter %s", name);
	return NULL;
}

/* Carries with no variable ignored; the witness must then be on line `line`. */
static void expect_carries(DepInfo *d, Stmt *loop, Var *const *ign, int nign, int line)
{
	Loc w = {0};
	ck_assert_msg(deps_loop_carries(d, loop, ign, nign, &w), "loop %s (line %d) should carry", loop->var->name, loop->loc.line);
	ck_assert_int_eq(w.line, line);
}

static void expect_free(DepInfo *d, Stmt *loop, Var *const *ign, int nign)
{
	Loc w = {0};
	ck_assert_msg(!deps_loop_carries(d, loop, ign, nign, &w), "loop %s (line %d) should not carry (witness line %d)",
	              loop->var->name, loop->loc.line, w.line);
}

static const char attention[] =
	"#include <math.h>\n"                                                               /* 1 */
	"void attn(int N, int D, float scale, const float q[N][D], const float k[N][D],\n"  /* 2 */
	"          const float v[N][D], float o[N][D]) {\n"                                 /* 3 */
	"#pragma fuse kernel\n"                                                             /* 4 */
	"  for (int i = 0; i < N; i++) {\n"                                                 /* 5 */
	"    float m = -INFINITY;\n"                                                        /* 6 */
	"    for (int j = 0; j < N; j++) {\n"                                               /* 7 */
	"      float s = 0;\n"                                                              /* 8 */
	"      for (int d = 0; d < D; d++)\n"                                               /* 9 */
	"        s += q[i][d] * k[j][d];\n"                                                 /* 10 */
	"      m = fmaxf(m, s * scale);\n"                                                  /* 11 */
	"    }\n"                                                                           /* 12 */
	"    float l = 0;\n"                                                                /* 13 */
	"    for (int j = 0; j < N; j++) {\n"                                               /* 14 */
	"      float s = 0;\n"                                                              /* 15 */
	"      for (int d = 0; d < D; d++)\n"                                               /* 16 */
	"        s += q[i][d] * k[j][d];\n"                                                 /* 17 */
	"      l += expf(s * scale - m);\n"                                                 /* 18 */
	"    }\n"                                                                           /* 19 */
	"    for (int d = 0; d < D; d++)\n"                                                 /* 20 */
	"      o[i][d] = 0;\n"                                                              /* 21 */
	"    for (int j = 0; j < N; j++) {\n"                                               /* 22 */
	"      float s = 0;\n"                                                              /* 23 */
	"      for (int d = 0; d < D; d++)\n"                                               /* 24 */
	"        s += q[i][d] * k[j][d];\n"                                                 /* 25 */
	"      float p = expf(s * scale - m) / l;\n"                                        /* 26 */
	"      for (int d = 0; d < D; d++)\n"                                               /* 27 */
	"        o[i][d] += p * v[j][d];\n"                                                 /* 28 */
	"    }\n"                                                                           /* 29 */
	"  }\n"                                                                             /* 30 */
	"}\n";

START_TEST(test_attention_row)
{
	Program *p = parse_src(attention);
	DepInfo *d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	Var *m = local_of(p, "m"), *l = local_of(p, "l"), *o = param_of(p, "o");
	Stmt *i = loop_of(p, "i", 0), *j1 = loop_of(p, "j", 0), *j2 = loop_of(p, "j", 1), *j3 = loop_of(p, "j", 2);

	/* Rows are independent: m, l, s, p are private to i, o[i] is its own row. */
	expect_free(d, i, NULL, 0);
	/* Each pass over j carries exactly its reduction. */
	expect_carries(d, j1, NULL, 0, 11);
	expect_free(d, j1, &m, 1);
	expect_carries(d, j2, &m, 1, 18);
	expect_free(d, j2, &l, 1);
	expect_carries(d, j3, NULL, 0, 28);
	expect_free(d, j3, &o, 1);
	/* The dot product carries over d through s (declared inside j, so private to j). */
	Stmt *dot = loop_of(p, "d", 0);
	expect_carries(d, dot, NULL, 0, 10);
	Var *s1 = local_of(p, "s");
	expect_free(d, dot, &s1, 1);
	/* o[i][d] = 0 carries nothing; o[i][d] += ... carries over j only, not over d. */
	expect_free(d, loop_of(p, "d", 2), NULL, 0);
	expect_free(d, loop_of(p, "d", 4), NULL, 0);

	/* The max pass feeds the sum pass through m: fusable only once m is a recognised
	 * reduction with a repair term. */
	Loc w = {0};
	ck_assert(!deps_fusable(d, j1, j2, NULL, 0, &w));
	ck_assert_int_eq(w.line, 11);
	ck_assert(deps_fusable(d, j1, j2, &m, 1, NULL));
	Var *ml[] = {m, l};
	ck_assert(!deps_fusable(d, j2, j3, &m, 1, &w));
	ck_assert_int_eq(w.line, 18);
	ck_assert(deps_fusable(d, j2, j3, ml, 2, NULL));
	/* Out of order is refused rather than answered. */
	ck_assert(!deps_fusable(d, j2, j1, ml, 2, NULL));

	char *text = deps_describe(d);
	ck_assert_ptr_nonnull(strstr(text, "S0 (line 6): float m = -INFINITY;"));
	ck_assert_ptr_nonnull(strstr(text, "deps through m: "));
	ck_assert_ptr_nonnull(strstr(text, "schedule: [N_0, D_1] -> "));
	free(text);
	deps_free(d);
	program_free(p);
}
END_TEST

START_TEST(test_scan)
{
	Program *p = parse_src(
		"void scan(int N, const float x[N], float y[N]) {\n"
		"#pragma fuse kernel\n"
		"  for (int j = 1; j < N; j++)\n"
		"    y[j] = y[j - 1] + x[j];\n"
		"}\n");
	DepInfo *d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	Stmt *j = loop_of(p, "j", 0);
	Var *x = param_of(p, "x"), *y = param_of(p, "y");
	expect_carries(d, j, NULL, 0, 4);
	expect_carries(d, j, &x, 1, 4);
	expect_free(d, j, &y, 1);
	deps_free(d);
	program_free(p);

	/* The same recurrence along the inner loop of a 2-d nest: only the inner loop carries. */
	p = parse_src(
		"void scan2(int N, int M, const float x[N][M], float y[N][M]) {\n"
		"#pragma fuse kernel\n"
		"  for (int i = 0; i < N; i++)\n"
		"    for (int j = 1; j < M; j++)\n"
		"      y[i][j] = y[i][j - 1] + x[i][j];\n"
		"}\n");
	d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	expect_free(d, loop_of(p, "i", 0), NULL, 0);
	expect_carries(d, loop_of(p, "j", 0), NULL, 0, 5);
	deps_free(d);
	program_free(p);
}
END_TEST

/* Producer loop writes s[j], consumer loop reads s[<read>]. */
static bool siblings_fusable(const char *read, int *witness_line)
{
	char src[1024];
	snprintf(src, sizeof src,
	         "void sib(int N, const float x[N][N], float y[N][N]) {\n"
	         "#pragma fuse kernel\n"
	         "  for (int i = 0; i < N; i++) {\n"
	         "    float s[N];\n"
	         "    for (int j = 0; j < N; j++)\n"
	         "      s[j] = x[i][j] * 2;\n"
	         "    for (int j = 0; j < N; j++)\n"
	         "      y[i][j] = s[%s];\n"
	         "  }\n"
	         "}\n",
	         read);
	Program *p = parse_src(src);
	DepInfo *d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	/* s is private to i whatever the consumer reads. */
	expect_free(d, loop_of(p, "i", 0), NULL, 0);
	Loc w = {0};
	bool r = deps_fusable(d, loop_of(p, "j", 0), loop_of(p, "j", 1), NULL, 0, &w);
	*witness_line = w.line;
	/* Ignoring s leaves nothing between the two loops. */
	Var *s = local_of(p, "s");
	ck_assert(deps_fusable(d, loop_of(p, "j", 0), loop_of(p, "j", 1), &s, 1, NULL));
	deps_free(d);
	program_free(p);
	return r;
}

START_TEST(test_sibling_fusion)
{
	int line = 0;
	ck_assert(siblings_fusable("j", &line));
	ck_assert(!siblings_fusable("j + 1", &line));
	ck_assert_int_eq(line, 6); /* the write s[j] */
	ck_assert(!siblings_fusable("N - 1 - j", &line));
	ck_assert_int_eq(line, 6);
	/* Reading behind is legal for a sequential fused loop but not tile by tile. */
	ck_assert(!siblings_fusable("j - 1", &line));
}
END_TEST

START_TEST(test_privatisation)
{
	Program *p = parse_src(
		"void priv(int N, int M, const float x[N][M], float y[N][M]) {\n" /* 1 */
		"#pragma fuse kernel\n"                                          /* 2 */
		"  for (int b = 0; b < N; b++) {\n"                              /* 3 */
		"    float t = 0.0f;\n"                                          /* 4 */
		"    for (int i = 0; i < M; i++) {\n"                            /* 5 */
		"      float u = x[b][i];\n"                                     /* 6 */
		"      t = u * u;\n"                                             /* 7 */
		"      y[b][i] = t + u;\n"                                       /* 8 */
		"    }\n"                                                        /* 9 */
		"    float w[4];\n"                                              /* 10 */
		"    for (int i = 0; i < M; i++) {\n"                            /* 11 */
		"      w[i % 4] = x[b][i];\n"                                    /* 12 */
		"    }\n"                                                        /* 13 */
		"  }\n"                                                          /* 14 */
		"}\n");
	DepInfo *d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	Var *t = local_of(p, "t"), *w = local_of(p, "w");
	/* t and w are declared inside b: b carries nothing. (t has a value: the front end
	 * would declare a `float t;` that only loop i uses in i's body.) */
	expect_free(d, loop_of(p, "b", 0), NULL, 0);
	/* u is private to i, t is not: i carries through t only. */
	expect_carries(d, loop_of(p, "i", 0), NULL, 0, 7);
	expect_free(d, loop_of(p, "i", 0), &t, 1);
	/* w[i % 4] is overwritten every fourth iteration. */
	expect_carries(d, loop_of(p, "i", 1), NULL, 0, 12);
	expect_free(d, loop_of(p, "i", 1), &w, 1);
	deps_free(d);
	program_free(p);
}
END_TEST

START_TEST(test_triangular)
{
	/* Lower triangle from the upper one: disjoint only because j <= i. */
	const char *fmt =
		"void tri(int N, float x[N][N]) {\n"
		"#pragma fuse kernel\n"
		"  for (int i = 0; i < N; i++)\n"
		"    for (int j = 0; j %s; j++)\n"
		"      x[i][j] = x[j][i];\n"
		"}\n";
	char src[512];
	snprintf(src, sizeof src, fmt, "<= i");
	Program *p = parse_src(src);
	DepInfo *d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	expect_free(d, loop_of(p, "i", 0), NULL, 0);
	expect_free(d, loop_of(p, "j", 0), NULL, 0);
	deps_free(d);
	program_free(p);

	snprintf(src, sizeof src, fmt, "< N");
	p = parse_src(src);
	d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	expect_carries(d, loop_of(p, "i", 0), NULL, 0, 5);
	deps_free(d);
	program_free(p);

	/* A causal row maximum: the triangle changes nothing about what carries. */
	p = parse_src(
		"#include <math.h>\n"
		"void causal(int N, const float s[N][N], float o[N]) {\n"
		"#pragma fuse kernel\n"
		"  for (int i = 0; i < N; i++) {\n"
		"    float m = -INFINITY;\n"
		"    for (int j = 0; j <= i; j++)\n"
		"      m = fmaxf(m, s[i][j]);\n"
		"    o[i] = m;\n"
		"  }\n"
		"}\n");
	d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	Var *m = local_of(p, "m");
	expect_free(d, loop_of(p, "i", 0), NULL, 0);
	expect_carries(d, loop_of(p, "j", 0), NULL, 0, 7);
	expect_free(d, loop_of(p, "j", 0), &m, 1);
	deps_free(d);
	program_free(p);

	/* A chunk's start (i / C) * C with a run-time C (Llama-4): modelled from below by
	 * i - |C| + 1; the triangle is still disjoint. */
	p = parse_src(
		"void chunk(int N, int C, float x[N][N]) {\n"
		"#pragma fuse kernel\n"
		"  for (int i = 0; i < N; i++)\n"
		"    for (int j = (i / C) * C; j <= i; j++)\n"
		"      x[i][j] = x[j][i];\n"
		"}\n");
	d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	expect_free(d, loop_of(p, "i", 0), NULL, 0);
	expect_free(d, loop_of(p, "j", 0), NULL, 0);
	deps_free(d);
	program_free(p);
}
END_TEST

START_TEST(test_if_conditions_and_strides)
{
	/* The read in the condition belongs to the assignment under it: x[i + 1] is read at
	 * i and written at i + 1. */
	Program *p = parse_src(
		"void f(int N, float x[N], float y[N]) {\n"
		"#pragma fuse kernel\n"
		"  for (int i = 0; i < N - 1; i++) {\n"
		"    if (x[i + 1] > 0)\n"
		"      y[i] = 1;\n"
		"    x[i] = 0;\n"
		"  }\n"
		"}\n");
	DepInfo *d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	expect_carries(d, loop_of(p, "i", 0), NULL, 0, 6);
	deps_free(d);
	program_free(p);

	/* Affine forms: strides, division and modulo by constants. */
	p = parse_src(
		"void g(int N, float x[N], float y[N], float z[N]) {\n"
		"#pragma fuse kernel\n"
		"  for (int i = 0; i < N; i++) {\n"
		"    x[2 * i] = x[(i + 1) * 2 - 1];\n"
		"    y[i / 2] = 0;\n"
		"    z[i] = z[i - i % 4 + 4];\n"
		"  }\n"
		"}\n");
	d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	Stmt *i = loop_of(p, "i", 0);
	Var *x = param_of(p, "x"), *y = param_of(p, "y"), *z = param_of(p, "z");
	Var *yz[] = {y, z}, *xz[] = {x, z}, *xy[] = {x, y};
	expect_free(d, i, yz, 2); /* even writes, odd reads */
	expect_carries(d, i, xz, 2, 5); /* y[0] written by i = 0 and i = 1 */
	expect_carries(d, i, xy, 2, 6); /* z[4] read at i = 0..3, written at i = 4 */
	deps_free(d);

	/* A tile loop of the fuser steps by more than one: y[i] = y[i - 1] at even i only
	 * reads odd elements. */
	program_free(p);
	p = parse_src(
		"void h(int N, float y[N]) {\n"
		"#pragma fuse kernel\n"
		"  for (int i = 1; i < N; i++)\n"
		"    y[i] = y[i - 1];\n"
		"}\n");
	i = loop_of(p, "i", 0);
	d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	expect_carries(d, i, NULL, 0, 4);
	deps_free(d);
	i->lo = ex_int(p, 0, i->lo->loc);
	i->step = 2;
	d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	expect_free(d, i, NULL, 0);
	deps_free(d);
	program_free(p);
}
END_TEST

/* `body` becomes line 5, inside loops i and j; deps_compute must fail with `what`. */
static void expect_error(const char *body, const char *what)
{
	char src[1024];
	snprintf(src, sizeof src,
	         "void f(int N, int G, float fl, const int n[N], float x[N], float y[N][N]) {\n"
	         "#pragma fuse kernel\n"
	         "  for (int i = 0; i < N; i++)\n"
	         "    for (int j = 0; j < N; j++) {\n"
	         "%s\n"
	         "    }\n"
	         "}\n",
	         body);
	Program *p = parse_src(src);
	DepInfo *d = compute(p);
	ck_assert_msg(d == NULL, "accepted: %s", body);
	ck_assert_msg(strstr(diags(), what) != NULL, "expected '%s' in:\n%s", what, diags());
	program_free(p);
}

START_TEST(test_non_affine)
{
	expect_error("x[i * j] = 0;", ":5:5: error: non-affine subscript 'i * j' of 'x': fusecc cannot show that two iterations store different elements");
	expect_error("x[i] = x[(int)fl];", ":5:10: error: non-affine subscript '(int)fl' of 'x'");
	expect_error("x[i / G + 1] = 0;", ":5:5: error: non-affine subscript 'i / G + 1' of 'x'");
	expect_error("x[n[i]] = 0;", ":5:3: error: 'x' is stored through an index, at subscript 'n[i]': fusecc refuses a write through an index array");
	/* A start read from an array runs the loop from 0 over n[i] + k (front end): the
	 * store is then a scatter, not a packed row (its end is not n[i + 1] - n[i]). */
	expect_error("for (int k = n[i]; k < N; k++) x[k] = 0;", "error: 'x' is stored through an index, at subscript 'n[i] + k'");
	expect_error("for (int k = j * i; k < N; k++) x[k] = 0;", ":5:16: error: non-affine loop bound 'j * i'");
	expect_error("for (int k = (j / G) * N; k < N; k++) x[k] = 0;", "error: non-affine loop bound 'j / G * N'");
	expect_error("float t = 1; x[(int)t] = 0;", "non-affine subscript '(int)t' of 'x'");
	/* One report for a condition over two statements, and the condition's place. */
	expect_error("if (y[i][j * j] > 0) { x[i] = 0; y[i][j] = 1; }", ":5:12: error: non-affine subscript 'j * j' of 'y', which the region also stores");
	const char *first = strstr(diags(), "non-affine");
	ck_assert_ptr_null(strstr(first + 1, "non-affine"));
	/* Every array's problem is reported, once, its store's before a read's. */
	expect_error("x[i * j] = 0; y[i][j * j] = x[j * j];", "'j * j' of 'y'");
	ck_assert_ptr_nonnull(strstr(diags(), "'i * j' of 'x'"));
	ck_assert_ptr_null(strstr(diags(), "'j * j' of 'x'"));
	expect_error("y[i][j] = x[j * j]; x[i * j] = 0;", "'i * j' of 'x'");
	ck_assert_ptr_null(strstr(diags(), "'j * j' of 'x'"));
}
END_TEST

/* A read of an array the region never stores may be at any subscript (an index array's
 * value, h / G): it conflicts with nothing. A flattened pair kh * G + g (g < G) is exact,
 * stores included. */
START_TEST(test_free_reads)
{
	const char *src = "void f(int N, int G, const int n[N], const float y[N][N], float x[N], float z[N][N]) {\n"
	                  "#pragma fuse kernel\n"
	                  "  for (int i = 0; i < N; i++)\n"
	                  "    for (int g = 0; g < G; g++) {\n"
	                  "      x[i] += y[n[i]][i / G] * y[i * g][g % G];\n"
	                  "      z[i][i * G + g] = y[i][g];\n"
	                  "    }\n"
	                  "}\n";
	Program *p = parse_src(src);
	DepInfo *d = compute(p);
	ck_assert_msg(d != NULL, "%s", diags());
	Stmt *i = loop_of(p, "i", 0), *g = loop_of(p, "g", 0);
	expect_free(d, i, NULL, 0);
	expect_carries(d, g, NULL, 0, 5);
	deps_free(d);
	program_free(p);
}
END_TEST

Suite *deps_suite(void)
{
	Suite *s = suite_create("deps");
	TCase *tc = tcase_create("deps");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_attention_row);
	tcase_add_test(tc, test_free_reads);
	tcase_add_test(tc, test_scan);
	tcase_add_test(tc, test_sibling_fusion);
	tcase_add_test(tc, test_privatisation);
	tcase_add_test(tc, test_triangular);
	tcase_add_test(tc, test_if_conditions_and_strides);
	tcase_add_test(tc, test_non_affine);
	suite_add_tcase(s, tc);
	return s;
}
