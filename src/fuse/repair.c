/* repair.c: deriving repair terms (DESIGN §4).
 *
 * A contribution g(r, x) of an accumulator reads producer values r (results of earlier
 * levels) and per-step data x. For a sum it must factor as G_x(x) * G_r(r), with
 * G_r = exp(L_e(r)) * exp2(L_2(r)) * prod P_i(r) / prod Q_i(r), L linear in r with
 * coefficients free of the step and P, Q reading only producers and row-level values;
 * then h(t, r, r') = t * G_r(r') / G_r(r), with the exponentials' ratio taken as one
 * exponential of the difference (exp(m - m'), never exp(-m') / exp(-m), which under- and
 * overflows). For max/min it must be G_x(x) + L(r); then h = t + L(r') - L(r). Anything
 * else is refused with the reason. Every derived h is checked at random points. */
#include "fuse.h"

#include <math.h>
#include <string.h>

typedef struct Deriv {
	Cascade *c;
	Accum *a;
	Repair *rp;
	const char *why; /* reason of a refusal */
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
			d->why = "a producer is multiplied by a value that changes along the loop";
			return false;
		case OP_DIV:
			if (!reads_producers(c, e->args[1]) && row_level(c, e->args[1])) {
				Expr *inv = ex_bin(p, OP_DIV, ex_flt(p, 1.0, e->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, e->loc), ex_copy(p, e->args[1]), e->loc);
				return linearize(d, e->args[0], sign, mul_opt(p, factor, inv, e->loc), coef);
			}
			d->why = "a producer is divided by a value that changes along the loop";
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
	case EX_COND:
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
	default: break;
	}
	if (row_level(c, e)) {
		vec_push(*(invert ? den : num), ex_copy(p, (Expr *)e));
		return true;
	}
	d->why = "its contribution is not a product of a part that reads no earlier result and a part that reads only earlier results (a variance, sum of (x - mean)^2, must be written with sums of x and of x*x)";
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

bool repair_derive(Cascade *c, Accum *a)
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
		error_at(a->stmt->loc, "cannot fuse the reduction into '%s' over '%s': %s", a->var->name, c->axis, d.why);
		return false;
	}
	for (int k = 0; k < c->nproducers; k++) {
		rp->uses[k] = rp->coef_e[k] || rp->coef_2[k];
		for (int f = 0; f < rp->nfactors; f++)
			rp->uses[k] |= expr_reads_var(rp->factors[f], c->producers[k].var);
		for (int f = 0; f < rp->ninv_factors; f++)
			rp->uses[k] |= expr_reads_var(rp->inv_factors[f], c->producers[k].var);
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
	StrBuf b = {0};
	print_expr(&b, e);
	unsigned h = ec->seed;
	for (const char *s = b.s; *s; s++)
		h = h * 16777619u ^ (unsigned char)*s;
	sb_free(&b);
	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	if (scalar_is_int(e->ty))
		return (double)(h % (e->ty == TY_BOOL ? 2 : 7));
	return ((double)(h % 100000) / 100000.0) * 3.0 - 1.5;
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
