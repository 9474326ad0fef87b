/* gridsum.c: sums across the rows into one output element.
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
 * every run, never atomics. */
#include "fuse.h"

/* `P[lit] += e` or `-=`: P a parameter array of one dimension of float, double or
 * integers, the subscript an integer literal, e not reading P; or `v += e` of a set-up
 * scalar the front end found only added to (Var.accum: `total += l;`). */
static bool grid_sum_stmt(const Stmt *s)
{
	if (s->kind != ST_ASSIGN || (s->aop != AS_ADD && s->aop != AS_SUB))
		return false;
	const Var *v = s->lhs->var;
	if (s->lhs->kind == EX_VAR)
		return v->accum && !expr_reads_var(s->rhs, v);
	bool number = v->ty == TY_FLOAT || v->ty == TY_DOUBLE || v->ty == TY_INT || v->ty == TY_I64;
	return s->lhs->kind == EX_INDEX && v->kind == VAR_PARAM && !v->is_const && number && v->ndim == 1 && s->lhs->args[0]->kind == EX_INT && !expr_reads_var(s->rhs, v);
}

/* For stmt_only_accesses: a grid sum into v (at any literal element), else v's. */
static int sums_into(const Stmt *s, void *ctx)
{
	return grid_sum_stmt(s) && s->lhs->var == ctx ? 1 : -1;
}

/* Whether every access of v in s is a grid sum into one of its elements (`stats[0] +=
 * x; stats[1] += x * x;`: each element a sum of its own). */
static bool only_grid_sums(const Stmt *s, const Var *v) { return stmt_only_accesses(s, v, sums_into, (void *)v); }

/* Appends grid sum s's element to g, once each, when every access of its variable in the
 * region is a grid sum. */
static void add_sum(const Stmt *region, const Stmt *s, GridSums *g)
{
	for (int i = 0; i < g->n; i++)
		if (g->vars[i] == s->lhs->var && expr_equal(g->elems[i], s->lhs))
			return;
	if (g->n < MAX_GRID_SUMS && only_grid_sums(region, s->lhs->var)) {
		g->vars[g->n] = s->lhs->var;
		g->elems[g->n++] = s->lhs;
	}
}

static void collect(const Stmt *region, const Stmt *s, GridSums *g)
{
	if (!s)
		return;
	if (grid_sum_stmt(s)) {
		add_sum(region, s, g);
		return;
	}
	for (int i = 0; i < s->nbody; i++)
		collect(region, s->body[i], g);
}

void grid_sums(const Stmt *region, GridSums *g)
{
	g->n = 0;
	collect(region, region, g);
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
