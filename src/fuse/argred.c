/* argred.c: argmax and argmin as reductions of (value, position) pairs.
 *
 * Greedy decoding and top-1 routing keep the best value and its index together:
 *
 *     if (x[r][c] > best) { best = x[r][c]; idx = c; }
 *
 * The value is a max; the index follows it. The pair merges like a max (the larger value
 * wins) with equal values resolved by position: the C loop with `>` keeps the first
 * element of the largest value, with `>=` the last. No other level's result changes which
 * element wins, so the pair needs no repair term, and chunks (split-k, a GPU CTA's
 * threads) merge in any order once each keeps the position of its value.
 *
 * So the fuser keeps the position (`int idx_at`, the loop's iterator where the value was
 * taken) in place of the user's index, from a sentinel meaning "no element taken" (INT_MAX
 * for first-wins, INT_MIN for last-wins: neither wins a tie against a real position),
 * and sets the index from the position after the pass: `if (idx_at != INT_MAX) idx = f(idx_at);`,
 * which leaves the user's initial index when no element beat the initial value, as the
 * loop would. */
#include "fuse.h"

#include <limits.h>
#include <string.h>

/* Whether f reads only the iterator it, scalar parameters and literals (it can be
 * evaluated again at the kept position after the pass). */
static bool of_iterator(const Expr *f, const Var *it)
{
	if (f->kind == EX_INDEX)
		return false;
	if (f->kind == EX_VAR && f->var != it && f->var->kind != VAR_PARAM)
		return false;
	for (int i = 0; i < f->nargs; i++)
		if (!of_iterator(f->args[i], it))
			return false;
	return true;
}

bool arg_check(const Stmt *lvl, const Stmt *s, const ArgStep *m)
{
	const Var *x = m->val->var, *i = m->idx->var;
	if (x->ty != TY_FLOAT && x->ty != TY_DOUBLE)
		return error_at(s->loc, "the value '%s' of an argmax must be float or double (accumulation is fp32 or wider)", x->name), false;
	if (!of_iterator(m->f, lvl->var))
		return error_at(m->set_idx->loc, "the index '%s' of this argmax is set from something other than the loop's iterator '%s': fusecc keeps the position and sets '%s' from it after the loop (write '%s = %s;', or a cast of it, and compute what depends on it after the loop)",
		                i->name, lvl->var->name, i->name, i->name, lvl->var->name),
		       false;
	return true;
}

static Expr *ev(Program *p, Var *v) { return ex_var(p, v, v->loc); }

/* INT_MAX, or INT_MIN written so that C reads it as an int. */
static Expr *sentinel(Program *p, bool last, Loc l)
{
	if (!last)
		return ex_int(p, INT_MAX, l);
	return ex_bin(p, OP_SUB, ex_int(p, -INT_MAX, l), ex_int(p, 1, l), l);
}

/* The level loop of accumulator a. */
static Stmt *level_loop(const Cascade *c, const Accum *a) { return c->levels[a->level]; }

void arg_positions(Cascade *c)
{
	Program *p = c->prog;
	for (int k = 0; k < c->naccums; k++) {
		Accum *a = &c->accums[k];
		if (!a->idx)
			continue;
		ArgStep m;
		arg_match(a->stmt, &m);
		Stmt *lvl = level_loop(c, a);
		Loc l = a->stmt->loc;
		a->at = fresh_var(c, arena_printf(&p->arena, "%s_at", a->idx->name), TY_INT, VAR_LOCAL);
		/* `i = f` becomes `i_at = it` in place (the level's body is copied per step). */
		m.set_idx->lhs = ev(p, a->at);
		m.set_idx->rhs = ex_var(p, lvl->var, m.set_idx->rhs->loc);
		Stmt **init = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(c->ninit + 1));
		memcpy(init, c->init, sizeof(Stmt *) * (size_t)c->ninit);
		init[c->ninit++] = st_decl(p, a->at, sentinel(p, a->last, l), l);
		c->init = init;
		Stmt *set = st_new(p, ST_IF, l);
		set->cond = ex_bin(p, OP_NE, ev(p, a->at), sentinel(p, a->last, l), l);
		Stmt *as = st_assign(p, ex_var(p, a->idx, l), AS_SET, expr_subst_expr(p, a->idx_f, lvl->var, ev(p, a->at)), l);
		st_set_body(p, set, &as, 1);
		Stmt **post = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(c->npost + 1));
		post[0] = set;
		memcpy(post + 1, c->post, sizeof(Stmt *) * (size_t)c->npost);
		c->post = post;
		c->npost++;
	}
}

Stmt *arg_part_decl(Cascade *c, Accum *a, Var *nchunks)
{
	Program *p = c->prog;
	Var *pv = fresh_var(c, arena_printf(&p->arena, "%s_part", a->at->name), TY_INT, VAR_LOCAL);
	pv->ndim = 1;
	pv->dims = arena_alloc(&p->arena, sizeof(Expr *));
	pv->dims[0] = ev(p, nchunks);
	a->at_part = pv;
	return st_decl(p, pv, NULL, a->stmt->loc);
}

Stmt *arg_part_stmt(Cascade *c, const Accum *a, Var *ch, bool store)
{
	Program *p = c->prog;
	Loc l = a->stmt->loc;
	Expr *idx = ev(p, ch);
	Expr *vp = ex_index(p, a->part, &idx, l), *ap = ex_index(p, a->at_part, &idx, l);
	Stmt *two[2];
	if (store) {
		two[0] = st_assign(p, vp, AS_SET, ev(p, a->var), l);
		two[1] = st_assign(p, ap, AS_SET, ev(p, a->at), l);
		return st_block(p, two, 2, l);
	}
	BinOp better = a->red == RED_MAX ? OP_GT : OP_LT;
	Expr *tie = ex_bin(p, OP_LAND, ex_bin(p, OP_EQ, ex_copy(p, vp), ev(p, a->var), l), ex_bin(p, a->last ? OP_GT : OP_LT, ex_copy(p, ap), ev(p, a->at), l), l);
	Stmt *s = st_new(p, ST_IF, l);
	s->cond = ex_bin(p, OP_LOR, ex_bin(p, better, vp, ev(p, a->var), l), tie, l);
	two[0] = st_assign(p, ev(p, a->var), AS_SET, ex_copy(p, vp), l);
	two[1] = st_assign(p, ev(p, a->at), AS_SET, ex_copy(p, ap), l);
	Stmt *b = st_block(p, two, 2, l);
	st_set_body(p, s, &b, 1);
	return s;
}

const Accum *arg_accum_of_at(const Cascade *c, const Var *v)
{
	for (int i = 0; c && i < c->naccums; i++)
		if (c->accums[i].at && c->accums[i].at == v)
			return &c->accums[i];
	return NULL;
}

/* Whether s (an if's arm: a statement or a block) assigns v. */
static bool arm_assigns(const Stmt *s, const Var *v)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR && s->lhs->var == v)
		return true;
	for (int i = 0; s->kind == ST_BLOCK && i < s->nbody; i++)
		if (arm_assigns(s->body[i], v))
			return true;
	return false;
}

void arg_nest_guards(Program *p, Stmt *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nbody; i++)
		arg_nest_guards(p, s->body[i]);
	if (s->kind != ST_IF || s->nbody != 1 || s->cond->kind != EX_BIN || s->cond->bop != OP_LAND)
		return;
	const Expr *b = s->cond->args[1];
	if (b->kind != EX_BIN || (b->bop != OP_GT && b->bop != OP_GE && b->bop != OP_LT && b->bop != OP_LE) || b->args[1]->kind != EX_VAR ||
	    !arm_assigns(s->body[0], b->args[1]->var) || expr_reads_var(s->cond->args[0], b->args[1]->var))
		return;
	Stmt *inner = st_new(p, ST_IF, s->loc);
	inner->cond = s->cond->args[1];
	st_set_body(p, inner, s->body, 1);
	s->cond = s->cond->args[0];
	st_set_body(p, s, &inner, 1);
}

