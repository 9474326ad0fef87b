/* expr.c: small IR utilities the fuser needs: reads and writes, substitution, copies,
 * statement builders, fresh names, and a double-precision evaluator. */
#include "fuse.h"

#include <math.h>
#include <string.h>

bool stmt_declares(const Stmt *s, const Var *v)
{
	if (!s)
		return false;
	if ((s->kind == ST_DECL || s->kind == ST_FOR) && s->var == v)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_declares(s->body[i], v))
			return true;
	return false;
}

Expr *expr_subst_var(Program *p, const Expr *e, const Var *from, Var *to)
{
	if (!e)
		return NULL;
	Expr *c = ex_copy(p, e);
	if ((c->kind == EX_VAR || c->kind == EX_INDEX) && c->var == from) {
		c->var = to;
		c->ty = to->ty;
	}
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = expr_subst_var(p, e->args[i], from, to);
	return c;
}

Stmt *stmt_subst_var(Program *p, const Stmt *s, const Var *from, Var *to)
{
	if (!s)
		return NULL;
	Stmt *c = st_new(p, s->kind, s->loc);
	*c = *s;
	c->lo = expr_subst_var(p, s->lo, from, to);
	c->hi = expr_subst_var(p, s->hi, from, to);
	c->lhs = expr_subst_var(p, s->lhs, from, to);
	c->rhs = expr_subst_var(p, s->rhs, from, to);
	c->cond = expr_subst_var(p, s->cond, from, to);
	if (c->var == from)
		c->var = to;
	c->body = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody ? s->nbody : 1));
	for (int i = 0; i < s->nbody; i++)
		c->body[i] = stmt_subst_var(p, s->body[i], from, to);
	return c;
}

Stmt *stmt_copy(Program *p, const Stmt *s) { return stmt_subst_var(p, s, NULL, NULL); }

Stmt *st_block(Program *p, Stmt **body, int n, Loc loc)
{
	Stmt *s = st_new(p, ST_BLOCK, loc);
	st_set_body(p, s, body, n);
	return s;
}

Stmt *st_assign(Program *p, Expr *lhs, AssignOp op, Expr *rhs, Loc loc)
{
	Stmt *s = st_new(p, ST_ASSIGN, loc);
	s->lhs = lhs;
	s->aop = op;
	s->rhs = rhs;
	return s;
}

Stmt *st_decl(Program *p, Var *v, Expr *init, Loc loc)
{
	Stmt *s = st_new(p, ST_DECL, loc);
	s->var = v;
	s->rhs = init;
	return s;
}

Stmt *st_for(Program *p, Var *v, Expr *lo, Expr *hi, long step, Stmt *body, Loc loc)
{
	Stmt *s = st_new(p, ST_FOR, loc);
	s->var = v;
	s->lo = lo;
	s->hi = hi;
	s->step = step;
	st_set_body(p, s, &body, 1);
	return s;
}

Expr *ex_min(Program *p, Expr *a, Expr *b, Loc loc)
{
	return ex_cond(p, ex_bin(p, OP_LT, a, b, loc), ex_copy(p, a), ex_copy(p, b), loc);
}

static bool name_used(const StrVec *names, const char *s)
{
	for (int i = 0; i < names->n; i++)
		if (!strcmp(names->v[i], s))
			return true;
	return false;
}

Var *fresh_var(Cascade *c, const char *base, ScalarType ty, VarKind kind)
{
	const char *name = base;
	for (int k = 2; name_used(c->names, name); k++)
		name = arena_printf(&c->prog->arena, "%s%d", base, k);
	vec_push(*c->names, name);
	return var_new(c->prog, kind, name, ty, c->region->loc);
}

static double call(MathFn fn, const double *a)
{
	switch (fn) {
	case FN_EXP: return exp(a[0]);
	case FN_EXP2: return exp2(a[0]);
	case FN_LOG: return log(a[0]);
	case FN_LOG2: return log2(a[0]);
	case FN_SQRT: return sqrt(a[0]);
	case FN_TANH: return tanh(a[0]);
	case FN_FABS: return fabs(a[0]);
	case FN_FMAX: return fmax(a[0], a[1]);
	case FN_FMIN: return fmin(a[0], a[1]);
	case FN_POW: return pow(a[0], a[1]);
	case FN_ERF: return erf(a[0]);
	case FN_SIN: return sin(a[0]);
	case FN_COS: return cos(a[0]);
	case FN_FLOOR: return floor(a[0]);
	case FN_CEIL: return ceil(a[0]);
	case FN_ROUND: return round(a[0]);
	case FN_ISFINITE: return isfinite(a[0]);
	case FN_ISNAN: return isnan(a[0]);
	case FN_ISINF: return isinf(a[0]) != 0;
	case FN_SIGNBIT: return signbit(a[0]) != 0;
	case FN_LOG1P: return log1p(a[0]);
	case FN_EXPM1: return expm1(a[0]);
	case FN_FMA: return fma(a[0], a[1], a[2]);
	case FN_TRUNC: return trunc(a[0]);
	case FN_RINT: return rint(a[0]);
	case FN_COPYSIGN: return copysign(a[0], a[1]);
	case FN_COUNT: break;
	}
	return NAN;
}

double expr_eval(const Expr *e, LeafFn leaf, void *ctx)
{
	double a[4] = {0};
	for (int i = 0; i < e->nargs && i < 4 && e->kind != EX_INDEX; i++)
		a[i] = expr_eval(e->args[i], leaf, ctx);
	switch (e->kind) {
	case EX_INT: return (double)e->ival;
	case EX_FLT: return e->fval;
	case EX_VAR:
	case EX_INDEX: return leaf(e, ctx);
	case EX_UN: return e->uop == UOP_NEG ? -a[0] : !a[0];
	case EX_BIN:
		switch (e->bop) {
		case OP_ADD: return a[0] + a[1];
		case OP_SUB: return a[0] - a[1];
		case OP_MUL: return a[0] * a[1];
		case OP_DIV: return scalar_is_int(e->ty) ? (a[1] ? trunc(a[0] / a[1]) : NAN) : a[0] / a[1];
		case OP_MOD: return a[1] ? fmod(a[0], a[1]) : NAN;
		case OP_SHL: return a[1] >= 0 && a[1] < 62 ? ldexp(a[0], (int)a[1]) : NAN;
		case OP_SHR: return a[1] >= 0 && a[1] < 63 ? floor(ldexp(a[0], -(int)a[1])) : NAN;
		case OP_BAND: return (double)((long long)a[0] & (long long)a[1]);
		case OP_BOR: return (double)((long long)a[0] | (long long)a[1]);
		case OP_BXOR: return (double)((long long)a[0] ^ (long long)a[1]);
		case OP_LT: return a[0] < a[1];
		case OP_LE: return a[0] <= a[1];
		case OP_GT: return a[0] > a[1];
		case OP_GE: return a[0] >= a[1];
		case OP_EQ: return a[0] == a[1];
		case OP_NE: return a[0] != a[1];
		case OP_LAND: return a[0] && a[1];
		case OP_LOR: return a[0] || a[1];
		}
		return NAN;
	case EX_CALL: return call(e->fn, a);
	case EX_COND: return a[0] ? a[1] : a[2];
	case EX_CAST:
		switch (e->ty) {
		case TY_INT:
		case TY_I64: return trunc(a[0]);
		case TY_U8: return fmod(fmod(trunc(a[0]), 256) + 256, 256); /* from an integer: modulo 256 */
		case TY_I8: return fmod(fmod(trunc(a[0]) + 128, 256) + 256, 256) - 128;
		case TY_BOOL: return a[0] != 0;
		default: return a[0];
		}
	}
	return NAN;
}

Stmt *stmt_expand_scalar(Program *p, const Stmt *s, const Var *from, const Expr *to)
{
	if (!s)
		return NULL;
	if (s->kind == ST_DECL && s->var == from) {
		if (!s->rhs)
			return st_block(p, NULL, 0, s->loc);
		return st_assign(p, ex_copy(p, to), AS_SET, expr_subst_expr(p, s->rhs, from, to), s->loc);
	}
	Stmt *c = st_new(p, s->kind, s->loc);
	*c = *s;
	c->lo = expr_subst_expr(p, s->lo, from, to);
	c->hi = expr_subst_expr(p, s->hi, from, to);
	c->lhs = expr_subst_expr(p, s->lhs, from, to);
	c->rhs = expr_subst_expr(p, s->rhs, from, to);
	c->cond = expr_subst_expr(p, s->cond, from, to);
	c->body = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody ? s->nbody : 1));
	for (int i = 0; i < s->nbody; i++)
		c->body[i] = stmt_expand_scalar(p, s->body[i], from, to);
	return c;
}

double leaf_random(const Expr *e, unsigned seed)
{
	StrBuf b = {0};
	print_expr(&b, e);
	unsigned h = seed;
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

Stmt *stmt_map_exprs(Program *p, const Stmt *s, ExprMap f, void *ctx)
{
	if (!s)
		return NULL;
	Stmt *c = st_new(p, s->kind, s->loc);
	*c = *s;
	c->lo = s->lo ? f(p, s->lo, ctx) : NULL;
	c->hi = s->hi ? f(p, s->hi, ctx) : NULL;
	c->lhs = s->lhs ? f(p, s->lhs, ctx) : NULL;
	c->rhs = s->rhs ? f(p, s->rhs, ctx) : NULL;
	c->cond = s->cond ? f(p, s->cond, ctx) : NULL;
	c->body = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody ? s->nbody : 1));
	for (int i = 0; i < s->nbody; i++)
		c->body[i] = stmt_map_exprs(p, s->body[i], f, ctx);
	return c;
}

const Var *stmts_carried_array(Stmt *const *decls, int nd, Stmt *const *mid, int nm, Stmt *const *after, int na)
{
	for (int i = 0; i < nd; i++) {
		const Var *v = decls[i]->kind == ST_DECL ? decls[i]->var : NULL;
		if (!v || !v->ndim || v->kind != VAR_LOCAL)
			continue;
		bool written = false, read = false;
		for (int k = 0; k < nm && !written; k++)
			written = stmt_writes_var(mid[k], v);
		/* read before anything after the chunks sets it again (the merge re-runs the
		 * accumulators' initialisation, acc[d] = 0, before merging into them) */
		for (int k = 0; k < na && written && !read; k++) {
			read = stmt_reads_var(after[k], v);
			if (!read && stmt_writes_var(after[k], v))
				break;
		}
		if (written && read)
			return v;
	}
	return NULL;
}

bool stmt_all_exprs(const Stmt *s, ExprTest f, void *ctx)
{
	if (!s)
		return true;
	const Expr *es[5] = {s->lo, s->hi, s->lhs, s->rhs, s->cond};
	for (int i = 0; i < 5; i++)
		if (es[i] && !f(es[i], ctx))
			return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_all_exprs(s->body[i], f, ctx))
			return false;
	return true;
}

double leaf_random_ctx(const Expr *e, void *seed)
{
	return leaf_random(e, *(unsigned *)seed);
}

bool stmt_drop_dead_locals(const Stmt *scope, Stmt *s)
{
	bool any = false;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			any |= stmt_drop_dead_locals(scope, s->body[i]);
	if (s->kind != ST_BLOCK)
		return any;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *d = s->body[i];
		if (d->kind != ST_DECL || d->var->ndim || d->var->kind != VAR_LOCAL || stmt_reads_var(scope, d->var) || stmt_count_stores(scope, d->var))
			continue;
		memmove(s->body + i, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
		s->nbody--;
		i--;
		any = true;
	}
	return any;
}

Expr *expr_subst_equal(Program *p, const Expr *e, const Expr *x, const Expr *to)
{
	if (!e)
		return NULL;
	if (expr_equal(e, x))
		return ex_copy(p, to);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = expr_subst_equal(p, e->args[i], x, to);
	return c;
}

Expr *expr_subst_equal_map(Program *p, const Expr *e, void *ctx)
{
	const Expr **xt = ctx;
	return expr_subst_equal(p, e, xt[0], xt[1]);
}

bool expr_reads_params_only(const Expr *e)
{
	if ((e->kind == EX_VAR && (e->var->kind != VAR_PARAM || e->var->ndim)) || e->kind == EX_INDEX)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!expr_reads_params_only(e->args[i]))
			return false;
	return true;
}

bool expr_reads_only_elem(const Expr *e, const Expr *elem)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var == elem->var)
		return expr_equal(e, elem);
	for (int i = 0; i < e->nargs; i++)
		if (!expr_reads_only_elem(e->args[i], elem))
			return false;
	return true;
}

Stmt **slot_stmts(Stmt **slot, int *n)
{
	Stmt *b = slot ? *slot : NULL;
	*n = !b ? 0 : b->kind == ST_BLOCK ? b->nbody : 1;
	return b && b->kind == ST_BLOCK ? b->body : slot;
}

bool stmt_stores_read_by(const Stmt *s, const Expr *e)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && expr_reads_var(e, s->lhs->var))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_stores_read_by(s->body[i], e))
			return true;
	return false;
}

bool stmt_replace(Program *p, Stmt *s, const Stmt *old, Stmt **repl, int n)
{
	for (int i = 0; i < s->nbody; i++) {
		if (s->body[i] == old) {
			if (s->kind == ST_BLOCK) {
				Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody + n));
				memcpy(nb, s->body, sizeof(Stmt *) * (size_t)i);
				if (n)
					memcpy(nb + i, repl, sizeof(Stmt *) * (size_t)n);
				memcpy(nb + i + n, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
				st_set_body(p, s, nb, s->nbody - 1 + n);
			} else {
				s->body[i] = n == 1 ? repl[0] : st_block(p, repl, n, old->loc);
			}
			return true;
		}
		if (s->body[i] && stmt_replace(p, s->body[i], old, repl, n))
			return true;
	}
	return false;
}
