/* fuse.c: from a region's loops to one fused pass over the reduction axis.
 *
 * The region is normalised into a *row block*: the block, inside the row loops, whose
 * children are the loops over the fused axis (the *levels*) and the statements around
 * them. A loop over another axis that wraps a fused-axis loop (P.V written d-outer,
 * j-inner) is distributed and interchanged first, its locals expanded over its iterator.
 * The children then partition into
 *   pre    statements before the first level that are not accumulator inits,
 *   init   accumulator initialisations (hoisted: they run once, before the pass),
 *   levels the fused-axis loops, in order; each holds reductions (accumulators),
 *   mids   scalar maps of earlier levels' results (`inv = 1/sqrtf(ss/K + eps)`),
 *          re-evaluated after their level on every step,
 *   post   everything after the last level that reduces (final values only).
 * A contribution that reads a result of an earlier level reads it partially; the derived
 * repair (repair.c) re-tags each accumulator to the new values at every step (rolling) or
 * once per chunk in the merge (split-k). Producer values are sanitised (an infinite max
 * becomes 0, a zero divisor 1) so that the first steps and fully masked steps compute no
 * NaN: the repair is exact for any tag value at which the factors are finite. */
#include "fuse.h"

#include <math.h>
#include <string.h>

#include "../analysis/deps.h"
#include "../front/pragma.h"

enum { DEFAULT_TILE = 64, SPLITK_CHUNK = 256 };

typedef VEC(Var *) VarVec;
typedef VEC(Accum) AccumVec;
typedef VEC(Producer) ProducerVec;

/* The cascades, one per fused region, for fuse_cascade_of. */
static VEC(Cascade *) cascades;

static bool is_axis_loop(const Stmt *s, const char *axis)
{
	return s->kind == ST_FOR && !strcmp(s->var->name, axis);
}

static bool contains_axis_loop(const Stmt *s, const char *axis)
{
	if (!s)
		return false;
	if (is_axis_loop(s, axis))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (contains_axis_loop(s->body[i], axis))
			return true;
	return false;
}

/* A finished heap vector's elements copied into the arena (where the Cascade that points
 * at them lives); the heap copy is freed. */
static void *to_arena(Program *p, void *v, int n, size_t elem)
{
	void *r = arena_alloc(&p->arena, elem * (size_t)(n ? n : 1));
	if (n)
		memcpy(r, v, elem * (size_t)n);
	free(v);
	return r;
}

static void collect_names(const Stmt *s, StrVec *names)
{
	if (!s)
		return;
	if (s->var) {
		vec_push(*names, s->var->name);
	}
	for (int i = 0; i < s->nbody; i++)
		collect_names(s->body[i], names);
}

/* Every ST_FOR in s, in textual order. */
static void find_all_loops(Stmt *s, StmtVec *out)
{
	if (!s)
		return;
	if (s->kind == ST_FOR)
		vec_push(*out, s);
	for (int i = 0; i < s->nbody; i++)
		find_all_loops(s->body[i], out);
}

/* Every ST_FOR named `name` in s, in textual order. */
static void find_loops(Stmt *s, const char *name, StmtVec *out)
{
	if (!s)
		return;
	if (s->kind == ST_FOR && !strcmp(s->var->name, name))
		vec_push(*out, s);
	for (int i = 0; i < s->nbody; i++)
		find_loops(s->body[i], name, out);
}

/* Whether an accumulator of type ty is an integer count (int, int64_t): summed exactly in
 * any order, with integer steps only. */
static bool count_type(ScalarType ty) { return ty == TY_INT || ty == TY_I64; }

/* ---- choosing the axis and the strategy ---- */

/* Whether e reads v other than in a subscript (j <= i reads i; len[b] does not read b). */
static bool reads_var_unindexed(const Expr *e, const Var *v)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR && e->var == v)
		return true;
	if (e->kind == EX_INDEX)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (reads_var_unindexed(e->args[i], v))
			return true;
	return false;
}

/* Whether s (inside loop `loop`, below the enclosing loops anc[0..nanc)) holds a
 * reduction over `loop`: into a variable declared outside it, at an element that does not
 * move with it (acc[c] += ... over c is a map), and not local to a step of an enclosing
 * loop (the dot product over d inside a pass over j is part of that pass). */
static bool loop_reduces(Program *p, Stmt *loop, Stmt *const *anc, int nanc, Stmt *s)
{
	if (!s)
		return false;
	Expr *t, *g;
	Reducer red;
	if ((s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(p, s, &t, &red, &g) && !stmt_declares(loop, t->var)) {
		bool ok = true;
		for (int i = 0; i < t->nargs; i++)
			ok &= !expr_reads_var(t->args[i], loop->var);
		for (int i = 0; i < nanc; i++)
			ok &= !stmt_declares(anc[i]->body[0], t->var);
		if (ok)
			return true;
	}
	for (int i = 0; i < s->nbody; i++)
		if (loop_reduces(p, loop, anc, nanc, s->body[i]))
			return true;
	return false;
}

/* Counts the loops named `name` (or, with range, the loops over range's lo and hi) that
 * reduce (loop_reduces); anc holds the enclosing loops below the region's grid (the loops
 * the schedule makes parallel are not, nor `row`, when not NULL). */
static bool maps_rows(const Stmt *l);

static void count_reducing(Program *p, const Schedule *sc, Stmt *s, StmtVec *anc, const char *name, const Stmt *range, const Stmt *row, int *n)
{
	if (!s)
		return;
	bool pushed = false;
	if (s->kind == ST_FOR) {
		bool over = range ? expr_equal(s->lo, range->lo) && expr_equal(s->hi, range->hi) : !strcmp(s->var->name, name);
		if (over && loop_reduces(p, s, anc->v, anc->n, s->body[0]))
			(*n)++;
		bool grid = sched_parallel(sc, s->var->name);
		if (!grid && s != row) {
			vec_push(*anc, s);
			pushed = true;
		}
	}
	for (int i = 0; i < s->nbody; i++)
		count_reducing(p, sc, s->body[i], anc, name, range, row, n);
	if (pushed)
		anc->n--;
}

/* Whether s declares a local array of run-time size (no GPU kernel holds one as written). */
static bool runtime_local(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_DECL)
		for (int d = 0; d < s->var->ndim; d++)
			if (s->var->dims[d]->kind != EX_INT)
				return true;
	for (int i = 0; i < s->nbody; i++)
		if (runtime_local(s->body[i]))
			return true;
	return false;
}

/* The loop right inside the region's parallel loops when it is their only statement and
 * maps over its rows (`for (i)` under `parallel(b, h)`, the rows of the whole nest,
 * which sibling nests fused into one, fuse_sibling_loops, often are); NULL when there
 * is none. */
static const Stmt *only_row_loop(const Stmt *region)
{
	const Schedule *sc = region->sched;
	const Stmt *l = region;
	for (;;) {
		if (l->kind != ST_FOR || !sched_parallel(sc, l->var->name))
			break;
		l = l->body[0];
		while (l->kind == ST_BLOCK && l->nbody == 1)
			l = l->body[0];
	}
	return l != region && l->kind == ST_FOR && maps_rows(l) ? l : NULL;
}

/* Whether loop l's body holds a loop that reduces into a local of l's step (the dot
 * product over d of a pass over j). */
static bool steps_hold_dot(Program *p, Stmt *l, Stmt *s)
{
	if (!s)
		return false;
	if (s != l && s->kind == ST_FOR && loop_reduces(p, s, NULL, 0, s->body[0]) && !loop_reduces(p, s, &l, 1, s->body[0]))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (steps_hold_dot(p, l, s->body[i]))
			return true;
	return false;
}

/* A chain of two products, as attention without a softmax writes it (sigmoid or ReLU
 * attention, linear attention: `s = q.k_j; p = f(s); acc[d] += p * v[j][d]`, in one loop
 * over j or with the scores stored by a loop of their own): loops of one name (not the
 * grid's) of which one reduces into the row and one's steps compute a dot product. Their
 * name goes to *name; *one turns false when two names qualify. No repair is needed to
 * fuse them, but the pass over them is what the tile lowering multiplies on the tensor
 * cores. reducing and dots collect the names of either kind of loop. */
static void find_chain_loops(Program *p, const Schedule *sc, Stmt *s, StmtVec *anc, StrVec *reducing, StrVec *dots)
{
	if (!s)
		return;
	bool pushed = false;
	if (s->kind == ST_FOR) {
		bool grid = sched_parallel(sc, s->var->name);
		if (!grid && loop_reduces(p, s, anc->v, anc->n, s->body[0]))
			vec_push(*reducing, s->var->name);
		if (!grid && steps_hold_dot(p, s, s->body[0])) {
			vec_push(*dots, s->var->name);
			return;
		}
		if (!grid) {
			vec_push(*anc, s);
			pushed = true;
		}
	}
	for (int i = 0; i < s->nbody; i++)
		find_chain_loops(p, sc, s->body[i], anc, reducing, dots);
	if (pushed)
		anc->n--;
}

/* The one name find_chain_loops finds in region; NULL when none or two. */
static const char *chain_axis(Program *p, Stmt *region)
{
	StmtVec anc = {0};
	StrVec reducing = {0}, dots = {0};
	for (int k = 0; k < region->nbody; k++)
		find_chain_loops(p, region->sched, region->body[k], &anc, &reducing, &dots);
	const char *name = NULL;
	bool one = true;
	for (int i = 0; i < dots.n; i++)
		for (int k = 0; k < reducing.n; k++)
			if (!strcmp(dots.v[i], reducing.v[k])) {
				one &= !name || !strcmp(name, dots.v[i]);
				name = dots.v[i];
			}
	vec_free(anc);
	vec_free(reducing);
	vec_free(dots);
	return one ? name : NULL;
}

/* The fused axis when neither rolling nor splitk names it: the name of the loops that
 * hold reductions and come in the largest sibling group (the cascade's passes); where
 * none has two, the row loop holding the whole nest (only_row_loop) counts as the
 * grid's too, and its loops over one range count together as below. Where no
 * name has two and the row as written would keep a local array of run-time size (which
 * no GPU kernel holds), loops over one range count together (a helper's `for (i <
 * size)` loops inlined beside the caller's `for (t <= pos)`, as llama2.c's softmax(att,
 * pos + 1)): the first name over that range, whose siblings the fuser adopts. Where
 * none reduces twice, a loop computing a chain of two products (chain_axis). */
static const char *choose_axis(Program *p, Stmt *region)
{
	StrVec names = {0};
	collect_names(region, &names);
	const char *best = NULL;
	int best_n = 0;
	const Stmt *row_loop = NULL;
	for (int rows = 0; rows < 2 && best_n < 2; rows++, row_loop = only_row_loop(region))
	for (int by_range = 0; by_range < (runtime_local(region) || row_loop ? 2 : 1) && best_n < 2; by_range++)
		for (int i = 0; i < names.n; i++) {
			StmtVec anc = {0}, loops = {0};
			int n = 0;
			find_loops(region, names.v[i], &loops);
			/* the row loop is the grid's: not a range of the row's loops */
			if ((!by_range || loops.n) && !(row_loop && !strcmp(names.v[i], row_loop->var->name)))
				for (int k = 0; k < region->nbody; k++)
					count_reducing(p, region->sched, region->body[k], &anc, names.v[i], by_range ? loops.v[0] : NULL, row_loop, &n);
			vec_free(anc);
			vec_free(loops);
			if (n > best_n) {
				best = names.v[i];
				best_n = n;
			}
		}
	vec_free(names);
	if (best_n >= 2)
		return best;
	return chain_axis(p, region);
}

/* ---- the row block ---- */

/* Whether e reads only scalars and const (input) arrays. */
static bool reads_inputs_only(const Expr *e)
{
	if (e->kind == EX_INDEX && !(e->var->kind == VAR_PARAM && e->var->is_const))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!reads_inputs_only(e->args[i]))
			return false;
	return true;
}

/* The variables s assigns or declares (iterators aside), appended to out. */
static void collect_writes(const Stmt *s, VarVec *out)
{
	if (!s)
		return;
	if ((s->kind == ST_ASSIGN && (s->lhs->kind == EX_VAR || s->lhs->kind == EX_INDEX)) || s->kind == ST_DECL)
		vec_push(*out, s->kind == ST_DECL ? s->var : s->lhs->var);
	for (int i = 0; i < s->nbody; i++)
		collect_writes(s->body[i], out);
}

static bool in_vars(const VarVec *v, const Var *x)
{
	for (int i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return true;
	return false;
}

/* Whether statement t of a run writes only locals that it declares or that an earlier
 * statement of the run declared (mine); if so, a declaration of t joins mine. */
static bool writes_own_locals(const Stmt *t, VarVec *mine)
{
	VarVec w = {0};
	collect_writes(t, &w);
	bool ok = true;
	for (int v = 0; ok && v < w.n; v++)
		ok = w.v[v]->kind == VAR_LOCAL && (in_vars(mine, w.v[v]) || stmt_declares(t, w.v[v]));
	vec_free(w);
	if (ok && t->kind == ST_DECL)
		vec_push(*mine, t->var);
	return ok;
}

/* How many statements at the front of block b (all but its last, at most) may run once
 * before the loop over `it` that b is the body of: each does not read it, is a scalar
 * declaration, a loop or (unless guarded) an assignment or an if, and writes only locals the run
 * declares; the rest of b writes nothing the run declares or reads. guarded (the run
 * moves out of an if): no assignments, and declarations whose values read inputs only. */
static int invariant_prefix(const Stmt *b, const Var *it, bool guarded)
{
	VarVec mine = {0}, rest = {0};
	int k = 0;
	for (; k < b->nbody - 1; k++) {
		const Stmt *t = b->body[k];
		bool kind = t->kind == ST_DECL ? !t->var->ndim && (!guarded || !t->rhs || reads_inputs_only(t->rhs)) : t->kind == ST_FOR || (!guarded && (t->kind == ST_ASSIGN || t->kind == ST_IF));
		if (stmt_reads_var(t, it) || !kind || !writes_own_locals(t, &mine))
			break;
	}
	for (int r = k; r < b->nbody; r++)
		collect_writes(b->body[r], &rest);
	for (int v = 0; v < rest.n && k; v++)
		for (int t = 0; t < k && k; t++)
			if (in_vars(&mine, rest.v[v]) || stmt_reads_var(b->body[t], rest.v[v]))
				k = 0;
	vec_free(mine);
	vec_free(rest);
	return k;
}

/* In the loops inside s: the statements at the front of a loop's body that do not depend
 * on its iterator and write only locals they declare move before the loop. A score the
 * user recomputes inside the d loop of P.V (`for (d) { float s = 0; for (e) s += q * k;
 * acc[d] += e^(s - m) * v[j][d]; }`) is then computed once per j, before the d loop:
 * the product and the P.V the tile lowering knows. Statements that read what the rest of
 * the body writes stay. */
static void hoist_invariants(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			hoist_invariants(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = s->body[i];
		if (l->kind != ST_FOR || l->body[0]->kind != ST_BLOCK)
			continue;
		Stmt *b = l->body[0];
		int k = invariant_prefix(b, l->var, false);
		if (!k)
			continue;
		/* s: [..., prefix..., for (rest), ...] */
		Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody + k));
		memcpy(nb, s->body, sizeof(Stmt *) * (size_t)i);
		memcpy(nb + i, b->body, sizeof(Stmt *) * (size_t)k);
		nb[i + k] = l;
		memcpy(nb + i + k + 1, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
		Stmt *lb = st_block(p, b->body + k, b->nbody - k, b->loc);
		st_set_body(p, l, &lb, 1);
		st_set_body(p, s, nb, s->nbody + k);
		i += k;
	}
}

/* In the loops inside s: a loop whose whole body is `if (g) { T x = c; for (..) x += ...;
 * rest }` (no else), g reading neither its iterator nor what the body writes, and the
 * statements before rest not reading the iterator: they move before the loop, the
 * declaration as it is and the loops under a copy of the guard, `T x = c; if (g) for (..)
 * ...; for (d) if (g) { rest }`. The interchanged P.V of a masked row with the score
 * recomputed (`for (d) if (j <= i) { x = q.k[j]; acc[d] += e^(x - m) * v[j][d]; }`) then
 * computes the score once per j, still only where the guard holds: the reads it does are
 * those the original does (a gather at `off[b] + j` may be out of range elsewhere). */
static void hoist_guarded_invariants(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			hoist_guarded_invariants(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = s->body[i];
		if (l->kind != ST_FOR)
			continue;
		Stmt *g = l->body[0];
		while (g->kind == ST_BLOCK && g->nbody == 1)
			g = g->body[0];
		if (g->kind != ST_IF || g->nbody != 1 || g->body[0]->kind != ST_BLOCK || expr_reads_var(g->cond, l->var))
			continue;
		Stmt *b = g->body[0];
		VarVec w = {0};
		collect_writes(b, &w);
		bool stable = true;
		for (int v = 0; v < w.n && stable; v++)
			stable = !expr_reads_var(g->cond, w.v[v]);
		vec_free(w);
		int k = stable ? invariant_prefix(b, l->var, true) : 0;
		StmtVec decls = {0}, loops = {0};
		for (int t = 0; t < k; t++)
			vec_push(*(b->body[t]->kind == ST_DECL ? &decls : &loops), b->body[t]);
		if (!loops.n) {
			vec_free(decls);
			continue;
		}
		/* s: [..., decls..., if (g) {loops...}, for (if (g) {rest}), ...] */
		Stmt *lb = st_block(p, loops.v, loops.n, g->loc);
		Stmt *pre = st_new(p, ST_IF, g->loc);
		pre->cond = ex_copy(p, g->cond);
		st_set_body(p, pre, &lb, 1);
		Stmt *rb = st_block(p, b->body + k, b->nbody - k, b->loc);
		st_set_body(p, g, &rb, 1);
		Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody + decls.n + 1));
		memcpy(nb, s->body, sizeof(Stmt *) * (size_t)i);
		memcpy(nb + i, decls.v, sizeof(Stmt *) * (size_t)decls.n);
		nb[i + decls.n] = pre;
		memcpy(nb + i + decls.n + 1, s->body + i, sizeof(Stmt *) * (size_t)(s->nbody - i));
		st_set_body(p, s, nb, s->nbody + decls.n + 1);
		i += decls.n + 1;
		vec_free(decls);
		vec_free(loops);
	}
}

/* Whether the statements of block b (assignments only) touch nothing of each other: none
 * reads or writes the variable another writes. Then each may run as a loop of its own. */
static bool independent_assigns(const Stmt *b)
{
	for (int i = 0; i < b->nbody; i++) {
		const Stmt *t = b->body[i];
		if (t->kind != ST_ASSIGN || (t->lhs->kind != EX_VAR && t->lhs->kind != EX_INDEX))
			return false;
		for (int j = 0; j < b->nbody; j++)
			if (j != i && (stmt_reads_var(b->body[j], t->lhs->var) || stmt_writes_var(b->body[j], t->lhs->var)))
				return false;
	}
	return true;
}

static int count_reads(const Expr *e, const Var *v)
{
	if (!e)
		return 0;
	int n = e->kind == EX_VAR && e->var == v;
	for (int i = 0; i < e->nargs; i++)
		n += count_reads(e->args[i], v);
	return n;
}

/* An innermost loop whose body is scalar locals defined once from the loop's elements and
 * one statement reading them (whisper.cpp's `float qv = q[..][d] * sc; float kv = k[..][d]
 * * sc; sum += qv * kv;`): the statement with the definitions read in place, so that the
 * product shows its operands. */
static void inline_elem_locals(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			inline_elem_locals(p, s->body[i]);
	Stmt *b = s->kind == ST_FOR ? s->body[0] : NULL;
	if (!b || b->kind != ST_BLOCK || b->nbody < 2)
		return;
	Stmt *last = b->body[b->nbody - 1];
	if (last->kind != ST_ASSIGN)
		return;
	for (int i = 0; i < b->nbody - 1; i++) {
		Stmt *d = b->body[i];
		if (d->kind != ST_DECL || d->var->ndim || !d->rhs)
			return;
		int reads = 0;
		for (int k = i + 1; k < b->nbody; k++) {
			if (stmt_writes_var(b->body[k], d->var))
				return;
			reads += count_reads(b->body[k]->rhs, d->var) + count_reads(b->body[k]->lhs, d->var);
		}
		if (reads > 1) /* computed once, not once per use */
			return;
	}
	Stmt *t = last;
	for (int i = b->nbody - 2; i >= 0; i--) /* later definitions may read earlier ones */
		t = stmt_map_exprs(p, t, expr_subst_equal_map, (const Expr *[]){ex_var(p, b->body[i]->var, b->loc), b->body[i]->rhs});
	st_set_body(p, s, &t, 1);
}

/* In a loop over the fused axis: an inner loop whose body is independent assignments
 * (`for (d) { s1 += q1 * k1; s2 += q2 * k2; }`, `for (d) { acc[d] += p * v; acc2[d] +=
 * p * v2; }`) is distributed into one loop per assignment, and a scalar declared with a
 * constant (`float s1 = 0.0f, s2 = 0.0f;`) moves down to just before the statement that
 * first touches it: each product then reads `x = init; for (k) x += a * b`, the shape the
 * tile lowering matches. Both keep the order of everything that depends on each other. */
static void distribute_products(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			distribute_products(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	StmtVec out = {0};
	bool changed = false;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = s->body[i];
		Stmt *b = l->kind == ST_FOR ? l->body[0] : NULL;
		if (!b || b->kind != ST_BLOCK || b->nbody < 2 || !independent_assigns(b)) {
			vec_push(out, l);
			continue;
		}
		for (int k = 0; k < b->nbody; k++) {
			Var *iv = k ? var_new(p, VAR_LOOP, l->var->name, TY_INT, l->var->loc) : l->var;
			Stmt *t = k ? stmt_subst_var(p, b->body[k], l->var, iv) : b->body[k];
			vec_push(out, st_for(p, iv, l->lo, l->hi, l->step, t, l->loc));
		}
		changed = true;
	}
	/* the constant declarations, down to their first use: each is held back until the
	 * statement that first touches its variable (one pass, so it always ends) */
	StmtVec res = {0}, held = {0};
	for (int i = 0; i < out.n; i++) {
		Stmt *t = out.v[i];
		if (t->kind == ST_DECL && !t->var->ndim && (!t->rhs || t->rhs->kind == EX_FLT || t->rhs->kind == EX_INT)) {
			int at = i + 1;
			while (at < out.n && !stmt_reads_var(out.v[at], t->var) && !stmt_writes_var(out.v[at], t->var))
				at++;
			if (at < out.n && at > i + 1) {
				vec_push(held, t);
				changed = true;
				continue;
			}
		}
		int keep = 0;
		for (int h = 0; h < held.n; h++)
			if (stmt_reads_var(t, held.v[h]->var) || stmt_writes_var(t, held.v[h]->var))
				vec_push(res, held.v[h]);
			else
				held.v[keep++] = held.v[h];
		held.n = keep;
		vec_push(res, t);
	}
	for (int h = 0; h < held.n; h++) /* not reached: each held one has a use */
		vec_push(res, held.v[h]);
	vec_free(held);
	vec_free(out);
	out = res;
	if (changed)
		st_set_body(p, s, out.v, out.n);
	vec_free(out);
}

/* Whether c only reads a mask: an input array's element, negated or compared with a
 * constant (`layout[h][i / 64][j / 64]`, `!keep[b][j]`, `mask[b][j] != 0`), never an
 * iterator against a bound (`j < len[b]` may guard the reads it covers). */
static bool is_mask_read(const Expr *c)
{
	if (c->kind == EX_UN && c->uop == UOP_NOT)
		return is_mask_read(c->args[0]);
	if (c->kind == EX_CAST)
		return is_mask_read(c->args[0]);
	if (c->kind == EX_BIN && (c->bop == OP_EQ || c->bop == OP_NE) && (c->args[1]->kind == EX_INT || c->args[1]->kind == EX_FLT))
		return is_mask_read(c->args[0]);
	return c->kind == EX_INDEX && c->var->kind == VAR_PARAM && c->var->is_const;
}

/* `if (mask) { float dot = 0; for (d) dot += q * k; x = dot * scale; }` computes the
 * score under a mask read from an array (a block-sparse layout, a padding mask): the
 * score's statements move out of the if, and the assignment becomes `x = mask ? dot *
 * scale : x`, so that the product is a product of the pass (computed for every element,
 * as the tiles do) and the mask selects. Only when the body is declarations and loops
 * that write their own locals, then one assignment to a scalar local; an else branch may
 * assign that local too (`else x = -INFINITY;`: x = mask ? dot * scale : -INFINITY). */
static void if_convert_masks(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			if_convert_masks(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *f = s->body[i];
		if (f->kind != ST_IF || !is_mask_read(f->cond) || f->body[0]->kind != ST_BLOCK)
			continue;
		Stmt *b = f->body[0];
		Stmt *last = b->body[b->nbody - 1];
		if (b->nbody < 2 || last->kind != ST_ASSIGN || last->aop != AS_SET || last->lhs->kind != EX_VAR || stmt_declares(b, last->lhs->var))
			continue;
		/* `else x = e;`: what the select takes where the mask is off (x itself without one) */
		Expr *off = ex_copy(p, last->lhs);
		if (f->nbody > 1 && f->body[1]) {
			Stmt *e = f->body[1];
			while (e->kind == ST_BLOCK && e->nbody == 1)
				e = e->body[0];
			if (e->kind != ST_ASSIGN || e->aop != AS_SET || !expr_equal(e->lhs, last->lhs))
				continue;
			off = e->rhs;
		}
		bool ok = true;
		VarVec mine = {0};
		for (int k = 0; k < b->nbody - 1 && ok; k++) {
			Stmt *t = b->body[k];
			ok = (t->kind == ST_DECL ? !t->var->ndim : t->kind == ST_FOR) && writes_own_locals(t, &mine);
		}
		vec_free(mine);
		if (!ok)
			continue;
		Stmt *sel = st_assign(p, ex_copy(p, last->lhs), AS_SET, ex_cond(p, ex_copy(p, f->cond), last->rhs, off, f->loc), last->loc);
		Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody + b->nbody - 1));
		memcpy(nb, s->body, sizeof(Stmt *) * (size_t)i);
		memcpy(nb + i, b->body, sizeof(Stmt *) * (size_t)(b->nbody - 1));
		nb[i + b->nbody - 1] = sel;
		memcpy(nb + i + b->nbody, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
		int added = b->nbody - 1;
		st_set_body(p, s, nb, s->nbody + added);
		i += added;
	}
}

/* ---- a pick at one step as a sum ----
 *
 * Cross-entropy's target logit taken inside the max loop, `if (c == target[t]) xt = x;`,
 * assigns xt at one step of the loop at most (c takes each value once). From xt = 0 that
 * is the sum xt += (c == target[t]) ? x : 0 exactly (x plus zeros), a reduction the pass
 * fuses, where the assignment is not one. */

static bool is_zero(const Expr *e);

/* Whether e keeps one value through `loop`: it reads neither the loop's iterator and
 * locals nor anything the loop assigns. */
static bool step_invariant(const Expr *e, const Stmt *loop)
{
	if (!e)
		return true;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && (e->var == loop->var || stmt_declares(loop, e->var) || stmt_count_stores(loop, e->var)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!step_invariant(e->args[i], loop))
			return false;
	return true;
}

/* Whether e is `v == x` or `x == v`, v the loop's iterator and x step_invariant. */
static bool picks_step(const Expr *e, const Stmt *loop)
{
	if (e->kind != EX_BIN || e->bop != OP_EQ)
		return false;
	for (int k = 0; k < 2; k++) {
		const Expr *v = e->args[k];
		while (v->kind == EX_CAST && scalar_is_int(v->ty))
			v = v->args[0]; /* (int64_t)c == target[t] */
		if (v->kind == EX_VAR && v->var == loop->var && step_invariant(e->args[1 - k], loop))
			return true;
	}
	return false;
}

/* Rewrites the picks of the loops over `axis` in block s (and in the blocks it nests)
 * whose scalar starts at a literal 0 in that block and is assigned nowhere else. */
static void picks_as_sums(Program *p, Stmt *s, const char *axis)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			picks_as_sums(p, s->body[i], axis);
	if (s->kind != ST_BLOCK || !axis)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = s->body[i];
		if (l->kind != ST_FOR || strcmp(l->var->name, axis) || l->body[0]->kind != ST_BLOCK)
			continue;
		Stmt *b = l->body[0];
		for (int q = 0; q < b->nbody; q++) {
			Stmt *f = b->body[q];
			if (f->kind != ST_IF || f->nbody != 1 || !picks_step(f->cond, l))
				continue;
			Stmt *a = f->body[0];
			while (a->kind == ST_BLOCK && a->nbody == 1)
				a = a->body[0];
			if (a->kind != ST_ASSIGN || a->aop != AS_SET || a->lhs->kind != EX_VAR || !scalar_is_float(a->lhs->var->ty) ||
			    stmt_declares(l, a->lhs->var) || expr_reads_var(a->rhs, a->lhs->var) || stmt_count_stores(l, a->lhs->var) != 1)
				continue;
			/* its start: `float xt = 0.0f;` or `xt = 0;` before the loop */
			bool zero = false;
			for (int k = 0; k < i; k++) {
				Stmt *d = s->body[k];
				if (d->kind == ST_DECL && d->var == a->lhs->var)
					zero = d->rhs && is_zero(d->rhs);
				else if (d->kind == ST_ASSIGN && d->lhs->kind == EX_VAR && d->lhs->var == a->lhs->var)
					zero = d->aop == AS_SET && is_zero(d->rhs);
			}
			if (!zero)
				continue;
			Expr *pick = ex_cond(p, ex_copy(p, f->cond), a->rhs, ex_flt(p, 0.0, a->lhs->var->ty, f->loc), f->loc);
			b->body[q] = st_assign(p, ex_copy(p, a->lhs), AS_ADD, pick, f->loc);
		}
	}
}

/* ---- loops of a row under a condition of the row ---- */

static bool reads_local(const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR && e->var->kind == VAR_LOCAL)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_local(e->args[i]))
			return true;
	return false;
}

/* Whether every subscript in e reads only loop iterators, parameters and constants: an
 * access in bounds wherever its loops run, whatever the row's condition says. */
static bool plain_subscripts(const Expr *e)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX)
		for (int i = 0; i < e->nargs; i++)
			if (expr_reads_element(e->args[i]) || reads_local(e->args[i]))
				return false;
	for (int i = 0; i < e->nargs; i++)
		if (!plain_subscripts(e->args[i]))
			return false;
	return true;
}

static bool stmt_plain_subscripts(const Stmt *s)
{
	if (!s)
		return true;
	if (!plain_subscripts(s->lhs) || !plain_subscripts(s->rhs) || !plain_subscripts(s->cond) || !plain_subscripts(s->lo) || !plain_subscripts(s->hi))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_plain_subscripts(s->body[i]))
			return false;
	return true;
}

/* Whether s is or holds a loop. */
static bool stmt_has_loop(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_has_loop(s->body[i]))
			return true;
	return false;
}

/* `if (c) { loss[t] = 0; } else { float m = ...; for (v) ...; for (v) ...; loss[t] = ...; }`
 * (cross-entropy's ignore_index) puts the row's loops under a condition of the row, where
 * no fusion can see them. The branch's statements up to its last loop run for every row
 * instead, before the if: they only write locals they declare and read in bounds (their
 * subscripts are iterators and parameters), so running them where the condition is false
 * changes nothing but the work done; what follows them stays under the condition. */
static void hoist_guarded_loops(Program *p, Stmt *s)
{
	if (s->kind == ST_FOR && s->body[0]->kind == ST_IF) {
		/* a loop's only statement: as a block of one, left so if nothing moves */
		Stmt *f = s->body[0], *b = st_block(p, s->body, 1, f->loc);
		hoist_guarded_loops(p, b);
		s->body[0] = b->nbody > 1 ? b : f;
		return;
	}
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			hoist_guarded_loops(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *f = s->body[i];
		if (f->kind != ST_IF)
			continue;
		for (int br = 0; br < f->nbody; br++) {
			Stmt *b = f->body[br];
			Stmt *other = f->nbody > 1 ? f->body[1 - br] : NULL;
			if (!b || b->kind != ST_BLOCK)
				continue;
			/* the statements up to the branch's last loop; or, where one of those does more,
			 * up to the last loop of the run before it when that holds a nest of loops
			 * (a row's passes, `for (j) for (d)`; the stores after them stay under the
			 * condition) */
			int last = -1, lastloop = -1, k;
			bool nest = false;
			for (k = 0; k < b->nbody; k++)
				if (b->body[k]->kind == ST_FOR)
					lastloop = k;
			VarVec mine = {0}, others = {0};
			collect_writes(other, &others);
			for (k = 0; k < b->nbody; k++) {
				Stmt *t = b->body[k];
				bool ok = (t->kind == ST_DECL || t->kind == ST_FOR || t->kind == ST_ASSIGN) && writes_own_locals(t, &mine) && stmt_plain_subscripts(t);
				for (int v = 0; ok && v < others.n; v++)
					ok = !stmt_reads_var(t, others.v[v]);
				if (!ok)
					break;
				if (t->kind == ST_FOR) {
					last = k;
					nest |= stmt_has_loop(t->body[0]);
				}
			}
			if (k <= lastloop && !nest)
				last = -1; /* stopped before the last loop, and no passes in the run */
			bool ok = last >= 0;
			for (int v = 0; ok && v < mine.n; v++)
				ok = !expr_reads_var(f->cond, mine.v[v]);
			vec_free(mine);
			vec_free(others);
			if (!ok)
				continue;
			/* s: [..., b[0..last], if (c) {rest of b} else {other}, ...] */
			Stmt **moved = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(last + 2));
			memcpy(moved, b->body, sizeof(Stmt *) * (size_t)(last + 1));
			moved[last + 1] = f;
			f->body[br] = st_block(p, b->body + last + 1, b->nbody - last - 1, b->loc);
			stmt_replace(p, s, f, moved, last + 2);
			i += last + 1;
			break;
		}
	}
}

/* ---- a dot product accumulated in its array element ---- */

/* Whether s updates elem and touches nothing else of its array: an assignment to elem, or
 * a loop (a block) of them. It writes nothing else, so elem's subscripts keep their value. */
static bool updates_elem_only(const Stmt *s, const Expr *elem)
{
	switch (s->kind) {
	case ST_ASSIGN:
		return expr_equal(s->lhs, elem) && expr_reads_only_elem(s->rhs, elem);
	case ST_FOR:
		if (expr_reads_var(s->lo, elem->var) || expr_reads_var(s->hi, elem->var))
			return false;
		/* fall through */
	case ST_BLOCK:
		for (int i = 0; i < s->nbody; i++)
			if (!updates_elem_only(s->body[i], elem))
				return false;
		return true;
	default:
		return false;
	}
}

static void stmt_subst_elem(Program *p, Stmt *s, const Expr *elem, const Expr *to)
{
	s->lo = expr_subst_equal(p, s->lo, elem, to);
	s->hi = expr_subst_equal(p, s->hi, elem, to);
	s->lhs = expr_subst_equal(p, s->lhs, elem, to);
	s->rhs = expr_subst_equal(p, s->rhs, elem, to);
	for (int i = 0; i < s->nbody; i++)
		stmt_subst_elem(p, s->body[i], elem, to);
}

/* The value `elem op= rhs` (or `elem = rhs`) leaves in elem when elem held `val`: rounded
 * to the element's type, as the store into it did. */
static Expr *folded_update(Program *p, const Stmt *u, const Expr *elem, Expr *val)
{
	Expr *r = expr_subst_equal(p, u->rhs, elem, val);
	if (u->aop != AS_SET)
		r = ex_bin(p, assignop_binop(u->aop), val, r, u->loc);
	return ex_as_type(p, elem->var->ty, r);
}

/* In the body of a loop over the fused axis: a score accumulated straight into its
 * element (`s[j] = 0; for (d) s[j] += q * k; s[j] *= scale;`, or seeded with a bias,
 * `s[j] = bias[..][j]`) is accumulated in a scalar instead: `float s_j = 0; for (d) s_j +=
 * q * k; s[j] = s_j * scale;`, the accepted spelling, where the d loop reduces into a
 * scalar and the axis loop stores one element per step. Only for a run of statements of
 * one block that begins by setting the element (a float or double array, read nowhere in
 * the value), holds a loop, writes nothing else and reads the array nowhere else; the
 * updates after the run's last loop fold into the store. The scalar has the element's
 * type: every value rounds as the element's did. (Outside the axis loops a run such as a
 * row's `rowmax[i] = -INFINITY; for (j) ...` reduces over the axis itself: left alone.) */
static void scalarise_elements(Cascade *c, Stmt *s)
{
	Program *p = c->prog;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			scalarise_elements(c, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *init = s->body[i];
		if (init->kind != ST_ASSIGN || init->aop != AS_SET || init->lhs->kind != EX_INDEX)
			continue;
		Expr *elem = init->lhs;
		bool ok = (elem->var->ty == TY_FLOAT || elem->var->ty == TY_DOUBLE) && !expr_reads_var(init->rhs, elem->var);
		for (int k = 0; ok && k < elem->nargs; k++)
			ok = !expr_reads_var(elem->args[k], elem->var);
		int end = i + 1, last_loop = -1;
		for (; ok && end < s->nbody && updates_elem_only(s->body[end], elem); end++)
			if (s->body[end]->kind == ST_FOR)
				last_loop = end;
		if (!ok || last_loop < 0)
			continue;
		const Expr *sub = elem->args[elem->nargs - 1];
		Var *t = fresh_var(c, arena_printf(&p->arena, "%s_%s", elem->var->name, sub->kind == EX_VAR ? sub->var->name : "elem"), elem->var->ty, VAR_LOCAL);
		Expr *val = ex_var(p, t, elem->loc);
		for (int k = i + 1; k <= last_loop; k++)
			stmt_subst_elem(p, s->body[k], elem, val);
		for (int k = last_loop + 1; k < end; k++)
			val = folded_update(p, s->body[k], elem, val);
		/* s: [..., init, loops..., updates..., rest] -> [..., decl, loops..., store, rest] */
		int n = last_loop + 2 + s->nbody - end;
		Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)n);
		memcpy(nb, s->body, sizeof(Stmt *) * (size_t)(last_loop + 1));
		nb[i] = st_decl(p, t, init->rhs, init->loc);
		nb[last_loop + 1] = st_assign(p, elem, AS_SET, val, s->body[end - 1]->loc);
		memcpy(nb + last_loop + 2, s->body + end, sizeof(Stmt *) * (size_t)(s->nbody - end));
		st_set_body(p, s, nb, n);
		i = last_loop + 1;
	}
}

/* ---- a row's result stored, then read back ----
 *
 * `lse[n] = mx + logf(z);` between two loops over the row, then `... lse[n] - x[n][v]` in
 * the later loop (the log-sum-exp or the mean saved for the backward pass as soon as it is
 * known): the later statements read the stored value, a local, and the store follows it,
 *     float lse_n = mx + logf(z); lse[n] = lse_n; ... lse_n - x[n][v] ...
 * which leaves the store free to move after the pass (sink_stores) and the value a scalar
 * of the row. Only where the later statements read that element alone of the array and
 * write none of it, nor what its subscripts read. */

/* Whether s reads elem's array only at elem, and writes none of it nor any of vars. */
static bool reads_elem_only(const Stmt *s, const Expr *elem, const VarVec *vars)
{
	if (!s)
		return true;
	if ((s->kind == ST_ASSIGN && s->lhs->var == elem->var) || (s->kind == ST_DECL && s->var == elem->var))
		return false;
	for (int i = 0; i < vars->n; i++)
		if (stmt_writes_var(s, vars->v[i]))
			return false;
	if (!expr_reads_only_elem(s->rhs, elem) || !expr_reads_only_elem(s->cond, elem) || !expr_reads_only_elem(s->lo, elem) ||
	    !expr_reads_only_elem(s->hi, elem) || (s->lhs && !expr_reads_only_elem(s->lhs, elem)))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!reads_elem_only(s->body[i], elem, vars))
			return false;
	return true;
}

/* Collects into out the variables that e reads. */
static void collect_reads(const Expr *e, VarVec *out)
{
	if (!e)
		return;
	if (e->kind == EX_VAR || e->kind == EX_INDEX)
		vec_push(*out, e->var);
	for (int i = 0; i < e->nargs; i++)
		collect_reads(e->args[i], out);
}

static void forward_stored_elements(Cascade *c, Stmt *s)
{
	Program *p = c->prog;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			forward_stored_elements(c, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *st = s->body[i];
		if (st->kind != ST_ASSIGN || st->aop != AS_SET || st->lhs->kind != EX_INDEX)
			continue;
		Expr *elem = st->lhs;
		if ((elem->var->ty != TY_FLOAT && elem->var->ty != TY_DOUBLE) || expr_reads_var(st->rhs, elem->var))
			continue;
		VarVec subs = {0};
		for (int k = 0; k < elem->nargs; k++)
			collect_reads(elem->args[k], &subs);
		bool ok = true, loop = false;
		for (int k = 0; ok && k < subs.n; k++)
			ok = subs.v[k] != elem->var;
		for (int k = i + 1; ok && k < s->nbody; k++) {
			ok = reads_elem_only(s->body[k], elem, &subs);
			loop |= stmt_reads_var(s->body[k], elem->var) && stmt_has_loop(s->body[k]);
		}
		vec_free(subs);
		if (!ok || !loop)
			continue;
		const Expr *sub = elem->args[elem->nargs - 1];
		Var *t = fresh_var(c, arena_printf(&p->arena, "%s_%s", elem->var->name, sub->kind == EX_VAR ? sub->var->name : "elem"), elem->var->ty, VAR_LOCAL);
		Expr *val = ex_var(p, t, elem->loc);
		for (int k = i + 1; k < s->nbody; k++)
			stmt_subst_elem(p, s->body[k], elem, val);
		Stmt *pair[2] = { st_decl(p, t, st->rhs, st->loc), st_assign(p, elem, AS_SET, ex_copy(p, val), st->loc) };
		stmt_replace(p, s, st, pair, 2);
		i++;
	}
}

/* ---- a row stored whole, then read back at an index ----
 *
 * `for (v = 0; v < V; v++) logp[t][v] = x[t][v] - lse;` then `nll[t] = -logp[t][target[t]];`
 * (log_softmax then nll_loss, both outputs kept): the read at a subscript read from
 * memory is an element the loop stored, which the dependence analysis cannot see. It reads
 * the stored value computed again at v = target[t] (in the array's type, so rounded as the
 * store rounds it), valid where the loop stores the whole last dimension and nothing
 * between writes the array or what the value reads; an index out of range is the caller's
 * error either way. */
typedef struct GatherRead {
	const Stmt *store; /* the loop's assignment */
	const Var *it;     /* the loop's iterator, its last subscript */
} GatherRead;

static Expr *gather_read_map(Program *p, const Expr *e, void *ctx)
{
	const GatherRead *g = ctx;
	const Expr *lhs = g->store->lhs;
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = gather_read_map(p, e->args[i], ctx);
	if (c->kind != EX_INDEX || c->var != lhs->var || !expr_reads_element(c->args[c->nargs - 1]))
		return c;
	for (int i = 0; i + 1 < c->nargs; i++)
		if (!expr_equal(c->args[i], lhs->args[i]))
			return c;
	return ex_as_type(p, lhs->var->ty, expr_subst_expr(p, g->store->rhs, g->it, c->args[c->nargs - 1]));
}

static void forward_gathered_reads(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			forward_gathered_reads(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = s->body[i], *st = l->kind == ST_FOR ? l->body[0] : NULL;
		while (st && st->kind == ST_BLOCK && st->nbody == 1)
			st = st->body[0];
		if (!st || l->step != 1 || st->kind != ST_ASSIGN || st->aop != AS_SET || st->lhs->kind != EX_INDEX)
			continue;
		const Expr *lhs = st->lhs, *last = lhs->args[lhs->nargs - 1];
		const Var *A = lhs->var;
		if (!A->dims || !A->dims[A->ndim - 1] || l->lo->kind != EX_INT || l->lo->ival || !expr_equal(l->hi, A->dims[A->ndim - 1]) ||
		    last->kind != EX_VAR || last->var != l->var || expr_reads_var(st->rhs, A))
			continue;
		bool ok = true;
		for (int k = 0; ok && k + 1 < lhs->nargs; k++)
			ok = !expr_reads_var(lhs->args[k], l->var);
		VarVec vals = {0};
		collect_reads(st->rhs, &vals);
		for (int k = 0; k + 1 < lhs->nargs; k++)
			collect_reads(lhs->args[k], &vals);
		GatherRead g = {st, l->var};
		for (int k = i + 1; ok && k < s->nbody; k++) {
			if (stmt_writes_var(s->body[k], A))
				break;
			for (int q = 0; ok && q < vals.n; q++)
				ok = vals.v[q] == l->var || !stmt_writes_var(s->body[k], vals.v[q]);
			if (ok && stmt_reads_var(s->body[k], A))
				s->body[k] = stmt_map_exprs(p, s->body[k], gather_read_map, &g);
		}
		vec_free(vals);
	}
}

/* Whether e is integer arithmetic of iterators, integer scalar parameters and elements
 * of const integer arrays (an offset, cu_seqlens[s]) only, in any integer type (an
 * int64_t offset `(int64_t)(b * H + h) * N * D`). */
static bool is_index_arith(const Expr *e)
{
	switch (e->kind) {
	case EX_INT: return true;
	case EX_VAR: return e->var->kind == VAR_LOOP || (e->var->kind == VAR_PARAM && !e->var->ndim && scalar_is_int(e->var->ty));
	case EX_INDEX:
		if (e->var->kind != VAR_PARAM || !e->var->is_const || !scalar_is_int(e->var->ty))
			return false;
		for (int i = 0; i < e->nargs; i++)
			if (!is_index_arith(e->args[i]))
				return false;
		return true;
	case EX_BIN:
	case EX_UN:
	case EX_COND:
	case EX_CAST:
		for (int i = 0; i < e->nargs; i++)
			if (!is_index_arith(e->args[i]))
				return false;
		return scalar_is_int(e->ty);
	default: return false;
	}
}

/* e with v replaced by def in its subscripts. */
static Expr *subst_subscripts(Program *p, const Expr *e, const Var *v, const Expr *def)
{
	if (!e)
		return NULL;
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = e->kind == EX_INDEX ? expr_subst_expr(p, e->args[i], v, def) : subst_subscripts(p, e->args[i], v, def);
	return c;
}

/* s with v replaced by def in its subscripts, and in the whole value of the integer
 * locals it declares (`const int64_t base = blk * BS;` is then index arithmetic too). */
static void stmt_subst_subscripts(Program *p, Stmt *s, const Var *v, const Expr *def)
{
	if (!s)
		return;
	s->lo = subst_subscripts(p, s->lo, v, def);
	s->hi = subst_subscripts(p, s->hi, v, def);
	s->lhs = subst_subscripts(p, s->lhs, v, def);
	if (s->kind == ST_DECL && s->rhs && !s->var->ndim && scalar_is_int(s->var->ty))
		s->rhs = expr_subst_expr(p, s->rhs, v, def);
	else
		s->rhs = subst_subscripts(p, s->rhs, v, def);
	s->cond = subst_subscripts(p, s->cond, v, def);
	for (int i = 0; i < s->nbody; i++)
		stmt_subst_subscripts(p, s->body[i], v, def);
}

/* The statements right after the declaration s->body[i] of an integer local that only
 * update it from index arithmetic (`int64_t blk = bt[b][t / BS]; if (blk < 0) blk = 0;`,
 * defensive clamps of a padded table, or `blk = min(blk, NB - 1);`) fold into its
 * initialiser (`blk = bt[..] < 0 ? 0 : bt[..]`): one definition, which
 * forward_index_locals then reads through. */
static void fold_index_updates(Program *p, Stmt *s, int i)
{
	Stmt *d = s->body[i];
	while (i + 1 < s->nbody) {
		Stmt *u = s->body[i + 1], *a = u;
		if (u->kind == ST_IF && u->nbody == 1) {
			a = u->body[0];
			if (a && a->kind == ST_BLOCK && a->nbody == 1)
				a = a->body[0];
		} else if (u->kind != ST_ASSIGN) {
			return;
		}
		if (!a || a->kind != ST_ASSIGN || a->aop != AS_SET || a->lhs->kind != EX_VAR || a->lhs->var != d->var)
			return;
		Expr *val = ex_as_type(p, d->var->ty, expr_subst_expr(p, a->rhs, d->var, d->rhs));
		Expr *cond = u != a ? expr_subst_expr(p, u->cond, d->var, d->rhs) : NULL;
		if (!is_index_arith(val) || (cond && !is_index_arith(cond)))
			return;
		d->rhs = cond ? ex_cond(p, cond, val, d->rhs, u->loc) : val;
		memmove(s->body + i + 1, s->body + i + 2, sizeof(Stmt *) * (size_t)(s->nbody - i - 2));
		s->nbody--;
	}
}

/* An integer local computed once from iterators, parameters and index arrays (`const int
 * kv_head = h / (H / KVH);`, `const int row = cu_seqlens[s];`, `const int64_t blk =
 * bt[b][t / BS];`) is replaced by its definition (converted to its type) in the
 * subscripts after it, and in later integer locals' values: the arrays are then read at
 * expressions of the loops, which the dependence analysis and the tile lowering see
 * through (a local's value is per row, an address must be per CTA). A block's locals are
 * replaced before its inner blocks are visited, so that a chain `req =
 * req_pool_indices[b]; ... slot = req_to_token[req][j];` is index arithmetic by then. */
static void forward_index_locals(Program *p, Stmt *s)
{
	if (!s)
		return;
	for (int i = 0; s->kind == ST_BLOCK && i < s->nbody; i++) {
		Stmt *d = s->body[i];
		if (!d || d->kind != ST_DECL || !scalar_is_int(d->var->ty) || d->var->ndim || !d->rhs || !is_index_arith(d->rhs))
			continue;
		fold_index_updates(p, s, i);
		bool assigned = false;
		for (int k = i + 1; k < s->nbody; k++)
			assigned |= stmt_writes_var(s->body[k], d->var);
		if (assigned)
			continue;
		bool read = false;
		Expr *val = ex_as_type(p, d->var->ty, d->rhs); /* C's conversion at the declaration */
		for (int k = i + 1; k < s->nbody; k++) {
			stmt_subst_subscripts(p, s->body[k], d->var, val);
			read |= stmt_reads_var(s->body[k], d->var);
		}
		if (!read) { /* every use was a subscript: the local goes */
			memmove(s->body + i, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
			s->nbody--;
			i--;
		}
	}
	for (int i = 0; i < s->nbody; i++)
		forward_index_locals(p, s->body[i]);
}

/* Equality of statements up to the names of what they declare: a's locals and iterators
 * pair with b's where they are declared (a->pa[k] with a->pb[k]), and a's reads of `from`
 * equal the expression `to` in b (`to` NULL: from is not substituted). */
typedef struct Renaming {
	VarVec pa, pb;
	const Var *from;
	const Expr *to;
	ExprEqHook hook; /* decides pairs of sub-expressions first (ctx: the Renaming); NULL: from/to's */
} Renaming;

static const Var *renamed_var(const Var *v, void *ctx)
{
	const Renaming *rn = ctx;
	for (int k = 0; k < rn->pa.n; k++)
		if (rn->pa.v[k] == v)
			return rn->pb.v[k];
	return NULL;
}

static int renamed_subst(const Expr *a, const Expr *b, void *ctx)
{
	const Renaming *rn = ctx;
	return rn->to && a->kind == EX_VAR && a->var == rn->from ? expr_equal(rn->to, b) : -1;
}

static bool expr_renamed(const Expr *a, const Expr *b, const Renaming *rn)
{
	return expr_equal_map(a, b, renamed_var, rn->hook ? rn->hook : renamed_subst, (void *)rn);
}

static bool opt_renamed(const Expr *a, const Expr *b, const Renaming *rn)
{
	return !a || !b ? a == b : expr_renamed(a, b, rn);
}

static bool stmt_renamed(const Stmt *a, const Stmt *b, Renaming *rn)
{
	if (a->kind != b->kind || a->nbody != b->nbody || a->aop != b->aop || a->step != b->step)
		return false;
	if (!opt_renamed(a->lo, b->lo, rn) || !opt_renamed(a->hi, b->hi, rn) || !opt_renamed(a->rhs, b->rhs, rn) ||
	    !opt_renamed(a->cond, b->cond, rn) || !opt_renamed(a->lhs, b->lhs, rn))
		return false;
	if (a->kind == ST_DECL || a->kind == ST_FOR) {
		if (a->var->ty != b->var->ty || a->var->ndim != b->var->ndim || a->var->ndim)
			return false;
		vec_push(rn->pa, a->var);
		vec_push(rn->pb, (Var *)b->var);
	}
	for (int i = 0; i < a->nbody; i++)
		if (!a->body[i] != !b->body[i] || (a->body[i] && !stmt_renamed(a->body[i], b->body[i], rn)))
			return false;
	return true;
}

/* Two loops in a row over keys from two sources, as vLLM's prefix prefill and chunked
 * prefill are written by hand: `for (j = 0; j < P; j++)` over a cache kc, then `for (j = 0;
 * j <= i; j++)` over the chunk's own keys k, the same statements in both (one pair per
 * pass of the softmax). They run as one loop over the concatenated range, `for (j = 0; j <
 * P + i + 1; j++)`, each read of a source a pick by key position, `j < P ? kc[..][j][d] :
 * k[..][j - P][d]`: the same iterations in the same order (the first loop's, then the
 * second's with j - P for its j), so every reduction over them gets the same value, and
 * the fuser sees one loop per reduction. It holds where both ranges start at 0 and their
 * ends cannot be negative (sizes, lengths read from index arrays, iterators plus
 * constants: a negative length would let the concatenation cut the first loop short),
 * and the bodies are equal up to the names they declare and reads of parameter arrays the
 * region does not write that take the iterator in a subscript before the last (rows of keys: a product split
 * over columns, MLA's q_nope . k_nope + q_pe . k_pe, is no pair of sources); the
 * iterator is read nowhere else. */
enum { CONCAT_MAX_PAIRS = 16 };
typedef struct ConcatMatch {
	Renaming rn; /* first: the hook's ctx is the Renaming */
	const Var *j1, *j2;
	const Expr *a[CONCAT_MAX_PAIRS], *b[CONCAT_MAX_PAIRS];
	int n;
	const char *why;
	Program *p;
	const Stmt *region;
} ConcatMatch;

/* Whether e reads iterator j in a subscript before its last (a row of keys). */
static bool reads_as_row(const Expr *e, const Var *j)
{
	bool row = false;
	for (int i = 0; i + 1 < e->nargs; i++)
		row |= expr_reads_var(e->args[i], j);
	return row && !expr_reads_var(e->args[e->nargs - 1], j);
}

/* An element of a parameter array the region only reads (const or not), of 2 dims or more. */
static bool source_array(const Expr *e, const Stmt *region)
{
	return e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->var->ndim >= 2 && e->nargs == e->var->ndim && (e->var->is_const || !stmt_writes_var(region, e->var));
}

static int concat_hook(const Expr *a, const Expr *b, void *ctx)
{
	ConcatMatch *m = ctx;
	if (source_array(a, m->region) && source_array(b, m->region) && (expr_reads_var(a, m->j1) || expr_reads_var(b, m->j2))) {
		const char *why = a->ty != b->ty ? "they read '%s' and '%s', of different types"
		                : !reads_as_row(a, m->j1) || !reads_as_row(b, m->j2) ? "they read '%s' and '%s' at subscripts that are not rows of keys ([..][key][..][d])"
		                : m->n == CONCAT_MAX_PAIRS ? "they read too many pairs of arrays ('%s', '%s', ...)"
		                                           : NULL;
		if (why) {
			m->why = m->why ? m->why : arena_printf(&m->p->arena, why, a->var->name, b->var->name);
			return 0;
		}
		m->a[m->n] = a;
		m->b[m->n++] = b;
		return 1;
	}
	if ((a->kind == EX_VAR && a->var == m->j1) || (b->kind == EX_VAR && b->var == m->j2)) {
		m->why = m->why ? m->why : arena_printf(&m->p->arena, "'%s' is read outside the subscripts of the arrays the loops read keys from", m->j1->name);
		return 0;
	}
	return -1;
}

/* Whether int expression e cannot be negative: a literal >= 0, a size parameter, an element
 * of a const int array (a length), an iterator of one of the loops in `outer` from a
 * bound that cannot be, sums and products of such. */
static bool concat_nonneg(const Expr *e, const StmtVec *outer)
{
	switch (e->kind) {
	case EX_INT: return e->ival >= 0;
	case EX_VAR:
		if (e->var->kind == VAR_PARAM && !e->var->ndim && scalar_is_int(e->var->ty))
			return true;
		for (int i = 0; i < outer->n; i++)
			if (outer->v[i]->var == e->var)
				return outer->v[i]->step > 0 && concat_nonneg(outer->v[i]->lo, outer);
		return false;
	case EX_INDEX: return e->var->kind == VAR_PARAM && e->var->is_const && scalar_is_int(e->ty);
	case EX_CAST: return scalar_is_int(e->ty) && concat_nonneg(e->args[0], outer);
	case EX_BIN: return (e->bop == OP_ADD || e->bop == OP_MUL) && concat_nonneg(e->args[0], outer) && concat_nonneg(e->args[1], outer);
	default: return false;
	}
}

/* A copy of e with each source read of m (pointer identity) replaced by its pick. */
typedef struct ConcatSubst {
	const ConcatMatch *m;
	Expr **picks;
} ConcatSubst;

static Expr *concat_subst(Program *p, const Expr *e, void *ctx)
{
	const ConcatSubst *cs = ctx;
	for (int k = 0; k < cs->m->n; k++)
		if (cs->m->a[k] == e)
			return cs->picks[k];
	Expr *c = NEW(&p->arena, Expr);
	*c = *e;
	c->args = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)(e->nargs ? e->nargs : 1));
	for (int i = 0; i < e->nargs; i++)
		c->args[i] = concat_subst(p, e->args[i], ctx);
	return c;
}

static Stmt *concat_loops(Cascade *c, Stmt *l1, Stmt *l2, const StmtVec *outer)
{
	Program *p = c->prog;
	if (l1->kind != ST_FOR || l2->kind != ST_FOR || l1->step != 1 || l2->step != 1 || l1->var->block_step || l2->var->block_step)
		return NULL;
	if (!expr_is_zero_literal(l1->lo) || !expr_is_zero_literal(l2->lo) || !concat_nonneg(l1->hi, outer) || !concat_nonneg(l2->hi, outer))
		return NULL;
	ConcatMatch m = {.rn = {.hook = concat_hook}, .j1 = l1->var, .j2 = l2->var, .p = p, .region = c->region->loop};
	vec_push(m.rn.pa, l1->var);
	vec_push(m.rn.pb, l2->var);
	/* statement by statement, to say where they differ */
	int n1, n2;
	Stmt **b1 = slot_stmts(&l1->body[0], &n1), **b2 = slot_stmts(&l2->body[0], &n2);
	bool same = n1 == n2;
	int differ = -1;
	for (int k = 0; same && k < n1; k++)
		if (!stmt_renamed(b1[k], b2[k], &m.rn))
			same = false, differ = k;
	if (!m.why && m.n && differ >= 0)
		m.why = arena_printf(&p->arena, "line %d differs from line %d beyond the arrays they read keys from", b2[differ]->loc.line, b1[differ]->loc.line);
	Stmt *out = NULL;
	if (same && m.n) {
		/* the second loop's reads, in the first's names, j2 at j1 - hi1 */
		Expr *hi1 = l1->hi;
		Expr *at = ex_bin(p, OP_SUB, ex_var(p, l1->var, l1->loc), ex_copy(p, hi1), l2->loc);
		Expr *picks[CONCAT_MAX_PAIRS];
		for (int k = 0; k < m.n; k++) {
			Expr *b = expr_subst_expr(p, m.b[k], l2->var, at);
			for (int v = 1; v < m.rn.pa.n; v++)
				b = expr_subst_expr(p, b, m.rn.pb.v[v], ex_var(p, m.rn.pa.v[v], b->loc));
			Expr *cond = ex_bin(p, OP_LT, ex_var(p, l1->var, m.a[k]->loc), ex_copy(p, hi1), m.a[k]->loc);
			picks[k] = ex_cond(p, cond, ex_copy(p, m.a[k]), b, m.a[k]->loc);
			picks[k]->ty = m.a[k]->ty;
		}
		ConcatSubst cs = {.m = &m, .picks = picks};
		out = stmt_map_exprs(p, l1, concat_subst, &cs);
		out->hi = ex_bin(p, OP_ADD, ex_copy(p, l1->hi), ex_copy(p, l2->hi), l2->hi->loc);
	} else if (m.n || m.why) {
		c->concat_why = c->concat_why ? c->concat_why : m.why ? m.why : "their statements differ beyond the arrays they read keys from";
	}
	vec_free(m.rn.pa);
	vec_free(m.rn.pb);
	return out;
}

/* Rewrites every such pair of loops in s (see ConcatMatch); outer: the loops around s. */
static void concat_source_loops(Cascade *c, Stmt *s, StmtVec *outer)
{
	if (!s)
		return;
	for (int i = 0; s->kind == ST_BLOCK && i + 1 < s->nbody; i++) {
		Stmt *one = concat_loops(c, s->body[i], s->body[i + 1], outer);
		if (!one)
			continue;
		s->body[i] = one;
		memmove(s->body + i + 1, s->body + i + 2, sizeof(Stmt *) * (size_t)(s->nbody - i - 2));
		s->nbody--;
	}
	if (s->kind == ST_FOR)
		vec_push(*outer, s);
	for (int i = 0; i < s->nbody; i++)
		concat_source_loops(c, s->body[i], outer);
	if (s->kind == ST_FOR)
		outer->n--;
}

/* Whether s writes only the locals in mine and elements at the iterator it (`att[t] = ...`
 * in the loop over t: each iteration its own). */
static bool writes_own(const Stmt *s, const VarVec *mine, const Var *it)
{
	if (!s)
		return true;
	if (s->kind == ST_ASSIGN) {
		bool at_it = false;
		for (int i = 0; s->lhs->kind == EX_INDEX && i < s->lhs->nargs; i++)
			at_it |= s->lhs->args[i]->kind == EX_VAR && s->lhs->args[i]->var == it;
		if (!at_it && !in_vars(mine, s->lhs->var))
			return false;
	}
	for (int i = 0; i < s->nbody; i++)
		if (!writes_own(s->body[i], mine, it))
			return false;
	return true;
}

/* A reduction whose first element seeds it (`float m = x[r][0]; for (c = 1; c < C; c++)
 * m = fmaxf(m, x[r][c]);`, or a sum seeded the same way) starts from the reducer's
 * identity over the whole range instead (m = -INFINITY; c from 0): the same value (max(-inf,
 * x0) = x0, 0 + x0 = x0), and the loop now has the range of the row's other loops over c,
 * which fusion needs. A max or min seeded with the element its loop starts at (`m =
 * x[0]; for (c = 0; ...)`, the textbook form) counts it twice, which they ignore: it
 * starts from the identity too. The element may be computed by statements of its own,
 * the loop body's other statements written once more for that element before the seed
 * (`float s0 = 0; for (d) s0 += q[d] * k[0][d]; float m = s0 * sc;` then `for (j = 1; ...)
 * { float s = 0; for (d) s += q[d] * k[j][d]; if (s * sc > m) m = s * sc; }`): those
 * statements go with the seed when nothing else reads what they compute. */
static void unpeel_reductions(Program *p, Stmt *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nbody; i++)
		unpeel_reductions(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 1; i < s->nbody; i++) {
		Stmt *l = s->body[i];
		if (l->kind != ST_FOR || l->step != 1)
			continue;
		Expr *first = NULL;
		if (l->lo->kind == EX_INT && l->lo->ival > 0)
			first = ex_int(p, l->lo->ival - 1, l->lo->loc);
		else if (l->lo->kind == EX_BIN && l->lo->bop == OP_ADD && l->lo->args[1]->kind == EX_INT && l->lo->args[1]->ival == 1)
			first = l->lo->args[0];
		Stmt *r = l->body[0];
		while (r->kind == ST_BLOCK && r->nbody == 1)
			r = r->body[0];
		/* the body's statements ahead of the reduction: they may only compute locals of
		 * their own for it */
		Stmt **lead = NULL;
		int nlead = 0;
		if (r->kind == ST_BLOCK && r->nbody > 1) {
			lead = r->body;
			nlead = r->nbody - 1;
			r = r->body[nlead];
		}
		Expr *target, *g;
		Reducer red;
		if (!reduce_match(p, r, &target, &red, &g) || target->kind != EX_VAR)
			continue;
		bool own = true;
		VarVec mine = {0};
		for (int q = 0; q < nlead; q++)
			if (lead[q]->kind == ST_DECL)
				vec_push(mine, lead[q]->var);
		for (int q = 0; q < nlead; q++)
			own &= !stmt_reads_var(lead[q], target->var) && writes_own(lead[q], &mine, l->var);
		vec_free(mine);
		if (!own)
			continue;
		/* the nearest earlier statement that writes the accumulator seeds it */
		int k = i - 1;
		while (k >= 0 && !stmt_writes_var(s->body[k], target->var) && !stmt_reads_var(s->body[k], target->var))
			k--;
		if (k < 0)
			continue;
		Stmt *seed = s->body[k];
		Expr *init = seed->kind == ST_DECL && seed->var == target->var ? seed->rhs
		             : seed->kind == ST_ASSIGN && seed->aop == AS_SET && seed->lhs->kind == EX_VAR && seed->lhs->var == target->var ? seed->rhs : NULL;
		if (!init)
			continue;
		/* the element's statements: the lead again, at the element, just before the seed,
		 * its first np statements as statements, the scalar locals after them inside the
		 * seed's value (`float mx = x[0] * t;` for `float v = x[c] * t; if (v > mx) mx = v;`) */
		Renaming rn = {.from = l->var};
		int np = -1;
		for (int n = nlead; n >= 0 && np < 0; n--) {
			Expr *gn = g;
			for (int q = nlead - 1; gn && q >= n; q--)
				gn = lead[q]->kind == ST_DECL && lead[q]->rhs && !lead[q]->var->ndim ? expr_subst_expr(p, gn, lead[q]->var, lead[q]->rhs) : NULL;
			if (!gn || k < n)
				continue;
			for (int pass = 0; pass < 2 && np < 0; pass++) {
				Expr *at = pass == 0 ? first : l->lo;
				if (!at || (pass == 1 && red == RED_ADD))
					continue;
				rn.pa.n = rn.pb.n = 0;
				rn.to = at;
				bool same = true;
				for (int q = 0; same && q < n; q++)
					same = stmt_renamed(lead[q], s->body[k - n + q], &rn);
				if (same && expr_renamed(gn, init, &rn)) {
					np = n;
					first = at;
				}
			}
		}
		/* what the element's statements compute must serve the seed only */
		bool dead = np >= 0;
		for (int q = 0; dead && q < rn.pb.n; q++)
			for (int o = 0; dead && o < s->nbody; o++)
				if ((o < k - np || o > k) && stmt_reads_var(s->body[o], rn.pb.v[q]))
					dead = false;
		vec_free(rn.pa);
		vec_free(rn.pb);
		if (np < 0 || (np && !dead))
			continue;
		seed->rhs = reducer_identity(p, red, target->var->ty, init->loc);
		l->lo = ex_copy(p, first);
		if (np) {
			memmove(s->body + k - np, s->body + k, sizeof(Stmt *) * (size_t)(s->nbody - k));
			s->nbody -= np;
			i -= np;
		}
	}
}

/* ---- scratch arrays with a slice per iteration of a loop ---- */

/* Whether every access to v in e has the iterator g as its first subscript. */
static bool first_sub_is(const Expr *e, const Var *v, const Var *g)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var == v && !(e->args[0]->kind == EX_VAR && e->args[0]->var == g))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!first_sub_is(e->args[i], v, g))
			return false;
	return true;
}

static bool stmt_first_sub_is(const Stmt *s, const Var *v, const Var *g)
{
	if (!s)
		return true;
	if (!first_sub_is(s->lhs, v, g) || !first_sub_is(s->rhs, v, g) || !first_sub_is(s->cond, v, g) || !first_sub_is(s->lo, v, g) || !first_sub_is(s->hi, v, g))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_first_sub_is(s->body[i], v, g))
			return false;
	return true;
}

/* e with v[g][rest...] read as slice[rest...] (ctx: {v, slice}). */
static Expr *to_slice(Program *p, const Expr *e, void *ctx)
{
	Var **vs = ctx;
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = to_slice(p, e->args[i], ctx);
	if (c->kind == EX_INDEX && c->var == vs[0]) {
		c->var = vs[1];
		c->nargs--;
		c->args++;
		if (!c->nargs)
			c->kind = EX_VAR;
	}
	return c;
}

/* A scratch array with a slice per iteration of a loop (`float p[G][L]` before
 * `for (g) { ... p[g][j] ... }`, scores of a GQA group; `float m[N]` before `for (i) {
 * ... m[i] ... }`, a row's statistic), used nowhere else, becomes one slice declared
 * inside the loop (`float p[L]`, `float m`): no iteration reads another's slice, so
 * each needs its own only while it runs. The loop then holds its scratch, as the nest's
 * other loops do (sink_nest_locals), and the fuser sees the row inside it. */
static void narrow_scratch_arrays(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			narrow_scratch_arrays(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *d = s->body[i];
		if (d->kind != ST_DECL || d->rhs || !d->var->ndim || d->var->kind != VAR_LOCAL)
			continue;
		int at = -1; /* the one statement using it; -2: more than one */
		for (int k = i + 1; k < s->nbody; k++)
			if (stmt_reads_var(s->body[k], d->var) || stmt_count_stores(s->body[k], d->var))
				at = at == -1 ? k : -2;
		if (at < 0)
			continue;
		Stmt *l = s->body[at];
		if (l->kind != ST_FOR || !stmt_first_sub_is(l, d->var, l->var))
			continue;
		Var *v = d->var;
		Var *slice = var_new(p, VAR_LOCAL, v->name, v->ty, v->loc);
		slice->ndim = v->ndim - 1;
		slice->dims = v->dims + 1;
		Var *map[2] = {v, slice};
		Stmt *nb = stmt_map_exprs(p, l->body[0], to_slice, map);
		Stmt *body[2] = {st_decl(p, slice, NULL, d->loc), nb};
		if (nb->kind == ST_BLOCK) {
			Stmt **all = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(nb->nbody + 1));
			all[0] = body[0];
			memcpy(all + 1, nb->body, sizeof(Stmt *) * (size_t)nb->nbody);
			nb = st_block(p, all, nb->nbody + 1, nb->loc);
		} else {
			nb = st_block(p, body, 2, nb->loc);
		}
		st_set_body(p, l, &nb, 1);
		memmove(s->body + i, s->body + i + 1, sizeof(Stmt *) * (size_t)(s->nbody - i - 1));
		s->nbody--;
		i--;
	}
}

/* A scalar local of block s (declared at s->body[i]) set again with a value that does
 * not read it, in s itself and after it was used (`acc = 0.0f;` between a mean's sum and
 * a variance's, a softmax's m and z reset for a second distribution), takes a new name
 * from there: two values, as if the user had declared two, so that the fuser sees one
 * reduction per name. */
static void split_reused_scalar(Cascade *c, Stmt *s, int i)
{
	Program *p = c->prog;
	Var *v = s->body[i]->var;
	bool used = s->body[i]->rhs != NULL;
	for (int k = i + 1; k < s->nbody; k++) {
		Stmt *a = s->body[k];
		if (used && a->kind == ST_ASSIGN && a->aop == AS_SET && a->lhs->kind == EX_VAR && a->lhs->var == v && !expr_reads_var(a->rhs, v)) {
			Var *nv = fresh_var(c, v->name, v->ty, VAR_LOCAL);
			nv->is_const = false;
			s->body[k] = st_decl(p, nv, a->rhs, a->loc);
			for (int m = k + 1; m < s->nbody; m++)
				s->body[m] = stmt_subst_var(p, s->body[m], v, nv);
			return;
		}
		used |= stmt_reads_var(a, v) || stmt_count_stores(a, v);
	}
}

/* A local row that a later loop of the same block overwrites whole (`for (c = 0; c < C;
 * c++) { buf[c] = x[r][c] * x[r][c]; ...}`, every access in the loop at c) is, from that
 * loop on, a new row: it takes a new name there (buf2), so that the two phases are two
 * scratch rows, as if the user had declared two (memory one row saved in C, but the
 * fuser sees one value per name). */
static void split_reused_rows(Cascade *c, Stmt *s)
{
	Program *p = c->prog;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			split_reused_rows(c, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *d = s->body[i];
		if (d->kind == ST_DECL && !d->var->ndim && d->var->kind == VAR_LOCAL) {
			split_reused_scalar(c, s, i);
			continue;
		}
		if (d->kind != ST_DECL || d->rhs || d->var->ndim != 1 || d->var->kind != VAR_LOCAL)
			continue;
		Var *v = d->var;
		bool used = false;
		for (int k = i + 1; k < s->nbody; k++) {
			Stmt *l = s->body[k];
			if (used && l->kind == ST_FOR && l->step == 1 && l->lo->kind == EX_INT && l->lo->ival == 0 && expr_equal(l->hi, v->dims[0]) &&
			    stmt_first_sub_is(l, v, l->var)) {
				Stmt *first = l->body[0]->kind == ST_BLOCK && l->body[0]->nbody ? l->body[0]->body[0] : l->body[0];
				if (first && first->kind == ST_ASSIGN && first->aop == AS_SET && first->lhs->kind == EX_INDEX && first->lhs->var == v &&
				    !expr_reads_var(first->rhs, v)) {
					Var *nv = fresh_var(c, v->name, v->ty, VAR_LOCAL);
					nv->ndim = v->ndim;
					nv->dims = v->dims;
					Stmt **body = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(s->nbody + 1));
					memcpy(body, s->body, sizeof(Stmt *) * (size_t)k);
					body[k] = st_decl(p, nv, NULL, l->loc);
					for (int m = k; m < s->nbody; m++)
						body[m + 1] = stmt_subst_var(p, s->body[m], v, nv);
					st_set_body(p, s, body, s->nbody + 1);
					break;
				}
			}
			used |= stmt_reads_var(l, v) || stmt_count_stores(l, v);
		}
	}
}

/* ---- a local row updated in place by a later loop ---- */

/* The statement of loop l's body that defines an element of a local 1-D array at l's
 * iterator (`wp[i] = e`), when it is the array's only store in l, nothing else in l reads
 * the array and e does not; NULL when there is none. */
static Stmt *local_row_def(Stmt *l)
{
	int n;
	Stmt **st = slot_stmts(&l->body[0], &n);
	for (int k = 0; k < n; k++) {
		Stmt *d = st[k];
		if (d->kind != ST_ASSIGN || d->aop != AS_SET || d->lhs->kind != EX_INDEX)
			continue;
		Var *v = d->lhs->var;
		Expr *ix = d->lhs->args[0];
		if (v->kind != VAR_LOCAL || v->ndim != 1 || ix->kind != EX_VAR || ix->var != l->var || stmt_count_stores(l, v) != 1 ||
		    expr_reads_var(d->rhs, v))
			continue;
		bool read = false;
		for (int q = 0; q < n; q++)
			read |= q != k && stmt_reads_var(st[q], v);
		if (!read)
			return d;
	}
	return NULL;
}

/* A local row defined element by element in one loop and updated in place by a later loop
 * over the same range (ggml's soft_max: `for (i) wp[i] = sp[i]*scale;` then `for (i)
 * wp[i] += slope*mp[i];`, one vec call per loop) gets one definition: the first loop
 * stores the updated value (`wp[i] = sp[i]*scale + slope*mp[i]`) and the second loop goes.
 * The fuser then sees one element-wise map, where a second store at the axis would be no
 * reduction. Done when the update is the later loop's one statement, reads the row only
 * at its element, and reads nothing the first loop or the statements between store. */
static void fold_row_updates(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			fold_row_updates(p, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l1 = s->body[i], *def = l1->kind == ST_FOR ? local_row_def(l1) : NULL;
		if (!def)
			continue;
		Var *v = def->lhs->var;
		int j = i + 1;
		while (j < s->nbody && !stmt_reads_var(s->body[j], v) && !stmt_count_stores(s->body[j], v))
			j++;
		Stmt *l2 = j < s->nbody ? s->body[j] : NULL;
		if (!l2 || l2->kind != ST_FOR || l2->step != l1->step || !expr_equal(l2->lo, l1->lo) || !expr_equal(l2->hi, l1->hi))
			continue;
		int n;
		Stmt **st2 = slot_stmts(&l2->body[0], &n);
		Stmt *u = n == 1 ? stmt_subst_var(p, st2[0], l2->var, l1->var) : NULL;
		if (!u || u->kind != ST_ASSIGN || !expr_equal(u->lhs, def->lhs) || !expr_reads_only_elem(u->rhs, def->lhs))
			continue;
		Expr *others = expr_subst_equal(p, u->rhs, def->lhs, ex_int(p, 0, u->loc));
		bool ok = !stmt_stores_read_by(l1, others);
		for (int k = i + 1; k < j && ok; k++)
			ok = !stmt_stores_read_by(s->body[k], others);
		if (!ok)
			continue;
		def->rhs = folded_update(p, u, def->lhs, ex_as_type(p, v->ty, def->rhs));
		memmove(s->body + j, s->body + j + 1, sizeof(Stmt *) * (size_t)(s->nbody - j - 1));
		s->nbody--;
		i--; /* a further update folds in too */
	}
}

/* ---- a loop split where an if on its iterator changes branch ---- */

/* The first iteration of a loop over v on which cond, comparing v with w (`v <= w`,
 * `v < w`, `v > w`, `v >= w`, either way round), holds on the other side: w + 1 or w,
 * *then_low telling whether cond holds below it. NULL if cond is no such comparison. */
static Expr *branch_point(Program *p, const Expr *cond, const Var *v, const Var *w, bool *then_low)
{
	if (cond->kind != EX_BIN || !scalar_is_int(cond->args[0]->ty) || !scalar_is_int(cond->args[1]->ty))
		return NULL;
	const Expr *l = cond->args[0], *r = cond->args[1];
	BinOp op = cond->bop;
	if (r->kind == EX_VAR && r->var == v) {
		const Expr *t = l;
		l = r;
		r = t;
		op = binop_mirror(op);
	}
	if (l->kind != EX_VAR || l->var != v || r->kind != EX_VAR || r->var != w)
		return NULL;
	Expr *x = ex_var(p, (Var *)w, cond->loc);
	switch (op) {
	case OP_LT: *then_low = true; return x;
	case OP_GE: *then_low = false; return x;
	case OP_LE: *then_low = true; return ex_bin(p, OP_ADD, x, ex_int(p, 1, cond->loc), cond->loc);
	case OP_GT: *then_low = false; return ex_bin(p, OP_ADD, x, ex_int(p, 1, cond->loc), cond->loc);
	default: return NULL;
	}
}

/* Whether s stores only constants into arrays (`att[t2] = 0.0f;`, braces of those). */
static bool fills_constants(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_BLOCK) {
		for (int i = 0; i < s->nbody; i++)
			if (!fills_constants(s->body[i]))
				return false;
		return s->nbody > 0;
	}
	const Expr *v = s->kind == ST_ASSIGN ? s->rhs : NULL;
	while (v && v->kind == EX_CAST)
		v = v->args[0];
	return v && s->aop == AS_SET && s->lhs->kind == EX_INDEX && (v->kind == EX_INT || v->kind == EX_FLT);
}

/* Whether loop w's iterator stays in loop l's range: w counts by 1 from a constant at
 * least l's constant start, to l's end. */
static bool iterates_within(const Stmt *w, const Stmt *l)
{
	return w->step == 1 && w->lo->kind == EX_INT && l->lo->kind == EX_INT && w->lo->ival >= l->lo->ival && expr_equal(w->hi, l->hi);
}

typedef void (*BlockFn)(Cascade *c, Stmt *blk, StmtVec *outer);

/* fn on every block below s, inner blocks first, with *outer the loops around it
 * (innermost last). */
static void each_block(Cascade *c, Stmt *s, StmtVec *outer, BlockFn fn)
{
	if (!s)
		return;
	if (s->kind == ST_FOR)
		vec_push(*outer, s);
	for (int i = 0; i < s->nbody; i++)
		each_block(c, s->body[i], outer, fn);
	if (s->kind == ST_FOR)
		outer->n--;
	if (s->kind == ST_BLOCK)
		fn(c, s, outer);
}

/* llm.c normalises the attention row and zeroes the rest of it in one loop:
 *
 *     for (t2 = 0; t2 < T; t2++) { if (t2 <= t) att[t2] *= inv; else att[t2] = 0.0f; }
 *
 * inside `for (t = 0; t < T; t++)`. Two loops, [0, t + 1) with the first branch and
 * [t + 1, T) with the second, show the first as one more loop over the range of the
 * row's other loops (t2 <= t), which the fuser joins, and the second as filling the rest
 * of the row. Done when the branch point is an iterator w (or w + 1) of an enclosing loop
 * over the same range (so it lies in the loop's range) and the upper part only stores
 * constants: an if over the iterator computing values (a causal mask written as if/else)
 * stays, as the tile lowering reads it. s: a block; `outer`: the loops around it, innermost
 * last (each_block). */
static void split_fill_loops(Cascade *c, Stmt *s, StmtVec *outer)
{
	Program *p = c->prog;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = s->body[i], *g = l->kind == ST_FOR ? l->body[0] : NULL;
		while (g && g->kind == ST_BLOCK && g->nbody == 1)
			g = g->body[0];
		if (!g || l->step != 1 || g->kind != ST_IF || g->nbody != 2 || !g->body[0] || !g->body[1])
			continue;
		for (int o = 0; o < outer->n; o++) {
			Stmt *w = outer->v[o];
			bool then_low;
			Expr *at = iterates_within(w, l) ? branch_point(p, g->cond, l->var, w->var, &then_low) : NULL;
			if (!at || !fills_constants(g->body[then_low ? 1 : 0]))
				continue;
			/* the upper loop's iterator named apart: it is no loop of the row's range */
			Var *v2 = fresh_var(c, l->var->name, l->var->ty, VAR_LOOP);
			Stmt *low = st_for(p, l->var, l->lo, at, 1, g->body[then_low ? 0 : 1], l->loc);
			Stmt *up = st_for(p, v2, ex_copy(p, at), l->hi, 1, stmt_subst_var(p, g->body[then_low ? 1 : 0], l->var, v2), l->loc);
			stmt_replace(p, s, l, (Stmt *[]){low, up}, 2);
			i++;
			break;
		}
	}
}

/* The store of statement-list body (a loop's, one block unwrapped) to a[.., v] at the
 * subscripts of `like` with u read as v, made in every iteration (not under an if), the
 * only access to a there; NULL if none. */
static const Stmt *overwrites(const Stmt *body, const Expr *like, const Var *u, const Var *v)
{
	while (body->kind == ST_BLOCK && body->nbody == 1)
		body = body->body[0];
	const Stmt *const *st = body->kind == ST_BLOCK ? (const Stmt *const *)body->body : &body;
	int n = body->kind == ST_BLOCK ? body->nbody : 1;
	const Var *a = like->var;
	const Stmt *store = NULL;
	for (int i = 0; i < n; i++) {
		const Stmt *t = st[i];
		bool mine = t->kind == ST_ASSIGN && t->aop == AS_SET && t->lhs->kind == EX_INDEX && t->lhs->var == a;
		if (mine && !store && !expr_reads_var(t->rhs, a)) {
			for (int k = 0; k < like->nargs && mine; k++) {
				const Expr *x = t->lhs->args[k], *y = like->args[k];
				mine = (y->kind == EX_VAR && y->var == u) ? x->kind == EX_VAR && x->var == v : expr_equal(x, y) && !expr_reads_var(y, u) && !expr_reads_var(x, v);
			}
			if (mine) {
				store = t;
				continue;
			}
		}
		if (stmt_reads_var(t, a) || stmt_writes_var(t, a))
			return NULL;
	}
	return store;
}

/* A row filled with a constant, then partly overwritten (the mask first, then the
 * visible scores):
 *
 *     for (j = 0; j < N; j++) row[j] = -INFINITY;
 *     for (j = 0; j <= i; j++) { ...; row[j] = dot * scale; }
 *
 * inside `for (i = 0; i < N; i++)`: one loop over the fill's range, the overwrite where
 * it runs and the fill elsewhere, `for (j = 0; j < N; j++) if (j < i + 1) { ... } else
 * row[j] = -INFINITY;`, a mask written as if/else over the range of the row's other
 * loops. Done where the overwriting loop ends at an iterator w (or w + 1) of an
 * enclosing loop over the fill's range (so it ends within it), stores the element in
 * every iteration and reads nothing of the row, and the fill stores a constant (or its
 * negation). s: a block; `outer`: the loops around it, innermost last (each_block). */
static void merge_overwritten_fills(Cascade *c, Stmt *s, StmtVec *outer)
{
	Program *p = c->prog;
	for (int i = 0; i + 1 < s->nbody; i++) {
		Stmt *f = s->body[i], *l = s->body[i + 1];
		if (f->kind != ST_FOR || l->kind != ST_FOR || f->step != 1 || l->step != 1 || !expr_equal(f->lo, l->lo) || f->lo->kind != EX_INT)
			continue;
		const Stmt *fill = f->body[0];
		while (fill->kind == ST_BLOCK && fill->nbody == 1)
			fill = fill->body[0];
		const Expr *k = fill->kind == ST_ASSIGN ? fill->rhs : NULL;
		while (k && (k->kind == EX_CAST || (k->kind == EX_UN && k->uop == UOP_NEG)))
			k = k->args[0];
		if (!k || (k->kind != EX_INT && k->kind != EX_FLT) || fill->aop != AS_SET || fill->lhs->kind != EX_INDEX || !overwrites(l->body[0], fill->lhs, f->var, l->var))
			continue;
		const Expr *e = l->hi, *w = e->kind == EX_BIN && e->bop == OP_ADD && e->args[1]->kind == EX_INT && e->args[1]->ival == 1 ? e->args[0] : e;
		bool within = false;
		for (int o = 0; w->kind == EX_VAR && o < outer->n && !within; o++)
			within = outer->v[o]->var == w->var && iterates_within(outer->v[o], f);
		if (!within)
			continue;
		Stmt *g = st_new(p, ST_IF, l->loc);
		g->cond = ex_bin(p, OP_LT, ex_var(p, l->var, l->loc), ex_copy(p, l->hi), l->loc);
		st_set_body(p, g, (Stmt *[]){l->body[0], stmt_subst_var(p, f->body[0], f->var, l->var)}, 2);
		Stmt *m = st_for(p, l->var, f->lo, f->hi, 1, g, l->loc);
		stmt_replace(p, s, l, NULL, 0);
		stmt_replace(p, s, f, &m, 1);
	}
}

/* ---- nested loops over a row's trailing dims, for the GPU ---- */

/* A perfect nest `for (h = 0; h < H; h++) for (w = 0; w < W; w++)` over the two last
 * dims of the arrays its body reads (InstanceNorm's x[n][c][h][w]). */
typedef struct Nest {
	Stmt *outer, *inner;
} Nest;
typedef VEC(Nest) NestList;
typedef VEC(Var *) ArrList;

static bool in_arrs(const ArrList *a, const Var *v)
{
	for (int i = 0; i < a->n; i++)
		if (a->v[i] == v)
			return true;
	return false;
}

/* The arrays that nests read at their trailing dims: arrs, of which grouped are read at
 * a group of rows (x[n][g * CPG + cc][p]); n: how many accesses. */
typedef struct HwArrs {
	ArrList arrs, grouped;
	int n;
} HwArrs;

/* Whether the two last subscripts of access e are the nest's (h, w), or (x * H + h, w)
 * with H the nest's outer bound and x reading neither iterator (a group's channels
 * x[n][g * CPG + cc][p] in `for (cc < CPG) for (p < HW)`); *group: that x, or NULL. */
static bool trailing_hw(const Expr *e, const Nest *nt, const Expr **group)
{
	Var *h = nt->outer->var, *w = nt->inner->var;
	const Expr *r = e->args[e->nargs - 2], *c = e->args[e->nargs - 1];
	*group = NULL;
	if (c->kind != EX_VAR || c->var != w)
		return false;
	if (r->kind == EX_VAR && r->var == h)
		return true;
	if (r->kind != EX_BIN || r->bop != OP_ADD)
		return false;
	for (int s = 0; s < 2; s++) {
		const Expr *m = r->args[1 - s];
		if (r->args[s]->kind != EX_VAR || r->args[s]->var != h || m->kind != EX_BIN || m->bop != OP_MUL)
			continue;
		for (int f = 0; f < 2; f++)
			if (expr_equal(m->args[f], nt->outer->hi) && !expr_reads_var(m->args[1 - f], h) && !expr_reads_var(m->args[1 - f], w)) {
				*group = m->args[1 - f];
				return true;
			}
	}
	return false;
}

/* The factor of extent d other than H (d = G * H), NULL when d is no such product. */
static Expr *groups_of(Expr *d, const Expr *H)
{
	if (d->kind != EX_BIN || d->bop != OP_MUL)
		return NULL;
	return expr_equal(d->args[1], H) ? d->args[0] : expr_equal(d->args[0], H) ? d->args[1] : NULL;
}

/* Whether e reads the arrays it reads at the nest's iterators only as their two last
 * subscripts (trailing_hw), each array always in the same form, of a parameter array of
 * dims [..][H][W] (the nest's bounds; [..][G * H][W] for a group); such arrays go to *hw.
 * Elsewhere only inputs may read the iterators (a channel's gamma[g * CPG + cc]), which
 * then read them from the collapsed one. */
static bool reads_hw_only(const Expr *e, const Nest *nt, HwArrs *hw)
{
	if (!e)
		return true;
	int k = e->nargs;
	const Expr *group;
	if (e->kind == EX_VAR && (e->var == nt->outer->var || e->var == nt->inner->var))
		return false;
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->var->is_const && !(k >= 2 && trailing_hw(e, nt, &group)))
		return true; /* an input read at any subscript, the iterators' included */
	if (e->kind == EX_INDEX && k >= 2 && trailing_hw(e, nt, &group)) {
		Var *a = e->var;
		if (a->kind != VAR_PARAM || a->flat_extent || !a->dims[k - 2] || !a->dims[k - 1] || !expr_equal(a->dims[k - 1], nt->inner->hi) ||
		    (group ? !groups_of(a->dims[k - 2], nt->outer->hi) : !expr_equal(a->dims[k - 2], nt->outer->hi)))
			return false;
		if (in_arrs(&hw->arrs, a) && in_arrs(&hw->grouped, a) != !!group)
			return false;
		if (!in_arrs(&hw->arrs, a)) {
			vec_push(hw->arrs, a);
			if (group)
				vec_push(hw->grouped, a);
		}
		hw->n++;
		k -= 2;
		if (group && !reads_hw_only(group, nt, hw))
			return false;
	}
	for (int i = 0; i < k; i++)
		if (!reads_hw_only(e->args[i], nt, hw))
			return false;
	return true;
}

static bool stmt_reads_hw_only(const Stmt *s, const Nest *nt, HwArrs *hw)
{
	if (!s)
		return true;
	if (!reads_hw_only(s->lhs, nt, hw) || !reads_hw_only(s->rhs, nt, hw) || !reads_hw_only(s->cond, nt, hw) || !reads_hw_only(s->lo, nt, hw) ||
	    !reads_hw_only(s->hi, nt, hw))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_reads_hw_only(s->body[i], nt, hw))
			return false;
	return true;
}

static bool zero(const Expr *e) { return e->kind == EX_INT && e->ival == 0; }

/* Whether the schedule names loop v (parallel, a tile size or a fusion of its own). */
static bool scheduled(const Schedule *sc, const Var *v)
{
	for (int i = 0; i < sc->nparallel; i++)
		if (!strcmp(sc->parallel[i].loop, v->name))
			return true;
	for (int i = 0; i < sc->ntile; i++)
		if (!strcmp(sc->tile[i].loop, v->name))
			return true;
	for (int i = 0; i < sc->nrolling; i++)
		if (!strcmp(sc->rolling[i].loop, v->name))
			return true;
	for (int i = 0; i < sc->nsplitk; i++)
		if (!strcmp(sc->splitk[i].loop, v->name))
			return true;
	return false;
}

/* The nests of s whose bodies read their iterators only through the arrays' trailing
 * dims (reads_hw_only), into *out; false when some loop over h or w reads them otherwise. */
static void find_nests(Stmt *s, const Schedule *sc, NestList *out, HwArrs *hw)
{
	if (!s)
		return;
	int nb;
	Stmt **in = s->kind == ST_FOR ? slot_stmts(&s->body[0], &nb) : NULL;
	if (in && nb == 1 && in[0]->kind == ST_FOR) {
		Nest nt = {s, in[0]};
		HwArrs a = {0};
		bool ok = zero(s->lo) && zero(nt.inner->lo) && s->step == 1 && nt.inner->step == 1 && !expr_reads_var(nt.inner->hi, s->var) && !reads_local(s->hi) &&
		          !reads_local(nt.inner->hi) && !scheduled(sc, s->var) && !scheduled(sc, nt.inner->var) && stmt_reads_hw_only(nt.inner->body[0], &nt, &a) && a.arrs.n;
		for (int i = 0; ok && i < a.arrs.n; i++) /* each array in one form in every nest */
			ok = !in_arrs(&hw->arrs, a.arrs.v[i]) || in_arrs(&hw->grouped, a.arrs.v[i]) == in_arrs(&a.grouped, a.arrs.v[i]);
		if (ok) {
			vec_push(*out, nt);
			for (int i = 0; i < a.arrs.n; i++)
				if (!in_arrs(&hw->arrs, a.arrs.v[i])) {
					vec_push(hw->arrs, a.arrs.v[i]);
					if (in_arrs(&a.grouped, a.arrs.v[i]))
						vec_push(hw->grouped, a.arrs.v[i]);
				}
			hw->n += a.n;
		}
		vec_free(a.arrs);
		vec_free(a.grouped);
		if (ok)
			return;
	}
	for (int i = 0; i < s->nbody; i++)
		find_nests(s->body[i], sc, out, hw);
}

/* How many accesses to the arrays of arrs s makes. */
static int count_accesses(const Expr *e, const ArrList *arrs)
{
	if (!e)
		return 0;
	int n = e->kind == EX_INDEX && in_arrs(arrs, e->var);
	for (int i = 0; i < e->nargs; i++)
		n += count_accesses(e->args[i], arrs);
	return n;
}

static int stmt_count_accesses(const Stmt *s, const ArrList *arrs)
{
	if (!s)
		return 0;
	int n = count_accesses(s->lhs, arrs) + count_accesses(s->rhs, arrs) + count_accesses(s->cond, arrs) + count_accesses(s->lo, arrs) +
	        count_accesses(s->hi, arrs);
	for (int i = 0; i < s->nbody; i++)
		n += stmt_count_accesses(s->body[i], arrs);
	return n;
}

typedef struct ViewCtx {
	const Nest *nt;
	Var *it;
	const ArrList *arrs, *views;
} ViewCtx;

/* e with a[..][h][w] read as view[..][it], a[..][x * H + h][w] as view[..][x][it], and h,
 * w elsewhere as it / W, it % W. */
static Expr *to_view(Program *p, const Expr *e, void *ctx)
{
	ViewCtx *vc = ctx;
	const Nest *nt = vc->nt;
	Loc l = e->loc;
	if (e->kind == EX_VAR && (e->var == nt->outer->var || e->var == nt->inner->var))
		return ex_bin(p, e->var == nt->outer->var ? OP_DIV : OP_MOD, ex_var(p, vc->it, l), ex_copy(p, nt->inner->hi), l);
	Expr *c = ex_copy(p, e);
	const Expr *group;
	for (int i = 0; c->kind == EX_INDEX && i < vc->arrs->n; i++)
		if (c->var == vc->arrs->v[i] && c->nargs >= 2 && trailing_hw(e, nt, &group)) {
			c->var = vc->views->v[i];
			if (group)
				c->args[c->nargs - 2] = (Expr *)group;
			else
				c->nargs--;
			c->args[c->nargs - 1] = ex_var(p, vc->it, l);
			break;
		}
	for (int i = 0; i < c->nargs; i++)
		if (c->args[i]->kind != EX_VAR || c->args[i]->var != vc->it)
			c->args[i] = to_view(p, c->args[i], ctx);
	return c;
}

/* For the GPU's CTA-per-row kernels, which take flat loops over a row's elements: each
 * perfect nest over the two trailing dims of the arrays it reads (`for (h < H) for (w <
 * W) ... x[n][c][h][w]`, InstanceNorm and GroupNorm written over images) becomes one loop
 * over h * W + w, the arrays read as views of dims [..][H * W] (the same elements: the
 * trailing dims are contiguous). Only when every access to those arrays in the region is
 * in such a nest at [..][h][w], and the loops read h and w nowhere else; the fused C keeps
 * the nest as written. */
static void collapse_trailing_nests(Cascade *c, Stmt *region)
{
	Program *p = c->prog;
	NestList nests = {0};
	HwArrs hw = {0};
	ArrList views = {0};
	find_nests(region, region->sched, &nests, &hw);
	ArrList *arrs = &hw.arrs;
	/* a grouped array's nests count over the same rows of a group */
	for (int i = 1; hw.grouped.n && i < nests.n; i++)
		if (!expr_equal(nests.v[i].outer->hi, nests.v[0].outer->hi) || !expr_equal(nests.v[i].inner->hi, nests.v[0].inner->hi))
			nests.n = 0;
	if (nests.n && hw.n == stmt_count_accesses(region, arrs)) {
		for (int i = 0; i < arrs->n; i++) {
			Var *a = arrs->v[i], *v = var_new(p, a->kind, a->name, a->ty, a->loc);
			int id = v->id;
			bool grouped = in_arrs(&hw.grouped, a);
			*v = *a;
			v->id = id;
			v->ndim = a->ndim - !grouped;
			v->dims = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)v->ndim);
			memcpy(v->dims, a->dims, sizeof(Expr *) * (size_t)(a->ndim - 2));
			if (grouped) /* [..][G * H][W] as [..][G][H * W] */
				v->dims[v->ndim - 2] = groups_of(a->dims[a->ndim - 2], nests.v[0].outer->hi);
			v->dims[v->ndim - 1] = ex_bin(p, OP_MUL, grouped ? nests.v[0].outer->hi : a->dims[a->ndim - 2], a->dims[a->ndim - 1], a->loc);
			vec_push(views, v);
		}
		for (int i = 0; i < nests.n; i++) {
			Nest *nt = &nests.v[i];
			Var *it = fresh_var(c, arena_printf(&p->arena, "%s_%s", nt->outer->var->name, nt->inner->var->name), TY_INT, VAR_LOOP);
			ViewCtx vc = {nt, it, arrs, &views};
			Stmt *b = stmt_map_exprs(p, nt->inner->body[0], to_view, &vc);
			Stmt *l = st_for(p, it, nt->outer->lo, ex_bin(p, OP_MUL, nt->outer->hi, nt->inner->hi, nt->outer->loc), 1, b, nt->outer->loc);
			*nt->outer = *l;
		}
	}
	vec_free(nests);
	vec_free(hw.arrs);
	vec_free(hw.grouped);
	vec_free(views);
}

/* Locals declared between two loops of the nest move into the inner loop's body, so that
 * the loops nest perfectly and the row block is found inside them: scalars set up there
 * (`for (h) { float slope = f(h); for (i) ... }`, a per-head value; the same value,
 * computed per iteration of the inner loop), when the initialiser reads inputs (never
 * what the region writes) and the inner loop never assigns them; and scratch declared
 * once and reused by every iteration (`for (h) { float s[N]; for (i) ... }`), when it is
 * private to the inner loop (loop_private), which the dependence analysis then sees:
 * a local declared in a loop carries nothing across it. */
static void sink_nest_locals(Program *p, Stmt *s)
{
	while (s->kind == ST_FOR) {
		Stmt *b = s->body[0];
		if (b->kind != ST_BLOCK || b->nbody < 2) {
			s = b->kind == ST_BLOCK && b->nbody == 1 ? b->body[0] : b;
			continue;
		}
		Stmt *inner = b->body[b->nbody - 1];
		if (inner->kind != ST_FOR)
			return;
		for (int i = 0; i < b->nbody - 1; i++) {
			Stmt *d = b->body[i];
			if (d->kind != ST_DECL)
				return;
			bool setup = !d->var->ndim && d->rhs && reads_inputs_only(d->rhs) && !stmt_writes_var(inner, d->var);
			bool scratch = !d->rhs && loop_private(inner, d->var);
			for (int k = i + 1; scratch && k < b->nbody - 1; k++)
				scratch = !stmt_reads_var(b->body[k], d->var);
			if (!setup && !scratch)
				return;
		}
		Stmt *ib = inner->body[0];
		int n = ib->kind == ST_BLOCK ? ib->nbody : 1;
		Stmt **body = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(b->nbody - 1 + n));
		for (int i = 0; i < b->nbody - 1; i++)
			body[i] = b->body[i];
		for (int i = 0; i < n; i++)
			body[b->nbody - 1 + i] = ib->kind == ST_BLOCK ? ib->body[i] : ib;
		Stmt *nb = st_block(p, body, b->nbody - 1 + n, ib->loc);
		st_set_body(p, inner, &nb, 1);
		st_set_body(p, s, &inner, 1);
		s = inner;
	}
}

/* The innermost block holding every axis loop, each a child of it or a child of a loop
 * that is a child of it (the d-outer form). Its enclosing loops are the row loops. */
static Stmt *find_row(Stmt *s, const char *axis, StmtVec *row_loops)
{
	if (s->kind == ST_FOR && !is_axis_loop(s, axis)) {
		Stmt *b = s->body[0];
		int n = 0;
		if (b->kind == ST_BLOCK) {
			for (int i = 0; i < b->nbody; i++) {
				Stmt *c = b->body[i];
				if (is_axis_loop(c, axis))
					n++;
				else if (c->kind == ST_FOR && contains_axis_loop(c, axis))
					n++;
			}
			/* A block with just one loop that wraps everything: look inside. */
			if (!(b->nbody == 1 && b->body[0]->kind == ST_FOR && !is_axis_loop(b->body[0], axis))) {
				if (n > 0) {
					vec_push(*row_loops, s);
					return b;
				}
			}
		}
		Stmt *inner = b->kind == ST_BLOCK && b->nbody == 1 ? b->body[0] : b;
		if (inner->kind == ST_FOR && !is_axis_loop(inner, axis)) {
			vec_push(*row_loops, s);
			return find_row(inner, axis, row_loops);
		}
	}
	return NULL;
}

/* Whether e or s reads a variable spelled `name` other than `except`. */
static bool expr_reads_name(const Expr *e, const char *name, const Var *except)
{
	if (!e)
		return false;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var != except && !strcmp(e->var->name, name))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (expr_reads_name(e->args[i], name, except))
			return true;
	return false;
}

static bool stmt_reads_name(const Stmt *s, const char *name, const Var *except)
{
	if (!s)
		return false;
	if (expr_reads_name(s->lhs, name, except) || expr_reads_name(s->rhs, name, except) || expr_reads_name(s->cond, name, except) ||
	    expr_reads_name(s->lo, name, except) || expr_reads_name(s->hi, name, except) || (s->kind == ST_DECL && s->var != except && !strcmp(s->var->name, name)))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_reads_name(s->body[i], name, except))
			return true;
	return false;
}

/* ---- sibling loops over the same rows ---- */

/* Whether subscript e is the iterator it plus an offset that does not read it (`g`,
 * `kh * G + g`): distinct iterations give distinct subscripts. */
static const Expr *hidden_offset(const Expr *x, const Var *v);

static bool row_offset_form(const Expr *e, const Var *it)
{
	return (e->kind == EX_VAR && e->var == it) || hidden_offset(e, it);
}

/* The subscript positions (bit k: subscript k) at which every access to array v in e is
 * exactly the iterator `it`; all bits when e does not access v. With first (32 entries,
 * NULL at first), the subscript may be the iterator plus an offset (row_offset_form), the
 * same in every access (first[k] holds the first one seen). */
static unsigned row_positions(const Expr *e, const Var *v, const Var *it, const Expr **first)
{
	if (!e)
		return ~0u;
	unsigned m = ~0u;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var == v) {
		m = 0;
		for (int k = 0; e->kind == EX_INDEX && k < e->nargs && k < 32; k++) {
			const Expr *a = e->args[k];
			if (!first ? a->kind == EX_VAR && a->var == it : row_offset_form(a, it) && (!first[k] || expr_equal(first[k], a)))
				m |= 1u << k;
			if (first && !first[k])
				first[k] = a;
		}
	}
	for (int i = 0; i < e->nargs; i++)
		m &= row_positions(e->args[i], v, it, first);
	return m;
}

static unsigned stmt_row_positions_in(const Stmt *s, const Var *v, const Var *it, const Expr **first)
{
	if (!s)
		return ~0u;
	unsigned m = row_positions(s->lhs, v, it, first) & row_positions(s->rhs, v, it, first) & row_positions(s->cond, v, it, first) &
	             row_positions(s->lo, v, it, first) & row_positions(s->hi, v, it, first);
	for (int i = 0; i < s->nbody; i++)
		m &= stmt_row_positions_in(s->body[i], v, it, first);
	return m;
}

static unsigned stmt_row_positions(const Stmt *s, const Var *v, const Var *it)
{
	return stmt_row_positions_in(s, v, it, NULL);
}

/* Whether loop l, holding a loop, writes of what lives outside it only arrays, each at
 * the row of l's iterator (one subscript is the iterator, or the iterator plus an offset
 * as a query head `kh * G + g` of a GQA group loop, the same one in every access of the
 * array in l): a map over l's iterator, no reduction over it. */
static bool maps_rows(const Stmt *l)
{
	if (l->kind != ST_FOR || !stmt_has_loop(l->body[0]))
		return false;
	VarVec w = {0};
	collect_writes(l, &w);
	bool ok = true;
	for (int i = 0; ok && i < w.n; i++) {
		const Expr *first[32] = {0};
		ok = stmt_declares(l, w.v[i]) || (w.v[i]->ndim > 0 && stmt_row_positions_in(l, w.v[i], l->var, first));
	}
	vec_free(w);
	return ok;
}

/* Whether loops a and b (b after a, with only such loops between) can run as one loop:
 * the same range, both maps over their rows, and each array one writes and both access
 * is accessed at the same subscript by both iterators, so that iteration r of b depends
 * only on iteration r of a. *matrix is set when such an array has two or more
 * dimensions (a matrix of rows, the full S[N][N] of the literal `softmax(Q K^T) V`: the
 * reason to fuse them). */
static bool rows_compatible(const Stmt *a, const Stmt *b, bool *matrix)
{
	if (b->kind != ST_FOR || a->step != b->step || !expr_equal(a->lo, b->lo) || !expr_equal(a->hi, b->hi) || !maps_rows(a) || !maps_rows(b))
		return false;
	if (stmt_stores_read_by(a, b->lo) || stmt_stores_read_by(a, b->hi) || stmt_stores_read_by(b, b->lo) || stmt_stores_read_by(b, b->hi))
		return false;
	if (strcmp(a->var->name, b->var->name) && (stmt_reads_name(b, a->var->name, b->var) || stmt_reads_name(a, b->var->name, a->var)))
		return false;
	VarVec w = {0};
	collect_writes(a, &w);
	collect_writes(b, &w);
	bool ok = true;
	for (int i = 0; ok && i < w.n; i++) {
		Var *x = w.v[i];
		if (!(stmt_reads_var(a, x) || stmt_writes_var(a, x)) || !(stmt_reads_var(b, x) || stmt_writes_var(b, x)))
			continue;
		ok = x->ndim > 0 && (stmt_row_positions(a, x, a->var) & stmt_row_positions(b, x, b->var));
		*matrix |= x->ndim > 1;
	}
	vec_free(w);
	return ok;
}

/* Whether a clause of sc names a loop `name`. */
static bool clause_names(const Schedule *sc, const char *name)
{
	const LoopArg *lists[] = {sc->parallel, sc->tile, sc->rolling, sc->splitk};
	const int ns[] = {sc->nparallel, sc->ntile, sc->nrolling, sc->nsplitk};
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < ns[l]; i++)
			if (!strcmp(lists[l][i].loop, name))
				return true;
	for (int i = 0; i < sc->ntune; i++)
		if (!strcmp(sc->tune[i].key, name))
			return true;
	return false;
}

/* The loops of `from` that count over the range of a loop of `to` under another name
 * and read what that loop writes (the softmax's `for (c < N)` over the scores that
 * `for (j < N)` stored) take its name, which no clause gives them: the loops over a
 * row's keys are one axis, whatever each nest called them. */
static void adopt_loop_names(const Schedule *sc, Stmt *to, Stmt *from)
{
	if (from->kind == ST_FOR && !clause_names(sc, from->var->name)) {
		StmtVec loops = {0};
		find_all_loops(to, &loops);
		for (int i = 0; i < loops.n; i++) {
			Stmt *k = loops.v[i];
			if (k->step != from->step || !expr_equal(k->lo, from->lo) || !expr_equal(k->hi, from->hi) || !strcmp(k->var->name, from->var->name) ||
			    stmt_reads_name(from, k->var->name, from->var))
				continue;
			VarVec w = {0};
			collect_writes(k, &w);
			bool reads = false;
			for (int v = 0; v < w.n && !reads; v++)
				reads = !stmt_declares(k, w.v[v]) && stmt_reads_var(from, w.v[v]);
			vec_free(w);
			if (reads) {
				from->var->name = k->var->name;
				break;
			}
		}
		vec_free(loops);
	}
	for (int i = 0; i < from->nbody; i++)
		if (from->body[i])
			adopt_loop_names(sc, to, from->body[i]);
}

static bool stmt_has(const Stmt *s, const Stmt *t)
{
	if (s == t)
		return true;
	for (int i = 0; s && i < s->nbody; i++)
		if (stmt_has(s->body[i], t))
			return true;
	return false;
}

static bool stmt_not_named(const Stmt *s, const char *name);

/* The loops of a region over one range, none inside another and none a clause names,
 * of which two or more reduce under different names (a row's key loops written `for (j)`,
 * `for (jj)`, `for (t)` one after the other, as people name successive loops in one
 * scope, or a helper's loops renamed `t_2`, `t_3`): one axis, named as the first of them
 * in the source, where nothing in a loop renamed reads or declares that name. */
static void unify_range_loops(Program *p, const Schedule *sc, Stmt *region)
{
	StmtVec all = {0};
	find_all_loops(region, &all);
	bool *done = calloc((size_t)all.n + 1, sizeof *done);
	for (int a = 0; a < all.n; a++) {
		if (done[a])
			continue;
		StmtVec group = {0};
		for (int b = a; b < all.n; b++) {
			Stmt *l = all.v[b];
			if (done[b] || l->step != all.v[a]->step || !expr_equal(l->lo, all.v[a]->lo) || !expr_equal(l->hi, all.v[a]->hi))
				continue;
			done[b] = true;
			bool outer = clause_names(sc, l->var->name);
			for (int o = 0; o < all.n && !outer; o++)
				outer = o != b && all.v[o] != l && stmt_has(l, all.v[o]) && all.v[o]->step == l->step && expr_equal(all.v[o]->lo, l->lo) && expr_equal(all.v[o]->hi, l->hi);
			if (!outer)
				vec_push(group, l);
		}
		const char *first = NULL;
		bool differ = false;
		for (int g = 0; g < group.n; g++)
			if (loop_reduces(p, group.v[g], NULL, 0, group.v[g]->body[0])) {
				differ |= first && strcmp(first, group.v[g]->var->name);
				first = first ? first : group.v[g]->var->name;
			}
		for (int g = 1; differ && g < group.n; g++) {
			Stmt *l = group.v[g];
			const char *name = group.v[0]->var->name;
			if (strcmp(l->var->name, name) && stmt_not_named(l, name))
				l->var->name = name;
		}
		vec_free(group);
	}
	free(done);
	vec_free(all);
}

/* Sibling loops over the same rows that pass whole rows to each other through an array
 * (`for (i) S[i][j] = q.k; for (i) softmax of S[i]; for (i) O[i] = S[i] V`) run as one
 * loop over the rows, so that each row's scratch narrows to one row
 * (narrow_scratch_arrays) and the fuser sees the reductions of a row side by side. A
 * local declared at the top of an earlier body that a later body's name would meet is
 * renamed. */
/* Declarations without a value between sibling loops over the same rows (`float
 * rowmax[N];` before the loop that fills it, as op-by-op code declares each result) move
 * before the first loop, so that fuse_sibling_loops finds the loops adjacent: an array of
 * constant or parameter extents, whose name no statement it moves over reads. */
static void hoist_bare_decls(Stmt *s)
{
	for (int i = 0, first = -1; s->kind == ST_BLOCK && i < s->nbody; i++) {
		Stmt *d = s->body[i];
		if (d->kind == ST_FOR || first < 0 || d->kind != ST_DECL || d->rhs) {
			/* the run of loops and bare declarations from the first loop */
			first = d->kind == ST_FOR ? (first < 0 ? i : first) : -1;
			continue;
		}
		int prev = i - 1, next = i + 1;
		while (s->body[prev]->kind == ST_DECL)
			prev--;
		while (next < s->nbody && s->body[next]->kind == ST_DECL && !s->body[next]->rhs)
			next++;
		bool matrix = false;
		bool ok = s->body[prev]->kind == ST_FOR && next < s->nbody && rows_compatible(s->body[prev], s->body[next], &matrix);
		for (int k = 0; ok && k < d->var->ndim; k++)
			ok = expr_reads_params_only(d->var->dims[k]);
		for (int k = first; ok && k < i; k++)
			ok = !stmt_reads_name(s->body[k], d->var->name, NULL);
		if (!ok)
			continue;
		memmove(s->body + first + 1, s->body + first, sizeof *s->body * (size_t)(i - first));
		s->body[first++] = d;
	}
}

typedef struct CarriedCtx {
	const Var *x, *it;
} CarriedCtx;

/* ExprTest: no access of ctx's array in e (nested included) has a subscript reading ctx's
 * iterator. */
static bool access_skips_iter(const Expr *e, void *ctx)
{
	CarriedCtx *cc = ctx;
	if (e->kind == EX_INDEX && e->var == cc->x)
		for (int i = 0; i < e->nargs; i++)
			if (expr_reads_var(e->args[i], cc->it))
				return false;
	for (int i = 0; i < e->nargs; i++)
		if (!access_skips_iter(e->args[i], ctx))
			return false;
	return true;
}

/* A loop over a KV group's heads inside the key loop (`for (t) for (g) { s = q[g].k[t];
 * m[g], l[g], acc[g][..] updated }`, a CPU engineer's GQA decode reading each key once
 * for the group) runs outside it: `for (g) for (t)`. Legal as maps_rows(g) holds (what
 * the group loop writes outside itself are arrays, each only at row g) and the key
 * loop's body is the group loop alone; done only where such an array is carried across
 * the keys (a subscript not reading t: a reduction over t, not a matrix S[t][g] written
 * once per pair), so that the group loops before and after (the accumulators' zeroing and
 * the output) then fuse with it as siblings. */
static void interchange_group_loops(const Schedule *sc, Stmt *s)
{
	for (int i = 0; s && i < s->nbody; i++)
		interchange_group_loops(sc, s->body[i]);
	if (!s || s->kind != ST_FOR || s->sched || clause_names(sc, s->var->name))
		return;
	Stmt **slot = &s->body[0];
	while (*slot && (*slot)->kind == ST_BLOCK && (*slot)->nbody == 1)
		slot = &(*slot)->body[0];
	Stmt *g = *slot;
	if (!g || g->kind != ST_FOR || clause_names(sc, g->var->name) || !maps_rows(g) || expr_reads_var(g->lo, s->var) || expr_reads_var(g->hi, s->var))
		return;
	VarVec w = {0};
	collect_writes(g, &w);
	bool carried = false;
	for (int k = 0; k < w.n && !carried; k++) {
		CarriedCtx cc = {w.v[k], s->var};
		carried = !stmt_declares(g, w.v[k]) && w.v[k]->ndim > 0 && stmt_all_exprs(g, access_skips_iter, &cc);
	}
	vec_free(w);
	if (!carried)
		return;
	/* swap the loops' headers: g's body runs inside the loop over t */
	Var *v = s->var;
	Expr *lo = s->lo, *hi = s->hi;
	long step = s->step;
	s->var = g->var, s->lo = g->lo, s->hi = g->hi, s->step = g->step;
	g->var = v, g->lo = lo, g->hi = hi, g->step = step;
}

static void fuse_sibling_loops(Cascade *c, Stmt *s)
{
	Program *p = c->prog;
	hoist_bare_decls(s);
	for (int i = 0; s->kind == ST_BLOCK && i + 1 < s->nbody; i++) {
		/* the run of loops after s->body[i] each compatible with every earlier one */
		int end = i + 1;
		bool matrix = false, ok = s->body[i]->kind == ST_FOR;
		for (; ok && end < s->nbody; end++)
			for (int k = i; ok && k < end; k++)
				ok = rows_compatible(s->body[k], s->body[end], &matrix);
		end -= !ok;
		matrix = false;
		for (int b = i + 1; b < end; b++)
			for (int k = i; k < b; k++)
				rows_compatible(s->body[k], s->body[b], &matrix);
		if (end - i < 2 || !matrix)
			continue;
		for (int at = i + 1; at < end; at++) {
			Stmt *a = s->body[i], *b = s->body[at];
			int na, nb;
			Stmt **sa = slot_stmts(&a->body[0], &na);
			for (int k = 0; k < na; k++)
				if (sa[k]->kind == ST_DECL && stmt_reads_name(b, sa[k]->var->name, NULL))
					sa[k]->var->name = fresh_var(c, sa[k]->var->name, TY_INT, VAR_LOCAL)->name;
			Stmt *tail = stmt_subst_var(p, b->body[0], b->var, a->var);
			adopt_loop_names(c->region->loop->sched, a->body[0], tail);
			Stmt **sb = slot_stmts(&tail, &nb);
			Stmt **all = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(na + nb));
			if (na) /* an empty body may have no array */
				memcpy(all, sa, sizeof(Stmt *) * (size_t)na);
			if (nb)
				memcpy(all + na, sb, sizeof(Stmt *) * (size_t)nb);
			Stmt *body = st_block(p, all, na + nb, a->body[0]->loc);
			st_set_body(p, a, &body, 1);
		}
		memmove(s->body + i + 1, s->body + end, sizeof(Stmt *) * (size_t)(s->nbody - end));
		s->nbody -= end - i - 1;
	}
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			fuse_sibling_loops(c, s->body[i]);
}

/* A loop of the row that another iterator counts over the same range as the loops over
 * the axis, after one of them and reading what one of them wrote, as llama2.c's
 * `softmax(att, pos + 1)` runs `for (i = 0; i < pos + 1; i++)` over the scores that
 * `for (t = 0; t <= pos; t++)` stored: it is a loop over the axis too, and its iterator
 * takes the axis's name (left where the name would capture another variable). */
static void adopt_axis_loops(Stmt *row, const char *axis)
{
	const Stmt *ref = NULL;
	VarVec w = {0};
	for (int i = 0; i < row->nbody; i++) {
		Stmt *k = row->body[i];
		if (ref && k->kind == ST_FOR && !is_axis_loop(k, axis) && k->step == ref->step && expr_equal(k->lo, ref->lo) && expr_equal(k->hi, ref->hi) &&
		    !stmt_reads_name(k, axis, k->var)) {
			bool reads = false;
			for (int v = 0; v < w.n && !reads; v++)
				reads = stmt_reads_var(k, w.v[v]);
			if (reads)
				k->var->name = axis;
		}
		if (is_axis_loop(k, axis)) {
			ref = ref ? ref : k;
			collect_writes(k, &w);
		}
	}
	vec_free(w);
}

/* Loop `v` wraps exactly one axis loop, a direct child of its body. Distributes it into
 * [v: before] [axis: v: body] [v: after], expanding its locals over v. Appends the new
 * statements to out. */
static bool interchange(Cascade *c, Stmt *vloop, DepInfo *deps, StmtVec *out)
{
	Program *p = c->prog;
	if (vloop->var->blocks_why)
		return error_at(vloop->loc, "loop '%s' is an online softmax by blocks of keys (a Triton port's 'start_n += BLOCK_N' loop) that fusecc cannot read one key at a time: %s",
		                vloop->var->name, vloop->var->blocks_why), false;
	Stmt *b = vloop->body[0];
	if (b->kind != ST_BLOCK) {
		Stmt *one = b;
		b = st_block(p, &one, 1, b->loc);
	}
	int at = -1;
	for (int i = 0; i < b->nbody; i++) {
		if (is_axis_loop(b->body[i], c->axis)) {
			if (at >= 0)
				return error_at(b->body[i]->loc, "loop '%s' holds two loops over '%s': fusecc interchanges a loop with one inner '%s' loop only", vloop->var->name, c->axis, c->axis), false;
			at = i;
		} else if (contains_axis_loop(b->body[i], c->axis)) {
			/* `for (g) for (d) { for (j) acc += ...; }`: say what to write */
			StmtVec in = {0};
			find_loops(b->body[i], c->axis, &in);
			Stmt *x = b->body[i], *jl = in.n ? in.v[0] : x;
			vec_free(in);
			if (x->kind == ST_FOR)
				return error_at(jl->loc, "the loop over '%s' sits inside the loop over '%s' (line %d), inside loop '%s': fusecc moves a loop over '%s' out of the one loop directly around it only "
				                         "(where each '%s' is a row of its own, make loop '%s' the outermost loop of the row, around all the loops over '%s', with scalars for its reductions, and name it in parallel(...))",
				                c->axis, x->var->name, x->loc.line, vloop->var->name, c->axis, vloop->var->name, vloop->var->name, c->axis), false;
			return error_at(b->body[i]->loc, "the loop over '%s' must be directly inside loop '%s' to be interchanged with it", c->axis, vloop->var->name), false;
		}
	}
	Stmt *jl = b->body[at];
	if (expr_reads_var(jl->lo, vloop->var) || expr_reads_var(jl->hi, vloop->var))
		return error_at(jl->loc, "the bounds of loop '%s' depend on '%s': the loops cannot be interchanged", c->axis, vloop->var->name), false;
	Loc w = vloop->loc;
	if (deps_loop_carries(deps, vloop, NULL, 0, &w)) {
		/* splitk(d) where the reductions run over j: say which loop to name */
		const Schedule *sc = c->region->loop->sched;
		bool named = sc->nrolling || sc->nsplitk;
		if (named && loop_reduces(p, vloop, NULL, 0, vloop->body[0]))
			return error_at(w, "loop '%s' carries a dependence, so the loop over '%s' inside it cannot be moved out of it: the reductions here run over '%s'; name that loop in '%s'", vloop->var->name,
			                c->axis, vloop->var->name, sc->nrolling ? "rolling" : "splitk"), false;
		return error_at(w, "loop '%s' carries a dependence, so the loop over '%s' inside it cannot be moved out of it", vloop->var->name, c->axis), false;
	}
	/* Locals of the v body that live across the axis loop become arrays over v. */
	VarVec expand = {0};
	for (int i = 0; i < at; i++)
		if (b->body[i]->kind == ST_DECL)
			vec_push(expand, b->body[i]->var);
	/* The expanded arrays: same names, one more (outer) dimension. */
	for (int e = 0; e < expand.n; e++) {
		Var *v = expand.v[e];
		if (v->ndim)
			return error_at(v->loc, "array '%s' declared inside loop '%s' around the loop over '%s' is not supported", v->name, vloop->var->name, c->axis), false;
		v->ndim = 1;
		v->dims = arena_alloc(&p->arena, sizeof(Expr *));
		v->dims[0] = ex_copy(p, vloop->hi);
		vec_push(*out, st_decl(p, v, NULL, v->loc));
	}
	Var *vs[3];
	StmtVec parts[3] = {{0}, {0}, {0}};
	for (int k = 0; k < 3; k++) {
		vs[k] = var_new(p, VAR_LOOP, vloop->var->name, TY_INT, vloop->var->loc);
	}
	for (int i = 0; i < b->nbody; i++) {
		int k = i < at ? 0 : i == at ? 1 : 2;
		Stmt *s = k == 1 ? b->body[i]->body[0] : b->body[i];
		s = stmt_subst_var(p, s, vloop->var, vs[k]);
		for (int e = 0; e < expand.n; e++) {
			Expr *idx = ex_var(p, vs[k], s->loc);
			Expr *el = ex_index(p, expand.v[e], &idx, s->loc);
			el->var = expand.v[e];
			s = stmt_expand_scalar(p, s, expand.v[e], el);
		}
		vec_push(parts[k], s);
	}
	for (int k = 0; k < 3; k++) {
		if (!parts[k].n && k != 1)
			continue;
		Stmt *body = parts[k].n == 1 ? parts[k].v[0] : st_block(p, parts[k].v, parts[k].n, vloop->loc);
		Stmt *vl = st_for(p, vs[k], ex_copy(p, vloop->lo), ex_copy(p, vloop->hi), 1, body, vloop->loc);
		if (k == 1) {
			Stmt *nj = st_for(p, jl->var, jl->lo, jl->hi, 1, vl, jl->loc);
			vec_push(*out, nj);
		} else {
			vec_push(*out, vl);
		}
		vec_free(parts[k]);
	}
	vec_free(expand);
	return true;
}

/* ---- an output element used as an accumulator ---- */

/* An output row used as an accumulator: the elements P[lead...][off + x] (off NULL:
 * P[lead...][x]), x running over the row's columns. */
typedef struct OutRow {
	const Var *P;
	Expr *const *lead;
	int nlead;
	const Expr *off; /* a head's first column in a hidden dim (`h * 64`), or NULL */
} OutRow;

/* The column x of e when e is an element of the row, P[lead...][off + x] (or x + off;
 * P[lead...][x], any x, without off); NULL otherwise. */
static const Expr *out_col(const Expr *e, const OutRow *o)
{
	if (e->kind != EX_INDEX || e->var != o->P || e->nargs != o->nlead + 1)
		return NULL;
	for (int i = 0; i < o->nlead; i++)
		if (!expr_equal(e->args[i], o->lead[i]))
			return NULL;
	const Expr *x = e->args[o->nlead];
	if (!o->off)
		return x;
	if (x->kind != EX_BIN || x->bop != OP_ADD)
		return NULL;
	for (int k = 0; k < 2; k++)
		if (expr_equal(x->args[k], o->off))
			return x->args[1 - k];
	return NULL;
}

typedef struct OutSubst {
	const OutRow *o;
	Var *acc;
} OutSubst;

/* Copy of e with every element of the row read as acc[x] (an ExprMap; ctx: the OutSubst). */
static Expr *subst_out_map(Program *p, const Expr *e, void *ctx)
{
	const OutSubst *os = ctx;
	if (!e)
		return NULL;
	const Expr *x = out_col(e, os->o);
	if (x) {
		Expr *xc = ex_copy(p, x);
		return ex_index(p, os->acc, &xc, e->loc);
	}
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < e->nargs; i++)
		c->args[i] = subst_out_map(p, e->args[i], ctx);
	return c;
}

/* s with every element of the row read as acc[x]. */
static Stmt *stmt_subst_out(Program *p, const Stmt *s, const OutRow *o, Var *acc)
{
	OutSubst os = {o, acc};
	return stmt_map_exprs(p, s, subst_out_map, &os);
}

/* Whether P's accesses in s (a loop over the axis) are reductions into elements of the
 * row at x, x the iterator of an enclosing loop over the range of `range`, and nothing
 * else reads P. */
static bool out_reduced_in(Program *p, const Stmt *s, const OutRow *o, const Stmt *range, StmtVec *loops)
{
	const Var *P = o->P;
	if (!s)
		return true;
	if (s->kind == ST_ASSIGN && s->lhs->var == P) {
		Expr *t, *g;
		Reducer red;
		const Expr *x = out_col(s->lhs, o);
		if (!x || !reduce_match(p, (Stmt *)s, &t, &red, &g) || red != RED_ADD || expr_reads_var(g, P))
			return false;
		bool bound = false;
		for (int i = 0; i < loops->n && !bound; i++)
			bound = x->kind == EX_VAR && loops->v[i]->var == x->var && expr_equal(loops->v[i]->lo, range->lo) && expr_equal(loops->v[i]->hi, range->hi);
		return bound;
	}
	if (expr_reads_var(s->lo, P) || expr_reads_var(s->hi, P) || expr_reads_var(s->cond, P) || expr_reads_var(s->rhs, P) || (s->lhs && expr_reads_var(s->lhs, P)))
		return false;
	if (s->kind == ST_FOR)
		vec_push(*loops, (Stmt *)s);
	bool ok = true;
	for (int i = 0; ok && i < s->nbody; i++)
		ok = out_reduced_in(p, s->body[i], o, range, loops);
	if (s->kind == ST_FOR)
		loops->n--;
	return ok;
}

/* The offset of subscript x = `off + v` (or `v + off`), v the iterator of the loop
 * zeroing an output row: a head's columns in a hidden dim, `out[b][t][h * 64 + i]` of
 * out[B][T][NH * 64] (llm.c, BERT without the transpose); NULL for x = v or anything
 * else. */
static const Expr *hidden_offset(const Expr *x, const Var *v)
{
	if (x->kind != EX_BIN || x->bop != OP_ADD)
		return NULL;
	for (int k = 0; k < 2; k++)
		if (x->args[k]->kind == EX_VAR && x->args[k]->var == v && !expr_reads_var(x->args[1 - k], v))
			return x->args[1 - k];
	return NULL;
}

/* The single statement of loop l's body (through blocks of one), or NULL. */
static Stmt *only_stmt(Stmt *l)
{
	Stmt *b = l->body[0];
	while (b && b->kind == ST_BLOCK && b->nbody == 1)
		b = b->body[0];
	return b && b->kind != ST_BLOCK ? b : NULL;
}

/* An output used as an accumulator: its elements of the row zeroed by a loop (`for (d) o[b][h][i][d]
 * = 0.0f;`, or a head's columns of a hidden dim, `o[b][i][h * 64 + d]`, the offset then the
 * same in every access), added to in the loops over the axis (`o[b][h][i][d] += p * v[b][h][j][d];`)
 * and finalised after them (`for (d) o[b][h][i][d] /= l;`). Stored during the pass, they
 * would keep partial values that nothing repairs; a local array accumulates instead, the
 * form the fuser knows (`acc[d]`): `float o_acc[D]; for (d) o_acc[d] = 0.0f; ... o_acc[d]
 * += ...; for (d) o[b][h][i][d] = o_acc[d] / l;` (the finalising loop becomes the store; a
 * store loop follows the pass when there is none). Only for a float or double output read
 * and written nowhere else in the row, zeroed by a loop from 0 whose body is that one
 * assignment, and reduced (+=) at its iterator's range in every loop over the axis that
 * touches it. */
static void localise_out_accums(Cascade *c, StmtVec *kids, VarVec *localised)
{
	Program *p = c->prog;
	for (int i = 0; i < kids->n; i++) {
		Stmt *z = kids->v[i], *zs;
		if (z->kind != ST_FOR || is_axis_loop(z, c->axis) || !(zs = only_stmt(z)) || zs->kind != ST_ASSIGN || zs->aop != AS_SET)
			continue;
		Expr *e = zs->lhs;
		Var *P = e->var;
		if (e->kind != EX_INDEX || P->kind != VAR_PARAM || P->is_const || (P->ty != TY_FLOAT && P->ty != TY_DOUBLE) ||
		    z->lo->kind != EX_INT || z->lo->ival != 0 || expr_reads_var(zs->rhs, P))
			continue;
		int nlead = e->nargs - 1;
		Expr *const *lead = e->args;
		OutRow o = {P, lead, nlead, hidden_offset(e->args[nlead], z->var)};
		const Expr *x = out_col(e, &o);
		bool ok = x && x->kind == EX_VAR && x->var == z->var;
		for (int k = 0; ok && k < nlead; k++)
			ok = !expr_reads_var(lead[k], z->var) && !expr_reads_var(lead[k], P);
		for (int k = 0; ok && o.off && k < kids->n; k++)
			ok = !expr_reads_var(o.off, P) && !stmt_stores_read_by(kids->v[k], o.off);
		for (int k = 0; ok && k < i; k++)
			ok = !stmt_reads_var(kids->v[k], P) && !stmt_writes_var(kids->v[k], P);
		/* The loops over the axis that touch it reduce into it; nothing between them does. */
		int last = -1;
		for (int k = i + 1; ok && k < kids->n; k++) {
			Stmt *t = kids->v[k];
			bool touches = stmt_reads_var(t, P) || stmt_writes_var(t, P);
			if (!touches)
				continue;
			if (!is_axis_loop(t, c->axis))
				break;
			StmtVec loops = {0};
			ok = out_reduced_in(p, t, &o, z, &loops);
			vec_free(loops);
			last = k;
		}
		if (!ok || last < 0)
			continue;
		Var *acc = fresh_var(c, arena_printf(&p->arena, "%s_acc", P->name), P->ty, VAR_LOCAL);
		acc->ndim = 1;
		acc->dims = arena_alloc(&p->arena, sizeof(Expr *));
		acc->dims[0] = ex_copy(p, z->hi);
		/* The store: the first loop after the pass that finalises the element, or a copy. */
		int fin = -1;
		for (int k = last + 1; k < kids->n && fin < 0; k++) {
			Stmt *t = kids->v[k], *u;
			const Expr *ux;
			if (!stmt_reads_var(t, P) && !stmt_writes_var(t, P))
				continue;
			if (t->kind == ST_FOR && expr_equal(t->lo, z->lo) && expr_equal(t->hi, z->hi) && (u = only_stmt(t)) && u->kind == ST_ASSIGN &&
			    (ux = out_col(u->lhs, &o)) && ux->kind == EX_VAR && ux->var == t->var && expr_reads_only_elem(u->rhs, u->lhs))
				fin = k;
			break;
		}
		Stmt *store;
		if (fin >= 0) {
			Stmt *t = kids->v[fin], *u = only_stmt(t);
			Expr *ix = ex_var(p, t->var, u->loc);
			Expr *val = folded_update(p, u, u->lhs, ex_index(p, acc, &ix, u->loc));
			store = st_for(p, t->var, t->lo, t->hi, t->step, st_assign(p, u->lhs, AS_SET, val, u->loc), t->loc);
		} else {
			Var *d = var_new(p, VAR_LOOP, z->var->name, TY_INT, z->var->loc);
			Expr *dx = ex_var(p, d, z->loc), *dx2 = ex_var(p, d, z->loc);
			Expr *idx[17];
			for (int k = 0; k < nlead && k < 16; k++)
				idx[k] = ex_copy(p, lead[k]);
			idx[nlead] = o.off ? ex_bin(p, OP_ADD, ex_copy(p, o.off), dx, z->loc) : dx;
			store = st_for(p, d, ex_copy(p, z->lo), ex_copy(p, z->hi), 1,
			               st_assign(p, ex_index(p, P, idx, z->loc), AS_SET, ex_index(p, acc, &dx2, z->loc), z->loc), z->loc);
		}
		/* kids: [..., decl, zero loop, ..., pass..., store (in place of the finaliser, or after the last pass loop), ...] */
		StmtVec nk = {0};
		for (int k = 0; k < kids->n; k++) {
			Stmt *t = kids->v[k];
			if (k == i)
				vec_push(nk, st_decl(p, acc, NULL, z->loc));
			if (k >= i && k <= last)
				t = stmt_subst_out(p, t, &o, acc);
			if (k == fin)
				t = store;
			vec_push(nk, t);
			if (k == last && fin < 0)
				vec_push(nk, store);
		}
		vec_free(*kids);
		*kids = nk;
		vec_push(*localised, P);
		i = last + 1;
	}
}

/* expr_reads_only_elem as an ExprTest (ctx: the element). */
static bool only_elem_test(const Expr *e, void *elem) { return expr_reads_only_elem(e, elem); }

/* Copy of e with the element at o->lead read as the local acc (an ExprMap; ctx: an
 * OutSubst, as subst_out_map's). */
static Expr *subst_elem_map(Program *p, const Expr *e, void *ctx)
{
	const OutSubst *es = ctx;
	if (!e)
		return NULL;
	if (e->kind == EX_INDEX && e->var == es->o->P)
		return ex_var(p, es->acc, e->loc);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < e->nargs; i++)
		c->args[i] = subst_elem_map(p, e->args[i], ctx);
	return c;
}

/* Whether the row's statements kids write a variable e reads, or e reads memory. */
static bool subscript_moves(const Expr *e, const StmtVec *kids)
{
	if (e->kind == EX_INDEX)
		return true;
	if (e->kind == EX_VAR)
		for (int k = 0; k < kids->n; k++)
			if (stmt_writes_var(kids->v[k], e->var))
				return true;
	for (int i = 0; i < e->nargs; i++)
		if (subscript_moves(e->args[i], kids))
			return true;
	return false;
}

/* An output element used as a scalar accumulator: set (`mean[r] = 0.0f;`, `out[r] = 0;`),
 * added to or maximised in the loops over the axis (`mean[r] += x[r][c];`), perhaps
 * finalised in place (`mean[r] /= C;`) and read by later loops (`x[r][c] - mean[r]`), all
 * at the same element, of subscripts the row does not change. Stored during the pass it
 * would keep partial values; a local does the work (`float mean_acc = 0.0f; ...`) and the
 * element is stored once, at the end of the row, with the local's last value: the same
 * program, the element being read and written nowhere else in the row. */
static void localise_out_scalars(Cascade *c, StmtVec *kids, VarVec *localised)
{
	Program *p = c->prog;
	for (int i = 0; i < kids->n; i++) {
		Stmt *z = kids->v[i];
		if (z->kind != ST_ASSIGN || z->aop != AS_SET || z->lhs->kind != EX_INDEX)
			continue;
		Var *P = z->lhs->var;
		if (P->kind != VAR_PARAM || P->is_const || (P->ty != TY_FLOAT && P->ty != TY_DOUBLE) || z->lhs->nargs != P->ndim || expr_reads_var(z->rhs, P))
			continue;
		OutRow o = {P, z->lhs->args, z->lhs->nargs, NULL};
		bool ok = true, pass = false;
		for (int k = 0; ok && k < o.nlead; k++)
			ok = !subscript_moves(o.lead[k], kids);
		for (int k = 0; ok && k < i; k++)
			ok = !stmt_reads_var(kids->v[k], P) && !stmt_writes_var(kids->v[k], P);
		for (int k = i; ok && k < kids->n; k++) {
			ok = stmt_all_exprs(kids->v[k], only_elem_test, z->lhs);
			pass |= is_axis_loop(kids->v[k], c->axis) && stmt_writes_var(kids->v[k], P);
		}
		if (!ok || !pass)
			continue;
		Var *acc = fresh_var(c, arena_printf(&p->arena, "%s_acc", P->name), P->ty, VAR_LOCAL);
		OutSubst es = {&o, acc};
		Expr *elem = ex_copy(p, z->lhs);
		kids->v[i] = st_decl(p, acc, ex_copy(p, z->rhs), z->loc);
		for (int k = i + 1; k < kids->n; k++)
			kids->v[k] = stmt_map_exprs(p, kids->v[k], subst_elem_map, &es);
		vec_push(*kids, st_assign(p, elem, AS_SET, ex_var(p, acc, z->loc), z->loc));
		vec_push(*localised, P);
		/* an element reused for a second reduction (`lse[r]` a max, then reset to 0 for
		 * the sum) is two locals, as a reused scalar is */
		Stmt *blk = st_block(p, kids->v, kids->n, z->loc);
		for (int k = i; k < blk->nbody; k++)
			if (blk->body[k]->kind == ST_DECL && (k == i || blk->body[k] != kids->v[k]))
				split_reused_scalar(c, blk, k);
		memcpy(kids->v, blk->body, sizeof(Stmt *) * (size_t)kids->n);
	}
}

/* ---- results finalised in place ---- */

/* The reducer of the first reduction into v (a scalar, or an element of array v) in s,
 * or false. */
static bool reducer_of(Program *p, Stmt *s, const Var *v, Reducer *red)
{
	if (!s)
		return false;
	Expr *t, *g;
	if ((s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(p, s, &t, red, &g) && t->var == v)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (reducer_of(p, s->body[i], v, red))
			return true;
	return false;
}

/* ---- initial values applied after the pass ---- */

/* The statement in s, a nest of loops and blocks, that gives v its initial value: the one
 * plain assignment, or initialised declaration, of v in it, under no condition. NULL when
 * there is none, or several. */
static Stmt *init_leaf(Stmt *s, const Var *v)
{
	switch (s->kind) {
	case ST_ASSIGN:
		return s->lhs->var == v && s->aop == AS_SET ? s : NULL;
	case ST_DECL:
		return s->var == v && s->rhs ? s : NULL;
	case ST_FOR:
		return init_leaf(s->body[0], v);
	case ST_BLOCK: {
		Stmt *only = NULL;
		for (int i = 0; i < s->nbody; i++)
			if (stmt_writes_var(s->body[i], v)) {
				if (only)
					return NULL;
				only = s->body[i];
			}
		return only ? init_leaf(only, v) : NULL;
	}
	default:
		return NULL;
	}
}

/* The loops of s that lead to leaf (a statement init_leaf found in s), around repl alone. */
static Stmt *leaf_nest(Program *p, const Stmt *s, const Stmt *leaf, Stmt *repl)
{
	if (s == leaf)
		return repl;
	if (s->kind == ST_FOR)
		return st_for(p, s->var, ex_copy(p, s->lo), ex_copy(p, s->hi), s->step, leaf_nest(p, s->body[0], leaf, repl), s->loc);
	for (int i = 0; i < s->nbody; i++)
		if (stmt_writes_var(s->body[i], leaf->kind == ST_DECL ? leaf->var : leaf->lhs->var))
			return leaf_nest(p, s->body[i], leaf, repl);
	return repl; /* not reached: init_leaf found leaf in s */
}

static bool is_zero(const Expr *e) { return e && ((e->kind == EX_FLT && e->fval == 0) || (e->kind == EX_INT && e->ival == 0)); }

/* Whether e reads one of the variables in vs. */
static bool reads_any(const Expr *e, const VarVec *vs)
{
	for (int i = 0; i < vs->n; i++)
		if (expr_reads_var(e, vs->v[i]))
			return true;
	return false;
}

/* Whether kids[i] gives local v the initial value of a reduction over the axis whose
 * fused pass cannot start from it, and where that reduction's loop is (*at): a sum that
 * does not start at 0 (`float denom = expf(sink - m);`, gpt-oss's sink, or `float t =
 * 1.5f;`: a repair would rescale the initial value with the terms, and each split-k
 * chunk would add it again), or a max (min) whose initial value reads the result of an
 * earlier loop over the axis (between the levels it would be evaluated again at every
 * step). Only when the initial value can be computed after that loop, to the same value:
 * nothing from the statement to the end of the loop changes what it reads. */
static Stmt *deferred_init(Cascade *c, StmtVec *kids, int i, Var *v, int *at, Reducer *red)
{
	Stmt *s = kids->v[i], *leaf = init_leaf(s, v);
	bool count = count_type(v->ty);
	if (!leaf || v->kind != VAR_LOCAL || (v->ty != TY_FLOAT && v->ty != TY_DOUBLE && !count))
		return NULL;
	int l = i + 1;
	while (l < kids->n && !stmt_reads_var(kids->v[l], v) && !stmt_writes_var(kids->v[l], v))
		l++;
	if (l == kids->n || !is_axis_loop(kids->v[l], c->axis) || !reducer_of(c->prog, kids->v[l], v, red) || (count && *red != RED_ADD))
		return NULL;
	Expr *e = leaf->rhs;
	while (e->kind == EX_CAST)
		e = e->args[0];
	VarVec w = {0};
	for (int k = 0; k < i; k++)
		if (is_axis_loop(kids->v[k], c->axis))
			collect_writes(kids->v[k], &w);
	bool needed = *red == RED_ADD ? !is_zero(e) : reads_any(e, &w);
	w.n = 0;
	for (int k = i; k <= l; k++)
		collect_writes(kids->v[k], &w);
	bool movable = !reads_any(leaf->rhs, &w);
	vec_free(w);
	*at = l;
	return needed && movable ? leaf : NULL;
}

/* The initial values deferred_init finds move after their reduction's loop: the
 * accumulator starts at the reducer's identity, and `v += init` (`v = fmaxf(v, init)`)
 * follows the loop, in the loops of the initialisation that bind v's element. As
 * written, the initial value reads the final values it would read there; after the loop
 * it is a statement like any other: a map between the levels (split_finalised), or one
 * after the pass. The region as written keeps its statements (kids holds copies). */
static void defer_inits(Cascade *c, StmtVec *kids)
{
	Program *p = c->prog;
	for (int i = 0; i < kids->n; i++) {
		VarVec vs = {0};
		collect_writes(kids->v[i], &vs);
		for (int k = 0; k < vs.n; k++) {
			int at;
			Reducer red;
			Stmt *leaf = deferred_init(c, kids, i, vs.v[k], &at, &red);
			if (!leaf)
				continue;
			Var *v = vs.v[k];
			Loc l = leaf->loc;
			ScalarType ty = v->ty;
			Expr *t = leaf->kind == ST_DECL ? ex_var(p, v, l) : ex_copy(p, leaf->lhs);
			Expr *init = ex_copy(p, leaf->rhs);
			Stmt *apply;
			if (red == RED_ADD) {
				apply = st_assign(p, t, AS_ADD, init, l);
			} else {
				Expr *args[2] = {ex_copy(p, t), init};
				apply = st_assign(p, t, AS_SET, ex_call(p, red == RED_MAX ? FN_FMAX : FN_FMIN, ty == TY_DOUBLE, args, l), l);
			}
			Stmt *s = stmt_copy(p, kids->v[i]);
			Stmt *nleaf = init_leaf(s, v);
			nleaf->rhs = scalar_is_int(ty) ? ex_int(p, 0, l) : ex_flt(p, red == RED_ADD ? 0.0 : red == RED_MAX ? -INFINITY : INFINITY, ty, l);
			apply = leaf_nest(p, kids->v[i], leaf, apply);
			kids->v[i] = s;
			vec_push(*kids, NULL);
			memmove(kids->v + at + 2, kids->v + at + 1, sizeof(Stmt *) * (size_t)(kids->n - at - 2));
			kids->v[at + 1] = apply;
		}
		vec_free(vs);
	}
}

/* A result finalised in place between the loops over the axis (`mean = mean / C;`,
 * `mean /= C;`) and read after it by a later loop that reduces: a statement between the
 * levels is re-evaluated after its level at every step of the pass, which would divide
 * the running sum again at every step. The accumulator is renamed (`mean_sum`) and the
 * statement declares the finalised value under the user's name (`float mean = mean_sum /
 * C;`), a map like `inv = 1 / sqrtf(ss / K + eps)`; the statements after it read the new
 * variable. Only for a scalar declared in the row block, reduced by a loop over the axis
 * before the statement and by none after it. The renamed variables go to *renamed (with
 * their old names) so that a region left as written can take its names back. */
static void split_finalised(Cascade *c, StmtVec *kids, VarVec *renamed, StrVec *old_names)
{
	Program *p = c->prog;
	for (int i = 0; i < kids->n; i++) {
		Stmt *s = kids->v[i];
		if (s->kind != ST_ASSIGN || s->lhs->kind != EX_VAR || s->lhs->var->kind != VAR_LOCAL || s->lhs->var->ndim)
			continue;
		Var *v = s->lhs->var;
		if (s->aop == AS_SET ? !expr_reads_var(s->rhs, v) : (s->aop != AS_ADD && s->aop != AS_SUB && s->aop != AS_MUL && s->aop != AS_DIV))
			continue;
		bool declared = false, reduced = false, later = false, again = false;
		Reducer red = RED_ADD;
		for (int k = 0; k < i; k++) {
			declared |= kids->v[k]->kind == ST_DECL && kids->v[k]->var == v;
			if (is_axis_loop(kids->v[k], c->axis) && reducer_of(p, kids->v[k], v, &red))
				reduced = true;
		}
		for (int k = i + 1; k < kids->n; k++)
			if (is_axis_loop(kids->v[k], c->axis)) {
				later |= loop_reduces(p, kids->v[k], NULL, 0, kids->v[k]->body[0]);
				again |= stmt_writes_var(kids->v[k], v);
			}
		if (!declared || !reduced || !later || again)
			continue;
		const char *old = v->name;
		vec_push(*renamed, v);
		vec_push(*old_names, old);
		Var *nv = var_new(p, VAR_LOCAL, old, v->ty, v->loc);
		v->name = fresh_var(c, arena_printf(&p->arena, "%s_%s", old, red == RED_ADD ? "sum" : red == RED_MAX ? "max" : "min"), v->ty, VAR_LOCAL)->name;
		Expr *val = s->aop == AS_SET ? s->rhs : ex_bin(p, assignop_binop(s->aop), ex_var(p, v, s->loc), s->rhs, s->loc);
		kids->v[i] = st_decl(p, nv, val, s->loc);
		for (int k = i + 1; k < kids->n; k++)
			kids->v[k] = stmt_subst_var(p, kids->v[k], v, nv);
	}
}

/* ---- accumulators and producers ---- */

static int level_of_var(const Cascade *c, const Var *v)
{
	for (int i = 0; i < c->naccums; i++)
		if (c->accums[i].var == v)
			return c->accums[i].level;
	return -1;
}

/* Records an argmax (argmin) step of a level as the accumulator of its value, carrying
 * its index (argred.c); outside any inner loop of the level. */
static bool collect_arg(Cascade *c, int level, Stmt *lvl, Stmt *s, const ArgStep *m, StmtVec *nest, AccumVec *acc)
{
	for (int i = 0; i < acc->n; i++)
		if (acc->v[i].var == m->val->var || acc->v[i].idx == m->idx->var || acc->v[i].var == m->idx->var)
			return error_at(s->loc, "'%s' is reduced by two statements over '%s': an argmax keeps its value and index in one", acc->v[i].var->name, c->axis), false;
	if (nest->n)
		return error_at(s->loc, "an argmax inside a loop nested in the loop over '%s' is not a reduction over '%s'", c->axis, c->axis), false;
	if (!arg_check(lvl, s, m))
		return false;
	Accum a = {.var = m->val->var, .red = m->red, .level = level, .stmt = s, .g = m->g, .idx = m->idx->var, .idx_f = m->f, .last = m->last};
	a.nest = arena_alloc(&c->prog->arena, sizeof(Stmt *));
	vec_push(*acc, a);
	return true;
}

/* The innermost if of s's statements around x (NULL: none; x runs on every step of s). */
static const Stmt *if_around(const Stmt *s, const Stmt *x)
{
	if (!s || s == x)
		return NULL;
	for (int i = 0; i < s->nbody; i++) {
		if (!s->body[i] || !stmt_has(s->body[i], x))
			continue;
		const Stmt *in = if_around(s->body[i], x);
		return in ? in : s->body[i]->kind == ST_IF ? s->body[i] : NULL;
	}
	return NULL;
}

/* The ifs of s around x (x's own condition excluded): the conjunction of their
 * conditions, each negated where x is in the else branch; NULL: x runs unconditionally. */
static Expr *conds_around(Program *p, const Stmt *s, const Stmt *x)
{
	if (!s || s == x)
		return NULL;
	for (int i = 0; i < s->nbody; i++) {
		if (!s->body[i] || !stmt_has(s->body[i], x))
			continue;
		Expr *in = conds_around(p, s->body[i], x);
		if (s->kind != ST_IF)
			return in;
		Expr *e = i == 0 ? s->cond : ex_un(p, UOP_NOT, s->cond, s->cond->loc);
		return in ? ex_bin(p, OP_LAND, e, in, s->loc) : e;
	}
	return NULL;
}

/* Whether reduction target t, in the loops nest, is the element prev's statement reduces:
 * the rescales, partials and merges are built from that statement's element and loops,
 * so a second statement must reduce the same element in loops of the same ranges (its
 * loops' iterators read as prev's). */
static bool same_accum_element(Program *p, const Accum *a, const Expr *t, const StmtVec *nest)
{
	Expr *pt = NULL, *pg = NULL;
	Reducer pr;
	if (a->idx || !reduce_match(p, a->stmt, &pt, &pr, &pg))
		return true; /* an argmax pair: argred.c checks its own steps */
	if (nest->n != a->nnest)
		return false;
	Expr *u = ex_copy(p, t);
	for (int k = 0; k < nest->n; k++) {
		Stmt *mine = nest->v[k], *theirs = a->nest[k];
		if (mine->var != theirs->var)
			u = expr_subst_var(p, u, mine->var, theirs->var);
		Expr *lo = ex_copy(p, mine->lo), *hi = ex_copy(p, mine->hi);
		for (int q = 0; q < k; q++)
			if (nest->v[q]->var != a->nest[q]->var) {
				lo = expr_subst_var(p, lo, nest->v[q]->var, a->nest[q]->var);
				hi = expr_subst_var(p, hi, nest->v[q]->var, a->nest[q]->var);
			}
		if (!expr_equal(lo, theirs->lo) || !expr_equal(hi, theirs->hi) || mine->step != theirs->step)
			return false;
	}
	return expr_equal(u, pt);
}

/* Walks a level's body: every write to a variable declared outside the level must be a
 * reduction; records accumulators with the loops that bind their subscripts. */
static bool collect_accums(Cascade *c, int level, Stmt *lvl, Stmt *s, StmtVec *nest, AccumVec *acc)
{
	if (s->kind == ST_BLOCK) {
		bool ok = true;
		for (int i = 0; i < s->nbody; i++)
			ok &= collect_accums(c, level, lvl, s->body[i], nest, acc);
		return ok;
	}
	if (s->kind == ST_FOR) {
		vec_push(*nest, s);
		bool ok = collect_accums(c, level, lvl, s->body[0], nest, acc);
		nest->n--;
		return ok;
	}
	ArgStep am;
	if (arg_match(s, &am) && !stmt_declares(lvl, am.val->var) && !stmt_declares(lvl, am.idx->var))
		return collect_arg(c, level, lvl, s, &am, nest, acc);
	Expr *t = NULL, *g = NULL;
	Reducer red;
	bool is_red = (s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(c->prog, s, &t, &red, &g);
	if (is_red && stmt_declares(lvl, t->var))
		is_red = false; /* a reduction local to one step (a dot product over d) */
	/* An update at the step's own element (a residual added in place, `x[t][c] += r[t][c]`)
	 * is a map of that element, not a reduction over the axis. */
	for (int i = 0; is_red && i < t->nargs; i++)
		if (expr_reads_var(t->args[i], lvl->var))
			is_red = false;
	if (is_red) {
		Accum *prev = NULL;
		for (int i = 0; i < acc->n; i++)
			if (acc->v[i].var == t->var)
				prev = &acc->v[i];
		if (prev) {
			if (prev->red != red || prev->level != level) {
				if (prev->red != red)
					return error_at(s->loc, "'%s' is reduced with two different reducers ('%s' here, '%s' before)", t->var->name, reducer_name(red), reducer_name(prev->red)), false;
				return error_at(s->loc, "'%s' is reduced in two loops over '%s' (elements from two sources, such as a cache and a new chunk or two shards, one loop each?): fusecc fuses one loop per reduction%s%s; loop once over all the elements and pick the source with a ternary (`j < P ? kc[..][j][d] : k[..][j - P][d]`)",
				                t->var->name, c->axis, c->concat_why ? ", and reads two loops in a row as one over both sources only where their statements are the same up to those sources: " : "",
				                c->concat_why ? c->concat_why : ""), false;
			}
			if (!same_accum_element(c->prog, prev, t, nest))
				return error_at(s->loc,
				                "'%s' is reduced here at other elements than at line %d (an unrolled loop, or a row's halves in one loop?): fusecc repairs an accumulator through one statement's elements; write one statement per element, in a loop over them (`for (d..) acc[d] += p * v[j][d];`)",
				                t->var->name, prev->stmt->loc.line),
				       false;
			return true;
		}
		Accum a = {.var = t->var, .red = red, .level = level, .stmt = s, .g = g};
		a.nnest = nest->n;
		a.nest = arena_alloc(&c->prog->arena, sizeof(Stmt *) * (size_t)(nest->n ? nest->n : 1));
		if (nest->n)
			memcpy(a.nest, nest->v, sizeof(Stmt *) * (size_t)nest->n);
		/* An integer count (`n++`, `n += keep[j]`) adds integers exactly in any order:
		 * fused as it is, where an integer's float steps would truncate per step. */
		bool count = count_type(t->var->ty) && red == RED_ADD && g && !scalar_is_float(g->ty);
		if (t->var->ty != TY_FLOAT && t->var->ty != TY_DOUBLE && !count)
			return error_at(s->loc, "accumulator '%s' must be float or double (accumulation is fp32 or wider), or an integer count with integer steps", t->var->name), false;
		vec_push(*acc, a);
		return true;
	}
	if (s->kind == ST_IF) {
		bool ok = collect_accums(c, level, lvl, s->body[0], nest, acc);
		if (s->nbody > 1 && s->body[1])
			ok &= collect_accums(c, level, lvl, s->body[1], nest, acc);
		return ok;
	}
	if (s->kind == ST_ASSIGN && !stmt_declares(lvl, s->lhs->var)) {
		/* A write to an outer array at this step's element is a map, not a reduction. */
		bool at_step = false;
		for (int i = 0; i < s->lhs->nargs; i++)
			if (expr_reads_var(s->lhs->args[i], lvl->var))
				at_step = true;
		/* `l_i = l_i * alpha + l_ij` once per block of keys (a Triton port's `start_n +=
		 * BLOCK_N` loop, its block's own loops inside): online.c undoes a rescaled sum
		 * only where each step is one element. */
		if (!at_step && lvl->var->blocks_why)
			return error_at(s->loc,
			                "'%s' is updated once per step of loop '%s', whose steps are blocks with loops of their own (an online softmax by blocks, as a Triton port's 'start_n += BLOCK_N' loop), in a form fusecc cannot read one key at a time: %s",
			                s->lhs->var->name, lvl->var->name, lvl->var->blocks_why), false;
		if (!at_step && s->lhs->kind == EX_VAR && expr_reads_var(s->rhs, s->lhs->var) && lvl->var->block_step && stmt_has_loop(lvl->body[0]))
			return error_at(s->loc,
			                "'%s' is rescaled and added to once per step of loop '%s', whose steps are blocks with loops of their own (an online softmax by blocks, as a Triton port's 'start_n += BLOCK_N' loop): fusecc undoes a hand-written online softmax only where each step is one element; loop over the elements stepping by one (the running max and sums updated per key), or write the softmax's passes (max, then sums at the max)",
			                s->lhs->var->name, c->axis),
			       false;
		const Stmt *cond = at_step ? NULL : if_around(lvl, s);
		/* an argmax whose arm sets more than the value and its index (argred.c's payloads
		 * left it as written) */
		const Stmt *best = cond && cond->body[0]->kind == ST_BLOCK && cond->body[0]->nbody >= 3 ? arg_arm_value(cond) : NULL;
		if (!at_step && best == s)
			return true; /* the best value itself: its arm's other values say what to change */
		if (!at_step && best)
			return error_at(s->loc,
			                "'%s' is set in the arm of the argmax at line %d, beside the best value and its position: fusecc keeps the position and computes such values again at it after the loop over '%s', where nothing reads them before the row's last loop over '%s' and each reads only the iterator, parameters, inputs and the loop's locals defined before the arm: read them after that loop",
			                s->lhs->var->name, cond->loc.line, c->axis, c->axis),
			       false;
		if (!at_step && cond)
			return error_at(s->loc, "'%s' is assigned in loop '%s' under the condition at line %d, and is not a reduction fusecc recognises (x += e, x = fmaxf(x, e), x = x > e ? x : e, ...)", s->lhs->var->name, c->axis, cond->loc.line), false;
		if (!at_step)
			return error_at(s->loc, "'%s' is assigned on every step of loop '%s' but is not a reduction fusecc recognises (x += e, x = fmaxf(x, e), x = x > e ? x : e, ...)", s->lhs->var->name, c->axis), false;
	}
	return true;
}

/* Inlines, into e (read at statement `at` of level lv), the definitions of locals of the
 * levels (and of per-step arrays) that read producers, so the repair sees every producer
 * the contribution reads. A read takes the definitions that reach it, in program order:
 * those before `at` in its own level (none of its own right-hand side), then, for a
 * per-step array, the whole of earlier levels. Several definitions fold into one value
 * (`p = expf(x - m); p /= l;` is expf(x - m) / l; `if (c) p = 0;` is c ? 0 : p).
 * Where they cannot (a definition repeated by a loop inside the level, a compound one
 * with no value before it), a value that reads a producer is refused: c->unresolved
 * names it, and the caller reports the error; the repair must never miss a producer. */
typedef struct Guard {
	Stmt *s;   /* an ST_IF */
	bool then; /* in its then branch */
} Guard;
typedef VEC(Guard) GuardVec;

typedef struct Def {
	Stmt *s;
	Guard *guards; /* the ifs it is under inside the level, outermost first */
	int nguards;
	bool in_loop;  /* a loop inside the level repeats it */
} Def;
typedef VEC(Def) DefVec;

/* Collects, in program order, the definitions of v in s up to `at` (exclusive), each with
 * the ifs it is under (g: those around s); true once `at` is reached, with *at_guards the
 * ifs around it. */
static bool defs_before(Program *p, Stmt *s, const Var *v, const Stmt *at, GuardVec *g, bool in_loop, DefVec *out, GuardVec *at_guards)
{
	if (!s)
		return false;
	if (s == at) {
		for (int i = 0; i < g->n; i++)
			vec_push(*at_guards, g->v[i]);
		return true;
	}
	if ((s->kind == ST_DECL && s->var == v && s->rhs) || (s->kind == ST_ASSIGN && s->lhs->var == v)) {
		Def d = {s, arena_alloc(&p->arena, sizeof(Guard) * (size_t)(g->n + 1)), g->n, in_loop};
		if (g->n)
			memcpy(d.guards, g->v, sizeof(Guard) * (size_t)g->n);
		vec_push(*out, d);
	}
	if (s->kind == ST_IF) {
		for (int b = 0; b < s->nbody; b++) {
			Guard gd = {s, b == 0};
			vec_push(*g, gd);
			bool found = defs_before(p, s->body[b], v, at, g, in_loop, out, at_guards);
			g->n--;
			if (found)
				return true;
		}
		return false;
	}
	/* A definition inside a loop reaches a read after the loop from its last iteration
	 * only (repeated: it does not fold), unless the variable is the loop's own; a read in
	 * the same iteration, later in the loop's body, sees it once. */
	int first = out->n;
	bool found = false;
	for (int i = 0; i < s->nbody && !found; i++)
		found = defs_before(p, s->body[i], v, at, g, in_loop, out, at_guards);
	if (s->kind == ST_FOR && !found && !stmt_declares(s->body[0], v))
		for (int i = first; i < out->n; i++)
			out->v[i].in_loop = true;
	return found;
}

/* The condition under which d runs where the read runs: its ifs that are not also around
 * the read, and-ed; NULL when there are none. */
static Expr *def_cond(Program *p, const Def *d, const GuardVec *at_guards)
{
	int k = 0;
	while (k < d->nguards && k < at_guards->n && d->guards[k].s == at_guards->v[k].s && d->guards[k].then == at_guards->v[k].then)
		k++;
	Expr *c = NULL;
	for (; k < d->nguards; k++) {
		Stmt *f = d->guards[k].s;
		Expr *e = d->guards[k].then ? f->cond : ex_un(p, UOP_NOT, f->cond, f->cond->loc);
		c = c ? ex_bin(p, OP_LAND, c, e, f->loc) : e;
	}
	return c;
}

static bool reads_producer(const Cascade *c, const Expr *e)
{
	for (int k = 0; k < c->nproducers; k++)
		if (expr_reads_var(e, c->producers[k].var))
			return true;
	return false;
}

static Expr *inline_locals(Cascade *c, Expr *e, int lv, const Stmt *at, int depth);

/* The value of e (a local scalar of level k, or element j of a per-step array, j level
 * k's iterator) after the definitions of level k that precede `at` (NULL: all of them),
 * with `before` its value on entry to the level (NULL: none). *bad when they do not fold;
 * *producer when one of them reads a producer. */
static Expr *fold_defs(Cascade *c, Expr *e, int k, const Stmt *at, Expr *before, int depth, bool *bad, bool *producer)
{
	Program *p = c->prog;
	Stmt *lvl = c->levels[k];
	DefVec defs = {0};
	GuardVec g = {0}, at_guards = {0};
	defs_before(p, lvl->body[0], e->var, at, &g, false, &defs, &at_guards);
	Expr *cur = before;
	for (int i = 0; i < defs.n; i++) {
		Def *d = &defs.v[i];
		Expr *rhs = inline_locals(c, d->s->rhs, k, d->s, depth + 1);
		Expr *cond = def_cond(p, d, &at_guards);
		/* `if (e < eps) e = 0;`: the guard reads the local's value before it */
		if (cond && !repair_nan_test(cond))
			cond = inline_locals(c, cond, k, d->s, depth + 1);
		bool plain = !cond && !d->in_loop && (d->s->kind == ST_DECL || d->s->aop == AS_SET);
		if (plain)
			*bad = *producer = false; /* what came before is overwritten */
		*producer |= reads_producer(c, rhs) || (cond && reads_producer(c, cond));
		if (e->kind == EX_INDEX) {
			Stmt *s = d->s;
			/* p[j] = f(j), one element a step */
			if (s->kind != ST_ASSIGN || s->lhs->nargs != 1 || s->lhs->args[0]->kind != EX_VAR || s->lhs->args[0]->var != lvl->var)
				*bad = true;
		}
		if (d->in_loop)
			*bad = true;
		if (d->s->kind == ST_ASSIGN && d->s->aop != AS_SET) {
			if (!cur)
				*bad = true;
			else
				rhs = ex_bin(p, assignop_binop(d->s->aop), cur, rhs, d->s->loc);
		}
		if (cond) {
			if (!cur)
				*bad = true;
			else
				rhs = ex_cond(p, cond, rhs, cur, d->s->loc);
		}
		cur = rhs;
	}
	vec_free(defs);
	vec_free(g);
	vec_free(at_guards);
	return cur;
}

static Expr *inline_locals(Cascade *c, Expr *e, int lv, const Stmt *at, int depth)
{
	if (!e || depth > 16)
		return e;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->kind == VAR_LOCAL) {
		Stmt *lvl = c->levels[lv];
		bool bad = false, producer = false;
		Expr *v = NULL;
		if (e->kind == EX_VAR) {
			/* Only per-step values: locals of the level. */
			if (!stmt_declares(lvl, e->var))
				return e;
			v = fold_defs(c, e, lv, at, NULL, depth, &bad, &producer);
		} else {
			/* Arrays written one element a step, p[j] read as p[j'] at the same step. */
			if (e->nargs != 1 || e->args[0]->kind != EX_VAR || e->args[0]->var != lvl->var)
				return e;
			for (int k = 0; k <= lv; k++) {
				Expr *ek = expr_subst_var(c->prog, e, lvl->var, c->levels[k]->var);
				Expr *in = v ? expr_subst_var(c->prog, v, c->levels[k - 1]->var, c->levels[k]->var) : NULL;
				v = fold_defs(c, ek, k, k == lv ? at : NULL, in, depth, &bad, &producer);
				if (v && !reads_producer(c, v))
					v = ek; /* the element holds it: no level's locals leak out */
			}
			if (v)
				v = expr_subst_var(c->prog, v, c->levels[lv]->var, lvl->var);
		}
		if (bad || !v) {
			if (producer && !c->unresolved)
				c->unresolved = e->var;
			return e;
		}
		return reads_producer(c, v) ? v : e;
	}
	Expr *copy = ex_copy(c->prog, e);
	for (int i = 0; i < e->nargs; i++)
		copy->args[i] = inline_locals(c, e->args[i], lv, at, depth);
	return copy;
}

/* Reports the local inline_locals could not follow (the statement at s reads it). */
static bool check_resolved(Cascade *c, const Stmt *s)
{
	if (!c->unresolved)
		return true;
	const char *n = c->unresolved->name;
	c->unresolved = NULL;
	return error_at(s->loc, "cannot follow the value of '%s' here through its definitions in the loop over '%s', and it depends on a result of the pass: "
	                        "define it once (one assignment, `%s = ...`, optionally under a condition) before this statement",
	                n, c->axis, n),
	       false;
}

/* A parameter array stored during the pass with a value that reads an earlier result
 * would keep that result's partial value: nothing repairs memory once written (and a
 * sum read back from it is not repaired either). Such a store belongs after the pass. */
static bool check_stored_maps(Cascade *c, int lv, const Stmt *s)
{
	for (int i = 0; i < s->nbody; i++)
		if (!check_stored_maps(c, lv, s->body[i]))
			return false;
	if (s->kind != ST_ASSIGN || s->lhs->var->kind != VAR_PARAM)
		return true;
	Expr *v = inline_locals(c, s->rhs, lv, s, 0);
	if (!check_resolved(c, s))
		return false;
	for (int k = 0; k < c->nproducers; k++)
		if (expr_reads_var(v, c->producers[k].var))
			return error_at(s->loc, "'%s' is stored during the pass over '%s' with a value that depends on '%s', which is final only after the pass: "
			                        "store it in a loop after the pass (compute the value again there, or keep it in a local array)",
			                s->lhs->var->name, c->axis, c->producers[k].var->name),
			       false;
	return true;
}

/* ---- building the fused program ---- */

static Expr *ev(Program *p, Var *v) { return ex_var(p, v, v->loc); }

/* `isfinite(r) [&& r != 0] ? r : neutral` */
static Expr *safe_value(Cascade *c, const Producer *pr, Var *from)
{
	Program *p = c->prog;
	Loc l = from->loc;
	if (scalar_is_int(from->ty)) /* an integer count: always finite */
		return pr->in_factor ? ex_cond(p, ex_bin(p, OP_NE, ev(p, from), ex_int(p, 0, l), l), ex_cast(p, TY_FLOAT, ev(p, from), l), ex_flt(p, 1.0, TY_FLOAT, l), l)
		                     : ex_cast(p, TY_FLOAT, ev(p, from), l);
	Expr *r = ev(p, from);
	Expr *args[1] = {r};
	Expr *ok = ex_call(p, FN_ISFINITE, false, args, l);
	if (pr->in_factor)
		ok = ex_bin(p, OP_LAND, ok, ex_bin(p, OP_NE, ev(p, from), ex_flt(p, 0, TY_FLOAT, l), l), l);
	return ex_cond(p, ok, ev(p, from), ex_flt(p, pr->in_factor ? 1.0 : 0.0, from->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, l), l);
}

static Var **used_vars(Cascade *c, bool prev)
{
	Var **v = arena_alloc(&c->prog->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
	for (int k = 0; k < c->nproducers; k++)
		v[k] = prev ? c->producers[k].prev : c->producers[k].used;
	return v;
}

/* Wraps `body` in copies of the loops that bind the accumulator's subscripts. */
static Stmt *in_nest(Cascade *c, const Accum *a, Expr *target, Stmt *(*mk)(Cascade *, const Accum *, Expr *, void *), void *ctx)
{
	Program *p = c->prog;
	Expr *t = ex_copy(p, target);
	VarVec fresh = {0};
	StmtVec orig = {0};
	for (int i = 0; i < a->nnest; i++) {
		if (!expr_reads_var(target, a->nest[i]->var))
			continue;
		Var *nv = var_new(p, VAR_LOOP, a->nest[i]->var->name, TY_INT, a->nest[i]->loc);
		t = expr_subst_var(p, t, a->nest[i]->var, nv);
		vec_push(fresh, nv);
		vec_push(orig, a->nest[i]);
	}
	Stmt *s = mk(c, a, t, ctx);
	for (int i = fresh.n - 1; i >= 0; i--) {
		Stmt *o = orig.v[i];
		s = st_for(p, fresh.v[i], expr_subst_var(p, o->lo, o->var, fresh.v[i]), expr_subst_var(p, o->hi, o->var, fresh.v[i]), 1, s, o->loc);
	}
	vec_free(fresh);
	vec_free(orig);
	return s;
}

/* The accumulator as an lvalue with its subscripts (from its reduction statement). */
static Expr *accum_lvalue(Cascade *c, const Accum *a)
{
	Stmt *s = a->stmt;
	while (s->kind == ST_IF)
		s = s->body[0]->kind == ST_BLOCK ? s->body[0]->body[0] : s->body[0];
	return ex_copy(c->prog, s->lhs);
}

typedef struct RescaleCtx {
	Var *alpha;
	bool guarded;
} RescaleCtx;

/* x * alpha for a sum, x + alpha for a max or min: the accumulator re-tagged. */
static Expr *retag(Cascade *c, const Accum *a, Expr *x, Var *alpha)
{
	Program *p = c->prog;
	return ex_bin(p, a->red == RED_ADD ? OP_MUL : OP_ADD, ex_copy(p, x), ev(p, alpha), a->stmt->loc);
}

/* Whether a sum's contribution g can overflow where its weight underflows: a factor other
 * than an exponential, an array element or a constant (the score itself, a difference with a
 * shift) can be a mask's fill such as -FLT_MAX. */
static bool term_may_overflow(const Expr *g)
{
	g = expr_uncast((Expr *)g);
	switch (g->kind) {
	case EX_INT: case EX_FLT: case EX_VAR: case EX_INDEX: return false;
	case EX_CALL: return g->fn != FN_EXP && g->fn != FN_EXP2;
	case EX_UN: return g->uop != UOP_NEG || term_may_overflow(g->args[0]);
	case EX_BIN:
		if (g->bop == OP_DIV)
			return term_may_overflow(g->args[0]);
		return g->bop != OP_MUL || term_may_overflow(g->args[0]) || term_may_overflow(g->args[1]);
	case EX_COND: return term_may_overflow(g->args[1]) || term_may_overflow(g->args[2]);
	default: return true;
	}
}

/* x != identity ? retag(x) : x: an accumulator still at its identity has no
 * contributions to re-tag, and alpha may be infinite when the old tag was sanitised.
 * A sum whose factor underflowed to 0 is 0 even where it overflowed itself: a chunk of
 * -FLT_MAX fills sums (x - k) * e^0 to -inf, and its weight in the row is e^(-FLT_MAX - lse)
 * = 0, as it is term by term in the C (-inf * 0 would be NaN). */
static Expr *guarded_retag(Cascade *c, const Accum *a, Expr *x, Var *alpha)
{
	Program *p = c->prog;
	Loc l = a->stmt->loc;
	Expr *id = reducer_identity(p, a->red, x->ty, l);
	Expr *tagged = retag(c, a, x, alpha);
	if (a->red == RED_ADD && term_may_overflow(a->g))
		tagged = ex_cond(p, ex_bin(p, OP_NE, ev(p, alpha), ex_flt(p, 0, alpha->ty, l), l), tagged, ex_copy(p, id), l);
	return ex_cond(p, ex_bin(p, OP_NE, ex_copy(p, x), id, l), tagged, ex_copy(p, x), l);
}

static Stmt *mk_rescale(Cascade *c, const Accum *a, Expr *t, void *ctx)
{
	RescaleCtx *r = ctx;
	Program *p = c->prog;
	Expr *x = r->guarded ? guarded_retag(c, a, t, r->alpha) : retag(c, a, t, r->alpha);
	return st_assign(p, ex_copy(p, t), AS_SET, x, a->stmt->loc);
}

/* if (tags changed) { float X_rescale = <repair factor>; [nest] X = ...; } */
static Stmt *rescale_to(Cascade *c, const Accum *a, Var **from, Var **to, ScalarType ty);

static Stmt *rescale_stmt(Cascade *c, const Accum *a, Var **from, Var **to) { return rescale_to(c, a, from, to, a->var->ty); }

/* rescale_stmt with the factor computed in ty. */
static Stmt *rescale_to(Cascade *c, const Accum *a, Var **from, Var **to, ScalarType ty)
{
	Program *p = c->prog;
	Loc l = a->stmt->loc;
	Var *alpha = fresh_var(c, arena_printf(&p->arena, "%s_rescale", a->var->name), ty, VAR_LOCAL);
	Expr *one = ex_flt(p, a->red == RED_ADD ? 1.0 : 0.0, ty, l);
	Expr *f = repair_apply(c, a, one, from, to);
	Stmt *body[2];
	body[0] = st_decl(p, alpha, f, l);
	RescaleCtx rc = {alpha, true};
	body[1] = in_nest(c, a, accum_lvalue(c, a), mk_rescale, &rc);
	if (body[1]->kind == ST_FOR) {
		/* An array pays for the guard per element; a finite factor needs none (x * alpha
		 * keeps an identity 0, x + alpha an identity infinity), so the guarded nest runs
		 * only when the factor is not finite: the same values, one op per element. */
		Expr *args[1] = {ev(p, alpha)};
		Stmt *pick = st_new(p, ST_IF, l);
		pick->cond = ex_call(p, FN_ISFINITE, false, args, l);
		rc.guarded = false;
		Stmt *fast = in_nest(c, a, accum_lvalue(c, a), mk_rescale, &rc);
		Stmt *arms[2] = {st_block(p, &fast, 1, l), st_block(p, &body[1], 1, l)};
		st_set_body(p, pick, arms, 2);
		body[1] = pick;
	}
	Stmt *s = st_new(p, ST_IF, l);
	s->cond = repair_changed(c, a, from, to);
	Stmt *blk = st_block(p, body, 2, l);
	st_set_body(p, s, &blk, 1);
	return s;
}

static bool linear_in_sum(const Cascade *c, const Expr *e);

/* Whether result v is a sum of the cascade or a map between the loops linear in one
 * (`mu = sum / C`). */
static bool sum_derived(const Cascade *c, const Var *v)
{
	for (int a = 0; a < c->naccums; a++)
		if (c->accums[a].var == v)
			return c->accums[a].red == RED_ADD;
	for (int m = 0; m < c->nlevels; m++)
		for (int q = 0; q < c->nmids[m]; q++)
			if (c->mids[m][q]->lhs->var == v && c->mids[m][q]->rhs && linear_in_sum(c, c->mids[m][q]->rhs))
				return true;
	return false;
}

/* Whether e reads such a result other than inside a call (`logf(z)`). */
static bool linear_in_sum(const Cascade *c, const Expr *e)
{
	if (e->kind == EX_CALL)
		return false;
	if (e->kind == EX_VAR)
		return sum_derived(c, e->var);
	for (int i = 0; i < e->nargs; i++)
		if (linear_in_sum(c, e->args[i]))
			return true;
	return false;
}

/* Whether accumulator a's exponentials are shifted only by bounds: a max (a softmax's m,
 * m + logf(z)), not a sum or mean. The pass shifts by each result's running value; a
 * running max bounds what the pass has seen, so e^(x - m) <= 1, but a partial mean is
 * about 0 early in the row whatever the row's values: a row near +60 overflows, one
 * near -120 underflows, and the rescale cannot bring either back (n23b_91). Reported
 * at a, which makes the region unfused (written as it is) or refused. */
static bool shifts_by_bounds(Cascade *c, const Accum *a)
{
	if (!a->repair || a->red != RED_ADD)
		return true;
	for (int k = 0; k < c->nproducers; k++) {
		Var *v = c->producers[k].var;
		if ((a->repair->coef_e[k] || a->repair->coef_2[k]) && sum_derived(c, v))
			return error_at(a->stmt->loc, "'%s' sums exponentials shifted by '%s', which is computed from a sum: fusing would shift by its running value, which bounds nothing (a partial mean), so the exponentials overflow or underflow where the row sits far from 0; shift by a max, as a softmax does, to fuse",
			                a->var->name, v->name),
			       false;
	}
	return true;
}

/* ---- deferred factors ----
 * An accumulator whose contributions depend on producer q through a factor only (P.V
 * normalised by l: acc += e^(s - m) / l * v) need not be re-tagged each time q changes:
 * its contributions are computed at the fixed tag q = 1 (the tag safe_value gives a factor
 * before it is known) and the factor's move from 1 to q's final value is applied once,
 * after the pass. Decided per level, since a level's statements are rewritten as a whole:
 * every accumulator of the level that reads q must take q as a factor only, and none may
 * be a producer itself (its partial values would be read with the wrong tag). And every
 * other level that reads q must be such a level: a map level that applies the factor
 * (w[j] = w[j] / l, then acc += w[j] * v) would apply the partial q, which the fix-up
 * after the pass does not undo. */
static bool deferrable_at(const Cascade *c, int k, int q, bool *any)
{
	bool ok = true;
	*any = false;
	for (int i = 0; i < c->naccums; i++) {
		const Accum *a = &c->accums[i];
		if (a->level != k || !a->repair || !a->repair->uses[q])
			continue;
		*any = true;
		ok &= a->red == RED_ADD && !a->repair->coef_e[q] && !a->repair->coef_2[q] && producer_index(c, a->var) < 0;
	}
	return ok;
}

static void decide_deferrals(Cascade *c)
{
	Program *p = c->prog;
	for (int i = 0; i < c->naccums; i++)
		c->accums[i].defer = arena_alloc(&p->arena, sizeof(bool) * (size_t)(c->nproducers + 1));
	for (int k = 0; k < c->nlevels; k++)
		for (int q = 0; q < c->nproducers; q++) {
			Producer *pr = &c->producers[q];
			if (!pr->in_factor || pr->level >= k)
				continue;
			bool any, ok = deferrable_at(c, k, q, &any);
			for (int k2 = pr->level + 1; k2 < c->nlevels && ok && any; k2++) {
				bool any2;
				if (k2 != k && stmt_reads_var(c->levels[k2], pr->var) && !(deferrable_at(c, k2, q, &any2) && any2))
					ok = false;
			}
			if (!any || !ok)
				continue;
			if (!pr->deferred)
				pr->deferred = fresh_var(c, arena_printf(&p->arena, "%s_deferred", pr->var->name), pr->used->ty, VAR_LOCAL);
			for (int i = 0; i < c->naccums; i++)
				if (c->accums[i].level == k && c->accums[i].repair && c->accums[i].repair->uses[q])
					c->accums[i].defer[q] = true;
		}
}

static bool deferred_at(const Cascade *c, int level, int q)
{
	for (int i = 0; i < c->naccums; i++)
		if (c->accums[i].level == level && c->accums[i].defer && c->accums[i].defer[q])
			return true;
	return false;
}

/* tags with the accumulator's deferred producers replaced by their fixed value. */
static Var **with_deferred(Cascade *c, const Accum *a, Var **tags)
{
	Var **v = arena_alloc(&c->prog->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
	for (int k = 0; k < c->nproducers; k++)
		v[k] = a->defer && a->defer[k] ? c->producers[k].deferred : tags[k];
	return v;
}

/* Whether the accumulator's tag moves during the pass (a producer it reads that is not
 * deferred). */
static bool retagged_in_pass(const Cascade *c, const Accum *a)
{
	for (int k = 0; k < c->nproducers; k++)
		if (a->repair->uses[k] && !(a->defer && a->defer[k]))
			return true;
	return false;
}

/* Whether some accumulator is re-tagged from producer q's previous tag during the pass. */
static bool prev_needed(const Cascade *c, int q)
{
	for (int i = 0; i < c->naccums; i++)
		if (c->accums[i].repair && c->accums[i].repair->uses[q] && !(c->accums[i].defer && c->accums[i].defer[q]))
			return true;
	return false;
}

/* After the pass: the deferred factors, from their fixed value to the final tags, in
 * double: a divisor below 1 / FLT_MAX (a row's max taken over keys its sum leaves out, a
 * sum that underflows) makes the factor overflow in float where each term the C divides
 * by it stays finite. */
static void push_deferred_fixups(Cascade *c, StmtVec *out)
{
	Program *p = c->prog;
	Var **used = used_vars(c, false), **wide = NULL, **wide_def = NULL;
	bool *need = arena_alloc(&p->arena, sizeof(bool) * (size_t)(c->nproducers + 1));
	for (int i = 0; i < c->naccums; i++)
		for (int k = 0; k < c->nproducers && c->accums[i].defer; k++)
			need[k] |= c->accums[i].defer[k];
	for (int i = 0; i < c->naccums; i++) {
		Accum *a = &c->accums[i];
		bool any = false;
		for (int k = 0; k < c->nproducers; k++)
			any |= a->defer && a->defer[k];
		if (!any)
			continue;
		if (!wide) {
			wide = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
			wide_def = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
			for (int k = 0; k < c->nproducers; k++) {
				wide[k] = wide_def[k] = used[k]; /* not deferred: the same tag on both sides */
				if (!need[k])
					continue;
				Producer *pr = &c->producers[k];
				Loc l = pr->var->loc;
				wide[k] = fresh_var(c, arena_printf(&p->arena, "%s_wide", used[k]->name), TY_DOUBLE, VAR_LOCAL);
				vec_push(*out, st_decl(p, wide[k], ex_cast(p, TY_DOUBLE, ev(p, used[k]), l), l));
				wide_def[k] = wide[k];
				if (pr->deferred) {
					wide_def[k] = fresh_var(c, arena_printf(&p->arena, "%s_wide", pr->deferred->name), TY_DOUBLE, VAR_LOCAL);
					vec_push(*out, st_decl(p, wide_def[k], ex_cast(p, TY_DOUBLE, ev(p, pr->deferred), l), l));
				}
			}
		}
		Var **from = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
		for (int k = 0; k < c->nproducers; k++)
			from[k] = a->defer && a->defer[k] ? wide_def[k] : wide[k];
		vec_push(*out, rescale_to(c, a, from, wide, TY_DOUBLE));
	}
}

/* e with each test of a sanitised producer value for infinity (`m_used == -INFINITY`,
 * `isfinite(m_used)`: repair_infinity_test's forms, from the user's `if (m_new ==
 * -INFINITY) continue;` once the sums read the final maximum) replaced by its value:
 * X_used is finite by construction (safe_value), so the test is constant, and the guard
 * it made runs unconditionally, as it does. */
static Expr *fold_finite_tests(Program *p, const Expr *e, void *ctx)
{
	const Cascade *c = ctx;
	bool val;
	const Expr *x = repair_infinity_test(e, &val);
	for (int q = 0; x && x->kind == EX_VAR && q < c->nproducers; q++)
		if (x->var == c->producers[q].used)
			return ex_int(p, val, e->loc);
	Expr *f = ex_copy(p, e);
	for (int i = 0; i < f->nargs; i++)
		f->args[i] = fold_finite_tests(p, e->args[i], ctx);
	if (f->kind == EX_COND && f->args[0]->kind == EX_INT && !expr_equal(f->args[0], e->args[0]))
		return f->args[f->args[0]->ival ? 1 : 2];
	return f;
}

/* s with each `if (1) X` (no else) replaced by X, the form fold_finite_tests leaves. */
static void drop_true_ifs(Program *p, Stmt *s)
{
	for (int i = 0; i < s->nbody; i++) {
		Stmt *b = s->body[i];
		if (!b)
			continue;
		drop_true_ifs(p, b);
		if (b->kind == ST_IF && b->cond->kind == EX_INT && b->cond->ival && (b->nbody == 1 || !b->body[1]))
			s->body[i] = b->body[0];
	}
}

/* Level k's loop restricted to [lo, hi), with producer reads of later levels sanitised. */
static Stmt *level_step(Cascade *c, int k, Expr *lo, Expr *hi)
{
	Program *p = c->prog;
	Stmt *l = c->levels[k];
	Stmt *body = stmt_copy(p, l->body[0]); /* each step gets its own copy to rewrite */
	for (int i = 0; i < c->nproducers; i++)
		if (c->producers[i].level < k)
			body = stmt_subst_var(p, body, c->producers[i].var, deferred_at(c, k, i) ? c->producers[i].deferred : c->producers[i].used);
	if (k > 0) {
		body = stmt_map_exprs(p, body, fold_finite_tests, c);
		Stmt *wrap = st_block(p, &body, 1, body->loc);
		drop_true_ifs(p, wrap);
		body = wrap->body[0];
	}
	for (int i = 0; i < c->naccums; i++)
		if (c->accums[i].level == k && c->accums[i].step_sum)
			body = stmt_subst_var(p, body, c->accums[i].var, c->accums[i].step_sum);
	return st_for(p, l->var, lo, hi, 1, body, l->loc);
}

/* The step sums of level k's expanded groups: declared (at 0) before its loop, or added to
 * their accumulators after it. */
static void push_step_sums(Cascade *c, StmtVec *out, int k, bool after)
{
	Program *p = c->prog;
	for (int i = 0; i < c->naccums; i++) {
		Accum *a = &c->accums[i];
		if (a->level != k || !a->step_sum)
			continue;
		Loc l = a->stmt->loc;
		if (after)
			vec_push(*out, st_assign(p, ev(p, a->var), AS_ADD, ev(p, a->step_sum), l));
		else
			vec_push(*out, st_decl(p, a->step_sum, ex_flt(p, 0.0, a->step_sum->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, l), l));
	}
}

static void push_tag_update(Cascade *c, StmtVec *out, int level, bool after_maps)
{
	Program *p = c->prog;
	for (int i = 0; i < c->nproducers; i++) {
		Producer *pr = &c->producers[i];
		bool is_map = level_of_var(c, pr->var) < 0;
		if (pr->level != level || is_map != after_maps)
			continue;
		if (prev_needed(c, i))
			vec_push(*out, st_assign(p, ev(p, pr->prev), AS_SET, ev(p, pr->used), pr->var->loc));
		vec_push(*out, st_assign(p, ev(p, pr->used), AS_SET, safe_value(c, pr, pr->var), pr->var->loc));
	}
}

/* One step of the fused pass over [lo, hi): for each level, repair its accumulators, run
 * its loop, re-evaluate the maps that follow it, update the producers' tags. */
static void emit_step(Cascade *c, StmtVec *out, Expr *lo, Expr *hi)
{
	Var **prev = used_vars(c, true), **used = used_vars(c, false);
	for (int k = 0; k < c->nlevels; k++) {
		for (int i = 0; i < c->naccums; i++) {
			Accum *a = &c->accums[i];
			if (a->level == k && a->repair && retagged_in_pass(c, a))
				vec_push(*out, rescale_stmt(c, a, with_deferred(c, a, prev), with_deferred(c, a, used)));
		}
		push_step_sums(c, out, k, false);
		vec_push(*out, level_step(c, k, ex_copy(c->prog, lo), ex_copy(c->prog, hi)));
		push_step_sums(c, out, k, true);
		push_tag_update(c, out, k, false);
		for (int i = 0; i < c->nmids[k]; i++)
			vec_push(*out, c->mids[k][i]);
		push_tag_update(c, out, k, true);
	}
}

/* The inits, the maps evaluated once on the initial values, and the producers' tags. */
static void emit_pass_setup(Cascade *c, StmtVec *out)
{
	Program *p = c->prog;
	for (int i = 0; i < c->ninit; i++)
		vec_push(*out, stmt_copy(p, c->init[i]));
	for (int k = 0; k < c->nlevels; k++)
		for (int i = 0; i < c->nmids[k]; i++)
			vec_push(*out, c->mids[k][i]);
	for (int i = 0; i < c->nproducers; i++) {
		Producer *pr = &c->producers[i];
		vec_push(*out, st_decl(p, pr->used, safe_value(c, pr, pr->var), pr->var->loc));
		if (prev_needed(c, i))
			vec_push(*out, st_decl(p, pr->prev, ev(p, pr->used), pr->var->loc));
		if (pr->deferred)
			vec_push(*out, st_decl(p, pr->deferred, ex_flt(p, 1.0, pr->deferred->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, pr->var->loc), pr->var->loc));
	}
}

/* Whether every access to local array v in s is v[j] with j the iterator of a level loop
 * (and none is elsewhere): then v holds one step's values only. */
static bool step_only(const Cascade *c, const Stmt *s, const Var *v, const Var *level_var);

static bool expr_step_only(const Expr *e, const Var *v, const Var *level_var)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var == v)
		return level_var && e->args[0]->kind == EX_VAR && e->args[0]->var == level_var;
	for (int i = 0; i < e->nargs; i++)
		if (!expr_step_only(e->args[i], v, level_var))
			return false;
	return true;
}

static bool step_only(const Cascade *c, const Stmt *s, const Var *v, const Var *level_var)
{
	if (!s)
		return true;
	if (s->kind == ST_FOR && is_axis_loop(s, c->axis))
		level_var = s->var;
	if (!expr_step_only(s->lhs, v, level_var) || !expr_step_only(s->rhs, v, level_var) || !expr_step_only(s->cond, v, level_var) ||
	    !expr_step_only(s->lo, v, level_var) || !expr_step_only(s->hi, v, level_var))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!step_only(c, s->body[i], v, level_var))
			return false;
	return true;
}

/* v[j] -> v[j - j0] inside the pass. */
static Expr *rebase_expr(Program *p, Expr *e, const Var *v, Var *j0)
{
	if (!e)
		return NULL;
	if (e->kind == EX_INDEX && e->var == v) {
		Expr *idx = ex_bin(p, OP_SUB, ex_copy(p, e->args[0]), ex_var(p, j0, e->loc), e->loc);
		return ex_index(p, e->var, &idx, e->loc);
	}
	for (int i = 0; i < e->nargs; i++)
		e->args[i] = rebase_expr(p, e->args[i], v, j0);
	return e;
}

static void rebase_stmt(Program *p, Stmt *s, const Var *v, Var *j0)
{
	if (!s)
		return;
	s->lhs = rebase_expr(p, s->lhs, v, j0);
	s->rhs = rebase_expr(p, s->rhs, v, j0);
	s->cond = rebase_expr(p, s->cond, v, j0);
	for (int i = 0; i < s->nbody; i++)
		rebase_stmt(p, s->body[i], v, j0);
}

/* Whether local array v (declared in pre or init by d) only ever holds the current step's
 * values: every access, in the levels and the maps between them, is v[j] with j a level
 * loop's iterator, and no statement before or after the pass touches it (a loop after
 * the pass over the same axis reads the whole row, not a step of it). */
static bool step_array(const Cascade *c, const Stmt *d)
{
	const Var *v = d->var;
	bool ok = true;
	for (int k = 0; k < c->npre + c->ninit; k++) {
		Stmt *o = k < c->npre ? c->pre[k] : c->init[k - c->npre];
		ok &= o == d || step_only(c, o, v, NULL);
	}
	for (int k = 0; ok && k < c->npost; k++)
		ok &= !stmt_reads_var(c->post[k], v) && !stmt_writes_var(c->post[k], v);
	for (int k = 0; ok && k < c->nlevels; k++) {
		ok &= step_only(c, c->levels[k], v, NULL);
		for (int m = 0; m < c->nmids[k]; m++)
			ok &= step_only(c, c->mids[k][m], v, NULL);
	}
	return ok;
}

/* A local array declared before the pass (d), without an initialiser. */
static bool row_array_decl(const Stmt *d)
{
	return d->kind == ST_DECL && d->var->ndim == 1 && d->var->kind == VAR_LOCAL && !d->rhs;
}

/* A local array that outlives a step (step_array false: the row copied into `float
 * row[C]` and read after the pass), other than an accumulator, keeps what the pass stores
 * in it; a value that reads
 * an earlier result would keep that result's partial value there, which nothing repairs
 * (as check_stored_maps says of parameter arrays). *at: the store. */
static bool check_kept_arrays(Cascade *c, int lv, const Stmt *s, Loc *at)
{
	for (int i = 0; i < s->nbody; i++)
		if (!check_kept_arrays(c, lv, s->body[i], at))
			return false;
	if (s->kind != ST_ASSIGN || s->lhs->kind != EX_INDEX || s->lhs->var->kind != VAR_LOCAL)
		return true;
	const Stmt *d = NULL;
	for (int k = 0; k < c->npre + c->ninit && !d; k++) {
		Stmt *o = k < c->npre ? c->pre[k] : c->init[k - c->npre];
		if (row_array_decl(o) && o->var == s->lhs->var)
			d = o;
	}
	if (!d || step_array(c, d))
		return true;
	for (int a = 0; a < c->naccums; a++)
		if (c->accums[a].var == d->var)
			return true; /* an accumulator (acc[d] += p * v[j][d]): repaired as it goes */
	Expr *v = inline_locals(c, s->rhs, lv, s, 0);
	if (!check_resolved(c, s)) {
		*at = s->loc;
		return false;
	}
	for (int k = 0; k < c->nproducers; k++)
		if (expr_reads_var(v, c->producers[k].var)) {
			*at = s->loc;
			return error_at(s->loc, "'%s' is stored during the pass over '%s' with a value that depends on '%s', which is final only after the pass, and '%s' is read after it: "
			                        "store it in a loop after the pass",
			                s->lhs->var->name, c->axis, c->producers[k].var->name, s->lhs->var->name),
			       false;
		}
	return true;
}

static bool is_row_reduction(const Cascade *c);

/* Elimination of intermediate arrays: a local array of the row that only ever holds the
 * current step's values (the scores s[j] of attention) shrinks to one tile, s[T] indexed
 * by j - j0, so nothing of size N is left in the fused program. Not for the GPU's
 * CTA-per-row kernels of a row reduction: their threads share the row, one step each,
 * and keep it whole in shared memory. */
static void shrink_step_arrays(Cascade *c, Stmt *pass, Var *j0)
{
	if (c->prog->split_rows && is_row_reduction(c))
		return;
	for (int i = 0; i < c->npre + c->ninit; i++) {
		Stmt *d = i < c->npre ? c->pre[i] : c->init[i - c->npre];
		if (!row_array_decl(d) || !step_array(c, d))
			continue;
		Var *v = d->var;
		v->dims[0] = ex_int(c->prog, c->tile, v->loc);
		v->step_row = true;
		rebase_stmt(c->prog, pass, v, j0);
	}
}

/* for (j0 = lo; j0 < hi; j0 += T) { step over [j0, min(j0 + T, hi)) } */
static Stmt *emit_tiled_pass(Cascade *c, Expr *lo, Expr *hi)
{
	Program *p = c->prog;
	Loc l = c->levels[0]->loc;
	Var *j0 = fresh_var(c, arena_printf(&p->arena, "%s0", c->axis), TY_INT, VAR_LOOP);
	StmtVec step = {0};
	Expr *end = ex_bin(p, OP_ADD, ev(p, j0), ex_int(p, c->tile, l), l);
	emit_step(c, &step, ev(p, j0), ex_min(p, end, hi, l));
	Stmt *body = st_block(p, step.v, step.n, l);
	vec_free(step);
	Stmt *pass = st_for(p, j0, lo, ex_copy(p, hi), c->tile, body, l);
	shrink_step_arrays(c, pass, j0);
	return pass;
}

static Stmt *build_rolling(Cascade *c)
{
	Program *p = c->prog;
	StmtVec out = {0};
	for (int i = 0; i < c->npre; i++)
		vec_push(out, c->pre[i]);
	emit_pass_setup(c, &out);
	vec_push(out, emit_tiled_pass(c, c->levels[0]->lo, c->levels[0]->hi));
	push_deferred_fixups(c, &out);
	for (int i = 0; i < c->npost; i++)
		vec_push(out, c->post[i]);
	Stmt *b = st_block(p, out.v, out.n, c->row->loc);
	vec_free(out);
	return b;
}

/* A partial: `X_part[S]...` with X's own dimensions after the chunk index. */
static Var *part_var(Cascade *c, Var *v, Var *nchunks)
{
	Program *p = c->prog;
	Var *pv = fresh_var(c, arena_printf(&p->arena, "%s_part", v->name), v->ty == TY_DOUBLE || count_type(v->ty) ? v->ty : TY_FLOAT, VAR_LOCAL);
	pv->ndim = v->ndim + 1;
	pv->dims = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)pv->ndim);
	pv->dims[0] = ev(p, nchunks);
	for (int i = 0; i < v->ndim; i++)
		pv->dims[i + 1] = ex_copy(p, v->dims[i]);
	return pv;
}

/* `part[ch][idx...]` for the accumulator element `t` (idx from t's subscripts). */
static Expr *part_elem(Cascade *c, Var *part, Var *ch, Expr *t)
{
	Program *p = c->prog;
	Expr *idx[17];
	idx[0] = ev(p, ch);
	for (int i = 0; i < t->nargs && i < 16; i++)
		idx[i + 1] = ex_copy(p, t->args[i]);
	return ex_index(p, part, idx, t->loc);
}

typedef struct PartCtx {
	Var *ch;
	bool store; /* store X into its partial, else merge the partial into X */
	Var **from, **to;
	Var *alpha;
} PartCtx;

static Stmt *mk_part(Cascade *c, const Accum *a, Expr *t, void *ctx)
{
	Program *p = c->prog;
	PartCtx *pc = ctx;
	Loc l = a->stmt->loc;
	if (a->at)
		return arg_part_stmt(c, a, pc->ch, pc->store);
	Expr *pe = part_elem(c, a->part, pc->ch, t);
	if (pc->store)
		return st_assign(p, pe, AS_SET, ex_copy(p, t), l);
	Expr *v = pe;
	if (a->repair) {
		v = guarded_retag(c, a, pe, pc->alpha);
	}
	if (a->red == RED_ADD)
		return st_assign(p, ex_copy(p, t), AS_ADD, v, l);
	Expr *args[2] = {ex_copy(p, t), v};
	return st_assign(p, ex_copy(p, t), AS_SET, ex_call(p, a->red == RED_MAX ? FN_FMAX : FN_FMIN, t->ty == TY_DOUBLE, args, l), l);
}

static Stmt *build_splitk(Cascade *c)
{
	Program *p = c->prog;
	Loc l = c->row->loc;
	Stmt *l0 = c->levels[0];
	StmtVec out = {0};
	for (int i = 0; i < c->npre; i++)
		vec_push(out, c->pre[i]);
	/* nchunks: as given, else one chunk per SPLITK_CHUNK steps (the GPU printers choose
	 * from the multiprocessor count instead; any count gives the same result). */
	Var *ns = fresh_var(c, "nchunks", TY_INT, VAR_LOCAL);
	Expr *len = ex_bin(p, OP_SUB, ex_copy(p, l0->hi), ex_copy(p, l0->lo), l);
	Expr *count = c->splitk ? ex_int(p, c->splitk, l)
	                        : ex_bin(p, OP_DIV, ex_bin(p, OP_ADD, len, ex_int(p, SPLITK_CHUNK - 1, l), l), ex_int(p, SPLITK_CHUNK, l), l);
	if (!c->splitk)
		count = ex_cond(p, ex_bin(p, OP_LT, count, ex_int(p, 1, l), l), ex_int(p, 1, l), ex_copy(p, count), l);
	vec_push(out, st_decl(p, ns, count, l));
	Var *csz = fresh_var(c, "chunk", TY_INT, VAR_LOCAL);
	Expr *num = ex_bin(p, OP_ADD, ex_copy(p, len), ex_bin(p, OP_SUB, ev(p, ns), ex_int(p, 1, l), l), l);
	vec_push(out, st_decl(p, csz, ex_bin(p, OP_DIV, num, ev(p, ns), l), l));
	for (int i = 0; i < c->naccums; i++) {
		c->accums[i].part = part_var(c, c->accums[i].var, ns);
		vec_push(out, st_decl(p, c->accums[i].part, NULL, l));
		if (c->accums[i].at)
			vec_push(out, arg_part_decl(c, &c->accums[i], ns));
	}
	for (int i = 0; i < c->nproducers; i++) {
		Producer *pr = &c->producers[i];
		Var *one = fresh_var(c, arena_printf(&p->arena, "%s_used_part", pr->var->name), pr->used->ty, VAR_LOCAL);
		one->ndim = 1;
		one->dims = arena_alloc(&p->arena, sizeof(Expr *));
		one->dims[0] = ev(p, ns);
		pr->used_part = one;
		vec_push(out, st_decl(p, one, NULL, l));
	}
	/* The chunks: each a rolling pass over its range with its own accumulators. */
	Var *ch = fresh_var(c, "ch", TY_INT, VAR_LOOP);
	StmtVec cb = {0};
	Var *clo = fresh_var(c, arena_printf(&p->arena, "%s_lo", c->axis), TY_INT, VAR_LOCAL);
	Var *chi = fresh_var(c, arena_printf(&p->arena, "%s_hi", c->axis), TY_INT, VAR_LOCAL);
	vec_push(cb, st_decl(p, clo, ex_bin(p, OP_ADD, ex_copy(p, l0->lo), ex_bin(p, OP_MUL, ev(p, ch), ev(p, csz), l), l), l));
	vec_push(cb, st_decl(p, chi, ex_min(p, ex_bin(p, OP_ADD, ev(p, clo), ev(p, csz), l), ex_copy(p, l0->hi), l), l));
	emit_pass_setup(c, &cb);
	vec_push(cb, emit_tiled_pass(c, ev(p, clo), ev(p, chi)));
	push_deferred_fixups(c, &cb);
	for (int i = 0; i < c->naccums; i++) {
		PartCtx pc = {ch, true, NULL, NULL, NULL};
		vec_push(cb, in_nest(c, &c->accums[i], accum_lvalue(c, &c->accums[i]), mk_part, &pc));
	}
	for (int i = 0; i < c->nproducers; i++) {
		Producer *pr = &c->producers[i];
		Expr *idx = ev(p, ch);
		vec_push(cb, st_assign(p, ex_index(p, pr->used_part, &idx, l), AS_SET, ev(p, pr->used), l));
	}
	vec_push(out, st_for(p, ch, ex_int(p, 0, l), ev(p, ns), 1, st_block(p, cb.v, cb.n, l), l));
	vec_free(cb);
	/* The merge, level by level: results without producers combine with their reducer,
	 * the others are re-tagged from each chunk's producer values to the merged ones. */
	for (int i = 0; i < c->ninit; i++)
		vec_push(out, stmt_copy(p, c->init[i]));
	Var **from = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(c->nproducers + 1));
	Var **to = used_vars(c, false);
	for (int k = 0; k < c->nlevels; k++) {
		for (int i = 0; i < c->naccums; i++) {
			Accum *a = &c->accums[i];
			if (a->level != k)
				continue;
			Var *mc = var_new(p, VAR_LOOP, "ch", TY_INT, l);
			StmtVec mb = {0};
			PartCtx pc = {mc, false, NULL, NULL, NULL};
			if (a->repair) {
				/* The chunk's tags, read through one-element views: X_used_part[ch]. */
				for (int q = 0; q < c->nproducers; q++) {
					Var *tv = fresh_var(c, arena_printf(&p->arena, "%s_chunk", c->producers[q].var->name), c->producers[q].used->ty, VAR_LOCAL);
					Expr *idx = ev(p, mc);
					vec_push(mb, st_decl(p, tv, ex_index(p, c->producers[q].used_part, &idx, l), l));
					from[q] = tv;
				}
				Var *alpha = fresh_var(c, arena_printf(&p->arena, "%s_rescale", a->var->name), a->var->ty, VAR_LOCAL);
				Expr *one = ex_flt(p, a->red == RED_ADD ? 1.0 : 0.0, a->var->ty, l);
				Expr *f = ex_cond(p, repair_changed(c, a, from, to), repair_apply(c, a, one, from, to), ex_copy(p, one), l);
				vec_push(mb, st_decl(p, alpha, f, l));
				pc.alpha = alpha;
			}
			vec_push(mb, in_nest(c, a, accum_lvalue(c, a), mk_part, &pc));
			vec_push(out, st_for(p, mc, ex_int(p, 0, l), ev(p, ns), 1, st_block(p, mb.v, mb.n, l), l));
			vec_free(mb);
		}
		for (int i = 0; i < c->nmids[k]; i++)
			vec_push(out, c->mids[k][i]);
		for (int i = 0; i < c->nproducers; i++) {
			Producer *pr = &c->producers[i];
			if (pr->level == k)
				vec_push(out, st_decl(p, pr->used, safe_value(c, pr, pr->var), l));
		}
	}
	for (int i = 0; i < c->npost; i++)
		vec_push(out, c->post[i]);
	Stmt *b = st_block(p, out.v, out.n, l);
	vec_free(out);
	return b;
}

/* ---- sums of separable terms ---- */

/* Why a sum's start was not moved after its loop (defer_inits), for the refusals. */
#define OTHER_START " (another start is added after its loop only when one assignment, under no condition, sets it, and nothing up to the loop's end changes what it reads)"

/* The statement that initialises accumulator v before the pass (in init or pre), and the
 * value it stores (casts stripped), or NULL. */
static Expr *accum_init_value(Cascade *c, const Var *v, Stmt **is)
{
	*is = NULL;
	for (int i = 0; i < c->ninit; i++)
		if (stmt_writes_var(c->init[i], v))
			*is = c->init[i];
	for (int i = 0; i < c->npre; i++)
		if (stmt_writes_var(c->pre[i], v))
			*is = c->pre[i];
	Stmt *leaf = *is ? init_leaf(*is, v) : NULL;
	Expr *iv = leaf ? leaf->rhs : NULL;
	while (iv && iv->kind == EX_CAST)
		iv = iv->args[0];
	return iv;
}

/* v[0..n) with ins[0..nins) inserted at position at, a new array. */
static Stmt **insert_stmts(Program *p, Stmt **v, int n, int at, Stmt **ins, int nins)
{
	Stmt **r = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(n + nins + 1));
	if (at)
		memcpy(r, v, sizeof(Stmt *) * (size_t)at);
	if (nins)
		memcpy(r + at, ins, sizeof(Stmt *) * (size_t)nins);
	if (n - at)
		memcpy(r + at + nins, v + at, sizeof(Stmt *) * (size_t)(n - at));
	return r;
}

static Stmt *mk_zero(Cascade *c, const Accum *a, Expr *t, void *ctx)
{
	(void)ctx;
	return st_assign(c->prog, ex_copy(c->prog, t), AS_SET, ex_flt(c->prog, 0.0, a->var->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, t->loc), t->loc);
}

typedef struct RecombineCtx {
	const Expansion *x;
	Var **accs;
} RecombineCtx;

/* t (an element of the sum) = the groups' elements at t's subscripts, recombined. */
static Stmt *mk_recombine(Cascade *c, const Accum *a, Expr *t, void *ctx)
{
	Program *p = c->prog;
	RecombineCtx *rc = ctx;
	Expr **elems = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)rc->x->ngroups);
	for (int k = 0; k < rc->x->ngroups; k++)
		elems[k] = expr_subst_var(p, t, a->var, rc->accs[k]);
	return st_assign(p, ex_copy(p, t), AS_SET, repair_expansion_sum(c, rc->x, elems, t->loc), t->loc);
}

const char *accum_quoted(Program *p, const Accum *a)
{
	return a->whole ? arena_printf(&p->arena, "'%s' (a term of it, summed apart)", a->whole->name) : arena_printf(&p->arena, "'%s'", a->var->name);
}

/* Accumulator ai, a sum whose contribution has no repair (why), as a sum of separable
 * terms (repair_expand): `var += (x - mean) * (x - mean)` becomes `var_x2 += x * x;
 * var_x += x; var_n += 1.0f;` in its level, each term accumulated on its own (with its
 * own repair when it has producers left), and `var = var_x2 - 2.0f * mean * var_x + mean
 * * mean * var_n;` a map after the level: in the program as written, every element saw
 * the final mean, so a coefficient that reads only earlier results is applied to the
 * whole sum once they are known. false after an error. */
static bool expand_sum(Cascade *c, int ai, const char *why)
{
	Program *p = c->prog;
	Accum *a = &c->accums[ai];
	Stmt *lvl = c->levels[a->level];
	Loc l = a->stmt->loc;
	Expansion x;
	const char *xwhy = NULL;
	int r = 0;
	if (a->red == RED_ADD && a->stmt->kind == ST_ASSIGN && stmt_count_stores(lvl, a->var) == 1)
		r = repair_expand(c, a, &x, &xwhy);
	if (r < 0)
		return false;
	if (r == 0)
		return error_at(l, "cannot fuse the reduction into %s over '%s': %s", accum_quoted(p, a), c->axis, why), false;
	/* A shift an earlier expansion of the region declared already (the same first
	 * element) is read from there. */
	int nsh = 0;
	for (int k = 0; k < x.nshifts; k++) {
		Var *same = NULL;
		for (int i = 0; i < c->ninit && !same; i++)
			if (c->init[i]->kind == ST_DECL && c->init[i]->rhs && expr_equal(c->init[i]->rhs, x.shift_inits[k]))
				same = c->init[i]->var;
		if (!same) {
			x.shift_vars[nsh] = x.shift_vars[k];
			x.shift_inits[nsh++] = x.shift_inits[k];
			continue;
		}
		for (int g = 0; g < x.ngroups; g++) {
			x.contrib[g] = expr_subst_var(p, x.contrib[g], x.shift_vars[k], same);
			if (x.coef[g])
				x.coef[g] = expr_subst_var(p, x.coef[g], x.shift_vars[k], same);
		}
	}
	x.nshifts = nsh;
	Accum *groups = arena_alloc(&p->arena, sizeof(Accum) * (size_t)x.ngroups);
	for (int k = 0; k < x.ngroups; k++) {
		groups[k] = *a;
		groups[k].g = x.contrib[k];
		const char *gwhy = NULL;
		if (reads_producer(c, x.contrib[k]) && !repair_separable(c, &groups[k], &gwhy)) {
			if (x.ngroups == 1)
				return error_at(l, "cannot fuse the reduction into %s over '%s': %s", accum_quoted(p, a), c->axis, why), false;
			StrBuf b = {0};
			print_expr(&b, x.contrib[k]);
			error_at(l, "cannot fuse the reduction into %s over '%s': its contribution expands into %d separately accumulated terms, and the term '%s' has no repair (%s)",
			         accum_quoted(p, a), c->axis, x.ngroups, b.s, gwhy);
			sb_free(&b);
			return false;
		}
	}
	Stmt *is;
	if (!is_zero(accum_init_value(c, a->var, &is)))
		return error_at(is ? is->loc : l, "the sum '%s' is fused as a sum of separately accumulated terms: it must start at 0%s", a->var->name, OTHER_START), false;
	/* The groups' accumulators (arrays like the sum, for an array), declared and zeroed
	 * next to the sum's initialisation. */
	ScalarType ty = a->var->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT;
	Var **accs = arena_alloc(&p->arena, sizeof(Var *) * (size_t)x.ngroups);
	Stmt **news = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)x.ngroups);
	StmtVec decls = {0};
	for (int k = 0; k < x.nshifts; k++)
		vec_push(decls, st_decl(p, x.shift_vars[k], x.shift_inits[k], l));
	for (int k = 0; k < x.ngroups; k++) {
		accs[k] = fresh_var(c, arena_printf(&p->arena, "%s_%s", a->var->name, x.names[k]), a->var->ty, VAR_LOCAL);
		accs[k]->ndim = a->var->ndim;
		accs[k]->dims = a->var->dims;
		news[k] = st_assign(p, expr_subst_var(p, a->stmt->lhs, a->var, accs[k]), AS_ADD, ex_copy(p, x.contrib[k]), l);
		groups[k].var = accs[k];
		groups[k].whole = a->whole ? a->whole : a->var;
		groups[k].stmt = news[k];
		if (a->var->ndim) {
			vec_push(decls, st_decl(p, accs[k], NULL, l));
			vec_push(decls, in_nest(c, &groups[k], accum_lvalue(c, &groups[k]), mk_zero, NULL));
		} else {
			vec_push(decls, st_decl(p, accs[k], ex_flt(p, 0.0, ty, l), l));
			groups[k].step_sum = fresh_var(c, arena_printf(&p->arena, "%s_step", accs[k]->name), a->var->ty, VAR_LOCAL);
		}
	}
	int at = c->ninit;
	for (int i = 0; i < c->ninit; i++)
		if (c->init[i] == is)
			at = i + 1;
	c->init = insert_stmts(p, c->init, c->ninit, at, decls.v, decls.n);
	c->ninit += decls.n;
	vec_free(decls);
	stmt_replace(p, lvl, a->stmt, news, x.ngroups);
	while (stmt_drop_dead_locals(lvl, lvl))
		;
	/* The sum, recombined after its level (a map; moved after the pass when no later
	 * level reads it, as an array never is). */
	RecombineCtx rc = {&x, accs};
	Stmt *rs = in_nest(c, a, accum_lvalue(c, a), mk_recombine, &rc);
	c->mids[a->level] = insert_stmts(p, c->mids[a->level], c->nmids[a->level], 0, &rs, 1);
	c->nmids[a->level]++;
	c->recombined = insert_stmts(p, c->recombined, c->nrecombined, c->nrecombined, &rs, 1);
	c->nrecombined++;
	/* The accumulator list: the groups in place of the sum. */
	Accum *na = arena_alloc(&p->arena, sizeof(Accum) * (size_t)(c->naccums + x.ngroups));
	memcpy(na, c->accums, sizeof(Accum) * (size_t)ai);
	memcpy(na + ai, groups, sizeof(Accum) * (size_t)x.ngroups);
	memcpy(na + ai + x.ngroups, c->accums + ai + 1, sizeof(Accum) * (size_t)(c->naccums - ai - 1));
	c->accums = na;
	c->naccums += x.ngroups - 1;
	return true;
}

/* After expansions: the producers that no later level reads any more (the mean of a
 * variance, now applied after the pass) are dropped, and the maps that neither a later
 * level nor another such map reads move after the pass (evaluated once, on final
 * values). The order of the maps is kept. */
static void settle_expansions(Cascade *c)
{
	Program *p = c->prog;
	int n = 0;
	for (int q = 0; q < c->nproducers; q++) {
		bool read = false;
		for (int k = c->producers[q].level + 1; k < c->nlevels; k++)
			read |= stmt_reads_var(c->levels[k], c->producers[q].var);
		if (read)
			c->producers[n++] = c->producers[q];
	}
	c->nproducers = n;
	/* The maps in order, and whether the pass needs each, from the last one back. */
	StmtVec all = {0};
	for (int k = 0; k < c->nlevels; k++)
		for (int i = 0; i < c->nmids[k]; i++)
			vec_push(all, c->mids[k][i]);
	bool *needed = calloc((size_t)all.n + 1, sizeof(bool));
	for (int j = all.n - 1; j >= 0; j--) {
		Stmt *m = all.v[j];
		while (m->kind == ST_FOR) /* an array's recombination */
			m = m->body[0]->kind == ST_BLOCK ? m->body[0]->body[0] : m->body[0];
		Var *mv = m->kind == ST_DECL ? m->var : m->lhs->var;
		needed[j] = producer_index(c, mv) >= 0;
		for (int j2 = j + 1; j2 < all.n && !needed[j]; j2++)
			needed[j] = needed[j2] && stmt_reads_var(all.v[j2], mv);
	}
	StmtVec moved = {0};
	for (int k = 0, j = 0; k < c->nlevels; k++) {
		int kept = 0;
		for (int i = 0; i < c->nmids[k]; i++, j++) {
			if (needed[j])
				c->mids[k][kept++] = c->mids[k][i];
			else
				vec_push(moved, c->mids[k][i]);
		}
		c->nmids[k] = kept;
	}
	free(needed);
	vec_free(all);
	if (moved.n) {
		c->post = insert_stmts(p, c->post, c->npost, 0, moved.v, moved.n);
		c->npost += moved.n;
	}
	vec_free(moved);
}

/* ---- a guard around the rest of a row ----
 *
 * `if (!valid[r]) continue;` before a row's loops (rows left out by a mask, an empty row)
 * puts the loops under `if (valid[r]) { ... }`, where no fusion sees them. When the guard
 * reads only what the row cannot change (parameters, iterators, inputs), it goes into each
 * statement instead (an else branch's under its negation, first): loops keep it inside (`for (c) if (g) m = fmaxf(m, x[r][c]);`),
 * assignments and ifs get their own, declarations run unguarded when their value reads only
 * constants and parameters, else are declared unguarded and assigned under it. The same
 * statements run on the same values; loops run their iterations to no effect where the
 * guard is off, reading nothing. */


/* Whether e can run where the guard is off: it reads no element (whose subscript the
 * guard may keep in range) and divides no integers (by a length the guard keeps nonzero).
 * A float result that the guard makes meaningless (`mu /= n` of an empty row) is harmless:
 * only statements under the guard read it. */
static bool safe_unguarded(const Expr *e)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX || (e->kind == EX_BIN && (e->bop == OP_DIV || e->bop == OP_MOD) && scalar_is_int(e->ty)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!safe_unguarded(e->args[i]))
			return false;
	return true;
}

/* Whether statement s (a guarded part of a row) declares v. */
static bool declares_var(const Stmt *s, const Var *v)
{
	if (s->kind == ST_DECL && s->var == v)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && declares_var(s->body[i], v))
			return true;
	return false;
}

/* Statement t under guard g, the guard pushed inside its loops, appended to out. A scalar
 * that the guarded part declares is assigned unguarded when its value is safe to compute
 * (`mu /= C;` between the mean's and the variance's loops stays a scalar assignment the
 * fusion takes); nothing outside the guarded part can read it. */
static void guard_into(Program *p, Stmt *t, const Expr *g, const Stmt *part, StmtVec *out)
{
	Loc l = t->loc;
	if (t->kind == ST_BLOCK) {
		for (int i = 0; i < t->nbody; i++)
			guard_into(p, t->body[i], g, part, out);
		return;
	}
	if (t->kind == ST_DECL) {
		if (t->var->ndim || !t->rhs || expr_reads_params_only(t->rhs) || safe_unguarded(t->rhs)) {
			vec_push(*out, t);
			return;
		}
		/* an element's value (`float d = x[t][c] - mu;` in a loop) stays one definition,
		 * which the fusion follows: read only where the guard is on */
		if (scalar_is_float(t->var->ty)) {
			Expr *off = ex_flt(p, 0, t->var->ty, l);
			vec_push(*out, st_decl(p, t->var, ex_cond(p, ex_copy(p, g), t->rhs, off, l), l));
			return;
		}
		Stmt *a = st_assign(p, ex_var(p, t->var, l), AS_SET, t->rhs, l);
		vec_push(*out, st_decl(p, t->var, NULL, l));
		t = a;
	}
	if (t->kind == ST_FOR) {
		StmtVec in = {0};
		int n;
		Stmt **b = slot_stmts(&t->body[0], &n);
		for (int i = 0; i < n; i++)
			guard_into(p, b[i], g, part, &in);
		Stmt *blk = in.n == 1 ? in.v[0] : st_block(p, in.v, in.n, l);
		st_set_body(p, t, &blk, 1);
		vec_free(in);
		vec_push(*out, t);
		return;
	}
	if (t->kind == ST_ASSIGN && t->lhs->kind == EX_VAR && !t->lhs->var->ndim && declares_var(part, t->lhs->var) && safe_unguarded(t->rhs)) {
		vec_push(*out, t);
		return;
	}
	Stmt *f = st_new(p, ST_IF, l);
	f->cond = ex_copy(p, g);
	st_set_body(p, f, &t, 1);
	vec_push(*out, f);
}

/* Whether expression e reads only parameters and iterators (arrays: const parameters). */
static bool row_invariant(const Expr *e)
{
	if ((e->kind == EX_VAR && e->var->kind == VAR_LOCAL) || (e->kind == EX_INDEX && !(e->var->kind == VAR_PARAM && e->var->is_const)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!row_invariant(e->args[i]))
			return false;
	return true;
}

/* The innermost of the parallel loops nesting from region r's loop, each the only
 * statement of the one around it: the loop whose iterations are the rows (NULL when the
 * region's loop is not parallel). *outer: the parallel loop around it (NULL: none);
 * *depth: how many parallel loops the nest has. */
static Stmt *row_loop(const Region *r, Stmt **outer, int *depth)
{
	const Schedule *s = r->loop->sched;
	Stmt *row = NULL, *up = NULL;
	int n = 0;
	for (Stmt *l = r->loop; l && l->kind == ST_FOR;) {
		if (!sched_parallel(s, l->var->name))
			break;
		up = row;
		row = l;
		n++;
		Stmt *b = l->body[0];
		while (b->kind == ST_BLOCK && b->nbody == 1)
			b = b->body[0];
		l = b;
	}
	if (outer)
		*outer = up;
	if (depth)
		*depth = n;
	return row;
}

/* The first local that e reads (NULL: none). */
static Var *first_local(const Expr *e)
{
	if (e->kind == EX_VAR && e->var->kind == VAR_LOCAL)
		return e->var;
	for (int i = 0; i < e->nargs; i++) {
		Var *v = first_local(e->args[i]);
		if (v)
			return v;
	}
	return NULL;
}

/* Guard g with each local that one of the row's statements b[0..n-2] declares from what
 * the row cannot change, and no statement of the row writes again, read as its value
 * (`int n = len[r]; if (n <= 0) continue;`, and a void helper's `if (n <= 0) return;`
 * inlined with n = len[r]). NULL when g reads another local. */
static Expr *guard_of_prefix(Program *p, Expr *g, Stmt **b, int n)
{
	for (Var *v; (v = first_local(g));) {
		const Stmt *d = NULL;
		for (int i = 0; i < n - 1 && !d; i++)
			if (b[i]->kind == ST_DECL && b[i]->var == v)
				d = b[i];
		if (!d || v->ndim || !d->rhs || !row_invariant(d->rhs))
			return NULL;
		for (int i = 0; i < n; i++)
			if (b[i] != d && stmt_writes_var(b[i], v))
				return NULL;
		g = expr_subst_expr(p, g, v, d->rhs);
	}
	return g;
}

static void distribute_row_guard(Program *p, Region *r)
{
	Stmt *row = row_loop(r, NULL, NULL);
	if (!row)
		return;
	int n;
	Stmt **b = slot_stmts(&row->body[0], &n);
	Stmt *f = n ? b[n - 1] : NULL;
	if (!f || f->kind != ST_IF || !stmt_has_loop(f))
		return;
	Expr *g = guard_of_prefix(p, f->cond, b, n);
	if (!g || !row_invariant(g))
		return;
	f->cond = g;
	StmtVec out = {0};
	for (int i = 0; i < n - 1; i++)
		vec_push(out, b[i]);
	/* `else`: under the negated guard (`if (!valid[r]) { zeros; continue; }` puts the
	 * row's loops there) */
	if (f->nbody > 1 && f->body[1])
		guard_into(p, f->body[1], ex_un(p, UOP_NOT, ex_copy(p, f->cond), f->loc), f->body[1], &out);
	guard_into(p, f->body[0], f->cond, f->body[0], &out);
	Stmt *blk = st_block(p, out.v, out.n, row->loc);
	st_set_body(p, row, &blk, 1);
	vec_free(out);
}

/* ---- a loop over blocks and a loop inside each block as one loop ----
 *
 * Block-sparse layouts in CSR (`for (kb = row_ptr[ib]; kb < row_ptr[ib + 1]; kb++) for
 * (jj = 0; jj < BLK; jj++) { j = col_idx[kb] * BLK + jj; ... }`) and KV caches walked page
 * by page visit the keys in a nest whose inner loop has a constant extent E. The fusion
 * and the online softmax's undoing see one loop level: the nest becomes one loop,
 *     for (kb_jj = lo * E; kb_jj < hi * E; kb_jj++) { kb -> kb_jj / E, jj -> kb_jj % E }
 * which visits the same iterations in the same order. Scalars the outer body declares
 * before the inner loop (`int page = table[kb];`) move into it, computed per element.
 * A clause naming either loop (rolling(kb)) names the new one. */

/* Whether e reads no integer array at a subscript that reads iterator ctx. */
static bool no_table_at(const Expr *e, void *ctx)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && scalar_is_int(e->var->ty))
		for (int i = 0; i < e->nargs; i++)
			if (expr_reads_var(e->args[i], ctx))
				return false;
	for (int i = 0; i < e->nargs; i++)
		if (!no_table_at(e->args[i], ctx))
			return false;
	return true;
}

/* Whether s stores into array a at subscripts that read iterator in but not out. */
static bool stores_along(const Stmt *s, const Var *a, const Var *in, const Var *out)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->var == a && expr_reads_var(s->lhs, in) && !expr_reads_var(s->lhs, out))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stores_along(s->body[i], a, in, out))
			return true;
	return false;
}

/* Whether loop o is a non-parallel loop whose body is scalar declarations, then one loop
 * from 0 to a constant or a size parameter (a block size given at run time), step 1, that
 * writes none of them; *in, *npre: that loop, how many declarations before it. */
static bool block_nest(const Schedule *sc, Stmt *o, Stmt **in, int *npre)
{
	if (sched_parallel(sc, o->var->name))
		return false;
	if (o->step != 1)
		return false;
	int n;
	Stmt **b = slot_stmts(&o->body[0], &n);
	if (!n)
		return false;
	Stmt *l = b[n - 1];
	bool size = l->kind == ST_FOR && l->hi->kind == EX_VAR && l->hi->var->kind == VAR_PARAM && !l->hi->var->ndim && l->hi->var->ty == TY_INT; /* a run-time block */
	if (l->kind != ST_FOR || l->step != 1 || l->lo->kind != EX_INT || l->lo->ival != 0 || ((l->hi->kind != EX_INT || l->hi->ival <= 0) && !size))
		return false;
	for (int i = 0; i < n - 1; i++)
		if (b[i]->kind != ST_DECL || b[i]->var->ndim || !b[i]->rhs || stmt_writes_var(l, b[i]->var) || expr_reads_var(b[i]->rhs, l->var))
			return false;
	/* Only a walk over keys: an index table read at the block (col_idx[kb], a page
	 * table), and a local from outside the nest carried across it: a reduction into a
	 * scalar, or an array whose elements the inner loop indexes only with the outer one
	 * (scores stored by key, `s[p * PS + e]`) or not at all (P.V's acc[d] walked page by
	 * page), not `for (t) for (d) acc[d] += ...`, whose inner loop is the head dim. */
	const Var *ov = o->var;
	if (!stmt_all_exprs(o, no_table_at, (void *)ov)) {
		VarVec w = {0};
		collect_writes(l->body[0], &w);
		bool carried = false;
		for (int v = 0; v < w.n; v++)
			carried |= w.v[v]->kind == VAR_LOCAL && !stmt_declares(o, w.v[v]) && !(w.v[v]->ndim && stores_along(l->body[0], w.v[v], l->var, ov));
		vec_free(w);
		if (carried) {
			*in = l;
			*npre = n - 1;
			return true;
		}
	}
	return false;
}

/* The rolling, splitk and tile clauses that name loop a or b name loop `to`. */
static void rename_clauses(Schedule *sc, const char *a, const char *b, const char *to)
{
	LoopArg *lists[3] = {sc->rolling, sc->splitk, sc->tile};
	int ns[3] = {sc->nrolling, sc->nsplitk, sc->ntile};
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < ns[k]; i++)
			if (!strcmp(lists[k][i].loop, a) || !strcmp(lists[k][i].loop, b))
				lists[k][i].loop = to;
}

/* x when e is `x / E * E` or `E * (x / E)`, E a positive literal (*E gets it); else NULL. */
static Expr *floor_multiple(Expr *e, long long *E)
{
	if (e->kind != EX_BIN || e->bop != OP_MUL)
		return NULL;
	for (int side = 0; side < 2; side++) {
		Expr *q = e->args[side], *k = e->args[1 - side];
		if (k->kind == EX_INT && k->ival > 0 && q->kind == EX_BIN && q->bop == OP_DIV && q->args[1]->kind == EX_INT && q->args[1]->ival == k->ival) {
			*E = k->ival;
			return q->args[0];
		}
	}
	return NULL;
}

/* The terms of sum e (its OP_ADD tree, left to right) into t, at most max of them: a
 * subtree past that stays one term. */
static void sum_terms(Expr *e, Expr **t, int *n, int max)
{
	if (e->kind == EX_BIN && e->bop == OP_ADD && *n + 2 <= max) {
		sum_terms(e->args[0], t, n, max - 1);
		sum_terms(e->args[1], t, n, max);
	} else {
		t[(*n)++] = e;
	}
}

/* e (a copy, changed in place) with every sum holding the terms `x / E * E` and `x % E`
 * holding x instead: C's division truncates so that (x / E) * E + x % E is x for every
 * x, and a collapsed nest's subscript `p * PS + s` (p -> p_s / PS, s -> p_s % PS) is the
 * iterator itself again, the axis the later loops over the keys index. */
static Expr *fold_divmod(Program *p, Expr *e)
{
	for (int i = 0; i < e->nargs; i++)
		e->args[i] = fold_divmod(p, e->args[i]);
	if (e->kind != EX_BIN || e->bop != OP_ADD)
		return e;
	Expr *t[16];
	int n = 0;
	sum_terms(e, t, &n, 16);
	/* scaled by a stride, as a flat subscript has it: `(T)(x / E) * (E * S) + (T)(x % E) * S` */
	for (int i = 0; i < n; i++) {
		Expr *q = t[i]->kind == EX_BIN && t[i]->bop == OP_MUL && t[i]->args[1]->kind == EX_INT ? t[i]->args[0] : NULL;
		Expr *qc = q && q->kind == EX_CAST ? q->args[0] : q;
		if (!qc || qc->kind != EX_BIN || qc->bop != OP_DIV || qc->args[1]->kind != EX_INT || qc->args[1]->ival <= 0 || t[i]->args[1]->ival % qc->args[1]->ival)
			continue;
		long long E = qc->args[1]->ival, S = t[i]->args[1]->ival / E;
		for (int j = 0; j < n; j++) {
			Expr *m = t[j], *mk = NULL;
			if (m->kind == EX_BIN && m->bop == OP_MUL && m->args[1]->kind == EX_INT && m->args[1]->ival == S)
				mk = m->args[0];
			else if (S == 1)
				mk = m;
			if (!mk || j == i || (mk->kind == EX_CAST) != (q->kind == EX_CAST) || (q->kind == EX_CAST && mk->ty != q->ty))
				continue;
			Expr *mc = mk->kind == EX_CAST ? mk->args[0] : mk;
			if (mc->kind != EX_BIN || mc->bop != OP_MOD || mc->args[1]->kind != EX_INT || mc->args[1]->ival != E || !expr_equal(mc->args[0], qc->args[0]))
				continue;
			Expr *x = q->kind == EX_CAST ? ex_cast(p, q->ty, qc->args[0], q->loc) : qc->args[0];
			t[i] = S == 1 ? x : ex_bin(p, OP_MUL, x, ex_int(p, S, e->loc), e->loc);
			for (int k = j; k + 1 < n; k++)
				t[k] = t[k + 1];
			n--;
			Expr *r = t[0];
			for (int k = 1; k < n; k++)
				r = ex_bin(p, OP_ADD, r, t[k], e->loc);
			return r;
		}
	}
	for (int i = 0; i < n; i++) {
		long long E;
		Expr *x = floor_multiple(t[i], &E);
		for (int j = 0; x && j < n; j++) {
			const Expr *m = t[j];
			if (j == i || m->kind != EX_BIN || m->bop != OP_MOD || m->args[1]->kind != EX_INT || m->args[1]->ival != E || !expr_equal(m->args[0], x))
				continue;
			t[i] = x;
			for (int k = j; k + 1 < n; k++)
				t[k] = t[k + 1];
			n--;
			Expr *r = t[0];
			for (int k = 1; k < n; k++)
				r = ex_bin(p, OP_ADD, r, t[k], e->loc);
			return r;
		}
	}
	return e;
}

/* The terms of integer sum e (its + and - tree) into t with their signs in neg, at most
 * 16: a subtree past that stays one term. */
static void signed_terms(Expr *e, bool minus, Expr **t, bool *neg, int *n)
{
	if (e->kind == EX_BIN && (e->bop == OP_ADD || e->bop == OP_SUB) && scalar_is_int(e->ty) && *n + 2 <= 16) {
		signed_terms(e->args[0], minus, t, neg, n);
		signed_terms(e->args[1], e->bop == OP_SUB ? !minus : minus, t, neg, n);
	} else {
		neg[*n] = minus;
		t[(*n)++] = e;
	}
}

/* e (a copy, changed in place) with a term added and subtracted in one integer sum
 * dropped: a collapsed block walk's position from its start, `row_ptr[qb] + kb -
 * row_ptr[qb]` (kb -> row_ptr[qb] + kb), is kb again, which the analyses read. */
static Expr *cancel_terms(Program *p, Expr *e)
{
	for (int i = 0; i < e->nargs; i++)
		e->args[i] = cancel_terms(p, e->args[i]);
	if (e->kind != EX_BIN || (e->bop != OP_ADD && e->bop != OP_SUB) || !scalar_is_int(e->ty))
		return e;
	Expr *t[16];
	bool neg[16], gone[16] = {0}, any = false;
	int n = 0;
	signed_terms(e, false, t, neg, &n);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n && !gone[i]; j++)
			if (!gone[j] && neg[i] != neg[j] && expr_equal(t[i], t[j]))
				gone[i] = gone[j] = any = true;
	if (!any)
		return e;
	Expr *r = NULL;
	for (int i = 0; i < n; i++) /* the first positive term leads where there is one */
		if (!gone[i] && !neg[i] && !r) {
			r = t[i];
			gone[i] = true;
		}
	for (int i = 0; i < n; i++)
		if (!gone[i])
			r = r ? ex_bin(p, neg[i] ? OP_SUB : OP_ADD, r, t[i], e->loc) : ex_un(p, UOP_NEG, t[i], e->loc);
	return r ? r : ex_int(p, 0, e->loc);
}

static Expr *cancel_terms_map(Program *p, const Expr *e, void *ctx)
{
	(void)ctx;
	return cancel_terms(p, ex_copy(p, e));
}

static Expr *fold_divmod_map(Program *p, const Expr *e, void *ctx)
{
	(void)ctx;
	return fold_divmod(p, cancel_terms(p, ex_copy(p, e)));
}

Expr *fuse_fold_divmod(Program *p, const Expr *e) { return e ? fold_divmod_map(p, e, NULL) : NULL; }

/* Whether e names no variable called ctx (a name). */
static bool not_named(const Expr *e, void *ctx)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && !strcmp(e->var->name, ctx))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!not_named(e->args[i], ctx))
			return false;
	return true;
}

/* Whether s declares or reads no variable called name. */
static bool stmt_not_named(const Stmt *s, const char *name)
{
	if (!s)
		return true;
	if ((s->kind == ST_DECL || s->kind == ST_FOR) && s->var && !strcmp(s->var->name, name))
		return false;
	const Expr *es[5] = {s->lo, s->hi, s->lhs, s->rhs, s->cond};
	for (int i = 0; i < 5; i++)
		if (es[i] && !not_named(es[i], (void *)name))
			return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_not_named(s->body[i], name))
			return false;
	return true;
}

/* The loops of s (self's own left out) that run over self's range: *name gets their
 * name, *clash is set when two of them differ. */
static void same_range_loops(const Stmt *s, const Stmt *self, const char **name, bool *clash)
{
	if (!s || s == self)
		return;
	if (s->kind == ST_FOR && expr_equal(s->lo, self->lo) && expr_equal(s->hi, self->hi)) {
		*clash |= *name && strcmp(*name, s->var->name);
		*name = s->var->name;
	}
	for (int i = 0; i < s->nbody; i++)
		same_range_loops(s->body[i], self, name, clash);
}

/* collapse_block_loops within scope, the region's loop: a collapsed nest whose range is
 * that of other loops of the region that share one name (the key loops after a page walk,
 * `for (t = 0; t < npages[b] * PS; t++)`) takes their name, so that the schedule sees one
 * loop (DESIGN: sibling loops that share a name and a range are one loop). */
static void collapse_nests(Cascade *c, Stmt *s, Schedule *sc, const Stmt *scope)
{
	Program *p = c->prog;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			collapse_nests(c, s->body[i], sc, scope);
	Stmt *in;
	int npre;
	if (s->kind != ST_FOR || !block_nest(sc, s, &in, &npre))
		return;
	Loc l = s->loc;
	Expr *E = ex_copy(p, in->hi);
	Var *t = fresh_var(c, arena_printf(&p->arena, "%s_%s", s->var->name, in->var->name), TY_INT, VAR_LOOP);
	Expr *outer = ex_bin(p, OP_DIV, ex_var(p, t, l), E, l), *inner = ex_bin(p, OP_MOD, ex_var(p, t, l), ex_copy(p, E), l);
	const Expr *po[2] = {ex_var(p, s->var, l), outer}, *pi[2] = {ex_var(p, in->var, l), inner};
	int n;
	Stmt **b = slot_stmts(&s->body[0], &n), **ib;
	int ni;
	ib = slot_stmts(&in->body[0], &ni);
	Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(npre + ni));
	for (int k = 0; k < npre; k++)
		nb[k] = stmt_map_exprs(p, stmt_map_exprs(p, b[k], expr_subst_equal_map, po), fold_divmod_map, NULL);
	for (int k = 0; k < ni; k++)
		nb[npre + k] = stmt_map_exprs(p, stmt_map_exprs(p, stmt_map_exprs(p, ib[k], expr_subst_equal_map, pi), expr_subst_equal_map, po), fold_divmod_map, NULL);
	Stmt *body = st_block(p, nb, npre + ni, in->loc);
	const char *from_o = s->var->name, *from_i = in->var->name;
	s->var = t;
	s->lo = s->lo->kind == EX_INT && E->kind == EX_INT ? ex_int(p, s->lo->ival * E->ival, l) : ex_bin(p, OP_MUL, s->lo, ex_copy(p, E), l);
	s->hi = ex_bin(p, OP_MUL, s->hi, ex_copy(p, E), l);
	st_set_body(p, s, &body, 1);
	const char *axis = NULL;
	bool clash = false;
	same_range_loops(scope, s, &axis, &clash);
	if (axis && !clash && stmt_not_named(body, axis))
		t->name = axis;
	rename_clauses(sc, from_o, from_i, t->name);
}

static void collapse_block_loops(Cascade *c, Stmt *s, Schedule *sc)
{
	collapse_nests(c, s, sc, s);
}

/* ---- a flat loop's sums across its iterations as a row ----
 *
 * `for (i) { losses[i] = ...; mean += losses[i]; }` with parallel(i) (llm.c's mean loss, a
 * dot product of two vectors, a global norm) gives the CTA-per-row kernels no loop to
 * spread over a CTA: each iteration is a row of one element. For the GPU, the innermost
 * parallel loop of such a region becomes the row's loop: the outer parallel loops, or a
 * loop of its own over runs of the iterations, are the grid; each grid sum adds up the
 * row's part in a local and adds that once, after the loop:
 *     for (fx_row < ceil(n / E)) { float mean_part = 0; for (i in run fx_row) { ...; mean_part += losses[i]; } mean += mean_part; }
 * The fused C keeps the loop as written. */

/* In s, each `G += e` of grid sum G (gs.elems[k]) adds to parts[k] instead. */
static void add_to_parts(Program *p, Stmt *s, const GridSums *gs, Var **parts)
{
	if (!s)
		return;
	int k = s->kind == ST_ASSIGN ? grid_sum_of(gs, s->lhs) : -1;
	if (k >= 0)
		accum_retarget(p, s, parts[k]);
	for (int i = 0; i < s->nbody; i++)
		add_to_parts(p, s->body[i], gs, parts);
}

/* Whether s holds, inside a loop, grid sum k of gs. */
static bool sums_in_loop(const Stmt *s, const GridSums *gs, int k, bool in_loop)
{
	if (!s)
		return false;
	if (in_loop && s->kind == ST_ASSIGN && grid_sum_of(gs, s->lhs) == k)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (sums_in_loop(s->body[i], gs, k, in_loop || s->kind == ST_FOR))
			return true;
	return false;
}

/* A sum across the rows added to inside a loop over the row's elements (`for (c) total +=
 * y[r][c] * (lse - x[r][c]);`, an MSE over a matrix) is the row's sum, added once: the row
 * sums into `<total>_row` (a reduction of the row like any other, fused with the row's
 * max and sums), then `total += total_row;` ends the row. The sum's order changes as the
 * GPU's does; the value, up to rounding, does not. */
static void sums_in_row_parts(Cascade *c, Region *r)
{
	Program *p = c->prog;
	GridSums gs;
	grid_sums(r->loop, &gs);
	Stmt *row = row_loop(r, NULL, NULL);
	for (int k = 0; row && k < gs.n; k++) {
		if (!sums_in_loop(row->body[0], &gs, k, false))
			continue;
		/* a count's row part in double: exact to 2^53, and the CTA reductions take it */
		ScalarType t = scalar_is_float(gs.vars[k]->ty) ? gs.vars[k]->ty : TY_DOUBLE;
		Var *part = fresh_var(c, arena_printf(&p->arena, "%s_row", grid_sum_base(p, &gs, k)), t, VAR_LOCAL);
		GridSums one = {.vars = {gs.vars[k]}, .elems = {gs.elems[k]}, .kinds = {gs.kinds[k]}, .n = 1};
		add_to_parts(p, row->body[0], &one, &part);
		int n;
		Stmt **b = slot_stmts(&row->body[0], &n);
		Stmt **nb = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(n + 2));
		nb[0] = st_decl(p, part, grid_identity(p, gs.kinds[k], t, row->loc), row->loc);
		memcpy(nb + 1, b, sizeof(Stmt *) * (size_t)n);
		nb[n + 1] = accum_step_new(p, gs.kinds[k], ex_copy(p, gs.elems[k]), ex_var(p, part, row->loc), row->loc);
		Stmt *blk = st_block(p, nb, n + 2, row->loc);
		st_set_body(p, row, &blk, 1);
	}
}

static void sums_as_rows(Cascade *c, Region *r)
{
	Program *p = c->prog;
	Schedule *s = r->loop->sched;
	GridSums gs;
	grid_sums(r->loop, &gs);
	if (!gs.n || s->nrolling || s->nsplitk)
		return;
	Stmt *outer, *in;
	int depth;
	if (!(in = row_loop(r, &outer, &depth)) || depth != s->nparallel || stmt_has_loop(in->body[0]))
		return;
	Var *parts[MAX_GRID_SUMS];
	Stmt *row[MAX_GRID_SUMS * 2 + 1];
	int n = 0;
	for (int k = 0; k < gs.n; k++) {
		ScalarType t = gs.vars[k]->ty;
		parts[k] = fresh_var(c, arena_printf(&p->arena, "%s_part", grid_sum_base(p, &gs, k)), t, VAR_LOCAL);
		row[n++] = st_decl(p, parts[k], grid_identity(p, gs.kinds[k], t, in->loc), in->loc);
	}
	add_to_parts(p, in->body[0], &gs, parts);
	row[n++] = in;
	for (int k = 0; k < gs.n; k++)
		row[n++] = accum_step_new(p, gs.kinds[k], ex_copy(p, gs.elems[k]), ex_var(p, parts[k], in->loc), in->loc);
	Stmt *blk = st_block(p, row, n, in->loc);
	/* in leaves the parallel loops: the row's loop */
	for (int i = 0; i < s->nparallel; i++)
		if (!strcmp(s->parallel[i].loop, in->var->name))
			s->parallel[i--] = s->parallel[--s->nparallel];
	if (outer) {
		st_set_body(p, outer, &blk, 1);
		return;
	}
	/* rows of ROW_ELEMS iterations each, so that a long vector has CTAs to spread over:
	 * for (fx_row < ceil((hi - lo) / E)) for (i = lo + fx_row * E; i < min(that + E, hi)) */
	enum { ROW_ELEMS = 16384 };
	Loc lc = in->loc;
	Var *one = fresh_var(c, "fx_row", TY_INT, VAR_LOOP);
	Expr *len = ex_bin(p, OP_SUB, ex_copy(p, in->hi), ex_copy(p, in->lo), lc);
	Expr *rows = ex_bin(p, OP_DIV, ex_bin(p, OP_ADD, len, ex_int(p, ROW_ELEMS - 1, lc), lc), ex_int(p, ROW_ELEMS, lc), lc);
	Expr *start = ex_bin(p, OP_ADD, ex_copy(p, in->lo), ex_bin(p, OP_MUL, ex_var(p, one, lc), ex_int(p, ROW_ELEMS, lc), lc), lc);
	in->hi = ex_min(p, ex_bin(p, OP_ADD, ex_copy(p, start), ex_int(p, ROW_ELEMS, lc), lc), in->hi, lc);
	in->lo = start;
	Stmt *l = st_for(p, one, ex_int(p, 0, lc), rows, 1, blk, lc);
	l->sched = s;
	in->sched = NULL;
	r->loop = l;
	LoopArg *pl = arena_alloc(&p->arena, sizeof(LoopArg) * (size_t)(s->nparallel + 1));
	memcpy(pl, s->parallel, sizeof(LoopArg) * (size_t)s->nparallel);
	pl[s->nparallel++] = (LoopArg){one->name, 0, s->loc};
	s->parallel = pl;
}

/* ---- analysis of one region ---- */

/* The assignment of s at loc, or NULL. */
static const Stmt *assign_at(const Stmt *s, Loc loc)
{
	if (!s)
		return NULL;
	if (s->kind == ST_ASSIGN && s->loc.line == loc.line && s->loc.col == loc.col)
		return s;
	for (int i = 0; i < s->nbody; i++) {
		const Stmt *a = assign_at(s->body[i], loc);
		if (a)
			return a;
	}
	return NULL;
}

/* Parallel loops may carry dependences through grid sums only (gridsum.c). */
static bool check_parallel(Schedule *s, DepInfo *deps, Stmt *region)
{
	bool ok = true;
	GridSums gs;
	grid_sums(region, &gs);
	for (int i = 0; i < s->nparallel; i++) {
		StmtVec loops = {0};
		find_loops(region, s->parallel[i].loop, &loops);
		for (int k = 0; k < loops.n; k++) {
			Loc w = loops.v[k]->loc;
			if (deps_loop_carries(deps, loops.v[k], gs.vars, gs.n, &w)) {
				const Stmt *a = assign_at(region, w);
				error_at(s->parallel[i].loc, "loop '%s' cannot be parallel: it carries a dependence", s->parallel[i].loop);
				if (a && a->lhs->kind == EX_INDEX && (a->aop == AS_ADD || a->aop == AS_SUB) && !expr_reads_var(a->lhs, loops.v[k]->var))
					note_at(w, "every iteration of '%s' adds to the same element of '%s': a sum across the parallel loops is allowed only into elements of a one-dimensional output at constant subscripts, nothing else reading or writing that output in the region, integer steps into an integer output (`%s[0] += ...`)",
					        s->parallel[i].loop, a->lhs->var->name, a->lhs->var->name);
				else if (a)
					note_at(w, "this statement writes '%s', which another iteration of '%s' reads or writes", a->lhs->var->name, s->parallel[i].loop);
				else
					note_at(w, "this statement depends on itself (or another) across iterations of '%s'", s->parallel[i].loop);
				ok = false;
				break;
			}
		}
		vec_free(loops);
	}
	return ok;
}

static bool is_init_of_accum(Cascade *c, Stmt *s)
{
	for (int i = 0; i < c->naccums; i++) {
		Var *v = c->accums[i].var;
		if (stmt_writes_var(s, v))
			return true;
	}
	return false;
}

static void add_producer(Var *v, int level, ProducerVec *prods)
{
	for (int i = 0; i < prods->n; i++)
		if (prods->v[i].var == v)
			return;
	Producer pr = {.var = v, .level = level};
	vec_push(*prods, pr);
}

/* A statement of a level that reads an accumulator of the same level (other than its own
 * reduction statements) sees a partial result: a scan, which split-k and the GPU's
 * parallel steps would change. Refused. */
static bool check_no_partial_reads(Cascade *c, Stmt *s, const Accum *a, const char *name)
{
	if (!s)
		return true;
	Expr *t, *g;
	Reducer red;
	if ((s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(c->prog, s, &t, &red, &g) && t->var == a->var)
		return true;
	ArgStep am;
	if (a->idx && arg_match(s, &am) && am.val->var == a->var)
		return true;
	bool leaf = s->kind == ST_ASSIGN || s->kind == ST_DECL;
	if ((leaf && (stmt_reads_var(s, a->var) || (a->idx && stmt_reads_var(s, a->idx)))) || (s->kind == ST_IF && expr_reads_var(s->cond, a->var)) ||
	    (s->kind == ST_FOR && (expr_reads_var(s->lo, a->var) || expr_reads_var(s->hi, a->var)))) {
		error_at(s->loc, "'%s' is read here while the loop over '%s' is still reducing it (a scan, or a use of a partial result): fusecc fuses complete reductions; move this use after the loop", name, c->axis);
		return false;
	}
	bool ok = true;
	for (int i = 0; i < s->nbody; i++)
		ok &= check_no_partial_reads(c, s->body[i], a, name);
	return ok;
}

/* Splits the outer parallel loops that have a tile size into a tile loop and a loop over
 * the tile: the rows of one GPU CTA. The order of the rows does not change. */
static void tile_row_loops(Program *p, Region *r, StrVec *names)
{
	Schedule *s = r->loop->sched;
	Stmt *l = r->loop;
	while (l && l->kind == ST_FOR) {
		bool par = sched_parallel(s, l->var->name);
		long t = 0;
		for (int i = 0; i < s->ntile; i++)
			if (!strcmp(s->tile[i].loop, l->var->name))
				t = s->tile[i].value;
		if (!par)
			break;
		Stmt *next = l->body[0];
		while (next->kind == ST_BLOCK && next->nbody == 1)
			next = next->body[0];
		if (t > 1) {
			Cascade tmp = {.prog = p, .region = r, .names = names};
			Var *t0 = fresh_var(&tmp, arena_printf(&p->arena, "%s0", l->var->name), TY_INT, VAR_LOOP);
			Expr *end = ex_min(p, ex_bin(p, OP_ADD, ex_var(p, t0, l->loc), ex_int(p, t, l->loc), l->loc), l->hi, l->loc);
			Stmt *inner = st_for(p, l->var, ex_var(p, t0, l->loc), end, 1, l->body[0], l->loc);
			l->var = t0;
			l->step = t;
			l->hi = ex_copy(p, l->hi);
			st_set_body(p, l, &inner, 1);
		}
		l = next;
	}
}

/* Whether c is a row reduction: no level holds an inner loop, no accumulator is an
 * array (a product's columns). */
static bool is_row_reduction(const Cascade *c)
{
	for (int k = 0; k < c->nlevels; k++) {
		const Stmt *b = c->levels[k]->body[0];
		for (int i = 0; i < (b->kind == ST_BLOCK ? b->nbody : 1); i++)
			if ((b->kind == ST_BLOCK ? b->body[i] : b)->kind == ST_FOR)
				return false;
	}
	for (int i = 0; i < c->naccums; i++)
		if (c->accums[i].var->ndim)
			return false;
	return true;
}

/* Whether accs[0..n) hold an accumulator other than an argmax pair. */
static bool reduces_besides_args(const Accum *accs, int n)
{
	for (int i = 0; i < n; i++)
		if (!accs[i].idx)
			return true;
	return false;
}

/* A store to an array between the loops over the axis that no statement after it, up to
 * the last level, reads, overwrites or changes the inputs of (FlashAttention's reference
 * saving the log-sum-exp before its P.V loop): moved after the last level, where the pass
 * leaves what it reads final, instead of refused as a map to re-evaluate at every step.
 * *last follows the level it indexed. Returns whether any store moved. */
static bool sink_stores(StmtVec *kids, int first, int *last)
{
	bool moved = false;
	for (int i = *last - 1; i > first; i--) {
		Stmt *k = kids->v[i];
		/* a store under a row's guard (`if (keep[t]) mean[t] = mu;`) moves with it */
		Stmt *a = k->kind == ST_IF && (k->nbody == 1 || !k->body[1]) ? k->body[0] : k;
		if (a->kind != ST_ASSIGN || a->lhs->kind != EX_INDEX)
			continue;
		bool movable = true;
		for (int q = i + 1; movable && q <= *last; q++) {
			Stmt *t = kids->v[q];
			movable = !stmt_reads_var(t, a->lhs->var) && !stmt_writes_var(t, a->lhs->var);
			VarVec w = {0};
			collect_writes(t, &w);
			for (int v = 0; movable && v < w.n; v++)
				movable = !stmt_reads_var(k, w.v[v]);
			vec_free(w);
		}
		if (!movable)
			continue;
		memmove(kids->v + i, kids->v + i + 1, sizeof *kids->v * (size_t)(*last - i));
		kids->v[(*last)--] = k;
		moved = true;
	}
	return moved;
}

/* Drops the argmax pairs of the loops over the axis after kids[last]: those loops run
 * after the fused pass as written (they may read its results). */
static void drop_args_after(AccumVec *acc, Stmt **kids, int first, int last, const char *axis)
{
	int nlevels = 0;
	for (int i = first; i <= last; i++)
		nlevels += is_axis_loop(kids[i], axis);
	int n = 0;
	for (int i = 0; i < acc->n; i++)
		if (acc->v[i].level < nlevels)
			acc->v[n++] = acc->v[i];
	acc->n = n;
}

/* Whether some loop in s has bounds that grow with iterator v (j <= i, j < i + W) or the
 * same end as loop row (j < N under i < N): v is then a prefill's query rows. */
static bool bounds_follow(const Stmt *s, const Stmt *row)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR && (reads_var_unindexed(s->lo, row->var) || reads_var_unindexed(s->hi, row->var) || expr_equal(s->hi, row->hi)))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (bounds_follow(s->body[i], row))
			return true;
	return false;
}

/* Whether an access in e reads both v and w in its subscripts. */
static bool index_reads_both(const Expr *e, const Var *v, const Var *w)
{
	if (!e)
		return false;
	if (e->kind == EX_INDEX) {
		bool rv = false, rw = false;
		for (int i = 0; i < e->nargs; i++) {
			rv |= expr_reads_var(e->args[i], v);
			rw |= expr_reads_var(e->args[i], w);
		}
		if (rv && rw)
			return true;
	}
	for (int i = 0; i < e->nargs; i++)
		if (index_reads_both(e->args[i], v, w))
			return true;
	return false;
}

/* Whether s, inside the loops of a row whose bounds follow it (the keys j of query row
 * `row`), reads an element at both v and j: v then picks the keys (a head of k[b][j][h][d]),
 * not only the queries. key is the innermost such loop's iterator around s, or NULL. */
static bool indexes_keys(const Stmt *s, const Var *v, const Stmt *row, const Var *key)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR && bounds_follow(s, row) && !bounds_follow(s->body[0], row))
		key = s->var;
	if (key && (index_reads_both(s->lhs, v, key) || index_reads_both(s->rhs, v, key) || index_reads_both(s->cond, v, key)))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (indexes_keys(s->body[i], v, row, key))
			return true;
	return false;
}

/* The perfect nest of loops over rows at the top of a region, as a prefill with a GQA
 * group loop writes it (`parallel(b, kh, i)` then `for (g < G)` inside, or
 * `parallel(b, kh, i, g)`, or `for (g)` between kh and i): the query rows i, whose range
 * the loops of the row follow (bounds_follow), go innermost, and the loops they pass
 * (independent: parallel, or mapping rows, maps_rows) become parallel. The tile lowering
 * then shares a CTA's rows along i, which read the same keys, not along the G heads of
 * one query. Nothing changes without such an i (a decode's group loop stays as written,
 * its G heads are the rows that share the keys). */
static void order_row_loops(Program *p, Region *r)
{
	Schedule *sc = r->loop->sched;
	enum { MAX_NEST = 16 };
	Stmt *nest[MAX_NEST];
	int n = 0;
	for (Stmt *l = r->loop; l && l->kind == ST_FOR && n < MAX_NEST && l->step == 1; l = only_stmt(l)) {
		if (!sched_parallel(sc, l->var->name) && !maps_rows(l))
			break;
		nest[n++] = l;
	}
	int row = -1;
	for (int i = 0; i < n; i++)
		if (sched_parallel(sc, nest[i]->var->name) && bounds_follow(nest[n - 1]->body[0], nest[i]))
			row = i;
	if (row < 0)
		return;
	/* the loops the rows pass, and the promoted ones outside them, must not bound each other,
	 * and the rows pass only loops over query heads (a loop that picks the keys as well, a
	 * head of k[b][j][h][d], already gives each CTA its own keys: left where it is) */
	bool moves = row < n - 1;
	for (int i = row + 1; i < n; i++)
		if (indexes_keys(nest[n - 1]->body[0], nest[i]->var, nest[row], NULL))
			return;
	for (int i = 0; i < n; i++) {
		moves |= i < row && !sched_parallel(sc, nest[i]->var->name);
		for (int k = 0; k < n; k++)
			if (k != i && (i >= row || k >= row) && (expr_reads_var(nest[i]->lo, nest[k]->var) || expr_reads_var(nest[i]->hi, nest[k]->var)))
				return;
	}
	/* every parallel loop is in the nest (the clause may name loops further in: left alone) */
	for (int k = 0; k < sc->nparallel; k++) {
		bool in = false;
		for (int i = 0; i < n; i++)
			in |= !strcmp(sc->parallel[k].loop, nest[i]->var->name);
		moves &= in;
	}
	if (!moves)
		return;
	Stmt hdr = *nest[row];
	for (int i = row; i < n - 1; i++) {
		nest[i]->var = nest[i + 1]->var;
		nest[i]->lo = nest[i + 1]->lo;
		nest[i]->hi = nest[i + 1]->hi;
		nest[i]->loc = nest[i + 1]->loc;
	}
	nest[n - 1]->var = hdr.var;
	nest[n - 1]->lo = hdr.lo;
	nest[n - 1]->hi = hdr.hi;
	nest[n - 1]->loc = hdr.loc;
	LoopArg *par = arena_alloc(&p->arena, sizeof(LoopArg) * (size_t)n);
	int np = 0;
	for (int i = 0; i < n; i++) {
		LoopArg a = {nest[i]->var->name, 0, nest[i]->loc};
		for (int k = 0; k < sc->nparallel; k++)
			if (!strcmp(sc->parallel[k].loop, a.loop))
				a = sc->parallel[k];
		par[np++] = a;
	}
	sc->parallel = par;
	sc->nparallel = np;
}

/* A region whose pragma names no parallel loop (`#pragma fuse kernel(attn)` over loops b,
 * h, i): the loops of its perfect nest, from the outside while each maps rows (every
 * iteration writes only its own elements and its own locals, maps_rows) and no clause
 * fuses over it, are parallel as if named, when they are two or more (a single loop is
 * the tiles' rows already). The dependence check (check_parallel) still holds them to it. */
static void infer_parallel(Program *p, Region *r)
{
	enum { MAX_NEST = 8 };
	Schedule *sc = r->loop->sched;
	if (sc->nparallel)
		return;
	Stmt *nest[MAX_NEST];
	int n = 0;
	for (Stmt *l = r->loop; n < MAX_NEST && l->kind == ST_FOR && maps_rows(l) && !clause_names(sc, l->var->name);) {
		nest[n++] = l;
		l = l->body[0];
		while (l->kind == ST_BLOCK && l->nbody == 1)
			l = l->body[0];
	}
	if (n < 2)
		return;
	sc->parallel = arena_alloc(&p->arena, sizeof(LoopArg) * (size_t)n);
	for (int i = 0; i < n; i++)
		sc->parallel[i] = (LoopArg){nest[i]->var->name, 0, nest[i]->loc};
	sc->nparallel = n;
}

/* Whether name is axis followed by `_` and digits: a helper's loop over axis that the front
 * end renamed because the function has loops of that name too (parse.c's local_name). */
static bool renamed_from(const char *name, const char *axis)
{
	size_t n = strlen(axis);
	if (strncmp(name, axis, n) || name[n] != '_' || !name[n + 1])
		return false;
	for (const char *q = name + n + 1; *q; q++)
		if (*q < '0' || *q > '9')
			return false;
	return true;
}

/* Whether s uses the name other than as the iterator of loops named so (their bodies
 * included, where it is that iterator). */
static bool uses_name(const Stmt *s, const char *name)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR && !strcmp(s->var->name, name))
		return expr_reads_named(s->lo, name) || expr_reads_named(s->hi, name);
	if ((s->kind == ST_DECL && !strcmp(s->var->name, name)) || expr_reads_named(s->lhs, name) || expr_reads_named(s->rhs, name) || expr_reads_named(s->cond, name) ||
	    expr_reads_named(s->lo, name) || expr_reads_named(s->hi, name))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (uses_name(s->body[i], name))
			return true;
	return false;
}

/* A clause names the axis of loops that the function writes itself and that its helpers
 * write too (`rolling(c)` with `row_max(x[r], C)` looping over c, and the row's own store
 * loop over c): the front end renamed the helpers' loops (c_2, c_3), and the clause would
 * see the store loop alone. In a block with a loop named axis, sibling loops renamed from
 * it take the name back, where nothing else there is named so (their bodies cannot read
 * a sibling's iterator). */
static void unify_clause_loops(Stmt *s, const char *axis)
{
	if (!s)
		return;
	for (int i = 0; i < s->nbody; i++)
		unify_clause_loops(s->body[i], axis);
	if (s->kind != ST_BLOCK)
		return;
	bool has = false, other = false;
	for (int i = 0; i < s->nbody; i++) {
		has |= is_axis_loop(s->body[i], axis);
		other |= uses_name(s->body[i], axis);
	}
	for (int i = 0; has && !other && i < s->nbody; i++)
		if (s->body[i]->kind == ST_FOR && renamed_from(s->body[i]->var->name, axis))
			s->body[i]->var->name = axis;
}

/* Whether e can be evaluated where its guard is false: no array read (its subscript may
 * be out of range there) and no integer division (by zero there). */
static bool safe_unguarded_value(const Expr *e)
{
	if (e->kind == EX_INDEX || (e->kind == EX_BIN && (e->bop == OP_DIV || e->bop == OP_MOD) && scalar_is_int(e->ty)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!safe_unguarded_value(e->args[i]))
			return false;
	return true;
}

/* `if (c) x = v;` of a scalar as `x = c ? v : x;` (ATen's logsumexp guard between its two
 * loops, `if (fabsf(maxes) == INFINITY) maxes = 0;`): a map of the loops' results, which a
 * pass re-evaluates as an assignment; s itself where it is no such statement. */
static Stmt *guard_as_select(Program *p, Stmt *s)
{
	if (s->kind != ST_IF || s->nbody < 1 || !s->body[0] || (s->nbody > 1 && s->body[1]))
		return s;
	Stmt *a = s->body[0];
	if (a->kind == ST_BLOCK && a->nbody == 1)
		a = a->body[0];
	if (a->kind != ST_ASSIGN || a->aop != AS_SET || a->lhs->kind != EX_VAR || !safe_unguarded_value(a->rhs) || !safe_unguarded_value(s->cond))
		return s;
	Expr *v = a->rhs->ty != a->lhs->ty ? ex_cast(p, a->lhs->ty, a->rhs, a->rhs->loc) : a->rhs;
	return st_assign(p, ex_copy(p, a->lhs), AS_SET, ex_cond(p, s->cond, v, ex_copy(p, a->lhs), s->loc), a->loc);
}

/* Whether e reads an element through an array subscript that reads v (a key's row, k[j][d]),
 * or (!with) one whose subscripts do not (the row operand, q[i][d]). */
static bool reads_elem(const Expr *e, const Var *v, bool with)
{
	if (e->kind == EX_INDEX) {
		bool r = false;
		for (int i = 0; i < e->nargs; i++)
			r |= expr_reads_var(e->args[i], v);
		if (r == with)
			return true;
	}
	for (int i = 0; i < e->nargs; i++)
		if (reads_elem(e->args[i], v, with))
			return true;
	return false;
}

/* Whether e multiplies an element that moves with v by one that does not (q[i][d] * k[j][d]
 * over j): a product of a row operand with a column operand. */
static bool row_col_product(const Expr *e, const Var *v)
{
	if (e->kind == EX_BIN && e->bop == OP_MUL &&
	    ((reads_elem(e->args[0], v, true) && reads_elem(e->args[1], v, false)) || (reads_elem(e->args[1], v, true) && reads_elem(e->args[0], v, false))))
		return true;
	if (e->kind == EX_CALL && e->fn == FN_FMA && e->nargs == 3 &&
	    ((reads_elem(e->args[0], v, true) && reads_elem(e->args[1], v, false)) || (reads_elem(e->args[1], v, true) && reads_elem(e->args[0], v, false))))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (row_col_product(e->args[i], v))
			return true;
	return false;
}

/* Whether s accumulates such a product over v into a variable (`s += q[i][d] * k[j][d]`,
 * `s = fmaf(q[i][d], k[j][d], s)`). */
static bool stmt_row_col_product(const Stmt *s, const Var *v)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && (s->aop != AS_SET || expr_reads_var(s->rhs, s->lhs->var)) && row_col_product(s->rhs, v))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_row_col_product(s->body[i], v))
			return true;
	return false;
}

/* The first innermost loop below s, not the grid's, whose steps compute a product of a
 * row operand with its own column operand (the scores of an attention; not a loop around
 * that one, whose steps hold its reduction too), with *outer the innermost loop around it
 * that is not the grid's either. */
static Stmt *product_loop(Program *p, const Schedule *sc, Stmt *s, Stmt *around, Stmt **outer)
{
	if (!s)
		return NULL;
	bool mine = s->kind == ST_FOR && !sched_parallel(sc, s->var->name);
	for (int i = 0; i < s->nbody; i++) {
		Stmt *l = product_loop(p, sc, s->body[i], mine ? s : around, outer);
		if (l)
			return l;
	}
	if (mine && steps_hold_dot(p, s, s->body[0]) && stmt_row_col_product(s->body[0], s->var)) {
		*outer = around;
		return s;
	}
	return NULL;
}

/* Whether e reads outer's iterator or a local that outer declares: a range from it. */
static bool reads_outer(const Expr *e, const Stmt *outer)
{
	if (!e)
		return false;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && (e->var == outer->var || (e->var->kind == VAR_LOCAL && stmt_declares(outer, e->var))))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_outer(e->args[i], outer))
			return true;
	return false;
}

/* Whether no subscript in e reads both iterators of pair (ctx: two Var pointers), a key
 * at jb * Bc + c (an ExprTest). */
static bool no_joined_subscript(const Expr *e, void *pair)
{
	const Var *const *v = pair;
	for (int i = 0; e->kind == EX_INDEX && i < e->nargs; i++)
		if (expr_reads_var(e->args[i], v[0]) && expr_reads_var(e->args[i], v[1]))
			return false;
	for (int i = 0; i < e->nargs; i++)
		if (!no_joined_subscript(e->args[i], pair))
			return false;
	return true;
}

/* Why region, left as written, is not fused, where a loop of it computes a product at
 * each step (an attention: the GPU printers fall back to one thread per row and say why);
 * online, why fuse_undo_online left a loop as written, or NULL. NULL where no loop does. */
static const char *unfused_product(Program *p, Stmt *region, const char *online)
{
	Stmt *outer = NULL, *l = product_loop(p, region->sched, region, NULL, &outer);
	if (!l)
		return NULL;
	if (online)
		return online;
	/* the keys walked block by block: the inner loop's range, or the keys it reads, come
	 * from the outer loop (FlashAttention's Algorithm 1, a block-sparse walk through a
	 * list of blocks), which no interchange undoes */
	const Var *pair[2] = {outer ? outer->var : NULL, l->var};
	if (outer && (reads_outer(l->lo, outer) || reads_outer(l->hi, outer) || !stmt_all_exprs(l->body[0], no_joined_subscript, (void *)pair)))
		return arena_printf(&p->arena, "the keys are walked block by block: the loop over '%s' (line %d), whose steps compute a product, runs over the keys of each step of the loop over '%s' (line %d), and fusecc fuses a walk of the keys written as one loop; write one loop over the keys (a block's test as a condition on the key, or a mask), or blocks that follow one another as 'for (j0 = 0; j0 < N; j0 += BLOCK)' with the keys of each inside",
		                    l->var->name, l->loc.line, outer->var->name, outer->loc.line);
	if (outer)
		return arena_printf(&p->arena, "the loop over '%s' (line %d), whose steps compute a product, runs inside the loop over '%s', computing the scores again for each '%s': fusecc fuses passes that sit directly in the row (put the loop over '%s' inside the one over '%s', with a row of accumulators)",
		                    l->var->name, l->loc.line, outer->var->name, outer->var->name, outer->var->name, l->var->name);
	return arena_printf(&p->arena, "the loop over '%s' (line %d) computes a product at each step, and fusecc finds no reductions over it that it fuses (a softmax's max and sums, an online softmax it can undo, or sums of products)",
	                    l->var->name, l->loc.line);
}

/* Whether e is x rounded up to whole blocks, `(x + (B - 1)) / B * B` (the keys of a block
 * loop read one key at a time, blocks.c): a range that grows with x as x does. */
static bool rounded_up_to_blocks(const Expr *e, const Expr *x)
{
	if (e->kind != EX_BIN || e->bop != OP_MUL || e->args[1]->kind != EX_INT)
		return false;
	const Expr *q = e->args[0];
	long long B = e->args[1]->ival;
	return q->kind == EX_BIN && q->bop == OP_DIV && q->args[1]->kind == EX_INT && q->args[1]->ival == B && q->args[0]->kind == EX_BIN &&
	       q->args[0]->bop == OP_ADD && q->args[0]->args[1]->kind == EX_INT && q->args[0]->args[1]->ival == B - 1 && expr_equal(q->args[0]->args[0], x);
}


static bool fuse_region(Program *p, Region *r, StrVec *names)
{
	Schedule *s = r->loop->sched;
	Cascade *c = NEW(&p->arena, Cascade);
	c->prog = p;
	c->region = r;
	c->names = names;
	interchange_group_loops(s, r->loop);
	fuse_sibling_loops(c, r->loop);
	unify_range_loops(p, s, r->loop);
	narrow_scratch_arrays(p, r->loop);
	split_reused_rows(c, r->loop);
	fold_row_updates(p, r->loop);
	arg_nest_guards(p, r->loop);
	arg_payloads(c, r->loop);
	StmtVec outer = {0};
	each_block(c, r->loop, &outer, split_fill_loops);
	each_block(c, r->loop, &outer, merge_overwritten_fills);
	vec_free(outer);
	sink_nest_locals(p, r->loop);
	forward_index_locals(p, r->loop);
	/* a position from a walk's start, `(row_ptr[qb] + kb) - row_ptr[qb]` once the front
	 * end read kb from its start and qb through its definition: kb */
	Stmt *cancelled = stmt_map_exprs(p, r->loop, cancel_terms_map, NULL);
	cancelled->sched = r->loop->sched;
	*r->loop = *cancelled;
	StmtVec around = {0};
	concat_source_loops(c, r->loop, &around);
	vec_free(around);
	infer_parallel(p, r);
	order_row_loops(p, r);
	if (p->split_rows)
		collapse_trailing_nests(c, r->loop);
	collapse_block_loops(c, r->loop, s);
	unpeel_reductions(p, r->loop);
	/* a max seeded with its first element (a numpy-style helper's `m = x[0]; for (i = 1;
	 * ..)`, renamed i_2 when inlined) has the range of the row's other loops only now */
	unify_range_loops(p, s, r->loop);
	const char *online_why = fuse_undo_online(p, r->loop);
	fuse_defer_stores(p, r->loop);
	if (s->nrolling + s->nsplitk)
		unify_clause_loops(r->loop, s->nrolling ? s->rolling[0].loop : s->splitk[0].loop);
	const char *axis = s->nrolling ? s->rolling[0].loop : s->nsplitk ? s->splitk[0].loop : choose_axis(p, r->loop);
	fuse_store_rows(c, r->loop, axis);
	picks_as_sums(p, r->loop, axis);
	hoist_guarded_loops(p, r->loop);
	forward_stored_elements(c, r->loop);
	forward_gathered_reads(p, r->loop);
	distribute_row_guard(p, r);
	sums_in_row_parts(c, r);
	if (p->split_rows)
		sums_as_rows(c, r);
	/* Every region is checked, fused or not: parallel loops must carry no dependence. */
	DepInfo *deps = deps_compute(p, r);
	if (!deps)
		return false;
	bool ok = check_parallel(s, deps, r->loop);
	if (s->nrolling) {
		c->axis = s->rolling[0].loop;
		c->strategy = STRAT_ROLLING;
		c->why = "rolling: as requested";
	} else if (s->nsplitk) {
		c->axis = s->splitk[0].loop;
		c->strategy = STRAT_SPLITK;
		c->splitk = s->splitk[0].value;
		c->why = "split-k: as requested";
	} else {
		c->axis = choose_axis(p, r->loop);
		if (!c->axis) {
			/* Nothing to fuse: the region is printed as written, rows tiled. */
			r->unfused_why = unfused_product(p, r->loop, online_why);
			deps_free(deps);
			if (ok)
				tile_row_loops(p, r, names);
			return ok;
		}
	}
	if (s->nrolling + s->nsplitk > 1) {
		Loc l = s->nrolling > 1 ? s->rolling[1].loc : s->nsplitk > 1 ? s->splitk[1].loc : s->splitk[0].loc;
		deps_free(deps);
		return error_at(l, "a region fuses one loop: give one 'rolling' or one 'splitk'"), false;
	}
	c->tile = DEFAULT_TILE;
	for (int i = 0; i < s->ntile; i++)
		if (!strcmp(s->tile[i].loop, c->axis))
			c->tile = s->tile[i].value;


	StmtVec row_loops = {0};
	Stmt *row = find_row(r->loop, c->axis, &row_loops);
	if (!row) {
		deps_free(deps);
		vec_free(row_loops);
		if (!ok)
			return false;
		Loc l = s->nrolling ? s->rolling[0].loc : s->nsplitk ? s->splitk[0].loc : s->loc;
		return error_at(l, "cannot fuse over '%s': its loops must sit in one block inside the row loops (or directly inside one loop each there)", c->axis), false;
	}
	c->row = row;
	adopt_axis_loops(row, c->axis);
	/* tile applies to the parallel loops and to the fused loop. */
	for (int i = 0; i < s->ntile; i++) {
		bool par = false;
		for (int k = 0; k < s->nparallel; k++)
			par |= !strcmp(s->parallel[k].loop, s->tile[i].loop);
		if (!par && strcmp(s->tile[i].loop, c->axis)) {
			error_at(s->tile[i].loc, "'tile' applies to the parallel loops and to the fused loop '%s'; '%s' is neither", c->axis, s->tile[i].loop);
			ok = false;
		}
	}
	/* Each loop over the axis may carry dependences only through its reductions. */
	StmtVec orig_levels = {0};
	find_loops(row, c->axis, &orig_levels);

	/* Normalise: interchange the loops that wrap an axis loop. */
	StmtVec kids = {0};
	for (int i = 0; ok && i < row->nbody; i++) {
		Stmt *k = row->body[i];
		if (!is_axis_loop(k, c->axis) && contains_axis_loop(k, c->axis)) {
			if (k->kind != ST_FOR) {
				error_at(k->loc, "a loop over '%s' under a condition cannot be fused", c->axis);
				ok = false;
			} else {
				ok &= interchange(c, k, deps, &kids);
			}
		} else {
			vec_push(kids, k);
		}
	}
	for (int i = 0; ok && i < kids.n; i++) {
		Stmt *k = kids.v[i];
		if (!is_axis_loop(k, c->axis))
			continue;
		Stmt *blk = k->body[0]->kind == ST_BLOCK ? k->body[0] : st_block(p, k->body, 1, k->body[0]->loc);
		scalarise_elements(c, blk);
		inline_elem_locals(p, blk);
		distribute_products(p, blk);
		hoist_invariants(p, blk);
		hoist_guarded_invariants(p, blk);
		if_convert_masks(p, blk);
		if (blk != k->body[0] && blk->nbody > 1)
			st_set_body(p, k, &blk, 1);
	}
	/* Whether the row is still as written (the GPU may leave it so, below). */
	bool as_written = ok && kids.n == row->nbody;
	for (int i = 0; as_written && i < kids.n; i++)
		as_written = kids.v[i] == row->body[i];
	VarVec renamed = {0}, localised = {0};
	StrVec old_names = {0};
	if (ok) {
		localise_out_accums(c, &kids, &localised);
		localise_out_scalars(c, &kids, &localised);
		defer_inits(c, &kids);
		split_finalised(c, &kids, &renamed, &old_names);
	}
	/* Levels: from the first axis loop to the last one that reduces. */
	AccumVec acc = {0};
	int first = -1, last = -1;
	for (int i = 0, level = 0; ok && i < kids.n; i++) {
		if (!is_axis_loop(kids.v[i], c->axis))
			continue;
		if (first < 0)
			first = i;
		StmtVec nest = {0};
		int before = acc.n;
		ok &= collect_accums(c, level++, kids.v[i], kids.v[i]->body[0], &nest, &acc);
		vec_free(nest);
		if (acc.n > before)
			last = reduces_besides_args(acc.v + before, acc.n - before) || !reduces_besides_args(acc.v, acc.n) ? i : last;
	}
	if (ok && last >= 0 && sink_stores(&kids, first, &last))
		as_written = false;
	if (ok && last < 0) {
		error_at(s->nrolling ? s->rolling[0].loc : s->nsplitk ? s->splitk[0].loc : s->loc, "no reduction over '%s' to fuse in this region", c->axis);
		ok = false;
	}
	if (!ok) {
		deps_free(deps);
		vec_free(kids);
		vec_free(acc);
		vec_free(row_loops);
		vec_free(orig_levels);
		vec_free(renamed);
		vec_free(old_names);
		vec_free(localised);
		return false;
	}
	/* The accumulators' vars are what the level loops may carry through (and the outputs
	 * they replace, which the loops as written reduced into). */
	Var **accvars = arena_alloc(&p->arena, sizeof(Var *) * (size_t)(2 * acc.n + localised.n + 1));
	int naccvars = 0;
	for (int i = 0; i < acc.n; i++) {
		accvars[naccvars++] = acc.v[i].var;
		if (acc.v[i].idx)
			accvars[naccvars++] = acc.v[i].idx;
	}
	for (int i = 0; i < localised.n; i++)
		accvars[naccvars++] = localised.v[i];
	for (int i = 0; i < orig_levels.n; i++) {
		Loc w = orig_levels.v[i]->loc;
		if (deps_loop_carries(deps, orig_levels.v[i], accvars, naccvars, &w)) {
			error_at(w, "this statement carries a dependence across iterations of loop '%s' that is not a reduction (a scan?): it cannot be fused", c->axis);
			ok = false;
		}
	}
	deps_free(deps);
	vec_free(orig_levels);

	/* Partition (the argmax loops after the last level run after the pass, as written). */
	drop_args_after(&acc, kids.v, first, last, c->axis);
	c->accums = to_arena(p, acc.v, acc.n, sizeof *acc.v);
	c->naccums = acc.n;
	StmtVec pre = {0}, init = {0}, levels = {0}, post = {0};
	VEC(StmtVec) mids = {0};
	/* The pass prints the statements before the first level that are not initialisations
	 * of its accumulators ahead of those that are: none may depend on the other's order. */
	for (int i = 0; ok && i < first; i++)
		for (int i2 = i + 1; ok && i2 < first; i2++) {
			bool a = is_init_of_accum(c, kids.v[i]), b = is_init_of_accum(c, kids.v[i2]);
			bool bare = (kids.v[i]->kind == ST_DECL && !kids.v[i]->rhs) || (kids.v[i2]->kind == ST_DECL && !kids.v[i2]->rhs);
			/* (only an initialisation before another statement changes places; a
			 * declaration without a value orders nothing) */
			if (!a || b || bare)
				continue;
			VarVec w1 = {0}, w2 = {0};
			collect_writes(kids.v[i], &w1);
			collect_writes(kids.v[i2], &w2);
			const Var *clash = NULL;
			for (int q = 0; !clash && q < w1.n; q++)
				if (stmt_reads_var(kids.v[i2], w1.v[q]) || stmt_writes_var(kids.v[i2], w1.v[q]))
					clash = w1.v[q];
			for (int q = 0; !clash && q < w2.n; q++)
				if (stmt_reads_var(kids.v[i], w2.v[q]))
					clash = w2.v[q];
			vec_free(w1);
			vec_free(w2);
			if (clash) {
				error_at(kids.v[i2]->loc, "this statement uses '%s', as the initialisation at line %d does, and the fused pass would run the two in the other order (it initialises the accumulators of the loops over '%s' last, just before them): move the initialisation after this statement, or this statement after the loops",
				         clash->name, kids.v[i]->loc.line, c->axis);
				ok = false;
			}
		}
	for (int i = 0; ok && i < kids.n; i++) {
		Stmt *k = kids.v[i];
		if (i < first) {
			if (is_init_of_accum(c, k))
				vec_push(init, k);
			else
				vec_push(pre, k);
		} else if (i > last) {
			vec_push(post, k);
		} else if (is_axis_loop(k, c->axis)) {
			if (!expr_equal(k->lo, kids.v[first]->lo) || !expr_equal(k->hi, kids.v[first]->hi)) {
				StrBuf r1 = {0}, r2 = {0};
				print_expr(&r1, k->lo), sb_puts(&r1, ", "), print_expr(&r1, k->hi);
				print_expr(&r2, kids.v[first]->lo), sb_puts(&r2, ", "), print_expr(&r2, kids.v[first]->hi);
				/* the hint only where a loop starts one element in (a max seeded with x[0]) */
				const Expr *l0 = k->lo, *l1 = kids.v[first]->lo;
				bool seeded = !expr_equal(l0, l1) && ((l0->kind == EX_INT && l0->ival == 1) || (l1->kind == EX_INT && l1->ival == 1));
				error_at(k->loc, "the loops over '%s' must all have the same range to be fused: this one runs over [%s), the one at line %d over [%s)%s",
				         c->axis, r1.s, kids.v[first]->loc.line, r2.s,
				         seeded ? " (a max seeded with the first element and taken from the next, `m = x[0]; for (c = 1; ...)`, is accepted where the seed is the loop's own value at that element)" : "");
				sb_free(&r1);
				sb_free(&r2);
				ok = false;
			}
			vec_push(levels, k);
			vec_push(mids, ((StmtVec){0}));
		} else {
			/* Between levels: a map of earlier results, or an init hoisted to the front. */
			k = kids.v[i] = guard_as_select(p, k);
			bool is_map = false;
			for (int a = 0; a < c->naccums; a++)
				if (stmt_reads_var(k, c->accums[a].var))
					is_map = true;
			for (int m = 0; m < mids.n; m++)
				for (int q = 0; q < mids.v[m].n; q++) {
					Stmt *ms = mids.v[m].v[q];
					Var *mv = ms->kind == ST_DECL ? ms->var : ms->lhs->var;
					if (stmt_reads_var(k, mv))
						is_map = true;
				}
			if (is_map) {
				if (contains_axis_loop(k, c->axis) || (k->kind != ST_DECL && k->kind != ST_ASSIGN) || (k->kind == ST_ASSIGN && k->lhs->kind != EX_VAR)) {
					error_at(k->loc, "between the loops over '%s', a statement that reads their results must be a scalar assignment (it is re-evaluated at every step)", c->axis);
					ok = false;
				} else if (k->kind == ST_DECL) {
					/* `float inv = F(ss)`: declared with the inits, assigned after its level. */
					vec_push(init, st_decl(p, k->var, NULL, k->loc));
					Expr *lhs = ev(p, k->var);
					Stmt *as = st_assign(p, lhs, AS_SET, k->rhs, k->loc);
					vec_push(mids.v[mids.n - 1], as);
				} else {
					/* re-run at every step, `t += m` adds m again each time: only after the
					 * same block has set t (`logz = logf(z); logz += mx;`) */
					bool reset = k->aop == AS_SET;
					for (int q = 0; !reset && q < mids.v[mids.n - 1].n; q++) {
						Stmt *ms = mids.v[mids.n - 1].v[q];
						reset = ms->kind == ST_ASSIGN && ms->aop == AS_SET && ms->lhs->kind == EX_VAR && ms->lhs->var == k->lhs->var;
					}
					if (!reset) {
						error_at(k->loc, "between the loops over '%s', '%s' is updated from their results (re-evaluated at every step of the fused pass, the update would repeat): compute the value after the last loop over '%s', or set '%s' here first",
						         c->axis, k->lhs->var->name, c->axis, k->lhs->var->name);
						ok = false;
					}
					vec_push(mids.v[mids.n - 1], k);
				}
			} else {
				for (int q = 0; q < levels.n; q++)
					if (stmt_reads_var(levels.v[q], k->kind == ST_DECL ? k->var : NULL) ||
					    (k->kind == ST_ASSIGN && stmt_reads_var(levels.v[q], k->lhs->var))) {
						error_at(k->loc, "this statement writes a variable that an earlier loop over '%s' reads: it cannot be hoisted before the fused pass", c->axis);
						ok = false;
					}
				/* Nor may it read what an earlier level writes (a loop over the scores
				 * that another iterator counts): hoisted, it would read them unwritten. */
				VarVec w = {0};
				for (int q = 0; ok && q < levels.n; q++)
					collect_writes(levels.v[q], &w);
				for (int v = 0; ok && v < w.n; v++)
					if (stmt_reads_var(k, w.v[v])) {
						error_at(k->loc, "this statement reads '%s', which the loop over '%s' before it writes, but it is not a loop over '%s' itself: it cannot be fused (count it with '%s', over the same range, or move it after the last loop over '%s')",
						         w.v[v]->name, c->axis, c->axis, c->axis, c->axis);
						ok = false;
					}
				vec_free(w);
				/* A row array declared between the loops (`float e[n];` after the max's),
				 * not an accumulator (each chunk has its own), is the row's, as if declared
				 * before them: the split-k block keeps it out of the chunks. */
				bool accum = false;
				for (int a = 0; a < c->naccums; a++)
					accum |= k->kind == ST_DECL && c->accums[a].var == k->var;
				if (row_array_decl(k) && !accum)
					vec_push(pre, k);
				else
					vec_push(init, k);
			}
		}
	}
	c->pre = to_arena(p, pre.v, pre.n, sizeof *pre.v);
	c->npre = pre.n;
	c->init = to_arena(p, init.v, init.n, sizeof *init.v);
	c->ninit = init.n;
	c->levels = to_arena(p, levels.v, levels.n, sizeof *levels.v);
	c->nlevels = levels.n;
	c->post = to_arena(p, post.v, post.n, sizeof *post.v);
	c->npost = post.n;
	c->mids = arena_alloc(&p->arena, sizeof(Stmt **) * (size_t)(mids.n + 1));
	c->nmids = arena_alloc(&p->arena, sizeof(int) * (size_t)(mids.n + 1));
	for (int i = 0; i < mids.n; i++) {
		c->mids[i] = to_arena(p, mids.v[i].v, mids.v[i].n, sizeof *mids.v[i].v);
		c->nmids[i] = mids.v[i].n;
	}
	vec_free(mids);
	for (int a = 0; ok && a < c->naccums; a++) {
		const char *name = c->accums[a].var->name; /* as the user wrote it (split_finalised renames) */
		for (int i = 0; i < renamed.n; i++)
			if (renamed.v[i] == c->accums[a].var)
				name = old_names.v[i];
		ok &= check_no_partial_reads(c, c->levels[c->accums[a].level]->body[0], &c->accums[a], name);
	}
	/* Producers: accumulators and maps read by a later level. */
	ProducerVec prods = {0};
	for (int k = 0; ok && k < c->nlevels; k++) {
		for (int a = 0; a < c->naccums; a++)
			if (c->accums[a].level < k && stmt_reads_var(c->levels[k], c->accums[a].var))
				add_producer(c->accums[a].var, c->accums[a].level, &prods);
		for (int m = 0; m < k; m++)
			for (int q = 0; q < c->nmids[m]; q++)
				if (stmt_reads_var(c->levels[k], c->mids[m][q]->lhs->var))
					add_producer(c->mids[m][q]->lhs->var, m, &prods);
		for (int a = 0; a < c->naccums; a++)
			if (c->accums[a].level > k && stmt_reads_var(c->levels[k], c->accums[a].var)) {
				error_at(c->levels[k]->loc, "this loop reads '%s' before the loop over '%s' that computes it", c->accums[a].var->name, c->axis);
				ok = false;
			}
	}
	c->producers = to_arena(p, prods.v, prods.n, sizeof *prods.v);
	c->nproducers = prods.n;
	for (int i = 0; ok && i < c->nproducers; i++) {
		Producer *pr = &c->producers[i];
		if (pr->var->ndim) {
			error_at(pr->var->loc, "the result '%s' is an array: only scalar results may feed a later reduction", pr->var->name);
			ok = false;
			continue;
		}
	}
	for (int k = 0; ok && k < c->nlevels; k++)
		ok &= check_stored_maps(c, k, c->levels[k]);
	/* With neither clause, a row reduction whose repairs cannot be derived (a variance, sum
	 * of (x - mean)^2) is left as written, the refusal becoming a warning: emit_rows.c runs
	 * its loops one after another, and the fused C is the original's loops (every target
	 * prints what the other does). Only a row not rewritten (no interchange). The repairs'
	 * diagnostics are held until it is known which; a held error stays counted in
	 * error_count(), which the driver reads only before fusing. */
	bool rows_unfused = ok && !s->nrolling && !s->nsplitk && is_row_reduction(c) && as_written;
	FILE *diag_saved = diag_stream;
	char *held = NULL;
	size_t nheld = 0;
	int internal_before = internal_error_count();
	if (rows_unfused && !(diag_stream = open_memstream(&held, &nheld))) {
		diag_stream = diag_saved;
		rows_unfused = false;
	}
	Loc kept_at = {0};
	for (int k = 0; ok && k < c->nlevels; k++)
		ok &= check_kept_arrays(c, k, c->levels[k], &kept_at);
	/* Repairs: first whether each contribution has one, in order (a sum with none is
	 * tried as a sum of separable terms), and that a repaired sum starts at 0; then, with
	 * the producers settled, the repairs themselves. */
	const Stmt *failed = NULL;
	int nexpanded = 0;
	for (int a = 0; ok && a < c->naccums; a++) {
		Accum *ac = &c->accums[a];
		/* An if around the reduction deciding from an earlier result which elements count
		 * (min-p's `if (p >= min_p) z += p;`, `if (x == m) n++;`) would test the partial
		 * result during the pass: no repair rescales that choice. */
		Expr *guard = conds_around(p, c->levels[ac->level], ac->stmt);
		guard = guard ? inline_locals(c, guard, ac->level, ac->stmt, 0) : NULL;
		if (!check_resolved(c, ac->stmt))
			ok = false;
		const Var *read = guard ? repair_reads_producer(c, guard) : NULL;
		if (read) {
			error_at(ac->stmt->loc, "cannot fuse the reduction into '%s' over '%s': whether an element counts depends on '%s', a result of an earlier loop over '%s' (the condition at line %d), "
			                        "which the fused pass knows only partially (no repair changes which elements were counted)",
			         ac->var->name, c->axis, read->name, c->axis, guard->loc.line);
			ok = false;
			failed = ac->stmt;
		}
	}
	for (int a = 0; ok && a < c->naccums; a++) {
		Accum *ac = &c->accums[a];
		ac->g = inline_locals(c, ac->g, ac->level, ac->stmt, 0);
		if (!check_resolved(c, ac->stmt)) {
			ok = false;
			break;
		}
		if (!reads_producer(c, ac->g))
			continue;
		const char *why = NULL;
		if (ac->idx) {
			error_at(ac->stmt->loc, "cannot fuse the argmax into '%s' over '%s': its value reads results of earlier loops over '%s' (an argmax takes no repair); compute it from the inputs, or in a loop after the last sum", ac->var->name, c->axis, c->axis);
			ok = false;
			continue;
		}
		if (!repair_separable(c, ac, &why)) {
			Stmt *st = ac->stmt;
			if (ac->red == RED_ADD) {
				ok = expand_sum(c, a, why);
				nexpanded++;
				a--; /* its groups, in its place */
			} else {
				error_at(ac->stmt->loc, "cannot fuse the reduction into %s over '%s': %s", accum_quoted(c->prog, ac), c->axis, why);
				ok = false;
			}
			if (!ok)
				failed = st;
			continue;
		}
		if (ac->red == RED_ADD) {
			Stmt *is;
			if (!is_zero(accum_init_value(c, ac->var, &is))) {
				error_at(is ? is->loc : ac->stmt->loc, "the sum '%s' reads earlier results and is repaired as it goes: it must start at 0%s", ac->var->name, OTHER_START);
				ok = false;
			}
		}
	}
	if (ok && nexpanded)
		settle_expansions(c);
	for (int i = 0; ok && i < c->nproducers; i++) {
		Producer *pr = &c->producers[i];
		pr->used = fresh_var(c, arena_printf(&p->arena, "%s_used", pr->var->name), pr->var->ty == TY_DOUBLE ? TY_DOUBLE : TY_FLOAT, VAR_LOCAL);
		pr->prev = fresh_var(c, arena_printf(&p->arena, "%s_prev", pr->var->name), pr->used->ty, VAR_LOCAL);
	}
	for (int a = 0; ok && a < c->naccums; a++)
		if (reads_producer(c, c->accums[a].g))
			ok &= repair_derive(c, &c->accums[a]);
	for (int a = 0; ok && a < c->naccums; a++) {
		Repair *rp = c->accums[a].repair;
		if (!rp)
			continue;
		for (int k = 0; k < c->nproducers; k++)
			for (int f = 0; f < rp->nfactors + rp->ninv_factors; f++) {
				Expr *fe = f < rp->nfactors ? rp->factors[f] : rp->inv_factors[f - rp->nfactors];
				if (expr_reads_var(fe, c->producers[k].var))
					c->producers[k].in_factor = true;
			}
	}
	for (int a = 0; ok && a < c->naccums; a++)
		ok &= shifts_by_bounds(c, &c->accums[a]);
	/* Checked once every producer is known to be a factor or not: that sets the range of
	 * the test points (a divisor is tried at positive values only). */
	for (int a = 0; ok && a < c->naccums; a++)
		if (c->accums[a].repair)
			ok &= repair_validate(c, &c->accums[a]);
	if (rows_unfused) {
		fclose(diag_stream);
		diag_stream = diag_saved;
		const char *m = held ? strstr(held, ": error: ") : NULL;
		if (!ok && internal_error_count() == internal_before && m) {
			Loc at = kept_at.line ? kept_at : s->loc;
			for (int a = c->naccums - 1; !kept_at.line && a >= 0; a--)
				if (!c->accums[a].repair && reads_producer(c, c->accums[a].g))
					at = c->accums[a].stmt->loc;
			if (failed && !kept_at.line)
				at = failed->loc;
			/* The region is printed as written: the results take their names back. */
			for (int i = 0; i < renamed.n; i++)
				renamed.v[i]->name = old_names.v[i];
			m += strlen(": error: ");
			warning_at(at, "%.*s; with neither 'rolling' nor 'splitk' the region is left as written: %s runs the row's loops one after another", (int)strcspn(m, "\n"), m,
			           p->split_rows ? "its GPU kernel" : "the fused C");
			free(held);
			vec_free(row_loops);
			vec_free(kids);
			vec_free(renamed);
			vec_free(old_names);
			vec_free(localised);
			tile_row_loops(p, r, names);
			return true;
		}
		fwrite(held, 1, nheld, diag_stream ? diag_stream : stderr);
		free(held);
	}
	/* Split-k when the rows do not scale with the reduction (decode). They do when the
	 * reduction runs as far as a row loop (self-attention), moves with a row (causal `j <=
	 * i`), or when a row loop's own end is read per row (varlen prefill's `i < q_len[b]`). A
	 * length looked up by an outer row loop's index (`j < kv_len[b]`, `pg < n_pages[b]`
	 * over parallel(b, kh, g)) is the sequence's, shared by the rows inside it (GQA's query
	 * heads), not one that grows with them; one looked up by the innermost (`i < lens[r]`)
	 * is a row's. With neither clause the fuser chooses so. Under `rolling` on the GPU
	 * such a region gets a split-k twin too (c->twin), which the launcher runs where the
	 * grid leaves SMs idle: one CTA per group of a decode's few rows walking every key
	 * (an MQA decode: B CTAs), while the same loops over thousands of cross-attention
	 * queries fill the GPU without a merge pass. */
	bool rows_scale = false;
	for (int i = 0; i < row_loops.n; i++) {
		bool outer = i < row_loops.n - 1;
		if (expr_reads_element(row_loops.v[i]->hi))
			rows_scale = true;
		for (int k = 0; k < c->nlevels; k++)
			if (expr_equal(row_loops.v[i]->hi, c->levels[k]->hi) || rounded_up_to_blocks(c->levels[k]->hi, row_loops.v[i]->hi) ||
			    (outer ? reads_var_unindexed(c->levels[k]->hi, row_loops.v[i]->var) : expr_reads_var(c->levels[k]->hi, row_loops.v[i]->var)))
				rows_scale = true;
	}
	/* A row-local array written by the passes and read after them (scores kept for the
	 * final division) would live in the chunk kernel only once the GPU's one-thread
	 * fallback splits the row: such a row is not split unless asked (the printer refuses
	 * it then). A row reduction's CTA per row keeps such an array whole (emit_rows.c). */
	StmtVec after = {0}; /* what the merge runs: the initialisations again, then post */
	for (int i = 0; i < c->ninit; i++)
		vec_push(after, c->init[i]);
	for (int i = 0; i < c->npost; i++)
		vec_push(after, c->post[i]);
	bool carried = stmts_carried_array(c->pre, c->npre, c->levels, c->nlevels, after.v, after.n);
	vec_free(after);
	if (carried)
		rows_scale = true;
	if (ok && c->strategy == STRAT_ROLLING && !s->nrolling && !s->nsplitk) {
		c->strategy = rows_scale ? STRAT_ROLLING : STRAT_SPLITK;
		c->why = rows_scale ? "rolling: chosen, the rows grow with the reduction (prefill-like)"
		                    : "split-k: chosen, the rows do not grow with the reduction (decode-like)";
	} else if (ok && p->split_rows && c->strategy == STRAT_ROLLING && !rows_scale && !is_row_reduction(c)) {
		if (p->decode_splitk) {
			c->strategy = STRAT_SPLITK;
			c->splitk = 0;
			c->why = "split-k: the twin of a decode-like region under 'rolling', for grids smaller than the GPU";
		} else {
			c->twin = true;
		}
	}
	if (ok && p->split_rows && c->strategy == STRAT_ROLLING && is_row_reduction(c)) {
		c->strategy = STRAT_SPLITK;
		c->splitk = 0;
		c->why = "split-k: a row reduction, for the CTA-per-row lowering";
	}
	vec_free(row_loops);
	vec_free(kids);
	vec_free(renamed);
	vec_free(old_names);
	vec_free(localised);
	if (!ok)
		return false;
	decide_deferrals(c);
	arg_positions(c);
	Stmt *fused = c->strategy == STRAT_ROLLING ? build_rolling(c) : build_splitk(c);
	row->nbody = fused->nbody;
	row->body = fused->body;
	tile_row_loops(p, r, names);
	vec_push(cascades, c);
	return true;
}

bool fuse_program(Program *p)
{
	bool ok = true;
	/* The cascades of an earlier program point into its freed arena. */
	cascades.n = 0;
	for (int f = 0; f < p->nfuncs; f++) {
		Func *fn = p->funcs[f];
		StrVec *names = NEW(&p->arena, StrVec);
		vec_push(*names, fn->name);
		for (int i = 0; i < func_nkparams(fn); i++)
			vec_push(*names, func_kparam(fn, i)->name);
		for (int r = 0; r < fn->nregions; r++)
			collect_names(fn->regions[r]->loop, names);
		for (int r = 0; r < fn->nregions; r++)
			ok &= fuse_region(p, fn->regions[r], names);
		vec_free(*names); /* fresh names are only made while fusing */
	}
	return ok;
}

Cascade *fuse_cascade_of(const Region *r)
{
	for (int i = 0; i < cascades.n; i++)
		if (cascades.v[i]->region == r)
			return cascades.v[i];
	return NULL;
}

void fuse_describe(StrBuf *b, const Cascade *c)
{
	sb_printf(b, "fused axis '%s', %s, tile %ld", c->axis, c->why, c->tile);
	if (c->strategy == STRAT_SPLITK)
		c->splitk ? sb_printf(b, ", %ld chunks", c->splitk) : sb_printf(b, ", chunks of %d", SPLITK_CHUNK);
	sb_puts(b, "\n");
	for (int k = 0; k < c->nlevels; k++) {
		sb_printf(b, "level %d (line %d):", k, c->levels[k]->loc.line);
		int n = 0;
		for (int i = 0; i < c->naccums; i++)
			if (c->accums[i].level == k) {
				sb_printf(b, "%s %s (%s)", n++ ? "," : "", c->accums[i].var->name, reducer_name(c->accums[i].red));
			}
		if (!n)
			sb_puts(b, " (map only)");
		sb_puts(b, "\n");
	}
	for (int i = 0; i < c->naccums; i++) {
		const Accum *a = &c->accums[i];
		sb_printf(b, "  %s %s= ", a->var->name, reducer_name(a->red));
		print_expr(b, a->g);
		sb_puts(b, "\n");
		if (a->repair) {
			sb_puts(b, "    repair: ");
			repair_describe(b, c, a);
			sb_puts(b, "\n");
		}
	}
	for (int i = 0; i < c->nrecombined; i++) {
		sb_puts(b, "  sum of separable terms: ");
		print_stmt(b, c->recombined[i], 0);
	}
}
