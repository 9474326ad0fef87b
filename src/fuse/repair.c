/* repair.c: deriving repair terms (DESIGN §4).
 *
 * A contribution g(r, x) of an accumulator reads producer values r (results of earlier
 * levels) and per-step data x. For a sum it must factor as G_x(x) * G_r(r), with
 * G_r = exp(L_e(r)) * exp2(L_2(r)) * prod P_i(r) / prod Q_i(r), L linear in r with
 * coefficients free of the step and P, Q reading only producers and row-level values;
 * then h(t, r, r') = t * G_r(r') / G_r(r), with the exponentials' ratio taken as one
 * exponential of the difference (exp(m - m'), never exp(-m') / exp(-m), which under- and
 * overflows). For max/min it must be G_x(x) + L(r); then h = t + L(r') - L(r). A sum
 * that does not factor may be a sum of such products (repair_expand, at the end): fuse.c
 * then accumulates each on its own and recombines them. Anything else is refused with the
 * reason. Every derived h, and every expansion, is checked at random points. */
#include "fuse.h"

#include <math.h>
#include <string.h>

typedef struct Shifts Shifts;

typedef struct Deriv {
	Cascade *c;
	Accum *a;
	Repair *rp;
	const char *why; /* reason of a refusal */
	Shifts *sh;      /* expansions: the shifts made so far */
	bool in_sum;     /* expansions: inside a chain of + and - (shifted at its top) */
	bool masked;     /* expansions: under a mask (no shift: the first element may be masked) */
} Deriv;

int producer_index(const Cascade *c, const Var *v)
{
	for (int k = 0; k < c->nproducers; k++)
		if (c->producers[k].var == v)
			return k;
	return -1;
}

static bool reads_producers(const Cascade *c, const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR && producer_index(c, e->var) >= 0)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_producers(c, e->args[i]))
			return true;
	return false;
}

/* Whether e is the same on every step of the fused loop: it reads only constants,
 * scalars that are not locals of a level, and inputs indexed by such values. */
static bool row_level(const Cascade *c, const Expr *e)
{
	switch (e->kind) {
	case EX_INT:
	case EX_FLT: return true;
	case EX_VAR:
		if (producer_index(c, e->var) >= 0 || e->var->kind == VAR_PARAM)
			return true;
		/* Written or declared (a local, an inner iterator) inside a level: per step. */
		for (int k = 0; k < c->nlevels; k++)
			if (stmt_writes_var(c->levels[k], e->var) || stmt_declares(c->levels[k], e->var))
				return false;
		return true;
	case EX_INDEX:
		if (!(e->var->kind == VAR_PARAM && e->var->is_const))
			return false;
		break;
	default: break;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!row_level(c, e->args[i]))
			return false;
	return true;
}

/* coef += sign * factor (factor NULL: 1). */
static Expr *coef_add(Program *p, Expr *coef, int sign, Expr *factor, Loc l)
{
	Expr *term = factor ? (sign < 0 ? ex_un(p, UOP_NEG, factor, l) : factor) : ex_flt(p, sign, TY_FLOAT, l);
	return coef ? ex_bin(p, OP_ADD, coef, term, l) : term;
}

static Expr *mul_opt(Program *p, Expr *a, Expr *b, Loc l) { return !a ? b : !b ? a : ex_bin(p, OP_MUL, a, b, l); }

/* Adds sign * factor * e to the linear forms coef[] (per producer). e must be linear in the
 * producers with row-level coefficients; the producer-free rest is the G_x part. */
static bool linearize(Deriv *d, const Expr *e, int sign, Expr *factor, Expr **coef)
{
	Cascade *c = d->c;
	Program *p = c->prog;
	if (!reads_producers(c, e))
		return true;
	switch (e->kind) {
	case EX_VAR: {
		int k = producer_index(c, e->var);
		coef[k] = coef_add(p, coef[k], sign, factor ? ex_copy(p, factor) : NULL, e->loc);
		return true;
	}
	case EX_CAST:
		if (scalar_is_int(e->ty))
			break;
		return linearize(d, e->args[0], sign, factor, coef);
	case EX_UN:
		if (e->uop != UOP_NEG)
			break;
		return linearize(d, e->args[0], -sign, factor, coef);
	case EX_BIN:
		switch (e->bop) {
		case OP_ADD: return linearize(d, e->args[0], sign, factor, coef) && linearize(d, e->args[1], sign, factor, coef);
		case OP_SUB: return linearize(d, e->args[0], sign, factor, coef) && linearize(d, e->args[1], -sign, factor, coef);
		case OP_MUL:
			for (int side = 0; side < 2; side++) {
				const Expr *k = e->args[side], *x = e->args[1 - side];
				if (!reads_producers(c, k) && row_level(c, k))
					return linearize(d, x, sign, mul_opt(p, factor, ex_copy(p, k), e->loc), coef);
			}
			d->why = reads_producers(c, e->args[0]) && reads_producers(c, e->args[1])
			                 ? "two earlier results are multiplied together (only sums of them scaled by constants of the row have a repair)"
			                 : "a producer is multiplied by a value that changes along the loop";
			return false;
		case OP_DIV:
			if (!reads_producers(c, e->args[1]) && row_level(c, e->args[1])) {
				Expr *inv = ex_bin(p, OP_DIV, ex_flt(p, 1.0, e->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, e->loc), ex_copy(p, e->args[1]), e->loc);
				return linearize(d, e->args[0], sign, mul_opt(p, factor, inv, e->loc), coef);
			}
			d->why = reads_producers(c, e->args[1]) ? "a producer is divided by a value that depends on an earlier result (a temperature from the max?): only sums of earlier results scaled by constants of the row have a repair"
			                                        : "a producer is divided by a value that changes along the loop";
			return false;
		default: break;
		}
		break;
	default: break;
	}
	d->why = "a producer appears inside a function that is not linear in it";
	return false;
}

typedef VEC(Expr *) ExprVec;

static bool is_infinity(const Expr *e)
{
	if (e->kind == EX_UN && e->uop == UOP_NEG)
		e = e->args[0];
	if (e->kind == EX_CAST)
		e = e->args[0];
	return e->kind == EX_FLT && isinf(e->fval);
}

static double zero_leaf(const Expr *e, void *x)
{
	(void)e;
	(void)x;
	return 0;
}

const Expr *repair_infinity_test(const Expr *cond, bool *val)
{
	if (cond->kind == EX_UN && cond->uop == UOP_NOT) {
		const Expr *x = repair_infinity_test(cond->args[0], val);
		*val = !*val;
		return x;
	}
	const Expr *x = NULL;
	if (cond->kind == EX_CALL && cond->fn == FN_ISFINITE) {
		x = cond->args[0];
		*val = true;
	} else if (cond->kind == EX_BIN && cond->bop >= OP_LT && cond->bop <= OP_NE) {
		int side = is_infinity(cond->args[1]) ? 0 : is_infinity(cond->args[0]) ? 1 : -1;
		if (side < 0)
			return NULL;
		x = cond->args[side];
		/* the comparison at a finite value (0) against the infinity */
		*val = expr_eval(cond, zero_leaf, (void *)x) != 0;
	}
	while (x && x->kind == EX_CAST)
		x = x->args[0];
	return x;
}

/* Whether cond only asks if a producer is infinite (`m == -INFINITY`, `m != -INFINITY`,
 * `m > -INFINITY`, `isfinite(m)`, negated): *val is its value for a finite m. */
static bool finite_test(const Cascade *c, const Expr *cond, bool *val)
{
	const Expr *x = repair_infinity_test(cond, val);
	return x && x->kind == EX_VAR && producer_index(c, x->var) >= 0;
}

bool repair_nan_test(const Expr *cond)
{
	if (cond->kind == EX_UN && cond->uop == UOP_NOT)
		return repair_nan_test(cond->args[0]);
	return cond->kind == EX_CALL && (cond->fn == FN_ISFINITE || cond->fn == FN_ISNAN || cond->fn == FN_ISINF);
}

/* Whether the sign of e (negative, zero, positive) is the data's alone, whatever the
 * producers' values: e reads none, or is a product or quotient of such values, of
 * exponentials (positive, or 0 by underflow alone) and of sums of exponentials
 * (a softmax's denominator). p = expf(x - m) / Z is. */
static bool sign_of_data(const Cascade *c, const Expr *e, int depth)
{
	if (!reads_producers(c, e))
		return true;
	if (depth > 8)
		return false;
	switch (e->kind) {
	case EX_CAST: return scalar_is_float(e->ty) && sign_of_data(c, e->args[0], depth + 1);
	case EX_CALL: return e->fn == FN_EXP || e->fn == FN_EXP2;
	case EX_BIN: return (e->bop == OP_MUL || e->bop == OP_DIV) && sign_of_data(c, e->args[0], depth + 1) && sign_of_data(c, e->args[1], depth + 1);
	case EX_VAR:
		for (int a = 0; a < c->naccums; a++)
			if (c->accums[a].var == e->var)
				return c->accums[a].red == RED_ADD && c->accums[a].g && c->accums[a].g->kind == EX_CALL &&
				       (c->accums[a].g->fn == FN_EXP || c->accums[a].g->fn == FN_EXP2);
		return false;
	default: return false;
	}
}

const Var *repair_reads_producer(const Cascade *c, const Expr *e)
{
	bool taken;
	if (!e || finite_test(c, e, &taken) || repair_nan_test(e))
		return NULL;
	/* `p > 0.0f` before `h -= p * logf(p)` (an entropy's guard): decided by the data */
	if (e->kind == EX_BIN && e->bop >= OP_LT && e->bop <= OP_NE && (expr_is_zero_literal(e->args[0]) || expr_is_zero_literal(e->args[1])) &&
	    sign_of_data(c, e->args[expr_is_zero_literal(e->args[0]) ? 1 : 0], 0))
		return NULL;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && producer_index(c, e->var) >= 0)
		return e->var;
	for (int i = 0; i < e->nargs; i++) {
		const Var *v = repair_reads_producer(c, e->args[i]);
		if (v)
			return v;
	}
	return NULL;
}

/* Collects the multiplicative structure of e into coef_e, coef_2, num, den. */
static bool factorize(Deriv *d, const Expr *e, bool invert, ExprVec *num, ExprVec *den)
{
	Cascade *c = d->c;
	Program *p = c->prog;
	Repair *rp = d->rp;
	if (!reads_producers(c, e))
		return true;
	switch (e->kind) {
	case EX_CAST:
		if (scalar_is_int(e->ty))
			break;
		return factorize(d, e->args[0], invert, num, den);
	case EX_UN:
		if (e->uop == UOP_NEG)
			return factorize(d, e->args[0], invert, num, den);
		break;
	case EX_BIN:
		if (e->bop == OP_MUL)
			return factorize(d, e->args[0], invert, num, den) && factorize(d, e->args[1], invert, num, den);
		if (e->bop == OP_DIV)
			return factorize(d, e->args[0], invert, num, den) && factorize(d, e->args[1], !invert, num, den);
		break;
	case EX_CALL:
		if (e->fn == FN_EXP || e->fn == FN_EXP2)
			return linearize(d, e->args[0], invert ? -1 : 1, NULL, e->fn == FN_EXP ? rp->coef_e : rp->coef_2);
		break;
	case EX_COND: {
		/* `m == -INFINITY ? 0 : expf(x - m)` (the guard of a row with every element masked):
		 * the fused program reads producers sanitised (isfinite(m) ? m : 0), never infinite,
		 * so the condition is constant there and the branch it takes is the contribution. */
		bool taken;
		if (finite_test(c, e->args[0], &taken))
			return factorize(d, e->args[taken ? 1 : 2], invert, num, den);
		/* A mask: `cond ? g : 0` has g's producer factor; the condition must not read them. */
		if (!reads_producers(c, e->args[0])) {
			for (int side = 1; side <= 2; side++) {
				const Expr *z = e->args[3 - side];
				if (z->kind == EX_FLT && z->fval == 0 && !invert)
					return factorize(d, e->args[side], invert, num, den);
			}
		}
		d->why = "a producer appears in a conditional whose branches do not share its factor";
		return false;
	}
	default: break;
	}
	if (row_level(c, e)) {
		vec_push(*(invert ? den : num), ex_copy(p, (Expr *)e));
		return true;
	}
	d->why = "its contribution is not a product of a part that reads no earlier result and a part that reads only earlier results, nor a sum of such products";
	return false;
}

static Expr **copy_vec(Program *p, ExprVec *v, int *n)
{
	*n = v->n;
	Expr **r = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(v->n + 1));
	if (v->n)
		memcpy(r, v->v, sizeof(Expr *) * (size_t)v->n);
	vec_free(*v);
	return r;
}

/* The repair of a's contribution, or NULL with the reason in *why. */
static Repair *derive(Cascade *c, Accum *a, const char **why)
{
	Program *p = c->prog;
	Repair *rp = NEW(&p->arena, Repair);
	rp->coef_e = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(c->nproducers + 1));
	rp->coef_2 = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(c->nproducers + 1));
	rp->uses = arena_alloc(&p->arena, sizeof(bool) * (size_t)(c->nproducers + 1));
	Deriv d = {c, a, rp, NULL};
	bool ok;
	ExprVec num = {0}, den = {0};
	if (a->red == RED_ADD) {
		ok = factorize(&d, a->g, false, &num, &den);
	} else {
		ok = linearize(&d, a->g, 1, NULL, rp->coef_e);
		if (!ok)
			d.why = "for a max or min, the contribution must be a part without producers plus a linear function of them";
	}
	rp->factors = copy_vec(p, &num, &rp->nfactors);
	rp->inv_factors = copy_vec(p, &den, &rp->ninv_factors);
	if (!ok) {
		*why = d.why;
		return NULL;
	}
	for (int k = 0; k < c->nproducers; k++) {
		rp->uses[k] = rp->coef_e[k] || rp->coef_2[k];
		for (int f = 0; f < rp->nfactors; f++)
			rp->uses[k] |= expr_reads_var(rp->factors[f], c->producers[k].var);
		for (int f = 0; f < rp->ninv_factors; f++)
			rp->uses[k] |= expr_reads_var(rp->inv_factors[f], c->producers[k].var);
	}
	return rp;
}

bool repair_separable(Cascade *c, Accum *a, const char **why) { return derive(c, a, why) != NULL; }

bool repair_derive(Cascade *c, Accum *a)
{
	const char *why = NULL;
	Repair *rp = derive(c, a, &why);
	if (!rp) {
		error_at(a->stmt->loc, "cannot fuse the reduction into %s over '%s': %s", accum_quoted(c->prog, a), c->axis, why);
		return false;
	}
	a->repair = rp;
	return true;
}

/* e with every producer k replaced by vars[k]. */
static Expr *at(Cascade *c, const Expr *e, Var **vars)
{
	Expr *r = ex_copy(c->prog, e);
	for (int k = 0; k < c->nproducers; k++)
		r = expr_subst_var(c->prog, r, c->producers[k].var, vars[k]);
	return r;
}

/* sum_k coef_k * (to_k - from_k), with the common coefficients +1 and -1 written out. */
static Expr *lin_delta(Cascade *c, Expr **coef, Var **from, Var **to, Loc l)
{
	Program *p = c->prog;
	Expr *sum = NULL;
	for (int k = 0; k < c->nproducers; k++) {
		if (!coef[k] || from[k] == to[k])
			continue;
		Expr *term;
		if (coef[k]->kind == EX_FLT && coef[k]->fval == -1)
			term = ex_bin(p, OP_SUB, ex_var(p, from[k], l), ex_var(p, to[k], l), l);
		else if (coef[k]->kind == EX_FLT && coef[k]->fval == 1)
			term = ex_bin(p, OP_SUB, ex_var(p, to[k], l), ex_var(p, from[k], l), l);
		else
			term = ex_bin(p, OP_MUL, ex_copy(p, coef[k]), ex_bin(p, OP_SUB, ex_var(p, to[k], l), ex_var(p, from[k], l), l), l);
		sum = sum ? ex_bin(p, OP_ADD, sum, term, l) : term;
	}
	return sum;
}

/* Whether factor e reads a producer whose tag differs between from and to. */
static bool factor_moves(const Cascade *c, const Expr *e, Var **from, Var **to)
{
	for (int k = 0; k < c->nproducers; k++)
		if (from[k] != to[k] && expr_reads_var(e, c->producers[k].var))
			return true;
	return false;
}

Expr *repair_apply(Cascade *c, const Accum *a, Expr *t, Var **from, Var **to)
{
	Program *p = c->prog;
	const Repair *rp = a->repair;
	Loc l = a->stmt->loc;
	bool dbl = a->var->ty == TY_DOUBLE;
	if (a->red != RED_ADD) {
		Expr *dl = lin_delta(c, rp->coef_e, from, to, l);
		return dl ? ex_bin(p, OP_ADD, t, dl, l) : t;
	}
	Expr *f = NULL;
	Expr *de = lin_delta(c, rp->coef_e, from, to, l);
	if (de) {
		Expr *args[1] = {de};
		f = ex_call(p, FN_EXP, dbl, args, l);
	}
	Expr *d2 = lin_delta(c, rp->coef_2, from, to, l);
	if (d2) {
		Expr *args[1] = {d2};
		f = mul_opt(p, f, ex_call(p, FN_EXP2, dbl, args, l), l);
	}
	/* P(r') / P(r) and Q(r) / Q(r'), as one fraction. */
	Expr *numer = NULL, *denom = NULL;
	for (int i = 0; i < rp->nfactors; i++) {
		if (!factor_moves(c, rp->factors[i], from, to))
			continue;
		numer = mul_opt(p, numer, at(c, rp->factors[i], to), l);
		denom = mul_opt(p, denom, at(c, rp->factors[i], from), l);
	}
	for (int i = 0; i < rp->ninv_factors; i++) {
		if (!factor_moves(c, rp->inv_factors[i], from, to))
			continue;
		numer = mul_opt(p, numer, at(c, rp->inv_factors[i], from), l);
		denom = mul_opt(p, denom, at(c, rp->inv_factors[i], to), l);
	}
	if (numer)
		f = mul_opt(p, f, ex_bin(p, OP_DIV, numer, denom, l), l);
	if (t->kind == EX_FLT && t->fval == 1)
		return f ? f : t;
	return f ? ex_bin(p, OP_MUL, t, f, l) : t;
}

Expr *repair_changed(Cascade *c, const Accum *a, Var **from, Var **to)
{
	Program *p = c->prog;
	Loc l = a->stmt->loc;
	Expr *e = NULL;
	for (int k = 0; k < c->nproducers; k++) {
		if (!a->repair->uses[k] || from[k] == to[k])
			continue;
		Expr *ne = ex_bin(p, OP_NE, ex_var(p, from[k], l), ex_var(p, to[k], l), l);
		e = e ? ex_bin(p, OP_LOR, e, ne, l) : ne;
	}
	return e ? e : ex_int(p, 0, l);
}

void repair_describe(StrBuf *b, const Cascade *c, const Accum *a)
{
	Program *p = c->prog;
	Var **from = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
	Var **to = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
	for (int k = 0; k < c->nproducers; k++) {
		from[k] = var_new(p, VAR_LOCAL, c->producers[k].var->name, c->producers[k].var->ty, c->producers[k].var->loc);
		to[k] = var_new(p, VAR_LOCAL, arena_printf(&p->arena, "%s'", c->producers[k].var->name), c->producers[k].var->ty, c->producers[k].var->loc);
	}
	Var *t = var_new(p, VAR_LOCAL, "t", a->var->ty, a->stmt->loc);
	sb_puts(b, "h(t) = ");
	print_expr(b, repair_apply((Cascade *)c, a, ex_var(p, t, t->loc), from, to));
}

/* ---- numeric validation ---- */

typedef struct EvalCtx {
	Cascade *c;
	double *r;       /* producer values */
	Var **from, **to;
	double *rf, *rt; /* values of from/to vars */
	unsigned seed;
} EvalCtx;

/* A leaf that is not a producer gets a pseudo-random value fixed by its printed form, so
 * that g(r, x) and g(r', x) see the same x. */
static double leaf_value(const Expr *e, void *ctx)
{
	EvalCtx *ec = ctx;
	if (e->kind == EX_VAR) {
		for (int k = 0; k < ec->c->nproducers; k++) {
			if (e->var == ec->c->producers[k].var)
				return ec->r[k];
			if (ec->from && e->var == ec->from[k])
				return ec->rf[k];
			if (ec->to && e->var == ec->to[k])
				return ec->rt[k];
		}
	}
	return leaf_random(e, ec->seed);
}

static unsigned next_rand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

bool repair_validate(Cascade *c, Accum *a)
{
	Program *p = c->prog;
	int n = c->nproducers;
	Var **from = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(n + 1));
	Var **to = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(n + 1));
	for (int k = 0; k < n; k++) {
		from[k] = var_new(p, VAR_LOCAL, "from", TY_DOUBLE, a->stmt->loc);
		to[k] = var_new(p, VAR_LOCAL, "to", TY_DOUBLE, a->stmt->loc);
	}
	Var *tv = var_new(p, VAR_LOCAL, "t", TY_DOUBLE, a->stmt->loc);
	Expr *h = repair_apply(c, a, ex_var(p, tv, tv->loc), from, to);
	double r[64], rf[64], rt[64];
	if (n > 64)
		return error_at(a->stmt->loc, "too many producers"), false;
	unsigned rs = 12345;
	int valid = 0;
	for (int trial = 0; trial < 64 && valid < 16; trial++) {
		for (int k = 0; k < n; k++) {
			double lo = c->producers[k].in_factor ? 0.25 : -3.0;
			rf[k] = lo + (double)next_rand(&rs) / 16777216.0 * 3.0;
			rt[k] = lo + (double)next_rand(&rs) / 16777216.0 * 3.0;
		}
		EvalCtx ec = {c, r, from, to, rf, rt, (unsigned)trial * 2654435761u};
		memcpy(r, rf, sizeof(double) * (size_t)n);
		double g_old = expr_eval(a->g, leaf_value, &ec);
		memcpy(r, rt, sizeof(double) * (size_t)n);
		double g_new = expr_eval(a->g, leaf_value, &ec);
		/* t is the old contribution; h(t) must be the new one. */
		Expr *ht = expr_subst_expr(p, h, tv, ex_flt(p, g_old, TY_DOUBLE, tv->loc));
		double hv = expr_eval(ht, leaf_value, &ec);
		if (!isfinite(g_old) || !isfinite(g_new) || !isfinite(hv))
			continue;
		valid++;
		double scale = fmax(fmax(fabs(g_new), fabs(hv)), 1e-30);
		if (fabs(hv - g_new) > 1e-9 * scale) {
			internal_error_at(a->stmt->loc, "the repair derived for '%s' fails the numeric check (h gives %.9g, expected %.9g): refusing to fuse", a->var->name, hv, g_new);
			return false;
		}
	}
	if (valid < 4) {
		error_at(a->stmt->loc, "cannot check the repair derived for '%s' numerically (its contribution is not finite at test points): refusing to fuse", a->var->name);
		return false;
	}
	return true;
}

/* ---- sums of separable terms ----
 *
 * A sum whose contribution is not one product G_x(x) * G_r(r) may still be a sum of them:
 * (x - mean)^2 = x*x - 2*mean*x + mean*mean, y * (x - m - logz) = y*x - (m + logz)*y.
 * repair_expand distributes products over + and - (through unary minus, casts to float or
 * double, divisions by a whole denominator, and masks `cond ? g : 0` whose condition reads
 * no producer), then groups the terms by their part that changes along the loop: each
 * group is accumulated on its own (its contribution a product that reads no producer, or
 * one whose repair repair_derive derives), and the sum is recombined from the groups'
 * accumulators with coefficients that read only producers and row-level values. */

typedef struct Term {
	double coef;
	ExprVec xnum, xden; /* change along the loop, read no producer */
	ExprVec mix, mixden; /* read producers and values that change along the loop */
	ExprVec rnum, rden; /* row-level: producers, parameters, constants */
	ExprVec conds;      /* masks: the term is 0 where one of them is 0 */
} Term;

typedef VEC(Term) TermVec;

enum { MAX_TERMS = 64 };

static void vec_append(ExprVec *to, const ExprVec *from)
{
	for (int i = 0; i < from->n; i++)
		vec_push(*to, from->v[i]);
}

static Term term_product(const Term *a, const Term *b)
{
	Term t = {.coef = a->coef * b->coef};
	ExprVec *ta[] = {&t.xnum, &t.xden, &t.mix, &t.mixden, &t.rnum, &t.rden, &t.conds};
	const ExprVec *aa[] = {&a->xnum, &a->xden, &a->mix, &a->mixden, &a->rnum, &a->rden, &a->conds};
	const ExprVec *ba[] = {&b->xnum, &b->xden, &b->mix, &b->mixden, &b->rnum, &b->rden, &b->conds};
	for (int i = 0; i < 7; i++) {
		vec_append(ta[i], aa[i]);
		vec_append(ta[i], ba[i]);
	}
	return t;
}

static void term_free(Term *t)
{
	vec_free(t->xnum);
	vec_free(t->xden);
	vec_free(t->mix);
	vec_free(t->mixden);
	vec_free(t->rnum);
	vec_free(t->rden);
	vec_free(t->conds);
}

static void terms_free(TermVec *v)
{
	for (int i = 0; i < v->n; i++)
		term_free(&v->v[i]);
	vec_free(*v);
}

/* A literal (or a negated one): its value. */
static bool literal_value(const Expr *e, double *v)
{
	if (e->kind == EX_FLT) {
		*v = e->fval;
		return true;
	}
	if (e->kind == EX_INT) {
		*v = (double)e->ival;
		return true;
	}
	if (e->kind == EX_UN && e->uop == UOP_NEG && literal_value(e->args[0], v)) {
		*v = -*v;
		return true;
	}
	return false;
}

/* One factor as a term of its own: a literal, a row-level value, a value that changes
 * along the loop, or a mixed one. `den`: the factor divides. */
static void atom_term(Deriv *d, const Expr *e, bool den, Term *t)
{
	double v;
	*t = (Term){.coef = 1};
	Expr *x = (Expr *)e;
	if (!den && literal_value(e, &v))
		t->coef = v;
	else if (row_level(d->c, e))
		vec_push(*(den ? &t->rden : &t->rnum), x);
	else if (!reads_producers(d->c, e))
		vec_push(*(den ? &t->xden : &t->xnum), x);
	else
		vec_push(*(den ? &t->mixden : &t->mix), x);
}

/* The shifts of an expansion: a value that changes along the loop and is added to or
 * subtracted from earlier results (x - mean) is taken relative to a value k of the row read
 * before the pass (the shifted-data algorithm; shift_of says which): x - mean = (x - k) +
 * (k - mean). The sums of (x - k)^2 and (x - k) are then about n var and 0, not n (var +
 * mean^2) and n mean, and the recombination does not cancel when |mean| >> std. */
enum { SHIFT_SAMPLES = 8 };
/* A row's largest sampled logit beyond this is taken for a mask's fill (-1e9, -FLT_MAX,
 * 1e9 for a softmin's invalid slots), not for data. */
#define SHIFT_SENTINEL 1e4

struct Shifts {
	int n;
	Expr *atom[8]; /* the value shifted */
	Var *var[8];   /* k */
	Expr *init[8]; /* k's value (shift_of) */
};

/* Whether e reads a local of the row (written or declared in a level, or before it). */
static bool reads_local(const Expr *e)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->kind == VAR_LOCAL)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_local(e->args[i]))
			return true;
	return false;
}

/* Whether statement t is inside an if in s (`cond`: s is). */
static bool under_if(const Stmt *s, const Stmt *t, bool cond)
{
	if (!s)
		return false;
	if (s == t)
		return cond;
	for (int i = 0; i < s->nbody; i++)
		if (under_if(s->body[i], t, cond || s->kind == ST_IF))
			return true;
	return false;
}

/* The declaration of v in s, or NULL. */
static const Stmt *find_decl(const Stmt *s, const Var *v)
{
	if (!s)
		return NULL;
	if (s->kind == ST_DECL && s->var == v)
		return s;
	for (int i = 0; i < s->nbody; i++) {
		const Stmt *r = find_decl(s->body[i], v);
		if (r)
			return r;
	}
	return NULL;
}

/* The shift of atom a (a value of the level's element, floating), or NULL when a cannot
 * be evaluated at the row's first element before the pass. */
static Var *shift_of(Deriv *d, Expr *a)
{
	Cascade *c = d->c;
	Program *p = c->prog;
	Shifts *sh = d->sh;
	if (!sh || d->masked || (a->ty != TY_FLOAT && a->ty != TY_DOUBLE))
		return NULL;
	for (int i = 0; i < sh->n; i++)
		if (expr_equal(sh->atom[i], a))
			return sh->var[i];
	if (sh->n == 8)
		return NULL;
	const Stmt *lvl = c->levels[d->a->level];
	/* A local of the level read as it is defined (`const float xv = (float)x[n][v];`). */
	const Expr *val = a;
	if (a->kind == EX_VAR && a->var->kind == VAR_LOCAL) {
		const Stmt *def = find_decl(lvl, a->var);
		if (!def || !def->rhs || stmt_count_stores(lvl, a->var))
			return NULL;
		val = def->rhs;
	}
	if (reads_local(val) || !expr_reads_var(val, lvl->var))
		return NULL;
	Expr *first = expr_subst_expr(p, val, lvl->var, lvl->lo);
	if (!row_level(c, first) || reads_producers(c, first))
		return NULL;
	/* The name: the array it reads. */
	const Expr *n = val;
	while (n->kind == EX_CAST)
		n = n->args[0];
	Var *k = fresh_var(c, arena_printf(&p->arena, "%s_shift", n->kind == EX_INDEX || n->kind == EX_VAR ? n->var->name : "x"), a->ty, VAR_LOCAL);
	Loc l = a->loc;
	/* k is read from elements spread over the row, not the first alone: a row's first
	 * element is often a sentinel (a suppressed token id 0 at -FLT_MAX, a banned one at
	 * -1e9, left padding) or an outlier, and a shift far from the values that carry the
	 * sum cancels in the recombination (NaN for -FLT_MAX). Under a max (a softmax's
	 * weights, which sit at the row's max) k is the largest of SHIFT_SAMPLES elements,
	 * under a min (a softmin's) the smallest; otherwise (a variance, whose sum is about the
	 * mean) the median of the first, middle and last, which one outlier does not move. A
	 * sample that is not finite counts as 0; an empty row reads none: 0. Under a max or a
	 * min every sample may be a sentinel (a grammar mask bans most of the vocabulary):
	 * an extreme beyond SHIFT_SENTINEL is taken for one, and k is 0 instead (the weighted
	 * values sit far from it only for logits beyond it). */
	bool dbl = a->ty == TY_DOUBLE, under_max = false, under_min = false;
	for (int i = 0; i < c->naccums; i++) {
		under_max |= c->accums[i].red == RED_MAX;
		under_min |= c->accums[i].red == RED_MIN;
	}
	bool extreme = under_max || under_min;
	if (under_max && under_min)
		extreme = under_min = false; /* both: the median */
	bool zero = lvl->lo->kind == EX_INT && !lvl->lo->ival;
	Expr *len = zero ? lvl->hi : ex_bin(p, OP_SUB, ex_copy(p, lvl->hi), ex_copy(p, lvl->lo), l), *best = NULL;
	int nsamples = extreme ? SHIFT_SAMPLES : 3;
	Expr *f[SHIFT_SAMPLES];
	for (int s = 0; s < nsamples; s++) {
		/* under a max or min: lo + s len / 8; else lo, lo + len / 2, hi - 1 */
		Expr *at;
		if (s == 0) {
			at = ex_copy(p, lvl->lo);
		} else if (!extreme && s == 2) {
			at = ex_bin(p, OP_SUB, ex_copy(p, lvl->hi), ex_int(p, 1, l), l);
		} else {
			Expr *num = s > 1 ? ex_bin(p, OP_MUL, ex_int(p, s, l), ex_copy(p, len), l) : ex_copy(p, len);
			at = ex_bin(p, OP_DIV, num, ex_int(p, extreme ? SHIFT_SAMPLES : 2, l), l);
			if (!zero)
				at = ex_bin(p, OP_ADD, ex_copy(p, lvl->lo), at, l);
		}
		Expr *v = expr_subst_expr(p, val, lvl->var, at);
		Expr *fin[1] = {ex_copy(p, v)};
		f[s] = ex_cond(p, ex_call(p, FN_ISFINITE, false, fin, l), v, ex_flt(p, 0.0, a->ty, l), l);
		Expr *two[2] = {best, f[s]};
		if (extreme)
			best = best ? ex_call(p, under_min ? FN_FMIN : FN_FMAX, dbl, two, l) : f[s];
	}
	if (extreme) {
		/* |best| <= SHIFT_SENTINEL ? best : 0 */
		Expr *ab[1] = {ex_copy(p, best)};
		Expr *small = ex_bin(p, OP_LE, ex_call(p, FN_FABS, dbl, ab, l), ex_flt(p, SHIFT_SENTINEL, a->ty, l), l);
		best = ex_cond(p, small, best, ex_flt(p, 0.0, a->ty, l), l);
	} else {
		/* median(a, b, c) = max(min(a, b), min(max(a, b), c)) */
		Expr *ab[2] = {f[0], f[1]}, *ab2[2] = {ex_copy(p, f[0]), ex_copy(p, f[1])};
		Expr *mx[2] = {ex_call(p, FN_FMAX, dbl, ab2, l), f[2]};
		Expr *out[2] = {ex_call(p, FN_FMIN, dbl, ab, l), ex_call(p, FN_FMIN, dbl, mx, l)};
		best = ex_call(p, FN_FMAX, dbl, out, l);
	}
	Expr *ok = ex_bin(p, OP_LT, ex_copy(p, lvl->lo), ex_copy(p, lvl->hi), l);
	sh->atom[sh->n] = a;
	sh->var[sh->n] = k;
	sh->init[sh->n++] = ex_cond(p, ok, best, ex_flt(p, 0.0, a->ty, l), l);
	return k;
}

static bool plain_row_term(const Term *t)
{
	return !t->xnum.n && !t->xden.n && !t->mix.n && !t->mixden.n && !t->conds.n;
}

static Expr *row_terms_expr(Program *p, const Term *t, int n, ScalarType ty, Loc l);

/* The terms [from, out->n) of a sum x +- (row-level values that read producers): the
 * element's value taken relative to its shift, the row-level part one factor (k - mean). */
static void shift_sum(Deriv *d, TermVec *out, int from)
{
	Program *p = d->c->prog;
	int atom = -1, nrow = 0;
	bool prod = false;
	for (int i = from; i < out->n; i++) {
		Term *t = &out->v[i];
		if (plain_row_term(t)) {
			nrow++;
			for (int k = 0; k < t->rnum.n; k++)
				prod |= reads_producers(d->c, t->rnum.v[k]);
			for (int k = 0; k < t->rden.n; k++)
				prod |= reads_producers(d->c, t->rden.v[k]);
		} else if (atom < 0 && fabs(t->coef) == 1 && t->xnum.n == 1 && !t->xden.n && !t->mix.n && !t->mixden.n && !t->rnum.n && !t->rden.n && !t->conds.n) {
			atom = i;
		} else {
			return;
		}
	}
	if (atom < 0 || !nrow || !prod)
		return;
	Term *at = &out->v[atom];
	Var *k = shift_of(d, at->xnum.v[0]);
	if (!k)
		return;
	Loc l = at->xnum.v[0]->loc;
	ScalarType ty = at->xnum.v[0]->ty;
	/* k - mean (x - mean), or mean - k (mean - x): k first when it is added. */
	Term *rows = calloc((size_t)nrow + 2, sizeof(Term));
	int nr = 0;
	Term kt = {.coef = at->coef};
	vec_push(kt.rnum, ex_var(p, k, l));
	if (at->coef > 0)
		rows[nr++] = kt;
	for (int i = from; i < out->n; i++)
		if (plain_row_term(&out->v[i]))
			rows[nr++] = out->v[i];
	if (at->coef < 0)
		rows[nr++] = kt;
	Expr *rsum = row_terms_expr(p, rows, nr, ty, l);
	Term shifted = {.coef = at->coef};
	vec_push(shifted.xnum, ex_bin(p, OP_SUB, at->xnum.v[0], ex_var(p, k, l), l));
	Term r = {.coef = 1};
	vec_push(r.rnum, rsum);
	for (int i = from; i < out->n; i++)
		term_free(&out->v[i]);
	vec_free(kt.rnum);
	free(rows);
	out->n = from;
	vec_push(*out, shifted);
	vec_push(*out, r);
}

static bool expand_terms(Deriv *d, const Expr *e, TermVec *out)
{
	/* A part without producers is one factor, but its floating products and quotients are
	 * taken apart too, so that equal products group together (x * y and y * x). */
	bool flat = (e->ty == TY_FLOAT || e->ty == TY_DOUBLE) &&
	            ((e->kind == EX_BIN && (e->bop == OP_MUL || e->bop == OP_DIV)) || (e->kind == EX_UN && e->uop == UOP_NEG));
	if (!reads_producers(d->c, e) && !flat) {
		Term t;
		atom_term(d, e, false, &t);
		vec_push(*out, t);
		return true;
	}
	switch (e->kind) {
	case EX_UN:
		if (e->uop != UOP_NEG)
			break;
		if (!expand_terms(d, e->args[0], out))
			return false;
		for (int i = 0; i < out->n; i++)
			out->v[i].coef = -out->v[i].coef;
		return true;
	case EX_CAST:
		/* Only a cast that does not round: float or double from float or double. */
		if ((e->ty != TY_FLOAT && e->ty != TY_DOUBLE) || (e->args[0]->ty != TY_FLOAT && e->args[0]->ty != TY_DOUBLE) ||
		    (e->ty == TY_FLOAT && e->args[0]->ty == TY_DOUBLE))
			break;
		return expand_terms(d, e->args[0], out);
	case EX_BIN:
		/* A sum of row-level values stays one factor: (mean - k)^2 is not expanded into
		 * mean^2 - 2 mean k + k^2, which cancels. */
		if ((e->bop == OP_ADD || e->bop == OP_SUB) && !row_level(d->c, e)) {
			TermVec b = {0};
			int from = out->n;
			bool top = !d->in_sum;
			d->in_sum = true;
			bool ok = expand_terms(d, e->args[0], out) && expand_terms(d, e->args[1], &b);
			d->in_sum = !top;
			if (!ok) {
				terms_free(&b);
				return false;
			}
			for (int i = 0; i < b.n; i++) {
				if (e->bop == OP_SUB)
					b.v[i].coef = -b.v[i].coef;
				vec_push(*out, b.v[i]);
			}
			vec_free(b);
			if (top)
				shift_sum(d, out, from);
			return out->n <= MAX_TERMS || (d->why = "its contribution expands into too many terms", false);
		}
		if (e->bop == OP_MUL || e->bop == OP_DIV) {
			TermVec a = {0}, b = {0};
			bool in_sum = d->in_sum;
			d->in_sum = false; /* a factor's sums are shifted on their own */
			bool ok = expand_terms(d, e->args[0], &a);
			if (ok && e->bop == OP_MUL) {
				ok = expand_terms(d, e->args[1], &b);
			} else if (ok) {
				/* A denominator is one factor: it does not distribute. */
				Term t;
				atom_term(d, e->args[1], true, &t);
				vec_push(b, t);
			}
			ok = ok && out->n + a.n * b.n <= MAX_TERMS;
			if (!ok && !d->why)
				d->why = "its contribution expands into too many terms";
			d->in_sum = in_sum;
			for (int i = 0; ok && i < a.n; i++)
				for (int k = 0; k < b.n; k++)
					vec_push(*out, term_product(&a.v[i], &b.v[k]));
			terms_free(&a);
			terms_free(&b);
			return ok;
		}
		break;
	case EX_COND:
		/* A mask: `cond ? g : 0` with a condition that reads no producer. */
		if (!reads_producers(d->c, e->args[0]))
			for (int side = 1; side <= 2; side++) {
				double z;
				if (!literal_value(e->args[3 - side], &z) || z != 0)
					continue;
				int from = out->n;
				bool in_sum = d->in_sum, masked = d->masked;
				d->in_sum = false;
				d->masked = true;
				bool ok = expand_terms(d, e->args[side], out);
				d->in_sum = in_sum;
				d->masked = masked;
				if (!ok)
					return false;
				Program *p = d->c->prog;
				Expr *cond = side == 1 ? e->args[0] : ex_un(p, UOP_NOT, ex_copy(p, e->args[0]), e->loc);
				for (int i = from; i < out->n; i++)
					vec_push(out->v[i].conds, cond);
				return true;
			}
		break;
	default: break;
	}
	Term t;
	atom_term(d, e, false, &t);
	vec_push(*out, t);
	return true;
}

/* A multiset of factors, as a key: their printed forms, sorted. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void key_of(StrBuf *b, const ExprVec *v)
{
	char **s = malloc(sizeof(char *) * (size_t)(v->n + 1));
	for (int i = 0; i < v->n; i++) {
		StrBuf e = {0};
		print_expr(&e, v->v[i]);
		s[i] = e.s ? e.s : strdup("");
	}
	qsort(s, (size_t)v->n, sizeof(char *), cmp_str);
	for (int i = 0; i < v->n; i++) {
		sb_printf(b, "%s;", s[i]);
		free(s[i]);
	}
	sb_puts(b, "|");
	free(s);
}

/* Product of the factors (NULL: none); an integer first factor is converted to ty, so
 * that no product is formed in integer arithmetic. */
static Expr *product(Program *p, Expr *acc, const ExprVec *v, ScalarType ty, Loc l)
{
	for (int i = 0; i < v->n; i++) {
		Expr *f = ex_copy(p, v->v[i]);
		if (!acc && scalar_is_int(f->ty))
			f = ex_cast(p, ty, f, l);
		acc = acc ? ex_bin(p, OP_MUL, acc, f, l) : f;
	}
	return acc;
}

static Expr *quotient(Program *p, const ExprVec *num, const ExprVec *den, ScalarType ty, Loc l)
{
	Expr *n = product(p, NULL, num, ty, l);
	if (!den->n)
		return n;
	if (!n)
		n = ex_flt(p, 1.0, ty, l);
	Expr *dn = product(p, NULL, den, ty, l);
	return ex_bin(p, OP_DIV, n, dn, l);
}

/* A suggested name for a group's accumulator: the arrays it reads (`x2` for x*x). */
static const char *group_name(Program *p, const Term *t, int k)
{
	StrBuf b = {0};
	const ExprVec *vs[2] = {&t->xnum, &t->mix};
	const char *last = NULL;
	int run = 0;
	bool ok = !t->xden.n && !t->mixden.n;
	for (int s = 0; ok && s < 2; s++)
		for (int i = 0; ok && i < vs[s]->n; i++) {
			const Expr *e = vs[s]->v[i];
			while (e->kind == EX_CAST || (e->kind == EX_BIN && e->bop == OP_SUB && e->args[1]->kind == EX_VAR)) /* x - x_shift */
				e = e->args[0];
			const char *n = e->kind == EX_INDEX || e->kind == EX_VAR ? e->var->name
			                : e->kind == EX_CALL && (e->fn == FN_EXP || e->fn == FN_EXP2) ? "exp" : NULL;
			if (!n) {
				ok = false;
				break;
			}
			if (last && !strcmp(last, n)) {
				run++;
				continue;
			}
			if (last)
				run > 1 ? sb_printf(&b, "%s%d_", last, run) : sb_printf(&b, "%s_", last);
			last = n;
			run = 1;
		}
	if (ok && last)
		run > 1 ? sb_printf(&b, "%s%d", last, run) : sb_printf(&b, "%s", last);
	const char *r = !ok ? arena_printf(&p->arena, "t%d", k) : !last ? "n" : b.len > 24 ? arena_printf(&p->arena, "t%d", k) : arena_strdup(&p->arena, b.s);
	sb_free(&b);
	return r;
}

/* The sum of the entries (coef, rnum / rden) of a group's coefficient; *neg when every
 * entry is negative (then their negation is returned). NULL: the coefficient 1. */
static Expr *group_coef(Program *p, Term *e, int n, ScalarType ty, Loc l, bool *neg)
{
	*neg = true;
	for (int i = 0; i < n; i++)
		*neg &= e[i].coef < 0;
	if (n == 1 && fabs(e[0].coef) == 1 && !e[0].rnum.n && !e[0].rden.n)
		return NULL;
	for (int i = 0; *neg && i < n; i++)
		e[i].coef = -e[i].coef;
	return row_terms_expr(p, e, n, ty, l);
}

/* The signed sum of row-level terms, in their order. */
static Expr *row_terms_expr(Program *p, const Term *e, int n, ScalarType ty, Loc l)
{
	Expr *sum = NULL;
	for (int i = 0; i < n; i++) {
		double cf = e[i].coef;
		Expr *q = product(p, NULL, &e[i].rnum, ty, l);
		if (fabs(cf) != 1 || !q) {
			Expr *lit = ex_flt(p, fabs(cf), ty, l);
			q = q ? ex_bin(p, OP_MUL, lit, q, l) : lit;
		}
		if (e[i].rden.n)
			q = ex_bin(p, OP_DIV, q, product(p, NULL, &e[i].rden, ty, l), l);
		if (!sum)
			sum = cf < 0 ? ex_un(p, UOP_NEG, q, l) : q;
		else
			sum = ex_bin(p, cf < 0 ? OP_SUB : OP_ADD, sum, q, l);
	}
	return sum;
}

/* Evaluates the original contribution and the expansion at random points. */
static bool expansion_validate(Cascade *c, const Accum *a, const Expansion *x)
{
	double r[64];
	if (c->nproducers > 64)
		return error_at(a->stmt->loc, "too many producers"), false;
	unsigned rs = 777;
	int valid = 0;
	for (int trial = 0; trial < 64 && valid < 16; trial++) {
		for (int k = 0; k < c->nproducers; k++)
			r[k] = 0.25 + (double)next_rand(&rs) / 16777216.0 * 3.0;
		EvalCtx ec = {c, r, NULL, NULL, NULL, NULL, (unsigned)trial * 2654435761u + 17};
		double g = expr_eval(a->g, leaf_value, &ec), sum = 0, scale = fabs(g);
		for (int k = 0; k < x->ngroups; k++) {
			double v = expr_eval(x->contrib[k], leaf_value, &ec);
			if (x->coef[k])
				v *= expr_eval(x->coef[k], leaf_value, &ec);
			if (x->neg[k])
				v = -v;
			sum += v;
			scale = fmax(scale, fabs(v));
		}
		if (!isfinite(g) || !isfinite(sum))
			continue;
		valid++;
		if (fabs(sum - g) > 1e-9 * fmax(scale, 1e-30)) {
			internal_error_at(a->stmt->loc, "the expansion of the contribution to '%s' into separate sums fails the numeric check (%.9g, expected %.9g): refusing to fuse", a->var->name, sum, g);
			return false;
		}
	}
	if (valid < 4) {
		error_at(a->stmt->loc, "cannot check the expansion of the contribution to '%s' numerically (it is not finite at test points): refusing to fuse", a->var->name);
		return false;
	}
	return true;
}

/* log of an exponential times or over another value, `logf(expf(a) / b)`, as `a - logf(b)`
 * (`a + logf(b)`, `a` alone): the entropy's `p * logf(p)` with p = expf(x - m) / z becomes a
 * sum of separable terms. The same value wherever both are defined, and where b <= 0 both
 * are NaN or both the same infinity. */
static Expr *split_logs(Program *p, const Expr *e)
{
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = split_logs(p, e->args[i]);
	if (c->kind != EX_CALL || (c->fn != FN_LOG))
		return c;
	Expr *in = c->args[0];
	/* through widening casts only: a value rounded to 16 bits (`(_Float16)(expf(a) / z)`
	 * stored, then logged) is not a - logf(z) */
	while (in->kind == EX_CAST && scalar_is_float(in->ty) && scalar_is_float(in->args[0]->ty) && scalar_size(in->ty) >= scalar_size(in->args[0]->ty))
		in = in->args[0];
	if (in->kind == EX_CALL && in->fn == FN_EXP)
		return in->args[0];
	if (in->kind != EX_BIN || (in->bop != OP_DIV && in->bop != OP_MUL))
		return c;
	for (int side = 0; side < 2; side++) {
		Expr *ex = in->args[side], *other = in->args[1 - side];
		if (ex->kind != EX_CALL || ex->fn != FN_EXP || (in->bop == OP_DIV && side == 1))
			continue;
		Expr *lg = ex_copy(p, c);
		lg->args[0] = other;
		return ex_bin(p, in->bop == OP_DIV ? OP_SUB : OP_ADD, ex->args[0], lg, c->loc);
	}
	return c;
}

int repair_expand(Cascade *c, const Accum *a, Expansion *x, const char **why)
{
	Program *p = c->prog;
	Shifts sh = {0};
	Deriv d = {c, (Accum *)a, NULL, NULL, &sh, false, under_if(c->levels[a->level], a->stmt, false)};
	TermVec terms = {0};
	memset(x, 0, sizeof *x);
	if (!expand_terms(&d, split_logs(p, a->g), &terms)) {
		*why = d.why;
		terms_free(&terms);
		return 0;
	}
	ScalarType ty = a->var->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT;
	Loc l = a->stmt->loc;
	/* Group the terms by their part that changes along the loop; within a group, add the
	 * coefficients of equal row-level parts. */
	int n = terms.n;
	char **gkey = calloc((size_t)n + 1, sizeof(char *)), **rkey = calloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		StrBuf b = {0};
		key_of(&b, &terms.v[i].xnum);
		key_of(&b, &terms.v[i].xden);
		key_of(&b, &terms.v[i].mix);
		key_of(&b, &terms.v[i].mixden);
		key_of(&b, &terms.v[i].conds);
		gkey[i] = b.s ? b.s : strdup("");
		StrBuf r = {0};
		key_of(&r, &terms.v[i].rnum);
		key_of(&r, &terms.v[i].rden);
		rkey[i] = r.s ? r.s : strdup("");
	}
	x->contrib = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(n + 1));
	x->coef = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(n + 1));
	x->neg = arena_alloc(&p->arena, sizeof(bool) * (size_t)(n + 1));
	x->names = arena_alloc(&p->arena, sizeof(char *) * (size_t)(n + 1));
	bool *done = calloc((size_t)n + 1, sizeof(bool));
	for (int i = 0; i < n; i++) {
		if (done[i])
			continue;
		/* The group of term i: its entries, equal row-level parts merged. */
		Term *entries = calloc((size_t)n, sizeof(Term));
		char **ekeys = calloc((size_t)n, sizeof(char *));
		int ne = 0;
		for (int k = i; k < n; k++) {
			if (done[k] || strcmp(gkey[k], gkey[i]))
				continue;
			done[k] = true;
			int e = 0;
			while (e < ne && strcmp(ekeys[e], rkey[k]))
				e++;
			if (e == ne) {
				entries[ne] = (Term){.coef = 0, .rnum = terms.v[k].rnum, .rden = terms.v[k].rden};
				ekeys[ne++] = rkey[k];
			}
			entries[e].coef += terms.v[k].coef;
		}
		int kept = 0;
		for (int e = 0; e < ne; e++)
			if (entries[e].coef != 0)
				entries[kept++] = entries[e];
		if (kept) {
			const Term *t = &terms.v[i];
			ExprVec num = {0}, den = {0};
			vec_append(&num, &t->xnum);
			vec_append(&num, &t->mix);
			vec_append(&den, &t->xden);
			vec_append(&den, &t->mixden);
			Expr *g = quotient(p, &num, &den, ty, l);
			if (!g)
				g = ex_flt(p, 1.0, ty, l);
			else if (g->ty != ty)
				g = ex_cast(p, ty, g, l);
			for (int k = t->conds.n - 1; k >= 0; k--)
				g = ex_cond(p, ex_copy(p, t->conds.v[k]), g, ex_flt(p, 0.0, ty, l), l);
			vec_free(num);
			vec_free(den);
			int k = x->ngroups++;
			x->contrib[k] = g;
			x->coef[k] = group_coef(p, entries, kept, ty, l, &x->neg[k]);
			x->names[k] = group_name(p, t, k);
		}
		free(entries);
		free(ekeys);
	}
	for (int i = 0; i < n; i++) {
		free(gkey[i]);
		free(rkey[i]);
	}
	free(gkey);
	free(rkey);
	free(done);
	terms_free(&terms);
	if (!x->ngroups) {
		/* Every term cancelled: the sum is 0. Still one (empty) group, so the shape holds. */
		x->contrib[0] = ex_flt(p, 0.0, ty, l);
		x->coef[0] = NULL;
		x->names[0] = "t0";
		x->ngroups = 1;
	}
	x->nshifts = sh.n;
	x->shift_vars = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(sh.n + 1));
	x->shift_inits = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(sh.n + 1));
	for (int i = 0; i < sh.n; i++) {
		x->shift_vars[i] = sh.var[i];
		x->shift_inits[i] = sh.init[i];
	}
	if (!expansion_validate(c, a, x))
		return -1;
	return 1;
}

/* Whether e reads a variable other than a parameter (a value that may be infinite or NaN
 * when no element contributed: a max still at -INFINITY, the log of a zero sum). */
static bool reads_results(const Expr *e)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->kind != VAR_PARAM)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_results(e->args[i]))
			return true;
	return false;
}

Expr *repair_expansion_sum(Cascade *c, const Expansion *x, Expr **accs, Loc l)
{
	Program *p = c->prog;
	Expr *sum = NULL;
	for (int k = 0; k < x->ngroups; k++) {
		Expr *t = ex_copy(p, accs[k]);
		if (x->coef[k]) {
			t = ex_bin(p, OP_MUL, ex_copy(p, x->coef[k]), t, l);
			/* A group nothing was added to contributes 0, as in the program as written
			 * (where no element read the earlier results), even if they are not finite. */
			if (reads_results(x->coef[k])) {
				Expr *z = ex_flt(p, 0.0, accs[k]->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, l);
				t = ex_cond(p, ex_bin(p, OP_NE, ex_copy(p, accs[k]), z, l), t, ex_copy(p, z), l);
			}
		}
		if (!sum)
			sum = x->neg[k] ? ex_un(p, UOP_NEG, t, l) : t;
		else
			sum = ex_bin(p, x->neg[k] ? OP_SUB : OP_ADD, sum, t, l);
	}
	return sum;
}
