/* stores.c: an output written during a pass and rewritten after it, stored once.
 *
 * Eager code stores a value that reads a result of an earlier loop, then rewrites it in
 * place once a later result is known (softmax as PyTorch writes it):
 *
 *     for (c) { y[r][c] = expf(x[r][c] - m); s += y[r][c]; }
 *     for (c) y[r][c] /= s;
 *
 * Fused, the first store would keep the partial m (memory is not repaired). But the first
 * value is only ever read back by its own step and by the rewrite, so the store can be left
 * out: the step reads the value it computed, and the rewrite computes it again
 * (y[r][c] = expf(x[r][c] - m) / s). Both read m after its loop, as in the original, so
 * the program means the same, in-place forms included (x overwritten with its own
 * exponentials: x keeps its input until the rewrite, which now reads it). */
#include "fuse.h"

#include <string.h>

/* Whether s accesses array v anywhere (read or write). */
static bool touches(const Stmt *s, const Var *v)
{
	return stmt_reads_var(s, v) || stmt_count_stores(s, v);
}

/* Whether every read of an element of elem's array in s (and what it nests, its own
 * store's subscripts included) is of elem, and s stores none. */
static bool stmt_reads_only_elem(const Stmt *s, const Expr *elem)
{
	if (!s)
		return true;
	if (s->kind == ST_ASSIGN && s->lhs->var == elem->var)
		return false;
	for (int i = 0; s->lhs && i < s->lhs->nargs; i++)
		if (!expr_reads_only_elem(s->lhs->args[i], elem))
			return false;
	if (!expr_reads_only_elem(s->rhs, elem) || !expr_reads_only_elem(s->cond, elem) || !expr_reads_only_elem(s->lo, elem) || !expr_reads_only_elem(s->hi, elem))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_reads_only_elem(s->body[i], elem))
			return false;
	return true;
}

/* The statements of a loop's body as a list (a block's, or the one statement). */
static Stmt **body_list(Stmt *l, int *n)
{
	Stmt *b = l->body[0];
	if (b->kind == ST_BLOCK) {
		*n = b->nbody;
		return b->body;
	}
	*n = 1;
	return l->body;
}

/* v's value at the store: single-definition scalar locals of the loop's body that precede
 * it inlined; NULL when v still reads a local of the loop. */
static Expr *value_at(Program *p, Stmt **body, int at, const Expr *v, const Stmt *loop)
{
	Expr *e = ex_copy(p, v);
	for (int i = at - 1; i >= 0; i--) {
		Stmt *d = body[i];
		if (d->kind != ST_DECL || d->var->ndim || !expr_reads_var(e, d->var))
			continue;
		if (!d->rhs || stmt_count_stores(loop, d->var))
			return NULL;
		e = expr_subst_expr(p, e, d->var, d->rhs);
	}
	for (int i = 0; i < at; i++)
		if ((body[i]->kind == ST_DECL || body[i]->kind == ST_FOR) && expr_reads_var(e, body[i]->var))
			return NULL;
	return e;
}

/* Whether e reads a scalar local that something in s writes. */
static bool reads_written_local(const Expr *e, const Stmt *s)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR && e->var->kind == VAR_LOCAL && stmt_count_stores(s, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_written_local(e->args[i], s))
			return true;
	return false;
}

/* Whether e reads a scalar local declared outside `loop` (a result of the row: m). */
static bool reads_row_local(const Expr *e, const Stmt *loop)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR && e->var->kind == VAR_LOCAL && !stmt_declares(loop, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_row_local(e->args[i], loop))
			return true;
	return false;
}

/* Leaves out the store of blk->body[i] (a loop) that blk->body[k] rewrites; true if done. */
static bool defer_store(Program *p, Stmt *blk, int i, int k)
{
	Stmt *l2 = blk->body[i], *l3 = blk->body[k];
	if (l2->step != 1 || l3->step != 1 || !expr_equal(l2->lo, l3->lo) || !expr_equal(l2->hi, l3->hi))
		return false;
	int n2, n3;
	Stmt **b2 = body_list(l2, &n2), **b3 = body_list(l3, &n3);
	for (int si = 0; si < n2; si++) {
		Stmt *s = b2[si];
		if (s->kind != ST_ASSIGN || s->aop != AS_SET || s->lhs->kind != EX_INDEX || s->lhs->var->kind != VAR_PARAM)
			continue;
		Var *y = s->lhs->var;
		Expr *elem = s->lhs;
		bool at_step = false;
		for (int a = 0; a < elem->nargs; a++)
			at_step |= expr_reads_var(elem->args[a], l2->var);
		if (!at_step || stmt_count_stores(l2, y) != 1)
			continue;
		Expr *v = value_at(p, b2, si, s->rhs, l2);
		if (!v || !reads_row_local(v, l2) || !expr_reads_only_elem(v, elem))
			continue;
		/* the loop's other statements read y only at this element, and nothing between
		 * the loops touches y */
		bool ok = true;
		for (int q = 0; q < n2 && ok; q++)
			ok = q == si || stmt_reads_only_elem(b2[q], elem);
		for (int q = i + 1; q < k && ok; q++)
			ok = !touches(blk->body[q], y) && !reads_written_local(v, blk->body[q]);
		ok = ok && !reads_written_local(v, l2);
		if (!ok)
			continue;
		/* the rewrite: the later loop's first access to y, at the same element */
		Expr *elem3 = expr_subst_var(p, elem, l2->var, l3->var);
		int ti = 0;
		while (ti < n3 && !touches(b3[ti], y))
			ti++;
		if (ti == n3)
			continue;
		Stmt *t = b3[ti];
		if (t->kind != ST_ASSIGN || !expr_equal(t->lhs, elem3) || !expr_reads_only_elem(t->rhs, elem3))
			continue;
		if (t->aop == AS_SET && !expr_reads_var(t->rhs, y))
			continue; /* overwritten whole: the first store is simply dead, nothing to defer */
		for (int q = 0; q < ti && ok; q++)
			ok = !reads_written_local(v, b3[q]);
		if (!ok)
			continue;
		Expr *v3 = expr_subst_var(p, v, l2->var, l3->var);
		if (v3->ty != y->ty)
			v3 = ex_cast(p, y->ty, v3, v3->loc);
		Expr *val = t->rhs;
		if (t->aop != AS_SET) {
			static const BinOp ops[] = {[AS_ADD] = OP_ADD, [AS_SUB] = OP_SUB, [AS_MUL] = OP_MUL, [AS_DIV] = OP_DIV};
			val = ex_bin(p, ops[t->aop], ex_copy(p, elem3), t->rhs, t->loc);
		}
		Stmt *nt = st_assign(p, ex_copy(p, t->lhs), AS_SET, expr_subst_equal(p, val, elem3, v3), t->loc);
		/* the step reads the value it computed (as y's type holds it) */
		Expr *v2 = v->ty != y->ty ? ex_cast(p, y->ty, v, v->loc) : v;
		Stmt **nb2 = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n2);
		int m = 0;
		for (int q = 0; q < n2; q++)
			if (q != si)
				nb2[m++] = q > si ? stmt_map_exprs(p, b2[q], expr_subst_equal_map, (const Expr *[]){elem, v2}) : b2[q];
		l2->body[0] = st_block(p, nb2, m, l2->body[0]->loc);
		b3[ti] = nt;
		return true;
	}
	return false;
}

void fuse_defer_stores(Program *p, Stmt *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			fuse_defer_stores(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		if (s->body[i]->kind != ST_FOR)
			continue;
		for (int k = i + 1; k < s->nbody; k++)
			if (s->body[k]->kind == ST_FOR && defer_store(p, s, i, k))
				break;
	}
}
