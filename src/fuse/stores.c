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

#include <stdlib.h>
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

/* Whether loop lq runs over the range of loop l (step one) and reads y only at elem
 * (with lq's iterator for l's), storing none of it: its reads can be given the value
 * stored at that element instead. */
static bool reads_elem_along(Program *p, const Stmt *lq, const Stmt *l, const Expr *elem)
{
	if (lq->kind != ST_FOR || lq->step != 1 || !expr_equal(lq->lo, l->lo) || !expr_equal(lq->hi, l->hi) || stmt_count_stores(lq, elem->var))
		return false;
	return stmt_reads_only_elem(lq->body[0], expr_subst_var(p, elem, l->var, lq->var));
}

/* Gives the reads of y in loop lq (reads_elem_along) the value v stored at elem by loop l. */
static void forward_into(Program *p, Stmt *lq, const Stmt *l, const Expr *elem, const Expr *v)
{
	Expr *eq = expr_subst_var(p, elem, l->var, lq->var);
	Expr *vq = expr_subst_var(p, v, l->var, lq->var);
	if (vq->ty != elem->var->ty)
		vq = ex_cast(p, elem->var->ty, vq, vq->loc);
	lq->body[0] = stmt_map_exprs(p, lq->body[0], expr_subst_equal_map, (const Expr *[]){eq, vq});
}

/* The store of blk->body[i] (a loop), y[..c..] = v with v reading a result of the row (m),
 * is read back by later loops over the same range, and perhaps rewritten by one:
 *
 *     for (c) y[r][c] = x[r][c] - m;        the store
 *     for (c) s += expf(y[r][c]);           reads: given x[r][c] - m
 *     for (c) y[r][c] = expf(y[r][c]) / s;  the rewrite: y[r][c] = expf(x[r][c] - m) / s
 *
 * Each read gets the stored value (as y's type holds it), and a rewrite the value it
 * overwrites, so the store can be left out; without a rewrite it stays, read by nothing
 * in the pass, and moves after it. Both read m after its loop, as the original does (m is
 * not written in between), so the program means the same, in place too (x = x - m: x
 * keeps its input until the rewrite, which now reads it). True if something changed. */
static bool defer_store(Program *p, Stmt *blk, int i)
{
	Stmt *l2 = blk->body[i];
	if (l2->step != 1)
		return false;
	int n2;
	Stmt **b2 = body_list(l2, &n2);
	for (int si = 0; si < n2; si++) {
		Stmt *s = b2[si];
		if (s->kind != ST_ASSIGN || s->aop != AS_SET || s->lhs->kind != EX_INDEX)
			continue;
		Var *y = s->lhs->var;
		Expr *elem = s->lhs;
		/* a local row of this block ends with it: a store nothing reads is dead */
		bool row_local = false;
		for (int q = 0; q < i; q++)
			row_local |= blk->body[q]->kind == ST_DECL && blk->body[q]->var == y;
		if (y->kind != VAR_PARAM && !row_local)
			continue;
		bool at_step = false;
		for (int a = 0; a < elem->nargs; a++)
			at_step |= expr_reads_var(elem->args[a], l2->var);
		if (!at_step || stmt_count_stores(l2, y) != 1)
			continue;
		Expr *v = value_at(p, b2, si, s->rhs, l2);
		if (!v || !reads_row_local(v, l2) || !expr_reads_only_elem(v, elem))
			continue;
		/* a local row stored with a value of its own (e[j] = expf(e[j] - m)); one stored
		 * from elsewhere is a row of the pass the fuser folds (fuse_store_rows) */
		if (y->kind != VAR_PARAM && !expr_reads_var(v, y))
			continue;
		/* the loop's other statements read y only at this element */
		bool ok = !reads_written_local(v, l2);
		for (int q = 0; q < n2 && ok; q++)
			ok = q == si || stmt_reads_only_elem(b2[q], elem);
		if (!ok)
			continue;
		/* later loops that read the element back, up to the first other access of y */
		int k = i + 1, nreads = 0;
		while (k < blk->nbody && !reads_written_local(v, blk->body[k])) {
			if (touches(blk->body[k], y)) {
				if (!reads_elem_along(p, blk->body[k], l2, elem))
					break;
				nreads++;
			}
			k++;
		}
		Stmt *t = NULL, *l3 = k < blk->nbody ? blk->body[k] : NULL;
		Expr *elem3 = NULL;
		int ti = 0, n3 = 0;
		Stmt **b3 = NULL;
		if (l3 && touches(l3, y)) {
			/* the rewrite: that loop's first access to y, at the same element */
			if (l3->kind != ST_FOR || l3->step != 1 || !expr_equal(l2->lo, l3->lo) || !expr_equal(l2->hi, l3->hi))
				continue;
			b3 = body_list(l3, &n3);
			elem3 = expr_subst_var(p, elem, l2->var, l3->var);
			while (ti < n3 && !touches(b3[ti], y))
				ti++;
			t = b3[ti];
			if (t->kind != ST_ASSIGN || !expr_equal(t->lhs, elem3) || !expr_reads_only_elem(t->rhs, elem3))
				continue;
			if (t->aop == AS_SET && !expr_reads_var(t->rhs, y) && !nreads)
				continue; /* overwritten whole: the first store is simply dead, nothing to defer */
			for (int q = 0; q < ti && ok; q++)
				ok = !reads_written_local(v, b3[q]);
			if (!ok)
				continue;
		} else if (!nreads || (!row_local && expr_reads_var(v, y))) {
			/* nothing reads it back; or the store stays and v reads what it overwrites */
			continue;
		} else if (row_local && k < blk->nbody) {
			continue; /* stopped before the row's end: the store is not dead */
		}
		for (int q = i + 1; q < k; q++)
			if (touches(blk->body[q], y))
				forward_into(p, blk->body[q], l2, elem, v);
		if (!t && !row_local)
			return true;
		Stmt *nt = NULL;
		if (t) {
			Expr *v3 = expr_subst_var(p, v, l2->var, l3->var);
			if (v3->ty != y->ty)
				v3 = ex_cast(p, y->ty, v3, v3->loc);
			Expr *val = t->rhs;
			if (t->aop != AS_SET)
				val = ex_bin(p, assignop_binop(t->aop), ex_copy(p, elem3), t->rhs, t->loc);
			nt = st_assign(p, ex_copy(p, t->lhs), AS_SET, expr_subst_equal(p, val, elem3, v3), t->loc);
		}
		/* the step reads the value it computed (as y's type holds it) */
		Expr *v2 = v->ty != y->ty ? ex_cast(p, y->ty, v, v->loc) : v;
		Stmt **nb2 = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n2);
		int m = 0;
		for (int q = 0; q < n2; q++)
			if (q != si)
				nb2[m++] = q > si ? stmt_map_exprs(p, b2[q], expr_subst_equal_map, (const Expr *[]){elem, v2}) : b2[q];
		l2->body[0] = st_block(p, nb2, m, l2->body[0]->loc);
		if (t)
			b3[ti] = nt;
		if (!m) /* the loop held the store alone */
			stmt_replace(p, blk, l2, NULL, 0);
		return true;
	}
	return false;
}

/* Whether e is not negative by its form: literals >= 0, iterators, integer parameters
 * (sizes) and their sums and products. */
static bool plainly_nonneg(const Expr *e)
{
	switch (e->kind) {
	case EX_INT: return e->ival >= 0;
	case EX_VAR: return e->var->kind == VAR_LOOP || (e->var->kind == VAR_PARAM && !e->var->ndim && scalar_is_int(e->var->ty));
	case EX_BIN: return (e->bop == OP_ADD || e->bop == OP_MUL) && plainly_nonneg(e->args[0]) && plainly_nonneg(e->args[1]);
	default: return false;
	}
}

/* The one store to an array in loop l's body, at its top level, of y[..v..] with v its
 * iterator; its index in the body list, or -1. */
static int sole_row_store(Stmt *l, Stmt **body, int n)
{
	int at = -1;
	for (int q = 0; q < n; q++) {
		Stmt *s = body[q];
		if (s->kind == ST_ASSIGN && s->lhs->kind == EX_INDEX) {
			if (at >= 0)
				return -1;
			at = q;
		}
	}
	if (at < 0 || body[at]->aop != AS_SET || stmt_count_stores(l, body[at]->lhs->var) != 1 || !expr_reads_var(body[at]->lhs, l->var))
		return -1;
	return at;
}

/* A row stored whole by one loop, then part of it overwritten by a later one, a mask
 * filled in place (causal_mask_(S) after bmm_qkT(S, q, k)):
 *
 *     for (j = 0; j < n; j++) { ...; S[i][j] = acc * scale; }
 *     for (j = i + 1; j < n; j++) S[i][j] = -INFINITY;
 *
 * becomes one store, S[i][j] = j >= i + 1 ? -INFINITY : acc * scale, and the second loop
 * goes: the row then has one value a column, which the passes after it read (the
 * masked_fill as a ternary). Only where the second range lies inside the first (same end,
 * a start not below the first's) and nothing between touches the row. */
static void merge_fill_loops(Program *p, Stmt *blk)
{
	for (int i = 0; i < blk->nbody; i++) {
		Stmt *l1 = blk->body[i];
		if (l1->kind != ST_FOR || l1->step != 1)
			continue;
		int n1;
		Stmt **b1 = body_list(l1, &n1);
		int si = sole_row_store(l1, b1, n1);
		if (si < 0)
			continue;
		Expr *elem = b1[si]->lhs;
		Var *y = elem->var;
		int k = i + 1;
		while (k < blk->nbody && !touches(blk->body[k], y))
			k++;
		if (k == blk->nbody)
			continue;
		Stmt *l2 = blk->body[k];
		if (l2->kind != ST_FOR || l2->step != 1 || !expr_equal(l2->hi, l1->hi))
			continue;
		if (!expr_equal(l2->lo, l1->lo) && !(l1->lo->kind == EX_INT && l1->lo->ival == 0 && plainly_nonneg(l2->lo)))
			continue;
		int n2;
		Stmt **b2 = body_list(l2, &n2);
		Expr *elem2 = expr_subst_var(p, elem, l1->var, l2->var);
		if (n2 != 1 || b2[0]->kind != ST_ASSIGN || !expr_equal(b2[0]->lhs, elem2) || !expr_reads_only_elem(b2[0]->rhs, elem2))
			continue;
		Stmt *st = b1[si];
		Expr *old = st->rhs;
		Expr *val = b2[0]->rhs;
		if (b2[0]->aop != AS_SET)
			val = ex_bin(p, assignop_binop(b2[0]->aop), ex_copy(p, elem2), val, b2[0]->loc);
		val = expr_subst_var(p, expr_subst_equal(p, val, elem2, elem), l2->var, l1->var);
		/* the fill, computed in the first loop now, reads nothing stored from there on
		 * but the row's element (given the first value) */
		Expr *rest = expr_subst_equal(p, val, elem, ex_int(p, 0, elem->loc));
		bool ok = !stmt_stores_read_by(l1, rest) && !stmt_stores_read_by(l1, l2->lo);
		for (int q = i + 1; q < k && ok; q++) {
			Stmt *b = blk->body[q];
			ok = !stmt_stores_read_by(b, rest) && !stmt_stores_read_by(b, l2->lo) &&
			     !(b->kind == ST_DECL && (expr_reads_var(rest, b->var) || expr_reads_var(l2->lo, b->var)));
		}
		if (!ok)
			continue;
		val = expr_subst_equal(p, val, elem, old->ty != y->ty ? ex_cast(p, y->ty, old, old->loc) : old);
		if (val->ty != y->ty)
			val = ex_cast(p, y->ty, val, val->loc);
		Expr *nv = val;
		if (!expr_equal(l2->lo, l1->lo)) {
			Expr *in = ex_bin(p, OP_GE, ex_var(p, l1->var, l1->loc), ex_copy(p, l2->lo), l2->loc);
			nv = ex_cond(p, in, val, old->ty != y->ty ? ex_cast(p, y->ty, old, old->loc) : old, st->loc);
		}
		b1[si] = st_assign(p, ex_copy(p, st->lhs), AS_SET, nv, st->loc);
		stmt_replace(p, blk, l2, NULL, 0);
		i--; /* the merged loop may take another fill */
	}
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
	merge_fill_loops(p, s);
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = s->body[i];
		if (l->kind == ST_FOR && defer_store(p, s, i) && s->body[i] != l)
			i--; /* the loop went: the statement now at i is the next one */
	}
}

/* Declares local row v in blk before its first loop over the range of `loop` (named
 * alike): a row of the pass, where a declaration between the pass's loops would belong to
 * one of its levels. */
static void declare_row(Program *p, Stmt *blk, const Stmt *loop, Var *v)
{
	int f = 0;
	while (f < blk->nbody && (blk->body[f]->kind != ST_FOR || strcmp(blk->body[f]->var->name, loop->var->name)))
		f++;
	Stmt *at = blk->body[f];
	stmt_replace(p, blk, at, (Stmt *[]){st_decl(p, v, NULL, loop->loc), at}, 2);
}

/* ---- an output row stored with a result of the row, and read back ----
 *
 * The attention map kept for the backward pass (or for output_attentions), then P.V
 * reading it, or router probabilities stored while a later sum (an entropy) reads them:
 *
 *     for (j) { s = q.k[j]; P[i][j] = expf(s - m) / l; }
 *     for (d) { acc = 0; for (j) acc += P[i][j] * v[j][d]; o[i][d] = acc; }
 *
 * Fused, the store would keep the partial m and l, and the read would see them. The
 * reads go to a local row instead (P_row[j], which the fuser folds like a row of scores),
 * and the store moves to a copy of its loop after the row, keeping only what the value
 * needs (q.k computed again), where m and l are final: it reads them after they are
 * complete, as the original does, since nothing after the loop changes them. */

typedef VEC(Var *) VarList;

/* What a row's stored element looks like: y at elem, whose subscript `at` is the
 * loop's iterator, read back at other iterators of loops over the same range. */
typedef struct RowStore {
	Var *y;
	const Expr *elem;
	int at;
	const Stmt *loop; /* the loop that stores it */
	Var *row;         /* the local row the reads go to; NULL: there are none */
} RowStore;

/* Adds to *w each variable s (and what it nests) declares or assigns. */
static void writes_of(const Stmt *s, VarList *w)
{
	if (!s)
		return;
	if (s->kind == ST_DECL || s->kind == ST_FOR)
		vec_push(*w, s->var);
	else if (s->kind == ST_ASSIGN)
		vec_push(*w, s->lhs->var);
	for (int i = 0; i < s->nbody; i++)
		writes_of(s->body[i], w);
}

/* Whether s reads one of w. */
static bool reads_one_of(const Stmt *s, const VarList *w)
{
	for (int k = 0; k < w->n; k++)
		if (stmt_reads_var(s, w->v[k]))
			return true;
	return false;
}

/* Whether e reads a local of the row that `loop` does not declare (a result: m, l). */
static bool reads_result(const Expr *e, void *loop)
{
	if (!e)
		return false;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->kind == VAR_LOCAL && !stmt_declares(loop, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_result(e->args[i], loop))
			return true;
	return false;
}
static bool no_result(const Expr *e, void *loop) { return !reads_result(e, loop); }

/* Whether the locals of the row that e reads and `loop` does not declare are scalars
 * that `loop` does not assign: results of earlier loops (m of softmax's `e[c] = expf(x[c]
 * - m)`), final after the pass as they were at the loop. */
static bool earlier_results_only(const Expr *e, void *loop)
{
	if (!e)
		return true;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->kind == VAR_LOCAL && !stmt_declares(loop, e->var) &&
	    (e->kind == EX_INDEX || stmt_writes_var(loop, e->var)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!earlier_results_only(e->args[i], loop))
			return false;
	return true;
}

/* Whether every access to rs->y in e reads the row: elem's subscripts, but at `at` an
 * iterator among iters (loops over the storing loop's range). */
static bool row_reads_ok(const Expr *e, const RowStore *rs, const VarList *iters)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var == rs->y) {
		for (int a = 0; a < e->nargs; a++) {
			if (a != rs->at) {
				if (!expr_equal(e->args[a], rs->elem->args[a]))
					return false;
				continue;
			}
			bool it = false;
			for (int k = 0; k < iters->n; k++)
				it |= e->args[a]->kind == EX_VAR && e->args[a]->var == iters->v[k];
			if (!it)
				return false;
		}
	}
	for (int i = 0; i < e->nargs; i++)
		if (!row_reads_ok(e->args[i], rs, iters))
			return false;
	return true;
}

/* row_reads_ok for every expression of s, which must not store y. */
static bool stmt_row_reads_ok(const Stmt *s, const RowStore *rs, VarList *iters)
{
	if (!s)
		return true;
	if (s->kind == ST_ASSIGN && s->lhs->var == rs->y)
		return false;
	bool ok = row_reads_ok(s->lo, rs, iters) && row_reads_ok(s->hi, rs, iters) && row_reads_ok(s->rhs, rs, iters) && row_reads_ok(s->cond, rs, iters);
	for (int a = 0; ok && s->lhs && a < s->lhs->nargs; a++)
		ok = row_reads_ok(s->lhs->args[a], rs, iters);
	bool over = s->kind == ST_FOR && s->step == 1 && expr_equal(s->lo, rs->loop->lo) && expr_equal(s->hi, rs->loop->hi);
	if (over)
		vec_push(*iters, s->var);
	for (int i = 0; ok && i < s->nbody; i++)
		ok = stmt_row_reads_ok(s->body[i], rs, iters);
	if (over)
		iters->n--;
	return ok;
}

/* Whether s, a statement of loop's body, accumulates into a scalar of the row (`ent -= p
 * * x`, `m = fmaxf(m, s)`): a reduction of the pass. A conditional update (an argmax's)
 * is not: the fuser leaves such a loop after the pass, its stores as written. */
static bool reduces_row(const Stmt *s, const Stmt *loop)
{
	return s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR && !stmt_declares(loop, s->lhs->var) &&
	       (s->aop != AS_SET || expr_reads_var(s->rhs, s->lhs->var));
}

/* Whether s, a statement of loop's body, or a loop in it, accumulates into an element of a
 * local array of the row (P.V's `acc[d] += p * v[j][d]`): a reduction of the pass. */
static bool sums_into_row_array(const Stmt *s, const Stmt *loop)
{
	if (s->kind == ST_FOR || s->kind == ST_BLOCK) {
		for (int i = 0; i < s->nbody; i++)
			if (sums_into_row_array(s->body[i], loop))
				return true;
		return false;
	}
	return s->kind == ST_ASSIGN && s->lhs->kind == EX_INDEX && s->lhs->var->kind == VAR_LOCAL && !stmt_declares(loop, s->lhs->var) &&
	       (s->aop != AS_SET || expr_reads_var(s->rhs, s->lhs->var));
}

/* Whether s holds a loop over loop's range. */
static bool loops_over(const Stmt *s, const Stmt *loop)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR && expr_equal(s->lo, loop->lo) && expr_equal(s->hi, loop->hi))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (loops_over(s->body[i], loop))
			return true;
	return false;
}

/* The row that store s (`y[..][j][..] = e`) in `loop` writes: *rs, with `at` the subscript
 * that is loop's iterator; false unless one subscript is the iterator and the others
 * stay the same through the row (read neither the iterator nor a result). */
static bool row_store_of(Stmt *s, const Stmt *loop, RowStore *rs)
{
	*rs = (RowStore){s->lhs->var, s->lhs, -1, loop, NULL};
	bool plain = true;
	for (int a = 0; a < rs->elem->nargs; a++) {
		const Expr *x = rs->elem->args[a];
		if (x->kind == EX_VAR && x->var == loop->var && rs->at < 0)
			rs->at = a;
		else
			plain &= !expr_reads_var(x, loop->var) && no_result(x, (void *)loop);
	}
	return rs->at >= 0 && plain;
}

/* A fresh local row named after y (name_fmt: "%s_row"), of y's type, over loop's range. */
static Var *new_row(Cascade *c, const char *name_fmt, const Var *y, const Stmt *loop)
{
	Program *p = c->prog;
	Var *r = fresh_var(c, arena_printf(&p->arena, name_fmt, y->name), y->ty, VAR_LOCAL);
	r->ndim = 1;
	r->dims = arena_alloc(&p->arena, sizeof(Expr *));
	r->dims[0] = ex_copy(p, loop->hi);
	return r;
}

/* Whether t is a loop that fills the rest of y's row, its elements outside the storing
 * loop's range (llm.c zeroing the masked half, `for (u = t + 1; u < T; u++) att[u] = 0;`):
 * stores at elem's other subscripts, at `at` its iterator over a range that starts where
 * the storing loop's ends (or ends where it starts), reading no y. It touches none of the
 * elements the moved store writes, so it may run before it. */
static bool fills_rest(const Stmt *t, const RowStore *rs)
{
	if (t->kind != ST_FOR || t->step != 1 || stmt_reads_var(t, rs->y) ||
	    !(expr_equal(t->lo, rs->loop->hi) || expr_equal(t->hi, rs->loop->lo)))
		return false;
	int n;
	Stmt **b = body_list((Stmt *)t, &n);
	for (int q = 0; q < n; q++) {
		const Expr *e = b[q]->lhs;
		if (b[q]->kind != ST_ASSIGN || b[q]->aop != AS_SET || e->kind != EX_INDEX || e->var != rs->y)
			return false;
		for (int a = 0; a < e->nargs; a++)
			if (a == rs->at ? e->args[a]->kind != EX_VAR || e->args[a]->var != t->var : !expr_equal(e->args[a], rs->elem->args[a]))
				return false;
	}
	return true;
}

/* The reads of y's row as reads of the local row (an ExprMap; ctx: the RowStore). */
static Expr *to_local_row(Program *p, const Expr *e, void *ctx)
{
	const RowStore *rs = ctx;
	if (!e)
		return NULL;
	if (e->kind == EX_INDEX && e->var == rs->y) {
		Expr *x = ex_copy(p, e->args[rs->at]);
		return ex_index(p, rs->row, &x, e->loc);
	}
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < e->nargs; i++)
		c->args[i] = to_local_row(p, e->args[i], ctx);
	return c;
}

/* The statements of body[0..si] that the store body[si] needs (marked in need[]); false
 * if one also writes what the loop keeps beyond its step: a scalar of the row is allowed
 * only as a temporary, assigned before any read in the loop and read by nothing after it
 * in blk (*temps collects those). */
static bool store_slice(Stmt **body, int si, const Stmt *loop, const Stmt *blk, int li, bool *need, VarList *temps)
{
	need[si] = true;
	for (int q = si - 1; q >= 0; q--) {
		VarList w = {0};
		writes_of(body[q], &w);
		need[q] = false;
		for (int r = q + 1; r <= si && !need[q]; r++)
			need[q] = need[r] && reads_one_of(body[r], &w);
		for (int k = 0; need[q] && k < w.n; k++) {
			Var *v = w.v[k];
			if (stmt_declares(loop, v))
				continue;
			bool temp = v->kind == VAR_LOCAL && !v->ndim && body[q]->kind == ST_ASSIGN && body[q]->aop == AS_SET && body[q]->lhs->kind == EX_VAR;
			for (int r = 0; temp && r < q; r++)
				temp = !stmt_reads_var(body[r], v);
			for (int r = li + 1; temp && r < blk->nbody; r++)
				temp = !stmt_reads_var(blk->body[r], v);
			if (!temp) {
				vec_free(w);
				return false;
			}
			vec_push(*temps, v);
		}
		vec_free(w);
	}
	return true;
}

/* Copies of the statements of body[0..si] marked in need (a temporary's assignment
 * becomes its declaration), the loop's iterator `from` read as `to`, and each local they
 * declare renamed fresh: a block that computes body[si]'s store again. */
static Stmt *slice_block(Cascade *c, Stmt **body, int si, const bool *need, const VarList *temps, const Var *from, Var *to, Loc loc)
{
	Program *p = c->prog;
	StmtVec kept = {0};
	for (int q = 0; q <= si; q++)
		if (need[q]) {
			Stmt *s = body[q];
			bool temp = false;
			for (int k = 0; k < temps->n; k++)
				temp |= s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR && s->lhs->var == temps->v[k];
			vec_push(kept, temp ? st_decl(p, s->lhs->var, s->rhs, s->loc) : stmt_copy(p, s));
		}
	Stmt *blk = stmt_subst_var(p, st_block(p, kept.v, kept.n, loc), from, to);
	vec_free(kept);
	VarList decls = {0};
	writes_of(blk, &decls);
	for (int k = 0; k < decls.n; k++) {
		Var *v = decls.v[k];
		if (v->kind != VAR_LOCAL && v->kind != VAR_LOOP)
			continue;
		bool declared = false;
		for (int m = 0; m < k; m++)
			declared |= decls.v[m] == v;
		if (declared || !stmt_declares(blk, v))
			continue;
		Var *nv = fresh_var(c, v->name, v->ty, v->kind);
		const char *name = nv->name;
		*nv = *v;
		nv->name = name;
		blk = stmt_subst_var(p, blk, v, nv);
	}
	vec_free(decls);
	return blk;
}

/* A copy of `loop` holding the store body[si] and the statements it needs (slice_block);
 * its iterator keeps the name. */
static Stmt *store_copy(Cascade *c, const Stmt *loop, Stmt **body, int si, const bool *need, const VarList *temps)
{
	Program *p = c->prog;
	Var *j = NEW(&p->arena, Var);
	*j = *loop->var;
	return st_for(p, j, loop->lo, loop->hi, 1, slice_block(c, body, si, need, temps, loop->var, j, loop->loc), loop->loc);
}

/* Moves the store of blk->body[li] (a loop) to a copy of the loop after blk's last
 * statement, the later reads going to a local row, where that is valid; true if done.
 * blk->body[end..] are such copies already, which count as no later loop. *shift: how far
 * the statements after the loop moved (a local row declared before the loops, the loop
 * gone when it held the store alone). */
static bool forward_store(Cascade *c, Stmt *blk, int li, int end, VarList *rows, int *shift)
{
	*shift = 0;
	Program *p = c->prog;
	Stmt *l2 = blk->body[li];
	if (l2->kind != ST_FOR || l2->step != 1)
		return false;
	int n2;
	Stmt **b2 = body_list(l2, &n2);
	for (int si = 0; si < n2; si++) {
		Stmt *s = b2[si];
		if (s->kind != ST_ASSIGN || s->aop != AS_SET || s->lhs->kind != EX_INDEX || s->lhs->var->kind != VAR_PARAM || stmt_count_stores(l2, s->lhs->var) != 1)
			continue;
		RowStore rs;
		if (!row_store_of(s, l2, &rs))
			continue;
		/* y is stored nowhere else in the row but by loops filling the rest of it */
		int stores = stmt_count_stores(l2, rs.y);
		for (int r = 0; r < blk->nbody; r++)
			if (r != li)
				stores += r > li && fills_rest(blk->body[r], &rs) ? 0 : stmt_count_stores(blk->body[r], rs.y);
		if (stores != 1)
			continue;
		bool *need = calloc((size_t)n2, sizeof *need);
		VarList temps = {0};
		bool ok = store_slice(b2, si, l2, blk, li, need, &temps);
		/* only a value that reads a result of the row needs moving, or one computed by a
		 * product (scores saved for the backward, `preatt[..][j] = q.k`): the tile
		 * kernels store nothing from inside the pass, and computing q.k once more after
		 * it is what keeps them */
		bool result = false, product = false;
		for (int q = 0; ok && q <= si; q++) {
			result |= need[q] && !stmt_all_exprs(b2[q], no_result, l2);
			product |= need[q] && b2[q]->kind == ST_FOR;
		}
		ok &= result || product;
		/* and only where fusing would refuse it: a later loop over the range, or a
		 * reduction of the loop itself (the store in the pass, not after it) */
		bool pass = false;
		for (int q = 0; q < n2; q++)
			pass |= reduces_row(b2[q], l2) || sums_into_row_array(b2[q], l2);
		for (int r = li + 1; r < end; r++)
			pass |= loops_over(blk->body[r], l2);
		ok &= pass;
		/* nothing after the loop changes what the value reads */
		VarList w = {0};
		for (int r = li + 1; ok && r < blk->nbody; r++)
			writes_of(blk->body[r], &w);
		for (int q = 0; ok && q <= si; q++)
			ok = !need[q] || !reads_one_of(b2[q], &w);
		vec_free(w);
		/* every later access to y reads the row */
		VarList iters = {0};
		bool reads = false;
		for (int q = si + 1; ok && q < n2; q++) {
			vec_push(iters, l2->var);
			ok = stmt_row_reads_ok(b2[q], &rs, &iters);
			iters.n = 0;
			reads |= stmt_reads_var(b2[q], rs.y);
		}
		for (int r = li + 1; ok && r < blk->nbody; r++) {
			if (fills_rest(blk->body[r], &rs))
				continue;
			ok = stmt_row_reads_ok(blk->body[r], &rs, &iters);
			reads |= stmt_reads_var(blk->body[r], rs.y);
		}
		vec_free(iters);
		if (!ok) {
			free(need);
			vec_free(temps);
			continue;
		}
		Stmt *post = store_copy(c, l2, b2, si, need, &temps);
		free(need);
		vec_free(temps);
		StmtVec nb = {0};
		if (reads) {
			rs.row = new_row(c, "%s_row", rs.y, l2);
			vec_push(*rows, rs.row);
		}
		for (int r = 0; r < blk->nbody; r++) {
			Stmt *t = blk->body[r];
			if (r == li) {
				StmtVec lb = {0};
				for (int q = 0; q < n2; q++) {
					if (q == si && reads)
						vec_push(lb, st_assign(p, ex_index(p, rs.row, (Expr *[]){ex_var(p, l2->var, s->loc)}, s->loc), AS_SET, s->rhs, s->loc));
					else if (q != si)
						vec_push(lb, q > si && reads ? stmt_map_exprs(p, b2[q], to_local_row, &rs) : b2[q]);
				}
				Stmt *b = st_block(p, lb.v, lb.n, l2->body[0]->loc);
				bool empty = !lb.n;
				vec_free(lb);
				*shift = (reads ? 1 : 0) - (empty ? 1 : 0);
				if (empty)
					continue; /* the loop held the store alone */
				st_set_body(p, l2, &b, 1);
				t = l2;
			} else if (r > li && reads && !fills_rest(t, &rs)) {
				t = stmt_map_exprs(p, t, to_local_row, &rs);
			}
			vec_push(nb, t);
		}
		vec_push(nb, post);
		st_set_body(p, blk, nb.v, nb.n);
		vec_free(nb);
		if (reads)
			declare_row(p, blk, l2, rs.row);
		return true;
	}
	return false;
}


static bool stmts_read_product_row(Stmt **b, int n, const Stmt *blk, const Stmt *loop, const char *axis, int depth);

/* ---- one array holding two rows in turn ----
 *
 * HF's eager attention keeps the scores in the output it returns, then overwrites them
 * with the probabilities; a local row of scores is exponentiated in place:
 *
 *     for (j) { s = q.k[j]; w[j] = s; m = fmaxf(m, s); }
 *     for (j) l += expf(w[j] - m);
 *     for (j) w[j] = expf(w[j] - m) / l;
 *
 * The first row lives only until the overwrite, which covers every element of it. It goes
 * to a local row of its own (w_raw[j]), read by what reads it up to the overwrite's value,
 * so that each row has one defining loop, which forward_store and recompute_row follow. */

/* Whether lb overwrites the row that la stores (rs): a loop over the same range whose body
 * stores y once, unconditionally at its own element (statement *k of its body), and reads
 * y nowhere else. */
static bool overwrites_row(Program *p, Stmt *la, Stmt *lb, const RowStore *rs, int *k)
{
	if (lb->kind != ST_FOR || lb->step != 1 || !expr_equal(lb->lo, la->lo) || !expr_equal(lb->hi, la->hi) || stmt_count_stores(lb, rs->y) != 1)
		return false;
	Expr *elem = expr_subst_var(p, rs->elem, la->var, lb->var);
	int n;
	Stmt **b = body_list(lb, &n);
	*k = -1;
	for (int q = 0; q < n; q++) {
		Stmt *t = b[q];
		if (t->kind == ST_ASSIGN && t->lhs->var == rs->y) {
			if (!expr_equal(t->lhs, elem) || !expr_reads_only_elem(t->rhs, elem))
				return false;
			*k = q;
		} else if (!stmt_reads_only_elem(t, elem)) {
			return false;
		}
	}
	return *k >= 0;
}

/* Whether some loop of blk after blk->body[b], over the range of `loop`, reads y and stores
 * an output at its element (a loop that forward_store moves after the pass, where a row
 * overwritten in place is not followed). */
static bool read_by_store_loop(const Stmt *blk, int b, const Var *y, const Stmt *loop)
{
	for (int r = b + 1; r < blk->nbody; r++) {
		const Stmt *t = blk->body[r];
		if (t->kind != ST_FOR || !stmt_reads_var(t, y) || !expr_equal(t->lo, loop->lo) || !expr_equal(t->hi, loop->hi))
			continue;
		int n;
		Stmt **tb = body_list((Stmt *)t, &n);
		for (int q = 0; q < n; q++)
			if (tb[q]->kind == ST_ASSIGN && tb[q]->lhs->var->kind == VAR_PARAM && expr_reads_var(tb[q]->lhs, t->var))
				return true;
	}
	return false;
}

/* The row that blk->body[a] (a loop over axis) stores, when a later loop overwrites it
 * (overwrites_row; *b: that loop, *k: its store) and it may move to a local row: an output
 * row, or a local row that an output's loop reads after the overwrite; stored
 * unconditionally once, read before the overwrite only at loops over the range, touched
 * by nothing before its loop. rs->elem NULL when there is none. */
static RowStore overwritten_row(Cascade *c, Stmt *blk, int a, const char *axis, int *b, int *k)
{
	Program *p = c->prog;
	Stmt *la = blk->body[a];
	RowStore none = {0};
	int n;
	Stmt **body = body_list(la, &n);
	for (int si = 0; si < n; si++) {
		Stmt *s = body[si];
		if (s->kind != ST_ASSIGN || s->aop != AS_SET || s->lhs->kind != EX_INDEX || stmt_count_stores(la, s->lhs->var) != 1 || expr_reads_var(s->rhs, s->lhs->var))
			continue;
		Var *y = s->lhs->var;
		bool local = y->kind == VAR_LOCAL && y->ndim == 1;
		if (y->kind != VAR_PARAM && !local)
			continue;
		RowStore rs;
		bool ok = row_store_of(s, la, &rs);
		for (int q = 0; ok && q < si; q++)
			ok = !touches(body[q], y);
		for (int r = 0; ok && r < a; r++)
			ok = !touches(blk->body[r], y) || (local && blk->body[r]->kind == ST_DECL && blk->body[r]->var == y);
		VarList iters = {0};
		for (int q = si + 1; ok && q < n; q++) {
			vec_push(iters, la->var);
			ok = stmt_row_reads_ok(body[q], &rs, &iters);
			iters.n = 0;
		}
		for (*b = a + 1; ok && *b < blk->nbody; ++*b) {
			if (overwrites_row(p, la, blk->body[*b], &rs, k))
				break;
			ok = stmt_row_reads_ok(blk->body[*b], &rs, &iters);
		}
		vec_free(iters);
		/* only a row of products, or of values of such a row, gains: the store passes
		 * compute those again after the pass (a copy of the input stays as written) */
		bool product = stmts_read_product_row(body, si + 1, blk, la, axis, 0);
		for (int q = 0; q < si; q++)
			product |= body[q]->kind == ST_FOR;
		if (ok && product && *b < blk->nbody && (!local || read_by_store_loop(blk, *b, y, la)))
			return rs;
	}
	return none;
}

/* Moves each row that a later loop overwrites to a local row of its own (see above). */
static void version_rows(Cascade *c, Stmt *blk, const char *axis)
{
	Program *p = c->prog;
	for (int a = 0; a < blk->nbody; a++) {
		Stmt *la = blk->body[a];
		if (la->kind != ST_FOR || la->step != 1 || strcmp(la->var->name, axis))
			continue;
		int b = 0, k = -1;
		RowStore rs = overwritten_row(c, blk, a, axis, &b, &k);
		if (!rs.elem)
			continue;
		Var *y = rs.y;
		rs.row = new_row(c, "%s_raw", y, la);
		/* the storing loop, and what runs up to the overwrite's value, see the local row */
		int n;
		Stmt **body = body_list(la, &n);
		StmtVec nb = {0};
		for (int q = 0; q < n; q++)
			vec_push(nb, stmt_map_exprs(p, body[q], to_local_row, &rs));
		Stmt *nbody = st_block(p, nb.v, nb.n, la->body[0]->loc);
		st_set_body(p, la, &nbody, 1);
		nb.n = 0;
		for (int r = a + 1; r < b; r++)
			blk->body[r] = stmt_map_exprs(p, blk->body[r], to_local_row, &rs);
		Stmt *lb = blk->body[b];
		body = body_list(lb, &n);
		for (int q = 0; q < n; q++) {
			Stmt *t = body[q];
			if (q < k) {
				t = stmt_map_exprs(p, t, to_local_row, &rs);
			} else if (q == k) {
				Expr *v = t->rhs;
				if (t->aop != AS_SET)
					v = ex_bin(p, assignop_binop(t->aop), ex_copy(p, t->lhs), v, t->loc);
				t = st_assign(p, ex_copy(p, t->lhs), AS_SET, to_local_row(p, v, &rs), t->loc);
			}
			vec_push(nb, t);
		}
		nbody = st_block(p, nb.v, nb.n, lb->body[0]->loc);
		st_set_body(p, lb, &nbody, 1);
		vec_free(nb);
		declare_row(p, blk, la, rs.row);
		a++;
	}
}

/* ---- a row of scores read after the pass ----
 *
 * Scores kept in a local row, s[j] = q.k[j] * scale, read by a loop after the sums (the
 * probabilities stored, P[i][j] = expf(s[j] - m) / l): fused, s would have to hold the
 * whole row until the pass ends (a run-time size where the tiles hold one step). Such a
 * loop computes s[j] again instead, from what the defining loop computed it from. Only
 * for products (a loop in the definition): a row of cheap values stays as written. */

/* The loop of blk over `axis` that defines row s (its one store, s[j] = value at
 * body[*si]), or -1. */
static int row_def(Stmt *blk, Var *s, const char *axis, int *si)
{
	if (stmt_count_stores(blk, s) != 1)
		return -1;
	for (int r = 0; r < blk->nbody; r++) {
		Stmt *l = blk->body[r];
		if (l->kind != ST_FOR || l->step != 1 || strcmp(l->var->name, axis) || !stmt_count_stores(l, s))
			continue;
		int n;
		Stmt **b = body_list(l, &n);
		for (int q = 0; q < n; q++)
			if (b[q]->kind == ST_ASSIGN && b[q]->aop == AS_SET && b[q]->lhs->var == s && b[q]->lhs->kind == EX_INDEX &&
			    b[q]->lhs->args[0]->kind == EX_VAR && b[q]->lhs->args[0]->var == l->var) {
				*si = q;
				return r;
			}
		return -1;
	}
	return -1;
}

/* Whether s (or what it nests) assigns a variable of the row that `scope` does not
 * declare: a reduction (l += ...), where a store to a parameter array is not. */
static bool accumulates(const Stmt *s, const Stmt *scope)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->var->kind != VAR_PARAM && !stmt_declares(scope, s->lhs->var))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (accumulates(s->body[i], scope))
			return true;
	return false;
}

/* Whether blk->body[r], a loop over loop's range, runs after the pass: it reduces
 * nothing, and no statement after it holds a loop over the range (a level, P.V d-outer
 * included, or another loop after the pass: then only the last is); blk->body[end..]
 * are forward_store's copies, which count as none. */
static bool after_pass(const Stmt *blk, int r, const Stmt *loop, int end)
{
	if (accumulates(blk->body[r], blk->body[r]))
		return false;
	for (int q = r + 1; q < end; q++)
		if (loops_over(blk->body[q], loop))
			return false;
	return true;
}

/* Whether e reads, at the iterator of `loop`, a local row that a loop of blk over the
 * axis defines with a product, or with values of such a row (the scores that a row of
 * probabilities is computed from, through exponentials kept in a row of their own):
 * what the defining loop computes up to the row's store; depth bounds the chain. */
static bool reads_product_row(const Expr *e, const Stmt *blk, const Stmt *loop, const char *axis, int depth)
{
	if (!e || depth > 8)
		return false;
	if (e->kind == EX_INDEX && e->var->kind == VAR_LOCAL && e->nargs == 1 && e->args[0]->kind == EX_VAR && e->args[0]->var == loop->var) {
		int si, li = row_def((Stmt *)blk, e->var, axis, &si);
		int n;
		Stmt **b = li >= 0 ? body_list(blk->body[li], &n) : NULL;
		for (int q = 0; b && q < si; q++)
			if (b[q]->kind == ST_FOR)
				return true;
		if (b && stmts_read_product_row(b, si + 1, blk, blk->body[li], axis, depth + 1))
			return true;
	}
	for (int i = 0; i < e->nargs; i++)
		if (reads_product_row(e->args[i], blk, loop, axis, depth))
			return true;
	return false;
}

/* reads_product_row for the values that statements b[0..n) compute (not their loops). */
static bool stmts_read_product_row(Stmt **b, int n, const Stmt *blk, const Stmt *loop, const char *axis, int depth)
{
	for (int q = 0; q < n; q++)
		if ((b[q]->kind == ST_ASSIGN || b[q]->kind == ST_DECL) && reads_product_row(b[q]->rhs, blk, loop, axis, depth))
			return true;
	return false;
}

/* Computes row s (declared by blk->body[di]) again in each loop after the pass that
 * reads it, where valid: a row of products (or of values of such a row: recomputed in
 * turn), or one forward_store made (any value: the output it stands for was stored from
 * the pass's results, and is read after it); true if a loop changed. */
static bool recompute_row(Cascade *c, Stmt *blk, int di, const char *axis, const VarList *rows, int end)
{
	Program *p = c->prog;
	Var *s = blk->body[di]->var;
	int si, li = row_def(blk, s, axis, &si);
	if (li < 0)
		return false;
	Stmt *l1 = blk->body[li];
	int n1;
	Stmt **b1 = body_list(l1, &n1);
	bool *need = calloc((size_t)n1, sizeof *need);
	VarList temps = {0}, w = {0};
	bool ok = store_slice(b1, si, l1, blk, li, need, &temps), product = false, made = false, changed = false;
	for (int k = 0; k < rows->n; k++)
		made |= rows->v[k] == s;
	/* the value may read results of earlier loops (they are final after the pass as they
	 * were at its loop), not what its own loop accumulates; a row of products reads
	 * none but a row of products' elements */
	bool chained = ok && !made && stmts_read_product_row(b1, si + 1, blk, l1, axis, 0), earlier = false;
	for (int q = 0; ok && q <= si; q++) {
		bool plain = q == si ? no_result(b1[q]->rhs, l1) : stmt_all_exprs(b1[q], no_result, l1);
		bool before = q == si ? earlier_results_only(b1[q]->rhs, l1) : stmt_all_exprs(b1[q], earlier_results_only, l1);
		ok = !need[q] || made || chained || plain || before;
		earlier |= need[q] && !plain && !made && !chained;
		product |= need[q] && b1[q]->kind == ST_FOR;
	}
	/* A row of values of earlier results (e[c] = expf(x[c] - m), the exponentials kept
	 * for the normalisation) is computed again after the pass as a row of products is:
	 * kept, it would hold the pass's partial m. */
	product |= chained || earlier;
	for (int q = 0; ok && (made || chained || earlier) && q < n1; q++)
		if (!need[q])
			writes_of(b1[q], &w);
	for (int r = li + 1; ok && r < blk->nbody; r++)
		writes_of(blk->body[r], &w);
	for (int q = 0; ok && q <= si; q++)
		ok = !need[q] || !reads_one_of(b1[q], &w);
	vec_free(w);
	product |= made;
	for (int r = li + 1; ok && product && r < blk->nbody; r++) {
		Stmt *l3 = blk->body[r];
		if (l3->kind != ST_FOR || l3->step != 1 || strcmp(l3->var->name, axis) || !expr_equal(l3->lo, l1->lo) ||
		    !expr_equal(l3->hi, l1->hi) || !stmt_reads_var(l3, s) || !after_pass(blk, r, l1, r < end ? end : blk->nbody))
			continue;
		Stmt *def = slice_block(c, b1, si, need, &temps, l1->var, l3->var, l3->loc);
		Stmt *st = def->body[def->nbody - 1];
		Var *sv = fresh_var(c, s->name, s->ty, VAR_LOCAL);
		def->body[def->nbody - 1] = st_decl(p, sv, st->rhs, st->loc);
		Expr *x = ex_var(p, l3->var, l3->loc);
		const Expr *pair[2] = {ex_index(p, s, &x, l3->loc), ex_var(p, sv, l3->loc)};
		Stmt *nl = stmt_map_exprs(p, l3, expr_subst_equal_map, pair);
		if (stmt_reads_var(nl, s))
			continue; /* read at another element too: left as written */
		int n3;
		Stmt **b3 = body_list(nl, &n3);
		StmtVec nb = {0};
		for (int q = 0; q < def->nbody; q++)
			vec_push(nb, def->body[q]);
		for (int q = 0; q < n3; q++)
			vec_push(nb, b3[q]);
		Stmt *b = st_block(p, nb.v, nb.n, l3->loc);
		vec_free(nb);
		st_set_body(p, nl, &b, 1);
		blk->body[r] = nl;
		changed = true;
	}
	free(need);
	vec_free(temps);
	return changed;
}

void fuse_store_rows(Cascade *c, Stmt *s, const char *axis)
{
	if (!s || !axis)
		return;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			fuse_store_rows(c, s->body[i], axis);
	if (s->kind != ST_BLOCK)
		return;
	version_rows(c, s, axis);
	/* the copies go after the row's statements; they are not looked at again, nor
	 * counted as later loops (a loop stored after them would move back and forth) */
	VarList rows = {0};
	int end = s->nbody, shift;
	for (int i = 0; i < end; i++)
		if (s->body[i]->kind == ST_FOR && !strcmp(s->body[i]->var->name, axis) && forward_store(c, s, i, end, &rows, &shift)) {
			i += shift; /* on after the loop */
			end += shift;
		}
	/* until none changes: a row computed again from another row reads that one after
	 * the pass in turn (rows read earlier rows; the bound stops a cycle of them) */
	for (int round = 0, changed = true; changed && round < 8; round++) {
		changed = false;
		for (int i = 0; i < s->nbody; i++)
			if (s->body[i]->kind == ST_DECL && s->body[i]->var->kind == VAR_LOCAL && s->body[i]->var->ndim == 1)
				changed |= recompute_row(c, s, i, axis, &rows, end);
	}
	vec_free(rows);
}
