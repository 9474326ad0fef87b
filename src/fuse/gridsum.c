/* gridsum.c: sums (maxima, minima) across the rows into one output element.
 *
 * A loss averaged over the tokens (PyTorch's reduction='mean') is written with every row
 * adding its contribution to one element of an output the caller zeroed:
 *
 *     for (t ...) { ...the row's reductions...; loss[0] += l / T; }
 *
 * The loop over t then carries a dependence through loss[0], but only through a sum,
 * which may run in any order: such a *grid sum* does not stop t from being parallel. The
 * fused C keeps the statement as written. The CTA-per-row kernels add a row's
 * contributions in a register and store it to a workspace, and a second kernel sums the
 * rows' partials in a fixed order into the element (emit_rows.c): the same result on
 * every run, never atomics. A maximum (`amax = fmaxf(amax, fabsf(x[i]));`, the scale of
 * an fp8 cast) or a minimum across the rows runs the same way, exactly. */
#include "fuse.h"

#include <math.h>

/* The kind of grid step s is (ACCUM_NONE: none): `P[lit] += e` or `-=`, `P[lit] =
 * fmaxf(P[lit], e)` or fminf, P a parameter array of one dimension of float, double or
 * (sums of integers only) integers, the subscript an integer literal, e not reading P; or such a
 * step of a set-up scalar the front end found only so accumulated (Var.accum: `total +=
 * l;`, `amax = fmaxf(amax, a);`). */
static AccumKind grid_step(const Stmt *s)
{
	if (s->kind != ST_ASSIGN)
		return ACCUM_NONE;
	const Var *v = s->lhs->var;
	AccumKind k = accum_step(s, s->lhs);
	if (s->lhs->kind == EX_VAR)
		return v->accum && k == v->accum ? k : ACCUM_NONE;
	/* an integer's steps integers too: `n[0] += 0.5f` truncates at each, in C's order */
	bool number = v->ty == TY_FLOAT || v->ty == TY_DOUBLE || (k == ACCUM_SUM && (v->ty == TY_INT || v->ty == TY_I64) && scalar_is_int(s->rhs->ty));
	bool elem = s->lhs->kind == EX_INDEX && v->kind == VAR_PARAM && !v->is_const && v->ndim == 1 && s->lhs->args[0]->kind == EX_INT;
	return elem && number ? k : ACCUM_NONE;
}

typedef struct StepsInto {
	const Var *v;
	const GridSums *g; /* the steps seen so far, into elements of v among others */
} StepsInto;

/* For stmt_only_accesses: a grid step into v, into an element g holds (not one left out
 * when g was full), of the kind g holds for it; else v's. */
static int steps_into(const Stmt *s, void *ctx)
{
	const StepsInto *a = ctx;
	AccumKind k = grid_step(s);
	if (!k || s->lhs->var != a->v)
		return -1;
	int at = grid_sum_of(a->g, s->lhs);
	return at >= 0 && a->g->kinds[at] == k;
}

/* Whether every access of v in s is a grid step into one of its elements, each element
 * (as g holds them) stepped into one way (`stats[0] += x; stats[1] += x * x;`: each
 * element a sum of its own). */
static bool only_grid_steps(const Stmt *s, const Var *v, const GridSums *g)
{
	StepsInto a = {v, g};
	return stmt_only_accesses(s, v, steps_into, &a);
}

/* Appends grid step s's element to g, once each. */
static void add_sum(const Stmt *s, GridSums *g)
{
	if (grid_sum_of(g, s->lhs) >= 0 || g->n >= MAX_GRID_SUMS)
		return;
	g->vars[g->n] = s->lhs->var;
	g->kinds[g->n] = grid_step(s);
	g->elems[g->n++] = s->lhs;
}

static void collect(const Stmt *s, GridSums *g)
{
	if (!s)
		return;
	if (grid_step(s)) {
		add_sum(s, g);
		return;
	}
	for (int i = 0; i < s->nbody; i++)
		collect(s->body[i], g);
}

/* g without the sums into v. */
static void drop_var(GridSums *g, const Var *v)
{
	int n = 0;
	for (int i = 0; i < g->n; i++)
		if (g->vars[i] != v) {
			g->vars[n] = g->vars[i];
			g->kinds[n] = g->kinds[i];
			g->elems[n++] = g->elems[i];
		}
	g->n = n;
}

void grid_sums(const Stmt *region, GridSums *g)
{
	g->n = 0;
	collect(region, g);
	for (int i = 0; i < g->n; i++)
		if (!only_grid_steps(region, g->vars[i], g)) {
			drop_var(g, g->vars[i]);
			i = -1;
		}
}

int grid_sum_of(const GridSums *g, const Expr *e)
{
	for (int i = 0; i < g->n; i++)
		if (e->var == g->vars[i] && (e->kind != EX_INDEX || expr_equal(e, g->elems[i])))
			return i;
	return -1;
}

const char *grid_sum_base(Program *p, const GridSums *g, int k)
{
	bool several = false;
	for (int i = 0; i < g->n; i++)
		several |= i != k && g->vars[i] == g->vars[k];
	if (!several)
		return g->vars[k]->name;
	return arena_printf(&p->arena, "%s%lld", g->vars[k]->name, g->elems[k]->args[0]->ival);
}

ScalarType grid_sum_type(const Var *v) { return v->ty == TY_FLOAT || v->ty == TY_DOUBLE ? v->ty : TY_I64; }

Expr *grid_identity(Program *p, AccumKind k, ScalarType ty, Loc loc)
{
	if (k == ACCUM_SUM)
		return scalar_is_float(ty) ? ex_flt(p, 0.0, ty, loc) : ex_int(p, 0, loc);
	return ex_flt(p, k == ACCUM_MAX ? -INFINITY : INFINITY, ty, loc);
}
