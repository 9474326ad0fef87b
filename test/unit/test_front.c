/* test_front.c: the IR builder on small inputs written to a temporary file. */
#include <string.h>
#include <unistd.h>

#include "front/front.h"
#include "unit.h"

static Captured cap;

static Program *parse_src(const char *src) { return unit_parse(src, &cap); }

static const char *diags(void) { return cap.text ? cap.text : ""; }

static void teardown(void)
{
	free(cap.text);
	cap.text = NULL;
}

START_TEST(test_region_ir)
{
	Program *p = parse_src(
		"#include <math.h>\n"
		"void f(int N, const float x[N], float y[N]) {\n"
		"#pragma fuse kernel(sm) parallel(i)\n"
		"  for (int i = 0; i <= N - 1; ++i) {\n"
		"    float m = -INFINITY;\n"
		"    for (int j = 0; j < N; j += 1) m = fmaxf(m, x[j]);\n"
		"    for (int j = 0; j < N; j = j + 1) y[j] = x[j] - m;\n"
		"  }\n"
		"}\n"
		"void untouched(int n) { for (int i = 0; i < n; i++) ; }\n");
	ck_assert_msg(p != NULL, "%s", diags());
	ck_assert_int_eq(p->nfuncs, 1);
	Func *f = p->funcs[0];
	ck_assert_str_eq(f->name, "f");
	ck_assert_int_eq(f->nparams, 3);
	ck_assert(f->params[1]->is_const && !f->params[2]->is_const);
	ck_assert_int_eq(f->params[1]->ndim, 1);
	ck_assert_ptr_eq(f->params[1]->dims[0]->var, f->params[0]);
	ck_assert_int_eq(f->nregions, 1);
	ck_assert_str_eq(f->regions[0]->name, "sm");
	Stmt *loop = f->regions[0]->loop;
	ck_assert_int_eq(loop->kind, ST_FOR);
	StrBuf b = {0};
	print_expr(&b, loop->hi);
	ck_assert_str_eq(b.s, "N - 1 + 1");
	sb_free(&b);
	Stmt *body = loop->body[0];
	ck_assert_int_eq(body->nbody, 3);
	Stmt *j1 = body->body[1], *j2 = body->body[2];
	/* Sibling loops share a name but are distinct variables. */
	ck_assert_str_eq(j1->var->name, j2->var->name);
	ck_assert_ptr_ne(j1->var, j2->var);
	Stmt *as = j1->body[0];
	ck_assert_int_eq(as->rhs->kind, EX_CALL);
	ck_assert_int_eq(as->rhs->fn, FN_FMAX);
	ck_assert_ptr_eq(as->lhs->var, body->body[0]->var);
	ck_assert_ptr_eq(as->rhs->args[1]->args[0]->var, j1->var);
	program_free(p);
}
END_TEST

/* The types frameworks store index, offset and mask arrays in: their IR types, the
 * spelling the fused C keeps, and C's promotions of the values read from them. */
START_TEST(test_index_and_mask_types)
{
	Program *p = parse_src(
		"#include <stdbool.h>\n"
		"#include <stdint.h>\n"
		"typedef int64_t idx_t;\n"
		"void f(int T, int V, const float x[T][V], const int64_t t64[T], const long tl[T], const long long tll[T],\n"
		"       const idx_t tid[T], const int32_t t32[T], const uint8_t m8[T], const unsigned char mu[T], const bool mb[T], float y[T]) {\n"
		"#pragma fuse kernel(k) parallel(t)\n"
		"  for (int t = 0; t < T; t++)\n"
		"    for (int v = 0; v < tl[t]; v++)\n"
		"      y[t] = x[t][t64[t]] + x[t][tid[t] + t32[t]] + (m8[t] ? 1.0f : 0.0f) + (mb[t] + mu[t] - tll[t]);\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	Func *f = p->funcs[0];
	static const ScalarType ty[] = {TY_I64, TY_I64, TY_I64, TY_I64, TY_INT, TY_U8, TY_U8, TY_BOOL};
	static const char *const spelt[] = {"int64_t", "long", "long long", "int64_t", "int32_t", "uint8_t", "unsigned char", "_Bool"};
	for (int i = 0; i < 8; i++) {
		ck_assert_int_eq(f->params[3 + i]->ty, ty[i]);
		ck_assert_str_eq(f->params[3 + i]->ctype, spelt[i]);
	}
	Stmt *as = f->regions[0]->loop->body[0]->body[0];
	ck_assert_int_eq(f->regions[0]->loop->body[0]->hi->ty, TY_I64);
	/* (mb + mu - tll): bool and byte promote to int, the int64 operand wins. */
	const Expr *last = as->rhs->args[1];
	ck_assert_int_eq(last->ty, TY_I64);
	ck_assert_int_eq(last->args[0]->ty, TY_INT);
	program_free(p);
}
END_TEST

START_TEST(test_pragma_scan_edge_cases)
{
	Program *p = parse_src(
		"void f(int N, float y[N]) {\n"
		"#if 0\n"
		"#pragma fuse kernel(never) bogus\n"
		"#endif\n"
		"#pragma fuse kernel(k) /* a comment */ \\\n"
		"    parallel(i)\n"
		"  // a line comment between the pragma and the loop\n"
		"  for (int i = 0; i < N; i++) y[i] = 0;\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	ck_assert_str_eq(p->funcs[0]->regions[0]->name, "k");
	ck_assert_int_eq(p->funcs[0]->regions[0]->loop->sched->nparallel, 1);
	program_free(p);
}
END_TEST

static void expect_error(const char *src, const char *what)
{
	Program *p = parse_src(src);
	ck_assert_msg(p == NULL, "accepted: %s", src);
	ck_assert_msg(strstr(diags(), what) != NULL, "expected '%s' in:\n%s", what, diags());
	ck_assert_msg(strstr(diags(), ": error: ") != NULL, "no located error in:\n%s", diags());
}

#define REGION(body) "#include <math.h>\n#define CAT(a, b) a##b\nvoid f(int N, float x[N]) {\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) {\n" body "\n}\n}\n"

/* A set-up scalar read from an array is copied into each region that reads it, with its
 * initialiser, and leaves the set-up (the host cannot read device memory). */
START_TEST(test_setup_array_copy)
{
	Program *p = parse_src("void f(int N, int L, int layer, const float t[L], float x[N], float y[N]) {\n"
	                       "const float T = t[layer];\n"
	                       "#pragma fuse kernel(a)\nfor (int i = 0; i < N; i++) x[i] = T;\n"
	                       "#pragma fuse kernel(b)\nfor (int i = 0; i < N; i++) y[i] = 2 * T;\n}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	const Func *f = p->funcs[0];
	ck_assert_int_eq(f->nsetup, 0);
	for (int r = 0; r < 2; r++) {
		const Stmt *b = f->regions[r]->loop->body[0];
		ck_assert_int_eq(b->kind, ST_BLOCK);
		ck_assert_int_eq(b->body[0]->kind, ST_DECL);
		ck_assert_str_eq(b->body[0]->var->name, "T");
		ck_assert_int_eq(b->body[0]->rhs->kind, EX_INDEX);
	}
	/* each region its own variable */
	ck_assert_ptr_ne(f->regions[0]->loop->body[0]->body[0]->var, f->regions[1]->loop->body[0]->body[0]->var);
	program_free(p);
}
END_TEST

START_TEST(test_refusals)
{
	expect_error(REGION("x[i] CAT(+, =) 1;"), "operator comes from a macro expansion");
	expect_error(REGION("goto out; out: x[i] = 0;"), "'goto' is not supported");
	expect_error(REGION("x[i] = foo(x[i]);"), "undeclared function 'foo'");
	expect_error("float foo(float);\n" REGION("x[i] = foo(x[i]);"), "call to 'foo'");
	expect_error(REGION("for (int j = N - 1; j > 0; j--) x[j] = x[j - 1];"), "this loop counts down and its iterations depend on each other's order");
	expect_error(REGION("for (int j = 0; j > N; j++) x[j] = 0;"), "the loop counts up while its condition wants the iterator above its end");
	expect_error(REGION("for (int j = 0; j < N; j++) { if (j > i) { x[j] = 1; break; } x[j] = 0; }"), "'break' is supported only as 'if (c) break;' at the top");
	expect_error(REGION("for (int j = 0; j < N; j++) { if (j * j > i) break; x[j] = 0; }"), "this condition may turn false again");
	expect_error(REGION("for (int j = 0; j < N; j++) { if (x[j] > 0) break; x[j] = 0; }"), "'x' may change while the loop runs");
	expect_error(REGION("for (int j = 0; j < N; j++) { continue; }"), "'continue' is supported only as 'if (c) continue;'");
	expect_error("void f(int N, float x[N]) {\nint i;\n#pragma fuse kernel\nfor (i = 0; i < N; i++) x[i] = 0;\nx[0] = i;\n}\n", "'i' counts the loop at line 4 and is also used here");
	expect_error(REGION("for (int j = 0; j < N; j += N) x[j] = 0;"), "the loop steps by a value that is not a positive constant");
	expect_error(REGION("for (int j = N - 1; j >= 0; j -= 2) x[j] = 0;"), "the loop must step by one or by a positive constant");
	expect_error(REGION("for (int j = 0; j != N; j += 2) x[j] = 0;"), "a loop stepping by 2 must end with 'v < hi' or 'v <= hi'");
	expect_error(REGION("float s0 = 0, s1 = 0; for (int j = 0; j < N; j += 2) { s0 += x[j]; s1 += x[j + 1]; } x[i] = s0 * s1;"), "unrolled by hand into partial sums ('s0' ... 's1')");
	expect_error(REGION("while (x[i] > 0) x[i] -= 1;"), "fusecc reads a while loop as a for loop only when");
	expect_error(REGION("-x[i];"), "has no effect");
	expect_error(REGION("float a[4] = {1}; x[i] = a[0];"), "array initialisers other than zeros");
	expect_error(REGION("x[i];"), "has no effect");
	expect_error(REGION("N = 3;"), "parameter 'N' may not be assigned");
	expect_error(REGION("x[i] = (float)(~(int)x[i]);"), "operator '~' is not supported");
	expect_error("void f(int N, float **x) {\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) x[i][0] = 0;\n}\n", "'x' has type 'float **'");
	expect_error("void f(int N, float x[N]) {\n#pragma fuse kernel\nx[0] = 1;\n}\n", "must be followed by a for statement");
	expect_error("void f(int N, float x[N]) {\nx[0] = 1;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) x[i] = 0;\n}\n", "only scalar set-up may go there");
	expect_error("void f(int N, float x[N]) {\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) x[i] = 0;\nfor (int i = 0; i < N; i++) x[i] = 1;\n}\n", "a loop outside");
	/* Scalar set-up outside a region: reads only scalars, set before a region reads it. */
	/* (a scalar from an array element that a region reads is copied into the region, see
	 * test_setup_array_copy; one that bounds the region's loop cannot be) */
	expect_error("void f(int N, const int y[N], float x[N]) {\nint n = y[0];\n#pragma fuse kernel\nfor (int i = 0; i < n; i++) x[i] = 0;\n}\n", "may read only scalars");
	expect_error("void f(int N, const float y[N], float x[N]) {\nfloat s = y[0];\nfloat t = s * 2;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) x[i] = t;\n}\n", "may read only scalars");
	expect_error("void f(int N, float x[N]) {\nfloat s = 1;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) x[i] = s;\ns = 2;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) x[i] += s;\n}\n", "is changed after region");
	expect_error("void f(int N, float x[N]) {\nfloat s = 1;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) { x[i] = s; s = 3; }\n}\n", "assigned inside it");
	expect_error("void f(int N, float x[N], float y[N]) {\nfloat s;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) { s = 3; x[i] = s; }\nconst float t = s;\n"
	             "#pragma fuse kernel\nfor (int i = 0; i < N; i++) y[i] = t;\n}\n", "declared before a region that assigns it, and used outside it");
	expect_error("void f(int N, float x[N], float y[N]) {\nfloat s;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) { s = 3; x[i] = s; }\n"
	             "#pragma fuse kernel\nfor (int i = 0; i < N; i++) y[i] = s;\n}\n", "read by region");
	expect_error("void f(int N, float x[N]) {\nfloat a[4];\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) { x[i] = a[0]; a[0] = 1; }\n}\n", "declared outside a");
	expect_error("void f(int N, float x[N]) {\nfor (int i = 0; i < N; i++) x[i] = 1;\n#pragma fuse kernel\nfor (int i = 0; i < N; i++) x[i] = 0;\n}\n", "a loop outside a '#pragma fuse kernel' region");
	expect_error("void f(int N, float x[N]) {\nfor (int i = 0; i < N; i++) {\n#pragma fuse kernel\nfor (int j = 0; j < N; j++) x[j] = 0;\n}\n}\n", "only allowed before a for statement at the top level");
	expect_error("void f(int N, float x[N]) {\n#pragma fuse kernel(a)\nfor (int i = 0; i < N; i++) x[i] = 0;\n#pragma fuse kernel(a)\nfor (int i = 0; i < N; i++) x[i] = 1;\n}\n", "kernel name 'a' is used twice");
}
END_TEST

/* A constant step: a loop over the blocks, the iterator read as lo + vb * S; a loop
 * unrolled by hand (one sum of shifted terms, or partial sums added up after it) rolled
 * back into one loop stepping by one. */
START_TEST(test_step_loops)
{
	Program *p = parse_src(
		"#define BLK 32\n"
		"void f(int N, const float x[N][64], float y[N], float z[N]) {\n"
		"#pragma fuse kernel parallel(i)\n"
		"  for (int i = 0; i < N; i++) {\n"
		"    float m = 0;\n"
		"    for (int s = 1; s <= N; s += BLK) for (int n = 0; n < BLK; n++) if (s + n < N) m += x[s + n][0];\n"
		"    float a = 0;\n"
		"    for (int d = 0; d < 64; d += 2) a += x[i][d] + x[i][d + 1];\n"
		"    float p0 = 0, p1 = 0;\n"
		"    for (int d = 0; d < 64; d += 2) { p0 += x[i][d]; p1 += x[i][d + 1]; }\n"
		"    y[i] = m + a;\n"
		"    z[i] = p1 + p0;\n"
		"  }\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	StrBuf b = {0};
	print_stmt(&b, p->funcs[0]->regions[0]->loop, 0);
	ck_assert_msg(strstr(b.s, "for (int s = 0; s < (N + 1 - 1 + 31) / 32; s++)") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "if (1 + s * 32 + n < N)") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "for (int d = 0; d < 64; d++)\n\t\ta += x[i][d];") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "for (int d = 0; d < 64; d++)\n\t\tp0 += x[i][d];") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "z[i] = p0;") != NULL, "%s", b.s);
	free(b.s);
	program_free(p);
}
END_TEST

/* Natural loop forms: C89 iterators and locals, continue and break under an if, `!=`,
 * `N > j`, loops counting down. */
START_TEST(test_natural_loop_forms)
{
	Program *p = parse_src(
		"#include <math.h>\n"
		"void f(int N, const float x[N][N], float y[N]) {\n"
		"  int i, j;\n"
		"#pragma fuse kernel parallel(i)\n"
		"  for (i = 0; i != N; ++i) {\n"
		"    float m, l;\n"
		"    m = -INFINITY;\n"
		"    for (j = 0; j < N; j++) { if (j > i) continue; m = fmaxf(m, x[i][j]); }\n"
		"    l = 0.0f;\n"
		"    for (j = N - 1; j >= 0; j--) { if (j > i) continue; l += expf(x[i][j] - m); }\n"
		"    for (j = 0; N > j; j = j + 1) { if (j > i) break; y[j] += l; }\n"
		"  }\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	Func *f = p->funcs[0];
	/* the iterators are no set-up scalars */
	ck_assert_int_eq(f->nsvars, 0);
	Stmt *loop = f->regions[0]->loop;
	StrBuf b = {0};
	print_stmt(&b, loop, 0);
	/* continue guards the rest of the body; break ends the loop at i + 1, and the guarded
	 * loops beside it take that end too */
	ck_assert_str_eq(b.s,
	                 "for (int i = 0; i < N; i++) {\n"
	                 "\tfloat m = -INFINITY;\n"
	                 "\tfor (int j = 0; j < i + 1; j++)\n"
	                 "\t\tm = fmaxf(m, x[i][j]);\n"
	                 "\tfloat l = 0.0f;\n"
	                 "\tfor (int j = 0; j < i + 1; j++)\n"
	                 "\t\tl += expf(x[i][j] - m);\n"
	                 "\tfor (int j = 0; j < i + 1; j++)\n"
	                 "\t\ty[j] += l;\n"
	                 "}\n");
	sb_free(&b);
	/* each loop over j has an iterator of its own */
	Stmt *body = loop->body[0];
	ck_assert_ptr_ne(body->body[1]->var, body->body[3]->var);
	ck_assert_ptr_ne(body->body[3]->var, body->body[4]->var);
	program_free(p);

	/* without a loop that ends at i + 1, continue leaves the guard (the tile lowering
	 * narrows the rows' range by it) */
	p = parse_src(
		"void g(int N, const float x[N][N], float y[N]) {\n"
		"#pragma fuse kernel parallel(i)\n"
		"  for (int i = 0; i < N; i++) {\n"
		"    float s = 0.0f;\n"
		"    for (int j = 0; j < N; j++) {\n"
		"      if (j > i || x[i][j] < 0.0f) continue;\n"
		"      s += x[i][j];\n"
		"    }\n"
		"    y[i] = s;\n"
		"  }\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	b = (StrBuf){0};
	print_stmt(&b, p->funcs[0]->regions[0]->loop->body[0]->body[1], 0);
	ck_assert_str_eq(b.s,
	                 "for (int j = 0; j < N; j++)\n"
	                 "\tif (j <= i && !(x[i][j] < 0.0f)) {\n"
	                 "\t\ts += x[i][j];\n"
	                 "\t}\n");
	sb_free(&b);
	program_free(p);
}
END_TEST

/* Local loop ends read through their definitions (an inclusive end, a clamp, a chain),
 * a loop from an offset read from an array shifted to start at 0 with the offset
 * cancelled in the loop inside, &x[i][0] read as x[i][d], powf(e, 2) as e * e. */
START_TEST(test_bounds_offsets_squares)
{
	Program *p = parse_src(
		"#include <math.h>\n"
		"void f(int S, int T, int W, const int cu[S + 1], const float x[T][T], float y[T]) {\n"
		"#pragma fuse kernel parallel(s, t)\n"
		"  for (int s = 0; s < S; s++)\n"
		"    for (int t = cu[s]; t < cu[s + 1]; t++) {\n"
		"      const float *xr = &x[t][0];\n"
		"      const int n = t - cu[s];\n"
		"      int hi = n + W;\n"
		"      if (hi > T - 1) hi = T - 1;\n"
		"      float a = 0.0f;\n"
		"      for (int u = cu[s]; u <= t; u++)\n"
		"        for (int d = 0; d <= hi; d++)\n"
		"          a += powf(xr[d] - x[u][d], 2.0f);\n"
		"      y[t] = a;\n"
		"    }\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	StrBuf b = {0};
	Stmt *body = p->funcs[0]->regions[0]->loop->body[0];
	print_stmt(&b, body, 0);
	ck_assert_msg(strstr(b.s, "for (int t = 0; t < cu[s + 1] - cu[s]; t++)") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "for (int u = 0; u < t + 1; u++)") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "for (int d = 0; d < (cu[s] + t - cu[s] + W > T - 1 ? T - 1 : cu[s] + t - cu[s] + W) + 1; d++)") != NULL, "%s", b.s);
	ck_assert_msg(strstr(b.s, "a += (x[cu[s] + t][d] - x[cu[s] + u][d]) * (x[cu[s] + t][d] - x[cu[s] + u][d]);") != NULL, "%s", b.s);
	sb_free(&b);
	program_free(p);
}
END_TEST

/* A start clamped to an offset read from an array (a window's first key, by an if and by
 * one assignment) counts from the offset, as the rows do; a start the loop stores stays
 * (the analysis then refuses it as not affine: test/bad/start_stored_in_loop). */
START_TEST(test_clamped_data_start)
{
	static const char *const clamps[] = {"      if (lo < cu[s]) lo = cu[s];\n", "      lo = lo < cu[s] ? cu[s] : lo;\n"};
	for (int k = 0; k < 2; k++) {
		StrBuf src = {0};
		sb_printf(&src,
		          "#include <stdint.h>\n"
		          "void f(int64_t S, int64_t T, int64_t W, const int64_t cu[S + 1], const float x[T], float y[T]) {\n"
		          "#pragma fuse kernel parallel(s, t)\n"
		          "  for (int64_t s = 0; s < S; s++)\n"
		          "    for (int64_t t = cu[s]; t < cu[s + 1]; t++) {\n"
		          "      int64_t lo = t - W + 1;\n"
		          "%s"
		          "      float a = 0.0f;\n"
		          "      for (int64_t u = lo; u <= t; u++)\n"
		          "        a += x[u];\n"
		          "      y[t] = a;\n"
		          "    }\n"
		          "}\n",
		          clamps[k]);
		Program *p = parse_src(src.s);
		sb_free(&src);
		ck_assert_msg(p != NULL, "%s", diags());
		StrBuf b = {0};
		print_stmt(&b, p->funcs[0]->regions[0]->loop->body[0], 0);
		ck_assert_msg(strstr(b.s, "for (int u = (int64_t)(t - W + 1) < 0 ? 0 : (int64_t)(t - W + 1); u < t + 1; u++)") != NULL, "%s", b.s);
		ck_assert_msg(strstr(b.s, "a += x[cu[s] + u];") != NULL, "%s", b.s);
		sb_free(&b);
		program_free(p);
	}
	Program *p = parse_src("void f(int R, int N, int pos[R + 1], const float x[N], float y[R]) {\n"
	                       "#pragma fuse kernel parallel(r)\n"
	                       "  for (int r = 0; r < R; r++) {\n"
	                       "    float s = 0.0f;\n"
	                       "    for (int c = pos[r]; c < pos[r + 1]; c++) {\n"
	                       "      s += x[c];\n"
	                       "      pos[r] = c + 1;\n"
	                       "    }\n"
	                       "    y[r] = s;\n"
	                       "  }\n"
	                       "}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	StrBuf b = {0};
	print_stmt(&b, p->funcs[0]->regions[0]->loop->body[0], 0);
	ck_assert_msg(strstr(b.s, "for (int c = pos[r]; c < pos[r + 1]; c++)") != NULL, "%s", b.s);
	sb_free(&b);
	program_free(p);
}
END_TEST

START_TEST(test_error_has_caret)
{
	expect_error(REGION("x[i] CAT(+, =) 1;"), "operator comes from a macro");
	/* line 6 holds the statement; the caret line follows the quoted source line. */
	ck_assert_ptr_nonnull(strstr(diags(), ":6:6: error:"));
	ck_assert_ptr_nonnull(strstr(diags(), "\n x[i] CAT(+, =) 1;\n      ^\n"));
}
END_TEST

/* Forms CPU code carries: <math.h>'s classification macros (builtins after expansion), an
 * int abs in a window compare (two comparisons, which bound the iterator), constants of
 * the file, OpenMP and loop-hint pragmas. */
START_TEST(test_struct_params)
{
	/* Fields read become parameters of their own where the struct stands, in field
	 * order, named <struct>_<field> (cfg_n is taken: cfg_n_2); unread fields are not. */
	Program *p = parse_src(
		"#include <math.h>\n"
		"struct cfg { int n; float unused; int d; float scale; };\n"
		"typedef struct { const float *x; float *y; } bufs;\n"
		"void f(int cfg_n, struct cfg cfg, const bufs *b, const float w[cfg.d]) {\n"
		"#pragma fuse kernel(k) parallel(i)\n"
		"  for (int i = 0; i < cfg.n + cfg_n; i++) {\n"
		"    float s = 0.0f;\n"
		"    for (int j = 0; j < cfg.d; j++) s += b->x[i * cfg.d + j] * w[j];\n"
		"    b->y[i] = s * cfg.scale;\n"
		"  }\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	Func *f = p->funcs[0];
	ck_assert_int_eq(f->nstructs, 2);
	ck_assert_int_eq(f->nparams, 7);
	static const char *const names[] = {"cfg_n", "cfg_n_2", "cfg_d", "cfg_scale", "b_x", "b_y", "w"};
	for (int i = 0; i < 7; i++)
		ck_assert_str_eq(f->params[i]->name, names[i]);
	ck_assert_ptr_eq(f->params[1]->field_of, f->structs[0]);
	ck_assert_str_eq(f->params[1]->field, "n");
	ck_assert(f->structs[1]->by_pointer && f->structs[1]->typedef_name && !f->structs[1]->tag);
	ck_assert(f->params[4]->flat && f->params[4]->is_const && !f->params[5]->is_const);
	ck_assert_ptr_eq(f->params[6]->dims[0]->var, f->params[2]);
	SigEntry sig[9];
	ck_assert_int_eq(func_signature(f, sig), 4);
	ck_assert(sig[0].v == f->params[0] && sig[1].s == f->structs[0] && sig[2].s == f->structs[1] && sig[3].v == f->params[6]);
	StrBuf b = {0};
	print_struct_def(&b, f->structs[1], NULL);
	ck_assert_str_eq(b.s, "typedef struct {\n\tconst float *x;\n\tfloat *y;\n} bufs;\n");
	sb_free(&b);
	program_free(p);
}
END_TEST

START_TEST(test_cpu_code_forms)
{
	Program *p = parse_src(
		"#include <math.h>\n"
		"#include <stdlib.h>\n"
		"static const float kScale = 0.5f;\n"
		"static const int W = 3;\n"
		"void f(int N, const float x[N][N], float y[N]) {\n"
		"#pragma fuse kernel(k) parallel(i)\n"
		"#pragma omp parallel for schedule(static)\n"
		"  for (int i = 0; i < N; i++) {\n"
		"    float s = 0.0f;\n"
		"#pragma GCC unroll 4\n"
		"    for (int j = 0; j < N; j++)\n"
		"      if (abs(i - j) > W) s += x[i][j] * kScale;\n"
		"    y[i] = isfinite(s) ? s : 0.0f;\n"
		"  }\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	Stmt *body = p->funcs[0]->regions[0]->loop->body[0];
	ck_assert_int_eq(body->nbody, 3);
	Stmt *j = body->body[1];
	ck_assert_int_eq(j->kind, ST_FOR);
	StrBuf b = {0};
	print_expr(&b, j->body[0]->cond);
	ck_assert_str_eq(b.s, "i - j > 3 || j - i > 3");
	sb_free(&b);
	print_expr(&b, j->body[0]->body[0]->rhs);
	ck_assert_str_eq(b.s, "x[i][j] * 0.5f");
	sb_free(&b);
	Expr *sel = body->body[2]->rhs;
	ck_assert_int_eq(sel->kind, EX_COND);
	ck_assert_int_eq(sel->args[0]->kind, EX_CALL);
	ck_assert_int_eq(sel->args[0]->fn, FN_ISFINITE);
	program_free(p);
	expect_error("#include <stdlib.h>\n" REGION("x[i] = (float)abs(x[i]);"), "abs() of a non-integer value");
}
END_TEST

/* x = fmaf(a, b, x) is read as the sum step x += a * b (fma_step); other fma calls stay. */
START_TEST(test_fma_steps)
{
	Program *p = parse_src(
		"#include <math.h>\n"
		"void f(int N, const float x[N][N], float y[N][4]) {\n"
		"#pragma fuse kernel(k) parallel(i)\n"
		"  for (int i = 0; i < N; i++) {\n"
		"    float s = 0.0f, t = 0.0f, u = 1.0f; double w = 0.0;\n"
		"    for (int j = 0; j < N; j++) {\n"
		"      s = fmaf(x[i][j], x[j][i], s);\n"
		"      t = fma(x[i][j], 2.0f, t);\n"
		"      u = fmaf(u, x[i][j], 1.0f);\n"
		"      w = __builtin_fmaf(x[i][j], x[i][j], w);\n"
		"    }\n"
		"    y[i][0] = s; y[i][1] = t; y[i][2] = u; y[i][3] = (float)w;\n"
		"  }\n"
		"}\n");
	ck_assert_msg(p != NULL, "%s", diags());
	Stmt *j = p->funcs[0]->regions[0]->loop->body[0]->body[4];
	ck_assert_int_eq(j->kind, ST_FOR);
	static const char *const want[][2] = {
		{"+=", "x[i][j] * x[j][i]"},
		{"+=", "(double)x[i][j] * (double)2.0f"}, /* fma's product, exact in double: fma's value */
		{"=", "u * x[i][j] + 1.0f"},              /* no sum into u: the rescale form online.c reads */
		{"=", "fmaf(x[i][j], x[i][j], w)"},       /* a double w rounded to float each step */
	};
	for (int k = 0; k < 4; k++) {
		Stmt *a = j->body[0]->body[k];
		ck_assert_int_eq(a->kind, ST_ASSIGN);
		ck_assert_str_eq(a->aop == AS_ADD ? "+=" : a->aop == AS_SET ? "=" : "?", want[k][0]);
		StrBuf b = {0};
		print_expr(&b, a->rhs);
		ck_assert_str_eq(b.s, want[k][1]);
		sb_free(&b);
	}
	program_free(p);
}
END_TEST

Suite *front_suite(void)
{
	Suite *s = suite_create("front");
	TCase *tc = tcase_create("front");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_region_ir);
	tcase_add_test(tc, test_index_and_mask_types);
	tcase_add_test(tc, test_pragma_scan_edge_cases);
	tcase_add_test(tc, test_cpu_code_forms);
	tcase_add_test(tc, test_fma_steps);
	tcase_add_test(tc, test_setup_array_copy);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_natural_loop_forms);
	tcase_add_test(tc, test_bounds_offsets_squares);
	tcase_add_test(tc, test_clamped_data_start);
	tcase_add_test(tc, test_error_has_caret);
	tcase_add_test(tc, test_struct_params);
	tcase_add_test(tc, test_step_loops);
	suite_add_tcase(s, tc);
	return s;
}
