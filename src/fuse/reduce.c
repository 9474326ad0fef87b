/* reduce.c: recognising the reduction statements users write. */
#include "fuse.h"

#include <math.h>

const char *reducer_name(Reducer r) { return r == RED_ADD ? "+" : r == RED_MAX ? "max" : "min"; }

Expr *reducer_identity(Program *p, Reducer r, ScalarType ty, Loc loc)
{
	ScalarType t = ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT;
	return ex_flt(p, r == RED_ADD ? 0.0 : r == RED_MAX ? -INFINITY : INFINITY, t, loc);
}

/* `x op e` or `e op x` where x is the target: the other operand, or NULL. */
static Expr *other_operand(Expr *bin, const Expr *x, bool commutative)
{
	if (same_lvalue(bin->args[0], x) && !expr_reads_var(bin->args[1], x->var))
		return bin->args[1];
	if (commutative && same_lvalue(bin->args[1], x) && !expr_reads_var(bin->args[0], x->var))
		return bin->args[0];
	return NULL;
}

/* `x > e ? x : e` and its variants: the reducer and e, or false. */
static bool match_select(Expr *c, const Expr *x, Reducer *red, Expr **g)
{
	bool max;
	Expr *e = select_extreme(c, x, &max);
	if (!e)
		return false;
	*red = max ? RED_MAX : RED_MIN;
	*g = e;
	return true;
}

bool reduce_match(Program *p, Stmt *s, Expr **target, Reducer *red, Expr **g)
{
	if (s->kind == ST_IF && s->nbody == 1) {
		/* if (e > x) x = e; */
		Stmt *t = s->body[0];
		while (t->kind == ST_BLOCK && t->nbody == 1)
			t = t->body[0];
		if (t->kind != ST_ASSIGN || t->aop != AS_SET || s->cond->kind != EX_BIN)
			return false;
		Expr *sel = ex_cond(p, s->cond, t->rhs, t->lhs, s->loc);
		if (!match_select(sel, t->lhs, red, g))
			return false;
		*target = t->lhs;
		return true;
	}
	if (s->kind != ST_ASSIGN)
		return false;
	Expr *x = s->lhs, *r = s->rhs;
	if (expr_reads_var(r, x->var) && s->aop != AS_SET)
		return false;
	*target = x;
	switch (s->aop) {
	case AS_ADD: *red = RED_ADD; *g = r; return true;
	case AS_SUB: *red = RED_ADD; *g = ex_un(p, UOP_NEG, r, r->loc); return true;
	case AS_SET: break;
	default: return false;
	}
	if (r->kind == EX_BIN && r->bop == OP_ADD && (*g = other_operand(r, x, true))) {
		*red = RED_ADD;
		return true;
	}
	if (r->kind == EX_BIN && r->bop == OP_SUB && (*g = other_operand(r, x, false))) {
		*red = RED_ADD;
		*g = ex_un(p, UOP_NEG, *g, (*g)->loc);
		return true;
	}
	if (r->kind == EX_CALL && (r->fn == FN_FMAX || r->fn == FN_FMIN) && (*g = other_operand(r, x, true))) {
		*red = r->fn == FN_FMAX ? RED_MAX : RED_MIN;
		return true;
	}
	if (match_select(r, x, red, g))
		return true;
	/* `x = c ? <reduction of x> : x` (a masked step, as an if around the reduction
	 * becomes): the reduction of `c ? e : identity`. */
	if (r->kind == EX_COND && !expr_reads_var(r->args[0], x->var)) {
		for (int k = 1; k <= 2; k++) {
			if (!same_lvalue(r->args[3 - k], x))
				continue;
			Stmt probe = *s;
			probe.rhs = r->args[k];
			Expr *t;
			if (!reduce_match(p, &probe, &t, red, g))
				return false;
			Expr *id = reducer_identity(p, *red, x->ty, r->loc);
			*g = k == 1 ? ex_cond(p, r->args[0], *g, id, r->loc) : ex_cond(p, r->args[0], id, *g, r->loc);
			return true;
		}
	}
	return false;
}

/* The reducer an argmax step's comparison `l OP r` takes, with x on one side: `g > x`
 * (or `x < g`) keeps the largest, `g < x` the smallest; `>=` and `<=` move to an equal
 * value too, so the last index wins its ties. false when x is on neither side. */
bool arg_compare_of(const Expr *cmp, const Expr *x, Expr **g, Reducer *red, bool *last)
{
	if (cmp->kind != EX_BIN || (cmp->bop != OP_GT && cmp->bop != OP_GE && cmp->bop != OP_LT && cmp->bop != OP_LE))
		return false;
	bool x_right = same_lvalue(cmp->args[1], x);
	if (!x_right && !same_lvalue(cmp->args[0], x))
		return false;
	*g = cmp->args[x_right ? 0 : 1];
	/* With x on the left, `x < g` is `g > x`. */
	bool gt = cmp->bop == OP_GT || cmp->bop == OP_GE;
	*red = gt == x_right ? RED_MAX : RED_MIN;
	*last = cmp->bop == OP_GE || cmp->bop == OP_LE;
	return true;
}

bool arg_match(const Stmt *s, ArgStep *a)
{
	if (s->kind != ST_IF || s->nbody != 1 || s->body[0]->kind != ST_BLOCK || s->body[0]->nbody != 2)
		return false;
	Stmt **b = s->body[0]->body;
	for (int k = 0; k < 2; k++) {
		Stmt *sv = b[k], *si = b[1 - k];
		if (sv->kind != ST_ASSIGN || si->kind != ST_ASSIGN || sv->aop != AS_SET || si->aop != AS_SET)
			return false;
		if (sv->lhs->kind != EX_VAR || si->lhs->kind != EX_VAR || sv->lhs->var == si->lhs->var)
			return false;
		Expr *g;
		if (!arg_compare_of(s->cond, sv->lhs, &g, &a->red, &a->last) || !expr_equal(g, sv->rhs))
			continue;
		const Var *x = sv->lhs->var, *i = si->lhs->var;
		if (expr_reads_var(g, x) || expr_reads_var(g, i) || expr_reads_var(si->rhs, x) || expr_reads_var(si->rhs, i))
			return false;
		a->val = sv->lhs;
		a->idx = si->lhs;
		a->g = g;
		a->f = si->rhs;
		a->set_idx = si;
		return true;
	}
	return false;
}
