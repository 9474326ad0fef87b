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

/* Whether e is iterator h, or h converted to int64 (`ih / rk2` with `int64_t rk2`, ggml). */
static bool is_head(const Expr *e, const Var *h)
{
	if (e->kind == EX_CAST && e->ty == TY_I64)
		e = e->args[0];
	return e->kind == EX_VAR && e->var == h;
}

/* `h / den` or `h % den`, in int or int64 */
static bool is_div_of(const Expr *e, const Var *h)
{
	return e->kind == EX_BIN && (e->bop == OP_DIV || e->bop == OP_MOD) && (e->ty == TY_INT || e->ty == TY_I64) && is_head(e->args[0], h);
}

/* `h * k / n` or `k * h / n` (TGI's `head * num_kv_heads / num_heads`): sets *k. It is h /
 * (n / k) where k divides n, which the launcher checks. */
static bool is_scaled_div_of(const Expr *e, const Var *h, const Expr **k)
{
	if (e->kind != EX_BIN || e->bop != OP_DIV || (e->ty != TY_INT && e->ty != TY_I64))
		return false;
	const Expr *m = e->args[0];
	if (m->kind != EX_BIN || m->bop != OP_MUL || (m->ty != TY_INT && m->ty != TY_I64))
		return false;
	int at = is_head(m->args[0], h) ? 0 : is_head(m->args[1], h) ? 1 : -1;
	if (at < 0 || !tile_host_expr(m->args[1 - at]) || expr_reads_var(m->args[1 - at], h))
		return false;
	*k = m->args[1 - at];
	return true;
}

/* The reads of h in a region's row: as `h / den` or `h % den` (one den throughout, a host
 * size, set by the first), or all as `h * k / den` (k set), and otherwise. */
typedef struct HeadReads {
	const Var *h;
	const Expr *den, *k;
	int ndiv, nmod, nplain;
} HeadReads;

/* Counts e's reads of h into hr (an ExprTest); false where two divisors differ or one is
 * no host size. */
static bool count_reads(const Expr *e, void *ctx)
{
	HeadReads *hr = ctx;
	const Expr *k = NULL;
	if (is_div_of(e, hr->h) || is_scaled_div_of(e, hr->h, &k)) {
		/* one form throughout: the same divisor, and the same k or none */
		bool same_k = hr->k && k ? expr_equal(hr->k, k) : hr->k == k;
		if (hr->den ? !expr_equal(hr->den, e->args[1]) || !same_k : !tile_host_expr(e->args[1]))
			return false;
		hr->den = e->args[1];
		hr->k = k;
		hr->ndiv += e->bop == OP_DIV;
		hr->nmod += e->bop == OP_MOD;
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
	const Expr *den;   /* G: h / G */
	const Expr *read;  /* the divisor as read: G, or n of h * k / n */
	const Expr *k;     /* NULL, or k of h * k / n (G = n / k) */
	bool mod;          /* K and V read at h % den (interleaved heads): kv is h % den, g h / den */
	Var *kv, *g;
} Regroup;

/* e with h / den read as kv, h % den as g, and h as kv * den + g (an ExprMap); where
 * rg->mod, h % den as kv, h / den as g, and h as g * den + kv. */
static Expr *regroup_expr(Program *p, const Expr *e, void *ctx)
{
	const Regroup *rg = ctx;
	const Expr *k = NULL;
	if (rg->k ? is_scaled_div_of(e, rg->h, &k) && expr_equal(k, rg->k) && expr_equal(e->args[1], rg->read) : is_div_of(e, rg->h) && expr_equal(e->args[1], rg->den))
		return ex_var(p, (e->bop == OP_DIV) != rg->mod ? rg->kv : rg->g, e->loc);
	if (e->kind == EX_VAR && e->var == rg->h)
		return ex_bin(p, OP_ADD, ex_bin(p, OP_MUL, ex_var(p, rg->mod ? rg->g : rg->kv, e->loc), ex_copy(p, rg->den), e->loc), ex_var(p, rg->mod ? rg->kv : rg->g, e->loc), e->loc);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = regroup_expr(p, e->args[i], ctx);
	return c;
}

/* The parallel loop of r's grid that reads K and V at h / den (*den set), or NULL: the
 * innermost grid loop from 0 by 1 with no row loop inside, read both as h / den (one den,
 * a host size) and as h, nowhere in a local array's extent or (split-k) in the pass's range. */
static const GridLoop *heads_loop(const Region *r, GridLoop *grid, const Expr **den, const Expr **k, bool *mod)
{
	int n;
	Stmt *body = grid_loops(r, grid, &n);
	Cascade *c = fuse_cascade_of(r);
	if (!c || !n || body->kind == ST_FOR)
		return NULL;
	const GridLoop *g = &grid[n - 1];
	HeadReads hr = {g->var, NULL, NULL, 0, 0, 0};
	if (g->tile || g->lo->kind != EX_INT || g->lo->ival != 0 || !stmt_all_exprs(body, count_reads, &hr) || !(hr.ndiv || hr.nmod) || !hr.nplain ||
	    extent_reads(body, g->var))
		return NULL;
	*den = hr.den;
	*k = hr.k;
	/* read only as h % den: K and V's head is the remainder (heads interleaved) */
	*mod = !hr.ndiv;
	/* split-k's planner reads the pass's range from the cascade, which is not rewritten */
	for (int l = 0; l < c->nlevels && c->strategy == STRAT_SPLITK; l++)
		if (expr_reads_var(c->levels[l]->lo, g->var) || expr_reads_var(c->levels[l]->hi, g->var))
			return NULL;
	return g;
}

bool heads_candidate(const Region *r)
{
	GridLoop grid[MAX_GRID];
	const Expr *den, *k;
	bool mod;
	return heads_loop(r, grid, &den, &k, &mod) != NULL;
}

/* Rewrites r's nest (r->loop replaced, the user's kept in hg); false where it does not
 * apply (heads_loop). */
static bool heads_regroup(Program *p, Region *r, HeadGroup *hg)
{
	GridLoop grid[MAX_GRID];
	const Expr *read, *k;
	bool mod;
	const GridLoop *gl = heads_loop(r, grid, &read, &k, &mod);
	if (!gl)
		return false;
	Cascade *c = fuse_cascade_of(r);
	StrVec *names = tile_names(r);
	const Expr *den = k ? ex_bin(p, OP_DIV, ex_copy(p, read), ex_copy(p, k), read->loc) : read;
	Regroup rg = {gl->var, den, read, k, mod, NULL, NULL};
	rg.kv = fresh_var(c, arena_printf(&p->arena, "%s_kv", gl->var->name), TY_INT, VAR_LOOP);
	rg.g = fresh_var(c, arena_printf(&p->arena, "%s_g", gl->var->name), TY_INT, VAR_LOOP);
	vec_free(*names); /* tile_plan makes the list again, with these */
	/* The nest down to h's loop, copied; h's loop becomes kv's, its body g's loop. */
	Stmt *nest = stmt_copy(p, r->loop), *l = nest;
	while (l->kind == ST_BLOCK || l->var != gl->var)
		l = l->body[0];
	Stmt *body = stmt_map_exprs(p, l->body[0], regroup_expr, &rg);
	Expr *groups = ex_bin(p, OP_DIV, ex_copy(p, gl->hi), ex_copy(p, den), l->loc);
	l->body[0] = st_for(p, rg.g, ex_int(p, 0, l->loc), mod ? groups : ex_copy(p, den), 1, body, l->loc);
	l->var = rg.kv;
	l->hi = mod ? ex_copy(p, den) : groups;
	/* The schedule names kv's loop parallel in h's place. */
	Schedule *s = arena_alloc(&p->arena, sizeof *s);
	*s = *nest->sched;
	s->parallel = arena_alloc(&p->arena, sizeof *s->parallel * (size_t)s->nparallel);
	memcpy(s->parallel, nest->sched->parallel, sizeof *s->parallel * (size_t)s->nparallel);
	for (int i = 0; i < s->nparallel; i++)
		if (!strcmp(s->parallel[i].loop, gl->var->name))
			s->parallel[i].loop = rg.kv->name;
	nest->sched = s;
	*hg = (HeadGroup){r->loop, gl->hi, den, k ? read : NULL, k, mod};
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
	r->group_stride = hg->kvmajor ? hg->den : NULL;
	bool grouped = tile_plan(&g, r, tt, &why_grouped);
	r->group_stride = NULL;
	if (grouped && !g.row_made) {
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
