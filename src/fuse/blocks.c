/* blocks.c: an online softmax by blocks of keys, read one key at a time.
 *
 * A Triton kernel ported to C keeps its key blocks: a loop `for (start_n = 0; start_n < hi;
 * start_n += BLOCK_N)` (the front end reads it as a block count, start_n -> start_n * BLOCK_N)
 * whose body holds loops over the block's keys `for (n = 0; n < BLOCK_N; n++)` (or `for (c =
 * c0; c < min(c0 + CHUNK, V); c++)`) taking the block's max and sums, and statements once per
 * block that rescale the running sums to the new max:
 *
 *     m_ij = m_i; for (n) { qk[n] = score(start_n + n); m_ij = fmaxf(m_ij, qk[n]); }
 *     l_ij = 0;   for (n) { qk[n] = expf(qk[n] - m_ij); l_ij += qk[n]; }
 *     alpha = expf(m_i - m_ij); l_i = l_i * alpha + l_ij;
 *     for (d) { acc[d] *= alpha; for (n) acc[d] += qk[n] * v[start_n + n][d]; }
 *     m_i = m_ij;
 *
 * Each block is one step of an online softmax over a set of keys: the block's own
 * reductions (m_ij, l_ij, the acc[d] sums) are maxima and sums over its keys of values of
 * one key each, and the running values are rescaled once per block. When the rescales hold
 * (F(r, r') * G(r) == G(r'), which online.c checks before it changes anything), the result
 * is the same for any grouping of the keys into steps, one key per step included. So the
 * block loop is rewritten as the same loop with blocks of one key: a loop over the keys t
 * the blocks enumerate (start_n -> t / BLOCK_N, n -> t % BLOCK_N, so start_n * BLOCK_N + n
 * is t), each block loop's body in order, the block arrays (qk[n]) scalars, the block's
 * reductions over one key their one value (`float m_ij = fmaxf(m_i, s);`). That is the
 * per-key online softmax online.c undoes into passes.
 *
 * What is checked here, so that the blocks' grouping is all that changes: the loops over
 * the block's keys write only their own locals, the block arrays at their own key, and
 * reductions (into block locals, or into running values that are then not read in the
 * loop); the block's sums start at zero and are read only where a running value adds them;
 * the running values are updated once per block only by a rescale, the addition of a block
 * sum, or taking a block local (the new max). Anything else leaves the loop as written. */
#include "fuse.h"

#include <math.h>
#include <string.h>

typedef VEC(Var *) VarList;

typedef struct Blocks {
	Program *p;
	const Stmt *loop;
	Var *b;       /* the block loop's iterator, counting blocks */
	long B;       /* keys per block */
	int shape;    /* 0 unknown, 1: `for (n = 0; n < B; n++)`, 2: `for (c = b * B; c < H; c++)` */
	Expr *ehi;    /* shape 2: H, the key loops' bound as written */
	Expr *end;    /* shape 2: X in H = min(b * B + B, X) */
	VarList arrays, scalars; /* block arrays qk[B] and the scalars they become */
	VarList bl;              /* the block's scalar locals */
	VEC(Expr *) blinit;      /* their initialisers (NULL: none) */
	VarList maxrv;           /* running values set from a block local once per block (the max) */
	VarList rv;              /* running values: declared outside, written inside */
	VarList red;             /* block locals a key loop reduces */
	VEC(Reducer) reds;       /* their reducers */
	VEC(const Stmt *) redloop; /* and the key loop that does */
	const char *why;
} Blocks;

static bool in_list(const VarList *l, const Var *v)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

static bool is_int(const Expr *e, long v) { return e && e->kind == EX_INT && e->ival == v; }

/* `b * B`, the first key of block b. */
static bool is_block_start(const Blocks *k, const Expr *e)
{
	return e->kind == EX_BIN && e->bop == OP_MUL && e->args[0]->kind == EX_VAR && e->args[0]->var == k->b && is_int(e->args[1], k->B);
}

static bool reads_array_off(const Blocks *k, const Expr *e, const Var *v);

/* The terms of e's + tree (through casts), at most 16. */
static void add_terms(const Expr *e, const Expr **t, int *n)
{
	while (e->kind == EX_CAST)
		e = e->args[0];
	if (e->kind == EX_BIN && e->bop == OP_ADD && *n < 15) {
		add_terms(e->args[0], t, n);
		add_terms(e->args[1], t, n);
	} else if (*n < 16) {
		t[(*n)++] = e;
	}
}

/* Whether e holds `b * B + n` (n the variable v), the key of a block's element, or a block
 * array's element qk[n]. */
static bool holds_key(const Blocks *k, const Expr *e, const Var *v)
{
	if (!e)
		return false;
	if (e->kind == EX_INDEX && e->nargs == 1 && expr_uncast(e->args[0])->kind == EX_VAR && expr_uncast(e->args[0])->var == v && in_list(&k->arrays, e->var))
		return true;
	if (e->kind == EX_BIN && e->bop == OP_ADD) {
		/* the terms of the sum, `lo + b * B + n` with a block loop from lo */
		const Expr *t[16];
		int nt = 0;
		add_terms(e, t, &nt);
		bool start = false, key = false;
		for (int i = 0; i < nt; i++) {
			const Expr *x = expr_uncast((Expr *)t[i]);
			start |= is_block_start(k, x);
			key |= x->kind == EX_VAR && x->var == v;
		}
		if (start && key)
			return true;
	}
	for (int i = 0; i < e->nargs; i++)
		if (holds_key(k, e->args[i], v))
			return true;
	return false;
}

static bool stmt_holds_key(const Blocks *k, const Stmt *s, const Var *v)
{
	if (!s)
		return false;
	if (holds_key(k, s->lo, v) || holds_key(k, s->hi, v) || holds_key(k, s->lhs, v) || holds_key(k, s->rhs, v) || holds_key(k, s->cond, v))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_holds_key(k, s->body[i], v))
			return true;
	return false;
}

/* Whether loop s runs over the keys of the current block (and records its shape): `for (n
 * = 0; n < B; n++)` whose body reads the key `b * B + n` or a block array at n, or `for (c = b * B; c < H; c++)`. */
static bool is_key_loop(Blocks *k, const Stmt *s)
{
	if (s->kind != ST_FOR || s->step != 1)
		return false;
	if (is_int(s->lo, 0) && is_int(s->hi, k->B) && k->shape != 2 && stmt_holds_key(k, s->body[0], s->var)) {
		k->shape = 1;
		return true;
	}
	if (is_block_start(k, s->lo) && k->shape != 1 && (!k->ehi || expr_equal(k->ehi, s->hi))) {
		k->shape = 2;
		k->ehi = s->hi;
		return true;
	}
	return false;
}

/* Whether s (of the block loop's body) holds a loop over the block's keys. */
static bool holds_key_loop(Blocks *k, const Stmt *s)
{
	if (!s)
		return false;
	if (is_key_loop(k, s))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (holds_key_loop(k, s->body[i]))
			return true;
	return false;
}

static void fail(Blocks *k, Loc l, const char *why)
{
	if (!k->why)
		k->why = arena_printf(&k->p->arena, "line %d: %s", l.line, why);
}

static int red_index(const Blocks *k, const Var *v)
{
	for (int i = 0; i < k->red.n; i++)
		if (k->red.v[i] == v)
			return i;
	return -1;
}

/* Whether e reads a running value, or a block reduction that `self` makes or that is a sum. */
static const Var *bad_read(const Blocks *k, const Expr *e, const Stmt *self)
{
	if (!e)
		return NULL;
	if (e->kind == EX_VAR || e->kind == EX_INDEX) {
		if (in_list(&k->rv, e->var))
			return e->var;
		int r = red_index(k, e->var);
		if (r >= 0 && (k->redloop.v[r] == self || k->reds.v[r] == RED_ADD))
			return e->var;
	}
	for (int i = 0; i < e->nargs; i++) {
		const Var *v = bad_read(k, e->args[i], self);
		if (v)
			return v;
	}
	return NULL;
}

/* Checks statement s of key loop E (its reductions recorded first, by collect). */
static void check_key_stmt(Blocks *k, const Stmt *E, const Stmt *s)
{
	if (!s || k->why)
		return;
	Program *p = k->p;
	Expr *t, *g;
	Reducer red;
	if ((s->kind == ST_IF && s->nbody == 1) || s->kind == ST_ASSIGN) {
		if (reduce_match(p, (Stmt *)s, &t, &red, &g) && !stmt_declares(E->body[0], t->var) && !in_list(&k->arrays, t->var)) {
			/* a reduction into a block local or a running value: g reads neither */
			for (int i = 0; i < t->nargs; i++)
				if (expr_reads_var(t->args[i], E->var))
					fail(k, s->loc, "a key loop reduces into a row that moves with the key");
			const Var *v = bad_read(k, g, E);
			if (v)
				fail(k, s->loc, arena_printf(&p->arena, "a key loop reads '%s' where it reduces", v->name));
			if (reads_array_off(k, g, E->var))
				fail(k, s->loc, "a block array is read at another element than the loop's key");
			return;
		}
	}
	if (s->kind == ST_ASSIGN) {
		Var *v = s->lhs->var;
		if (in_list(&k->arrays, v)) {
			if (s->lhs->nargs != 1 || s->lhs->args[0]->kind != EX_VAR || s->lhs->args[0]->var != E->var)
				fail(k, s->loc, "a block array is written at another element than the loop's key");
		} else if (!stmt_declares(E->body[0], v)) {
			fail(k, s->loc, arena_printf(&p->arena, "a key loop writes '%s', which is neither its own nor a reduction", v->name));
		}
		for (int i = 0; i < s->lhs->nargs; i++)
			if (bad_read(k, s->lhs->args[i], E))
				fail(k, s->loc, "a key loop reads a running value");
	}
	const Expr *es[4] = {s->rhs, s->cond, s->lo, s->hi};
	for (int i = 0; i < 4; i++)
		if (reads_array_off(k, es[i], E->var))
			fail(k, s->loc, "a block array is read at another element than the loop's key");
	for (int i = 0; i < 4; i++) {
		const Var *v = bad_read(k, es[i], E);
		if (v)
			fail(k, s->loc, arena_printf(&p->arena, "a key loop reads '%s', a running value or a block reduction not complete there", v->name));
	}
	for (int i = 0; i < s->nbody; i++)
		check_key_stmt(k, E, s->body[i]);
}

/* Records the block locals key loop E reduces into (reductions whose target is declared in
 * the block's body, outside E). */
static void collect_reductions(Blocks *k, const Stmt *E, const Stmt *s)
{
	if (!s)
		return;
	Expr *t, *g;
	Reducer red;
	if (((s->kind == ST_IF && s->nbody == 1) || s->kind == ST_ASSIGN) && reduce_match(k->p, (Stmt *)s, &t, &red, &g) && t->kind == EX_VAR &&
	    in_list(&k->bl, t->var)) {
		int r = red_index(k, t->var);
		if (r >= 0 && (k->redloop.v[r] != E || k->reds.v[r] != red))
			fail(k, s->loc, arena_printf(&k->p->arena, "'%s' is reduced in two ways or two loops", t->var->name));
		if (r < 0) {
			vec_push(k->red, t->var);
			vec_push(k->reds, red);
			vec_push(k->redloop, E);
		}
		return;
	}
	for (int i = 0; i < s->nbody; i++)
		collect_reductions(k, E, s->body[i]);
}

/* `t * F` or `F * t` with t the lvalue lhs: F, or NULL. */
static Expr *factor_of(Expr *e, const Expr *lhs)
{
	e = expr_uncast(e);
	if (e->kind != EX_BIN || e->bop != OP_MUL)
		return NULL;
	for (int i = 0; i < 2; i++)
		if (same_lvalue(expr_uncast(e->args[i]), lhs) && !expr_reads_var(e->args[1 - i], lhs->var))
			return e->args[1 - i];
	return NULL;
}

/* Whether s, outside the key loops, rescales a running value: `R *= F`, `R = R * F (+ ..)`. */
static bool has_rescale(Blocks *k, const Stmt *s)
{
	if (!s || is_key_loop(k, s))
		return false;
	if (s->kind == ST_ASSIGN && in_list(&k->rv, s->lhs->var)) {
		Expr *r = expr_uncast(s->rhs);
		if (s->aop == AS_MUL || s->aop == AS_DIV || (s->aop == AS_SET && factor_of(r, s->lhs)))
			return true;
		const Expr *t[16];
		int nt = 0;
		add_terms(r, t, &nt);
		for (int i = 0; s->aop == AS_SET && nt > 1 && i < nt; i++)
			if (factor_of((Expr *)t[i], s->lhs))
				return true;
	}
	for (int i = 0; i < s->nbody; i++)
		if (has_rescale(k, s->body[i]))
			return true;
	return false;
}

/* Whether e is a block sum (a block local a key loop adds to), through casts. */
static bool is_block_sum(const Blocks *k, Expr *e)
{
	e = expr_uncast(e);
	int r = e->kind == EX_VAR ? red_index(k, e->var) : -1;
	return r >= 0 && k->reds.v[r] == RED_ADD;
}

/* Whether e reads a block sum. */
static bool reads_block_sum(const Blocks *k, const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR && is_block_sum(k, (Expr *)e))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_block_sum(k, e->args[i]))
			return true;
	return false;
}

/* A running value other than a max that e reads, or NULL: a step's block-level values are
 * functions of the old and new max only. */
static const Var *reads_running(const Blocks *k, const Expr *e)
{
	if (!e)
		return NULL;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && in_list(&k->rv, e->var) && !in_list(&k->maxrv, e->var))
		return e->var;
	for (int i = 0; i < e->nargs; i++) {
		const Var *v = reads_running(k, e->args[i]);
		if (v)
			return v;
	}
	return NULL;
}

/* Whether e reads a block array other than at element `[v]` (v NULL: at all). */
static bool reads_array_off(const Blocks *k, const Expr *e, const Var *v)
{
	if (!e)
		return false;
	if (e->kind == EX_INDEX && in_list(&k->arrays, e->var) && !(v && e->nargs == 1 && expr_uncast(e->args[0])->kind == EX_VAR && expr_uncast(e->args[0])->var == v))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_array_off(k, e->args[i], v))
			return true;
	return false;
}

/* Whether block local y is the block's new max for running value r: a max the key loops
 * take, or `fmaxf(r, ..)` (r's max with the block's). */
static bool is_new_max(const Blocks *k, const Var *y, const Var *r)
{
	int q = red_index(k, y);
	if (q >= 0)
		return k->reds.v[q] == RED_MAX;
	for (int i = 0; i < k->bl.n; i++)
		if (k->bl.v[i] == y && k->blinit.v[i]) {
			Expr *e = expr_uncast(k->blinit.v[i]);
			if (e->kind != EX_CALL || e->fn != FN_FMAX || e->nargs != 2)
				return false;
			for (int a = 0; a < 2; a++)
				if (expr_uncast(e->args[a])->kind == EX_VAR && expr_uncast(e->args[a])->var == r)
					return true;
		}
	return false;
}

/* Checks an update of running value lhs once per block: `R = Y` (Y a block local that is
 * not a sum), `R *= F`, `R = R * F`, `R = R * F + S`, `R += S` (S a block sum, F reading none). */
static void check_running_update(Blocks *k, const Stmt *s)
{
	Expr *r = s->rhs;
	const Expr *lhs = s->lhs;
	bool ok = false;
	if (s->aop == AS_SET && expr_uncast(r)->kind == EX_VAR && in_list(&k->bl, expr_uncast(r)->var) && !is_block_sum(k, r))
		ok = lhs->kind == EX_VAR && is_new_max(k, expr_uncast(r)->var, lhs->var);
	else if (s->aop == AS_MUL || s->aop == AS_DIV)
		ok = !reads_block_sum(k, r) && !reads_running(k, r);
	else if (s->aop == AS_ADD)
		ok = is_block_sum(k, r);
	else if (s->aop == AS_SET && factor_of(r, lhs))
		ok = !reads_block_sum(k, factor_of(r, lhs)) && !reads_running(k, factor_of(r, lhs));
	else if (s->aop == AS_SET && expr_uncast(r)->kind == EX_BIN && expr_uncast(r)->bop == OP_ADD) {
		Expr *a = expr_uncast(r);
		for (int i = 0; i < 2 && !ok; i++) {
			Expr *f = factor_of(a->args[i], lhs);
			ok = f && !reads_block_sum(k, f) && !reads_running(k, f) && is_block_sum(k, a->args[1 - i]);
		}
	}
	if (!ok)
		fail(k, s->loc, arena_printf(&k->p->arena, "'%s' is updated once per block other than by a rescale, the addition of the block's sum, or the block's max", lhs->var->name));
}

/* Checks a statement of the block's body outside the key loops. */
static void check_block_stmt(Blocks *k, const Stmt *s)
{
	if (!s || k->why)
		return;
	if (is_key_loop(k, s)) {
		check_key_stmt(k, s, s->body[0]);
		return;
	}
	switch (s->kind) {
	case ST_BLOCK:
		for (int i = 0; i < s->nbody; i++)
			check_block_stmt(k, s->body[i]);
		return;
	case ST_DECL:
		if (s->rhs && reads_block_sum(k, s->rhs))
			fail(k, s->loc, "a block local reads a block sum");
		if (s->rhs && reads_running(k, s->rhs))
			fail(k, s->loc, arena_printf(&k->p->arena, "a block local reads '%s', a running value other than the max", reads_running(k, s->rhs)->name));
		if (s->rhs && reads_array_off(k, s->rhs, NULL))
			fail(k, s->loc, "a block array is read outside the loops over the block's keys");
		return;
	case ST_FOR:
		/* a row's loop (over d) holding key loops: its bounds read nothing of the block */
		if (expr_reads_var(s->lo, k->b) || expr_reads_var(s->hi, k->b))
			fail(k, s->loc, "a loop of the block other than over its keys moves with the block");
		for (int i = 0; i < k->bl.n; i++)
			if (expr_reads_var(s->lo, k->bl.v[i]) || expr_reads_var(s->hi, k->bl.v[i]))
				fail(k, s->loc, "a loop of the block other than over its keys has a bound of the block");
		for (int i = 0; i < s->nbody; i++)
			check_block_stmt(k, s->body[i]);
		return;
	case ST_IF:
		fail(k, s->loc, "a test once per block");
		return;
	case ST_ASSIGN: {
		Var *v = s->lhs->var;
		if (in_list(&k->rv, v)) {
			check_running_update(k, s);
		} else if (red_index(k, v) >= 0 || in_list(&k->arrays, v)) {
			fail(k, s->loc, arena_printf(&k->p->arena, "'%s' is written outside the loop over the block's keys", v->name));
		} else if (!in_list(&k->bl, v)) {
			fail(k, s->loc, arena_printf(&k->p->arena, "'%s' is written once per block", v->name));
		} else if (reads_block_sum(k, s->rhs)) {
			fail(k, s->loc, "a block local reads a block sum");
		} else if (reads_running(k, s->rhs)) {
			fail(k, s->loc, arena_printf(&k->p->arena, "a block local reads '%s', a running value other than the max", reads_running(k, s->rhs)->name));
		}
		if (reads_array_off(k, s->rhs, NULL) || reads_array_off(k, s->lhs, NULL))
			fail(k, s->loc, "a block array is read outside the loops over the block's keys");
		return;
	}
	}
}

/* Whether s, the body of a loop of the block other than over its keys, declares a block
 * array or holds a loop that holds a loop over the block's keys: a row of its own (a query
 * block's rows), not a loop over a row's columns. */
static bool rows_inside(Blocks *k, const Stmt *s)
{
	if (!s || is_key_loop(k, s))
		return false;
	if (s->kind == ST_DECL && s->var->ndim == 1 && is_int(s->var->dims[0], k->B))
		return true;
	if (s->kind == ST_FOR && holds_key_loop(k, s))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (rows_inside(k, s->body[i]))
			return true;
	return false;
}

/* The scalar locals of the block's body outside its key loops (into k->bl), and the
 * reductions of its key loops. */
static void block_locals(Blocks *k, const Stmt *s)
{
	if (!s)
		return;
	if (is_key_loop(k, s)) {
		collect_reductions(k, s, s->body[0]);
		return;
	}
	if (s->kind == ST_DECL && !s->var->ndim) {
		vec_push(k->bl, s->var);
		vec_push(k->blinit, s->rhs);
	}
	else if (s->kind == ST_DECL && !in_list(&k->arrays, s->var))
		fail(k, s->loc, "a local array of the block other than one element per key");
	for (int i = 0; i < s->nbody; i++)
		block_locals(k, s->body[i]);
}

/* The running values that s, outside the key loops, sets from a block local (`m_i = m_ij;`):
 * into k->maxrv. */
static void max_running(Blocks *k, const Stmt *s)
{
	if (!s || is_key_loop(k, s))
		return;
	if (s->kind == ST_ASSIGN && s->aop == AS_SET && in_list(&k->rv, s->lhs->var) && expr_uncast(s->rhs)->kind == EX_VAR && in_list(&k->bl, expr_uncast(s->rhs)->var) &&
	    !in_list(&k->maxrv, s->lhs->var))
		vec_push(k->maxrv, s->lhs->var);
	for (int i = 0; i < s->nbody; i++)
		max_running(k, s->body[i]);
}

/* The variables written in s (assignments' targets). */
static void written_vars(const Stmt *s, VarList *out)
{
	if (!s)
		return;
	if (s->kind == ST_ASSIGN && !in_list(out, s->lhs->var))
		vec_push(*out, s->lhs->var);
	for (int i = 0; i < s->nbody; i++)
		written_vars(s->body[i], out);
}

/* Whether s reads v only in its additions to v (`v += g`, g not reading v). */
static bool only_added_to(Program *p, const Stmt *s, const Var *v)
{
	if (!s)
		return true;
	Expr *t, *g;
	Reducer red;
	if (s->kind == ST_ASSIGN && s->lhs->var == v)
		return reduce_match(p, (Stmt *)s, &t, &red, &g) && red == RED_ADD && t->kind == EX_VAR && t->var == v &&
		       !expr_reads_var(g, v);
	const Expr *es[4] = {s->rhs, s->cond, s->lo, s->hi};
	for (int i = 0; i < 4; i++)
		if (es[i] && expr_reads_var(es[i], v))
			return false;
	if (s->lhs)
		for (int i = 0; i < s->lhs->nargs; i++)
			if (expr_reads_var(s->lhs->args[i], v))
				return false;
	for (int i = 0; i < s->nbody; i++)
		if (!only_added_to(p, s->body[i], v))
			return false;
	return true;
}

/* `T a = E(X); ... a += g ...; X = a;` in block body s (a row's loop body, say: Triton's
 * `acc = acc * alpha[:, None]; acc += tl.dot(p, v)` with a local in between): a is X
 * throughout, X not touched in between, so that X itself is rescaled and added to; so too
 * `T a = 0; ... a += g ...; X = X * F + a;` (Triton's `acc = acc * alpha[:, None] +
 * tl.dot(p, v)` with the dot in a local): X *= F first, then the additions to X. */
static void forward_local_copies(Program *p, Stmt *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nbody; i++)
		forward_local_copies(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *d = s->body[i];
		if (d->kind != ST_DECL || !d->rhs || d->var->ndim)
			continue;
		Stmt *last = s->body[s->nbody - 1], *set = NULL;
		if (last == d || last->kind != ST_ASSIGN || last->lhs->var == d->var || last->lhs->ty != d->var->ty)
			continue;
		Expr *X = last->lhs, *r = expr_uncast(last->rhs);
		if (last->aop == AS_SET && r->kind == EX_VAR && r->var == d->var && expr_reads_var(d->rhs, X->var)) {
			/* `T a = X * F; ...; X = a;` */
			set = st_assign(p, ex_copy(p, X), AS_SET, d->rhs, d->loc);
			Expr *f = factor_of(d->rhs, X); /* `X *= F`, the form online.c drops */
			if (f)
				set = st_assign(p, ex_copy(p, X), AS_MUL, f, d->loc);
		} else if (expr_is_zero_literal(d->rhs) && last->aop == AS_ADD && r->kind == EX_VAR && r->var == d->var) {
			/* `T a = 0; ...; X += a;` */
			set = NULL;
		} else if (expr_is_zero_literal(d->rhs) && last->aop == AS_SET && r->kind == EX_BIN && r->bop == OP_ADD) {
			/* `T a = 0; ...; X = X * F + a;` */
			for (int q = 0; q < 2 && !set; q++) {
				Expr *a = expr_uncast(r->args[1 - q]), *f = factor_of(r->args[q], X);
				if (a->kind == EX_VAR && a->var == d->var && f && !expr_reads_var(f, d->var)) {
					set = st_assign(p, ex_copy(p, X), AS_MUL, f, d->loc);
					for (int j = i + 1; j + 1 < s->nbody && set; j++)
						if (stmt_stores_read_by(s->body[j], f))
							set = NULL;
				}
			}
			if (!set)
				continue;
		} else
			continue;
		bool ok = true;
		for (int q = 0; q < X->nargs; q++)
			for (int j = i; j < s->nbody && ok; j++)
				ok = !(X->args[q]->kind == EX_VAR && stmt_writes_var(s->body[j], X->args[q]->var));
		for (int j = i + 1; j + 1 < s->nbody && ok; j++)
			ok = !stmt_reads_var(s->body[j], X->var) && !stmt_writes_var(s->body[j], X->var);
		if (!ok)
			continue;
		/* a is read only where it is added to (it is X from here on) */
		for (int j = i + 1; j + 1 < s->nbody && ok; j++)
			ok = only_added_to(p, s->body[j], d->var);
		if (!ok)
			continue;
		Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)s->nbody);
		int n = 0;
		for (int j = 0; j < i; j++)
			nb[n++] = s->body[j];
		if (set)
			nb[n++] = set;
		for (int j = i + 1; j + 1 < s->nbody; j++)
			nb[n++] = stmt_map_exprs(p, s->body[j], (ExprMap)expr_subst_equal_map, (const Expr *[2]){ex_var(p, d->var, d->loc), X});
		st_set_body(p, s, nb, n);
		return;
	}
}

typedef struct Subst {
	Blocks *k;
	const Stmt *E; /* the key loop whose body this is, or NULL */
	Var *t;
} Subst;

/* e with the block arrays read as their scalars, the key loop's iterator and the block's
 * as the key's (n -> t % B or t, start_n -> t / B), then the sums folded. */
static Expr *subst_map(Program *p, const Expr *e, void *ctx)
{
	Subst *sb = ctx;
	Blocks *k = sb->k;
	if (!e)
		return NULL;
	if (e->kind == EX_INDEX)
		for (int i = 0; i < k->arrays.n; i++)
			if (e->var == k->arrays.v[i])
				return ex_var(p, k->scalars.v[i], e->loc);
	Loc l = e->loc;
	if (e->kind == EX_VAR && e->var == k->b)
		return ex_bin(p, OP_DIV, ex_var(p, sb->t, l), ex_int(p, k->B, l), l);
	if (e->kind == EX_VAR && sb->E && e->var == sb->E->var)
		return k->shape == 1 ? ex_bin(p, OP_MOD, ex_var(p, sb->t, l), ex_int(p, k->B, l), l) : ex_var(p, sb->t, l);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = subst_map(p, e->args[i], ctx);
	return c;
}

static Expr *subst_fold_map(Program *p, const Expr *e, void *ctx) { return fuse_fold_divmod(p, subst_map(p, e, ctx)); }

/* s with its key loops replaced by their bodies at key t, into out (a block's statements
 * spliced). */
static void unroll(Blocks *k, const Stmt *s, Var *t, StmtVec *out)
{
	Program *p = k->p;
	if (is_key_loop(k, s)) {
		Stmt *b = stmt_map_exprs(p, s->body[0], subst_fold_map, &(Subst){k, s, t});
		int n;
		Stmt **bs = slot_stmts(&b, &n);
		for (int i = 0; i < n; i++)
			vec_push(*out, bs[i]);
		return;
	}
	if (s->kind == ST_BLOCK) {
		for (int i = 0; i < s->nbody; i++)
			unroll(k, s->body[i], t, out);
		return;
	}
	if (s->kind == ST_FOR) {
		StmtVec in = {0};
		int n;
		Stmt **bs = slot_stmts((Stmt **)&s->body[0], &n);
		for (int i = 0; i < n; i++)
			unroll(k, bs[i], t, &in);
		Stmt *body = st_block(p, in.v, in.n, s->loc);
		vec_free(in);
		Stmt *c = stmt_map_exprs(p, s, subst_fold_map, &(Subst){k, NULL, t});
		st_set_body(p, c, &body, 1);
		vec_push(*out, c);
		return;
	}
	if (s->kind == ST_DECL)
		for (int i = 0; i < k->arrays.n; i++)
			if (s->var == k->arrays.v[i]) {
				vec_push(*out, st_decl(p, k->scalars.v[i], NULL, s->loc));
				return;
			}
	vec_push(*out, stmt_map_exprs(p, s, subst_fold_map, &(Subst){k, NULL, t}));
}

/* In body (the per-key loop's statements), each block reduction over its one key, `T x =
 * x0; ... x = fmaxf(x, g);` (or `x += g` from 0), becomes `T x = fmaxf(x0, g);` (`T x = g;`)
 * where the reduction was (in the block that declares x: the loop's, or a row loop's).
 * false where one is not so (under a test, say). */
static bool one_key_reduction(Blocks *k, Stmt *body, Var *x)
{
	Program *p = k->p;
	int di = -1, ri = -1;
	Expr *t, *g;
	Reducer red;
	for (int i = 0; i < body->nbody; i++) {
		Stmt *s = body->body[i];
		if (s->kind == ST_DECL && s->var == x)
			di = i;
		else if (di >= 0 && ri < 0 && (s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(p, s, &t, &red, &g) && t->kind == EX_VAR && t->var == x)
			ri = i;
	}
	if (di < 0) {
		for (int i = 0; i < body->nbody; i++)
			if (body->body[i] && body->body[i]->kind != ST_IF)
				for (int j = 0; j < body->body[i]->nbody; j++)
					if (body->body[i]->body[j] && body->body[i]->body[j]->kind == ST_BLOCK && stmt_declares(body->body[i]->body[j], x))
						return one_key_reduction(k, body->body[i]->body[j], x);
		return false;
	}
	Stmt *d = body->body[di];
	if (ri < 0 || !d->rhs || stmt_count_stores(body, x) != 1)
		return fail(k, d->loc, arena_printf(&p->arena, "the block's reduction '%s' is taken under a test of its own or has no start value", x->name)), false;
	for (int i = di + 1; i < ri; i++)
		if (stmt_reads_var(body->body[i], x) || stmt_stores_read_by(body->body[i], d->rhs))
			return fail(k, d->loc, arena_printf(&p->arena, "the block's reduction '%s' is read before its loop ends, or its start value changes", x->name)), false;
	Expr *v;
	Loc l = body->body[ri]->loc;
	if (red == RED_ADD) {
		if (!expr_is_zero_literal(d->rhs))
			return fail(k, d->loc, arena_printf(&p->arena, "the block's sum '%s' starts from a value other than zero (it would be added once per block)", x->name)), false;
		v = ex_as_type(p, x->ty, g);
	} else {
		bool dbl = x->ty == TY_DOUBLE;
		v = ex_call(p, red == RED_MAX ? FN_FMAX : FN_FMIN, dbl, (Expr *[]){ex_as_type(p, x->ty, d->rhs), ex_as_type(p, x->ty, g)}, l);
	}
	body->body[ri] = st_decl(p, x, v, l);
	memmove(body->body + di, body->body + di + 1, sizeof(Stmt *) * (size_t)(body->nbody - di - 1));
	body->nbody--;
	return true;
}

static bool one_key_reductions(Blocks *k, Stmt *body)
{
	for (int r = 0; r < k->red.n; r++)
		if (!one_key_reduction(k, body, k->red.v[r]))
			return false;
	return true;
}

/* Each scalar local of body (a former block array) that body's own statements set one after
 * another, `qk = s; qk = expf(qk - m_ij);`, gets a declaration per value (qk, qk_1), so that
 * each value has one definition, as online.c reads them. */
static void one_definition_each(Program *p, Stmt *body, const VarList *vs)
{
	for (int q = 0; q < vs->n; q++) {
		Var *v = vs->v[q], *cur = NULL;
		int top = 0, di = -1;
		for (int i = 0; i < body->nbody; i++) {
			Stmt *s = body->body[i];
			if (s->kind == ST_DECL && s->var == v)
				di = i;
			top += s->kind == ST_ASSIGN && s->aop == AS_SET && s->lhs->kind == EX_VAR && s->lhs->var == v;
		}
		if (di < 0 || body->body[di]->rhs || top != stmt_count_stores(body, v))
			continue;
		int nv = 0;
		for (int i = di + 1; i < body->nbody; i++) {
			Stmt *s = body->body[i];
			if (cur)
				s = body->body[i] = stmt_subst_var(p, s, v, cur);
			if (s->kind == ST_ASSIGN && s->aop == AS_SET && s->lhs->kind == EX_VAR && (s->lhs->var == v || s->lhs->var == cur)) {
				cur = nv++ ? var_new(p, VAR_LOCAL, arena_printf(&p->arena, "%s_%d", v->name, nv - 1), v->ty, s->loc) : v;
				body->body[i] = st_decl(p, cur, s->rhs, s->loc);
			}
		}
		memmove(body->body + di, body->body + di + 1, sizeof(Stmt *) * (size_t)(body->nbody - di - 1));
		body->nbody--;
	}
}

/* The integer locals of body that copy the key (`int col = start_n + n;`, now `int col =
 * t;`, never set again) read as t, so that the masks and guards compare the key itself (the
 * tile lowering reads the key range from them). */
static void forward_key_copies(Program *p, Stmt *body, Var *t)
{
	for (int i = 0; i < body->nbody; i++) {
		Stmt *d = body->body[i];
		if (d->kind != ST_DECL || d->var->ndim || !scalar_is_int(d->var->ty) || !d->rhs || expr_uncast(d->rhs)->kind != EX_VAR || expr_uncast(d->rhs)->var != t ||
		    stmt_count_stores(body, d->var))
			continue;
		Expr *to = ex_var(p, t, d->loc);
		for (int j = i + 1; j < body->nbody; j++)
			body->body[j] = stmt_map_exprs(p, body->body[j], (ExprMap)expr_subst_equal_map, (const Expr *[2]){ex_var(p, d->var, d->loc), to});
	}
}

/* X where e is `b * B + B < X ? b * B + B : X` (or `X < .. ? X : ..`), X not reading the block. */
static Expr *min_end(const Blocks *k, Expr *e)
{
	if (e->kind != EX_COND || e->args[0]->kind != EX_BIN || (e->args[0]->bop != OP_LT && e->args[0]->bop != OP_LE))
		return NULL;
	Expr *c = e->args[0];
	for (int i = 0; i < 2; i++) {
		Expr *a = c->args[i], *x = c->args[1 - i];
		if (!expr_equal(e->args[1], i == 0 ? a : x) || !expr_equal(e->args[2], i == 0 ? x : a))
			continue;
		if (a->kind == EX_BIN && a->bop == OP_ADD && is_block_start(k, a->args[0]) && is_int(a->args[1], k->B) && !expr_reads_var(x, k->b))
			return x;
	}
	return NULL;
}

/* ---- the padded keys of the last block ----
 *
 * `for (start_n = 0; start_n < X; start_n += B)` over B keys a block walks keys up to X
 * rounded up to B; the C masks the keys from X on (`s = start_n + n < X ? dot : -INFINITY`,
 * or a guard around the dot) and skips their values' reads. Such a key changes nothing when
 * its score is -inf or a mask far below any score (-1e9): the max keeps its value, each sum
 * adds exp(-inf) = 0, the guarded additions do not run. The key loop then ends at X, as the
 * tile loads must (they read every key of the range). What a padded key does is evaluated
 * with every test `t < X` false: a constant, the running max (finite), or unknown. */
typedef enum PadKind { PAD_UNKNOWN, PAD_CONST, PAD_MAX } PadKind;
typedef struct Pad {
	PadKind kind;
	double v; /* PAD_CONST: the value */
} Pad;

typedef struct PadCtx {
	const Blocks *k;
	const Stmt *body; /* the key loop's body */
	const Var *t;
	const Expr *X;
	const Var *mnew; /* the local holding the new max */
} PadCtx;

/* Whether condition c is false for a key t >= X: `t < X`, `X > t`, or a conjunct is. */
static bool false_at_pad(const PadCtx *pc, const Expr *c)
{
	c = expr_uncast((Expr *)c);
	if (c->kind != EX_BIN)
		return false;
	if (c->bop == OP_LAND)
		return false_at_pad(pc, c->args[0]) || false_at_pad(pc, c->args[1]);
	int key = c->bop == OP_LT ? 0 : c->bop == OP_GT ? 1 : -1;
	if (key < 0)
		return false;
	const Expr *a = expr_uncast(c->args[key]);
	return a->kind == EX_VAR && a->var == pc->t && expr_equal(expr_uncast(c->args[1 - key]), expr_uncast((Expr *)pc->X));
}

/* Whether statement s runs for a padded key: not under an if whose test is then false. */
static int stores_at_pad(const PadCtx *pc, const Stmt *s, const Var *v)
{
	if (!s)
		return 0;
	if (s->kind == ST_IF && false_at_pad(pc, s->cond))
		return s->nbody > 1 ? stores_at_pad(pc, s->body[1], v) : 0;
	int n = s->kind == ST_ASSIGN && s->lhs->var == v;
	for (int i = 0; i < s->nbody; i++)
		n += stores_at_pad(pc, s->body[i], v);
	return n;
}

static Pad pad_value(const PadCtx *pc, const Expr *e, int depth)
{
	Pad u = {PAD_UNKNOWN, 0};
	if (!e || depth > 32)
		return u;
	switch (e->kind) {
	case EX_FLT: return (Pad){PAD_CONST, e->fval};
	case EX_INT: return (Pad){PAD_CONST, (double)e->ival};
	case EX_CAST: return pad_value(pc, e->args[0], depth + 1);
	case EX_UN:
		if (e->uop == UOP_NEG) {
			Pad a = pad_value(pc, e->args[0], depth + 1);
			return a.kind == PAD_CONST ? (Pad){PAD_CONST, -a.v} : u;
		}
		return u;
	case EX_COND: return false_at_pad(pc, e->args[0]) ? pad_value(pc, e->args[2], depth + 1) : u;
	case EX_VAR: {
		if (in_list(&pc->k->maxrv, e->var) || e->var == pc->mnew)
			return (Pad){PAD_MAX, 0};
		for (int i = 0; i < pc->body->nbody; i++) {
			const Stmt *d = pc->body->body[i];
			if (d->kind == ST_DECL && d->var == e->var && d->rhs && !stores_at_pad(pc, pc->body, e->var))
				return pad_value(pc, d->rhs, depth + 1);
		}
		return u;
	}
	case EX_CALL: {
		if (e->fn == FN_FMAX) {
			Pad a = pad_value(pc, e->args[0], depth + 1), b = pad_value(pc, e->args[1], depth + 1);
			if (a.kind == PAD_CONST && b.kind == PAD_CONST)
				return (Pad){PAD_CONST, fmax(a.v, b.v)};
			if (a.kind == PAD_CONST && a.v == -INFINITY)
				return b;
			if (b.kind == PAD_CONST && b.v == -INFINITY)
				return a;
			/* the running max with a mask far below any score: the max */
			if ((a.kind == PAD_MAX && b.kind == PAD_CONST && b.v <= -1e4) || (b.kind == PAD_MAX && a.kind == PAD_CONST && a.v <= -1e4))
				return (Pad){PAD_MAX, 0};
			return u;
		}
		if (e->fn == FN_EXP || e->fn == FN_EXP2) {
			Pad a = pad_value(pc, e->args[0], depth + 1);
			if (a.kind == PAD_CONST && a.v <= -1e4)
				return (Pad){PAD_CONST, 0};
			return u;
		}
		return u;
	}
	case EX_BIN: {
		Pad a = pad_value(pc, e->args[0], depth + 1), b = pad_value(pc, e->args[1], depth + 1);
		if (e->bop == OP_SUB && a.kind == PAD_CONST && a.v <= -1e4 && b.kind == PAD_MAX)
			return a; /* a mask below the running max: far below */
		if (e->bop == OP_SUB && a.kind == PAD_MAX && b.kind == PAD_MAX)
			return (Pad){PAD_CONST, 0};
		if (e->bop == OP_MUL) {
			if ((a.kind == PAD_CONST && a.v == 0 && b.kind != PAD_UNKNOWN) || (b.kind == PAD_CONST && b.v == 0 && a.kind != PAD_UNKNOWN))
				return (Pad){PAD_CONST, 0};
			/* -inf times the scale every score gets (a parameter's value: the C's own
			 * exponent is inf or NaN there for a scale <= 0) */
			for (int i = 0; i < 2; i++) {
				Pad x = i ? b : a;
				const Expr *o = e->args[1 - i];
				if (x.kind == PAD_CONST && x.v == -INFINITY && expr_reads_params_only(o))
					return x;
			}
		}
		if (a.kind == PAD_CONST && b.kind == PAD_CONST) {
			switch (e->bop) {
			case OP_MUL: return (Pad){PAD_CONST, a.v * b.v};
			case OP_ADD: return (Pad){PAD_CONST, a.v + b.v};
			case OP_SUB: return (Pad){PAD_CONST, a.v - b.v};
			default: return u;
			}
		}
		return u;
	}
	default: return u;
	}
}

/* Whether local v (alpha) is exp(m_old - m_new) with m_new the old max at a padded key. */
static bool pad_factor_one(const PadCtx *pc, const Var *v)
{
	for (int i = 0; i < pc->body->nbody; i++) {
		const Stmt *d = pc->body->body[i];
		if (d->kind == ST_DECL && d->var == v && d->rhs && !stores_at_pad(pc, pc->body, v)) {
			Expr *e = expr_uncast(d->rhs);
			if (e->kind != EX_CALL || (e->fn != FN_EXP && e->fn != FN_EXP2))
				return false;
			Pad a = pad_value(pc, e->args[0], 0);
			return a.kind == PAD_CONST && a.v == 0;
		}
	}
	return false;
}

/* The bounds Y of the tests `t < Y` in s's conditions (ifs, ternaries; conjuncts), Y
 * reading neither t nor body's locals. */
static void key_bounds_expr(const Expr *e, const Var *t, const Stmt *body, void *ys_)
{
	VEC(Expr *) *ys = ys_;
	if (!e)
		return;
	const Expr *c = expr_uncast((Expr *)e);
	if (c->kind == EX_BIN && (c->bop == OP_LT || c->bop == OP_GT)) {
		int key = c->bop == OP_LT ? 0 : 1;
		const Expr *a = expr_uncast(c->args[key]), *y = c->args[1 - key];
		bool ok = a->kind == EX_VAR && a->var == t && !expr_reads_var(y, t);
		for (int i = 0; ok && i < body->nbody; i++)
			if (body->body[i]->kind == ST_DECL && expr_reads_var(y, body->body[i]->var))
				ok = false;
		for (int i = 0; ok && i < ys->n; i++)
			if (expr_equal(ys->v[i], expr_uncast((Expr *)y)))
				ok = false;
		if (ok)
			vec_push(*ys, expr_uncast((Expr *)y));
	}
	for (int i = 0; i < e->nargs; i++)
		key_bounds_expr(e->args[i], t, body, ys_);
}

static void key_bounds(const Stmt *s, const Var *t, const Stmt *body, void *ys)
{
	if (!s)
		return;
	key_bounds_expr(s->cond, t, body, ys);
	key_bounds_expr(s->rhs, t, body, ys);
	for (int i = 0; i < s->nbody; i++)
		key_bounds(s->body[i], t, body, ys);
}

/* Whether every statement of s that adds to or rescales a running value adds nothing and
 * keeps it at a padded key (its test false there, or its value 0 / its factor 1). */
static bool pad_inert(const PadCtx *pc, const Stmt *s)
{
	if (!s)
		return true;
	if (s->kind == ST_IF && false_at_pad(pc, s->cond))
		return s->nbody < 2 || pad_inert(pc, s->body[1]);
	if (s->kind == ST_ASSIGN && in_list(&pc->k->rv, s->lhs->var)) {
		Expr *r = expr_uncast(s->rhs), *f = NULL, *g = NULL;
		if (s->aop == AS_ADD)
			g = r;
		else if (s->aop == AS_MUL)
			f = r;
		else if (s->aop == AS_SET && r->kind == EX_VAR && (in_list(&pc->k->maxrv, s->lhs->var)))
			return pad_value(pc, r, 0).kind == PAD_MAX;
		else if (s->aop == AS_SET && (f = factor_of(r, s->lhs)))
			;
		else if (s->aop == AS_SET && r->kind == EX_BIN && r->bop == OP_ADD) {
			for (int i = 0; i < 2 && !f; i++)
				if ((f = factor_of(r->args[i], s->lhs)))
					g = r->args[1 - i];
			if (!f)
				return false;
		} else
			return false;
		if (f) {
			Expr *fm = expr_uncast(f);
			/* the factor exp(m_old - m_new) is 1: the max keeps its value */
			if (!((fm->kind == EX_CALL && (fm->fn == FN_EXP || fm->fn == FN_EXP2) && pad_value(pc, fm->args[0], 0).kind == PAD_CONST &&
			       pad_value(pc, fm->args[0], 0).v == 0) ||
			      (fm->kind == EX_VAR && pad_factor_one(pc, fm->var))))
				return false;
		}
		if (g) {
			Pad v = pad_value(pc, g, 0);
			if (v.kind != PAD_CONST || v.v != 0)
				return false;
		}
		return true;
	}
	for (int i = 0; i < s->nbody; i++)
		if (!pad_inert(pc, s->body[i]))
			return false;
	return true;
}

Stmt *fuse_unblock_online(Program *p, const Stmt *loop, const char **why)
{
	*why = NULL;
	if (loop->kind != ST_FOR || loop->var->block_step < 2 || !is_int(loop->lo, 0) || loop->step != 1)
		return NULL;
	Blocks k = {.p = p, .loop = loop, .b = loop->var, .B = loop->var->block_step};
	Stmt *body = st_block(p, (Stmt *[]){stmt_copy(p, loop->body[0])}, 1, loop->loc);
	/* the block's arrays, its locals, the running values, the block's reductions */
	int n;
	Stmt **bs = slot_stmts(&body->body[0], &n);
	for (int i = 0; i < n; i++) {
		Stmt *s = bs[i];
		if (s->kind == ST_DECL && s->var->ndim == 1 && is_int(s->var->dims[0], k.B) && !s->rhs) {
			vec_push(k.arrays, s->var);
			vec_push(k.scalars, var_new(p, VAR_LOCAL, s->var->name, s->var->ty, s->var->loc));
		}
	}
	if (!holds_key_loop(&k, body)) {
		k.why = NULL;
		goto out;
	}
	/* rows of a query block walked inside each key block (Triton's [BLOCK_M, BLOCK_N]
	 * tiles as a loop over the block's rows, each with its own block arrays) */
	for (int i = 0; i < n; i++)
		if (bs[i]->kind == ST_FOR && !is_key_loop(&k, bs[i]) && rows_inside(&k, bs[i]->body[0]))
			fail(&k, bs[i]->loc,
			     arena_printf(&p->arena, "the loop over '%s' walks rows of their own (each with its block's scores and running values) inside each block of keys: fusecc reads one row per step of the parallel loops; make the row the parallel loop (parallel(.., m) over the queries, scalars m_i, l_i and a row acc[D]) with the key blocks inside it",
			                  bs[i]->var->name));
	if (k.why) {
		*why = k.why;
		goto out;
	}
	forward_local_copies(p, body);
	bs = slot_stmts(&body->body[0], &n);
	VarList w = {0};
	written_vars(body, &w);
	for (int i = 0; i < w.n; i++)
		if (!stmt_declares(body, w.v[i]))
			vec_push(k.rv, w.v[i]);
	vec_free(w);
	if (!has_rescale(&k, body)) {
		k.why = NULL; /* no running value rescaled: not an online softmax (blocked sums stay as they are) */
		goto out;
	}
	block_locals(&k, body);
	max_running(&k, body);
	for (int i = 0; i < n && !k.why; i++)
		check_block_stmt(&k, bs[i]);
	/* the keys: shape 1, [0, blocks * B); shape 2, [0, X) where the key loops end at
	 * min(b * B + B, X) and the blocks at ceil(X / B) */
	Expr *hi = NULL;
	Loc l = loop->loc;
	if (!k.why && k.shape == 1)
		hi = ex_bin(p, OP_MUL, ex_copy(p, loop->hi), ex_int(p, k.B, l), l);
	if (!k.why && k.shape == 2) {
		Expr *e = k.ehi;
		if (e->kind == EX_VAR && in_list(&k.bl, e->var))
			for (int i = 0; i < n; i++)
				if (bs[i]->kind == ST_DECL && bs[i]->var == e->var && bs[i]->rhs && !stmt_count_stores(body, e->var))
					e = bs[i]->rhs;
		Expr *X = min_end(&k, e), *lh = loop->hi;
		if (X && lh->kind == EX_BIN && lh->bop == OP_DIV && is_int(lh->args[1], k.B) && lh->args[0]->kind == EX_BIN && lh->args[0]->bop == OP_ADD &&
		    is_int(lh->args[0]->args[1], k.B - 1) && expr_equal(lh->args[0]->args[0], X))
			hi = ex_copy(p, X);
		else
			fail(&k, l, "the loops over a block's keys end where fusecc cannot tell that every key is in one block (write `c < (c0 + B < N ? c0 + B : N)`, or loop over the B keys of each block)");
	}
	for (int i = 0; i < k.red.n && !k.why; i++)
		if (!in_list(&k.bl, k.red.v[i]))
			fail(&k, l, "a block reduction outside the block");
	if (k.why) {
		*why = k.why;
		goto out;
	}
	/* the key loop: the block loop's body with blocks of one key */
	const Stmt *first = NULL;
	for (int i = 0; i < n && !first; i++)
		if (is_key_loop(&k, bs[i]))
			first = bs[i];
	const char *name = first ? first->var->name : "key";
	Var *t = var_new(p, VAR_LOOP, name, TY_INT, l);
	StmtVec out = {0};
	for (int i = 0; i < n; i++)
		unroll(&k, bs[i], t, &out);
	Stmt *nb = st_block(p, out.v, out.n, loop->body[0]->loc);
	vec_free(out);
	if (!one_key_reductions(&k, nb)) {
		*why = k.why ? k.why : arena_printf(&p->arena, "line %d: a block's max or sum is not where fusecc finds it", l.line);
		goto out;
	}
	one_definition_each(p, nb, &k.scalars);
	forward_key_copies(p, nb, t);
	/* shape 1, keys up to X rounded up to B: the padded keys dropped where they change
	 * nothing, up to a bound Y the tests compare the key with (`t < N`: Y = N, X itself or
	 * the end of every row's keys when X is a causal bound) */
	const Var *mnew = NULL;
	for (int i = 0; k.shape == 1 && i < nb->nbody && !mnew; i++) {
		const Stmt *s = nb->body[i];
		if (s->kind == ST_ASSIGN && s->aop == AS_SET && in_list(&k.maxrv, s->lhs->var) && expr_uncast(s->rhs)->kind == EX_VAR)
			mnew = expr_uncast(s->rhs)->var;
	}
	VEC(Expr *) ys = {0};
	if (mnew)
		key_bounds(nb, t, nb, &ys);
	for (int y = 0; y < ys.n; y++) {
		PadCtx pc = {&k, nb, t, ys.v[y], mnew};
		/* the new max at a padded key is the old one, and nothing is added */
		bool inert = false;
		for (int i = 0; i < nb->nbody; i++)
			if (nb->body[i]->kind == ST_DECL && nb->body[i]->var == mnew && nb->body[i]->rhs)
				inert = pad_value(&pc, nb->body[i]->rhs, 0).kind == PAD_MAX;
		if (!inert || !pad_inert(&pc, nb))
			continue;
		Expr *lh = loop->hi;
		bool whole = lh->kind == EX_BIN && lh->bop == OP_DIV && is_int(lh->args[1], k.B) && lh->args[0]->kind == EX_BIN && lh->args[0]->bop == OP_ADD &&
		             is_int(lh->args[0]->args[1], k.B - 1) && expr_equal(lh->args[0]->args[0], ys.v[y]);
		hi = whole ? ex_copy(p, ys.v[y]) : ex_min(p, hi, ex_copy(p, ys.v[y]), l);
		break;
	}
	vec_free(ys);
	Stmt *res = st_for(p, t, ex_int(p, 0, l), hi, 1, nb, l);
	vec_free(k.arrays);
	vec_free(k.scalars);
	vec_free(k.bl);
	vec_free(k.blinit);
	vec_free(k.maxrv);
	vec_free(k.rv);
	vec_free(k.red);
	vec_free(k.reds);
	vec_free(k.redloop);
	return res;
out:
	vec_free(k.arrays);
	vec_free(k.scalars);
	vec_free(k.bl);
	vec_free(k.blinit);
	vec_free(k.maxrv);
	vec_free(k.rv);
	vec_free(k.red);
	vec_free(k.reds);
	vec_free(k.redloop);
	return NULL;
}
