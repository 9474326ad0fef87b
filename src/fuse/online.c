/* online.c: online softmax written by hand, undone.
 *
 * Users who know FlashAttention write the softmax already fused: a running max and sums
 * they rescale themselves,
 *
 *     float m_new = fmaxf(m, x);
 *     d = d * expf(m - m_new) + expf(x - m_new);     (or d *= alpha; ... d += p;)
 *     m = m_new;
 *
 * That loop carries d through a statement that is not a reduction, so the fuser could not
 * take it. Since fusecc derives its own repairs, such a loop is rewritten back into the
 * cascade the rescaling came from, a loop taking the max and then a loop summing with the
 * final max (d += expf(x - m)), which is then fused like any other input: rolling or
 * split-k, on every target. The rewrite is exact when each rescaled update
 * t = t * F(m_old, m_new) + G(m_new) keeps t equal to the sum of G over the elements seen,
 * taken at the current max: F(r, r') * G(r) == G(r') for all r, r'. That identity is
 * checked numerically at random points for every update before anything changes; a loop
 * that fails it, or that reads the old max anywhere else, is left as written (and the
 * fuser then says what it cannot fuse). */
#include "fuse.h"

#include <math.h>
#include <string.h>

typedef VEC(Var *) VarList;
typedef VEC(Expr *) ExprList;

typedef struct Rescale {
	Stmt *s;
	Expr *f, *g;
} Rescale;

/* One loop being undone. Reads of the max before its update are the old max (`old`, a
 * stand-in variable), reads after it and reads of the new-max local are the final max. */
typedef struct Online {
	Program *p;
	Expr *m;      /* the max's lvalue: a scalar, or an element invariant in the loop */
	Var *mnew;    /* the local holding the new max (`m_new`), or NULL */
	Var *old;     /* stands for the max before this step */
	Expr *e;      /* what the max takes (x in fmaxf(m, x)) */
	Expr *maxrhs; /* the max statement's right-hand side, as written */
	int at, set;  /* the max's statement, and the one that assigns the max (same unless m_new) */
	/* `if (c) continue;` before the update: the body's statements from npre on run under
	 * the guard (NULL: none). */
	Expr *guard;
	int npre;
	/* The guard asks only whether the new max is -inf (`if (m_new == -INFINITY)
	 * continue;`, FlashAttention's check_inf, taken with the new max in P): it skips
	 * keys that leave the max as it was, so the max loop runs without it. */
	bool inert;
	/* Locals of the rewritten body with one definition, for inlining. */
	VarList defv;
	ExprList defe;
	/* The rescales found: the statement, its factor F, and G (NULL for `t *= F`, whose
	 * statement is then dropped and G taken from the additions to t). */
	VEC(Rescale) rescales;
} Online;

static bool is_max_lvalue(const Online *o, const Expr *e)
{
	return (e->kind == EX_VAR || e->kind == EX_INDEX) && expr_equal(e, o->m);
}

/* e with the max renamed: reads of the max become `old` when `before` (the statement
 * precedes the update), reads of the new-max local become the max. */
static Expr *rename_expr(Online *o, const Expr *e, bool before)
{
	if (!e)
		return NULL;
	if (is_max_lvalue(o, e))
		return before ? ex_var(o->p, o->old, e->loc) : ex_copy(o->p, e);
	if (o->mnew && e->kind == EX_VAR && e->var == o->mnew)
		return ex_copy(o->p, o->m);
	Expr *c = ex_copy(o->p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = rename_expr(o, e->args[i], before);
	return c;
}

typedef struct RenameCtx {
	Online *o;
	bool before;
} RenameCtx;

static Expr *rename_map(Program *p, const Expr *e, void *ctx)
{
	(void)p;
	RenameCtx *rc = ctx;
	return rename_expr(rc->o, e, rc->before);
}

/* Records the scalar locals of s that have one definition there (an initialised
 * declaration never assigned again), for inline_defs. */
static void collect_defs(Online *o, const Stmt *scope, const Stmt *s)
{
	if (!s)
		return;
	if (s->kind == ST_DECL && s->rhs && !s->var->ndim && !stmt_count_stores(scope, s->var)) {
		vec_push(o->defv, s->var);
		vec_push(o->defe, s->rhs);
	}
	for (int i = 0; i < s->nbody; i++)
		collect_defs(o, scope, s->body[i]);
}

/* e with the single-definition locals replaced by their definitions, recursively. */
static Expr *inline_defs(Online *o, const Expr *e, int depth)
{
	if (!e || depth > 64)
		return NULL;
	if (e->kind == EX_VAR)
		for (int i = 0; i < o->defv.n; i++)
			if (o->defv.v[i] == e->var)
				return inline_defs(o, o->defe.v[i], depth + 1);
	Expr *c = ex_copy(o->p, e);
	for (int i = 0; i < c->nargs; i++)
		if (!(c->args[i] = inline_defs(o, e->args[i], depth + 1)))
			return NULL;
	return c;
}

static bool reads_old(Online *o, const Expr *e)
{
	Expr *x = inline_defs(o, e, 0);
	return !x || expr_reads_var(x, o->old);
}

static bool same_elem(const Expr *a, const Expr *b)
{
	return (a->kind == EX_VAR || a->kind == EX_INDEX) && a->kind == b->kind && expr_equal(a, b);
}

/* `t * F` or `F * t`: F, or NULL. */
static Expr *factor_of(Expr *e, const Expr *t)
{
	if (e->kind != EX_BIN || e->bop != OP_MUL)
		return NULL;
	if (same_elem(e->args[0], t) && !expr_reads_var(e->args[1], t->var))
		return e->args[1];
	if (same_elem(e->args[1], t) && !expr_reads_var(e->args[0], t->var))
		return e->args[0];
	return NULL;
}

/* Rewrites the rescaled updates of s (the renamed body, or a statement in it) in place:
 * `t = t * F + G` becomes `t += G`; `t *= F` (and `t = t * F`, `t /= 1/F`) is dropped, its
 * G taken from the additions to t that follow. F must read the old max, G must not. */
static void find_rescales(Online *o, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && s->kind != ST_IF)
			find_rescales(o, s->body[i]);
	if (s->kind != ST_ASSIGN || !reads_old(o, s->rhs))
		return;
	Expr *t = s->lhs, *r = s->rhs;
	if (s->aop == AS_SET && r->kind == EX_VAR)
		for (int i = 0; i < o->defv.n; i++)
			if (o->defv.v[i] == r->var)
				r = o->defe.v[i]; /* l = l_new, with float l_new = l * alpha + p */
	Expr *f = NULL, *g = NULL;
	if (s->aop == AS_SET && r->kind == EX_BIN && r->bop == OP_ADD) {
		for (int k = 0; k < 2 && !f; k++)
			if ((f = factor_of(r->args[k], t)))
				g = r->args[1 - k];
		if (!f || expr_reads_var(g, t->var))
			return;
		s->aop = AS_ADD;
		s->rhs = g;
	} else if (s->aop == AS_MUL) {
		f = r;
	} else if (s->aop == AS_DIV) {
		f = ex_bin(o->p, OP_DIV, ex_flt(o->p, 1.0, TY_DOUBLE, r->loc), r, r->loc);
	} else if (s->aop == AS_SET && (f = factor_of(r, t))) {
	} else {
		return;
	}
	Rescale r1 = {s, f, g};
	vec_push(o->rescales, r1);
}

/* The additions to t->var in s other than the rescale itself: their contributions. */
static void find_adds(Online *o, Stmt *s, const Var *v, ExprList *out)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			find_adds(o, s->body[i], v, out);
	Expr *t, *g;
	Reducer red;
	if (s->kind == ST_ASSIGN && s->lhs->var == v && reduce_match(o->p, s, &t, &red, &g) && red == RED_ADD)
		vec_push(*out, g);
}

typedef struct CheckCtx {
	Online *o;
	double r_old, r_new;
	unsigned seed;
} CheckCtx;

static double check_leaf(const Expr *e, void *ctx)
{
	CheckCtx *cc = ctx;
	if (e->kind == EX_VAR && e->var == cc->o->old)
		return cc->r_old;
	if (is_max_lvalue(cc->o, e))
		return cc->r_new;
	return leaf_random(e, cc->seed);
}

/* F(r, r') * G(r) == G(r') at random points: the rescale keeps the sum at the current max. */
static bool rescale_holds(Online *o, Expr *f, Expr *g)
{
	Expr *fi = inline_defs(o, f, 0), *gi = inline_defs(o, g, 0);
	if (!fi || !gi || expr_reads_var(gi, o->old))
		return false;
	/* G at the old max: the max's reads in it become `old`. */
	Expr *g_old = gi;
	{
		Online tmp = *o;
		g_old = rename_expr(&tmp, gi, true);
	}
	unsigned rs = 2463534242u;
	int valid = 0;
	for (int trial = 0; trial < 64 && valid < 16; trial++) {
		rs ^= rs << 13, rs ^= rs >> 17, rs ^= rs << 5;
		double a = (double)(rs % 100000) / 100000.0 * 3.0 - 3.0;
		rs ^= rs << 13, rs ^= rs >> 17, rs ^= rs << 5;
		double b = a + (double)(rs % 100000) / 100000.0 * 3.0;
		CheckCtx cc = {o, a, b, (unsigned)trial * 2654435761u};
		double fv = expr_eval(fi, check_leaf, &cc);
		double gv_new = expr_eval(gi, check_leaf, &cc);
		double gv_old = expr_eval(g_old, check_leaf, &cc);
		if (!isfinite(fv) || !isfinite(gv_new) || !isfinite(gv_old))
			continue;
		valid++;
		double scale = fmax(fmax(fabs(gv_new), fabs(fv * gv_old)), 1e-30);
		if (fabs(fv * gv_old - gv_new) > 1e-9 * scale)
			return false;
	}
	return valid >= 4;
}

static bool remove_stmt(Program *p, Stmt *s, const Stmt *x)
{
	for (int i = 0; i < s->nbody; i++) {
		if (s->body[i] == x) {
			if (s->kind == ST_BLOCK) {
				memmove(s->body + i, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
				s->nbody--;
			} else {
				s->body[i] = st_block(p, NULL, 0, x->loc);
			}
			return true;
		}
		if (s->body[i] && remove_stmt(p, s->body[i], x))
			return true;
	}
	return false;
}

/* Whether s does nothing: an empty block, or a loop or if over nothing. */
static bool is_empty(const Stmt *s)
{
	if (s->kind != ST_BLOCK && s->kind != ST_FOR && s->kind != ST_IF)
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && !is_empty(s->body[i]))
			return false;
	return true;
}

/* Removes from the blocks of s the statements left doing nothing (a loop whose rescale was
 * its only statement). */
static void drop_empty(Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			drop_empty(s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	int m = 0;
	for (int i = 0; i < s->nbody; i++)
		if (!is_empty(s->body[i]))
			s->body[m++] = s->body[i];
	s->nbody = m;
}

static bool stmt_reads_or_stores(const Stmt *s, const Var *v)
{
	return stmt_reads_var(s, v) || stmt_count_stores(s, v) || stmt_declares(s, v);
}

/* The variables s declares (locals and loop iterators), in order. */
static void declared_vars(const Stmt *s, VarList *out)
{
	if (!s)
		return;
	if (s->kind == ST_DECL || s->kind == ST_FOR)
		vec_push(*out, s->var);
	for (int i = 0; i < s->nbody; i++)
		declared_vars(s->body[i], out);
}

/* A copy of s whose declared variables are new ones of the same names (a sibling loop's
 * own locals, as if the user had written the statements twice). */
static Stmt *copy_fresh(Program *p, const Stmt *s)
{
	VarList vs = {0};
	declared_vars(s, &vs);
	Stmt *c = stmt_copy(p, s);
	for (int i = 0; i < vs.n; i++) {
		Var *nv = var_new(p, vs.v[i]->kind, vs.v[i]->name, vs.v[i]->ty, vs.v[i]->loc);
		int id = nv->id;
		*nv = *vs.v[i];
		nv->id = id;
		c = stmt_subst_var(p, c, vs.v[i], nv);
	}
	vec_free(vs);
	return c;
}

/* Whether every store in s is to one of vs. */
static bool stores_only(const Stmt *s, const VarList *vs)
{
	if (!s)
		return true;
	if (s->kind == ST_ASSIGN) {
		bool in = false;
		for (int k = 0; k < vs->n; k++)
			in |= vs->v[k] == s->lhs->var;
		if (!in)
			return false;
	}
	for (int i = 0; i < s->nbody; i++)
		if (!stores_only(s->body[i], vs))
			return false;
	return true;
}

static void push_once(VarList *vs, Var *v)
{
	for (int k = 0; k < vs->n; k++)
		if (vs->v[k] == v)
			return;
	vec_push(*vs, v);
}

/* `if (g) { body[0..n) }`. */
static Stmt *st_guard(Program *p, Expr *g, Stmt **body, int n, Loc l)
{
	Stmt *s = st_new(p, ST_IF, l), *blk = st_block(p, body, n, l);
	s->cond = ex_copy(p, g);
	st_set_body(p, s, &blk, 1);
	return s;
}

/* A loop over the range of `loop` holding the statements of body before `at` that the
 * statements tail[0..n) need (a backward slice over the body's locals), then tail, with
 * variables of its own; with a guard g, the kept statements from index npre on and tail
 * run under `if (g)`. NULL when one of those statements also stores what the loop keeps
 * (it cannot be split off). */
static Stmt *slice_loop(Program *p, Stmt *loop, Stmt *body, int at, Stmt **tail, int n, Expr *g, int npre)
{
	VarList need = {0}, locals = {0};
	for (int i = 0; i < at; i++)
		declared_vars(body->body[i], &locals);
	for (int k = 0; k < locals.n; k++) {
		bool read = g && expr_reads_var(g, locals.v[k]);
		for (int t = 0; t < n; t++)
			read |= stmt_reads_var(tail[t], locals.v[k]);
		if (read)
			push_once(&need, locals.v[k]);
	}
	bool *keep = arena_alloc(&p->arena, sizeof(bool) * (size_t)(at + 1));
	bool ok = true;
	for (int i = at - 1; i >= 0 && ok; i--) {
		Stmt *s = body->body[i];
		for (int k = 0; k < need.n && !keep[i]; k++)
			keep[i] = stmt_writes_var(s, need.v[k]) || stmt_declares(s, need.v[k]);
		if (!keep[i])
			continue;
		ok = stores_only(s, &locals);
		for (int k = 0; k < locals.n; k++)
			if (stmt_reads_var(s, locals.v[k]))
				push_once(&need, locals.v[k]);
	}
	vec_free(locals);
	vec_free(need);
	if (!ok)
		return NULL;
	StmtVec kept = {0}, under = {0};
	for (int i = 0; i < at; i++)
		if (keep[i])
			vec_push(*(g && i >= npre ? &under : &kept), body->body[i]);
	for (int t = 0; t < n; t++)
		vec_push(*(g ? &under : &kept), tail[t]);
	if (g)
		vec_push(kept, st_guard(p, g, under.v, under.n, body->loc));
	Stmt *blk = st_block(p, kept.v, kept.n, body->loc);
	vec_free(kept);
	vec_free(under);
	return copy_fresh(p, st_for(p, loop->var, loop->lo, loop->hi, loop->step, blk, loop->loc));
}

/* The loop computing the max alone. */
static Stmt *max_loop(Online *o, Stmt *loop, Stmt *body)
{
	Stmt *mx = st_assign(o->p, ex_copy(o->p, o->m), AS_SET, ex_copy(o->p, o->maxrhs), body->body[o->at]->loc);
	return slice_loop(o->p, loop, body, o->at, &mx, 1, o->inert ? NULL : o->guard, o->npre);
}

/* Whether every assignment in s reads one of the variables in dep (the rescales of a
 * branch taken when the max grows: they read the max, or a factor computed from it). */
static bool all_read(const Stmt *s, const VarList *dep)
{
	if (s->kind == ST_ASSIGN) {
		for (int k = 0; k < dep->n; k++)
			if (expr_reads_var(s->rhs, dep->v[k]))
				return true;
		return false;
	}
	if (s->kind != ST_BLOCK && s->kind != ST_FOR)
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && !all_read(s->body[i], dep))
			return false;
	return true;
}

/* Whether a and b agree at random points (leaves fixed by their printed form). */
static bool agree(const Expr *a, const Expr *b)
{
	int valid = 0;
	for (unsigned seed = 1; seed <= 16; seed++) {
		double x = expr_eval(a, leaf_random_ctx, &seed), y = expr_eval(b, leaf_random_ctx, &seed);
		if (!isfinite(x) || !isfinite(y))
			continue;
		valid++;
		if (fabs(x - y) > 1e-9 * fmax(fmax(fabs(x), fabs(y)), 1e-30))
			return false;
	}
	return valid >= 4;
}

/* The two arms of `if (x > m)` being merged into one step (merge_arms): the new max mnv,
 * each arm's locals of one definition (read through them), the else arm's loop iterators
 * and the then arm's they are read as, and the variables the arms store but the max. */
typedef struct Arms {
	Program *p;
	const Expr *x, *m, *mnv;
	Online tdefs, edefs;
	VarList from, to;
	const Stmt *els;
	Stmt **then0;
	int nthen, at;
} Arms;

/* e of the else arm with its locals read through and its iterators renamed to the then
 * arm's; NULL when a local cannot be read through. */
static Expr *else_expr(Arms *a, const Expr *e)
{
	Expr *r = inline_defs(&a->edefs, e, 0);
	for (int i = 0; r && i < a->from.n; i++)
		r = expr_subst_var(a->p, r, a->from.v[i], a->to.v[i]);
	return r;
}

/* Whether e reads a variable that an arm stores, other than the max: an else contribution
 * that does not, moved to its then twin's place, reads what it read where it stood. */
static bool reads_arm_stores(const Arms *a, const Expr *e)
{
	if (stmt_stores_read_by(a->els, e))
		return true;
	for (int k = 0; k < a->nthen; k++)
		if (k != a->at && stmt_stores_read_by(a->then0[k], e))
			return true;
	return false;
}

/* Whether s, of the then arm, only rescales (`t *= F`, `t /= F`, `t = t * F`, declarations
 * and loops of those): a statement that may run where the max does not grow, where its
 * factor is 1 (undo_loop checks each factor). */
static bool only_rescales(const Stmt *s)
{
	if (s->kind == ST_DECL)
		return true;
	if (s->kind == ST_ASSIGN)
		return s->aop == AS_MUL || s->aop == AS_DIV || (s->aop == AS_SET && factor_of(s->rhs, s->lhs));
	if (s->kind != ST_FOR && s->kind != ST_BLOCK)
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && !only_rescales(s->body[i]))
			return false;
	return true;
}

/* The unpaired then statement among st0[0..n) that pairs with else statement s: a loop
 * over the same range for a loop, `t = ...` for a sum into t (*t); n when none. */
static int twin(Arms *a, Stmt **st0, const bool *paired, int n, const Stmt *s, const Expr *t)
{
	for (int k = 0; k < n; k++) {
		Stmt *u = st0[k];
		if (paired[k] || u->kind != (t ? ST_ASSIGN : ST_FOR))
			continue;
		if (t && u->aop == AS_SET && expr_equal(u->lhs, t))
			return k;
		if (!t && u->step == s->step && expr_equal(u->lo, else_expr(a, s->lo)) && expr_equal(u->hi, else_expr(a, s->hi)))
			return k;
	}
	return n;
}

static bool merge_stmts(Arms *a, Stmt **st0, Stmt **st, int n, Stmt **es, int ne);

/* The else loop s paired with then loop st0[k] (st[k] with the max renamed): their bodies
 * merged, st[k] replaced by a loop of the merged body. */
static bool merge_loop(Arms *a, Stmt *st0k, Stmt **stk, Stmt *s)
{
	int nt, nt1, nb;
	Stmt **t0 = slot_stmts(&st0k->body[0], &nt), **t1 = slot_stmts(&(*stk)->body[0], &nt1);
	Stmt **eb = slot_stmts(&s->body[0], &nb);
	Stmt **t1c = arena_alloc(&a->p->arena, sizeof(Stmt *) * (size_t)(nt + 1));
	memcpy(t1c, t1, sizeof(Stmt *) * (size_t)nt);
	vec_push(a->from, s->var);
	vec_push(a->to, st0k->var);
	bool ok = nt == nt1 && merge_stmts(a, t0, t1c, nt, eb, nb);
	a->from.n--, a->to.n--;
	if (!ok)
		return false;
	Stmt *c = st_new(a->p, ST_FOR, (*stk)->loc);
	*c = **stk;
	c->body = arena_alloc(&a->p->arena, sizeof(Stmt *));
	c->nbody = 1;
	c->body[0] = st_block(a->p, t1c, nt, (*stk)->loc);
	*stk = c;
	return true;
}

/* Pairs the else arm's statements es[0..ne) with the then arm's st0[0..n) (as written; st:
 * with x, and the max after `m = x`, read as the new max mnv): each else `t += G2` with the
 * then `t = t * F + G1`, which becomes `t = t * F + G2` at mnv when G1 is G2 with the max
 * grown to x (checked at random points), so that it gives both arms' values; each else
 * loop with a then loop over the same range, their bodies paired alike; the else arm's
 * declarations are read through. Then statements left unpaired must only rescale. false
 * when the arms do not pair so (the if is then left as written). */
static bool merge_stmts(Arms *a, Stmt **st0, Stmt **st, int n, Stmt **es, int ne)
{
	Program *p = a->p;
	bool *paired = arena_alloc(&p->arena, sizeof(bool) * (size_t)(n + 1));
	memset(paired, 0, sizeof(bool) * (size_t)(n + 1));
	for (int e = 0; e < ne; e++) {
		Stmt *s = es[e];
		if (s->kind == ST_DECL) {
			bool def = false;
			for (int i = 0; i < a->edefs.defv.n; i++)
				def |= a->edefs.defv.v[i] == s->var;
			if (!def)
				return false;
			continue;
		}
		if (s->kind == ST_FOR) {
			int k = twin(a, st0, paired, n, s, NULL);
			if (k == n || !merge_loop(a, st0[k], &st[k], s))
				return false;
			paired[k] = true;
			continue;
		}
		Expr *t, *g2;
		Reducer red;
		if (!reduce_match(p, s, &t, &red, &g2) || red != RED_ADD || !(t = else_expr(a, t)) || !(g2 = else_expr(a, g2)) ||
		    reads_arm_stores(a, g2))
			return false;
		int k = twin(a, st0, paired, n, s, t);
		Expr *r = k < n ? st[k]->rhs : NULL;
		if (!r || r->kind != EX_BIN || r->bop != OP_ADD)
			return false;
		int side = factor_of(r->args[0], st[k]->lhs) ? 0 : factor_of(r->args[1], st[k]->lhs) ? 1 : -1;
		Expr *g1 = side < 0 ? NULL : inline_defs(&a->tdefs, r->args[1 - side], 0);
		if (!g1 || !agree(expr_subst_equal(p, g1, a->mnv, a->x), expr_subst_equal(p, g2, a->m, a->x)))
			return false;
		Stmt *c = st_new(p, ST_ASSIGN, st[k]->loc);
		*c = *st[k];
		c->rhs = ex_bin(p, OP_ADD, r->args[side], expr_subst_equal(p, g2, a->m, a->mnv), r->loc);
		st[k] = c;
		paired[k] = true;
	}
	for (int k = 0; k < n; k++)
		if (!paired[k] && !only_rescales(st0[k]))
			return false;
	return true;
}

/* With an else branch of sums (`if (x > m) { d = d * expf(m - x) + 1; m = x; } else
 * d += expf(x - m);`, or FlashAttention by hand: `if (s > m) { float c = expf(m - s);
 * l = l * c + 1; for (d) acc[d] = acc[d] * c + v[j][d]; m = s; } else { float p =
 * expf(s - m); l += p; for (d) acc[d] += p * v[j][d]; }`): the then arm st0[0..n) (at: its
 * `m = x`), st its statements at the new max mnv, merged with the else arm els by
 * merge_stmts into the one step that gives both arms' values; without an else, the then
 * statements must only rescale (they run where the max does not grow). */
static bool merge_arms(Program *p, Stmt **st0, Stmt **st, int n, int at, Stmt *els, const Expr *x, const Expr *m, const Expr *mnv)
{
	Arms a = {.p = p, .x = x, .m = m, .mnv = mnv, .tdefs = {.p = p}, .edefs = {.p = p}, .els = els, .then0 = st0, .nthen = n, .at = at};
	int ne = 0;
	Stmt **es = els ? slot_stmts(&els, &ne) : NULL;
	Stmt *tb = st_block(p, st, n, st0[0]->loc);
	collect_defs(&a.tdefs, tb, tb);
	if (els)
		collect_defs(&a.edefs, els, els);
	/* the max's statement pairs with nothing and is kept out */
	Stmt **s0 = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n), **s1 = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n);
	int k1 = 0;
	for (int k = 0; k < n; k++)
		if (k != at)
			s0[k1] = st0[k], s1[k1++] = st[k];
	bool ok = merge_stmts(&a, s0, s1, k1, es, ne);
	for (int k = 0, q = 0; ok && k < n; k++)
		if (k != at)
			st[k] = s1[q++];
	vec_free(a.tdefs.defv);
	vec_free(a.tdefs.defe);
	vec_free(a.edefs.defv);
	vec_free(a.edefs.defe);
	vec_free(a.from);
	vec_free(a.to);
	return ok;
}

/* Whether s is `if (x > m)` (or >=, m < x, m <= x) with m a float scalar that x does
 * not read: sets *x and *m. */
static bool max_test(const Stmt *s, Expr **x, Expr **m)
{
	if (s->kind != ST_IF || s->cond->kind != EX_BIN)
		return false;
	Expr *c = s->cond;
	if (c->bop == OP_GT || c->bop == OP_GE)
		*x = c->args[0], *m = c->args[1];
	else if (c->bop == OP_LT || c->bop == OP_LE)
		*x = c->args[1], *m = c->args[0];
	else
		return false;
	return (*m)->kind == EX_VAR && scalar_is_float((*m)->ty) && !expr_reads_var(*x, (*m)->var);
}

/* `T m_new = fmaxf(m, x);`: the new max an if-converted `if (x > m)` computes first. */
static Stmt *new_max_decl(Program *p, Var *mn, const Expr *m, const Expr *x, Loc l)
{
	Expr *args[2] = {ex_copy(p, m), ex_copy(p, x)};
	return st_decl(p, mn, ex_call(p, FN_FMAX, m->ty == TY_DOUBLE, args, l), l);
}

/* `if (x > m) { rescales...; m = x; }` (the rescale done only when the max grows) becomes
 * the unconditional form undo_loop reads: `T m_new = fmaxf(m, x); rescales with x read as
 * m_new; m = m_new;`. Where the max does not grow, the rescales now run with m_new == m,
 * a factor of 1, which undo_loop's numeric check of each rescale (F(r, r) G(r) = G(r))
 * confirms before anything is kept. `m = x` may stand anywhere in the branch (statements
 * after it read the max as x); every other statement of the branch must depend on the
 * old max. An else arm is merged in by merge_arms. */
static void unbranch_max(Program *p, Stmt *body)
{
	for (int i = 0; i < body->nbody; i++) {
		Stmt *f = body->body[i];
		Expr *x, *m;
		if (!max_test(f, &x, &m))
			continue;
		int n;
		Stmt **st0 = slot_stmts(&f->body[0], &n);
		if (n < 2)
			continue;
		int at = -1;
		for (int k = 0; k < n && at < 0; k++)
			if (st0[k]->kind == ST_ASSIGN && st0[k]->aop == AS_SET && expr_equal(st0[k]->lhs, m) && expr_equal(st0[k]->rhs, x))
				at = k;
		if (at < 0)
			continue;
		/* the branch's statements with x, and the max after `m = x`, read as the new max */
		Var *mn = var_new(p, VAR_LOCAL, "m_new", m->ty, f->loc);
		Expr *mnv = ex_var(p, mn, f->loc);
		Stmt **st = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n);
		for (int k = 0; k < n; k++) {
			Stmt *s = k > at ? stmt_map_exprs(p, st0[k], expr_subst_equal_map, (const Expr *[]){m, x}) : st0[k];
			st[k] = k == at ? s : stmt_map_exprs(p, s, expr_subst_equal_map, (const Expr *[]){x, mnv});
		}
		if (!merge_arms(p, st0, st, n, at, f->nbody > 1 ? f->body[1] : NULL, x, m, mnv))
			continue;
		VarList dep = {0};
		vec_push(dep, m->var);
		bool ok = true;
		for (int k = 0; k < n && ok; k++) {
			if (k == at)
				continue;
			if (st[k]->kind == ST_DECL && st[k]->rhs && !st[k]->var->ndim) {
				for (int q = 0; q < dep.n; q++)
					if (expr_reads_var(st[k]->rhs, dep.v[q])) {
						vec_push(dep, st[k]->var);
						break;
					}
				ok = dep.v[dep.n - 1] == st[k]->var;
			} else {
				ok = all_read(st[k], &dep) && !stmt_writes_var(st[k], m->var);
			}
		}
		vec_free(dep);
		if (!ok)
			continue;
		StmtVec out = {0};
		vec_push(out, new_max_decl(p, mn, m, x, f->loc));
		for (int k = 0; k < n; k++)
			if (k != at)
				vec_push(out, st[k]);
		vec_push(out, st_assign(p, ex_copy(p, m), AS_SET, ex_copy(p, mnv), st0[at]->loc));
		stmt_replace(p, body, f, out.v, out.n);
		i += out.n - 1;
		vec_free(out);
	}
}

/* A loop body `P...; if (g) { B... }`, the form `if (c) continue;` before the update takes
 * in the front end (ggml's `if (mv == -INFINITY) continue;`): P stores only its own
 * locals, the if has no else, and g reads nothing B stores, so that each loop undo_loop
 * makes may run P and then B's part under g. Returns g, with *flat P then B's statements
 * and *npre P's count; NULL (and *flat body) when the body is not so. */
static Expr *split_guard(Program *p, Stmt *body, Stmt **flat, int *npre)
{
	*flat = body;
	int n = body->nbody;
	Stmt *f = n ? body->body[n - 1] : NULL;
	if (!f || f->kind != ST_IF || (f->nbody > 1 && f->body[1]) || stmt_stores_read_by(f->body[0], f->cond))
		return NULL;
	VarList locals = {0};
	for (int i = 0; i < n - 1; i++)
		declared_vars(body->body[i], &locals);
	bool ok = true;
	for (int i = 0; i < n - 1 && ok; i++)
		ok = stores_only(body->body[i], &locals);
	vec_free(locals);
	if (!ok)
		return NULL;
	int nb;
	Stmt **b = slot_stmts(&f->body[0], &nb);
	Expr *cond = f->cond;
	/* `if (c1) continue; if (c2) continue;` nests one guard in the other: one guard c1 && c2 */
	while (nb == 1 && b[0]->kind == ST_IF && !(b[0]->nbody > 1 && b[0]->body[1]) && !stmt_stores_read_by(b[0]->body[0], b[0]->cond)) {
		cond = ex_bin(p, OP_LAND, cond, b[0]->cond, b[0]->loc);
		b = slot_stmts(&b[0]->body[0], &nb);
	}
	StmtVec st = {0};
	for (int i = 0; i < n - 1; i++)
		vec_push(st, body->body[i]);
	for (int i = 0; i < nb; i++)
		vec_push(st, b[i]);
	*flat = st_block(p, st.v, st.n, body->loc);
	*npre = n - 1;
	vec_free(st);
	return cond;
}

/* rest with its statements that are not among pre[0..npre) (those lead it) under `if (g)`. */
static Stmt *guard_rest(Program *p, Stmt *rest, Stmt **pre, int npre, Expr *g)
{
	int k = 0;
	for (bool in = true; in && k < rest->nbody; k += in) {
		in = false;
		for (int q = 0; q < npre; q++)
			in |= rest->body[k] == pre[q];
	}
	Stmt *s = st_guard(p, g, rest->body + k, rest->nbody - k, rest->loc);
	StmtVec out = {0};
	for (int i = 0; i < k; i++)
		vec_push(out, rest->body[i]);
	vec_push(out, s);
	Stmt *b = st_block(p, out.v, out.n, rest->loc);
	vec_free(out);
	return b;
}

/* A local of select_factors: its declaration's index in the body, and its value in each
 * arm (NULL: the arm leaves it), the max read as the new max where the arm has grown it. */
typedef struct Factor {
	Var *v;
	int decl;
	Expr *arm[2];
} Factor;
typedef VEC(Factor) FactorList;

/* The index of the declaration of scalar local v among body[0..i), with a literal
 * initialiser and v used nowhere between it and body[i]; -1 otherwise. */
static int factor_decl(const Stmt *body, int i, const Var *v)
{
	for (int k = i - 1; k >= 0; k--) {
		Stmt *d = body->body[k];
		if (d->kind == ST_DECL && d->var == v) {
			Expr *r = d->rhs && !v->ndim ? expr_uncast(d->rhs) : NULL;
			return r && (r->kind == EX_INT || r->kind == EX_FLT) ? k : -1;
		}
		if (stmt_reads_or_stores(d, v))
			return -1;
	}
	return -1;
}

/* Records s, an assignment `v = e` in arm a of the if body[i], as v's value val there;
 * false when s is not one (v a local declared before the if as factor_decl wants) or the
 * arm sets v twice. */
static bool set_factor(FactorList *fs, const Stmt *body, int i, const Stmt *s, Expr *val, int a)
{
	if (s->kind != ST_ASSIGN || s->aop != AS_SET || s->lhs->kind != EX_VAR)
		return false;
	int k = 0;
	while (k < fs->n && fs->v[k].v != s->lhs->var)
		k++;
	if (k == fs->n) {
		Factor f = {s->lhs->var, factor_decl(body, i, s->lhs->var), {NULL, NULL}};
		if (f.decl < 0)
			return false;
		vec_push(*fs, f);
	}
	if (fs->v[k].arm[a])
		return false;
	fs->v[k].arm[a] = val;
	return true;
}

/* One expression of the new max mn giving v's value in both arms of `if (x > m)`: where
 * the max grows (mn = x) and where it does not (mn = m). Tried: the then-arm's value, the
 * else-arm's with m read as mn, and the then-arm's with x read as mn, each checked at random points against both arms (the
 * body's single-definition locals before the if read through their definitions, so that
 * `Mold = M` is M). NULL when neither agrees. */
static Expr *select_value(Program *p, Online *defs, const Stmt *body, const Factor *f, const Expr *x, const Expr *m, const Expr *mn)
{
	Expr *init = body->body[f->decl]->rhs;
	Expr *a = f->arm[0] ? f->arm[0] : init, *b = f->arm[1] ? f->arm[1] : init;
	Expr *cand[3] = {a, expr_subst_equal(p, b, m, mn), expr_subst_equal(p, a, x, mn)};
	Expr *want_a = inline_defs(defs, expr_subst_equal(p, a, mn, x), 0), *want_b = inline_defs(defs, b, 0);
	for (int k = 0; k < 3 && want_a && want_b; k++) {
		Expr *ea = inline_defs(defs, expr_subst_equal(p, cand[k], mn, x), 0);
		Expr *eb = inline_defs(defs, expr_subst_equal(p, cand[k], mn, m), 0);
		if (ea && eb && agree(ea, want_a) && agree(eb, want_b))
			return cand[k];
	}
	return NULL;
}

/* ggml's form of the step where the max grows (llama.cpp's CPU flash attention):
 *
 *     const float Mold = M; float ms = 1.0f, vs = 1.0f;
 *     if (s > M) { M = s; ms = expf(Mold - M); for (d) V[d] *= ms; } else { vs = expf(s - M); }
 *
 * The factor locals (ms, vs: declared before the if with a literal, assigned only in its
 * arms) become one expression each of the new max m_new = fmaxf(M, s) that gives both
 * arms' values (expf(Mold - m_new), expf(s - m_new)), checked by select_value; the if
 * becomes `m_new = fmaxf(M, s); ms = ...; vs = ...; rescales; M = m_new;`, the
 * unconditional form undo_loop reads. The then-arm's other statements (the rescales)
 * follow `M = s` and read only factors that read the old max, which undo_loop's check of
 * each rescale then proves to be 1 where the max does not grow. Left as written when the
 * arms hold anything else or a value is not one expression. */
static void select_factors(Program *p, Stmt *body)
{
	for (int i = 0; i < body->nbody; i++) {
		Stmt *f = body->body[i];
		Expr *x, *m;
		if (!max_test(f, &x, &m))
			continue;
		Var *mn = var_new(p, VAR_LOCAL, "m_new", m->ty, f->loc);
		Expr *mnv = ex_var(p, mn, f->loc);
		FactorList fs = {0};
		StmtVec resc = {0};
		int nt, ne;
		Stmt **ts = slot_stmts(&f->body[0], &nt), **es = slot_stmts(f->nbody > 1 ? &f->body[1] : NULL, &ne);
		bool ok = true, grown = false;
		for (int k = 0; k < nt && ok; k++) {
			Stmt *s = ts[k];
			if (!grown && s->kind == ST_ASSIGN && s->aop == AS_SET && expr_equal(s->lhs, m) && expr_equal(s->rhs, x)) {
				grown = true;
				continue;
			}
			Expr *val = s->kind == ST_ASSIGN ? (grown ? expr_subst_equal(p, s->rhs, m, mnv) : s->rhs) : NULL;
			if (val && !resc.n && set_factor(&fs, body, i, s, val, 0))
				continue;
			ok = grown && s->kind != ST_DECL && !stmt_writes_var(s, m->var);
			vec_push(resc, stmt_map_exprs(p, s, expr_subst_equal_map, (const Expr *[]){m, mnv}));
		}
		for (int k = 0; k < ne && ok; k++)
			ok = es[k]->kind == ST_ASSIGN && set_factor(&fs, body, i, es[k], es[k]->rhs, 1);
		ok &= grown && fs.n > 0;
		Online defs = {.p = p};
		for (int k = 0; k < i; k++)
			collect_defs(&defs, body, body->body[k]);
		Expr **val = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(fs.n + 1));
		VarList old = {0};
		for (int k = 0; k < fs.n && ok; k++) {
			ok = stmt_count_stores(body, fs.v[k].v) == stmt_count_stores(f, fs.v[k].v) &&
			     (val[k] = select_value(p, &defs, body, &fs.v[k], x, m, mnv));
			for (int q = 0; q < fs.n && ok; q++)
				ok = !expr_reads_var(val[k], fs.v[q].v);
			Expr *vi = ok ? inline_defs(&defs, val[k], 0) : NULL;
			if (vi && expr_reads_var(vi, m->var))
				vec_push(old, fs.v[k].v);
		}
		/* each rescale reads a factor of the old max, and no other factor */
		for (int k = 0; k < resc.n && ok; k++) {
			ok = all_read(resc.v[k], &old);
			for (int q = 0; q < fs.n && ok; q++) {
				bool is_old = false;
				for (int r = 0; r < old.n; r++)
					is_old |= old.v[r] == fs.v[q].v;
				ok = is_old || !stmt_reads_var(resc.v[k], fs.v[q].v);
			}
		}
		if (ok) {
			StmtVec out = {0};
			for (int k = 0; k < i; k++) {
				bool decl = false;
				for (int q = 0; q < fs.n; q++)
					decl |= fs.v[q].decl == k;
				if (!decl)
					vec_push(out, body->body[k]);
			}
			vec_push(out, new_max_decl(p, mn, m, x, f->loc));
			for (int q = 0; q < fs.n; q++)
				vec_push(out, st_decl(p, fs.v[q].v, ex_as_type(p, fs.v[q].v->ty, ex_copy(p, val[q])), body->body[fs.v[q].decl]->loc));
			for (int k = 0; k < resc.n; k++)
				vec_push(out, resc.v[k]);
			vec_push(out, st_assign(p, ex_copy(p, m), AS_SET, ex_copy(p, mnv), f->loc));
			int next = out.n - 1;
			for (int k = i + 1; k < body->nbody; k++)
				vec_push(out, body->body[k]);
			st_set_body(p, body, out.v, out.n);
			vec_free(out);
			i = next;
		}
		vec_free(fs);
		vec_free(resc);
		vec_free(old);
		vec_free(defs.defv);
		vec_free(defs.defe);
	}
}

static bool starts_at_zero(Stmt *parent, int idx, const Var *v);
static bool is_literal(const Expr *e, double v);

/* The declaration of v among parent->body[0..idx) when nothing after it there writes v;
 * NULL otherwise. */
static Stmt *decl_before(Stmt *parent, int idx, const Var *v)
{
	for (int q = idx - 1; q >= 0; q--) {
		Stmt *u = parent->body[q];
		if (u->kind == ST_DECL && u->var == v)
			return u;
		if (stmt_writes_var(u, v))
			return NULL;
	}
	return NULL;
}

/* The elements of array a a statement root may touch: at subscripts that are iterators of
 * loops of root running from 0 to hi[k] (the zeroing loops' bounds). */
typedef struct Within {
	const Stmt *root;
	const Var *a;
	Expr *const *hi;
} Within;

/* Whether every element of w->a that e reads or stores is within w (an ExprTest). */
static bool expr_within(const Expr *e, void *ctx)
{
	const Within *w = ctx;
	if (e->kind == EX_INDEX && e->var == w->a)
		for (int k = 0; k < e->nargs; k++) {
			const Expr *x = e->args[k];
			const Stmt *l = x->kind == EX_VAR ? stmt_loop_of(w->root, x->var) : NULL;
			if (!l || !is_literal(expr_uncast(l->lo), 0) || !expr_equal(l->hi, w->hi[k]))
				return false;
		}
	for (int i = 0; i < e->nargs; i++)
		if (!expr_within(e->args[i], ctx))
			return false;
	return true;
}

/* Whether the local array a is zeroed by the last statement before parent->body[idx]
 * that writes it: loops from 0 over each of its dimensions storing 0 (what `= {0}`,
 * memset and a zeroing loop become; a rescaled array seeded otherwise would need its seed
 * rescaled too). A loop may stop
 * short of the extent (`float acc[256]` zeroed over `d < D`, the largest head dim
 * declared, the model's used) when every later statement of parent reads and stores a
 * only at iterators of loops with the same bounds. */
static bool zeroed_before(Stmt *parent, int idx, const Var *a, const Expr *t)
{
	Stmt *s = NULL;
	int at = -1;
	for (int i = idx - 1; i >= 0 && !s; i--)
		if (stmt_writes_var(parent->body[i], a))
			s = parent->body[at = i];
	Var *iv[16];
	Expr *hi[16];
	bool shorter = false;
	int n = 0;
	/* a row of a (`part[sp][d]` of a split written by hand) zeroed at the leading
	 * subscripts the rescaled element t has: they do not move with the loop */
	int lead = 0;
	while (s && s->kind == ST_FOR && n < 16 && n < a->ndim && is_literal(expr_uncast(s->lo), 0)) {
		int nb;
		Stmt **b = slot_stmts(&s->body[0], &nb);
		const Stmt *z = nb == 1 ? b[0] : NULL;
		if (n == 0 && t && t->kind == EX_INDEX && z && z->kind == ST_ASSIGN && z->lhs->kind == EX_INDEX && z->lhs->var == a)
			for (lead = 0; lead < a->ndim - 1 && expr_equal(z->lhs->args[lead], t->args[lead]) && !expr_reads_var(t->args[lead], parent->body[idx]->var);)
				lead++;
		shorter |= !expr_equal(s->hi, a->dims[lead + n]);
		hi[n] = s->hi;
		iv[n++] = s->var;
		s = (Stmt *)z;
	}
	if (!s || lead + n != a->ndim || s->kind != ST_ASSIGN || s->aop != AS_SET || s->lhs->kind != EX_INDEX || s->lhs->var != a ||
	    !is_literal(expr_uncast(s->rhs), 0))
		return false;
	for (int k = 0; k < n; k++)
		if (s->lhs->args[lead + k]->kind != EX_VAR || s->lhs->args[lead + k]->var != iv[k])
			return false;
	if (shorter && lead)
		return false;
	for (int i = at + 1; shorter && i < parent->nbody; i++)
		if (!stmt_all_exprs(parent->body[i], expr_within, &(Within){parent->body[i], a, hi}))
			return false;
	return true;
}

/* Why the first loop that looked like a hand-written online softmax is left as written,
 * for the GPU printers' fallback warning (Region.unfused_why); NULL: none was. */
typedef struct Refusal {
	const char *why;
} Refusal;

static void refuse(Refusal *rf, const char *why)
{
	if (!rf->why)
		rf->why = why;
}

/* The max that the last statement f of a loop's body, `if (g) { ... }`, takes in its arm
 * and g reads (`if (s < m - THRESH) continue;` before `m_new = fmaxf(m, s); ... m =
 * m_new;`), or NULL: a guard split_guard cannot lift, since which keys it skips depends on
 * the keys before. */
static const Var *guard_reads_max(Program *p, const Stmt *f)
{
	if (!f || f->kind != ST_IF || (f->nbody > 1 && f->body[1]) || !f->body[0])
		return NULL;
	int n;
	Stmt **b = slot_stmts((Stmt **)&f->body[0], &n);
	for (int i = 0; i < n; i++) {
		Stmt *s = b[i], probe;
		Expr *t, *g;
		Reducer red;
		if (s->kind == ST_ASSIGN && s->aop == AS_SET && s->lhs->kind == EX_VAR && s->rhs->kind == EX_VAR) {
			/* `m = m_new;` after `T m_new = fmaxf(m, x);` */
			for (int k = 0; k < i; k++)
				if (b[k]->kind == ST_DECL && b[k]->var == s->rhs->var && b[k]->rhs) {
					probe = *s;
					probe.rhs = b[k]->rhs;
					s = &probe;
				}
		}
		if (s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR && reduce_match(p, s, &t, &red, &g) && red == RED_MAX &&
		    expr_reads_var(f->cond, s->lhs->var))
			return s->lhs->var;
	}
	return NULL;
}

/* Reads of a local of body after statement at that holds the new max made safe,
 * `float m_safe = (m_new == -INFINITY) ? 0.0f : m_new;` (FlashAttention's Check_inf; any
 * finiteness test, a literal in the other arm), replaced by m_new, and its declaration
 * dropped: the fused program reads every max sanitised the same way (a finite max as is,
 * zero for a row masked so far), where the exponentials of masked scores are zero. The
 * index of the statement dropped, or -1. */
static int drop_safe_max(Program *p, Stmt *body, int at, const Var *mnew)
{
	for (int i = at + 1; i < body->nbody; i++) {
		Stmt *d = body->body[i];
		bool val;
		const Expr *x = d->kind == ST_DECL && d->rhs && !d->var->ndim && d->rhs->kind == EX_COND ? repair_infinity_test(d->rhs->args[0], &val) : NULL;
		if (!x || x->kind != EX_VAR || x->var != mnew)
			continue;
		const Expr *kept = d->rhs->args[val ? 1 : 2], *other = d->rhs->args[val ? 2 : 1];
		if (kept->kind != EX_VAR || kept->var != mnew || !is_literal(other, 0.0) || stmt_count_stores(body, d->var) != 0)
			continue;
		for (int k = i + 1; k < body->nbody; k++)
			body->body[k] = stmt_subst_var(p, body->body[k], d->var, (Var *)mnew);
		memmove(body->body + i, body->body + i + 1, sizeof(Stmt *) * (size_t)(body->nbody - i - 1));
		body->nbody--;
		return i;
	}
	return -1;
}

/* Undoes the hand-written online softmax of loop parent->body[idx], if it is one: the loop
 * becomes two, the max's and the rest's with the rescales gone. false: left as written
 * (why, where it can say, into rf). */
static bool undo_loop(Program *p, Stmt *parent, int idx, Refusal *rf)
{
	Stmt *loop = parent->body[idx];
	if (loop->kind != ST_FOR || !loop->body[0])
		return false;
	Stmt *body = loop->body[0];
	if (body->kind == ST_IF) /* `if (c) continue;` first: the body is the guard alone */
		body = st_block(p, &loop->body[0], 1, body->loc);
	if (body->kind != ST_BLOCK)
		return false;
	/* a rescale under `if (x > m)`: read unconditionally, on a copy until it undoes */
	body = st_block(p, body->body, body->nbody, body->loc);
	Online o = {.p = p, .at = -1, .set = -1};
	o.guard = split_guard(p, body, &body, &o.npre);
	Stmt **pre = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(o.npre + 1));
	memcpy(pre, body->body, sizeof(Stmt *) * (size_t)o.npre);
	select_factors(p, body);
	unbranch_max(p, body);
	for (int i = 0; i < o.npre; i++)
		if (body->body[i] != pre[i])
			return false;
	/* the max: `T m_new = fmaxf(m, x);` ... `m = m_new;`, or `m = fmaxf(m, x);` */
	for (int i = 0; i < body->nbody && o.at < 0; i++) {
		Stmt *s = body->body[i];
		Expr *t, *g;
		Reducer red;
		if (s->kind == ST_DECL && s->rhs && !s->var->ndim && scalar_is_float(s->var->ty)) {
			for (int k = i + 1; k < body->nbody; k++) {
				Stmt *u = body->body[k];
				if (u->kind == ST_ASSIGN && u->aop == AS_SET && u->rhs->kind == EX_VAR && u->rhs->var == s->var &&
				    (u->lhs->kind == EX_VAR || u->lhs->kind == EX_INDEX)) {
					Stmt probe = *u;
					probe.rhs = s->rhs;
					if (reduce_match(p, &probe, &t, &red, &g) && red == RED_MAX) {
						o.at = i, o.set = k, o.mnew = s->var, o.m = u->lhs, o.e = g, o.maxrhs = s->rhs;
					}
					break;
				}
			}
		} else if (s->kind == ST_ASSIGN && reduce_match(p, s, &t, &red, &g) && red == RED_MAX &&
		           (t->kind == EX_VAR || t->kind == EX_INDEX)) {
			o.at = o.set = i, o.m = t, o.e = g, o.maxrhs = s->rhs;
		}
	}
	int dropped = o.mnew ? drop_safe_max(p, body, o.at, o.mnew) : -1;
	if (dropped >= 0 && dropped < o.set)
		o.set--;
	if (o.at < o.npre && o.guard && o.mnew && o.set >= o.npre) {
		bool taken;
		const Expr *x = repair_infinity_test(o.guard, &taken);
		o.inert = x && x->kind == EX_VAR && x->var == o.mnew && taken;
	}
	if (o.at < o.npre && !o.inert)
		return false;
	/* The max lives outside the loop, is stored by the max statement alone, and its
	 * element does not move with the loop or the body's locals. */
	VarList locals = {0};
	declared_vars(body, &locals);
	vec_push(locals, loop->var);
	bool ok = stmt_count_stores(body, o.m->var) == 1 && (!o.mnew || stmt_count_stores(body, o.mnew) == 0);
	for (int k = 0; ok && k < locals.n; k++)
		ok = !expr_reads_var(o.m, locals.v[k]);
	vec_free(locals);
	if (!ok)
		return false;
	/* Something must be rescaled: a loop taking a plain max is left alone. */
	o.old = var_new(p, VAR_LOCAL, "m_old", o.m->ty, o.m->loc);
	StmtVec nb = {0};
	for (int i = 0; i < body->nbody; i++)
		if (i != o.at && i != o.set)
			vec_push(nb, stmt_map_exprs(p, body->body[i], rename_map, &(RenameCtx){&o, i < o.set}));
	if (o.inert) { /* the new max left P; the guard reads the final max */
		o.npre--;
		o.guard = rename_expr(&o, o.guard, false);
	}
	if (o.npre) /* P's statements, renamed */
		memcpy(pre, nb.v, sizeof(Stmt *) * (size_t)o.npre);
	Stmt *rest = st_block(p, nb.v, nb.n, body->loc);
	vec_free(nb);
	collect_defs(&o, rest, rest);
	find_rescales(&o, rest);
	ok = o.rescales.n > 0;
	for (int k = 0; ok && k < o.rescales.n; k++) {
		Rescale *r = &o.rescales.v[k];
		if (r->g) {
			ok = rescale_holds(&o, r->f, r->g);
			continue;
		}
		/* t *= F: checked against every addition to t in the loop */
		ExprList adds = {0};
		find_adds(&o, rest, r->s->lhs->var, &adds);
		ok = adds.n > 0 && stmt_count_stores(rest, r->s->lhs->var) == adds.n + 1;
		for (int q = 0; ok && q < adds.n; q++)
			ok = rescale_holds(&o, r->f, adds.v[q]);
		vec_free(adds);
	}
	for (int k = 0; ok && k < o.rescales.n; k++)
		if (!o.rescales.v[k].g)
			remove_stmt(p, rest, o.rescales.v[k].s);
	if (ok) {
		drop_empty(rest);
		if (o.guard)
			rest = guard_rest(p, rest, pre, o.npre, o.guard);
		while (stmt_drop_dead_locals(rest, rest))
			;
		ok = !stmt_reads_or_stores(rest, o.old);
	}
	Stmt *first = ok ? max_loop(&o, loop, body) : NULL;
	/* A rescaled value seeded with t0 != 0 (Triton's l_i = 1, a sink's l = 1 with m = sink)
	 * holds t0 * F(m0, m) + sum G at the end, not t0 + sum G: after the max loop, the seed
	 * is rescaled once from the max's seed m0 to the final max (kept when they are equal:
	 * an empty row leaves t0 as the original does). */
	StmtVec seeds = {0};
	Var *mseed = NULL;
	/* every seed is checked before any is taken out of its declaration: left as written,
	 * the loop must be as the user wrote it */
	for (int k = 0; first && k < o.rescales.n; k++) {
		Rescale *r = &o.rescales.v[k];
		Expr *t = r->s->lhs;
		if (t->kind != EX_VAR && !zeroed_before(parent, idx, t->var, t)) {
			/* a seeded row (acc[d] = bias[d]): left as written, and the fuser refuses it */
			const char *why = arena_printf(&p->arena, "'%s' is rescaled by a hand-written online softmax but does not start from zeros: only a row "
			                                          "that does can be undone (start it at zero, and add its seed rescaled to the final max after the loop)",
			                               t->var->name);
			note_at(r->s->loc, "%s", why);
			refuse(rf, why);
			first = NULL;
		}
		Stmt *dcl = t->kind == EX_VAR ? decl_before(parent, idx, t->var) : NULL;
		if (t->kind == EX_VAR && !starts_at_zero(parent, idx, t->var) && (!dcl || !dcl->rhs))
			first = NULL; /* left as written: the fuser says what it cannot take */
	}
	for (int k = 0; first && k < o.rescales.n; k++) {
		Rescale *r = &o.rescales.v[k];
		Expr *t = r->s->lhs;
		if (t->kind != EX_VAR)
			continue;
		if (starts_at_zero(parent, idx, t->var))
			continue;
		/* the seed's declaration `T t = t0;` becomes `T t;`, t0 kept in t_seed */
		Stmt *dcl = decl_before(parent, idx, t->var);
		if (!mseed)
			mseed = var_new(p, VAR_LOCAL, o.m->kind == EX_VAR ? arena_printf(&p->arena, "%s_seed", o.m->var->name) : "m_seed", o.m->ty, o.m->loc);
		Loc l = loop->loc;
		Var *tseed = var_new(p, VAR_LOCAL, arena_printf(&p->arena, "%s_seed", t->var->name), t->ty, l);
		vec_push(seeds, st_decl(p, tseed, dcl->rhs, l)); /* printed before the loop, below */
		dcl->rhs = NULL;
		Expr *f = expr_subst_expr(p, inline_defs(&o, r->f, 0), o.old, ex_var(p, mseed, l));
		Expr *c = ex_bin(p, OP_EQ, ex_var(p, mseed, l), ex_copy(p, o.m), l);
		Expr *v = ex_cond(p, c, ex_var(p, tseed, l), ex_bin(p, OP_MUL, ex_var(p, tseed, l), f, l), l);
		vec_push(seeds, st_assign(p, ex_copy(p, t), AS_SET, ex_as_type(p, t->ty, v), l));
	}
	vec_free(o.defv);
	vec_free(o.defe);
	vec_free(o.rescales);
	if (!first)
		return false;
	Stmt *second = st_for(p, loop->var, loop->lo, loop->hi, loop->step, rest, loop->loc);
	if (mseed) {
		Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(seeds.n + 4));
		int n = 0;
		/* m's seed: its declaration's value (the fuser moves m's declaration) */
		Stmt *md = o.m->kind == EX_VAR ? decl_before(parent, idx, o.m->var) : NULL;
		Expr *m0 = md ? md->rhs : NULL;
		nb[n++] = st_decl(p, mseed, m0 ? ex_copy(p, m0) : ex_copy(p, o.m), loop->loc);
		for (int k = 0; k < seeds.n; k += 2)
			nb[n++] = seeds.v[k];
		nb[n++] = first;
		for (int k = 1; k < seeds.n; k += 2)
			nb[n++] = seeds.v[k];
		nb[n++] = second;
		stmt_replace(p, parent, loop, nb, n);
		vec_free(seeds);
		return true;
	}
	vec_free(seeds);
	stmt_replace(p, parent, loop, (Stmt *[]){first, second}, 2);
	return true;
}

/* ---- Welford's mean and variance ----
 *
 * LayerNorm ported from PyTorch's kernels keeps Welford's running mean and sum of squared
 * deviations: n += 1; delta = x - mean; mean += delta / n; m2 += delta * (x - mean). The
 * cascade it computes is the two-pass one: the mean (a sum divided by the count after the
 * loop), then the sum of (x - mean)^2 at the final mean, which fusecc fuses itself (sums of
 * separable terms). The loop is rewritten so when the three updates have exactly that form
 * and start from zero; only locals are written besides. Rounding differs from Welford's as
 * the two-pass form's does (as accurate for typical rows; docs/repair-terms.md). */

static bool is_literal(const Expr *e, double v)
{
	return (e->kind == EX_INT && e->ival == (long long)v) || (e->kind == EX_FLT && e->fval == v);
}

/* The accumulator of a sum statement s (`x += g`, `x = x + g`) that is a scalar local
 * declared outside body, with *g its contribution; NULL otherwise. */
static Var *sum_of(Program *p, Stmt *s, Stmt *body, Expr **g)
{
	Expr *t;
	Reducer red;
	if (s->kind != ST_ASSIGN || !reduce_match(p, s, &t, &red, g) || red != RED_ADD || t->kind != EX_VAR || stmt_declares(body, t->var))
		return NULL;
	return t->var;
}

/* Whether the last statement of parent before idx that writes v sets it to zero. */
static bool starts_at_zero(Stmt *parent, int idx, const Var *v)
{
	for (int i = idx - 1; i >= 0; i--) {
		Stmt *s = parent->body[i];
		if (s->kind == ST_DECL && s->var == v)
			return s->rhs && is_literal(expr_uncast(s->rhs), 0);
		if (s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR && s->lhs->var == v)
			return s->aop == AS_SET && is_literal(expr_uncast(s->rhs), 0);
		if (stmt_writes_var(s, v) || stmt_reads_var(s, v))
			return false;
	}
	return false;
}

/* `x - m` with m the variable mv: x, or NULL. */
static Expr *minus_var(Expr *e, const Var *mv)
{
	e = expr_uncast(e);
	if (e->kind == EX_BIN && e->bop == OP_SUB && expr_uncast(e->args[1])->kind == EX_VAR && expr_uncast(e->args[1])->var == mv &&
	    !expr_reads_var(e->args[0], mv))
		return e->args[0];
	return NULL;
}

/* Whether e is `v + 1` (either order, through casts). */
static bool var_plus_one(const Expr *e, const Var *v)
{
	if (e->kind != EX_BIN || e->bop != OP_ADD)
		return false;
	for (int k = 0; k < 2; k++)
		if (expr_uncast(e->args[k])->kind == EX_VAR && expr_uncast(e->args[k])->var == v && is_literal(expr_uncast(e->args[1 - k]), 1))
			return true;
	return false;
}

/* Undoes Welford's updates in loop parent->body[idx]: the loop becomes the count and the
 * sum, the mean's division, and the sum of squared deviations. false: left as written. */
static bool undo_welford(Program *p, Stmt *parent, int idx)
{
	Stmt *loop = parent->body[idx], *body = loop->body[0];
	if (loop->kind != ST_FOR || body->kind != ST_BLOCK)
		return false;
	VarList locals = {0};
	declared_vars(body, &locals);
	bool done = false;
	for (int mi = 0; mi < body->nbody && !done; mi++) {
		Expr *gm;
		Var *mean = sum_of(p, body->body[mi], body, &gm);
		if (!mean || !scalar_is_float(mean->ty))
			continue;
		Online o = {.p = p, .m = ex_var(p, mean, mean->loc), .at = mi, .set = mi};
		o.old = var_new(p, VAR_LOCAL, "mean_old", mean->ty, mean->loc);
		StmtVec nb = {0};
		for (int i = 0; i < body->nbody; i++)
			vec_push(nb, stmt_map_exprs(p, body->body[i], rename_map, &(RenameCtx){&o, i <= mi}));
		Stmt *rest = st_block(p, nb.v, nb.n, body->loc);
		vec_free(nb);
		collect_defs(&o, rest, rest);
		/* mean += (x - mean_old) / n, after n += 1 */
		Expr *gmi = inline_defs(&o, rename_expr(&o, gm, true), 0);
		gmi = gmi ? expr_uncast(gmi) : NULL;
		Expr *x = gmi && gmi->kind == EX_BIN && gmi->bop == OP_DIV ? minus_var(gmi->args[0], o.old) : NULL;
		Expr *nexp = x ? expr_uncast(gmi->args[1]) : NULL;
		Var *n = nexp && nexp->kind == EX_VAR ? nexp->var : NULL;
		/* the count as the iterator gives it, `delta / (float)(c + 1)` over c from 0: a
		 * count of our own, kept as the written one would be */
		bool iter_count = !n && nexp && is_literal(loop->lo, 0) && loop->step == 1 && var_plus_one(nexp, loop->var);
		if (iter_count)
			n = var_new(p, VAR_LOCAL, arena_printf(&p->arena, "%s_count", mean->name), TY_INT, mean->loc);
		int ci = -1, qi = -1;
		Var *m2 = NULL;
		for (int i = 0; n && i < body->nbody; i++) {
			Expr *g;
			Var *v = i == mi ? NULL : sum_of(p, body->body[i], body, &g);
			if (v == n && i < mi && is_literal(expr_uncast(g), 1))
				ci = i;
			if (!v || v == n || v == mean || i < mi)
				continue;
			/* m2 += (x - mean_old) * (x - mean) */
			Expr *gq = inline_defs(&o, rename_expr(&o, g, false), 0);
			gq = gq ? expr_uncast(gq) : NULL;
			if (!gq || gq->kind != EX_BIN || gq->bop != OP_MUL)
				continue;
			for (int k = 0; k < 2 && !m2; k++) {
				Expr *a = minus_var(gq->args[k], o.old), *b = minus_var(gq->args[1 - k], mean);
				if (a && b && expr_equal(a, x) && expr_equal(b, x))
					m2 = v, qi = i;
			}
		}
		if ((ci < 0 && !iter_count) || !m2 || (!iter_count && !starts_at_zero(parent, idx, n)) || !starts_at_zero(parent, idx, mean) ||
		    !starts_at_zero(parent, idx, m2))
			goto next;
		bool ok = !expr_reads_var(x, n) && !expr_reads_var(x, m2);
		/* an element stored on the way that reads none of the statistics (the residual
		 * sum `h[off + c] = v;` of an add-and-norm kernel) goes with the first loop */
		Stmt *t1[2 + 4];
		int n1 = 2;
		VarList stats = {0}; /* the statistics and the locals computed from them */
		vec_push(stats, mean);
		vec_push(stats, m2);
		vec_push(stats, n);
		for (int i = 0; i < body->nbody; i++) {
			const Stmt *u = body->body[i];
			for (int k = 0; k < stats.n; k++)
				if ((u->kind == ST_DECL || (u->kind == ST_ASSIGN && u->lhs->kind == EX_VAR)) && stmt_reads_var(u, stats.v[k])) {
					push_once(&stats, u->kind == ST_DECL ? u->var : u->lhs->var);
					break;
				}
		}
		for (int i = 0; ok && i < body->nbody; i++) {
			Stmt *u = body->body[i];
			if (i == ci || i == mi || i == qi || stores_only(u, &locals))
				continue;
			ok = n1 < 6 && i < mi && u->kind == ST_ASSIGN && u->aop == AS_SET && u->lhs->kind == EX_INDEX && u->lhs->var->kind == VAR_PARAM &&
			     !expr_reads_var(u->rhs, u->lhs->var);
			for (int k = 0; ok && k < stats.n; k++)
				ok = !stmt_reads_var(u, stats.v[k]);
			for (int k = 0; ok && k < body->nbody; k++)
				ok = k == i || !stmt_reads_var(body->body[k], u->lhs->var);
			if (ok)
				t1[n1++] = u;
		}
		vec_free(stats);
		if (!ok)
			goto next;
		/* x read through the body's locals, as the sum's statement wrote it */
		Loc l = body->body[mi]->loc;
		t1[0] = iter_count ? st_assign(p, ex_var(p, n, l), AS_ADD, ex_int(p, 1, l), l) : body->body[ci];
		t1[1] = st_assign(p, ex_var(p, mean, l), AS_ADD, ex_copy(p, x), l);
		Expr *dev = ex_bin(p, OP_SUB, ex_copy(p, x), ex_var(p, mean, l), l);
		Stmt *t2 = st_assign(p, ex_var(p, m2, l), AS_ADD, ex_bin(p, OP_MUL, dev, ex_copy(p, dev), l), body->body[qi]->loc);
		Stmt *first = slice_loop(p, loop, body, mi, t1, n1, NULL, 0);
		Stmt *second = first ? slice_loop(p, loop, body, mi, &t2, 1, NULL, 0) : NULL;
		if (!second)
			goto next;
		Expr *pos = ex_bin(p, OP_GT, ex_var(p, n, l), ex_int(p, 0, l), l);
		Stmt *fin = st_assign(p, ex_var(p, mean, l), AS_SET,
		                      ex_cond(p, pos, ex_bin(p, OP_DIV, ex_var(p, mean, l), ex_var(p, n, l), l), ex_var(p, mean, l), l), l);
		Stmt *seq[4];
		int ns = 0;
		if (iter_count)
			seq[ns++] = st_decl(p, n, ex_int(p, 0, l), l);
		seq[ns++] = first;
		seq[ns++] = fin;
		seq[ns++] = second;
		stmt_replace(p, parent, loop, seq, ns);
		done = true;
	next:
		vec_free(o.defv);
		vec_free(o.defe);
		vec_free(o.rescales);
	}
	vec_free(locals);
	return done;
}

/* Whether statement s declares or writes a variable that e reads. */
static bool changes_reads_of(const Stmt *s, const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR || e->kind == EX_INDEX)
		if ((s->kind == ST_DECL && s->var == e->var) || stmt_writes_var(s, e->var))
			return true;
	for (int i = 0; i < e->nargs; i++)
		if (changes_reads_of(s, e->args[i]))
			return true;
	return false;
}

/* Seeds set under a flag, `m = -INFINITY; l = 0; if (use_sinks) { m = sink[h]; l = 1; }`
 * (gpt-oss's optional sinks), in block s: each assignment of the if folds into the
 * scalar's last definition before it, `m = use_sinks ? sink[h] : -INFINITY`, so that the
 * online softmax's seeds are one definition each (undo_loop). The condition reads only
 * parameters (a mask's `if (j > i) s = -INFINITY;` stays as written). Only where the statements
 * in between neither touch the scalar nor change what the condition and the value read,
 * and the if's values and condition read none of the scalars it sets. */
static void fold_flagged_seeds(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++) {
		Stmt *f = s->body[i];
		if (f->kind != ST_IF || (f->nbody > 1 && f->body[1]) || !expr_reads_params_only(f->cond))
			continue;
		int n;
		Stmt **b = slot_stmts(&f->body[0], &n);
		bool ok = n > 0;
		for (int k = 0; ok && k < n; k++)
			ok = b[k]->kind == ST_ASSIGN && b[k]->aop == AS_SET && b[k]->lhs->kind == EX_VAR && !b[k]->lhs->var->ndim &&
			     !expr_reads_var(f->cond, b[k]->lhs->var);
		for (int k = 0; ok && k < n; k++)
			for (int q = 0; ok && q < n; q++)
				ok = !expr_reads_var(b[q]->rhs, b[k]->lhs->var);
		Stmt **def = ok ? arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n) : NULL;
		for (int k = 0; ok && k < n; k++) {
			Var *x = b[k]->lhs->var;
			int w = i - 1;
			for (; w >= 0 && !stmt_writes_var(s->body[w], x) && !stmt_reads_var(s->body[w], x); w--)
				;
			def[k] = w >= 0 ? s->body[w] : NULL;
			ok = def[k] && def[k]->rhs && ((def[k]->kind == ST_DECL && def[k]->var == x) || (def[k]->kind == ST_ASSIGN && def[k]->aop == AS_SET &&
			                                                                                     def[k]->lhs->kind == EX_VAR && def[k]->lhs->var == x));
			for (int q = w + 1; ok && q < i; q++)
				ok = !changes_reads_of(s->body[q], f->cond) && !changes_reads_of(s->body[q], b[k]->rhs);
		}
		if (!ok)
			continue;
		for (int k = 0; k < n; k++)
			def[k]->rhs = ex_cond(p, ex_copy(p, f->cond), ex_as_type(p, b[k]->lhs->var->ty, b[k]->rhs), def[k]->rhs, f->loc);
		memmove(s->body + i, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
		s->nbody--;
		i--;
	}
}

/* loop, left as written: where its body ends in a guard that reads the max its arm
 * takes, that is why. */
static void refuse_guard(Program *p, const Stmt *loop, Refusal *rf)
{
	const Stmt *f = loop->kind == ST_FOR ? loop->body[0] : NULL;
	if (f && f->kind == ST_BLOCK)
		f = f->nbody ? f->body[f->nbody - 1] : NULL;
	const Var *m = guard_reads_max(p, f);
	if (!m)
		return;
	refuse(rf, arena_printf(&p->arena, "the test at line %d reads '%s', the running max of the online softmax over '%s': which keys it skips depends on the keys before, so the loop cannot be split into a pass for the max and one for the sums (compare the score with a bound that does not change along the loop, or drop the test)",
	                        f->loc.line, m->name, loop->var->name));
}

/* ---- an output kept normalised (FlashAttention-1's Algorithm 1) ----
 *
 * The paper's update keeps the output divided by the running sum at every step:
 *     l_new = e^(m - m_new) * l + e^(s - m_new);
 *     O = (l * e^(m - m_new) * O + e^(s - m_new) * v) / l_new;   l = l_new;
 * U = O * l is then the usual accumulator, U = e^(m - m_new) * U + e^(s - m_new) * v, and O
 * is U / l once the loop is done. So the update is rewritten as U's (in O's storage) and a
 * division by l follows the loop: the form undo_loop undoes. */

/* Product e without its factor same_elem to lvalue t, or NULL. */
static Expr *strip_elem(Program *p, Expr *e, const Expr *t)
{
	if (e->kind != EX_BIN || e->bop != OP_MUL)
		return NULL;
	for (int k = 0; k < 2; k++) {
		if (same_elem(e->args[k], t))
			return e->args[1 - k];
		Expr *r = strip_elem(p, e->args[k], t);
		if (r)
			return ex_bin(p, OP_MUL, r, e->args[1 - k], e->loc);
	}
	return NULL;
}

/* Whether statement u (in loop body b, declared locals b[0..]) is `X = (l * F * X + G) / ln`
 * with `T ln = F * l + G2;` a local of b and `l = ln;` after it: *f set to F, *g to G, *l
 * to l. */
static bool normalised_update(Program *p, Stmt **b, int nb, const Stmt *u, Expr **f, Expr **g, Var **l)
{
	if (u->kind != ST_ASSIGN || u->aop != AS_SET || u->rhs->kind != EX_BIN || u->rhs->bop != OP_DIV || u->rhs->args[1]->kind != EX_VAR)
		return false;
	const Var *ln = u->rhs->args[1]->var;
	Expr *num = u->rhs->args[0];
	if (num->kind != EX_BIN || num->bop != OP_ADD)
		return false;
	const Stmt *def = NULL;
	for (int k = 0; k < nb; k++)
		if (b[k]->kind == ST_DECL && b[k]->var == ln && b[k]->rhs)
			def = b[k];
	if (!def || def->rhs->kind != EX_BIN || def->rhs->bop != OP_ADD)
		return false;
	for (int k = 0; k < 2; k++) {
		Expr *a = strip_elem(p, num->args[k], u->lhs);
		if (!a || expr_reads_var(num->args[1 - k], u->lhs->var))
			continue;
		/* the running sum: assigned l = ln in the body */
		for (int q = 0; q < nb; q++) {
			Stmt *set = b[q];
			if (set->kind != ST_ASSIGN || set->aop != AS_SET || set->lhs->kind != EX_VAR || set->rhs->kind != EX_VAR || set->rhs->var != ln)
				continue;
			Expr *fa = strip_elem(p, a, set->lhs);
			for (int t = 0; fa && t < 2; t++) {
				Expr *fl = strip_elem(p, def->rhs->args[t], set->lhs);
				if (fl && expr_equal(fa, fl)) {
					*f = fa;
					*g = num->args[1 - k];
					*l = set->lhs->var;
					return true;
				}
			}
		}
	}
	return false;
}

/* The normalised outputs of loop parent->body[idx] (above) rewritten as sums, each
 * divided by the sum after the loop (`l == 0`: no key, the zeros it started with). Only
 * an output zeroed before the loop and read in it by its update alone. */
static void denormalise(Program *p, Stmt *parent, int idx)
{
	Stmt *loop = parent->body[idx];
	int nb;
	Stmt **b = slot_stmts(&loop->body[0], &nb);
	for (int k = 0; k < nb; k++) {
		Stmt *u = b[k], *nest = NULL;
		if (u->kind == ST_FOR) { /* for (d) O[d] = ... */
			int nn;
			Stmt **in = slot_stmts(&u->body[0], &nn);
			if (nn != 1)
				continue;
			nest = u;
			u = in[0];
		}
		Expr *f, *other;
		Var *l;
		if (!normalised_update(p, b, nb, u, &f, &other, &l))
			continue;
		const Var *x = u->lhs->var;
		bool zero = u->lhs->kind == EX_VAR ? starts_at_zero(parent, idx, x) : nest && zeroed_before(parent, idx, (Var *)x, NULL);
		if (!zero || stmt_count_stores(loop, x) != 1 || (u->lhs->kind == EX_INDEX && (!nest || u->lhs->nargs != 1 || u->lhs->args[0]->kind != EX_VAR || u->lhs->args[0]->var != nest->var)))
			continue;
		Loc lc = u->loc;
		u->rhs = ex_bin(p, OP_ADD, ex_bin(p, OP_MUL, ex_copy(p, u->lhs), ex_copy(p, f), lc), other, lc);
		/* after the loop: X = l != 0 ? X / l : X (over X's loop for an element) */
		Var *it = nest ? var_new(p, VAR_LOOP, nest->var->name, nest->var->ty, nest->var->loc) : NULL;
		Expr *xe = nest ? expr_subst_var(p, u->lhs, nest->var, it) : ex_copy(p, u->lhs);
		Expr *nz = ex_bin(p, OP_NE, ex_var(p, l, lc), ex_flt(p, 0.0, l->ty, lc), lc);
		Expr *v = ex_cond(p, nz, ex_bin(p, OP_DIV, ex_copy(p, xe), ex_var(p, l, lc), lc), ex_copy(p, xe), lc);
		Stmt *norm = st_assign(p, xe, AS_SET, v, lc);
		if (nest)
			norm = st_for(p, it, ex_copy(p, nest->lo), ex_copy(p, nest->hi), nest->step, norm, lc);
		Stmt **all = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(parent->nbody + 1));
		memcpy(all, parent->body, sizeof(Stmt *) * (size_t)(idx + 1));
		all[idx + 1] = norm;
		memcpy(all + idx + 2, parent->body + idx + 1, sizeof(Stmt *) * (size_t)(parent->nbody - idx - 1));
		st_set_body(p, parent, all, parent->nbody + 1);
	}
}

static void undo_online(Program *p, Stmt *s, Refusal *rf)
{
	if (!s)
		return;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			undo_online(p, s->body[i], rf);
	if (s->kind != ST_BLOCK)
		return;
	fold_flagged_seeds(p, s);
	bool undone_blocks = false;
	for (int i = 0; i < s->nbody; i++) {
		if (s->body[i]->kind != ST_FOR)
			continue;
		/* blocks of keys: undone as the loop with one key per block, or left as written */
		Stmt *blocks = s->body[i], *keys;
		const char *why;
		if ((keys = fuse_unblock_online(p, blocks, &why))) {
			s->body[i] = keys;
			if (undo_loop(p, s, i, rf)) {
				i++;
				undone_blocks = true;
				continue;
			}
			s->body[i] = blocks;
			why = undone_blocks ? arena_printf(&p->arena, "the keys are walked by two block loops (a causal kernel's blocks below the diagonal, then the diagonal block with its mask), and fusecc undoes one online softmax loop over the keys of a row; write one block loop up to the diagonal, with the mask in it")
			                    : arena_printf(&p->arena, "read one key at a time, its rescales are not those of an online softmax fusecc undoes");
		}
		if (why && !undo_loop(p, s, i, rf)) {
			/* the message for the fuser's error, and the GPU's fallback warning */
			blocks->var->blocks_why = why;
			refuse(rf, arena_printf(&p->arena, "the loop over '%s' (line %d) is an online softmax by blocks that fusecc cannot read one key at a time (%s)", blocks->var->name, blocks->loc.line, why));
			continue;
		}
		if (!why)
			denormalise(p, s, i);
		int before = s->nbody;
		if (why)
			i++;
		else if (undo_loop(p, s, i, rf)) {
			/* the sums loop, last of what replaced the loop, may still hold a second online
			 * softmax over the same keys (Diff Transformer's two, with their own max and
			 * sums): undone in turn */
			i += s->nbody - before;
			for (before = s->nbody; undo_loop(p, s, i, rf); before = s->nbody)
				i += s->nbody - before;
		} else if (undo_welford(p, s, i))
			i += 2;
		else
			refuse_guard(p, s->body[i], rf);
	}
}

const char *fuse_undo_online(Program *p, Stmt *s)
{
	Refusal rf = {0};
	undo_online(p, s, &rf);
	return rf.why;
}
