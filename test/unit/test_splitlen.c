/* test_splitlen.c: split_host_len (src/lower/tile.c), the bound of a split axis's length
 * that the GPU launcher sizes split-k chunks from when the range is read on the device. */
#include <string.h>

#include "lower/tile.h"
#include "unit.h"

static Program P;
static Loc L;
static Var *b, *jstep, *j, *Lp, *MAXP, *W, *len, *k, *bt, *kr, *start;

static Var *param(const char *name, int ndim, Expr *d0, Expr *d1)
{
	Var *v = var_new(&P, VAR_PARAM, name, TY_INT, L);
	v->ndim = ndim;
	if (ndim) {
		v->dims = arena_alloc(&P.arena, sizeof(Expr *) * 2);
		v->dims[0] = d0;
		v->dims[1] = d1;
	}
	return v;
}

static Expr *ev(Var *v) { return ex_var(&P, v, L); }
static Expr *at(Var *a, Expr *i0, Expr *i1)
{
	Expr *idx[2] = {i0, i1};
	return ex_index(&P, a, idx, L);
}
static Expr *num(long long v) { return ex_int(&P, v, L); }

/* for (j0 = 0; j0 < 1; j0 += 64) for (j = j0; j < 1; j++) x = e; */
static Stmt *pass_reading(Expr *e)
{
	Stmt *as = st_new(&P, ST_ASSIGN, L);
	as->lhs = ex_var(&P, var_new(&P, VAR_LOCAL, "x", TY_INT, L), L);
	as->aop = AS_ADD;
	as->rhs = e;
	Stmt *in = st_new(&P, ST_FOR, L);
	in->var = j;
	in->lo = ev(jstep);
	in->hi = num(1);
	in->step = 1;
	st_set_body(&P, in, &as, 1);
	Stmt *out = st_new(&P, ST_FOR, L);
	out->var = jstep;
	out->lo = num(0);
	out->hi = num(1);
	out->step = 64;
	st_set_body(&P, out, &in, 1);
	return out;
}

static const char *bound(Stmt *pass, Expr *lo, Expr *hi)
{
	static char buf[256];
	Expr *n = NULL;
	if (!split_host_len(&P, pass, lo, hi, &n))
		return "none";
	if (!n)
		return "hi - lo";
	StrBuf s = {0};
	print_expr(&s, n);
	snprintf(buf, sizeof buf, "%s", s.s);
	sb_free(&s);
	return buf;
}

static void setup(void)
{
	memset(&P, 0, sizeof P);
	b = var_new(&P, VAR_LOOP, "b", TY_INT, L);
	jstep = var_new(&P, VAR_LOOP, "j0", TY_INT, L);
	j = var_new(&P, VAR_LOOP, "j", TY_INT, L);
	Lp = param("L", 0, NULL, NULL);
	MAXP = param("MAXP", 0, NULL, NULL);
	W = param("W", 0, NULL, NULL);
	len = param("len", 1, num(4), NULL);
	start = param("start", 1, num(4), NULL);
	k = param("k", 2, num(4), ev(Lp));
	bt = param("bt", 2, num(4), ev(MAXP));
	kr = param("kr", 2, num(4), ev(W));
}
static void teardown(void) { arena_free(&P.arena); }

START_TEST(test_static_range_is_its_own_length)
{
	ck_assert_str_eq(bound(pass_reading(at(k, ev(b), ev(j))), num(0), ev(Lp)), "hi - lo");
}
END_TEST

START_TEST(test_extent_of_the_key_dimension)
{
	Expr *lenb = at(len, ev(b), NULL);
	/* k[b][j]: L; a page table bt[b][j / 16]: MAXP * 16; both: the smaller */
	ck_assert_str_eq(bound(pass_reading(at(k, ev(b), ev(j))), num(0), lenb), "L");
	ck_assert_str_eq(bound(pass_reading(at(bt, ev(b), ex_bin(&P, OP_DIV, ev(j), num(16), L))), num(0), lenb), "MAXP * 16");
	Expr *both = ex_bin(&P, OP_ADD, at(k, ev(b), ev(j)), at(bt, ev(b), ex_bin(&P, OP_DIV, ev(j), num(16), L)), L);
	ck_assert_str_eq(bound(pass_reading(both), num(0), lenb), "L < MAXP * 16 ? L : MAXP * 16");
	/* an offset the pass does not change keeps the extent; a quotient of an offset key
	 * may straddle zero: one more partial page */
	Expr *off = ex_bin(&P, OP_ADD, at(start, ev(b), NULL), ev(j), L);
	ck_assert_str_eq(bound(pass_reading(at(k, ev(b), off)), at(start, ev(b), NULL), lenb), "L");
	ck_assert_str_eq(bound(pass_reading(at(bt, ev(b), ex_bin(&P, OP_DIV, ex_copy(&P, off), num(16), L))), num(0), lenb), "MAXP * 16 + 15");
}
END_TEST

START_TEST(test_static_side_of_a_clamp)
{
	/* j < (len[b] < L ? len[b] : L), nothing read: L */
	Expr *lenb = at(len, ev(b), NULL);
	Expr *hi = ex_cond(&P, ex_bin(&P, OP_LT, lenb, ev(Lp), L), ex_copy(&P, lenb), ev(Lp), L);
	ck_assert_str_eq(bound(pass_reading(num(0)), num(0), hi), "L");
}
END_TEST

START_TEST(test_no_bound)
{
	Expr *lenb = at(len, ev(b), NULL);
	/* a ring buffer: the slot bounds nothing; a read under a condition may not happen;
	 * an offset the pass changes (j + j) */
	Expr *ring = ex_bin(&P, OP_MOD, ex_bin(&P, OP_ADD, at(start, ev(b), NULL), ev(j), L), ev(W), L);
	ck_assert_str_eq(bound(pass_reading(at(kr, ev(b), ring)), num(0), lenb), "none");
	Expr *cond = ex_cond(&P, ex_bin(&P, OP_LT, ev(j), num(3), L), at(k, ev(b), ev(j)), num(0), L);
	ck_assert_str_eq(bound(pass_reading(cond), num(0), lenb), "none");
	ck_assert_str_eq(bound(pass_reading(at(k, ev(b), ex_bin(&P, OP_ADD, ev(j), ev(j), L))), num(0), lenb), "none");
}
END_TEST

Suite *splitlen_suite(void)
{
	Suite *s = suite_create("splitlen");
	TCase *tc = tcase_create("host bound");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_static_range_is_its_own_length);
	tcase_add_test(tc, test_extent_of_the_key_dimension);
	tcase_add_test(tc, test_static_side_of_a_clamp);
	tcase_add_test(tc, test_no_bound);
	suite_add_tcase(s, tc);
	return s;
}
