/* emit_rows.c: the CTA-per-row lowering of row reductions (softmax, norms, log-sum-exp,
 * cross-entropy's row part): regions without products whose row is a reduction over its
 * elements. One CTA takes a row, in one of two forms:
 * - fused: the fuser writes the row as a split-k block (Program.split_rows); the CTA's
 *   threads are its chunks, each running the chunk's pass over its elements; the merge's
 *   loops over the chunks become CTA reductions (fx::cta_sum, cta_max, cta_min) of the
 *   same terms, and the loops after the merge walk the row again;
 * - as written (the fuser left the region as it is): the row's loops one after another,
 *   each reduction accumulated per thread and merged by a CTA reduction after its loop.
 *
 * Every walk over the row's elements (a sweep) goes in steps of FX_T * VW * NV elements:
 * thread t takes NV vectors of VW consecutive elements, vector v at (v * FX_T + t) * VW
 * from the step's start, so that a warp's accesses are contiguous, 16 bytes per thread
 * (VW elements are 16 bytes of the narrowest array the sweeps access). Steps start at
 * multiples of FX_T * VW, so an element belongs to the same thread in every sweep. The
 * arrays a sweep accesses at the element its iteration owns (x[r][c], a local row[c])
 * are held in registers for a step: loaded at its start (16 bytes at a time when the step
 * is whole and its first element aligned, else element by element, tested against the
 * row's ends) and stored at its end.
 *
 * A read-only array that a later sweep reads again over the same elements is kept in
 * shared memory by the first sweep that reads it (each thread keeps its own elements and
 * reads them back itself), so that every element comes from global memory once; a local
 * array of the row (`float row[C]`) lives there. The size is known at launch: when it is
 * more than a CTA may have, the kernel compiled with FX_KEEP false reads the arrays again
 * from global memory and holds the local arrays in a workspace. The numbers are those of
 * the C (or of the fused C with FX_T chunks), up to the order of the sums. */
#include <string.h>

#include "emit_tile.h"

/* Whether s (and all it holds) is free of loops and local arrays. */
static bool flat_stmt(const Stmt *s)
{
	if (!s)
		return true;
	if (s->kind == ST_FOR || (s->kind == ST_DECL && s->var->ndim))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!flat_stmt(s->body[i]))
			return false;
	return true;
}

/* A local array of the row: `float row[N];`, one dimension, no initialiser. */
static bool row_array_decl(const Stmt *s)
{
	return s->kind == ST_DECL && s->var->ndim == 1 && !s->rhs;
}

/* Whether s stores to an array (a parameter, or a local array of the row). */
static bool stmt_stores_array(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->kind == EX_INDEX)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_stores_array(s->body[i]))
			return true;
	return false;
}

/* An element loop of the pass: its lower bound is the pass's iterator. */
static bool elem_loop(const Stmt *pass, const Stmt *s)
{
	return s->kind == ST_FOR && s->lo->kind == EX_VAR && s->lo->var == pass->var;
}

/* The reduction a merge loop over the chunks ends with, after scalar declarations:
 * `for (ch) { decls...; x op= g; }`. */
static bool merge_loop(Program *p, const Stmt *s, Expr **target, Reducer *red, Expr **g)
{
	int n;
	Stmt **b = loop_body(s, &n);
	for (int i = 0; i < n - 1; i++)
		if (b[i]->kind != ST_DECL || !flat_stmt(b[i]))
			return false;
	return b[n - 1]->kind == ST_ASSIGN && reduce_match(p, b[n - 1], target, red, g) && (*target)->kind == EX_VAR && !expr_reads_var(*g, (*target)->var);
}

/* The argmax pair a merge loop over the chunks merges (`for (ch) { if (v_part[ch] > v ||
 * ...) { v = ...; at = ...; } }`, argred.c), or NULL. */
static const Accum *arg_merge(const Cascade *c, const Stmt *s)
{
	int n;
	Stmt **b = loop_body(s, &n);
	if (n != 1 || b[0]->kind != ST_IF || b[0]->body[0]->kind != ST_BLOCK || b[0]->body[0]->nbody != 2)
		return NULL;
	const Stmt *set_at = b[0]->body[0]->body[1];
	const Accum *a = set_at->kind == ST_ASSIGN && set_at->lhs->kind == EX_VAR ? arg_accum_of_at(c, set_at->lhs->var) : NULL;
	return a && stmt_writes_var(b[0], a->var) ? a : NULL;
}

static bool fail(const char **why, const char *msg)
{
	*why = msg;
	return false;
}

/* ---- the row's passes ----
 * A loop over the row's elements (the passes of a region the fuser left as it is, the
 * loops after a fused row's merge): its statements may store only the elements their own
 * iteration owns (at subscripts that move with the loop) and read those arrays only there.
 * A reduction into a scalar of the row, or into an element of a float output the row owns,
 * accumulates a partial per thread from the reducer's identity, which a CTA reduction
 * merges into the target after the loop. Where a thread could read or overwrite an array
 * element that another thread wrote, or overwrite one it read, since the last barrier, a
 * __syncthreads() comes first. */

static void add_sweep(RowPlan *rp, Program *p, RowSweep *sw);
static bool plan_arrays(RowPlan *rp, Program *p, StrVec *made, const char **why);

static bool moves_with(const Stmt *l, const Var *v)
{
	return v == l->var || stmt_declares(l->body[0], v) || stmt_writes_var(l->body[0], v);
}

static bool expr_moves_with(const Stmt *l, const Expr *e)
{
	if (!e)
		return false;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->ndim == 0 && moves_with(l, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (expr_moves_with(l, e->args[i]))
			return true;
	return false;
}

/* Whether subscript e is v + (terms without v): distinct for distinct v. */
static bool offset_by(const Expr *e, const Var *v)
{
	if (e->kind == EX_VAR)
		return e->var == v;
	if (e->kind != EX_BIN || e->bop != OP_ADD)
		return false;
	return (offset_by(e->args[0], v) && !expr_reads_var(e->args[1], v)) || (offset_by(e->args[1], v) && !expr_reads_var(e->args[0], v));
}

/* Whether the terms of offset_by subscript e other than l's iterator move with loop l. */
static bool offset_rest_moves(const Stmt *l, const Expr *e)
{
	if (e->kind == EX_VAR)
		return false;
	bool left = offset_by(e->args[0], l->var);
	return offset_rest_moves(l, e->args[left ? 0 : 1]) || expr_moves_with(l, e->args[left ? 1 : 0]);
}

typedef struct PassScan {
	Program *p;
	Stmt *loop;
	VEC(RowRed) reds;
	VEC(Stmt *) rstmts; /* the reduction statements */
	VEC(Expr *) stores; /* the first store to each output array the loop writes */
	const char *why;
} PassScan;

static bool scan_fail(PassScan *sc, const char *why)
{
	sc->why = why;
	return false;
}

/* Whether e reads a variable that the loop's body declares or sets (it changes during the
 * loop: after it, e would not be evaluated as in it). */
static bool reads_loop_locals(const Stmt *l, const Expr *e)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var != l->var && moves_with(l, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_loop_locals(l, e->args[i]))
			return true;
	return false;
}

/* An argmax (argmin) step into two scalars of the row: a pair reduction, whose index is
 * set after the merge from the position kept (its expression must read only what the
 * loop does not change). 1: recorded, 0: not such a step, -1: refused (sc->why). */
static int scan_arg(PassScan *sc, Stmt *s)
{
	ArgStep am;
	const Stmt *body = sc->loop->body[0];
	if (!arg_match(s, &am) || am.val->var->kind != VAR_LOCAL || stmt_declares(body, am.val->var) || stmt_declares(body, am.idx->var))
		return 0;
	Arena *a = &sc->p->arena;
	if (am.val->var->ty != TY_FLOAT)
		return scan_fail(sc, arena_printf(a, "the argmax into '%s' is not in float (the CTA reductions are fp32)", am.val->var->name)), -1;
	if (reads_loop_locals(sc->loop, am.f))
		return scan_fail(sc, arena_printf(a, "the index '%s' of the argmax reads what the loop over '%s' changes: write the loop's iterator", am.idx->var->name, sc->loop->var->name)), -1;
	for (int k = 0; k < sc->reds.n; k++)
		if (sc->reds.v[k].target->var == am.val->var || sc->reds.v[k].target->var == am.idx->var)
			return scan_fail(sc, arena_printf(a, "'%s' is reduced two ways in one loop", sc->reds.v[k].target->var->name)), -1;
	vec_push(sc->reds, ((RowRed){.target = am.val, .red = am.red, .idx = am.idx, .idx_f = am.f, .last = am.last}));
	vec_push(sc->rstmts, s);
	return 1;
}

/* Finds the reduction statements of the loop: into a float or double scalar of the row,
 * or into an element of such an output at subscripts that do not move with the loop;
 * argmax pairs. */
static bool scan_reductions(PassScan *sc, Stmt *s)
{
	Program *p = sc->p;
	if (s->kind == ST_BLOCK) {
		for (int i = 0; i < s->nbody; i++)
			if (!scan_reductions(sc, s->body[i]))
				return false;
		return true;
	}
	int arg = scan_arg(sc, s);
	if (arg)
		return arg > 0;
	Expr *t, *g;
	Reducer red;
	if ((s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(p, s, &t, &red, &g)) {
		bool row = t->kind == EX_VAR ? t->var->kind == VAR_LOCAL && !stmt_declares(sc->loop->body[0], t->var)
		                             : t->var->kind == VAR_PARAM && !expr_moves_with(sc->loop, t);
		if (row) {
			/* an integer count (`if (x > y) n++;`) is merged in double, exact below 2^53 */
			bool count = (t->var->ty == TY_INT || t->var->ty == TY_I64) && red == RED_ADD && g && scalar_is_int(g->ty);
			if (t->var->ty != TY_FLOAT && t->var->ty != TY_DOUBLE && !count)
				return scan_fail(sc, arena_printf(&p->arena, "the reduction into '%s' is not in float or double (the CTA reductions' types), nor an integer count", t->var->name));
			if (expr_reads_var(g, t->var))
				return scan_fail(sc, arena_printf(&p->arena, "the reduction into '%s' reads '%s' in its contribution", t->var->name, t->var->name));
			int k = 0;
			while (k < sc->reds.n && !(sc->reds.v[k].target->kind == t->kind && expr_equal(sc->reds.v[k].target, t)))
				k++;
			if (k == sc->reds.n)
				vec_push(sc->reds, ((RowRed){t, red, NULL}));
			else if (sc->reds.v[k].red != red)
				return scan_fail(sc, arena_printf(&p->arena, "'%s' is reduced two ways in one loop", t->var->name));
			vec_push(sc->rstmts, s);
			return true;
		}
	}
	if (s->kind == ST_IF)
		for (int i = 0; i < s->nbody; i++)
			if (s->body[i] && !scan_reductions(sc, s->body[i]))
				return false;
	return true;
}

static bool is_rstmt(const PassScan *sc, const Stmt *s)
{
	for (int i = 0; i < sc->rstmts.n; i++)
		if (sc->rstmts.v[i] == s)
			return true;
	return false;
}

/* The target of a reduction of the loop that e reads (its partial), or NULL. */
static const RowRed *reads_target(const PassScan *sc, const Expr *e)
{
	for (int i = 0; e && i < sc->reds.n; i++)
		if (expr_reads_var(e, sc->reds.v[i].target->var) || (sc->reds.v[i].idx && expr_reads_var(e, sc->reds.v[i].idx->var)))
			return &sc->reds.v[i];
	return NULL;
}

static const RowRed *stmt_reads_target(const PassScan *sc, const Stmt *s, const RowRed *own)
{
	for (int i = 0; i < sc->reds.n; i++)
		if (&sc->reds.v[i] != own && (stmt_reads_var(s, sc->reds.v[i].target->var) || (sc->reds.v[i].idx && stmt_reads_var(s, sc->reds.v[i].idx->var))))
			return &sc->reds.v[i];
	return NULL;
}

/* The reduction of the loop that reduction statement s makes. */
static const RowRed *own_red(const PassScan *sc, Stmt *s)
{
	Expr *t, *g;
	Reducer red;
	ArgStep am;
	if (arg_match(s, &am))
		t = am.val;
	else
		reduce_match(sc->p, s, &t, &red, &g);
	for (int i = 0; i < sc->reds.n; i++)
		if (sc->reds.v[i].target->kind == t->kind && expr_equal(sc->reds.v[i].target, t))
			return &sc->reds.v[i];
	return NULL;
}

/* The other statements: they read no partial and store elements their iteration owns. */
static bool scan_others(PassScan *sc, Stmt *s)
{
	Arena *a = &sc->p->arena;
	const RowRed *rr;
	if (is_rstmt(sc, s)) {
		/* Its own target is its accumulator; another's partial would be a scan. */
		if ((rr = stmt_reads_target(sc, s, own_red(sc, s))))
			return scan_fail(sc, arena_printf(a, "a reduction reads '%s' while the loop is still reducing it", rr->target->var->name));
		return true;
	}
	switch (s->kind) {
	case ST_BLOCK:
		break;
	case ST_DECL:
		if ((rr = reads_target(sc, s->rhs)))
			return scan_fail(sc, arena_printf(a, "'%s' is read while the loop is still reducing it", rr->target->var->name));
		break;
	case ST_IF:
		if ((rr = reads_target(sc, s->cond)))
			return scan_fail(sc, arena_printf(a, "'%s' is read while the loop is still reducing it", rr->target->var->name));
		break;
	case ST_ASSIGN: {
		Var *w = s->lhs->var;
		if ((rr = reads_target(sc, s->rhs)) || (rr = reads_target(sc, s->lhs)))
			return scan_fail(sc, arena_printf(a, "'%s' is read or written while the loop is still reducing it", rr->target->var->name));
		if (!w->ndim) {
			if (!stmt_declares(sc->loop->body[0], w))
				return scan_fail(sc, arena_printf(a, "the loop over '%s' sets '%s', a value of the row, other than by a reduction", sc->loop->var->name, w->name));
			break;
		}
		/* One subscript is the iterator plus terms that do not move with the loop; the
		 * others do not move with it. */
		bool own = false, fixed = true;
		for (int i = 0; i < s->lhs->nargs; i++) {
			const Expr *e = s->lhs->args[i];
			if (offset_by(e, sc->loop->var) && !offset_rest_moves(sc->loop, e))
				own = true;
			else if (expr_moves_with(sc->loop, e))
				fixed = false;
		}
		own &= fixed;
		if (!own)
			return scan_fail(sc, arena_printf(a, "the loop over '%s' stores to '%s' at an element other iterations may share", sc->loop->var->name, w->name));
		int k = 0;
		while (k < sc->stores.n && sc->stores.v[k]->var != w)
			k++;
		if (k == sc->stores.n)
			vec_push(sc->stores, s->lhs);
		break;
	}
	case ST_FOR:
		if (sc->loop->var->blocks_why)
			return scan_fail(sc, arena_printf(a, "the loop over '%s' (line %d) is an online softmax by blocks that fusecc cannot read one key at a time (%s)", sc->loop->var->name,
			                                  sc->loop->loc.line, sc->loop->var->blocks_why));
		return scan_fail(sc, "a loop over the row's elements holds a loop");
	}
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && !scan_others(sc, s->body[i]))
			return false;
	return true;
}

/* An array access in loop l that moves with it along its last subscript only (the
 * iterator plus terms that do not move, a gather, a value per run of elements), or not
 * at all: the threads of a warp then read neighbouring elements. Down a column (x[c][r], a matmul's b[k][j]), one
 * thread per row reads them coalesced instead: false then, with *bad the array. */
static bool along_row(const Stmt *l, const Expr *e, const Var **bad)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM) {
		for (int i = 0; i < e->nargs; i++) {
			const Expr *a = e->args[i];
			if (!expr_moves_with(l, a))
				continue;
			/* the last subscript may move in any way: a gather (x[r][idx[c]]) or a value
			 * per run of elements (gamma[g * CPG + c / HW], GroupNorm's channels) reads
			 * the same or nearby elements across a warp, and a store away from its own
			 * element is refused by scan_others */
			if (i != e->nargs - 1 || !var_last_contiguous(e->var)) {
				*bad = e->var;
				return false;
			}
		}
	}
	for (int i = 0; i < e->nargs; i++)
		if (!along_row(l, e->args[i], bad))
			return false;
	return true;
}

static bool stmt_along_row(const Stmt *l, const Stmt *s, const Var **bad)
{
	if (!s)
		return true;
	if (!along_row(l, s->rhs, bad) || !along_row(l, s->cond, bad) || !along_row(l, s->lhs, bad))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_along_row(l, s->body[i], bad))
			return false;
	return true;
}

/* Every access of array st->var in e is at st's subscripts. */
static bool only_at(const Expr *e, const Expr *st)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var == st->var && !expr_equal(e, st))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!only_at(e->args[i], st))
			return false;
	return true;
}

static bool stmt_only_at(const Stmt *s, const Expr *st)
{
	if (!s)
		return true;
	if (!only_at(s->rhs, st) || !only_at(s->cond, st) || !only_at(s->lhs, st))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_only_at(s->body[i], st))
			return false;
	return true;
}

/* Whether s declares a local array. */
static bool has_array_decl(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_DECL && s->var->ndim)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (has_array_decl(s->body[i]))
			return true;
	return false;
}

/* Whether s declares or assigns a scalar local. */
static bool writes_local(const Stmt *s)
{
	if (!s)
		return false;
	if ((s->kind == ST_DECL && !s->var->ndim) || (s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (writes_local(s->body[i]))
			return true;
	return false;
}

static bool name_in(const Stmt *s, const char *name)
{
	if (!s)
		return false;
	if (s->var && !strcmp(s->var->name, name))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (name_in(s->body[i], name))
			return true;
	return false;
}

/* `base`, or base2, base3, ...: a name no parameter or local of the region has, nor one
 * made before (made). */
static const char *fresh_name(Program *p, const Region *r, StrVec *made, const char *base)
{
	for (int k = 1;; k++) {
		const char *nm = k == 1 ? base : arena_printf(&p->arena, "%s%d", base, k);
		bool used = name_in(r->loop, nm);
		for (int i = 0; i < func_nkparams(r->fn); i++)
			used |= !strcmp(func_kparam(r->fn, i)->name, nm);
		for (int i = 0; i < made->n; i++)
			used |= !strcmp(made->v[i], nm);
		if (!used) {
			vec_push(*made, nm);
			return nm;
		}
	}
}

/* rows_plan fails for loop l, whose accesses of `bad` run down a column (along_row): the
 * fallback's one thread per row reads them coalesced (rp->columns). */
static bool across_rows(RowPlan *rp, Program *p, const Stmt *l, const Var *bad, const char **why)
{
	rp->columns = true;
	return fail(why, arena_printf(&p->arena, "the loop over '%s' reads or stores '%s' across rows, not along one (one thread per row reads it coalesced)", l->var->name, bad->name));
}

static bool plan_pass(RowPlan *rp, Program *p, Stmt *l, RowPass *ps, StrVec *made, const char **why)
{
	if (l->step != 1)
		return fail(why, "a loop of the row steps by more than one");
	if (has_array_decl(l->body[0]))
		return fail(why, "a loop over the row's elements declares a local array");
	const Var *bad = NULL;
	if (!stmt_along_row(l, l->body[0], &bad))
		return across_rows(rp, p, l, bad, why);
	PassScan sc = {.p = p, .loop = l};
	bool ok = scan_reductions(&sc, l->body[0]) && scan_others(&sc, l->body[0]);
	for (int k = 0; ok && k < sc.stores.n; k++) {
		if (!stmt_only_at(l->body[0], sc.stores.v[k])) {
			sc.why = arena_printf(&p->arena, "the loop over '%s' reads or stores '%s' at an element other than the one its iteration stores", l->var->name,
			                      sc.stores.v[k]->var->name);
			ok = false;
		}
		for (int i = 0; ok && i < sc.reds.n; i++)
			if (sc.reds.v[i].target->var == sc.stores.v[k]->var) {
				sc.why = arena_printf(&p->arena, "the loop over '%s' both reduces into and stores to '%s'", l->var->name, sc.stores.v[k]->var->name);
				ok = false;
			}
	}
	/* An output reduced into is read nowhere else in the loop. */
	for (int i = 0; ok && i < sc.reds.n; i++) {
		const RowRed *rr = &sc.reds.v[i];
		if (rr->target->kind == EX_INDEX && !stmt_only_at(l->body[0], rr->target)) {
			sc.why = arena_printf(&p->arena, "the loop over '%s' reads '%s' at another element than the one it reduces into", l->var->name, rr->target->var->name);
			ok = false;
		}
	}
	if (!ok) {
		vec_free(sc.reds);
		vec_free(sc.rstmts);
		vec_free(sc.stores);
		return fail(why, sc.why);
	}
	ps->loop = l;
	ps->lo = l->lo;
	ps->hi = l->hi;
	ps->nreds = sc.reds.n;
	ps->reds = arena_alloc(&p->arena, sizeof(RowRed) * (size_t)(sc.reds.n + 1));
	for (int i = 0; i < sc.reds.n; i++) {
		ps->reds[i] = sc.reds.v[i];
		ps->reds[i].part = fresh_name(p, rp->region, made, arena_printf(&p->arena, "%s_part", sc.reds.v[i].target->var->name));
		if (sc.reds.v[i].idx)
			ps->reds[i].at = fresh_name(p, rp->region, made, arena_printf(&p->arena, "%s_at", sc.reds.v[i].idx->var->name));
	}
	/* Each pass's step iterator is scoped to its pass: the name may repeat. */
	ps->step = fresh_name(p, rp->region, made, arena_printf(&p->arena, "%s0", l->var->name));
	made->n--;
	vec_free(sc.reds);
	vec_free(sc.rstmts);
	vec_free(sc.stores);
	return true;
}

static bool passes_plan(RowPlan *rp, Program *p, const char **why)
{
	Stmt *body = grid_and_row_loops(rp->region, rp->grid, &rp->ngrid);
	if (!rp->ngrid)
		return fail(why, "no parallel loop over rows");
	if (!grid_host_ends(rp->grid, rp->ngrid))
		return fail(why, "a row loop's end is read per row, and no bound of it is known on the host");
	/* the row's statements, kept in rp for the printer: a body of one statement gets an
	 * array of one in the arena (not the address of this frame's local) */
	Stmt **st = body->body;
	int n = body->nbody;
	if (body->kind != ST_BLOCK) {
		st = arena_alloc(&p->arena, sizeof(Stmt *));
		st[0] = body;
		n = 1;
	}
	StrVec made = {0};
	rp->block = body;
	rp->stmts = st;
	rp->nstmts = n;
	rp->passes = arena_alloc(&p->arena, sizeof(RowPass) * (size_t)(n + 1));
	bool ok = true;
	for (int i = 0; ok && i < n; i++) {
		Stmt *s = st[i];
		if (s->kind == ST_FOR) {
			ok = plan_pass(rp, p, s, &rp->passes[i], &made, why);
			rp->npasses++;
		} else if (s->kind == ST_DECL && s->var->ndim) {
			if (!row_array_decl(s))
				ok = fail(why, "the row holds a local array of more than one dimension or with an initialiser");
		} else if (!flat_stmt(s)) {
			ok = fail(why, "a statement of the row holds a loop");
		} else if (stmt_stores_array(s) && writes_local(s)) {
			ok = fail(why, "a statement of the row both stores to an array and sets a local");
		}
	}
	if (ok && !rp->npasses)
		ok = fail(why, "no loop over the row's elements");
	for (int i = 0; ok && i < n; i++)
		if (rp->passes[i].loop)
			add_sweep(rp, p, &rp->passes[i]);
	ok = ok && plan_arrays(rp, p, &made, why);
	vec_free(made);
	return ok;
}

static void add_sweep(RowPlan *rp, Program *p, RowSweep *sw)
{
	RowSweep **v = arena_alloc(&p->arena, sizeof *v * (size_t)(rp->nsweeps + 1));
	if (rp->nsweeps)
		memcpy(v, rp->sweeps, sizeof *v * (size_t)rp->nsweeps);
	v[rp->nsweeps++] = sw;
	rp->sweeps = v;
}

static const RowSweep *sweep_of(const RowPlan *rp, const Stmt *s)
{
	for (int i = 0; i < rp->nsweeps; i++)
		if (rp->sweeps[i]->loop == s)
			return rp->sweeps[i];
	return NULL;
}

/* ---- the arrays of the sweeps: in registers for a step, rows kept in shared memory ---- */

/* The statements of a sweep: the pass's (element loops, and statements once per step),
 * or the loop itself (its one element loop). */
static Stmt **sweep_items(const RowSweep *sw, int *n)
{
	if (sw->pass)
		return loop_body(sw->loop, n);
	*n = 1;
	return (Stmt **)&sw->loop;
}

static bool is_elem(const RowSweep *sw, const Stmt *s) { return sw->pass ? elem_loop(sw->loop, s) : s == sw->loop; }

static const Var *access_iter(const Var *v, void *ctx)
{
	const Var *const *it = ctx;
	return v == it[0] ? it[1] : NULL;
}

/* a and b are the same expression, iterator ia in a standing for ib in b. */
static bool same_access(const Expr *a, const Var *ia, const Expr *b, const Var *ib)
{
	const Var *it[2] = {ia, ib};
	return expr_equal_map(a, b, access_iter, NULL, it);
}

/* The kept row of local array v, or -1. */
static int local_keep(const RowPlan *rp, const Var *v)
{
	for (int k = 0; k < rp->nkeeps; k++)
		if (rp->keeps[k].local && rp->keeps[k].var == v)
			return k;
	return -1;
}

/* Whether e has one value in the whole sweep (it reads no iterator of the sweep, no local
 * the sweep sets, no array that can change). */
static bool sweep_invariant(const RowSweep *sw, const Stmt *item, const Expr *e)
{
	if (!e)
		return true;
	if (e->kind == EX_VAR || e->kind == EX_INDEX) {
		const Var *v = e->var;
		if (v->kind == VAR_LOOP && (v == sw->loop->var || v == item->var))
			return false;
		if (v->kind == VAR_LOCAL && (stmt_writes_var(sw->loop, v) || stmt_declares(sw->loop->body[0], v)))
			return false;
		if (e->kind == EX_INDEX && !(v->kind == VAR_PARAM && v->is_const))
			return false;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!sweep_invariant(sw, item, e->args[i]))
			return false;
	return true;
}

/* e = it + (terms invariant in the sweep). */
static bool offset_invariant(const RowSweep *sw, const Stmt *item, const Expr *e)
{
	if (e->kind == EX_VAR)
		return e->var == item->var;
	bool left = offset_by(e->args[0], item->var);
	return offset_invariant(sw, item, e->args[left ? 0 : 1]) && sweep_invariant(sw, item, e->args[left ? 1 : 0]);
}

/* An access of loop item's iteration to its own element of a row, contiguous in the
 * iterator: the last subscript the iterator plus terms invariant in the sweep, the others
 * invariant; a parameter array or a local array of the row, of 2 bytes or more, or an
 * output of bytes or fp8 (a quantiser's codes, in vectors of as many bytes as the wider
 * arrays' vectors have elements); byte masks are read element by element. */
static bool own_access(const RowPlan *rp, const RowSweep *sw, const Stmt *item, const Expr *e)
{
	const Var *v = e->var;
	if (!((v->kind == VAR_PARAM && v->ndim) || local_keep(rp, v) >= 0) || (scalar_size(v->ty) < 2 && (v->is_const || v->kind != VAR_PARAM || v->ty == TY_BOOL)))
		return false;
	for (int i = 0; i < e->nargs; i++) {
		const Expr *a = e->args[i];
		if (i == e->nargs - 1 ? !offset_by(a, item->var) || !offset_invariant(sw, item, a) : expr_reads_var(a, item->var) || !sweep_invariant(sw, item, a))
			return false;
	}
	return true;
}

typedef struct Seen {
	Var *var;
	Expr *at;
	const Var *it;
	bool ok, touched, load, store;
} Seen;
typedef VEC(Seen) SeenVec;

static Seen *seen(SeenVec *sv, Var *v)
{
	for (int i = 0; i < sv->n; i++)
		if (sv->v[i].var == v)
			return &sv->v[i];
	vec_push(*sv, ((Seen){.var = v, .ok = true}));
	return &sv->v[sv->n - 1];
}

typedef struct Walk {
	const RowPlan *rp;
	const RowSweep *sw;
	const Stmt *item; /* the element loop, or NULL: a statement once per step */
	SeenVec *sv;
} Walk;

/* An access of array element e; `written`: the target of an assignment (`set`: `=` at
 * the top of the loop's body, its value reading nothing of the array). */
static void walk_access(Walk *w, Expr *e, bool written, bool set)
{
	const Var *v = e->var;
	if (!((v->kind == VAR_PARAM && v->ndim) || local_keep(w->rp, v) >= 0))
		return;
	Seen *s = seen(w->sv, e->var);
	if (!w->item || !own_access(w->rp, w->sw, w->item, e) || (s->at && !same_access(e, w->item->var, s->at, s->it))) {
		s->ok = false;
		return;
	}
	if (!s->at) {
		s->at = e;
		s->it = w->item->var;
	}
	/* The first access decides whether the registers must be loaded: not when it sets
	 * the element whatever happens. */
	if (!s->touched)
		s->load = !set;
	s->touched = true;
	s->store |= written;
}

static void walk_expr(Walk *w, Expr *e)
{
	if (!e)
		return;
	if (e->kind == EX_INDEX)
		walk_access(w, e, false, false);
	for (int i = 0; i < e->nargs; i++)
		walk_expr(w, e->args[i]);
}

static void walk_stmt(Walk *w, Stmt *s, bool top)
{
	if (!s)
		return;
	switch (s->kind) {
	case ST_ASSIGN:
		walk_expr(w, s->rhs);
		for (int i = 0; i < s->lhs->nargs; i++)
			walk_expr(w, s->lhs->args[i]);
		if (s->lhs->kind == EX_INDEX)
			walk_access(w, s->lhs, true, top && s->aop == AS_SET && !expr_reads_var(s->rhs, s->lhs->var));
		return;
	case ST_DECL:
		walk_expr(w, s->rhs);
		return;
	case ST_IF:
		walk_expr(w, s->cond);
		top = false;
		break;
	case ST_FOR:
		walk_expr(w, s->lo);
		walk_expr(w, s->hi);
		top = false;
		break;
	case ST_BLOCK:
		break;
	}
	for (int i = 0; i < s->nbody; i++)
		walk_stmt(w, s->body[i], top);
}

/* e reads only constants and the scalars the launcher has. */
static bool host_expr(const Func *f, const Expr *e)
{
	if (e->kind == EX_INDEX)
		return false;
	if (e->kind == EX_VAR) {
		bool found = false;
		for (int i = 0; i < func_nkparams(f) && !found; i++)
			found = func_kparam(f, i) == e->var && !e->var->ndim;
		return found;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!host_expr(f, e->args[i]))
			return false;
	return true;
}

/* The value of e when it is an integer constant. */
static bool const_int(const Expr *e, long long *v)
{
	long long a, b;
	switch (e->kind) {
	case EX_INT: *v = e->ival; return true;
	case EX_CAST: return scalar_is_int(e->ty) && const_int(e->args[0], v);
	case EX_UN:
		if (e->uop != UOP_NEG || !const_int(e->args[0], &a))
			return false;
		*v = -a;
		return true;
	case EX_BIN:
		if (!const_int(e->args[0], &a) || !const_int(e->args[1], &b))
			return false;
		switch (e->bop) {
		case OP_ADD: *v = a + b; return true;
		case OP_SUB: *v = a - b; return true;
		case OP_MUL: *v = a * b; return true;
		case OP_DIV: if (!b) return false; *v = a / b; return true;
		default: return false;
		}
	default: return false;
	}
}

static long long floor_mod(long long a, long long m) { return ((a % m) + m) % m; }

/* The elements kept of keep k: a local's size; a parameter's hi - base (base = lo
 * rounded down to a multiple of VW), or hi - lo + VW when lo is known at launch only. */
static Expr *keep_elems(Program *p, const RowPlan *rp, const RowKeep *k)
{
	Loc l = k->var->loc;
	if (k->local)
		return k->var->dims[0];
	long long lo;
	if (const_int(k->lo, &lo))
		return ex_bin(p, OP_SUB, k->hi, ex_int(p, k->base, l), l);
	return ex_bin(p, OP_ADD, ex_bin(p, OP_SUB, k->hi, k->lo, l), ex_int(p, rp->vw, l), l);
}

static long long round16(long long n) { return (n + 15) / 16 * 16; }

/* Shared memory the kernel declares itself: the CTA reductions' scratch and the fused
 * form's partials (FX_T floats each), at the largest CTA. */
static long long static_smem(const RowPlan *rp)
{
	return 32 * 4 + (rp->c ? (long long)rp->sb.nparts * 4 * ROW_THREADS_MAX : 0);
}

/* Fills each sweep's arrays, the kept rows, VW and NV, and the kernel's names. */
/* Whether a reduction of the row is in double: a chunk partial of a fused row, or a
 * reduction of a loop into a double (merged in double, as the C adds). */
static bool wide_sum(ScalarType ty);

static bool reduces_double(const RowPlan *rp)
{
	for (int k = 0; rp->c && k < rp->sb.nparts; k++)
		if (wide_sum(rp->sb.parts[k]->ty))
			return true;
	for (int i = 0; i < rp->nsweeps; i++)
		for (int k = 0; k < rp->sweeps[i]->nreds; k++)
			if (wide_sum(rp->sweeps[i]->reds[k].target->var->ty))
				return true;
	return false;
}

/* Whether s is or holds statement x. */
static bool holds_stmt(const Stmt *s, const Stmt *x)
{
	if (!s)
		return false;
	if (s == x)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (holds_stmt(s->body[i], x))
			return true;
	return false;
}

/* hi - lo where the host can compute both (the launcher sizes the CTA by it), else NULL. */
static Expr *host_length(Program *p, const Region *r, const Expr *lo, const Expr *hi)
{
	return lo && host_expr(r->fn, lo) && host_expr(r->fn, hi) ? ex_bin(p, OP_SUB, (Expr *)hi, (Expr *)lo, hi->loc) : NULL;
}

/* A local row that one sweep stores before it reads it, each thread at its own elements,
 * and that nothing else touches lives in that sweep's registers: no row is kept for it,
 * nothing stored (numpy's temporaries read back in the same step, `shifted[c] = x[c] - m;
 * ex[c] = expf(shifted[c]); s += ex[c];`). Drops such rows from *keeps (the local rows,
 * in rp->keeps' order) and renumbers the sweeps' references to the others. */
static void register_rows(RowPlan *rp, void *keeps_vec)
{
	VEC(RowKeep) *keeps = keeps_vec;
	Stmt **st = rp->c ? rp->block->body : rp->stmts;
	int nst = rp->c ? rp->block->nbody : rp->nstmts;
	for (int k = 0; k < keeps->n; k++) {
		const Var *v = keeps->v[k].var;
		const RowSweep *in = NULL;
		int touching = 0;
		for (int i = 0; i < rp->nsweeps; i++)
			if (stmt_reads_var(rp->sweeps[i]->loop, v) || stmt_writes_var(rp->sweeps[i]->loop, v))
				in = rp->sweeps[i], touching++;
		bool regs = touching == 1;
		for (int i = 0; regs && i < nst; i++)
			regs = holds_stmt(st[i], in->loop) || st[i]->kind == ST_DECL || !(stmt_reads_var(st[i], v) || stmt_writes_var(st[i], v));
		const RowArr *a = NULL;
		for (int i = 0; regs && i < in->narrs; i++)
			if (in->arrs[i].var == v)
				a = &in->arrs[i];
		if (!regs || !a || a->load || !a->store)
			continue;
		memmove(&keeps->v[k], &keeps->v[k + 1], sizeof(RowKeep) * (size_t)(keeps->n - k - 1));
		keeps->n--;
		k--;
	}
	rp->keeps = keeps->v;
	rp->nkeeps = keeps->n;
	for (int i = 0; i < rp->nsweeps; i++)
		for (int k = 0; k < rp->sweeps[i]->narrs; k++) {
			RowArr *a = &rp->sweeps[i]->arrs[k];
			if (a->var->kind != VAR_LOCAL)
				continue;
			a->keep = local_keep(rp, a->var);
			if (a->keep < 0)
				a->load = a->store = false;
		}
}

static bool plan_arrays(RowPlan *rp, Program *p, StrVec *made, const char **why)
{
	const Region *r = rp->region;
	/* The local arrays of the row. */
	Stmt **st = rp->c ? rp->block->body : rp->stmts;
	int nst = rp->c ? rp->sb.ichunks : rp->nstmts;
	VEC(RowKeep) keeps = {0};
	for (int i = 0; i < nst; i++)
		if (st[i]->kind == ST_DECL && st[i]->var->ndim && !(rp->c && split_block_decl(&rp->sb, st[i]))) {
			Var *v = st[i]->var;
			if (!host_expr(r->fn, v->dims[0])) {
				vec_free(keeps);
				return fail(why, arena_printf(&p->arena, "the size of the local array '%s' is not known before the kernel runs", v->name));
			}
			/* a row of one step of the fused pass (shrink_step_arrays: indexed from the
			 * step's start) holds each thread's elements of its own step: as one row of
			 * shared memory the threads' steps would overwrite each other's */
			if (rp->c && v->step_row) {
				vec_free(keeps);
				return fail(why, arena_printf(&p->arena, "the fused pass keeps one step of the local row '%s', which the CTA's threads do not share", v->name));
			}
			vec_push(keeps, ((RowKeep){.var = v, .name = v->name, .local = true}));
		}
	rp->locals = keeps.n > 0;
	rp->keeps = keeps.v; /* for local_keep while the sweeps are read */
	rp->nkeeps = keeps.n;
	/* The arrays each sweep accesses at its iterations' own elements. */
	int min_es = 0, max_es = 0, min_wide = 0;
	for (int i = 0; i < rp->nsweeps; i++) {
		RowSweep *sw = rp->sweeps[i];
		SeenVec sv = {0};
		int n;
		Stmt **items = sweep_items(sw, &n);
		for (int k = 0; k < n; k++) {
			Walk w = {rp, sw, is_elem(sw, items[k]) ? items[k] : NULL, &sv};
			walk_stmt(&w, w.item ? items[k]->body[0] : items[k], true);
		}
		int na = 0;
		for (int k = 0; k < sv.n; k++)
			na += sv.v[k].ok;
		sw->arrs = arena_alloc(&p->arena, sizeof(RowArr) * (size_t)(na + 1));
		for (int k = 0; k < sv.n; k++) {
			const Seen *s = &sv.v[k];
			if (!s->ok)
				continue;
			int es = scalar_size(s->var->ty);
			min_es = !min_es || es < min_es ? es : min_es;
			if (es > 1)
				min_wide = !min_wide || es < min_wide ? es : min_wide;
			max_es = es > max_es ? es : max_es;
			sw->arrs[sw->narrs++] = (RowArr){s->var, s->at, s->it, NULL, s->load, s->store, local_keep(rp, s->var), false};
		}
		vec_free(sv);
	}
	register_rows(rp, &keeps);
	rp->locals = keeps.n > 0;
	/* 16 bytes of the narrowest array of 2 bytes or more (bytes beside them move in vectors
	 * of 4 or 8: 16 of them a vector would leave most threads of a short row idle), else of
	 * the bytes */
	rp->vw = min_wide ? 16 / min_wide : min_es ? 16 / min_es : 1;
	/* Vectors per thread and step: 4 (8 elements without vectors), fewer where the
	 * sweep's registers would take more than 128 bytes a thread. */
	rp->nv = min_es ? 4 : 8;
	for (int i = 0; i < rp->nsweeps; i++) {
		RowSweep *sw = rp->sweeps[i];
		int bytes = 0;
		for (int k = 0; k < sw->narrs; k++)
			bytes += rp->vw * scalar_size(sw->arrs[k].var->ty);
		sw->nv = rp->nv;
		while (sw->nv > 1 && sw->nv * bytes > 128)
			sw->nv /= 2;
	}
	/* Read-only rows that a later sweep reads again over the elements a sweep read. */
	for (int i = 0; i < rp->nsweeps; i++)
		for (int k = 0; k < rp->sweeps[i]->narrs; k++) {
			RowSweep *sw = rp->sweeps[i];
			RowArr *a = &sw->arrs[k];
			if (a->var->kind != VAR_PARAM || !a->var->is_const || a->keep >= 0 || !a->load || !host_expr(r->fn, sw->lo) || !host_expr(r->fn, sw->hi))
				continue;
			long long lo_f, lo_s;
			bool clo = const_int(sw->lo, &lo_f);
			for (int j = i + 1; j < rp->nsweeps; j++)
				for (int m = 0; m < rp->sweeps[j]->narrs; m++) {
					RowSweep *s2 = rp->sweeps[j];
					RowArr *b = &s2->arrs[m];
					if (b->var != a->var || b->keep >= 0 || !same_access(b->at, b->it, a->at, a->it) || !expr_equal(s2->hi, sw->hi) ||
					    !(expr_equal(s2->lo, sw->lo) || (clo && const_int(s2->lo, &lo_s) && lo_s >= lo_f)))
						continue;
					if (a->keep < 0) {
						RowKeep kp = {.var = a->var, .lo = sw->lo, .hi = sw->hi, .base = clo ? lo_f - floor_mod(lo_f, rp->vw) : 0};
						kp.name = fresh_name(p, r, made, arena_printf(&p->arena, "%s_row", a->var->name));
						a->keep = keeps.n;
						a->fill = true;
						vec_push(keeps, kp);
					}
					b->keep = a->keep;
				}
		}
	rp->nkeeps = keeps.n;
	rp->keeps = arena_alloc(&p->arena, sizeof(RowKeep) * (size_t)(keeps.n + 1));
	if (keeps.n)
		memcpy(rp->keeps, keeps.v, sizeof(RowKeep) * (size_t)keeps.n);
	vec_free(keeps);
	/* Kept always when the size is known here and any GPU gives a CTA that much without
	 * asking (48 KB); else decided at launch. */
	rp->keep_mode = KEEP_NONE;
	if (rp->nkeeps) {
		long long total = static_smem(rp), n;
		bool known = true;
		for (int k = 0; k < rp->nkeeps; k++) {
			RowKeep *kp = &rp->keeps[k];
			known &= const_int(keep_elems(p, rp, kp), &n);
			if (known)
				total += round16((n > 0 ? n : 0) * scalar_size(kp->var->ty));
		}
		rp->keep_mode = known && total <= 48 * 1024 ? KEEP_ALWAYS : KEEP_LAUNCH;
	}
	/* The row's length, for the CTA size: the fused axis, or the first loop that reduces. */
	const Expr *lo = rp->lo, *hi = rp->hi;
	bool reduces = false;
	for (int i = 0; !rp->c && i < rp->nsweeps; i++)
		if (!lo || (!reduces && rp->sweeps[i]->nreds)) {
			lo = rp->sweeps[i]->lo;
			hi = rp->sweeps[i]->hi;
			reduces = rp->sweeps[i]->nreds > 0;
		}
	rp->len = host_length(p, r, lo, hi);
	/* A reduction over a range read per row (Megatron's causal softmax, `j <= i`): the
	 * length of a loop over the whole row instead (its store, `j < N`), else the CTA
	 * size is chosen for rows of any length (512 threads, mostly idle on rows of 2048) */
	for (int i = 0; !rp->len && i < rp->nsweeps; i++)
		rp->len = host_length(p, r, rp->sweeps[i]->lo, rp->sweeps[i]->hi);
	/* The kernel's own names. */
	for (int i = 0; i < rp->nsweeps; i++)
		for (int k = 0; k < rp->sweeps[i]->narrs; k++) {
			RowArr *a = &rp->sweeps[i]->arrs[k];
			const char *nm = arena_printf(&p->arena, "%s_v", a->var->name);
			/* the same array has the same registers in every sweep */
			a->reg = NULL;
			for (int j = 0; j < i && !a->reg; j++)
				for (int m = 0; m < rp->sweeps[j]->narrs && !a->reg; m++)
					if (rp->sweeps[j]->arrs[m].var == a->var)
						a->reg = rp->sweeps[j]->arrs[m].reg;
			if (!a->reg)
				a->reg = fresh_name(p, r, made, nm);
		}
	rp->row_name = fresh_name(p, r, made, "row_");
	rp->vec_name = fresh_name(p, r, made, "v_");
	rp->elem_name = fresh_name(p, r, made, "k_");
	rp->scratch_name = fresh_name(p, r, made, "fx_scratch");
	rp->t_name = fresh_name(p, r, made, "FX_T");
	rp->keep_name = fresh_name(p, r, made, "FX_KEEP");
	rp->smem_name = fresh_name(p, r, made, "fx_smem");
	rp->ws_name = fresh_name(p, r, made, "fx_ws");
	rp->base_name = fresh_name(p, r, made, "fx_local");
	rp->part_rows = arena_alloc(&p->arena, sizeof(char *) * (size_t)((rp->c ? rp->sb.nparts : 0) + 1));
	for (int k = 0; rp->c && k < rp->sb.nparts; k++)
		rp->part_rows[k] = fresh_name(p, r, made, arena_printf(&p->arena, "%s_rows", rp->sb.parts[k]->name));
	grid_sums(r->loop, &rp->gs);
	for (int i = 0; i < rp->ngrid && rp->gs.n; i++)
		if (rp->grid[i].guard) /* it would leave its part of the sum unwritten */
			return fail(why, "a row past its own end returns, and the rows' parts of a sum across them are all needed");
	for (int i = 0; i < rp->gs.n; i++)
		rp->gs_acc[i] = fresh_name(p, r, made, arena_printf(&p->arena, "%s_acc", grid_sum_base(p, &rp->gs, i)));
	rp->gs_name = fresh_name(p, r, made, "fx_gs");
	rp->scratch_d_name = reduces_double(rp) ? fresh_name(p, r, made, "fx_scratch_d") : NULL;
	return true;
}

/* ---- the fused form ---- */

bool rows_plan(RowPlan *rp, Program *p, const Region *r, const char **why)
{
	memset(rp, 0, sizeof *rp);
	rp->region = r;
	rp->c = fuse_cascade_of(r);
	if (!rp->c)
		return passes_plan(rp, p, why);
	if (rp->c->strategy != STRAT_SPLITK)
		return fail(why, "not a split row reduction");
	Stmt *body = grid_and_row_loops(r, rp->grid, &rp->ngrid);
	if (!grid_host_ends(rp->grid, rp->ngrid))
		return fail(why, "a row loop's end is read per row, and no bound of it is known on the host");
	if (!split_block(body, &rp->sb))
		return fail(why, "the row is not a split-k block");
	rp->block = body;
	rp->lo = rp->c->levels[0]->lo;
	rp->hi = rp->c->levels[0]->hi;
	const SplitBlock *sb = &rp->sb;
	for (int k = 0; k < sb->nparts; k++)
		if (sb->part_cols[k] != 1)
			return fail(why, "a partial has columns");
	for (int i = 0; i < sb->ichunks; i++)
		if (!split_block_decl(sb, body->body[i]) && !flat_stmt(body->body[i]) && !row_array_decl(body->body[i]))
			return fail(why, "a statement before the split holds a loop");
	int n;
	Stmt **cb = loop_body(sb->chunks, &n);
	for (int i = 0; i < n; i++) {
		Stmt *s = cb[i];
		if (s->kind == ST_FOR && s->step > 1) {
			if (rp->pass)
				return fail(why, "the chunk makes two passes");
			rp->pass = s;
			int ne;
			Stmt **pb = loop_body(s, &ne);
			for (int k = 0; k < ne; k++) {
				if (elem_loop(s, pb[k]) ? !flat_stmt(pb[k]->body[0]) : !flat_stmt(pb[k]))
					return fail(why, "a statement of the pass holds a loop or a local array");
				const Var *bad = NULL;
				if (elem_loop(s, pb[k]) && !stmt_along_row(pb[k], pb[k]->body[0], &bad))
					return across_rows(rp, p, pb[k], bad, why);
			}
		} else if (!flat_stmt(s)) {
			return fail(why, "a statement of the chunk holds a loop");
		}
	}
	if (!rp->pass)
		return fail(why, "no pass in the chunk");
	StrVec made = {0};
	RowSweep *ps = arena_alloc(&p->arena, sizeof *ps);
	*ps = (RowSweep){.loop = rp->pass, .pass = true, .lo = rp->lo, .hi = rp->hi, .step = rp->pass->var->name};
	add_sweep(rp, p, ps);
	for (int i = sb->ichunks + 1; i < body->nbody; i++) {
		Stmt *s = body->body[i];
		Expr *t, *g;
		Reducer red;
		if (flat_stmt(s))
			continue;
		if (s->kind == ST_FOR && s->hi->kind == EX_VAR && s->hi->var == sb->ndecl->var) {
			if (!merge_loop(p, s, &t, &red, &g) && !arg_merge(rp->c, s)) {
				vec_free(made);
				return fail(why, "a loop of the merge is not a reduction of the chunks' terms");
			}
			continue;
		}
		/* A loop over the row's elements: independent iterations, or as a pass of the
		 * row as written (stores to a local array of the row, reductions). */
		RowSweep *sw = arena_alloc(&p->arena, sizeof *sw);
		const char *pwhy = NULL;
		const Var *bad = NULL;
		if (s->kind == ST_FOR && !stmt_along_row(s, s->body[0], &bad)) {
			vec_free(made);
			return across_rows(rp, p, s, bad, why);
		}
		if (s->kind == ST_FOR && s->step == 1 && flat_stmt(s->body[0]) && tile_independent_loop(NULL, s)) {
			*sw = (RowSweep){.loop = s, .lo = s->lo, .hi = s->hi};
			sw->step = fresh_name(p, r, &made, arena_printf(&p->arena, "%s0", s->var->name));
			made.n--;
		} else if (!(s->kind == ST_FOR && plan_pass(rp, p, s, sw, &made, &pwhy))) {
			vec_free(made);
			return fail(why, "a loop after the merge is not an independent loop over the row's elements");
		}
		add_sweep(rp, p, sw);
	}
	bool ok = plan_arrays(rp, p, &made, why);
	vec_free(made);
	return ok;
}

typedef VEC(const Var *) VarSet;

static void add_var(VarSet *set, const Var *v)
{
	for (int i = 0; i < set->n; i++)
		if (set->v[i] == v)
			return;
	vec_push(*set, v);
}

/* Whether v is an output of the pass's reductions (its partial stands for it in the loop). */
static bool is_target_array(const RowSweep *ps, const Var *v)
{
	for (int i = 0; ps && i < ps->nreds; i++)
		if (ps->reds[i].target->var == v)
			return true;
	return false;
}

/* The arrays that can change (parameters not const, local arrays) e reads, but the pass's
 * targets. */
static void collect_arrays(const Expr *e, VarSet *out, const RowSweep *ps)
{
	if (!e)
		return;
	if (e->kind == EX_INDEX && (e->var->kind == VAR_LOCAL || !e->var->is_const) && !is_target_array(ps, e->var))
		add_var(out, e->var);
	for (int i = 0; i < e->nargs; i++)
		collect_arrays(e->args[i], out, ps);
}

/* The output arrays statement s reads (rd) and writes (wr). */
static void stmt_arrays(const Stmt *s, VarSet *rd, VarSet *wr, const RowSweep *ps)
{
	if (!s)
		return;
	collect_arrays(s->rhs, rd, ps);
	collect_arrays(s->cond, rd, ps);
	collect_arrays(s->lo, rd, ps);
	collect_arrays(s->hi, rd, ps);
	if (s->kind == ST_ASSIGN) {
		for (int i = 0; i < s->lhs->nargs; i++)
			collect_arrays(s->lhs->args[i], rd, ps);
		if (s->lhs->kind == EX_INDEX && !is_target_array(ps, s->lhs->var)) {
			add_var(wr, s->lhs->var);
			if (s->aop != AS_SET)
				add_var(rd, s->lhs->var);
		}
	}
	for (int i = 0; i < s->nbody; i++)
		stmt_arrays(s->body[i], rd, wr, ps);
}

static bool meets(const VarSet *a, const VarSet *b)
{
	for (int i = 0; i < a->n; i++)
		for (int k = 0; k < b->n; k++)
			if (a->v[i] == b->v[k])
				return true;
	return false;
}

static void add_all(VarSet *to, const VarSet *from)
{
	for (int i = 0; i < from->n; i++)
		add_var(to, from->v[i]);
}

/* The partials of the pass, in place of its targets. */
/* ---- printing ---- */

typedef struct HookCtx {
	const RowPlan *rp;
	const RowSweep *sw; /* the sweep printed (its partials, its registers), or NULL */
	const Stmt *item;   /* its element loop printed, or NULL */
	const Var *subst;   /* an iterator printed as subst_name */
	const char *subst_name;
} HookCtx;

static const RowArr *arr_of(const RowSweep *sw, const Stmt *item, const Expr *e)
{
	for (int i = 0; sw && item && e->kind == EX_INDEX && i < sw->narrs; i++)
		if (sw->arrs[i].var == e->var && same_access(e, item->var, sw->arrs[i].at, sw->arrs[i].it))
			return &sw->arrs[i];
	return NULL;
}

/* The partials of a sweep in place of its reductions' targets, the registers in place of
 * the elements they hold. */
static bool row_hook(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	const HookCtx *h = t->ctx;
	int g = h->rp && (e->kind == EX_INDEX || e->var->accum) ? grid_sum_of(&h->rp->gs, e) : -1;
	if (g >= 0) {
		sb_puts(b, h->rp->gs_acc[g]); /* the row's part of a grid sum */
		return true;
	}
	if (h->subst && e->kind == EX_VAR && e->var == h->subst) {
		sb_puts(b, h->subst_name);
		return true;
	}
	const RowSweep *sw = h->sw;
	for (int i = 0; sw && i < sw->nreds; i++) {
		if (sw->reds[i].target->kind == e->kind && expr_equal(sw->reds[i].target, e)) {
			sb_puts(b, sw->reds[i].part);
			return true;
		}
		if (sw->reds[i].idx && e->kind == EX_VAR && e->var == sw->reds[i].idx->var) {
			sb_puts(b, sw->reds[i].at);
			return true;
		}
	}
	const RowArr *a = arr_of(sw, h->item, e);
	if (a) {
		sb_printf(b, "%s[%s]", a->reg, h->rp->elem_name);
		return true;
	}
	return false;
}

/* In a sweep, an argmax's index expression is its position: the loop's iterator. */
static bool row_expr_hook(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	const HookCtx *h = t->ctx;
	for (int i = 0; h->sw && i < h->sw->nreds; i++)
		if (h->sw->reds[i].idx_f == e) {
			sb_puts(b, h->sw->loop->var->name);
			return true;
		}
	return false;
}

/* Whether s stores to an array of codes: bytes (int8_t, uint8_t) or fp8. */
static bool stores_codes(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->kind == EX_INDEX && scalar_size(s->lhs->var->ty) == 1)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stores_codes(s->body[i]))
			return true;
	return false;
}

/* The device spelling, with the tile printers' fast exponentials. A division stays one in
 * a region that stores codes (a quantiser's x / s): x * (1 / s) may differ from x / s in
 * the last bit, which moves a value across the rounding boundary of its code. */
static PrintTarget row_print(const HookCtx *h)
{
	return (PrintTarget){.type_name = gpu_type,
	                     .flatten_params = true,
	                     .fn_name = device_fn,
	                     .recip_div = !(h->rp && stores_codes(h->rp->region->loop)),
	                     .exp_sub = true,
	                     .var_hook = row_hook,
	                     .expr_hook = row_expr_hook,
	                     .ctx = (void *)h};
}

static void tabs(StrBuf *o, int n)
{
	while (n-- > 0)
		sb_putc(o, '\t');
}

static bool is_zero(const Expr *e) { return e->kind == EX_INT && e->ival == 0; }

/* Whether e reads the loop's iterator other than in the elements held in registers. */
static bool uses_it(const RowSweep *sw, const Stmt *item, const Expr *e)
{
	if (!e || arr_of(sw, item, e))
		return false;
	if (e->kind == EX_VAR && e->var == item->var)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (uses_it(sw, item, e->args[i]))
			return true;
	return false;
}

static bool stmt_uses_it(const RowSweep *sw, const Stmt *item, const Stmt *s)
{
	if (!s)
		return false;
	if (uses_it(sw, item, s->lhs) || uses_it(sw, item, s->rhs) || uses_it(sw, item, s->cond) || uses_it(sw, item, s->lo) || uses_it(sw, item, s->hi))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_uses_it(sw, item, s->body[i]))
			return true;
	return false;
}

/* `it >= lo && it < hi`: an element of the row (lo left out when it is 0). */
static void print_guard(StrBuf *o, const RowSweep *sw, const char *it, const PrintTarget *pt)
{
	if (!is_zero(sw->lo)) {
		sb_printf(o, "%s >= ", it);
		print_operand_to(o, sw->lo, OP_GE, pt);
		sb_puts(o, " && ");
	}
	sb_printf(o, "%s < ", it);
	print_operand_to(o, sw->hi, OP_LT, pt);
}

/* The thread's element k_ of step j0, or (vec) the first element of its vector v_. */
static void print_elem(StrBuf *o, const RowPlan *rp, const char *j0, bool vec)
{
	const char *t = rp->t_name;
	if (vec)
		sb_printf(o, rp->vw == 1 ? "%s + %s * %s + (int)threadIdx.x" : "%s + (%s * %s + (int)threadIdx.x) * %d", j0, rp->vec_name, t, rp->vw);
	else if (rp->vw == 1)
		sb_printf(o, "%s + %s * %s + (int)threadIdx.x", j0, rp->elem_name, t);
	else
		sb_printf(o, "%s + (%s / %d * %s + (int)threadIdx.x) * %d + %s %% %d", j0, rp->elem_name, rp->vw, t, rp->vw, rp->elem_name, rp->vw);
}

static const char *keep_cond(const RowPlan *rp) { return rp->keep_mode == KEEP_LAUNCH ? rp->keep_name : NULL; }

/* Element `it` of kept row k: k[it - base]. */
static void print_kept(StrBuf *o, const RowPlan *rp, const RowKeep *k, const char *it, const PrintTarget *pt)
{
	long long lo;
	sb_printf(o, "%s[%s", k->name, it);
	if (!const_int(k->lo, &lo)) {
		sb_puts(o, " - fx::align_down(");
		print_expr_to(o, k->lo, pt);
		sb_printf(o, ", %d)", rp->vw);
	} else if (k->base) {
		sb_printf(o, " %c %lld", k->base > 0 ? '-' : '+', k->base > 0 ? k->base : -k->base);
	}
	sb_putc(o, ']');
}

/* Where the thread reads the element of array a (iterator `it` declared): its kept row,
 * or its own array; `addr`: the address. */
static void print_src(StrBuf *o, const RowPlan *rp, const RowArr *a, const char *it, bool addr, const PrintTarget *plain)
{
	const char *amp = addr ? "&" : "";
	if (a->keep >= 0 && !a->fill && !rp->keeps[a->keep].local) {
		if (keep_cond(rp))
			sb_printf(o, "%s ? ", keep_cond(rp));
		sb_puts(o, amp);
		print_kept(o, rp, &rp->keeps[a->keep], it, plain);
		if (!keep_cond(rp))
			return;
		sb_puts(o, " : ");
	}
	sb_puts(o, amp);
	print_expr_to(o, a->at, plain);
}

/* Array b's register moved to or from the row (load or store) at element `it`: its vector
 * `v` whole (vec: 16-byte copies), or its element `v`; the kept row too, where b fills it. */
static void print_move(StrBuf *o, const RowPlan *rp, const RowArr *b, const char *v, const char *it, bool vec, bool load, int in, const PrintTarget *plain)
{
	const RowKeep *kp = b->fill ? &rp->keeps[b->keep] : NULL;
	int bytes = rp->vw * scalar_size(b->var->ty);
	tabs(o, in);
	if (vec) {
		if (load) {
			sb_printf(o, "fx::copy<%d>(&%s[%s * %d], ", bytes, b->reg, v, rp->vw);
			print_src(o, rp, b, it, true, plain);
		} else {
			sb_printf(o, "fx::copy<%d>(&", bytes);
			print_expr_to(o, b->at, plain);
			sb_printf(o, ", &%s[%s * %d]", b->reg, v, rp->vw);
		}
		sb_puts(o, ");\n");
	} else {
		if (load) {
			sb_printf(o, "%s[%s] = ", b->reg, v);
			print_src(o, rp, b, it, false, plain);
		} else {
			print_expr_to(o, b->at, plain);
			sb_printf(o, " = %s[%s]", b->reg, v);
		}
		sb_puts(o, ";\n");
	}
	if (!kp)
		return;
	tabs(o, in);
	if (keep_cond(rp))
		sb_printf(o, "if (%s)\n", keep_cond(rp)), tabs(o, in + 1);
	if (vec) {
		sb_printf(o, "fx::copy<%d>(&", bytes);
		print_kept(o, rp, kp, it, plain);
		sb_printf(o, ", &%s[%s * %d]);\n", b->reg, v, rp->vw);
	} else {
		print_kept(o, rp, kp, it, plain);
		sb_printf(o, " = %s[%s];\n", b->reg, v);
	}
}

/* The alignment test of array a's vector at `at`: fx::aligned16, or fx::aligned<4> or <8>
 * for a vector of bytes narrower than 16. */
static void print_aligned(StrBuf *o, const RowPlan *rp, const RowArr *a, const PrintTarget *pt)
{
	int bytes = rp->vw * scalar_size(a->var->ty);
	if (bytes >= 16)
		sb_puts(o, " && fx::aligned16(&");
	else
		sb_printf(o, " && fx::aligned<%d>(&", bytes);
	print_expr_to(o, a->at, pt);
	sb_putc(o, ')');
}

/* Whether b moves with a (load or store) at a's iterator; a itself among them. */
static bool moves_at(const RowArr *a, const RowArr *b, bool load)
{
	return (load ? b->load : b->store) && !strcmp(b->it->name, a->it->name);
}

/* `start >= lo && start + len <= hi`: the elements [start, start + len) all inside the
 * sweep's range (lo left out when it is 0). */
static void print_span_inside(StrBuf *o, const RowSweep *sw, const char *start, const char *len, const PrintTarget *pt)
{
	if (!is_zero(sw->lo)) {
		sb_printf(o, "%s >= ", start);
		print_operand_to(o, sw->lo, OP_GE, pt);
		sb_puts(o, " && ");
	}
	sb_printf(o, "%s + %s <= ", start, len);
	print_operand_to(o, sw->hi, OP_LE, pt);
}

/* The moves of every array that moves with sw->arrs[i] at its iterator (print_move). */
static void print_moves_at(StrBuf *o, const RowPlan *rp, const RowSweep *sw, int i, const char *v, bool vec, bool load, int in, const PrintTarget *plain)
{
	for (int k = i; k < sw->narrs; k++)
		if (moves_at(&sw->arrs[i], &sw->arrs[k], load))
			print_move(o, rp, &sw->arrs[k], v, sw->arrs[i].it->name, vec, load, in, plain);
}

/* Element k_'s moves in a step the row's ends cut: its iterator, and the moves where it is
 * inside the row (print_guard), at indentation ind. */
static void print_guarded_moves(StrBuf *o, const RowPlan *rp, const RowSweep *sw, int i, bool load, int ind, const PrintTarget *plain)
{
	const char *it = sw->arrs[i].it->name;
	if (rp->vw > 1) { /* inside a vector's loop, which declared `it` for the vector */
		tabs(o, ind);
		sb_printf(o, "const int %s = ", it);
		print_elem(o, rp, sw->step, false);
		sb_puts(o, ";\n");
	}
	tabs(o, ind);
	sb_puts(o, "if (");
	print_guard(o, sw, it, plain);
	sb_puts(o, ") {\n");
	print_moves_at(o, rp, sw, i, rp->elem_name, false, load, ind + 1, plain);
	tabs(o, ind);
	sb_puts(o, "}\n");
}

/* The loads (load) or stores of the sweep's registers in a step: whole vectors (fast), or
 * in a step that the row's ends cut, each vector whole where it is inside the row and
 * 16-byte aligned (the row's start decides), else element by element inside the row. One
 * loop per iterator name. */
static void print_moves(StrBuf *o, const RowPlan *rp, const RowSweep *sw, int ind, bool fast, bool load, const PrintTarget *plain)
{
	bool vec = fast || rp->vw > 1;
	const char *v = vec ? rp->vec_name : rp->elem_name;
	int n = vec ? sw->nv : sw->nv * rp->vw;
	for (int i = 0; i < sw->narrs; i++) {
		const RowArr *a = &sw->arrs[i];
		if (!(load ? a->load : a->store))
			continue;
		bool first = true;
		for (int k = 0; k < i && first; k++)
			first = !moves_at(a, &sw->arrs[k], load);
		if (!first)
			continue;
		const char *it = a->it->name;
		tabs(o, ind);
		sb_printf(o, "#pragma unroll\n");
		tabs(o, ind);
		sb_printf(o, "for (int %s = 0; %s < %d; %s++) {\n", v, v, n, v);
		tabs(o, ind + 1);
		sb_printf(o, "const int %s = ", it);
		print_elem(o, rp, sw->step, vec);
		sb_puts(o, ";\n");
		if (fast) {
			print_moves_at(o, rp, sw, i, v, true, load, ind + 1, plain);
		} else if (!vec) {
			print_guarded_moves(o, rp, sw, i, load, ind + 1, plain);
		} else {
			char vw[16];
			snprintf(vw, sizeof vw, "%d", rp->vw);
			tabs(o, ind + 1);
			sb_puts(o, "if (");
			print_span_inside(o, sw, it, vw, plain);
			for (int k = i; k < sw->narrs; k++)
				if (moves_at(a, &sw->arrs[k], load) && sw->arrs[k].var->kind == VAR_PARAM)
					print_aligned(o, rp, &sw->arrs[k], plain);
			sb_puts(o, ") {\n");
			print_moves_at(o, rp, sw, i, v, true, load, ind + 2, plain);
			tabs(o, ind + 1);
			sb_puts(o, "} else {\n");
			tabs(o, ind + 2);
			sb_puts(o, "#pragma unroll\n");
			tabs(o, ind + 2);
			sb_printf(o, "for (int %s = %s * %d; %s < %s * %d + %d; %s++) {\n", rp->elem_name, v, rp->vw, rp->elem_name, v, rp->vw, rp->vw, rp->elem_name);
			print_guarded_moves(o, rp, sw, i, load, ind + 3, plain);
			tabs(o, ind + 2);
			sb_puts(o, "}\n");
			tabs(o, ind + 1);
			sb_puts(o, "}\n");
		}
		tabs(o, ind);
		sb_puts(o, "}\n");
	}
}

/* One step of the sweep: the loads, its statements (an element loop over the thread's
 * elements; once per step the statements between them), the stores. */
static void print_step(StrBuf *o, const RowPlan *rp, const RowSweep *sw, int ind, bool fast)
{
	HookCtx hc = {.rp = rp, .sw = sw}, none = {.rp = rp};
	PrintTarget pt = row_print(&hc), plain = row_print(&none);
	print_moves(o, rp, sw, ind, fast, true, &plain);
	int n;
	Stmt **items = sweep_items(sw, &n);
	for (int i = 0; i < n; i++) {
		Stmt *s = items[i];
		if (!is_elem(sw, s)) {
			tabs(o, ind);
			print_stmt_to(o, s, ind, &pt);
			continue;
		}
		const char *k = rp->elem_name;
		const Stmt *b = s->body[0];
		hc.item = s;
		tabs(o, ind);
		sb_puts(o, "#pragma unroll\n");
		tabs(o, ind);
		sb_printf(o, "for (int %s = 0; %s < %d; %s++) {\n", k, k, sw->nv * rp->vw, k);
		if (!fast || stmt_uses_it(sw, s, b)) {
			tabs(o, ind + 1);
			sb_printf(o, "const int %s = ", s->var->name);
			print_elem(o, rp, sw->step, false);
			sb_puts(o, ";\n");
		}
		tabs(o, ind + 1);
		if (!fast) {
			sb_puts(o, "if (");
			print_guard(o, sw, s->var->name, &plain);
			sb_puts(o, ") ");
			if (b->kind != ST_BLOCK && b->kind != ST_ASSIGN) {
				sb_puts(o, "{\n");
				tabs(o, ind + 2);
				print_stmt_to(o, b, ind + 2, &pt);
				tabs(o, ind + 1);
				sb_puts(o, "}\n");
				b = NULL;
			}
		}
		if (b)
			print_stmt_to(o, b, ind + 1, &pt);
		tabs(o, ind);
		sb_puts(o, "}\n");
		hc.item = NULL;
	}
	print_moves(o, rp, sw, ind, fast, false, &plain);
}

/* An argmax pair after its sweep: the threads' pairs merged over the CTA, then, when some
 * element was taken, the value and the index set from its position. */
static void print_arg_result(StrBuf *o, const RowPlan *rp, const RowSweep *sw, const RowRed *rr, int ind)
{
	HookCtx none = {.rp = rp}, at = {.rp = rp, .subst = sw->loop->var, .subst_name = rr->at};
	PrintTarget plain = row_print(&none), pt = row_print(&at);
	sb_printf(o, "fx::cta_arg<%s, %s>(%s, %s, %s);\n", rr->red == RED_MAX ? "true" : "false", rr->last ? "true" : "false", rr->part, rr->at, rp->scratch_name);
	tabs(o, ind);
	sb_printf(o, "if (%s != %s) {\n", rr->at, rr->last ? "-2147483647 - 1" : "2147483647");
	tabs(o, ind + 1);
	print_expr_to(o, rr->target, &plain);
	sb_printf(o, " = %s;\n", rr->part);
	tabs(o, ind + 1);
	print_expr_to(o, rr->idx, &plain);
	sb_puts(o, " = ");
	print_expr_to(o, rr->idx_f, &pt);
	sb_puts(o, ";\n");
	tabs(o, ind);
	sb_puts(o, "}\n");
}

/* A sweep: its partials, its steps, the partials merged over the CTA. */
/* A CTA reduction of type ty (float or double): its scratch, and the suffix of the C
 * math functions (fmaxf, fmax). */
static bool wide_sum(ScalarType ty) { return ty == TY_DOUBLE || ty == TY_INT || ty == TY_I64; }
/* (an integer count is merged in double: exact below 2^53, where float's scratch stops at 2^24) */
static const char *scratch_of(const RowPlan *rp, ScalarType ty) { return wide_sum(ty) ? rp->scratch_d_name : rp->scratch_name; }
static const char *fn_suffix(ScalarType ty) { return ty == TY_DOUBLE ? "" : "f"; }

/* The shared scratch of the CTA reductions. */
static void print_scratch(StrBuf *out, const RowPlan *rp)
{
	sb_printf(out, "\t__shared__ float %s[32];\n", rp->scratch_name);
	if (rp->scratch_d_name)
		sb_printf(out, "\t__shared__ double %s[32];\n", rp->scratch_d_name);
}

static void print_sweep(StrBuf *o, const RowPlan *rp, const RowSweep *sw, int ind)
{
	HookCtx none = {.rp = rp};
	PrintTarget plain = row_print(&none);
	const Stmt *l = sw->loop;
	const char *j0 = sw->step, *t = rp->t_name;
	int per = sw->nv * rp->vw;
	tabs(o, ind);
	if (sw->pass) {
		sb_printf(o, "{ /* the pass, %d elements per thread and step */\n", per);
	} else {
		sb_printf(o, "{ /* line %d: for (%s ...): ", l->loc.line, l->var->name);
		for (int i = 0; i < sw->nreds; i++)
			sb_printf(o, "%s%s", i ? ", " : "", sw->reds[i].target->var->name);
		sb_printf(o, "%s, %d elements per thread and step */\n", sw->nreds ? " over the thread's elements, then over the CTA" : "the elements over the threads", per);
	}
	for (int i = 0; i < sw->nreds; i++) {
		const RowRed *rr = &sw->reds[i];
		tabs(o, ind + 1);
		if (rr->idx) {
			/* from the row's pair: the merge then needs no other step */
			sb_printf(o, "float %s = ", rr->part);
			print_expr_to(o, rr->target, &plain);
			sb_printf(o, ";\n");
			tabs(o, ind + 1);
			sb_printf(o, "int %s = %s;\n", rr->at, rr->last ? "-2147483647 - 1" : "2147483647");
			continue;
		}
		bool dbl = wide_sum(rr->target->var->ty);
		sb_printf(o, "%s %s = %s;\n", dbl ? "double" : "float", rr->part, rr->red == RED_ADD ? (dbl ? "0.0" : "0.0f") : rr->red == RED_MAX ? "-INFINITY" : "INFINITY");
	}
	tabs(o, ind + 1);
	sb_printf(o, "for (int %s = ", j0);
	if (is_zero(sw->lo)) {
		sb_puts(o, "0");
	} else {
		sb_puts(o, "fx::align_down(");
		print_expr_to(o, sw->lo, &plain);
		if (rp->vw == 1)
			sb_printf(o, ", %s)", t);
		else
			sb_printf(o, ", %d * %s)", rp->vw, t);
	}
	sb_printf(o, "; %s < ", j0);
	print_operand_to(o, sw->hi, OP_LT, &plain);
	sb_printf(o, "; %s += %d * %s) {\n", j0, per, t);
	for (int i = 0; i < sw->narrs; i++) {
		bool first = true;
		for (int k = 0; k < i; k++)
			first &= strcmp(sw->arrs[k].reg, sw->arrs[i].reg) != 0;
		if (!first)
			continue;
		tabs(o, ind + 2);
		sb_printf(o, "alignas(16) %s %s[%d];\n", gpu_type(sw->arrs[i].var->ty), sw->arrs[i].reg, per);
	}
	/* whole, and 16-byte aligned where the arrays are in global memory */
	tabs(o, ind + 2);
	sb_puts(o, "if (");
	char step[64];
	snprintf(step, sizeof step, "%d * %s", per, t);
	print_span_inside(o, sw, j0, step, &plain);
	for (int i = 0; i < sw->narrs; i++) {
		const RowArr *a = &sw->arrs[i];
		bool first = a->var->kind == VAR_PARAM;
		for (int k = 0; k < i && first; k++)
			first = !(sw->arrs[k].var == a->var && same_access(sw->arrs[k].at, sw->arrs[k].it, a->at, a->it));
		if (!first)
			continue;
		HookCtx at = {.rp = rp, .subst = a->it, .subst_name = j0};
		PrintTarget apt = row_print(&at);
		print_aligned(o, rp, a, &apt);
	}
	sb_puts(o, ") {\n");
	print_step(o, rp, sw, ind + 3, true);
	tabs(o, ind + 2);
	sb_puts(o, "} else {\n");
	print_step(o, rp, sw, ind + 3, false);
	tabs(o, ind + 2);
	sb_puts(o, "}\n");
	tabs(o, ind + 1);
	sb_puts(o, "}\n");
	for (int i = 0; i < sw->nreds; i++) {
		const RowRed *rr = &sw->reds[i];
		const char *op = rr->red == RED_ADD ? "sum" : rr->red == RED_MAX ? "max" : "min";
		ScalarType ty = rr->target->var->ty;
		tabs(o, ind + 1);
		if (rr->idx) {
			print_arg_result(o, rp, sw, rr, ind + 1);
			continue;
		}
		if (rr->target->kind == EX_INDEX) {
			/* Every thread takes part in the reduction; thread 0 stores. */
			sb_printf(o, "%s = fx::cta_%s(%s, %s);\n", rr->part, op, rr->part, scratch_of(rp, ty));
			tabs(o, ind + 1);
			sb_puts(o, "if (threadIdx.x == 0)\n");
			tabs(o, ind + 2);
		}
		print_expr_to(o, rr->target, &plain);
		const char *merged = rr->target->kind == EX_INDEX ? rr->part : NULL;
		if (rr->red == RED_ADD) {
			if (merged)
				sb_printf(o, " += %s;\n", merged);
			else
				sb_printf(o, " += fx::cta_sum(%s, %s);\n", rr->part, scratch_of(rp, ty));
		} else {
			sb_printf(o, " = f%s%s(", op, fn_suffix(ty));
			print_expr_to(o, rr->target, &plain);
			if (merged)
				sb_printf(o, ", %s);\n", merged);
			else
				sb_printf(o, ", fx::cta_%s(%s, %s));\n", op, rr->part, scratch_of(rp, ty));
		}
	}
	tabs(o, ind);
	sb_puts(o, "}\n");
}

/* An argmax pair's merge: every thread's chunk pair merged over the CTA into its own
 * (fx::cta_arg), then into the pair as the chunk loop would. */
static void print_arg_merge(StrBuf *out, const RowPlan *rp, const Stmt *s, const Accum *a, const PrintTarget *pt)
{
	int n;
	Stmt **b = loop_body(s, &n);
	const char *ch = s->var->name;
	sb_printf(out, "\t{\n\t\tconst int %s = threadIdx.x;\n", ch);
	sb_printf(out, "\t\tfx::cta_arg<%s, %s>(%s[%s], %s[%s], %s);\n\t\t", a->red == RED_MAX ? "true" : "false", a->last ? "true" : "false", a->part->name, ch,
	          a->at_part->name, ch, rp->scratch_name);
	print_stmt_to(out, b[0], 2, pt);
	sb_puts(out, "\t}\n");
}

static void print_merge_loop(StrBuf *out, const RowPlan *rp, const Stmt *s, const PrintTarget *pt)
{
	const Accum *a = arg_merge(rp->c, s);
	if (a) {
		print_arg_merge(out, rp, s, a, pt);
		return;
	}
	Expr *t, *g;
	Reducer red;
	merge_loop(rp->c->prog, s, &t, &red, &g);
	int n;
	Stmt **b = loop_body(s, &n);
	const char *op = red == RED_ADD ? "sum" : red == RED_MAX ? "max" : "min";
	sb_printf(out, "\t{\n\t\tconst int %s = threadIdx.x;\n", s->var->name);
	for (int i = 0; i < n - 1; i++) {
		sb_puts(out, "\t\t");
		print_stmt_to(out, b[i], 2, pt);
	}
	sb_puts(out, "\t\t");
	print_expr_to(out, t, pt);
	if (red == RED_ADD) {
		sb_puts(out, " += fx::cta_sum(");
	} else {
		sb_printf(out, " = f%s%s(", op, fn_suffix(t->var->ty));
		print_expr_to(out, t, pt);
		sb_printf(out, ", fx::cta_%s(", op);
	}
	print_expr_to(out, g, pt);
	sb_printf(out, ", %s)%s;\n\t}\n", scratch_of(rp, t->var->ty), red == RED_ADD ? "" : ")");
}

/* A row statement outside the loops over its elements: run by every thread, or, when it
 * stores to an array, by thread 0. */
static void print_row_stmt(StrBuf *out, const Stmt *s, const PrintTarget *pt)
{
	if (!stmt_stores_array(s)) {
		sb_putc(out, '\t');
		print_stmt_to(out, s, 1, pt);
	} else if (s->kind == ST_ASSIGN) {
		sb_puts(out, "\tif (threadIdx.x == 0)\n\t\t");
		print_stmt_to(out, s, 2, pt);
	} else {
		sb_puts(out, "\tif (threadIdx.x == 0) {\n\t\t");
		print_stmt_to(out, s, 2, pt);
		sb_puts(out, "\t}\n");
	}
}


/* The row's statements from st[0], in order, each sweep printed as one; a barrier before
 * each that reads or overwrites what other threads may have stored since the last one (rd,
 * wr: what was read and stored since). */
static void print_items(StrBuf *out, const RowPlan *rp, Stmt *const *st, int n, VarSet *rd, VarSet *wr, const PrintTarget *pt)
{
	for (int i = 0; i < n; i++) {
		const Stmt *s = st[i];
		if (s->kind == ST_DECL && s->var->ndim)
			continue; /* a local array of the row: declared with the kept rows */
		const RowSweep *sw = sweep_of(rp, s);
		VarSet srd = {0}, swr = {0};
		stmt_arrays(s, &srd, &swr, sw);
		if (meets(&swr, rd) || meets(&swr, wr) || meets(&srd, wr)) {
			sb_printf(out, "\tfx::row_sync<%s>(); /* what other threads stored before is read or overwritten next */\n", rp->t_name);
			rd->n = wr->n = 0;
		}
		add_all(rd, &srd);
		add_all(wr, &swr);
		if (sw) {
			print_sweep(out, rp, sw, 1);
			if (sw->nreds) {
				/* The CTA reductions wait for every thread's loop; their stores are
				 * thread 0's. */
				rd->n = wr->n = 0;
				for (int k = 0; k < sw->nreds; k++)
					if (sw->reds[k].target->kind == EX_INDEX) {
						add_var(rd, sw->reds[k].target->var);
						add_var(wr, sw->reds[k].target->var);
					}
			}
		} else {
			print_row_stmt(out, s, pt);
		}
		vec_free(srd);
		vec_free(swr);
	}
}

/* Bytes of kept row k: fx::row_bytes(elements, size). */
static void print_keep_bytes(StrBuf *out, const RowPlan *rp, const RowKeep *k, const PrintTarget *pt)
{
	long long lo;
	sb_puts(out, "fx::row_bytes(");
	if (k->local) {
		print_expr_to(out, k->var->dims[0], pt);
	} else if (const_int(k->lo, &lo)) {
		print_operand_to(out, k->hi, OP_SUB, pt);
		if (k->base)
			sb_printf(out, " %c %lld", k->base > 0 ? '-' : '+', k->base > 0 ? k->base : -k->base);
	} else {
		print_operand_to(out, k->hi, OP_SUB, pt);
		sb_puts(out, " - ");
		print_operand_to(out, k->lo, OP_SUB, pt);
		sb_printf(out, " + %d", rp->vw);
	}
	sb_printf(out, ", sizeof(%s))", gpu_type(k->var->ty));
}

static void print_keep_total(StrBuf *out, const RowPlan *rp, int n, const PrintTarget *pt)
{
	for (int k = 0; k < n; k++) {
		sb_puts(out, k ? " + " : "");
		print_keep_bytes(out, rp, &rp->keeps[k], pt);
	}
	if (!n)
		sb_putc(out, '0');
}

/* The workspace's element type: float while every grid sum adds floats; else double,
 * which holds the integer counts exactly (to 2^53). */
static const char *gs_type(const RowPlan *rp)
{
	for (int i = 0; i < rp->gs.n; i++)
		if (rp->gs.vars[i]->ty != TY_FLOAT)
			return "double";
	return "float";
}

/* The template, the name and the parameters; the kept rows' pointers (before the row's
 * coordinates, which consume row_). */
static void print_kernel_head(StrBuf *out, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool))
{
	const Region *r = rp->region;
	bool ws = rp->keep_mode == KEEP_LAUNCH && rp->locals;
	sb_printf(out, "template <int %s", rp->t_name);
	if (keep_cond(rp))
		sb_printf(out, ", bool %s", rp->keep_name);
	sb_printf(out, ">\n__global__ void __launch_bounds__(%s * fx::cta_rows(%s)) %s_kernel(", rp->t_name, rp->t_name, r->name);
	print_params(out, r->fn, true);
	if (ws)
		sb_printf(out, ", unsigned char *__restrict__ %s", rp->ws_name);
	if (rp->gs.n)
		sb_printf(out, ", %s *__restrict__ %s", gs_type(rp), rp->gs_name);
	sb_puts(out, ")\n{\n");
}

/* Whether the sum kernel runs the function's own code: a set-up sum it adds to, or the
 * statements after the last region. It then takes the kernel's parameters. */
static bool gsum_runs_tail(const RowPlan *rp)
{
	const Func *f = rp->region->fn;
	bool last = f->regions[f->nregions - 1] == rp->region;
	for (int i = 0; i < rp->gs.n; i++)
		if (rp->gs.vars[i]->accum)
			return true;
	return last && f->ntail > 0;
}

/* Whether grid sum i is the first into its array (the sum kernel's parameter). */
static bool first_sum_into(const RowPlan *rp, int i)
{
	for (int k = 0; k < i; k++)
		if (rp->gs.vars[k] == rp->gs.vars[i])
			return false;
	return true;
}

/* `loss[0]` or `total`: what grid sum i adds to. */
static void print_gs_elem(StrBuf *out, const RowPlan *rp, int i)
{
	sb_puts(out, rp->gs.vars[i]->name);
	if (rp->gs.elems[i]->kind == EX_INDEX)
		sb_printf(out, "[%lld]", rp->gs.elems[i]->args[0]->ival);
}

/* Where grid sum i's parts start: 0 (0.0f in a float), -INFINITY for a maximum, INFINITY
 * for a minimum. */
static const char *gs_identity(const RowPlan *rp, int i, bool f)
{
	AccumKind k = rp->gs.kinds[i];
	return k == ACCUM_MAX ? "-INFINITY" : k == ACCUM_MIN ? "INFINITY" : f ? "0.0f" : "0";
}

/* `@s += x` for a sum, `@s = fmaxf(@s, x)` for a maximum (fmax in double), ... */
static void print_gs_step(StrBuf *out, const RowPlan *rp, int i, const char *s, bool f, const char *x)
{
	AccumKind k = rp->gs.kinds[i];
	if (k == ACCUM_SUM)
		sb_printf(out, "%s += %s;\n", s, x);
	else
		sb_printf(out, "%s = %s%s(%s, %s);\n", s, k == ACCUM_MAX ? "fmax" : "fmin", f ? "f" : "", s, x);
}

/* The row's parts of the grid sums: from 0 at the start; at the end, thread 0's (the
 * thread that runs the row's stores) to the workspace. */
static void print_gs_start(StrBuf *out, const RowPlan *rp)
{
	for (int i = 0; i < rp->gs.n; i++) {
		ScalarType t = grid_sum_type(rp->gs.vars[i]);
		sb_printf(out, "	%s %s = %s; /* this row's part of ", gpu_type(t), rp->gs_acc[i], gs_identity(rp, i, t == TY_FLOAT));
		print_gs_elem(out, rp, i);
		sb_puts(out, " */\n");
	}
}

static void print_gs_end(StrBuf *out, const RowPlan *rp)
{
	if (!rp->gs.n)
		return;
	sb_puts(out, "\tif (threadIdx.x == 0) {\n");
	for (int i = 0; i < rp->gs.n; i++) {
		sb_printf(out, "\t\t%s[%dLL * ", rp->gs_name, i);
		print_rows(out, rp->grid, rp->ngrid);
		sb_printf(out, " + (long long)blockIdx.x * fx::cta_rows(%s) + threadIdx.y] = %s%s;\n", rp->t_name, grid_sum_type(rp->gs.vars[i]) == TY_I64 ? "(double)" : "",
		          rp->gs_acc[i]);
	}
	sb_puts(out, "\t}\n");
}

/* `<region>_gsum`: one CTA adds the rows' parts of each grid sum, each thread over rows
 * t, t + 256, ... in order, then the CTA's tree: a fixed order, the same sum every run.
 * Thread 0 adds each sum to its element, or to its set-up value, and runs the statements
 * after the last region when this is the last region. */
static void emit_gsum_kernel(StrBuf *out, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool))
{
	if (!rp->gs.n)
		return;
	size_t start = out->len;
	const char *ws = gs_type(rp);
	const Func *f = rp->region->fn;
	bool tail = gsum_runs_tail(rp);
	sb_printf(out, "\n__global__ void __launch_bounds__(256) %s_gsum(const %s *__restrict__ %s, long long @rows", rp->region->name, ws, rp->gs_name);
	if (tail) {
		sb_puts(out, ", ");
		print_params(out, f, true);
	}
	for (int i = 0; !tail && i < rp->gs.n; i++)
		if (first_sum_into(rp, i))
			sb_printf(out, ", %s *__restrict__ %s", gpu_type(rp->gs.vars[i]->ty), rp->gs.vars[i]->name);
	sb_printf(out, ")\n{\n\t__shared__ %s %s[32];\n", ws, rp->scratch_name);
	for (int i = 0; i < rp->gs.n; i++) {
		const Var *v = rp->gs.vars[i];
		AccumKind k = rp->gs.kinds[i];
		bool f = *ws == 'f';
		sb_printf(out, "\t{\n\t\t%s @s = %s;\n\t\tfor (long long @k = threadIdx.x; @k < @rows; @k += blockDim.x)\n\t\t\t", ws, k == ACCUM_SUM ? (f ? "0.0f" : "0.0") : gs_identity(rp, i, f));
		StrBuf x = {0}, e = {0};
		sb_printf(&x, "%s[%dLL * @rows + @k]", rp->gs_name, i);
		print_gs_step(out, rp, i, "@s", f, x.s);
		sb_printf(out, "\t\t@s = fx::cta_%s(@s, %s);\n\t\tif (threadIdx.x == 0)\n\t\t\t", k == ACCUM_SUM ? "sum" : k == ACCUM_MAX ? "max" : "min", rp->scratch_name);
		print_gs_elem(&e, rp, i);
		const char *vt = gpu_type(v->ty);
		x.len = 0;
		if (strcmp(vt, ws))
			sb_printf(&x, "(%s)@s", vt);
		else
			sb_puts(&x, "@s");
		print_gs_step(out, rp, i, e.s, v->ty == TY_FLOAT, x.s);
		sb_free(&x);
		sb_free(&e);
		sb_puts(out, "\t}\n");
	}
	if (tail && f->regions[f->nregions - 1] == rp->region && f->ntail) {
		HookCtx none = {0};
		PrintTarget pt = row_print(&none);
		sb_puts(out, "\tif (threadIdx.x == 0) { /* the statements after the last region */\n");
		for (int i = 0; i < f->ntail; i++) {
			sb_puts(out, "\t\t");
			print_stmt_to(out, f->tail[i], 2, &pt);
		}
		sb_puts(out, "\t}\n");
	}
	sb_puts(out, "}\n");
	name_generated(out, start, f);
}

static void print_kept_rows(StrBuf *out, const RowPlan *rp, const PrintTarget *pt)
{
	if (!rp->nkeeps)
		return;
	sb_printf(out, "\tunsigned char *%s = fx::dyn_smem() + (size_t)threadIdx.y * (", rp->smem_name);
	print_keep_total(out, rp, rp->nkeeps, pt);
	sb_puts(out, "); /* the rows kept between the loops over them (this row's, of the CTA's) */\n");
	const char *local = rp->smem_name;
	if (rp->keep_mode == KEEP_LAUNCH && rp->locals) {
		local = rp->base_name;
		sb_printf(out, "\tunsigned char *%s = %s ? %s : %s + (size_t)%s * (", local, rp->keep_name, rp->smem_name, rp->ws_name, rp->row_name);
		print_keep_total(out, rp, rp->nkeeps, pt);
		sb_puts(out, "); /* the local arrays */\n");
	}
	for (int k = 0; k < rp->nkeeps; k++) {
		const RowKeep *kp = &rp->keeps[k];
		const char *ty = gpu_type(kp->var->ty);
		sb_printf(out, "\t%s *%s = (%s *)(%s", ty, kp->name, ty, kp->local ? local : rp->smem_name);
		if (k) {
			sb_puts(out, " + ");
			print_keep_total(out, rp, k, pt);
		}
		sb_puts(out, ");\n");
	}
}

static void emit_passes_kernel(StrBuf *out, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool));

/* The CTA's row, row_: its thread row's (threadIdx.y) of a CTA of cta_rows(FX_T) rows. A
 * wave past the last row leaves (a CTA of several rows has no CTA barrier). */
static void print_row_index(StrBuf *out, const RowPlan *rp)
{
	sb_printf(out, "\tlong long %s = (long long)blockIdx.x * fx::cta_rows(%s) + threadIdx.y;\n", rp->row_name, rp->t_name);
	sb_printf(out, "\tif (fx::cta_rows(%s) > 1 && %s >= ", rp->t_name, rp->row_name);
	print_rows(out, rp->grid, rp->ngrid);
	sb_puts(out, ")\n\t\treturn;\n");
}

void emit_rows_kernel(StrBuf *out, const GpuTarget *tg, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool))
{
	(void)tg;
	if (!rp->c) {
		emit_passes_kernel(out, rp, print_params);
		return;
	}
	const SplitBlock *sb = &rp->sb;
	HookCtx none = {.rp = rp};
	PrintTarget pt = row_print(&none);
	print_kernel_head(out, rp, print_params);
	print_scratch(out, rp);
	for (int k = 0; k < sb->nparts; k++) {
		const char *ty = sb->parts[k]->ty == TY_INT ? "int" : sb->parts[k]->ty == TY_DOUBLE ? "double" : "float";
		sb_printf(out, "\t__shared__ %s %s[fx::cta_rows(%s)][%s];\n", ty, rp->part_rows[k], rp->t_name, rp->t_name);
		sb_printf(out, "\t%s *%s = %s[threadIdx.y];\n", ty, sb->parts[k]->name, rp->part_rows[k]);
	}
	print_row_index(out, rp);
	print_kept_rows(out, rp, &pt);
	print_row_coords(out, rp->grid, rp->ngrid, rp->row_name);
	print_gs_start(out, rp);
	sb_printf(out, "\tconst int %s = %s;\n\tconst int %s = threadIdx.x;\n", sb->ndecl->var->name, rp->t_name, sb->chunks->var->name);
	const Stmt *blk = rp->block;
	for (int i = 0; i < sb->ichunks; i++)
		if (!split_block_decl(sb, blk->body[i]) && !row_array_decl(blk->body[i]))
			print_row_stmt(out, blk->body[i], &pt);
	sb_puts(out, "\t{ /* the thread's chunk */\n");
	int n;
	Stmt **cb = loop_body(sb->chunks, &n);
	const Var *cs = sb->cdecl->var, *ch = sb->chunks->var;
	for (int i = 0; i < n; i++) {
		Stmt *s = cb[i];
		/* The chunk's contiguous range: the thread strides over the row instead. */
		if (s->kind == ST_DECL && s->rhs && (expr_reads_var(s->rhs, cs) || expr_reads_var(s->rhs, ch)))
			continue;
		if (s == rp->pass) {
			print_sweep(out, rp, sweep_of(rp, s), 1);
		} else {
			sb_putc(out, '\t');
			print_stmt_to(out, s, 1, &pt);
		}
	}
	sb_puts(out, "\t}\n");
	VarSet rd = {0}, wr = {0};
	for (int i = sb->ichunks + 1; i < blk->nbody; i++) {
		const Stmt *s = blk->body[i];
		if (s->kind == ST_FOR && s->hi->kind == EX_VAR && s->hi->var == sb->ndecl->var) {
			print_merge_loop(out, rp, s, &pt);
			rd.n = wr.n = 0; /* a CTA reduction: a barrier */
		} else {
			print_items(out, rp, &blk->body[i], 1, &rd, &wr, &pt);
		}
	}
	vec_free(rd);
	vec_free(wr);
	print_gs_end(out, rp);
	sb_puts(out, "}\n");
	emit_gsum_kernel(out, rp, print_params);
}

bool rows_plan_reduces(const RowPlan *rp)
{
	if (rp->c)
		return true;
	for (int i = 0; i < rp->nstmts; i++)
		if (rp->passes[i].nreds)
			return true;
	return false;
}

static void emit_passes_kernel(StrBuf *out, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool))
{
	HookCtx none = {.rp = rp};
	PrintTarget pt = row_print(&none);
	print_kernel_head(out, rp, print_params);
	if (rows_plan_reduces(rp))
		print_scratch(out, rp);
	print_row_index(out, rp);
	print_kept_rows(out, rp, &pt);
	print_row_coords(out, rp->grid, rp->ngrid, rp->row_name);
	print_gs_start(out, rp);
	VarSet rd = {0}, wr = {0};
	print_items(out, rp, rp->stmts, rp->nstmts, &rd, &wr, &pt);
	vec_free(rd);
	vec_free(wr);
	print_gs_end(out, rp);
	sb_puts(out, "}\n");
	emit_gsum_kernel(out, rp, print_params);
}

/* The launch of `<region>_gsum` (its statement and newline) over workspace and rows ws. */
static void print_gsum_launch(StrBuf *out, const RowPlan *rp, const char *ws, const char *args)
{
	sb_printf(out, "%s_gsum<<<1, 256, 0, @stream>>>(%s", rp->region->name, ws);
	if (gsum_runs_tail(rp))
		sb_printf(out, ", %s", args);
	for (int i = 0; !gsum_runs_tail(rp) && i < rp->gs.n; i++)
		if (first_sum_into(rp, i))
			sb_printf(out, ", %s", rp->gs.vars[i]->name);
	sb_puts(out, ");\n");
}

/* `name_kernel<T[, keep]>`. */
static void print_instance(StrBuf *out, const RowPlan *rp, int t, const char *keep)
{
	sb_printf(out, "%s_kernel<%d%s%s>", rp->region->name, t, keep ? ", " : "", keep ? keep : "");
}

void emit_rows_launch(StrBuf *out, const GpuTarget *tg, const RowPlan *rp, const char *args)
{
	HookCtx none = {.rp = rp};
	PrintTarget pt = row_print(&none);
	pt.flatten_params = false;
	bool launch = rp->keep_mode == KEEP_LAUNCH, ws = launch && rp->locals;
	const char *ok = tg->success;
	sb_puts(out, "\t{\n\t\tlong long @rows = ");
	print_rows(out, rp->grid, rp->ngrid);
	sb_printf(out, ";\n\t\tif (@rows > 2147483647LL)\n\t\t\treturn %s;\n\t\tif (@rows > 0) {\n", tg->invalid);
	sb_printf(out, "\t\t\t%s @err = %s;\n", tg->err_t, ok);
	if (rp->nkeeps) {
		sb_puts(out, "\t\t\t/* the rows kept in shared memory between the loops over them:");
		for (int k = 0; k < rp->nkeeps; k++)
			sb_printf(out, "%s %s", k ? "," : "", rp->keeps[k].var->name);
		sb_puts(out, " */\n\t\t\tsize_t @smem = ");
		print_keep_total(out, rp, rp->nkeeps, &pt);
		sb_puts(out, ";\n");
	}
	if (launch) {
		sb_puts(out, "\t\t\tint @dev = 0, @most = 0;\n");
		sb_printf(out, "\t\t\tif ((@err = %s(&@dev)) != %s || (@err = %s(&@most, %s, @dev)) != %s)\n\t\t\t\treturn @err;\n", tg->get_device, ok, tg->device_attr,
		          tg->attr_smem_per_block, ok);
		sb_printf(out, "\t\t\tbool @keep = @smem + %lld <= (size_t)@most; /* else %s */\n", static_smem(rp),
		          rp->locals ? "the arrays are read again from global memory, the local arrays held in a workspace" : "the arrays are read again from global memory");
		if (ws) {
			sb_puts(out, "\t\t\tunsigned char *@ws = NULL;\n");
			sb_printf(out, "\t\t\tif (!@keep && (@err = %s((void **)&@ws, @smem * (size_t)@rows, @stream)) != %s)\n\t\t\t\treturn @err;\n", tg->malloc_async, ok);
		}
	}
	sb_printf(out, "\t\t\tsize_t @dyn = %s;\n", launch ? "@keep ? @smem : 0" : rp->nkeeps ? "@smem" : "0");
	sb_puts(out, "\t\t\tauto @kernel = [&](int @t) {\n\t\t\t\treturn ");
	int sizes[8] = {512, 256, 128}, nsizes = 3;
	for (int g = tg->tile.wave; g >= tg->row_group && nsizes < 8; g /= 2)
		sizes[nsizes++] = g;
	for (int i = 0; i < nsizes; i++) {
		if (i < nsizes - 1)
			sb_printf(out, "@t == %d ? ", sizes[i]);
		if (launch) {
			sb_puts(out, "(@keep ? ");
			print_instance(out, rp, sizes[i], "true");
			sb_puts(out, " : ");
			print_instance(out, rp, sizes[i], "false");
			sb_puts(out, ")");
		} else {
			print_instance(out, rp, sizes[i], NULL);
		}
		sb_puts(out, i < nsizes - 1 ? "\n\t\t\t\t     : " : ";\n\t\t\t};\n");
	}
	/* The threads a row. */
	sb_printf(out, "\t\t\t/* %d to %d threads a row (128 a CTA), or 128, 256 or 512 threads (%d elements each a step): the size that works on the most elements at once */\n",
	          tg->row_group, tg->tile.wave, rp->vw * rp->nv);
	sb_puts(out, "\t\t\tstatic fx::RowThreads @choice;\n\t\t\tint @threads = @choice.get((long long)@dyn, ");
	if (rp->len)
		print_expr_to(out, rp->len, &pt);
	else
		sb_puts(out, "1LL << 30");
	sb_printf(out, ", %d, %d, %d, [&](int @t) {\n\t\t\t\tint @n = 0;\n", rp->vw * rp->nv, tg->row_group, tg->tile.wave);
	if (rp->nkeeps)
		sb_printf(out, "\t\t\t\tif (@dyn * fx::cta_rows(@t) > 48 * 1024 && %s(%s@kernel(@t), %s, (int)(@dyn * fx::cta_rows(@t))) != %s)\n\t\t\t\t\treturn 0;\n",
		          tg->func_set_attr, tg->kernel_cast, tg->attr_max_dyn_smem, ok);
	sb_printf(out, "\t\t\t\treturn %s(&@n, %s@kernel(@t), @t * fx::cta_rows(@t), @dyn * fx::cta_rows(@t)) == %s ? @n : 0;\n\t\t\t});\n", tg->occupancy, tg->kernel_cast,
	          ok);
	sb_puts(out, "\t\t\tconst int @per = fx::cta_rows(@threads); /* rows a CTA */\n");
	if (rp->nkeeps)
		sb_printf(out, "\t\t\tif (@dyn * @per > 48 * 1024)\n\t\t\t\t@err = %s(%s@kernel(@threads), %s, (int)(@dyn * @per));\n", tg->func_set_attr, tg->kernel_cast,
		          tg->attr_max_dyn_smem);
	if (rp->gs.n) {
		sb_printf(out, "\t\t\t%s *@gs = NULL; /* the rows' parts of the sums across them */\n", gs_type(rp));
		sb_printf(out, "\t\t\tif (@err == %s)\n\t\t\t\t@err = %s((void **)&@gs, sizeof(%s) * %d * (size_t)@rows, @stream);\n", ok, tg->malloc_async, gs_type(rp), rp->gs.n);
	}
	sb_printf(out, "\t\t\tif (@err == %s) {\n\t\t\t\tauto @k = @kernel(@threads);\n", ok);
	sb_printf(out, "\t\t\t\t@k<<<(unsigned)((@rows + @per - 1) / @per), dim3(@threads, @per), @dyn * @per, @stream>>>(%s%s%s);\n", args, ws ? ", @ws" : "",
	          rp->gs.n ? ", @gs" : "");
	sb_printf(out, "\t\t\t\t@err = %s;\n\t\t\t}\n", tg->last_error);
	if (rp->gs.n) {
		sb_printf(out, "\t\t\tif (@err == %s) {\n\t\t\t\t", ok);
		print_gsum_launch(out, rp, "@gs, @rows", args);
		sb_printf(out, "\t\t\t\t@err = %s;\n\t\t\t}\n", tg->last_error);
		sb_printf(out, "\t\t\tif (@gs) {\n\t\t\t\t%s @freed = %s(@gs, @stream);\n\t\t\t\tif (@err == %s)\n\t\t\t\t\t@err = @freed;\n\t\t\t}\n", tg->err_t, tg->free_async, ok);
	}
	if (ws)
		sb_printf(out, "\t\t\tif (@ws) {\n\t\t\t\t%s @freed = %s(@ws, @stream);\n\t\t\t\tif (@err == %s)\n\t\t\t\t\t@err = @freed;\n\t\t\t}\n", tg->err_t, tg->free_async, ok);
	sb_printf(out, "\t\t\tif (@err != %s)\n\t\t\t\treturn @err;\n\t\t}", ok);
	if (gsum_runs_tail(rp)) { /* no rows: the sums are their set-up values, the tail still runs */
		sb_puts(out, " else {\n\t\t\t");
		print_gsum_launch(out, rp, "NULL, 0", args);
		sb_printf(out, "\t\t\t%s @err = %s;\n\t\t\tif (@err != %s)\n\t\t\t\treturn @err;\n\t\t}", tg->err_t, tg->last_error, ok);
	}
	sb_puts(out, "\n\t}\n");
}
