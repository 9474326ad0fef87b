/* scratch.c: whether a local is scratch private to a loop (see loop_private in ir.h):
 * decided on the statements' text, for the front end (locals declared before a region)
 * and the fuser (locals declared between the loops of a nest). */
#include "ir.h"

/* What the statements of one iteration have written so far of a scratch local: a scalar
 * set, or, for an array, the loops that wrote its element at their iterator on every step
 * (covers: their ranges are written in full). */
typedef struct Written {
	bool scalar;
	VEC(const Stmt *) covers;
} Written;

/* Whether a <= b for sure: equal, or literals in order. */
static bool not_above(const Expr *a, const Expr *b)
{
	return expr_equal(a, b) || (a->kind == EX_INT && b->kind == EX_INT && a->ival <= b->ival);
}

/* Whether loop l iterates over (part of) the range of a loop that wrote every element
 * there: the same end, a start at or after its start (a max from the second element). */
static bool range_written(const Written *w, const Stmt *l)
{
	for (int i = 0; i < w->covers.n; i++)
		if (not_above(w->covers.v[i]->lo, l->lo) && expr_equal(w->covers.v[i]->hi, l->hi))
			return true;
	return false;
}

/* Whether element x (a literal) is in the range of a loop that wrote it: at or after the
 * start (an element past the end the original does not write either: reading it there is
 * the original's own undefined read). */
static bool element_written(const Written *w, const Expr *x)
{
	for (int i = 0; i < w->covers.n; i++)
		if (not_above(w->covers.v[i]->lo, x) && (w->covers.v[i]->hi->kind != EX_INT || x->ival < w->covers.v[i]->hi->ival))
			return true;
	return false;
}

/* Whether every read of v in e sees a value this iteration wrote: v set (a scalar), or
 * v[x] with x the iterator of a loop of `loops` (those around e, inside the iteration)
 * over a written range, or x == own (the element the enclosing step has just written). */
static bool reads_written(const Expr *e, const Var *v, const Written *w, const StmtVec *loops, const Var *own)
{
	if (!e)
		return true;
	if (e->kind == EX_VAR && e->var == v)
		return w->scalar;
	if (e->kind == EX_INDEX && e->var == v) {
		const Expr *x = e->args[0];
		if (v->ndim == 1 && x->kind == EX_INT && element_written(w, x))
			return true;
		if (v->ndim != 1 || x->kind != EX_VAR)
			return false;
		bool ok = x->var == own;
		for (int i = 0; !ok && i < loops->n; i++)
			ok = loops->v[i]->var == x->var && range_written(w, loops->v[i]);
		if (!ok)
			return false;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!reads_written(e->args[i], v, w, loops, own))
			return false;
	return true;
}

/* reads_written for every read of v in s (a compound assignment reads its target). */
static bool stmt_reads_written(Stmt *s, const Var *v, const Written *w, StmtVec *loops, const Var *own)
{
	if (!s)
		return true;
	if (!reads_written(s->lo, v, w, loops, own) || !reads_written(s->hi, v, w, loops, own) ||
	    !reads_written(s->cond, v, w, loops, own) || !reads_written(s->rhs, v, w, loops, own))
		return false;
	if (s->lhs) {
		if (s->aop != AS_SET && !reads_written(s->lhs, v, w, loops, own))
			return false;
		for (int i = 0; i < s->lhs->nargs; i++)
			if (!reads_written(s->lhs->args[i], v, w, loops, own))
				return false;
	}
	if (s->kind == ST_FOR)
		vec_push(*loops, s);
	bool ok = true;
	for (int i = 0; ok && i < s->nbody; i++)
		ok = stmt_reads_written(s->body[i], v, w, loops, own);
	if (s->kind == ST_FOR)
		loops->n--;
	return ok;
}

/* Whether e reads a variable that s writes. */
static bool reads_written_by(const Expr *e, const Stmt *s)
{
	if (!e)
		return false;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && stmt_writes_var(s, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_written_by(e->args[i], s))
			return true;
	return false;
}

/* One statement t of the iteration, in order: its reads of v must see what the iteration
 * wrote before; then what it writes in full joins w. t writes v in full when it is `v =
 * e` (a scalar), or a loop whose body sets v[j] at its iterator j, not under a condition:
 * the statements of the body after that one may read v[j]. A range whose bounds read what
 * t writes is forgotten first (the next loop over the same text may run elsewhere). */
static bool step_writes_before_reads(Stmt *t, const Var *v, Written *w, StmtVec *loops)
{
	for (int i = 0; i < w->covers.n; i++)
		if (reads_written_by(w->covers.v[i]->lo, t) || reads_written_by(w->covers.v[i]->hi, t))
			w->covers.v[i--] = w->covers.v[--w->covers.n];
	if (t->kind == ST_ASSIGN && t->aop == AS_SET && t->lhs->kind == EX_VAR && t->lhs->var == v) {
		if (!stmt_reads_written(t, v, w, loops, NULL))
			return false;
		w->scalar = true;
		return true;
	}
	Stmt *const *bb = t->kind == ST_FOR ? (t->body[0]->kind == ST_BLOCK ? t->body[0]->body : t->body) : NULL;
	int nb = t->kind == ST_FOR ? (t->body[0]->kind == ST_BLOCK ? t->body[0]->nbody : 1) : 0, set = 0;
	for (; set < nb; set++) {
		const Stmt *a = bb[set];
		if (a->kind == ST_ASSIGN && a->aop == AS_SET && a->lhs->kind == EX_INDEX && a->lhs->var == v && v->ndim == 1 &&
		    a->lhs->args[0]->kind == EX_VAR && a->lhs->args[0]->var == t->var)
			break;
	}
	if (set == nb)
		return stmt_reads_written(t, v, w, loops, NULL);
	if (!reads_written(t->lo, v, w, loops, NULL) || !reads_written(t->hi, v, w, loops, NULL))
		return false;
	vec_push(*loops, t);
	bool ok = true;
	for (int i = 0; ok && i < nb; i++)
		ok = stmt_reads_written(bb[i], v, w, loops, i > set ? t->var : NULL);
	loops->n--;
	if (ok)
		vec_push(w->covers, t);
	return ok;
}

/* Whether local v (declared before loop l, used only in it) is private to l: every
 * iteration writes each scalar or element it reads before reading it, so that no
 * iteration sees a value from an earlier one and a declaration in l's body is the same
 * program. Decided on the text: writes under a condition or at other subscripts than a
 * loop's iterator write nothing in full. A loop whose body is one loop (`for (h) for (i)`)
 * runs iterations of that loop: private to it, private to l. */
bool loop_private(const Stmt *l, const Var *v)
{
	if (expr_reads_var(l->lo, v) || expr_reads_var(l->hi, v))
		return false;
	const Stmt *only = l->body[0];
	while (only->kind == ST_BLOCK && only->nbody == 1)
		only = only->body[0];
	if (only->kind == ST_FOR)
		return loop_private(only, v);
	Stmt *const *body = l->body[0]->kind == ST_BLOCK ? l->body[0]->body : l->body;
	int n = l->body[0]->kind == ST_BLOCK ? l->body[0]->nbody : 1;
	Written w = {0};
	StmtVec loops = {0};
	bool ok = true;
	for (int i = 0; ok && i < n; i++)
		ok = step_writes_before_reads(body[i], v, &w, &loops);
	vec_free(w.covers);
	vec_free(loops);
	return ok;
}


/* Whether every read of scalar v in s sees a write of v made before it in the same
 * iteration of every loop around it inside s: *set says whether v is written on entry,
 * and on return whether it is on every path through s. A write under a condition counts
 * inside its branch (and after the if when both branches write); a loop's body starts
 * from what held before the loop, and a loop may run no iteration. */
static bool set_before_read(const Stmt *s, const Var *v, bool *set)
{
	if (!s)
		return true;
	switch (s->kind) {
	case ST_BLOCK:
		for (int i = 0; i < s->nbody; i++)
			if (!set_before_read(s->body[i], v, set))
				return false;
		return true;
	case ST_FOR: {
		if (!*set && (expr_reads_var(s->lo, v) || expr_reads_var(s->hi, v)))
			return false;
		bool in = *set;
		return set_before_read(s->body[0], v, &in);
	}
	case ST_IF: {
		if (!*set && expr_reads_var(s->cond, v))
			return false;
		bool a = *set, b = *set;
		if (!set_before_read(s->body[0], v, &a) || (s->nbody > 1 && !set_before_read(s->body[1], v, &b)))
			return false;
		*set = a && b;
		return true;
	}
	case ST_DECL:
		return *set || !expr_reads_var(s->rhs, v);
	case ST_ASSIGN:
		if (!*set && (stmt_reads_var(s, v)))
			return false;
		if (s->lhs->kind == EX_VAR && s->lhs->var == v)
			*set = true;
		return true;
	}
	return false;
}

bool loop_sets_first(const Stmt *l, const Var *v)
{
	bool set = false;
	return set_before_read(l, v, &set);
}
