/* heads.c: query heads that share a KV head, regrouped for the tiles (see tile.h).
 *
 * A decode written per query head, `parallel(b, h)` reading q[b][h][d] and k[b][h / G][j][d]
 * (llama.cpp's `h / gqa_ratio`, HF's `h / n_rep`, llama2.c's `h / kv_mul`), has one query
 * row per CTA: each CTA loads its KV head's K and V for itself, G times in all, and pads
 * its one row to a 16-row tile. Written as the group loop the user could have written,
 *
 *     for (h_kv = 0; h_kv < H / G; h_kv++)          parallel, in h's place
 *         for (h_g = 0; h_g < G; h_g++)              the rows of one CTA
 *             body with h / G read as h_kv, and h as h_kv * G + h_g
 *
 * the G query heads of a KV head are the rows of one CTA (tile_plan's group loop between
 * the grid and the row), which loads K and V once for them. The two programs are the same
 * when G divides H, which the launcher checks (tile.h, TilePlan.heads). The same holds for
 * one flat loop over B*H*N query rows reading K and V at r / N (and the row at r % N):
 * then the group is a head's N rows. */
#include "tile.h"

#include <string.h>

/* `h / den` or `h % den` */
static bool is_div_of(const Expr *e, const Var *h)
{
	return e->kind == EX_BIN && (e->bop == OP_DIV || e->bop == OP_MOD) && e->ty == TY_INT && e->args[0]->kind == EX_VAR && e->args[0]->var == h;
}

/* The reads of h in a region's row: as `h / den` or `h % den` (one den throughout, a host
 * size, set by the first) and otherwise. */
typedef struct HeadReads {
	const Var *h;
	const Expr *den;
	int ndiv, nplain;
} HeadReads;

/* Counts e's reads of h into hr (an ExprTest); false where two divisors differ or one is
 * no host size. */
static bool count_reads(const Expr *e, void *ctx)
{
	HeadReads *hr = ctx;
	if (is_div_of(e, hr->h)) {
		if (hr->den ? !expr_equal(hr->den, e->args[1]) : !tile_host_expr(e->args[1]))
			return false;
		hr->den = e->args[1];
		hr->ndiv += e->bop == OP_DIV;
		return true;
	}
	if (e->kind == EX_VAR && e->var == hr->h)
		hr->nplain++;
	for (int i = 0; i < e->nargs; i++)
		if (!count_reads(e->args[i], ctx))
			return false;
	return true;
}

/* Whether a local array declared in s has an extent that reads h (the rewrite leaves
 * extents as they are). */
static bool extent_reads(const Stmt *s, const Var *h)
{
	if (!s)
		return false;
	if (s->kind == ST_DECL)
		for (int d = 0; d < s->var->ndim; d++)
			if (s->var->dims[d] && expr_reads_var(s->var->dims[d], h))
				return true;
	for (int i = 0; i < s->nbody; i++)
		if (extent_reads(s->body[i], h))
			return true;
	return false;
}

typedef struct Regroup {
	const Var *h;
	const Expr *den;
	Var *kv, *g;
} Regroup;

/* e with h / den read as kv, h % den as g, and h as kv * den + g (an ExprMap). */
static Expr *regroup_expr(Program *p, const Expr *e, void *ctx)
{
	const Regroup *rg = ctx;
	if (is_div_of(e, rg->h) && expr_equal(e->args[1], rg->den))
		return ex_var(p, e->bop == OP_DIV ? rg->kv : rg->g, e->loc);
	if (e->kind == EX_VAR && e->var == rg->h)
		return ex_bin(p, OP_ADD, ex_bin(p, OP_MUL, ex_var(p, rg->kv, e->loc), ex_copy(p, rg->den), e->loc), ex_var(p, rg->g, e->loc), e->loc);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = regroup_expr(p, e->args[i], ctx);
	return c;
}

/* The parallel loop of r's grid that reads K and V at h / den (*den set), or NULL: the
 * innermost grid loop from 0 by 1 with no row loop inside, read both as h / den (one den,
 * a host size) and as h, nowhere in a local array's extent or (split-k) in the pass's range. */
static const GridLoop *heads_loop(const Region *r, GridLoop *grid, const Expr **den)
{
	int n;
	Stmt *body = grid_loops(r, grid, &n);
	Cascade *c = fuse_cascade_of(r);
	if (!c || !n || body->kind == ST_FOR)
		return NULL;
	const GridLoop *g = &grid[n - 1];
	HeadReads hr = {g->var, NULL, 0, 0};
	if (g->tile || g->lo->kind != EX_INT || g->lo->ival != 0 || !stmt_all_exprs(body, count_reads, &hr) || !hr.ndiv || !hr.nplain ||
	    extent_reads(body, g->var))
		return NULL;
	*den = hr.den;
	/* split-k's planner reads the pass's range from the cascade, which is not rewritten */
	for (int l = 0; l < c->nlevels && c->strategy == STRAT_SPLITK; l++)
		if (expr_reads_var(c->levels[l]->lo, g->var) || expr_reads_var(c->levels[l]->hi, g->var))
			return NULL;
	return g;
}

bool heads_candidate(const Region *r)
{
	GridLoop grid[MAX_GRID];
	const Expr *den;
	return heads_loop(r, grid, &den) != NULL;
}

/* Rewrites r's nest (r->loop replaced, the user's kept in hg); false where it does not
 * apply (heads_loop). */
static bool heads_regroup(Program *p, Region *r, HeadGroup *hg)
{
	GridLoop grid[MAX_GRID];
	const Expr *den;
	const GridLoop *gl = heads_loop(r, grid, &den);
	if (!gl)
		return false;
	Cascade *c = fuse_cascade_of(r);
	StrVec *names = tile_names(r);
	Regroup rg = {gl->var, den, NULL, NULL};
	rg.kv = fresh_var(c, arena_printf(&p->arena, "%s_kv", gl->var->name), TY_INT, VAR_LOOP);
	rg.g = fresh_var(c, arena_printf(&p->arena, "%s_g", gl->var->name), TY_INT, VAR_LOOP);
	vec_free(*names); /* tile_plan makes the list again, with these */
	/* The nest down to h's loop, copied; h's loop becomes kv's, its body g's loop. */
	Stmt *nest = stmt_copy(p, r->loop), *l = nest;
	while (l->kind == ST_BLOCK || l->var != gl->var)
		l = l->body[0];
	Stmt *body = stmt_map_exprs(p, l->body[0], regroup_expr, &rg);
	l->body[0] = st_for(p, rg.g, ex_int(p, 0, l->loc), ex_copy(p, den), 1, body, l->loc);
	l->var = rg.kv;
	l->hi = ex_bin(p, OP_DIV, ex_copy(p, gl->hi), ex_copy(p, den), l->loc);
	/* The schedule names kv's loop parallel in h's place. */
	Schedule *s = arena_alloc(&p->arena, sizeof *s);
	*s = *nest->sched;
	s->parallel = arena_alloc(&p->arena, sizeof *s->parallel * (size_t)s->nparallel);
	memcpy(s->parallel, nest->sched->parallel, sizeof *s->parallel * (size_t)s->nparallel);
	for (int i = 0; i < s->nparallel; i++)
		if (!strcmp(s->parallel[i].loop, gl->var->name))
			s->parallel[i].loop = rg.kv->name;
	nest->sched = s;
	*hg = (HeadGroup){r->loop, gl->hi, den};
	r->loop = nest;
	return true;
}

void heads_restore(Region *r, const HeadGroup *hg) { r->loop = hg->orig; }

bool heads_tile_plan(Program *p, Region *r, const TileTarget *tt, TilePlan *tp, HeadGroup *hg, const char **why)
{
	bool tiled = tile_plan(tp, r, tt, why);
	if ((tiled && !tp->row_made) || !heads_regroup(p, r, hg))
		return tiled;
	TilePlan g;
	const char *why_grouped = NULL;
	if (tile_plan(&g, r, tt, &why_grouped) && !g.row_made) {
		tile_plan_free(tp);
		*tp = g;
		tp->heads = hg;
		*why = NULL;
		return true;
	}
	/* the first plan stands: its names are the cascade's again */
	tile_plan_free(&g);
	heads_restore(r, hg);
	fuse_cascade_of(r)->names = tp->names;
	return tiled;
}
