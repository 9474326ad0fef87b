/* test_print.c: the IR printer: parentheses, literals, statements. */
#include <math.h>
#include <string.h>

#include "ir/ir.h"
#include "unit.h"

static Program P;
static Loc L;

static char *show(const Expr *e)
{
	static char buf[256];
	StrBuf b = {0};
	print_expr(&b, e);
	snprintf(buf, sizeof buf, "%s", b.s);
	sb_free(&b);
	return buf;
}

static Expr *var(const char *name, ScalarType t) { return ex_var(&P, var_new(&P, VAR_LOCAL, name, t, L), L); }

START_TEST(test_parens_only_where_needed)
{
	Expr *a = var("a", TY_FLOAT), *b = var("b", TY_FLOAT), *c = var("c", TY_FLOAT);
	ck_assert_str_eq(show(ex_bin(&P, OP_ADD, ex_bin(&P, OP_ADD, a, b, L), c, L)), "a + b + c");
	ck_assert_str_eq(show(ex_bin(&P, OP_SUB, a, ex_bin(&P, OP_SUB, b, c, L), L)), "a - (b - c)");
	ck_assert_str_eq(show(ex_bin(&P, OP_MUL, ex_bin(&P, OP_ADD, a, b, L), c, L)), "(a + b) * c");
	ck_assert_str_eq(show(ex_bin(&P, OP_ADD, a, ex_bin(&P, OP_MUL, b, c, L), L)), "a + b * c");
	ck_assert_str_eq(show(ex_un(&P, UOP_NEG, ex_un(&P, UOP_NEG, a, L), L)), "-(-a)");
	ck_assert_str_eq(show(ex_cast(&P, TY_HALF, ex_bin(&P, OP_DIV, a, b, L), L)), "(_Float16)(a / b)");
	Expr *cond = ex_cond(&P, ex_bin(&P, OP_GT, a, b, L), a, b, L);
	ck_assert_str_eq(show(ex_bin(&P, OP_ADD, cond, c, L)), "(a > b ? a : b) + c");
}
END_TEST

START_TEST(test_float_literals_round_trip)
{
	ck_assert_str_eq(show(ex_flt(&P, (float)0.1, TY_FLOAT, L)), "0.1f");
	ck_assert_str_eq(show(ex_flt(&P, 0.1, TY_DOUBLE, L)), "0.1");
	ck_assert_str_eq(show(ex_flt(&P, 2.0, TY_FLOAT, L)), "2.0f");
	ck_assert_str_eq(show(ex_flt(&P, -INFINITY, TY_FLOAT, L)), "-INFINITY");
	ck_assert_str_eq(show(ex_flt(&P, 3.4028234663852886e38, TY_FLOAT, L)), "3.4028235e+38f");
	ck_assert_str_eq(show(ex_bin(&P, OP_SUB, var("x", TY_FLOAT), ex_flt(&P, -1.5, TY_FLOAT, L), L)), "x - -1.5f");
	ck_assert_str_eq(show(ex_un(&P, UOP_NEG, ex_flt(&P, -1.5, TY_FLOAT, L), L)), "-(-1.5f)");
}
END_TEST

START_TEST(test_bf16_casts_use_header_functions)
{
	Var *g = var_new(&P, VAR_PARAM, "g", TY_BF16, L);
	g->ndim = 1;
	Expr *i = var("i", TY_INT);
	Expr *e = ex_cast(&P, TY_FLOAT, ex_index(&P, g, &i, L), L);
	ck_assert_str_eq(show(e), "fusecc_bf16_to_float(g[i])");
	ck_assert_str_eq(show(ex_cast(&P, TY_BF16, var("acc", TY_FLOAT), L)), "fusecc_float_to_bf16(acc)");
}
END_TEST

START_TEST(test_statements)
{
	Var *i = var_new(&P, VAR_LOOP, "i", TY_INT, L);
	Stmt *as = st_new(&P, ST_ASSIGN, L);
	as->lhs = var("m", TY_FLOAT);
	as->aop = AS_ADD;
	as->rhs = ex_flt(&P, 1, TY_FLOAT, L);
	Stmt *f = st_new(&P, ST_FOR, L);
	f->var = i;
	f->lo = ex_int(&P, 0, L);
	f->hi = ex_bin(&P, OP_ADD, var("n", TY_INT), ex_int(&P, 1, L), L);
	st_set_body(&P, f, &as, 1);
	StrBuf b = {0};
	print_stmt(&b, f, 0);
	ck_assert_str_eq(b.s, "for (int i = 0; i < n + 1; i++)\n\tm += 1.0f;\n");
	sb_free(&b);
}
END_TEST

static void setup(void) { memset(&P, 0, sizeof P); }
static void teardown(void) { arena_free(&P.arena); }

Suite *print_suite(void)
{
	Suite *s = suite_create("print");
	TCase *tc = tcase_create("expr");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_parens_only_where_needed);
	tcase_add_test(tc, test_float_literals_round_trip);
	tcase_add_test(tc, test_bf16_casts_use_header_functions);
	tcase_add_test(tc, test_statements);
	suite_add_tcase(s, tc);
	return s;
}
