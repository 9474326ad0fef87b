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


/* ---- payloads: what the argmax's arm sets besides the value ----
 *
 * Sampling and routing keep more than the index with the best value: Gumbel-max's
 * `if (key > best) { best = key; tok = v; logit = l; }`, DeepSeek's router keeping the
 * raw score of the expert chosen by score + bias, a token id read through a table
 * (`id = ids[v]`). Each such value is a function of the position taken: the arm keeps
 * the position alone (a pair fusecc reduces), and after the loop each value is computed
 * again at that position, when one was taken. */

typedef struct Payload {
	const Stmt *loop;     /* the argmax's loop */
	const Stmt *region;   /* the region (arrays it stores are not re-readable) */
	int depth;
} Payload;

/* e with the loop body's single-definition locals (declared in body[0..upto), never
 * stored again in the loop) replaced by their values; NULL when e reads anything that
 * cannot be evaluated again after the loop at a position (a local the loop changes, an
 * array the region writes, a local of the loop stored in it). */
static Expr *payload_at(Program *p, Payload *pl, const Expr *e, Stmt **body, int upto)
{
	if (!e || ++pl->depth > 64)
		return NULL;
	if (e->kind == EX_VAR || e->kind == EX_INDEX) {
		const Var *v = e->var;
		bool inside = stmt_declares(pl->loop, v) && v != pl->loop->var;
		if (e->kind == EX_VAR && inside) {
			for (int k = 0; k < upto; k++)
				if (body[k]->kind == ST_DECL && body[k]->var == v && body[k]->rhs && !stmt_count_stores(pl->loop, v))
					return payload_at(p, pl, body[k]->rhs, body, k);
			return NULL;
		}
		if (inside || (v->kind == VAR_LOCAL && stmt_count_stores(pl->loop, v)) || (e->kind == EX_INDEX && stmt_count_stores(pl->region, v)))
			return NULL;
	}
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		if (!(c->args[i] = payload_at(p, pl, e->args[i], body, upto)))
			return NULL;
	return c;
}

const Stmt *arg_arm_value(const Stmt *s)
{
	if (s->kind != ST_IF || s->nbody != 1 || s->body[0]->kind != ST_BLOCK)
		return NULL;
	for (int k = 0; k < s->body[0]->nbody; k++) {
		const Stmt *a = s->body[0]->body[k];
		Expr *g;
		Reducer red;
		bool last;
		if (a->kind == ST_ASSIGN && a->aop == AS_SET && a->lhs->kind == EX_VAR && arg_compare_of(s->cond, a->lhs, &g, &red, &last) && expr_equal(g, a->rhs))
			return a;
	}
	return NULL;
}

/* The argmax arm at body[at] of loop l (in block parent at index li) with payloads:
 * rewritten as described above. */
static void arg_payload_arm(Cascade *c, Stmt *parent, int li, Stmt **body, int at)
{
	Program *p = c->prog;
	Stmt *l = parent->body[li], *s = body[at];
	if (s->kind != ST_IF || s->nbody != 1 || s->body[0]->kind != ST_BLOCK || s->body[0]->nbody < 2)
		return;
	int n = s->body[0]->nbody;
	Stmt **arm = s->body[0]->body;
	const Stmt *best = arg_arm_value(s);
	int val = -1;
	for (int k = 0; k < n; k++) {
		if (arm[k]->kind != ST_ASSIGN || arm[k]->aop != AS_SET || arm[k]->lhs->kind != EX_VAR || stmt_declares(l, arm[k]->lhs->var))
			return;
		if (arm[k] == best)
			val = k;
	}
	if (val < 0)
		return;
	ArgStep am;
	if (n == 2 && arg_match(s, &am) && of_iterator(am.f, l->var))
		return; /* the pair argred reduces as it is */
	Payload pl = {l, c->region->loop, 0};
	Expr **at_pos = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)n);
	Loc loc = s->loc;
	for (int k = 0; k < n; k++) {
		if (k == val)
			continue;
		const Var *y = arm[k]->lhs->var;
		/* the value: set here alone in the loop, read by nothing in it */
		if (stmt_count_stores(l, y) != 1 || stmt_reads_var(l->body[0], y) || expr_reads_var(arm[k]->rhs, arm[val]->lhs->var))
			return;
		pl.depth = 0;
		Expr *e = payload_at(p, &pl, arm[k]->rhs, body, at);
		if (!e)
			return;
		at_pos[k] = e;
	}
	/* after the loop, as late as the values allow: before the first statement reading
	 * one (at the end when none does) */
	int q = li + 1;
	for (bool read = false; q < parent->nbody && !read; q += !read)
		for (int k = 0; k < n && !read; k++)
			read = k != val && stmt_reads_var(parent->body[q], arm[k]->lhs->var);
	/* a value read before a later loop of the row (`tok[b] = idx;` ahead of the
	 * softmax's sums) would be needed inside the pass: left as written */
	for (int k = q; k < parent->nbody; k++)
		if (parent->body[k]->kind == ST_FOR)
			return;
	/* `int best_at = lo - 1;` before the loop, `best_at = v;` in the arm, and after the
	 * loop `y = best_at != lo - 1 ? f(best_at) : y;` for each value y */
	Var *pos = fresh_var(c, arena_printf(&p->arena, "%s_at", arm[val]->lhs->var->name), TY_INT, VAR_LOCAL);
	Expr *none = ex_bin(p, OP_SUB, ex_copy(p, l->lo), ex_int(p, 1, loc), loc);
	Stmt **sets = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n);
	int ns = 0;
	for (int k = 0; k < n; k++)
		if (k != val) {
			Expr *taken = ex_bin(p, OP_NE, ex_var(p, pos, loc), ex_copy(p, none), loc);
			Expr *at = expr_subst_var(p, at_pos[k], l->var, pos);
			Expr *v = ex_cond(p, taken, ex_as_type(p, arm[k]->lhs->ty, at), ex_copy(p, arm[k]->lhs), loc);
			sets[ns++] = st_assign(p, ex_copy(p, arm[k]->lhs), AS_SET, v, arm[k]->loc);
		}
	Stmt *keep[2] = {arm[val], st_assign(p, ex_var(p, pos, loc), AS_SET, ex_var(p, l->var, loc), loc)};
	Stmt *nb = st_block(p, keep, 2, s->body[0]->loc);
	st_set_body(p, s, &nb, 1);
	Stmt **all = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(parent->nbody + ns + 1));
	int m = 0;
	for (int k = 0; k <= parent->nbody; k++) {
		if (k == li)
			all[m++] = st_decl(p, pos, none, loc);
		for (int e = 0; k == q && e < ns; e++)
			all[m++] = sets[e];
		if (k < parent->nbody)
			all[m++] = parent->body[k];
	}
	st_set_body(p, parent, all, m);
}

void arg_payloads(Cascade *c, Stmt *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nbody; i++)
		arg_payloads(c, s->body[i]);
	for (int i = 0; s->kind == ST_BLOCK && i < s->nbody; i++) {
		Stmt *l = s->body[i];
		if (l->kind != ST_FOR)
			continue;
		int n;
		Stmt **body = slot_stmts(&l->body[0], &n);
		for (int k = 0; k < n; k++) {
			int before = s->nbody;
			arg_payload_arm(c, s, i, body, k);
			if (s->nbody != before) {
				i++; /* past the loop */
				break;
			}
		}
	}
}
