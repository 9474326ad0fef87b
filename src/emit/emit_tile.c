/* emit_tile.c: prints a TilePlan (src/lower/tile.h) as a CUDA or HIP kernel over the
 * device tile library (include/fusecc_tile_cuda.h, include/fusecc_tile_hip.h: the same
 * functions), and its launch. What the targets do differently is in their TileTarget: how
 * a thread's elements of a tile are indexed (frag) and how deep the column operands'
 * pipeline is (the step loop in emit_tile_kernel); how a product runs (mma.sync, wgmma,
 * mfma) is the header's business.
 *
 * Shape of every tile kernel: a CTA owns bm rows of the row loop (16 * mt per warp or
 * wavefront) for one point of the other parallel loops. The row operand is staged once in
 * shared memory; the column operands stream through it, two tiles deep where copies are
 * asynchronous (cp.async), one tile otherwise.
 * Each step of the pass prints the fused program's statements in order: row statements
 * once per row the thread holds, per-element loops over the thread's elements of the
 * (row, j) tile, products as fx::dot_* calls, reductions as a thread-local partial
 * completed across the lanes that share the row. A step whose tile lies inside every row's
 * range runs a copy with no mask arithmetic; steps outside every row's range are never
 * visited. */
#include "emit_tile.h"

#include <stdarg.h>
#include <math.h>
#include <string.h>

#include "../fuse/fuse.h"

typedef struct TileEmit {
	StrBuf *out;
	const GpuTarget *tg;
	TilePlan *tp;
	PrintTarget pt;
	const char *h, *c;  /* the thread's row half and element index */
	const char *rowsub; /* print the row iterator as this (NULL: as itself) */
	const char *smem, *qa, *i0, *nrows, *rbase, *rf, *rl, *jb, *je, *lom, *him, *st, *masked;
	const char *cbase;  /* the warp's first accumulator column (tp->cw > 1), else NULL */
	const char *whole;  /* the lambda that tells a step the mask keeps whole (skip_steps) */
	bool as_written;    /* printing a mask statement as written (see skip_hidden) */
	bool rows_in_tile;  /* elements of rows past the tile's last row are skipped (stores) */
	const Stmt *staged; /* the epilogue's store printed into shared memory (staged_store) */
	const char *stage;  /* its tile there, rows of `pitch` elements */
	int pitch;
	bool merge;         /* printing the split-k merge kernel: one row per CTA, columns over threads */
	bool in_col;        /* inside a loop over accumulator columns */
	const char *rowid;  /* the row's index among all rows of the grid (workspace) */
	Var *jel;           /* in a per-element loop: its iterator, the thread's column jel = jlane + col_step(c) */
	Var *jlane, *jstep; /* printed as the lane's first column, and fx::col_step(c) */
	int line_last;      /* --line: the last source line written */
	const char *colop_smem[MAX_OPERANDS];
	const char *colop_split[MAX_OPERANDS]; /* presplit: the tf32 planes of each step's tiles */
	Var *ring[MAX_OPERANDS]; /* gather g's ring of index values in shared memory (TilePlan.gather) */
	Var *slot;               /* while printing row pointers: the ring slot their rows' values are in */
	/* column operand k's (part's) row pointers of a step in shared memory, for operands
	 * that read a gather (NULL: none); from_rows: the tile loads read them */
	const char *rows_smem[MAX_OPERANDS][2];
	bool from_rows;
	const char *dot_name[MAX_OPERANDS];
	bool dot_done[MAX_OPERANDS];
	/* pv_one (tile.h): the loader of V's one tile, and whether the step's first P.V
	 * product, which waits for it, is still to be printed */
	const char *load_one;
	bool pv_wait;
	Var *red[MAX_TILE_VARS]; /* reductions of the current per-element loop */
	const char *red_name[MAX_TILE_VARS];
	Reducer red_op[MAX_TILE_VARS];
	int nred;
	const Stmt *pv[MAX_OPERANDS]; /* products of the current per-element loop */
	const char *pv_name[MAX_OPERANDS];
	Var *pv_acc[MAX_OPERANDS];
	int pv_colop[MAX_OPERANDS];
	int npv;
	const Expr *hoist[MAX_TILE_VARS]; /* loads of the CTA's constants, printed as hoist_name */
	const char *hoist_name[MAX_TILE_VARS];
	int nhoist;
	/* the registers of the plan's per-score reads (tp->sread) while a step is printed (NULL:
	 * the passes read the inputs) */
	const char *sread_name[MAX_TILE_VARS];
	bool sread_on;
	Var *elem_j; /* the per-element loop whose body is being printed (NULL: none) */
	const char *pexp[MAX_TILE_VARS]; /* pscale: accumulator tp->vars[k]'s exponents, per row slot */
} TileEmit;

const char *device_fn(MathFn fn, ScalarType ty)
{
	if (ty != TY_FLOAT)
		return NULL;
	return fn == FN_EXP ? "fx::exp" : fn == FN_EXP2 ? "fx::exp2" : fn == FN_TANH ? "fx::tanh" : NULL;
}

/* Element (te->h, te->c) of the thread's part of a register tile `float t[mt][W /
 * frag_cols][4]` (the layouts are in the headers): row slot h < mt * row_slots, element c
 * < W / 4 of the row. mma m16n8 gives a thread two rows of each 16 and two adjacent
 * columns of each 8; mfma 16x16x16 (computing the transposed product) one row of each 16
 * and four adjacent columns of each 16. */
static void frag(StrBuf *b, const TileEmit *te, const char *tile)
{
	if (te->tp->tt->row_slots == 2)
		sb_printf(b, "%s[%s >> 1][%s >> 1][2 * (%s & 1) + (%s & 1)]", tile, te->h, te->c, te->h, te->c);
	else
		sb_printf(b, "%s[%s][%s >> 2][%s & 3]", tile, te->h, te->c, te->c);
}

/* Row slots a thread holds: per-row values are arrays of this many. */
static int row_slots(const TilePlan *tp) { return tp->mt * tp->tt->row_slots; }

static Var *row_var(const TilePlan *tp) { return tp->grid[tp->rowdim].var; }

static void expr(TileEmit *te, const Expr *e);

/* A partial's element in the workspace: [rows][nchunks][cols] floats from its base. */
static void part_elem(StrBuf *b, TileEmit *te, const Expr *e)
{
	const TilePlan *tp = te->tp;
	int cols = 1;
	for (int k = 0; k < tp->split.nparts; k++)
		if (tp->split.parts[k] == e->var)
			cols = tp->split.part_cols[k];
	StrBuf *saved = te->out;
	te->out = b;
	sb_printf(b, "%s[(%s * %s + ", e->var->name, te->rowid, tp->split.ndecl->var->name);
	expr(te, e->args[0]);
	sb_putc(b, ')');
	if (e->nargs > 1) {
		sb_printf(b, " * %d + ", cols);
		expr(te, e->args[1]);
	}
	sb_putc(b, ']');
	te->out = saved;
}

static void sread_elem(StrBuf *b, const TileEmit *te, const char *name);

static bool tile_hook(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	TileEmit *te = t->ctx;
	int sr;
	if (e->kind == EX_INDEX && te->sread_on && te->elem_j && (sr = tile_sread_index(te->tp, e, te->elem_j)) >= 0) {
		sread_elem(b, te, te->sread_name[sr]);
		return true;
	}
	for (int i = 0; e->kind == EX_INDEX && i < te->nhoist; i++)
		if (expr_equal(e, te->hoist[i])) {
			sb_puts(b, te->hoist_name[i]);
			return true;
		}
	if (e->kind == EX_VAR && te->jstep && e->var == te->jstep) {
		sb_printf(b, "fx::col_step(%s)", te->c);
		return true;
	}
	if (te->rowsub && e->kind == EX_VAR && e->var == row_var(te->tp)) {
		sb_puts(b, te->rowsub);
		return true;
	}
	switch (tile_role(te->tp, e->var)) {
	case TR_ROW:
		if (e->kind != EX_VAR || te->merge)
			return false;
		sb_printf(b, "%s[%s]", e->var->name, te->h);
		return true;
	case TR_ROWTILE:
	case TR_ELEM:
		if (e->kind != EX_INDEX)
			return false;
		if (te->merge)
			sb_puts(b, e->var->name); /* the thread's one column */
		else
			frag(b, te, e->var->name);
		return true;
	case TR_PART:
		if (e->kind != EX_INDEX)
			return false;
		part_elem(b, te, e);
		return true;
	case TR_ROWCOPY:
	case TR_NONE: break;
	}
	return false;
}

/* (float)E, E an int expression c * j + r of the element's column j = jlane +
 * col_step(e): printed as (float)(E at jlane) + (float)(c * col_step(e)). The first term
 * is the same for all of the row's elements and the second a constant once the loop over
 * them is unrolled, so no element pays for an int-to-float conversion (which runs at an
 * eighth of the FMA rate, and was ALiBi's bias j - i per element). Exact while |E| <
 * 2^24. */
static bool splittable(const TileEmit *te, const Expr *e, long long *c)
{
	return e->ty == TY_INT && expr_reads_var(e, te->jel) && tile_affine_in(te->tp, e, te->jel, c) && *c;
}

/* Which operand of e (a float operation: a cast or a binary operation) split_conv prints,
 * or -1. */
static int split_operand(const TileEmit *te, const Expr *e)
{
	long long c;
	if (e->ty != TY_FLOAT && e->ty != TY_DOUBLE)
		return -1;
	if (e->kind == EX_CAST)
		return splittable(te, e->args[0], &c) ? 0 : -1;
	if (e->kind == EX_BIN && e->nargs == 2)
		for (int k = 0; k < 2; k++)
			if (splittable(te, e->args[k], &c))
				return k;
	return -1;
}

static Expr *split_conv(TileEmit *te, const Expr *e, ScalarType ty)
{
	Program *p = te->tp->c->prog;
	long long c;
	splittable(te, e, &c); /* true: split_operand chose e; c is its coefficient */
	Expr *lane = expr_subst_expr(p, e, te->jel, ex_var(p, te->jlane, e->loc));
	Expr *step = ex_var(p, te->jstep, e->loc);
	if (c != 1)
		step = ex_bin(p, OP_MUL, ex_int(p, c, e->loc), step, e->loc);
	return ex_bin(p, OP_ADD, ex_cast(p, ty, lane, e->loc), ex_cast(p, ty, step, e->loc), e->loc);
}

/* Whether f holds for an expression of s or of a statement inside it (an f that only
 * looks, returning false, visits them all). */
static bool stmt_any_expr(TileEmit *te, const Stmt *s, bool (*f)(TileEmit *, const Expr *))
{
	if (!s)
		return false;
	const Expr *es[] = {s->lhs, s->rhs, s->cond, s->lo, s->hi};
	for (int i = 0; i < 5; i++)
		if (es[i] && f(te, es[i]))
			return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_any_expr(te, s->body[i], f))
			return true;
	return false;
}

/* Whether e or one of its operands is a node split_conv rewrites (for te->jel). */
static bool has_split(TileEmit *te, const Expr *e)
{
	if (split_operand(te, e) >= 0)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (has_split(te, e->args[i]))
			return true;
	return false;
}

static bool conv_hook(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	TileEmit *te = t->ctx;
	int k;
	if (!te->jel || (k = split_operand(te, e)) < 0)
		return false;
	Expr *s = split_conv(te, e->args[k], e->ty), *n = s;
	if (e->kind == EX_BIN && e->bop == OP_MUL && e->ty == TY_FLOAT && !expr_reads_var(e->args[1 - k], te->jel)) {
		/* f * (lane + step) as fmaf(f, step, f * lane): with the loop over the elements
		 * unrolled the step is a constant and f * lane the row's, so each element pays
		 * one FMA instead of an add and a multiply (ALiBi's slope[h] * (j - i)). */
		sb_puts(b, "fmaf(");
		print_expr_to(b, e->args[1 - k], t);
		sb_puts(b, ", ");
		print_expr_to(b, s->args[1], t);
		sb_puts(b, ", ");
		print_expr_to(b, ex_bin(te->tp->c->prog, OP_MUL, e->args[1 - k], s->args[0], e->loc), t);
		sb_putc(b, ')');
		return true;
	}
	if (e->kind == EX_BIN) {
		n = ex_copy(te->tp->c->prog, e);
		n->args[k] = s;
	}
	sb_putc(b, '(');
	print_expr_to(b, n, t);
	sb_putc(b, ')');
	return true;
}

static const char *fresh(TileEmit *te, const char *base) { return fresh_var(te->tp->c, base, TY_INT, VAR_LOCAL)->name; }

/* Collects the step's reads of read-only inputs at CTA-level subscripts (ALiBi's
 * slope[h]): the barriers and asm of every step clobber memory for the compiler, which
 * would otherwise load them again at each step. Returns false: stmt_any_expr visits
 * every expression. */
static bool collect_hoists(TileEmit *te, const Expr *e)
{
	/* (A pointer whose outermost extent is unknown is not hoisted: the bounds check of
	 * a load that runs whether or not the step reads it needs every extent.) */
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->var->is_const && e->nargs == e->var->ndim && e->var->dims[0] && te->nhoist < MAX_TILE_VARS &&
	    (e->ty == TY_FLOAT || e->ty == TY_DOUBLE || scalar_is_int(e->ty))) {
		bool ok = true, seen = false;
		for (int i = 0; i < e->nargs; i++)
			ok &= tile_cta_level(te->tp, e->args[i]);
		for (int i = 0; i < te->nhoist; i++)
			seen |= expr_equal(e, te->hoist[i]);
		if (ok && !seen) {
			te->hoist[te->nhoist] = e;
			te->hoist_name[te->nhoist++] = fresh(te, arena_printf(&te->tp->c->prog->arena, "%s_cta", e->var->name));
		}
		if (ok)
			return false;
	}
	for (int i = 0; i < e->nargs; i++)
		collect_hoists(te, e->args[i]);
	return false;
}

static void expr(TileEmit *te, const Expr *e) { print_expr_to(te->out, e, &te->pt); }
/* e as the right operand of op (a bound after `j < `). */
static void operand(TileEmit *te, const Expr *e, BinOp op) { print_operand_to(te->out, e, op, &te->pt); }

static void line(TileEmit *te, int ind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(TileEmit *te, int ind, const char *fmt, ...)
{
	va_list ap;
	sb_indent(te->out, ind);
	va_start(ap, fmt);
	sb_vprintf(te->out, fmt, ap);
	va_end(ap);
}

/* The threads of a CTA that hold distinct rows (all of them unless cw warps share each
 * row warp's rows): the products' THREADS, which chooses their row layout. */
static int row_threads(const TilePlan *tp) { return tp->threads / tp->cw; }

/* Declares a register tile of W columns, of type ty: float but for a per-step tile the
 * input declares 16-bit (a row of probabilities kept in bf16), whose elements must hold
 * what that type holds. */
static void decl_tile(TileEmit *te, int ind, const char *ty, const char *name, int w)
{
	line(te, ind, "%s %s[%d][%d][4];\n", ty, name, te->tp->mt, w / te->tp->tt->frag_cols);
}

/* ---- row statements ---- */

static bool reads_outside_tiles(const TilePlan *tp, const Expr *e, const Var *v)
{
	if (e->kind == EX_VAR)
		return e->var == v;
	if (e->kind == EX_INDEX && tile_role(tp, e->var) == TR_ROWTILE)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (reads_outside_tiles(tp, e->args[i], v))
			return true;
	return false;
}

static bool stmt_uses_col(const TilePlan *tp, const Stmt *s, const Var *v)
{
	if ((s->lhs && reads_outside_tiles(tp, s->lhs, v)) || (s->rhs && reads_outside_tiles(tp, s->rhs, v)) ||
	    (s->cond && reads_outside_tiles(tp, s->cond, v)) || (s->lo && reads_outside_tiles(tp, s->lo, v)) ||
	    (s->hi && reads_outside_tiles(tp, s->hi, v)))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && stmt_uses_col(tp, s->body[i], v))
			return true;
	return false;
}

static void row_stmt(TileEmit *te, const Stmt *s, int ind, bool top);

static void row_body(TileEmit *te, const Stmt *s, int ind)
{
	if (s->kind == ST_BLOCK) {
		sb_puts(te->out, " {\n");
		for (int i = 0; i < s->nbody; i++)
			row_stmt(te, s->body[i], ind + 1, false);
		line(te, ind, "}\n");
	} else {
		sb_puts(te->out, "\n");
		row_stmt(te, s, ind + 1, false);
	}
}

/* One statement of a row, for row te->h of the thread; the caller opened the loop over h. */
static void row_stmt(TileEmit *te, const Stmt *s, int ind, bool top)
{
	const TilePlan *tp = te->tp;
	switch (s->kind) {
	case ST_DECL:
		if (te->merge && s->var->ndim) {
			/* Merge kernel: an accumulator tile is one column per thread; per-step tiles
			 * belong to the chunk kernel. */
			if (tile_role(tp, s->var) == TR_ROWTILE)
				line(te, ind, "%s %s;\n", gpu_type(s->var->ty), s->var->name);
			return;
		}
		if (top && !te->merge && tile_role(tp, s->var) != TR_NONE) {
			if (s->rhs && !s->var->ndim) {
				line(te, ind, "%s[%s] = ", s->var->name, te->h);
				expr(te, s->rhs);
				sb_puts(te->out, ";\n");
			}
			return;
		}
		sb_indent(te->out, ind);
		print_stmt_to(te->out, s, ind, &te->pt);
		return;
	case ST_ASSIGN:
		if (s == te->staged) {
			/* the thread's element of the output row, in the tile staged_store prints */
			Program *p = tp->c->prog;
			ScalarType ty = s->lhs->var->ty;
			line(te, ind, "%s[(%s + fx::row(%s)) * %d + %s] = ", te->stage, te->rbase, te->h, te->pitch, s->lhs->args[s->lhs->nargs - 1]->var->name);
			expr(te, s->rhs->kind == EX_CAST && s->rhs->ty == ty ? s->rhs : ex_cast(p, ty, s->rhs, s->loc));
			sb_puts(te->out, ";\n");
			return;
		}
		if (te->merge && !te->in_col && s->lhs->var->kind == VAR_PARAM)
			line(te, ind++, "if (threadIdx.x == 0)\n"); /* a row's value: one thread stores it */
		else if (te->cbase && !te->in_col && (s->lhs->var->kind == VAR_PARAM || tile_role(tp, s->lhs->var) == TR_PART))
			line(te, ind++, "if (%s == 0)\n", te->cbase); /* a row's value: the warps of its columns have it alike */
		sb_indent(te->out, ind);
		print_stmt_to(te->out, s, ind, &te->pt);
		return;
	case ST_BLOCK:
		line(te, ind, "{\n");
		for (int i = 0; i < s->nbody; i++)
			row_stmt(te, s->body[i], ind + 1, false);
		line(te, ind, "}\n");
		return;
	case ST_IF:
		line(te, ind, "if (");
		expr(te, s->cond);
		sb_putc(te->out, ')');
		row_body(te, s->body[0], ind);
		if (s->nbody > 1 && s->body[1]) {
			line(te, ind, "else");
			row_body(te, s->body[1], ind);
		}
		return;
	case ST_FOR:
		if (top && tile_is_copy_loop(tp, s))
			return; /* the products read the row operand itself */
		if (te->merge && tile_is_col_loop(tp, s)) {
			/* Merge kernel: the thread's column. */
			line(te, ind, "{\n");
			if (stmt_uses_col(tp, s->body[0], s->var))
				line(te, ind + 1, "const int %s = threadIdx.x;\n", s->var->name);
			te->in_col = true;
			Stmt *b = s->body[0];
			for (int i = 0; i < (b->kind == ST_BLOCK ? b->nbody : 1); i++)
				row_stmt(te, b->kind == ST_BLOCK ? b->body[i] : b, ind + 1, false);
			te->in_col = false;
			line(te, ind, "}\n");
			return;
		}
		if (tile_is_col_loop(tp, s)) {
			/* A loop over an accumulator tile's columns: the thread's own columns. */
			line(te, ind, "#pragma unroll\n");
			line(te, ind, "for (int %s = 0; %s < %d; %s++) {\n", te->c, te->c, tp->ncols / tp->cw / 4, te->c);
			const char *c0 = te->cbase ? arena_printf(&tp->c->prog->arena, "%s + ", te->cbase) : "";
			if (tp->ndata != tp->ncols)
				line(te, ind + 1, "if (%sfx::col(%s) >= %d) continue; /* padding */\n", c0, te->c, tp->ndata);
			if (stmt_uses_col(tp, s->body[0], s->var))
				line(te, ind + 1, "const int %s = %sfx::col(%s);\n", s->var->name, c0, te->c);
			Stmt *b = s->body[0];
			te->in_col = true;
			if (b->kind == ST_BLOCK)
				for (int i = 0; i < b->nbody; i++)
					row_stmt(te, b->body[i], ind + 1, false);
			else
				row_stmt(te, b, ind + 1, false);
			te->in_col = false;
			line(te, ind, "}\n");
			return;
		}
		if (te->merge)
			line(te, ind, "#pragma unroll 8\n"); /* the chunks' loads in flight together */
		line(te, ind, "for (int %s = ", s->var->name);
		expr(te, s->lo);
		sb_printf(te->out, "; %s < ", s->var->name);
		operand(te, s->hi, OP_LT);
		sb_printf(te->out, "; %s += %ld)", s->var->name, s->step);
		row_body(te, s->body[0], ind);
		return;
	}
}

/* The row iterator of the thread's row slot h, for statements that compute: rows past the
 * row loop's end (a partial last tile) read as its last row, so that what they read (a
 * bias[i][j], a per-row input) stays in bounds; they are never stored. */
static void row_index(TileEmit *te, int ind)
{
	line(te, ind, "const int %s = fx::imin(%s + %s + fx::row(%s), %s + %s - 1);\n", row_var(te->tp)->name, te->i0, te->rbase, te->h, te->i0, te->nrows);
}

/* Statements once per row the thread holds: `for (h) { const int i = ...; ... }`. Rows
 * past the row loop's end are skipped when `valid_only` (stores). */
static void row_stmts(TileEmit *te, Stmt *const *s, int n, int ind, bool valid_only, bool top)
{
	const TilePlan *tp = te->tp;
	if (!n)
		return;
	line(te, ind, "#pragma unroll\n");
	line(te, ind, "for (int %s = 0; %s < %d; %s++) {\n", te->h, te->h, row_slots(tp), te->h);
	bool used = valid_only;
	for (int i = 0; i < n; i++)
		used |= stmt_reads_var(s[i], row_var(tp));
	if (used && valid_only)
		line(te, ind + 1, "const int %s = %s + %s + fx::row(%s);\n", row_var(tp)->name, te->i0, te->rbase, te->h);
	else if (used)
		row_index(te, ind + 1);
	if (valid_only) {
		line(te, ind + 1, "if (%s < ", row_var(tp)->name);
		operand(te, tp->grid[tp->rowdim].hi, OP_LT);
		sb_puts(te->out, ") {\n");
		ind++;
	}
	for (int i = 0; i < n; i++)
		row_stmt(te, s[i], ind + 1, top);
	if (valid_only)
		line(te, ind, "}\n");
	line(te, ind - valid_only, "}\n");
}

/* The shared tile the products read for column operand k: its tf32 planes where the
 * plan splits the tiles once per step, else the tile as loaded. */
static const char *colop_tile(const TileEmit *te, int k) { return te->tp->presplit ? te->colop_split[k] : te->colop_smem[k]; }

/* ---- per-element loops ---- */

static int red_index(const TileEmit *te, const Var *v)
{
	for (int i = 0; i < te->nred; i++)
		if (te->red[i] == v)
			return i;
	return -1;
}

/* Collects the reductions into per-row values and the products of a per-element loop. */
static void collect_elem(TileEmit *te, Stmt *s, Var *j)
{
	Program *p = te->tp->c->prog;
	Expr *target, *g;
	Reducer red;
	Var *acc;
	if ((s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(p, s, &target, &red, &g) && target->kind == EX_VAR &&
	    tile_role(te->tp, target->var) == TR_ROW && red_index(te, target->var) < 0 && te->nred < MAX_TILE_VARS) {
		te->red[te->nred] = target->var;
		te->red_op[te->nred] = red;
		te->red_name[te->nred++] = fresh(te, arena_printf(&p->arena, "%s_red", target->var->name));
	}
	int cb;
	if (s->kind == ST_FOR && (cb = tile_match_pv(te->tp, s, j, &g, &acc, false)) >= 0 && te->npv < MAX_OPERANDS) {
		te->pv[te->npv] = s;
		te->pv_acc[te->npv] = acc;
		te->pv_colop[te->npv] = cb;
		te->pv_name[te->npv++] = fresh(te, arena_printf(&p->arena, "p_%s", acc->name));
	}
	if (s->kind == ST_BLOCK || s->kind == ST_IF)
		for (int i = 0; i < s->nbody; i++)
			if (s->body[i])
				collect_elem(te, s->body[i], j);
}

/* Accumulator v's exponents (pscale). */
static const char *pscale_exp(const TileEmit *te, const Var *v)
{
	for (int k = 0; k < te->tp->nvars; k++)
		if (te->tp->vars[k] == v)
			return te->pexp[k];
	return NULL;
}

/* Multiplies each row of accumulator v's tile by 2^x, x an int expression of the row
 * slot te->h (exact: a power of two), through a factor named from `base`. */
static void scale_rows(TileEmit *te, const Var *v, const char *x, const char *base, int ind)
{
	const char *f = fresh(te, base);
	line(te, ind, "const float %s = fx::pow2(%s);\n", f, x);
	line(te, ind, "#pragma unroll\n");
	line(te, ind, "for (int %s = 0; %s < %d; %s++)\n", te->c, te->c, te->tp->ncols / te->tp->cw / 4, te->c);
	sb_indent(te->out, ind + 1);
	frag(te->out, te, v->name);
	sb_printf(te->out, " *= %s;\n", f);
}

/* pscale: the weights of the P tile p (an fp16 product into accumulator acc) scaled by
 * 2^-E before the product splits them, E the row's running exponent (fx::weight_exp:
 * its largest |weight| so far in [2^14, 2^15)); where E grows, the accumulator, which
 * holds its sum times 2^-E, follows. */
static void pscale_weights(TileEmit *te, const char *p, const Var *acc, int ind)
{
	const TilePlan *tp = te->tp;
	const char *ex = pscale_exp(te, acc), *big = fresh(te, "big"), *e = fresh(te, "ex");
	line(te, ind, "/* fp16 weights: each row's scaled by a power of two (its largest so far in [2^14, 2^15)), and %s with them */\n", acc->name);
	line(te, ind, "#pragma unroll\n");
	line(te, ind, "for (int %s = 0; %s < %d; %s++) {\n", te->h, te->h, row_slots(tp), te->h);
	line(te, ind + 1, "float %s = 0.0f;\n", big);
	line(te, ind + 1, "#pragma unroll\n");
	line(te, ind + 1, "for (int %s = 0; %s < %d; %s++)\n", te->c, te->c, tp->bn / 4, te->c);
	line(te, ind + 2, "%s = fmaxf(%s, fabsf(", big, big);
	frag(te->out, te, p);
	sb_puts(te->out, "));\n");
	line(te, ind + 1, "const int %s = fx::weight_exp(fx::row_max(%s), %s[%s]);\n", e, big, ex, te->h);
	line(te, ind + 1, "if (%s != %s[%s]) {\n", e, ex, te->h);
	scale_rows(te, acc, arena_printf(&tp->c->prog->arena, "%s[%s] - %s", ex, te->h, e), "shrink", ind + 2);
	line(te, ind + 2, "%s[%s] = %s;\n", ex, te->h, e);
	line(te, ind + 1, "}\n");
	const char *f = fresh(te, "pscale");
	line(te, ind + 1, "const float %s = fx::pow2(-%s);\n", f, e);
	line(te, ind + 1, "#pragma unroll\n");
	line(te, ind + 1, "for (int %s = 0; %s < %d; %s++)\n", te->c, te->c, tp->bn / 4, te->c);
	sb_indent(te->out, ind + 2);
	frag(te->out, te, p);
	sb_printf(te->out, " *= %s;\n", f);
	line(te, ind, "}\n");
}

static const char *red_identity(Reducer r) { return r == RED_ADD ? "0.0f" : r == RED_MAX ? "-INFINITY" : "INFINITY"; }

static void elem_stmts(TileEmit *te, Stmt **body, int n, Var *j, int ind);

static void elem_body(TileEmit *te, Stmt *s, Var *j, int ind)
{
	sb_puts(te->out, " {\n");
	if (s->kind == ST_BLOCK)
		elem_stmts(te, s->body, s->nbody, j, ind + 1);
	else
		elem_stmts(te, &s, 1, j, ind + 1);
	line(te, ind, "}\n");
}

/* `x = kept;` for mask statement s (`x = c ? -INFINITY : kept`, `if (c) x = -INFINITY;
 * else x = kept;`): what it assigns where the mask keeps the element. */
static void kept_value(TileEmit *te, const Stmt *s, const Expr *kept, int ind)
{
	while (s->kind == ST_IF || (s->kind == ST_BLOCK && s->nbody == 1))
		s = s->body[0];
	sb_indent(te->out, ind);
	expr(te, s->lhs);
	sb_puts(te->out, " = ");
	expr(te, kept);
	sb_puts(te->out, ";\n");
}

static void elem_stmts(TileEmit *te, Stmt **body, int n, Var *j, int ind)
{
	TilePlan *tp = te->tp;
	Program *p = tp->c->prog;
	for (int i = 0; i < n; i++) {
		Stmt *s = body[i];
		Expr *scale;
		int len;
		int d = tile_match_dot(tp, body, n, i, j, false, &scale, &len);
		if (d >= 0) {
			line(te, ind, "float %s = ", s->var->name);
			if (!(s->rhs->kind == EX_FLT && s->rhs->fval == 0)) {
				expr(te, s->rhs);
				sb_puts(te->out, " + ");
			}
			frag(te->out, te, te->dot_name[d]);
			if (scale) {
				sb_puts(te->out, " * (");
				expr(te, scale);
				sb_putc(te->out, ')');
			}
			sb_puts(te->out, ";\n");
			if (len == 4) {
				/* the second part's accumulator, read only in x + y: its start */
				line(te, ind, "float %s = ", body[i + 2]->var->name);
				expr(te, body[i + 2]->rhs);
				sb_puts(te->out, ";\n");
			}
			i += len - 1;
			continue;
		}
		Expr *target, *g, *kept;
		Reducer red;
		Var *acc;
		int r;
		if (tp->skip_hidden && !te->as_written && tile_mask_stmt(tp, s, &kept)) {
			/* A step the mask keeps whole is unmasked: the statement keeps the value (a
			 * select, an if/else) or has nothing to do. */
			line(te, ind, "if (decltype(%s)::value) {\n", te->masked);
			te->as_written = true;
			elem_stmts(te, &s, 1, j, ind + 1);
			te->as_written = false;
			if (kept) {
				line(te, ind, "} else {\n");
				kept_value(te, s, kept, ind + 1);
			}
			line(te, ind, "}\n");
			continue;
		}
		if (!tp->skip_hidden && tile_mask_stmt(tp, s, &kept)) {
			/* The mask is the element's range now: inside it, the mask keeps the value. */
			if (kept)
				kept_value(te, s, kept, ind);
			continue;
		}
		if ((s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(p, s, &target, &red, &g) && target->kind == EX_VAR &&
		    (r = red_index(te, target->var)) >= 0) {
			const char *nm = te->red_name[r];
			if (red == RED_ADD) {
				line(te, ind, "%s[%s] += ", nm, te->h);
			} else {
				line(te, ind, "%s[%s] = %s(%s[%s], ", nm, te->h, red == RED_MAX ? "fmaxf" : "fminf", nm, te->h);
			}
			expr(te, g);
			sb_puts(te->out, red == RED_ADD ? ";\n" : ");\n");
			continue;
		}
		if (s->kind == ST_FOR && tile_match_pv(tp, s, j, &g, &acc, false) >= 0) {
			for (int k = 0; k < te->npv; k++)
				if (te->pv[k] == s) {
					sb_indent(te->out, ind);
					frag(te->out, te, te->pv_name[k]);
					sb_puts(te->out, " = ");
					expr(te, g);
					sb_puts(te->out, ";\n");
				}
			continue;
		}
		if (s->kind == ST_IF) {
			line(te, ind, "if (");
			expr(te, s->cond);
			sb_putc(te->out, ')');
			elem_body(te, s->body[0], j, ind);
			if (s->nbody > 1 && s->body[1]) {
				line(te, ind, "else");
				elem_body(te, s->body[1], j, ind);
			}
			continue;
		}
		if (s->kind == ST_BLOCK) {
			line(te, ind, "{\n");
			elem_stmts(te, s->body, s->nbody, j, ind + 1);
			line(te, ind, "}\n");
			continue;
		}
		sb_indent(te->out, ind);
		print_stmt_to(te->out, s, ind, &te->pt);
	}
}

/* Whether e reads a loop iterator other than the grid's (the pass's j, a d). */
static bool reads_inner_loop(const TilePlan *tp, const Expr *e)
{
	if (e->kind == EX_VAR && e->var->kind == VAR_LOOP) {
		for (int g = 0; g < tp->ngrid; g++)
			if (tp->grid[g].var == e->var)
				return false;
		return true;
	}
	for (int i = 0; i < e->nargs; i++)
		if (reads_inner_loop(tp, e->args[i]))
			return true;
	return false;
}

/* Whether e can give a score of magnitude 2^14 or more other than through the products: a
 * float literal that large (-1e9, -FLT_MAX, HF's torch.finfo.min) or a float array that is no
 * operand of the products read at a loop other than the grid's (an additive mask or bias,
 * bias[h][i][j]; not a per-row value as ALiBi's slope[h]). Where none can, fx::exp_sub<true>
 * keeps its factor a constant (see the header: the exact form costs 1-7% of a prefill). */
static bool huge_source(TileEmit *te, const Expr *e)
{
	const TilePlan *tp = te->tp;
	if (e->kind == EX_FLT && isfinite(e->fval) && fabs(e->fval) >= 16384.0)
		return true;
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && scalar_is_float(e->var->ty)) {
		bool operand = tp->rowop->var == e->var || (tp->rowop2 && tp->rowop2->var == e->var);
		for (int k = 0; k < tp->ncolop; k++)
			operand |= tile_operand_is(tp->colop[k], e->var) || (tp->colop2[k] && tp->colop2[k]->var == e->var);
		/* an output read back holds what the region computed, moderate where its sources are */
		if (!operand && !stmt_writes_var(tp->region->loop, e->var) && reads_inner_loop(tp, e))
			return true;
	}
	for (int i = 0; i < e->nargs; i++)
		if (huge_source(te, e->args[i]))
			return true;
	return false;
}

/* Whether e is, or has as an arm, a float scalar from outside the region: a fill value
 * set before it (MPT's `min_val = torch.finfo.min`) or passed in, whose size the printer
 * does not know. */
static bool outside_scalar(TileEmit *te, const Expr *e)
{
	if (e->kind == EX_UN && e->uop == UOP_NEG)
		return outside_scalar(te, e->args[0]);
	if (e->kind == EX_COND)
		return outside_scalar(te, e->args[1]) || outside_scalar(te, e->args[2]);
	return e->kind == EX_VAR && scalar_is_float(e->var->ty) && e->var->kind != VAR_LOOP && !stmt_declares(te->tp->region->loop, e->var);
}

/* Whether a statement of s can give a score of 2^14 or more (huge_source, or a score set
 * to a scalar from outside: outside_scalar); a scalar set to a literal (a max's start,
 * `float m = -FLT_MAX;`) is no score. */
static bool huge_scores(TileEmit *te, const Stmt *s)
{
	if (!s)
		return false;
	const Expr *r = s->rhs;
	if (((s->kind == ST_ASSIGN && s->aop == AS_SET) || s->kind == ST_DECL) && r && outside_scalar(te, r))
		return true; /* `s = min_val;`, not `s *= scale;` */
	bool lit = r && (r->kind == EX_FLT || (r->kind == EX_UN && r->args[0]->kind == EX_FLT));
	if (lit && (s->kind == ST_DECL || (s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR))) {
		/* a max's start; a score set to the literal (`x = -1e9f;` under a mask) is one */
		const Var *v = s->kind == ST_DECL ? s->var : s->lhs->var;
		for (int a = 0; a < te->tp->c->naccums; a++)
			if (te->tp->c->accums[a].var == v)
				return false;
	}
	const Expr *es[] = {s->lhs, s->rhs, s->cond, s->lo, s->hi};
	for (int i = 0; i < 5; i++)
		if (es[i] && huge_source(te, es[i]))
			return true;
	for (int i = 0; i < s->nbody; i++)
		if (huge_scores(te, s->body[i]))
			return true;
	return false;
}

/* ---- per-score reads ---- */

/* Pair (te->h, te->c) of a per-score read's registers `fx::Pair<T> r[mt][W / frag_cols][2]`:
 * columns c and c ^ 1 of a thread's row are adjacent in both layouts (frag), so each pair
 * of a fragment holds two neighbouring columns. */
static void sread_pair(StrBuf *b, const TileEmit *te, const char *name)
{
	if (te->tp->tt->row_slots == 2)
		sb_printf(b, "%s[%s >> 1][%s >> 1][%s & 1]", name, te->h, te->c, te->h);
	else
		sb_printf(b, "%s[%s][%s >> 2][(%s >> 1) & 1]", name, te->h, te->c, te->c);
}

/* Element (te->h, te->c) of a per-score read's registers. */
static void sread_elem(StrBuf *b, const TileEmit *te, const char *name)
{
	sread_pair(b, te, name);
	sb_printf(b, ".v[%s & 1]", te->c);
}

/* `j >= lo && j < hi` (and the mask's bounds): the pass's range test of column j. */
static void range_test(TileEmit *te, const char *j)
{
	const TilePlan *tp = te->tp;
	sb_printf(te->out, "%s >= ", j);
	operand(te, tp->step->lo, OP_GE);
	sb_printf(te->out, " && %s < ", j);
	operand(te, tp->step->hi, OP_LT);
	if (tp->mask_lo) {
		sb_printf(te->out, " && %s >= ", j);
		operand(te, tp->mask_lo, OP_GE);
	}
	if (tp->mask_hi) {
		sb_printf(te->out, " && %s < ", j);
		operand(te, tp->mask_hi, OP_LT);
	}
}

/* The lambdas of a row's per-score reads at indent ind, inside the loop over row slots
 * (the row iterator declared): in_step(j), whether column j is in the pass's range, and
 * X_at(j), the address of read X at column j; X_pair, whether the lane's pairs of columns
 * are adjacent and aligned. */
static void sread_lambdas(TileEmit *te, int ind, const char **in, const char **at, const char **vec)
{
	TilePlan *tp = te->tp;
	const char *j = tp->sj->name;
	*in = fresh(te, "in_step");
	line(te, ind, "auto %s = [&](int %s) { return !decltype(%s)::value || (", *in, j, te->masked);
	range_test(te, j);
	sb_puts(te->out, "); };\n");
	for (int k = 0; k < tp->nsread; k++) {
		const Expr *r = tp->sread[k];
		at[k] = fresh(te, arena_printf(&tp->c->prog->arena, "%s_at", r->var->name));
		line(te, ind, "auto %s = [&](int %s) { return &", at[k], j);
		expr(te, r);
		sb_puts(te->out, "; };\n");
		vec[k] = "false";
		if (tp->sread_pair[k]) {
			/* the lane's pairs start at even distances from its first column */
			vec[k] = fresh(te, arena_printf(&tp->c->prog->arena, "%s_pair", r->var->name));
			line(te, ind, "const bool %s = fx::pair_aligned(%s(%s + fx::col_lane()));\n", vec[k], at[k], tp->step->var->name);
		}
	}
}

/* The loop over a row's pairs of elements that loads them (te->c even). */
static void sread_loads(TileEmit *te, int ind, const char *in, const char **at, const char **vec)
{
	TilePlan *tp = te->tp;
	const char *j = tp->sj->name;
	line(te, ind, "#pragma unroll\n");
	line(te, ind, "for (int %s = 0; %s < %d; %s += 2) {\n", te->c, te->c, tp->bn / 4, te->c);
	line(te, ind + 1, "const int %s = %s + fx::col(%s);\n", j, tp->step->var->name, te->c);
	for (int k = 0; k < tp->nsread; k++) {
		sb_indent(te->out, ind + 1);
		sb_puts(te->out, "fx::load_pair(");
		sread_pair(te->out, te, te->sread_name[k]);
		sb_printf(te->out, ", %s(%s), %s(%s + 1), %s, %s(%s), %s(%s + 1));\n", at[k], j, at[k], j, vec[k], in, j, in, j);
	}
	line(te, ind, "}\n");
}

/* Loads the step's per-score reads into registers, before its products: each value once
 * (every pass reads the registers), the loads' latency under the products'. Two
 * neighbouring columns come in one load where the subscript makes them adjacent and the
 * row's address is aligned to the pair (fx::load_pair), else one by one; elements outside
 * the pass's range are not read (as in the passes). */
static void load_score_reads(TileEmit *te, int ind)
{
	TilePlan *tp = te->tp;
	if (!tp->nsread)
		return;
	te->sread_on = true;
	bool by_row = expr_reads_var(tp->step->lo, row_var(tp)) || expr_reads_var(tp->step->hi, row_var(tp)) ||
	              (tp->mask_lo && expr_reads_var(tp->mask_lo, row_var(tp))) || (tp->mask_hi && expr_reads_var(tp->mask_hi, row_var(tp)));
	for (int k = 0; k < tp->nsread; k++)
		by_row |= expr_reads_var(tp->sread[k], row_var(tp));
	line(te, ind, "/* read once a step, before the products: every pass reads the registers */\n");
	for (int k = 0; k < tp->nsread; k++) {
		te->sread_name[k] = fresh(te, arena_printf(&tp->c->prog->arena, "%s_r", tp->sread[k]->var->name));
		line(te, ind, "fx::Pair<%s> %s[%d][%d][2];\n", gpu_type(tp->sread[k]->ty), te->sread_name[k], tp->mt, tp->bn / tp->tt->frag_cols);
	}
	line(te, ind, "#pragma unroll\n");
	line(te, ind, "for (int %s = 0; %s < %d; %s++) {\n", te->h, te->h, row_slots(tp), te->h);
	if (by_row)
		row_index(te, ind + 1);
	const char *in, *at[MAX_TILE_VARS], *vec[MAX_TILE_VARS];
	sread_lambdas(te, ind + 1, &in, at, vec);
	sread_loads(te, ind + 1, in, at, vec);
	line(te, ind, "}\n");
}

/* The element type a product's template takes: the operands' type, or fx::tf32, the tag
 * of fp32 tiles multiplied as one tf32 product (precision(tf32)). */
static const char *product_type(const TilePlan *tp) { return tp->tf32 ? "fx::tf32" : gpu_type(tp->elem); }

/* Per-element loops of the pass printed as one loop over the thread's elements (loops[0 ..
 * nl), adjacent, none reading what an earlier one reduces): their products first, one
 * mask test, then each loop's body in order, then the reductions and P.V products. A
 * value both compute (e^(s - m) for the sum and for P) is computed once. */
static void elem_group(TileEmit *te, Stmt **loops, int nl, int ind)
{
	TilePlan *tp = te->tp;
	bool by_row = expr_reads_var(tp->step->lo, row_var(tp)) || expr_reads_var(tp->step->hi, row_var(tp)) ||
	              (tp->mask_lo && expr_reads_var(tp->mask_lo, row_var(tp))) || (tp->mask_hi && expr_reads_var(tp->mask_hi, row_var(tp)));
	te->nred = te->npv = 0;
	for (int l = 0; l < nl; l++) {
		Var *j = loops[l]->var;
		int n;
		Stmt **body = loop_body(loops[l], &n);
		line(te, ind, "/* line %d: for (%s ...) */\n", loops[l]->loc.line, j->name);
		for (int i = 0, len = 1; i < n; i += len) {
			int d = tile_match_dot(tp, body, n, i, j, false, NULL, &len);
			if (d < 0)
				len = 1;
			if (d >= 0 && !te->dot_done[d]) {
				te->dot_done[d] = true;
				line(te, ind, "fx::dot_rows%s<%s, %d, %d, %d, %d, %d%s>(%s, %s, %s, %s);\n", tile_kt(tp, tp->dots[d].colop) ? "_t" : "", product_type(tp), tp->mt, tp->bn, tp->kdim, tp->bm, row_threads(tp),
				     tp->row_parts > 1 ? ", 2" : tp->presplit ? ", 1, true" : "", te->dot_name[d], te->qa, te->rbase, colop_tile(te, tp->dots[d].colop));
			}
		}
		for (int i = 0; i < n; i++)
			collect_elem(te, body[i], j);
		by_row |= stmt_reads_var(loops[l]->body[0], row_var(tp));
	}
	for (int r = 0; r < te->nred; r++)
	{
		line(te, ind, "float %s[%d] = {", te->red_name[r], row_slots(tp));
		for (int h = 0; h < row_slots(tp); h++)
			sb_printf(te->out, "%s%s", h ? ", " : "", red_identity(te->red_op[r]));
		sb_puts(te->out, "};\n");
	}
	for (int k = 0; k < te->npv; k++)
		decl_tile(te, ind, "float", te->pv_name[k], tp->bn);
	bool split = false;
	for (int l = 0; l < nl; l++) {
		te->jel = loops[l]->var;
		split |= stmt_any_expr(te, loops[l]->body[0], has_split);
	}
	te->jel = NULL;
	if (split) {
		/* a name per group: groups share the step's scope */
		te->jlane = fresh_var(tp->c, "j_lane", TY_INT, VAR_LOCAL);
		if (!te->jstep)
			te->jstep = fresh_var(tp->c, "col_step", TY_INT, VAR_LOCAL);
		line(te, ind, "const int %s = %s + fx::col_lane();\n", te->jlane->name, tp->step->var->name);
	}
	line(te, ind, "#pragma unroll\n");
	line(te, ind, "for (int %s = 0; %s < %d; %s++) {\n", te->h, te->h, row_slots(tp), te->h);
	if (by_row)
		row_index(te, ind + 1);
	line(te, ind + 1, "#pragma unroll\n");
	line(te, ind + 1, "for (int %s = 0; %s < %d; %s++) {\n", te->c, te->c, tp->bn / 4, te->c);
	Var *j = loops[0]->var;
	line(te, ind + 2, "const int %s = %s + fx::col(%s);\n", j->name, tp->step->var->name, te->c);
	for (int l = 1; l < nl; l++) {
		bool seen = false;
		for (int k = 0; k < l; k++)
			seen |= !strcmp(loops[k]->var->name, loops[l]->var->name);
		if (!seen)
			line(te, ind + 2, "const int %s = %s;\n", loops[l]->var->name, j->name);
	}
	for (int k = 0; k < te->npv; k++) {
		sb_indent(te->out, ind + 2);
		frag(te->out, te, te->pv_name[k]);
		sb_puts(te->out, " = 0.0f;\n");
	}
	if (te->rows_in_tile) /* not the last row again, with the padding rows' values */
		line(te, ind + 2, "if (%s + fx::row(%s) < %s && (!decltype(%s)::value || (", te->rbase, te->h, te->nrows, te->masked);
	else
		line(te, ind + 2, "if (!decltype(%s)::value || (", te->masked);
	range_test(te, j->name);
	sb_puts(te->out, te->rows_in_tile ? "))) {\n" : ")) {\n");
	for (int l = 0; l < nl; l++) {
		int n;
		Stmt **body = loop_body(loops[l], &n);
		if (nl > 1)
			line(te, ind + 3, "{\n");
		te->jel = split ? loops[l]->var : NULL;
		te->elem_j = loops[l]->var;
		elem_stmts(te, body, n, loops[l]->var, ind + 3 + (nl > 1));
		te->jel = NULL;
		te->elem_j = NULL;
		if (nl > 1)
			line(te, ind + 3, "}\n");
	}
	line(te, ind + 2, "}\n");
	line(te, ind + 1, "}\n");
	line(te, ind, "}\n");
	/* The loop's reductions, completed across the lanes that share a row. */
	for (int r = 0; r < te->nred; r++) {
		const char *v = te->red[r]->name, *nm = te->red_name[r];
		for (int h = 0; h < row_slots(tp); h++) {
			if (te->red_op[r] == RED_ADD)
				line(te, ind, "%s[%d] += fx::row_sum(%s[%d]);\n", v, h, nm, h);
			else
				line(te, ind, "%s[%d] = %s(%s[%d], fx::row_%s(%s[%d]));\n", v, h, te->red_op[r] == RED_MAX ? "fmaxf" : "fminf", v, h,
				     te->red_op[r] == RED_MAX ? "max" : "min", nm, h);
		}
	}
	if (te->npv && te->pv_wait) {
		/* V's tile, loaded at the step's start (the next step's K tiles may still arrive) */
		line(te, ind, "fx::cp_async_wait<1>();\n");
		line(te, ind, "__syncthreads();\n");
		te->pv_wait = false;
	}
	for (int k = 0; k < te->npv; k++) {
		if (tp->pscale)
			pscale_weights(te, te->pv_name[k], te->pv_acc[k], ind);
		/* the warp's columns of V's tile, whose rows may be wider (its own columns split
		 * over warps, or the first columns of a key tile of two parts) */
		int n = tp->ncols / tp->cw, ld = tp->colop_cols[te->pv_colop[k]];
		bool wide = ld != n;
		if (tile_kt(tp, te->pv_colop[k])) {
			/* V kept [N][K] (a d-major paged value cache): its rows are the columns */
			line(te, ind, "fx::dot_tile_t<%s, %d, %d, %d, %d%s%s>(%s, %s, %s%s%s);\n", product_type(tp), tp->mt, n, tp->bn, row_threads(tp),
			     tp->psplit || wide ? (tp->psplit ? ", true" : ", false") : "", wide ? arena_printf(&tp->c->prog->arena, ", %d", ld) : "", te->pv_acc[k]->name,
			     te->pv_name[k], colop_tile(te, te->pv_colop[k]), wide ? ", " : "", wide ? (te->cbase ? te->cbase : "0") : "");
			continue;
		}
		line(te, ind, "fx::dot_tile<%s, %d, %d, %d, %d%s%s>(%s, %s, %s%s%s);\n", product_type(tp), tp->mt, n, tp->bn, row_threads(tp),
		     tp->psplit || wide ? arena_printf(&tp->c->prog->arena, ", %s, %s", tp->presplit ? "true" : "false", tp->psplit ? "true" : "false") : tp->presplit ? ", true" : "",
		     wide ? arena_printf(&tp->c->prog->arena, ", %d", ld) : "", te->pv_acc[k]->name, te->pv_name[k], colop_tile(te, te->pv_colop[k]),
		     wide ? ", " : "", wide ? (te->cbase ? te->cbase : "0") : "");
	}
	te->nred = te->npv = 0;
}

/* ---- the order of a step's statements ---- */

/* Whether running a and b in either order gives the same result: neither writes a tile
 * variable (per-row value, accumulator or per-step tile) that the other reads or writes. */
static bool commute(const TilePlan *tp, const Stmt *a, const Stmt *b)
{
	for (int i = 0; i < tp->nvars; i++) {
		const Var *v = tp->vars[i];
		bool wa = stmt_writes_var(a, v), wb = stmt_writes_var(b, v);
		if ((wa && (wb || stmt_reads_var(b, v))) || (wb && stmt_reads_var(a, v)))
			return false;
	}
	return true;
}

/* Whether per-element loop s reads a value that loops[0 .. n) reduce or accumulate (only
 * final after their loop, so s cannot share it). */
static bool reads_results(const TilePlan *tp, Stmt **loops, int n, const Stmt *s)
{
	for (int l = 0; l < n; l++)
		for (int i = 0; i < tp->nvars; i++)
			if (tp->roles[i] != TR_ELEM && stmt_writes_var(loops[l], tp->vars[i]) && stmt_reads_var(s, tp->vars[i]))
				return true;
	return false;
}

/* The step's statements, with each run of row statements that sits between two per-element
 * loops and commutes with the first moved before it, so the two loops become adjacent and
 * print as one (the rescale of the accumulator between the sum of e^(s - m) and P.V, say). */
static void step_order(const TilePlan *tp, Stmt **steps, int n, Stmt **order)
{
	int no = 0;
	for (int i = 0; i < n;) {
		if (tile_is_elem_loop(tp, steps[i])) {
			order[no++] = steps[i++];
			continue;
		}
		int k = i;
		while (k < n && !tile_is_elem_loop(tp, steps[k]))
			k++;
		bool hoist = no > 0 && tile_is_elem_loop(tp, order[no - 1]) && k < n;
		for (int r = i; r < k && hoist; r++)
			hoist = commute(tp, order[no - 1], steps[r]);
		if (hoist) {
			Stmt *e = order[--no];
			for (int r = i; r < k; r++)
				order[no++] = steps[r];
			order[no++] = e;
		} else {
			for (int r = i; r < k; r++)
				order[no++] = steps[r];
		}
		i = k;
	}
}

/* ---- the kernel ---- */

/* e with each of the plan's gathers (canonical) read from its ring at row rv of the
 * tile in te->slot: ring[slot * bn + rv]. */
static Expr *ring_reads(TileEmit *te, Expr *e, Var *rv)
{
	Program *p = te->tp->c->prog;
	for (int g = 0; g < te->tp->ngather; g++) {
		Expr *at = ex_bin(p, OP_ADD, ex_bin(p, OP_MUL, ex_var(p, te->slot, e->loc), ex_int(p, te->tp->bn, e->loc), e->loc), ex_var(p, rv, e->loc), e->loc);
		e = expr_subst_equal(p, e, te->tp->gather[g], ex_index(p, te->ring[g], &at, e->loc));
	}
	return e;
}

/* A lambda's parameter named base unless the expression it returns reads a variable of
 * that name (a user's dilation `r`), then base_, base__, ... */
static Var *lambda_param(Program *p, const Expr *e, const char *base, Loc loc)
{
	const char *name = base;
	while (expr_reads_named(e, name))
		name = arena_printf(&p->arena, "%s_", name);
	return var_new(p, VAR_LOCAL, name, TY_INT, loc);
}

/* The column operand of the plan that ref is (by identity), or -1. */
static int colop_of(const TilePlan *tp, const Expr *ref)
{
	for (int k = 0; k < tp->ncolop; k++)
		if (ref == tp->colop[k])
			return k;
	return -1;
}

/* The distance in elements between consecutive values of subscript pos of parameter
 * array v (declared dimensions, no strides of its own): the product of the later
 * dimensions. */
static Expr *dim_stride(Program *p, const Var *v, int pos, Loc loc)
{
	Expr *e = NULL;
	for (int i = pos + 1; i < v->ndim; i++)
		e = e ? ex_bin(p, OP_MUL, e, v->dims[i], loc) : v->dims[i];
	return e ? e : ex_int(p, 1, loc);
}

/* `[&](int param) { return &ref; }` with the row iterator rowv read as base + (row ? r : 0)
 * and k as (row ? 0 : c): a row pointer (row) or, for an operand stored transposed, a
 * column pointer. A row's first element of an operand read in chunks (tile_chunk) is at
 * subscripts 0 for both `k / X` and `k % X`. */
static void print_ptr_lambda(TileEmit *te, const Expr *ref, const Var *rowv, const char *base, bool row)
{
	Program *p = te->tp->c->prog;
	int ck = colop_of(te->tp, ref), cpos;
	if (row && ck >= 0 && tile_chunk(te->tp, ck, &cpos)) {
		Expr *z = ex_copy(p, ref);
		z->args[cpos] = ex_int(p, 0, ref->loc);
		z->args[ref->nargs - 1] = ex_int(p, 0, ref->loc);
		ref = z;
	}
	Var *bv = var_new(p, VAR_LOCAL, base, TY_INT, ref->loc);
	Var *rv = lambda_param(p, ref, row ? "r" : "c", ref->loc);
	Expr *at = row ? ex_bin(p, OP_ADD, ex_var(p, bv, ref->loc), ex_var(p, rv, ref->loc), ref->loc) : ex_var(p, bv, ref->loc);
	Expr *e = expr_subst_expr(p, ref, te->tp->kc, row ? ex_int(p, 0, ref->loc) : ex_var(p, rv, ref->loc));
	if (te->slot && row)
		e = ring_reads(te, e, rv);
	e = expr_subst_expr(p, e, rowv, at);
	const char *saved = te->rowsub, *slot = te->h;
	te->rowsub = NULL;
	/* A column operand's per-row scalars (kvh = h / G) are the same in every row of the
	 * CTA (tile_plan chose its rows so): the first slot's. */
	if (rowv == te->tp->jc)
		te->h = "0";
	if (e->kind == EX_COND) {
		/* a row from one of two sources by key (tile_operand_read) */
		sb_printf(te->out, "[&](int %s) { return (", rv->name);
		expr(te, e->args[0]);
		sb_puts(te->out, ") ? &");
		expr(te, e->args[1]);
		sb_puts(te->out, " : &");
		expr(te, e->args[2]);
	} else {
		sb_printf(te->out, "[&](int %s) { return &", rv->name);
		expr(te, e);
	}
	sb_puts(te->out, "; }");
	te->rowsub = saved;
	te->h = slot;
}

/* &A[...] of operand `ref` for tile row `r`: the row iterator is base + r, k is 0. */
static void print_row_ptr(TileEmit *te, const Expr *ref, const Var *rowv, const char *base) { print_ptr_lambda(te, ref, rowv, base, true); }

/* e as the launcher prints it. */
static const char *expr_str(TileEmit *te, const Expr *e)
{
	StrBuf b = {0};
	print_expr_to(&b, e, &te->pt);
	const char *s = arena_strdup(&te->tp->c->prog->arena, b.s);
	sb_free(&b);
	return s;
}

/* Part `part` of an operand's rows (ref's, or ref2's for part 1): the row table in
 * shared memory where the loads read one (te->from_rows), else the row pointers. */
static void print_rows_part(TileEmit *te, const Expr *ref, const Expr *ref2, const Var *rowv, const char *base, int part)
{
	const char *tab = NULL;
	for (int k = 0; k < te->tp->ncolop && te->from_rows; k++)
		if (ref == te->tp->colop[k] && ref2 == te->tp->colop2[k])
			tab = te->rows_smem[k][part];
	if (tab)
		sb_printf(te->out, "[&](int r) { return %s[r]; }", tab);
	else
		print_row_ptr(te, part ? ref2 : ref, rowv, base);
}

/* An operand's rows for the tile loaders (print_row_ptr), or for a product of two parts
 * (ref2 not NULL) both parts' side by side: fx::concat<kseg>(ref's rows, ref2's rows). */
static void print_operand_rows(TileEmit *te, const Expr *ref, const Expr *ref2, const Var *rowv, const char *base)
{
	/* an operand read in chunks (vLLM's key cache): fx::chunked<X>(rows, stride of k / X) */
	int ck = ref2 ? -1 : colop_of(te->tp, ref), cpos = -1, X = ck >= 0 ? tile_chunk(te->tp, ck, &cpos) : 0;
	/* a transposed operand addressed by its keys (a d-major paged value cache):
	 * fx::strided(rows, the last dimension) */
	bool tr = ck >= 0 && tile_t_rows(te->tp, ck);
	if (X || tr) {
		if (X)
			sb_printf(te->out, "fx::chunked<%d>(", X);
		else
			sb_puts(te->out, "fx::strided(");
		print_rows_part(te, ref, NULL, rowv, base, 0);
		sb_puts(te->out, ", ");
		expr(te, dim_stride(te->tp->c->prog, ref->var, tr ? ref->nargs - 2 : cpos, ref->loc));
		sb_putc(te->out, ')');
		return;
	}
	if (ref2)
		sb_printf(te->out, "fx::concat<%d>(", te->tp->kseg);
	for (int part = 0; part < (ref2 ? 2 : 1); part++) {
		if (part)
			sb_puts(te->out, ", ");
		print_rows_part(te, ref, ref2, rowv, base, part);
	}
	if (ref2)
		sb_putc(te->out, ')');
}

/* `auto name = [&](int at, int slot) {...}`: starts copying the index values of the
 * plan's gathers (TilePlan.gather) for the rows of the step at `at` into their rings'
 * slot. */
static void index_loader(TileEmit *te, const char *name, const char *at, const char *slot)
{
	const TilePlan *tp = te->tp;
	line(te, 1, "auto %s = [&](int %s, int %s) {\n", name, at, slot);
	for (int g = 0; g < tp->ngather; g++) {
		line(te, 2, "fx::load_index<%d, %d>(%s + %s * %d, ", tp->bn, tp->threads, te->ring[g]->name, slot, tp->bn);
		print_ptr_lambda(te, tp->gather[g], tp->jc, at, true);
		sb_printf(te->out, ", %s - %s);\n", te->je, at);
	}
	line(te, 1, "};\n");
}

/* `auto name = [&](int at, int slot) {...}`: stores the row pointers of the step at `at`
 * of each column operand (part) that reads a gather, from the index values in ring slot
 * `slot` (te->slot). */
static void row_pointers(TileEmit *te, const char *name, const char *at)
{
	const TilePlan *tp = te->tp;
	line(te, 1, "auto %s = [&](int %s, int %s) {\n", name, at, te->slot->name);
	for (int k = 0; k < tp->ncolop; k++)
		for (int part = 0; part < 2; part++)
			if (te->rows_smem[k][part]) {
				line(te, 2, "fx::row_ptrs<%d, %d>(%s, ", tp->bn, tp->threads, te->rows_smem[k][part]);
				print_row_ptr(te, part ? tp->colop2[k] : tp->colop[k], tp->jc, at);
				sb_printf(te->out, ", %s - %s);\n", te->je, at);
			}
	line(te, 1, "};\n");
}

/* `if (step < end) load(step, slot);` at indent ind. */
static void index_step(TileEmit *te, const char *load, const char *step, const char *slot, int ind)
{
	line(te, ind, "if (%s < %s)\n", step, te->je);
	line(te, ind + 1, "%s(%s, %s);\n", load, step, slot);
}

/* The step n >= 1 steps after step x (an expression): x + n * bn, or where steps are
 * skipped (next: skip_steps' lambda) next(x + bn) n times over. */
static const char *steps_after(TileEmit *te, const char *next, const char *x, int n)
{
	Arena *a = &te->tp->c->prog->arena;
	if (!next)
		return arena_printf(a, "%s + %d", x, n * te->tp->bn);
	for (int k = 0; k < n; k++)
		x = arena_printf(a, "%s(%s + %d)", next, x, te->tp->bn);
	return x;
}

/* The pass's bound `e` (lo or hi) at row `row`. */
static void bound_at(TileEmit *te, const Expr *e, const char *row)
{
	te->rowsub = row;
	expr(te, e);
	te->rowsub = NULL;
}

/* min/max of a pass bound over the CTA's first and last rows (the bounds are affine in
 * the row, so their extremes over the rows are there). */
static void extreme(TileEmit *te, const char *f, const Expr *e)
{
	if (!expr_reads_var(e, row_var(te->tp))) {
		expr(te, e);
		return;
	}
	sb_printf(te->out, "%s(", f);
	bound_at(te, e, te->rf);
	sb_puts(te->out, ", ");
	bound_at(te, e, te->rl);
	sb_putc(te->out, ')');
}

/* `name = outer(extreme(e), extreme(me))`, or extreme(e) alone without a mask bound. */
static void cover(TileEmit *te, const char *name, const char *outer, const char *ext, const Expr *e, const Expr *me)
{
	sb_printf(te->out, "%s = ", name);
	if (me)
		sb_printf(te->out, "%s(", outer);
	extreme(te, ext, e);
	if (me) {
		sb_puts(te->out, ", ");
		extreme(te, ext, me);
		sb_putc(te->out, ')');
	}
}

/* The pass covers the union of the rows' ranges [max(lo, mlo), min(hi, mhi)); inner_* is
 * their intersection (steps inside it need no mask). For the union, max over rows of
 * min(a, b) <= min(max a, max b), and symmetrically for the lower end. */
static void bounds(TileEmit *te, const Expr *lo, const Expr *mlo, const Expr *hi, const Expr *mhi)
{
	line(te, 1, "const int ");
	cover(te, te->jb, "fx::imax", "fx::imin", lo, mlo);
	sb_puts(te->out, ", ");
	cover(te, te->je, "fx::imin", "fx::imax", hi, mhi);
	sb_puts(te->out, ";\n");
	line(te, 1, "const int ");
	cover(te, te->lom, "fx::imax", "fx::imax", lo, mlo);
	sb_puts(te->out, ", ");
	cover(te, te->him, "fx::imin", "fx::imin", hi, mhi);
	sb_puts(te->out, ";\n");
}

/* The other parallel loops' iterators from the CTA's linear index `src`, innermost fastest. */
static void print_cta_coords(TileEmit *te, const char *src)
{
	const TilePlan *tp = te->tp;
	const char *bx = fresh(te, "cta");
	line(te, 1, "long long %s = %s;\n", bx, src);
	for (int g = tp->ngrid - 1; g >= 0; g--) {
		if (g == tp->rowdim || g == tp->pack)
			continue;
		line(te, 1, "const int %s = ", tp->grid[g].var->name);
		if (!(tp->grid[g].lo->kind == EX_INT && tp->grid[g].lo->ival == 0)) {
			expr(te, tp->grid[g].lo);
			sb_puts(te->out, " + ");
		}
		sb_printf(te->out, "(int)(%s %% ", bx);
		print_extent(te->out, &tp->grid[g], &te->pt);
		sb_printf(te->out, ");\n");
		line(te, 1, "%s /= ", bx);
		print_extent(te->out, &tp->grid[g], &te->pt);
		sb_puts(te->out, ";\n");
	}
}

/* Packed rows (tile.h, pack): the CTA's sequence (its loop variable, declared here) and
 * row tile (returned, a name), from its tile of the batch's (fx::packed_tile); a CTA past
 * the last tile returns. */
static const char *packed_coords(TileEmit *te, const char *tile)
{
	const TilePlan *tp = te->tp;
	const GridLoop *gs = &tp->grid[tp->pack], *gi = &tp->grid[tp->rowdim];
	Program *p = tp->c->prog;
	Var *x = fresh_var(tp->c, "seq", TY_INT, VAR_LOCAL);
	const char *rt = fresh(te, "seq_tile");
	line(te, 1, "/* the row tiles of the packed batch, each sequence's last first: this CTA's sequence and tile in it */\n");
	line(te, 1, "int %s, %s;\n", gs->var->name, rt);
	line(te, 1, "if (!fx::packed_tile<%d>(", tp->bm);
	expr(te, gs->lo);
	sb_puts(te->out, ", ");
	expr(te, gs->hi);
	sb_printf(te->out, ", %s, gridDim.y, [&](int %s) { return ", tile, x->name);
	Expr *rows = expr_subst_var(p, gi->hi, gs->var, x);
	if (!(gi->lo->kind == EX_INT && gi->lo->ival == 0))
		rows = ex_bin(p, OP_SUB, rows, gi->lo, gi->hi->loc);
	expr(te, rows);
	sb_printf(te->out, "; }, %s, %s))\n\t\treturn;\n", gs->var->name, rt);
	return rt;
}

/* Split-k: the kernels' extra parameters. */
static void splitk_params(TileEmit *te, const char *ws, const char *nrow, bool chunk_kernel)
{
	const TilePlan *tp = te->tp;
	sb_printf(te->out, ", %sfloat *__restrict__ %s, long long %s, int %s", chunk_kernel ? "" : "const ", ws, nrow, tp->split.ndecl->var->name);
	if (chunk_kernel)
		sb_printf(te->out, ", int %s", tp->split.cdecl->var->name);
}

/* Split-k: each partial's base in the workspace. */
static void part_bases(TileEmit *te, const char *ws, const char *nrow, bool chunk_kernel)
{
	const TilePlan *tp = te->tp;
	for (int k = 0; k < tp->split.nparts; k++)
		line(te, 1, "%sfloat *%s = %s + %dLL * %s * %s;\n", chunk_kernel ? "" : "const ", tp->split.parts[k]->name, ws, split_part_offset(&tp->split, k), nrow,
		     tp->split.ndecl->var->name);
}

/* A load's template argument for the columns that hold data, when the tile is padded. */
static const char *data_arg(const TilePlan *tp, int data, int cols)
{
	return data == cols ? "" : arena_printf(&tp->c->prog->arena, ", %d", data);
}

/* Prints the loops of a skip test at indent 2: over the blocks of the CTA's rows (when
 * the mask reads them) and the step at `at`'s blocks, or its columns, a thread's share
 * (a mask read by column). Returns the indent of their body. */
static int skip_loops(TileEmit *te, const char *at)
{
	const TilePlan *tp = te->tp;
	const char *bj = tp->skip_bj->name;
	int ind = 2;
	if (tp->skip_bi) {
		const char *bi = tp->skip_bi->name;
		line(te, 2, "for (int %s = %s / %d; %s <= (%s + %s - 1) / %d; %s++)\n", bi, te->i0, tp->skip_ci, bi, te->i0, te->nrows, tp->skip_ci, bi);
		ind++;
	}
	if (tp->skip_cj == 1)
		line(te, ind, "for (int %s = %s + (int)threadIdx.x; %s < fx::imin(%s + %d, %s); %s += blockDim.x)\n", bj, at, bj, at, tp->bn, te->je, bj);
	else
		line(te, ind, "for (int %s = %s / %d; %s <= (fx::imin(%s + %d, %s) - 1) / %d; %s++)\n", bj, at, tp->skip_cj, bj, at, tp->bn, te->je, tp->skip_cj, bj);
	return ind + 1;
}

/* Prints `(kept) != 0` for the hidden-when condition h (`(c) != 0` for h = !c), or
 * `!(h)`, after `pre`. */
static void kept_cond(TileEmit *te, const char *pre)
{
	const Expr *h = te->tp->skip_hidden;
	bool neg = h->kind == EX_UN && h->uop == UOP_NOT;
	sb_printf(te->out, neg ? "%s(" : "%s!(", pre);
	expr(te, neg ? h->args[0] : h);
	sb_puts(te->out, neg ? ") != 0" : ")");
}

/* Prints lambda `name(at)`: whether the mask keeps some element (any) or every element
 * (!any) of the CTA's rows over the step at `at`; flag names its accumulator. A mask
 * read by column (a key padding mask) is tested by the CTA's threads together. */
static void skip_test(TileEmit *te, const char *name, const char *at, const char *flag, bool any)
{
	line(te, 1, "auto %s = [&](int %s) -> bool {\n", name, at);
	line(te, 2, "int %s = %d;\n", flag, any ? 0 : 1);
	int ind = skip_loops(te, at);
	sb_indent(te->out, ind);
	kept_cond(te, arena_printf(&te->tp->c->prog->arena, "%s %s= ", flag, any ? "|" : "&"));
	sb_puts(te->out, ";\n");
	if (te->tp->skip_cj == 1)
		line(te, 2, "return __syncthreads_%s(%s) != 0;\n", any ? "or" : "and", flag);
	else
		line(te, 2, "return %s != 0;\n", flag);
	line(te, 1, "};\n");
}

/* Prints lambda `name(at)` for a block layout: bit 0 when it keeps some element of the
 * CTA's rows over the step at `at`, bit 1 when it keeps every element (each thread
 * alone: a few blocks). */
static void kept_test(TileEmit *te, const char *name, const char *at)
{
	const char *any = fresh(te, "any"), *all = fresh(te, "all");
	line(te, 1, "auto %s = [&](int %s) -> int {\n", name, at);
	line(te, 2, "int %s = 0, %s = 1;\n", any, all);
	int ind = skip_loops(te, at);
	sb_indent(te->out, ind);
	kept_cond(te, "if (");
	sb_puts(te->out, ")\n");
	line(te, ind + 1, "%s = 1;\n", any);
	line(te, ind, "else\n");
	line(te, ind + 1, "%s = 0;\n", all);
	line(te, 2, "return %s | %s << 1;\n", any, all);
	line(te, 1, "};\n");
}

/* Prints the lambdas that skip the steps a mask hides whole (see skip_hidden in tile.h)
 * and returns the name of the one that gives the first step at or after its argument
 * that is not skipped. A mask read by column (a key padding mask) is tested by the
 * CTA's threads together, step by step. A block layout's steps are tested a window at a
 * time by the CTA's threads, each step by a thread alone, and marked in shared memory
 * after the plan's tiles (fx::KeptSteps): the walk finds the next kept step there, where
 * a test per step would wait on its load, once per step skipped (where the tiles leave
 * no room, each thread tests the steps one by one). */
static const char *skip_steps(TileEmit *te, int off)
{
	const TilePlan *tp = te->tp;
	const char *next = fresh(te, "next_live"), *at = fresh(te, "at");
	if (tile_kept_window(tp)) {
		const char *kept = fresh(te, "kept"), *steps = fresh(te, "kept_steps");
		line(te, 1, "/* steps where the layout hides every element of the CTA's rows are skipped, found %d steps at a time */\n", TILE_KEPT_WINDOW);
		kept_test(te, kept, at);
		line(te, 1, "fx::KeptSteps<%d, %d> %s{(unsigned *)(%s + %d), %s, %s, %d};\n", TILE_KEPT_WINDOW, tp->threads, steps, te->smem, off, te->jb, te->je, tp->bn);
		line(te, 1, "auto %s = [&](int %s) { return %s.next(%s, %s); };\n", next, at, steps, at, kept);
		if (tp->nmask) {
			/* whether the layout keeps every element of the step: then it runs unmasked */
			te->whole = fresh(te, "whole");
			line(te, 1, "auto %s = [&](int %s) { return %s.whole(%s, %s); };\n", te->whole, at, steps, at, kept);
		}
		return next;
	}
	const char *live = fresh(te, "live"), *any = fresh(te, "any");
	line(te, 1, "/* steps where the mask hides every element of the CTA's rows are skipped */\n");
	skip_test(te, live, at, any, true);
	if (tp->nmask) {
		/* whether the mask keeps every element of the step: then it runs unmasked */
		te->whole = fresh(te, "whole");
		skip_test(te, te->whole, at, any, false);
	}
	line(te, 1, "auto %s = [&](int %s) {\n", next, at);
	line(te, 2, "while (%s < %s && !%s(%s))\n", at, te->je, live, at);
	line(te, 3, "%s += %d;\n", at, tp->bn);
	line(te, 2, "return %s;\n", at);
	line(te, 1, "};\n");
	return next;
}

/* Epilogue loop s (tile_store_pass) as a second pass over the column tiles after the
 * first: each step loads its tiles (`load`, the first pass's loader, into stage 0), takes
 * the products on the tensor cores again and runs s's statements for every element of
 * its range, the row values final; the masks the statements hold run as written.
 * colop_base: the column tiles' shared memory (stage 0). */
static void store_pass(TileEmit *te, Stmt *s, const char *load, const char *const *colop_base)
{
	TilePlan *tp = te->tp;
	const char *j0 = tp->step->var->name;
	bool two = tp->stages == 2;
	line(te, 1, "/* line %d: the stored row again, a second pass over the column tiles */\n", s->loc.line);
	line(te, 1, "for (int %s = ", j0);
	expr(te, s->lo);
	sb_printf(te->out, "; %s < ", j0);
	operand(te, s->hi, OP_LT);
	sb_printf(te->out, "; %s += %d) {\n", j0, tp->bn);
	line(te, 2, two ? "%s(%s, 0);\n" : "%s(%s);\n", load, j0);
	if (te->load_one)
		line(te, 2, "%s(%s);\n", te->load_one, j0);
	if (two || tp->tt->stages == 2) {
		line(te, 2, "fx::cp_async_commit();\n");
		line(te, 2, "fx::cp_async_wait<0>();\n");
	}
	line(te, 2, "__syncthreads();\n");
	for (int k = 0; k < tp->ncolop && tp->presplit; k++)
		line(te, 2, "fx::split_tile<%d, %d, %d, %s, %s>(%s, %s);\n", tp->bn, tp->colop_cols[k], tp->threads, product_type(tp), tp->colop_pv[k] ? "true" : "false",
		     te->colop_split[k], te->colop_smem[k]);
	if (tp->presplit)
		line(te, 2, "__syncthreads();\n");
	for (int k = 0; k < tp->ncolop; k++)
		if (tile_stages(tp, k) == 2)
			line(te, 2, "const uint16_t *%s = %s;\n", te->colop_smem[k], colop_base[k]);
	line(te, 2, "fx::dispatch(!(%s + %d <= ", j0, tp->bn);
	operand(te, s->hi, OP_LE);
	sb_printf(te->out, "), [&](auto %s) {\n", te->masked);
	memset(te->dot_done, 0, sizeof te->dot_done);
	/* every element of the range: the masks are the statements' own here */
	Expr *lo = tp->mask_lo, *hi = tp->mask_hi;
	tp->mask_lo = tp->mask_hi = NULL;
	te->rows_in_tile = true;
	elem_group(te, &s, 1, 3);
	te->rows_in_tile = false;
	tp->mask_lo = lo;
	tp->mask_hi = hi;
	line(te, 2, "});\n");
	line(te, 2, "__syncthreads();\n");
	line(te, 1, "}\n");
}

/* The epilogue's store that goes through shared memory (NULL: none), in a kernel that
 * skips the steps a block layout hides: a loop over an accumulator tile's columns whose one statement sets X[..][d]
 * (d its column, last) of an output X of 16- or 32-bit floats that no other epilogue
 * statement touches. The fragments' own stores write an element each, 8 rows apart, and
 * cost a short CTA (a sparse layout's: a few steps) as much as a few steps; through
 * shared memory each thread stores 16 bytes of a row (H100, blocksparse_prefill, N =
 * 8192, the diagonal alone kept: 0.191 -> 0.120 ms). Dense kernels keep their stores
 * (there the epilogue is one step in a hundred). */
static const Stmt *staged_store(const TilePlan *tp)
{
	if (!tp->skip_hidden || tp->skip_cj == 1 || tp->splitk || tp->pack >= 0)
		return NULL;
	const Stmt *found = NULL, *loop = NULL;
	for (int i = 0; i < tp->nepi; i++) {
		const Stmt *l = tp->epi[i], *b = l->kind == ST_FOR ? l->body[0] : NULL;
		if (!b || !tile_is_col_loop(tp, l))
			continue;
		b = b->kind == ST_BLOCK && b->nbody == 1 ? b->body[0] : b;
		const Expr *x = b->kind == ST_ASSIGN && b->aop == AS_SET ? b->lhs : NULL;
		if (found || !x || x->kind != EX_INDEX || x->var->kind != VAR_PARAM || x->nargs < 2 || !scalar_is_float(x->var->ty) || x->var->ty == TY_DOUBLE)
			return NULL;
		const Expr *d = x->args[x->nargs - 1];
		if (d->kind != EX_VAR || d->var != l->var)
			return NULL;
		for (int k = 0; k + 1 < x->nargs; k++)
			if (expr_reads_var(x->args[k], l->var))
				return NULL;
		int size = scalar_size(x->var->ty);
		if (tp->ndata % (16 / size) || tp->bm * (tp->ncols + 16 / size) * size > tile_smem_bytes(tp))
			return NULL;
		found = b;
		loop = l;
	}
	for (int i = 0; found && i < tp->nepi; i++)
		if (stmt_reads_var(tp->epi[i], found->lhs->var) || (tp->epi[i] != loop && stmt_writes_var(tp->epi[i], found->lhs->var)))
			return NULL;
	return found;
}

/* `fx::store_rows<...>(stage, [&](int r) { return &X[..row0 + r..][0]; }, nrows);`: the
 * staged output tile to its rows. */
static void store_staged(TileEmit *te)
{
	const TilePlan *tp = te->tp;
	Program *p = tp->c->prog;
	const Expr *x = te->staged->lhs;
	const Var *col = x->args[x->nargs - 1]->var;
	Var *r = lambda_param(p, x, "r", x->loc), *base = var_new(p, VAR_LOCAL, te->i0, TY_INT, x->loc);
	Expr *e = expr_subst_expr(p, x, col, ex_int(p, 0, x->loc));
	e = expr_subst_expr(p, e, row_var(tp), ex_bin(p, OP_ADD, ex_var(p, base, x->loc), ex_var(p, r, x->loc), x->loc));
	line(te, 1, "fx::store_rows<%d, %d, %d, %d>(%s, [&](int %s) { return &", tp->bm, te->pitch, tp->ndata, tp->threads, te->stage, r->name);
	expr(te, e);
	sb_printf(te->out, "; }, %s);\n", te->nrows);
}

void emit_tile_kernel(StrBuf *out, const GpuTarget *tg, TilePlan *tp, void (*print_params)(StrBuf *, const Func *, bool))
{
	const Region *r = tp->region;
	TileEmit te = {.out = out, .tg = tg, .tp = tp, .pt = {.type_name = gpu_type, .flatten_params = true, .var_hook = tile_hook, .expr_hook = conv_hook, .fn_name = device_fn, .recip_div = true}};
	te.pt.ctx = &te;
	te.pt.exp_sub = true;
	te.pt.exp_sub_moderate = !huge_scores(&te, tp->region->loop);
	te.pt.line_last = tp->line_directives ? &te.line_last : NULL;
	te.h = fresh(&te, "hf");
	te.c = fresh(&te, "e");
	te.smem = fresh(&te, "smem");
	te.i0 = fresh(&te, "row0");
	te.nrows = fresh(&te, "nrows");
	te.rbase = fresh(&te, "wrow");
	te.rf = fresh(&te, "first");
	te.rl = fresh(&te, "last");
	te.jb = fresh(&te, "begin");
	te.je = fresh(&te, "end");
	te.lom = fresh(&te, "inner_begin");
	te.him = fresh(&te, "inner_end");
	te.masked = fresh(&te, "masked");
	for (int k = 0; k < tp->ncolop; k++)
		te.colop_smem[k] = fresh(&te, arena_printf(&tp->c->prog->arena, "s_%s", tile_operand_read(tp->colop[k])->var->name));
	for (int d = 0; d < tp->ndots; d++)
		te.dot_name[d] = fresh(&te, arena_printf(&tp->c->prog->arena, "%s_%s", tp->rowop->var->name, tile_operand_read(tp->colop[tp->dots[d].colop])->var->name));
	const char *T = gpu_type(tp->elem);
	Var *iv = row_var(tp);
	const GridLoop *gi = &tp->grid[tp->rowdim];

	const char *ws = NULL, *nrow = NULL;
	if (tp->splitk) {
		ws = tp->ws_name = fresh(&te, "ws");
		nrow = tp->nrow_name = fresh(&te, "nrow");
	}
	sb_printf(out, "__global__ void __launch_bounds__(%d) %s_kernel%s(", tp->threads, r->name, tp->kernel);
	print_params(out, r->fn, true);
	if (tp->splitk)
		splitk_params(&te, ws, nrow, true);
	sb_puts(out, ")\n{\n");
	line(&te, 1, "extern __shared__ __align__(1024) uint16_t %s[];\n", te.smem);
	if (tp->splitk)
		line(&te, 1, SPLITK_CHUNK_START "\n");
	const char *head = fresh(&te, "head");
	const char *tile = fresh(&te, "tile");
	line(&te, 1, "long long %s;\n", head);
	line(&te, 1, "int %s;\n", tile);
	line(&te, 1, "fx::cta_order(%s, %s);\n", head, tile);
	print_cta_coords(&te, head);
	const char *rtile = tp->pack >= 0 ? packed_coords(&te, tile) : NULL;
	stmt_any_expr(&te, tp->step, collect_hoists);
	int nhoist = te.nhoist;
	te.nhoist = 0; /* printed as loads here, as their names from here on */
	for (int i = 0; i < nhoist; i++) {
		/* Bounds-checked: the step may read it only under a condition. */
		const Expr *h = te.hoist[i];
		if (!i)
			line(&te, 1, "/* loaded once, where every step's barriers would load them again */\n");
		line(&te, 1, "const %s %s = ", gpu_type(h->ty), te.hoist_name[i]);
		for (int d = 0; d < h->nargs; d++) {
			sb_puts(out, d ? " && 0 <= " : "0 <= ");
			expr(&te, h->args[d]);
			sb_puts(out, " && ");
			expr(&te, h->args[d]);
			sb_puts(out, " < ");
			operand(&te, h->var->dims[d], OP_LT);
		}
		sb_puts(out, " ? ");
		expr(&te, h);
		sb_printf(out, " : %s;\n", h->ty == TY_DOUBLE ? "0.0" : h->ty == TY_FLOAT ? "0.0f" : "0");
	}
	te.nhoist = nhoist;
	if (!rtile)
		line(&te, 1, "/* rows of '%s': the last tiles (the longest under a causal mask) first */\n", iv->name);
	line(&te, 1, "const int %s = ", te.i0);
	expr(&te, gi->lo);
	if (rtile)
		sb_printf(out, " + %s * %d;\n", rtile, tp->bm);
	else
		sb_printf(out, " + (int)(gridDim.y - 1 - %s) * %d;\n", tile, tp->bm);
	/* an end read from int64 offsets (cu_seqlens[b + 1] - cu_seqlens[b]) is a count of
	 * rows, an int */
	bool wide = gi->hi->ty != TY_INT;
	line(&te, 1, "const int %s = fx::imin(%d, %s", te.nrows, tp->bm, wide ? "(int)(" : "");
	print_left_operand_to(out, gi->hi, OP_SUB, &te.pt);
	sb_printf(out, " - %s%s);\n", te.i0, wide ? ")" : "");
	if (tp->rows_host && !rtile) /* the launcher counted tiles up to the extent: this CTA's may be past its end */
		line(&te, 1, "if (%s <= 0)\n\t\treturn;\n", te.nrows);
	if (tp->cw > 1) {
		/* cw warps share each row warp's rows, each with its own columns of the accumulators */
		te.cbase = fresh(&te, "wcol");
		int rw = tp->warps / tp->cw;
		if (rw == 1)
			line(&te, 1, "const int %s = 0, %s = fx::warp() * %d;\n", te.rbase, te.cbase, tp->ncols / tp->cw);
		else
			line(&te, 1, "const int %s = fx::warp() %% %d * %d, %s = fx::warp() / %d * %d;\n", te.rbase, rw, 16 * tp->mt, te.cbase, rw, tp->ncols / tp->cw);
	} else
		line(&te, 1, "const int %s = fx::warp() * %d;\n", te.rbase, 16 * tp->mt);
	if (tp->splitk) {
		line(&te, 1, "/* chunk '%s' of the split over '%s' */\n", tp->split.chunks->var->name, tp->c->axis);
		line(&te, 1, "const int %s = blockIdx.z;\n", tp->split.chunks->var->name);
		for (int k = 0; k < tp->ncta_decls; k++) {
			sb_indent(out, 1);
			print_stmt_to(out, tp->cta_decls[k], 1, &te.pt);
		}
		const char *rb = fresh(&te, "rowbase");
		line(&te, 1, "const long long %s = %s * ", rb, head);
		print_extent(out, gi, &te.pt);
		sb_printf(out, " + (%s - ", te.i0);
		expr(&te, gi->lo);
		sb_puts(out, ");\n");
		te.rowid = arena_printf(&tp->c->prog->arena, "(%s + %s + fx::row(%s))", rb, te.rbase, te.h);
		part_bases(&te, ws, nrow, true);
	}
	/* Offsets in 16-bit units: an fp32 element takes two. */
	const int w = tp->elem == TY_FLOAT ? 2 : 1;
	int off = w * tp->row_parts * tp->bm * tp->kdim;
	const char *sq = te.qa = fresh(&te, "s_rows");
	line(&te, 1, "uint16_t *%s = %s;\n", sq, te.smem);
	for (int k = 0; k < tp->ncolop; k++) {
		line(&te, 1, "uint16_t *%s = %s + %d; /* %s of %d x %d */\n", te.colop_smem[k], te.smem, off, tile_stages(tp, k) == 2 ? "two stages" : "one tile", tp->bn,
		     tp->colop_cols[k]);
		off += w * tile_stages(tp, k) * tp->bn * tp->colop_cols[k];
	}
	for (int k = 0; k < tp->ncolop && tp->presplit; k++) {
		te.colop_split[k] = fresh(&te, arena_printf(&tp->c->prog->arena, "%s_tf32", te.colop_smem[k]));
		line(&te, 1, "uint16_t *%s = %s + %d; /* its tf32 %s */\n", te.colop_split[k], te.smem, off, tp->tf32 ? "values" : "big and small halves");
		off += w * (tp->tf32 ? 1 : 2) * tp->bn * tp->colop_cols[k];
	}
	for (int g = 0; g < tp->ngather; g++) {
		const Expr *x = tp->gather[g];
		Var *v = te.ring[g] = fresh_var(tp->c, arena_printf(&tp->c->prog->arena, "s_%s", x->var->name), x->ty, VAR_LOCAL);
		v->ndim = 1;
		v->dims = NEW(&tp->c->prog->arena, Expr *);
		v->dims[0] = ex_int(tp->c->prog, TILE_INDEX_RING * tp->bn, x->loc);
		line(&te, 1, "%s *%s = (%s *)(%s + %d); /* %s of the rows of %d steps */\n", gpu_type(x->ty), v->name, gpu_type(x->ty), te.smem, off, x->var->name,
		     TILE_INDEX_RING);
		off += tile_index_ring_bytes(tp, g) / 2;
	}
	for (int k = 0; k < tp->ncolop; k++)
		for (int part = 0; part < 2; part++) {
			const Expr *op = part ? tp->colop2[k] : tp->colop[k];
			if (!tile_row_table(tp, k, part))
				continue;
			const char *nm = te.rows_smem[k][part] = fresh(&te, arena_printf(&tp->c->prog->arena, "s_%s_rows", op->var->name));
			const char *et = gpu_type(op->var->ty);
			line(&te, 1, "const %s **%s = (const %s **)(%s + %d); /* the row pointers of a step's %s tile */\n", et, nm, et, te.smem, off, op->var->name);
			off += tp->bn * 8 / 2;
		}
	/* an fp32 row operand against 16-bit columns: hi and lo tiles (tile.c, operand_types) */
	line(&te, 1, "fx::load_rows%s<%d, %d, %d, %s%s>(%s, ", tp->row_parts > 1 ? "_split" : "", tp->bm, tp->kdim, tp->threads, T, data_arg(tp, tp->kdata, tp->kdim), sq);
	print_operand_rows(&te, tp->rowop, tp->rowop2, iv, te.i0);
	sb_printf(out, ", %s);\n", te.nrows);
	if (tp->tt->stages == 2)
		line(&te, 1, "fx::cp_async_commit();\n");
	if (tp->tt->stages == 2 && tp->stages == 1)
		line(&te, 1, "fx::cp_async_wait<0>();\n");
	for (int k = 0; k < tp->nvars; k++) {
		Var *v = tp->vars[k];
		if (tp->roles[k] == TR_ROW)
			line(&te, 1, "%s %s[%d];\n", gpu_type(v->ty), v->name, row_slots(tp));
		else if (tp->roles[k] == TR_ROWTILE)
			decl_tile(&te, 1, "float", v->name, tp->ncols / tp->cw);
		else if (tp->roles[k] != TR_PART && tp->roles[k] != TR_ROWCOPY)
			decl_tile(&te, 1, gpu_type(v->ty), v->name, tp->bn);
	}
	for (int d = 0; d < tp->ndots; d++)
		decl_tile(&te, 1, "float", te.dot_name[d], tp->bn);
	for (int k = 0; k < tp->nvars && tp->pscale; k++) {
		if (tp->roles[k] != TR_ROWTILE)
			continue;
		te.pexp[k] = fresh(&te, arena_printf(&tp->c->prog->arena, "%s_exp", tp->vars[k]->name));
		line(&te, 1, "/* %s holds its sum times 2^-%s, per row (fp16 weights scaled: tile.h pscale) */\n", tp->vars[k]->name, te.pexp[k]);
		line(&te, 1, "int %s[%d];\n", te.pexp[k], row_slots(tp));
		line(&te, 1, "#pragma unroll\n");
		line(&te, 1, "for (int %s = 0; %s < %d; %s++)\n", te.h, te.h, row_slots(tp), te.h);
		line(&te, 2, "%s[%s] = fx::WEIGHT_EXP_MIN;\n", te.pexp[k], te.h);
	}
	row_stmts(&te, tp->pro, tp->npro, 1, false, true);

	/* The pass over the union of the rows' ranges; inner_* is their intersection. */
	Stmt *step = tp->step;
	const Expr *ends[4] = {step->lo, step->hi, tp->mask_lo, tp->mask_hi};
	bool by_row = false;
	for (int k = 0; k < 4; k++)
		by_row |= ends[k] && expr_reads_var(ends[k], iv);
	if (by_row)
		line(&te, 1, "const int %s = %s, %s = %s + %s - 1;\n", te.rf, te.i0, te.rl, te.i0, te.nrows);
	bounds(&te, step->lo, tp->mask_lo, step->hi, tp->mask_hi);
	bool two = tp->stages == 2;
	const char *load = fresh(&te, "load_columns"), *jt = fresh(&te, "at"), *ls = two ? fresh(&te, "into") : NULL;
	te.st = two ? fresh(&te, "stage") : NULL;
	const char *pol = NULL;
	if (tp->splitk) {
		/* A chunk's column tiles are read by this CTA alone when it holds every row. */
		pol = fresh(&te, "l2");
		line(&te, 1, "const fx::L2Policy %s = fx::l2_read_once(gridDim.y == 1);\n", pol);
	}
	const char *load_ix = tp->ngather ? fresh(&te, "load_indices") : NULL, *ptrs = NULL;
	if (load_ix) {
		ptrs = fresh(&te, "row_pointers");
		Var *slot = fresh_var(tp->c, "slot", TY_INT, VAR_LOCAL);
		index_loader(&te, load_ix, jt, slot->name);
		te.slot = slot; /* the row pointers read the rows' index values there */
		row_pointers(&te, ptrs, jt);
		te.slot = NULL;
		te.from_rows = true; /* and the tile loads read the row pointers */
	}
	te.load_one = tp->pv_one ? fresh(&te, "load_values") : NULL;
	/* the tiles of two stages (all but V's where pv_one), then V's one */
	for (int one = 0; one < 1 + tp->pv_one; one++) {
		if (two && !one)
			line(&te, 1, "auto %s = [&](int %s, int %s) {\n", load, jt, ls);
		else
			line(&te, 1, "auto %s = [&](int %s) {\n", one ? te.load_one : load, jt);
		for (int k = 0; k < tp->ncolop; k++) {
			if (tp->pv_one && one != (tile_stages(tp, k) == 1))
				continue;
			/* a transposed operand's tile column by column (plain loads), its elements c of
			 * rows at .. at + bn from &A[..][c][at] */
			/* a byte operand (a quantised cache) widened to T as loaded (plain loads, no L2 policy) */
			bool byte = scalar_size(tp->colop[k]->ty) == 1;
			line(&te, 2, "fx::load_tile%s<%d, %d, %d, %s%s%s>(%s", tile_kt(tp, k) ? "_kt" : tp->colop_t[k] ? "_t" : byte ? "_q8" : "", tp->bn, tp->colop_cols[k], tp->threads, T,
			     byte ? arena_printf(&tp->c->prog->arena, ", %s", gpu_type(tp->colop[k]->ty)) : "", data_arg(tp, tp->colop_data[k], tp->colop_cols[k]), te.colop_smem[k]);
			if (tile_stages(tp, k) == 2)
				sb_printf(out, " + %s * %d", ls, w * tp->bn * tp->colop_cols[k]);
			sb_puts(out, ", ");
			if (tp->colop_t[k] && !tile_t_rows(tp, k))
				print_ptr_lambda(&te, tp->colop[k], tp->jc, jt, false);
			else
				print_operand_rows(&te, tp->colop[k], tp->colop2[k], tp->jc, jt);
			sb_printf(out, ", %s - %s%s%s);\n", te.je, jt, pol && !tp->colop_t[k] && !byte ? ", " : "", pol && !tp->colop_t[k] && !byte ? pol : "");
		}
		line(&te, 1, "};\n");
	}
	te.from_rows = false;
	const char *j0 = step->var->name;
	/* The first step, the step after j0 (an expression of j0), and the loop's update. */
	const char *start = te.jb, *after = arena_printf(&tp->c->prog->arena, "%s + %d", j0, tp->bn), *jn = NULL, *next = NULL;
	if (tp->skip_hidden) {
		next = skip_steps(&te, off);
		start = fresh(&te, "first_step");
		line(&te, 1, "const int %s = %s(%s);\n", start, next, te.jb);
		after = arena_printf(&tp->c->prog->arena, "%s(%s + %d)", next, j0, tp->bn);
		if (two)
			jn = fresh(&te, "next_step");
	}
	const char *ring = load_ix ? fresh(&te, "step_slot") : NULL;
	/* the steps two and three after the loop's (gathers) */
	const char *later2 = NULL, *later3 = NULL;
	if (two) {
		/* Step j0 computes on one stage while the next step's tiles arrive in the other.
		 * With gathers, step n's rows' index values (ring slot n % 3) are copied with
		 * step n - 2's tiles (the first two steps' before any tile), so they have arrived
		 * and every thread sees them after step n - 2's first barrier; step n - 2 then
		 * computes step n's row pointers, once per row, before its last barrier, and step
		 * n - 1 loads step n's tiles from them. Step n's slot is rewritten at step n + 3. */
		if (load_ix) {
			index_step(&te, load_ix, start, "0", 1);
			index_step(&te, load_ix, steps_after(&te, next, start, 1), "1", 1);
			line(&te, 1, "fx::cp_async_commit();\n");
			line(&te, 1, "fx::cp_async_wait<0>();\n");
			line(&te, 1, "__syncthreads();\n");
			index_step(&te, ptrs, start, "0", 1);
			line(&te, 1, "__syncthreads();\n");
		}
		line(&te, 1, "if (%s < %s)\n", start, te.je);
		line(&te, 2, "%s(%s, 0);\n", load, start);
		if (load_ix)
			index_step(&te, load_ix, steps_after(&te, next, start, 2), "2", 1);
		line(&te, 1, "fx::cp_async_commit();\n");
		line(&te, 1, "fx::cp_async_wait<1>();\n");
		line(&te, 1, "__syncthreads();\n");
		if (load_ix) {
			index_step(&te, ptrs, steps_after(&te, next, start, 1), "1", 1);
			line(&te, 1, "__syncthreads();\n");
		}
		line(&te, 1, "int %s = 0;\n", te.st);
		if (ring)
			line(&te, 1, "int %s = 0;\n", ring);
		later2 = steps_after(&te, next, j0, 2);
		later3 = steps_after(&te, next, j0, 3);
		if (jn) {
			line(&te, 1, "for (int %s = %s, %s; %s < %s; %s = %s) {\n", j0, start, jn, j0, te.je, j0, jn);
			line(&te, 2, "%s = %s;\n", jn, after);
			after = jn;
			later2 = steps_after(&te, next, jn, 1);
			later3 = steps_after(&te, next, jn, 2);
		} else {
			line(&te, 1, "for (int %s = %s; %s < %s; %s += %d) {\n", j0, start, j0, te.je, j0, tp->bn);
		}
		if (te.load_one) {
			/* V's one tile (free since the step before's last barrier), before the
			 * next step's K tiles: its copy is waited for first */
			line(&te, 2, "%s(%s);\n", te.load_one, j0);
			line(&te, 2, "fx::cp_async_commit();\n");
		}
		line(&te, 2, "if (%s < %s)\n", after, te.je);
		line(&te, 3, "%s(%s, %s ^ 1);\n", load, after, te.st);
		if (ring)
			index_step(&te, load_ix, later3, ring, 2);
		line(&te, 2, "fx::cp_async_commit();\n");
		line(&te, 2, "fx::cp_async_wait<%d>();\n", te.load_one ? 2 : 1);
	} else if (tp->presplit) {
		/* One tile, split into its tf32 planes at the start of its step (after the step
		 * before has read the planes), and then free: the next step's tile loads while
		 * this one's products run. */
		line(&te, 1, "if (%s < %s)\n", start, te.je);
		line(&te, 2, "%s(%s);\n", load, start);
		line(&te, 1, "fx::cp_async_commit();\n");
		if (tp->skip_hidden)
			line(&te, 1, "for (int %s = %s; %s < %s; %s = %s) {\n", j0, start, j0, te.je, j0, after);
		else
			line(&te, 1, "for (int %s = %s; %s < %s; %s += %d) {\n", j0, start, j0, te.je, j0, tp->bn);
		line(&te, 2, "fx::cp_async_wait<0>();\n");
		line(&te, 2, "__syncthreads();\n");
		for (int k = 0; k < tp->ncolop; k++)
			line(&te, 2, "fx::split_tile<%d, %d, %d, %s, %s>(%s, %s);\n", tp->bn, tp->colop_cols[k], tp->threads, product_type(tp), tp->colop_pv[k] ? "true" : "false",
			     te.colop_split[k], te.colop_smem[k]);
		line(&te, 2, "__syncthreads();\n");
		line(&te, 2, "if (%s < %s)\n", after, te.je);
		line(&te, 3, "%s(%s);\n", load, after);
		line(&te, 2, "fx::cp_async_commit();\n");
	} else {
		/* One tile: loaded at the start of its step (after the step before has read it). */
		if (tp->skip_hidden)
			line(&te, 1, "for (int %s = %s; %s < %s; %s = %s) {\n", j0, start, j0, te.je, j0, after);
		else
			line(&te, 1, "for (int %s = %s; %s < %s; %s += %d) {\n", j0, te.jb, j0, te.je, j0, tp->bn);
		line(&te, 2, "%s(%s);\n", load, j0);
		if (tp->tt->stages == 2) {
			/* asynchronous copies (the row tile's too, before the first step) */
			line(&te, 2, "fx::cp_async_commit();\n");
			line(&te, 2, "fx::cp_async_wait<0>();\n");
		}
	}
	if (!tp->presplit)
		line(&te, 2, "__syncthreads();\n");
	/* Within the step, the column operands are this stage's tiles. */
	const char *colop_base[MAX_TILE_VARS];
	memcpy(colop_base, te.colop_smem, sizeof(const char *) * (size_t)tp->ncolop);
	for (int k = 0; k < tp->ncolop && two; k++) {
		if (tile_stages(tp, k) != 2)
			continue;
		const char *nm = te.colop_smem[k];
		te.colop_smem[k] = fresh(&te, arena_printf(&tp->c->prog->arena, "%s_now", nm));
		line(&te, 2, "const uint16_t *%s = %s + %s * %d;\n", te.colop_smem[k], nm, te.st, w * tp->bn * tp->colop_cols[k]);
	}
	if (te.whole)
		line(&te, 2, "fx::dispatch(!(%s >= %s && %s + %d <= %s && %s(%s)), [&](auto %s) {\n", j0, te.lom, j0, tp->bn, te.him, te.whole, j0, te.masked);
	else
		line(&te, 2, "fx::dispatch(!(%s >= %s && %s + %d <= %s), [&](auto %s) {\n", j0, te.lom, j0, tp->bn, te.him, te.masked);
	Stmt *sb = step->body[0];
	Stmt **steps = sb->kind == ST_BLOCK ? sb->body : &sb;
	int nsteps = sb->kind == ST_BLOCK ? sb->nbody : 1;
	memset(te.dot_done, 0, sizeof te.dot_done);
	te.pv_wait = tp->pv_one;
	for (int k = 0; k < tp->nvars; k++)
		if (tp->roles[k] == TR_ELEM)
			line(&te, 3, "fx::clear(%s);\n", tp->vars[k]->name);
	Stmt **order = arena_alloc(&tp->c->prog->arena, sizeof(Stmt *) * (size_t)nsteps);
	step_order(tp, steps, nsteps, order);
	load_score_reads(&te, 3);
	for (int i = 0; i < nsteps;) {
		if (tile_is_elem_loop(tp, order[i])) {
			int k = i + 1;
			while (k < nsteps && tile_is_elem_loop(tp, order[k]) && !reads_results(tp, order + i, k - i, order[k]))
				k++;
			elem_group(&te, order + i, k - i, 3);
			i = k;
			continue;
		}
		int k = i;
		while (k < nsteps && !tile_is_elem_loop(tp, order[k]))
			k++;
		row_stmts(&te, order + i, k - i, 3, false, false);
		i = k;
	}
	line(&te, 2, "});\n");
	te.pv_wait = false;
	te.sread_on = false; /* the epilogue's passes read the inputs themselves */
	if (ring)
		index_step(&te, ptrs, later2, arena_printf(&tp->c->prog->arena, "(%s + 2) %% %d", ring, TILE_INDEX_RING), 2);
	/* (presplit: the next step's first barrier keeps its split from the planes until
	 * every warp is done with them) */
	if (!tp->presplit)
		line(&te, 2, "__syncthreads();\n");
	if (two)
		line(&te, 2, "%s ^= 1;\n", te.st);
	if (ring)
		line(&te, 2, "%s = (%s + 1) %% %d;\n", ring, ring, TILE_INDEX_RING);
	line(&te, 1, "}\n");
	for (int k = 0; k < tp->nvars && tp->pscale; k++) {
		if (tp->roles[k] != TR_ROWTILE)
			continue;
		line(&te, 1, "/* %s's sum: its scale undone */\n", tp->vars[k]->name);
		line(&te, 1, "#pragma unroll\n");
		line(&te, 1, "for (int %s = 0; %s < %d; %s++) {\n", te.h, te.h, row_slots(tp), te.h);
		scale_rows(&te, tp->vars[k], arena_printf(&tp->c->prog->arena, "%s[%s]", te.pexp[k], te.h), "unscale", 2);
		line(&te, 1, "}\n");
	}
	/* The rows stored from the products again: a second pass over the tiles (dense
	 * kernels); then the rest of the epilogue, one row at a time, its output through
	 * shared memory where a block layout skips steps. */
	Stmt **rest = arena_alloc(&tp->c->prog->arena, sizeof(Stmt *) * (size_t)(tp->nepi + 1));
	int nrest = 0;
	for (int i = 0; i < tp->nepi; i++)
		if (tile_store_pass(tp, tp->epi[i]))
			store_pass(&te, tp->epi[i], load, colop_base);
		else
			rest[nrest++] = tp->epi[i];
	te.staged = staged_store(tp);
	if (te.staged) {
		int size = scalar_size(te.staged->lhs->var->ty);
		te.stage = fresh(&te, "s_out");
		te.pitch = tp->ncols + 16 / size; /* 16 bytes more a row: the fragments' rows in other banks */
		line(&te, 1, "/* the output rows through shared memory, 16 bytes a thread (every tile has been read) */\n");
		if (tp->tt->stages == 2)
			line(&te, 1, "fx::cp_async_wait<0>();\n");
		line(&te, 1, "__syncthreads();\n");
		line(&te, 1, "%s *%s = (%s *)%s;\n", gpu_type(te.staged->lhs->var->ty), te.stage, gpu_type(te.staged->lhs->var->ty), te.smem);
	}
	row_stmts(&te, rest, nrest, 1, true, false);
	if (te.staged) {
		line(&te, 1, "__syncthreads();\n");
		store_staged(&te);
	}
	sb_puts(out, "}\n");
}

void emit_merge_kernel(StrBuf *out, const GpuTarget *tg, TilePlan *tp, void (*print_params)(StrBuf *, const Func *, bool))
{
	const Region *r = tp->region;
	TileEmit te = {.out = out, .tg = tg, .tp = tp, .pt = {.type_name = gpu_type, .flatten_params = true, .var_hook = tile_hook, .expr_hook = conv_hook, .fn_name = device_fn, .recip_div = true}, .merge = true};
	te.pt.ctx = &te;
	te.pt.exp_sub = true;
	te.pt.exp_sub_moderate = !huge_scores(&te, tp->region->loop);
	te.pt.line_last = tp->line_directives ? &te.line_last : NULL;
	const char *ws = tp->ws_name, *nrow = tp->nrow_name;
	te.rowid = fresh(&te, "rid");
	const GridLoop *gi = &tp->grid[tp->rowdim];
	sb_printf(out, "\n/* The merge of %s's chunks: one CTA per row; accumulator tile columns one per thread. */\n", r->name);
	sb_printf(out, "__global__ void __launch_bounds__(%d) %s_merge(", tile_merge_threads(tp), r->name);
	print_params(out, r->fn, true);
	splitk_params(&te, ws, nrow, false);
	sb_puts(out, ")\n{\n");
	line(&te, 1, "const long long %s = blockIdx.x;\n", te.rowid);
	StrBuf cta = {0};
	sb_printf(&cta, "%s / ", te.rowid);
	print_extent(&cta, gi, &te.pt);
	if (!tp->row_made) {
		line(&te, 1, "const int %s = ", gi->var->name);
		expr(&te, gi->lo);
		sb_printf(out, " + (int)(%s %% ", te.rowid);
		print_extent(out, gi, &te.pt);
		sb_puts(out, ");\n");
	}
	print_cta_coords(&te, cta.s);
	sb_free(&cta);
	part_bases(&te, ws, nrow, false);
	line(&te, 1, SPLITK_MERGE_START "\n");
	for (int i = 0; i < tp->npre; i++)
		row_stmt(&te, tp->pro[i], 1, true);
	for (int i = 0; i < tp->nmerge; i++)
		row_stmt(&te, tp->merge[i], 1, true);
	sb_puts(out, "}\n");
}

int tile_merge_threads(const TilePlan *tp) { return tp->ndata ? tp->ndata : 32; }

/* Split-k launch: the chunk count (as given, else from the multiprocessor count and the
 * CTAs that fit on one; chunks are a whole number of steps), the workspace
 * (stream-ordered), the chunk kernel over (CTAs, row tiles, chunks), then the merge, one
 * CTA per row. */
/* `int @dev, @sms` (and `@smem`, shared memory per multiprocessor) of the current
 * device, the launcher returning the first error. */
static void print_device_query(StrBuf *out, const GpuTarget *tg, bool smem)
{
	sb_printf(out, "\t\t\tint @dev = 0, @sms = 0%s;\n", smem ? ", @smem = 0" : "");
	sb_printf(out, "\t\t\tif ((@err = %s(&@dev)) != %s ||\n", tg->get_device, tg->success);
	sb_printf(out, "\t\t\t    (@err = %s(&@sms, %s, @dev)) != %s%s\n", tg->device_attr, tg->attr_sms, tg->success, smem ? " ||" : ")");
	if (smem)
		sb_printf(out, "\t\t\t    (@err = %s(&@smem, %s, @dev)) != %s)\n", tg->device_attr, tg->attr_smem_per_sm, tg->success);
	sb_puts(out, "\t\t\t\treturn @err;\n");
}

static void splitk_launch(TileEmit *te, const char *args, int bytes)
{
	TilePlan *tp = te->tp;
	StrBuf *out = te->out;
	int bn = tp->bn, cols = split_part_offset(&tp->split, tp->split.nparts);
	const char *ns = tp->split.ndecl->var->name, *cs = tp->split.cdecl->var->name;
	if (tp->axis_len) {
		/* the range is read on the device: a bound of its length, each chunk clipped there */
		if (tp->axis_open)
			sb_printf(out, "\t\t\t/* '%s' runs over a ring of this many slots (the last chunk runs to its row's end) */\n", tp->c->axis);
		else
			sb_printf(out, "\t\t\t/* '%s' runs over at most this many (each chunk is clipped to its row's range) */\n", tp->c->axis);
		sb_puts(out, "\t\t\tlong long @len = ");
		expr(te, tp->axis_len);
	} else {
		sb_puts(out, "\t\t\tlong long @len = ");
		expr(te, tp->axis_hi);
		sb_puts(out, " - (");
		expr(te, tp->axis_lo);
		sb_puts(out, ")");
	}
	sb_printf(out, ";\n\t\t\tlong long @steps = @len > 0 ? (@len + %d) / %d : 0;\n", bn - 1, bn);
	if (tp->c->splitk) {
		sb_printf(out, "\t\t\tlong long @want = %ldLL;\n", tp->c->splitk);
	} else {
		print_device_query(out, te->tg, true);
		sb_printf(out, "\t\t\tlong long @per_sm = @smem / %d > 0 ? @smem / %d : 1;\n", bytes + 1024, bytes + 1024);
		/* A chunk costs its steps plus about two for filling the pipeline and storing its
		 * partials; the count that minimises waves * (steps per chunk + 2) wins. */
		sb_puts(out, "\t\t\tlong long @slots = @sms * @per_sm, @want = 1, @best = -1;\n");
		sb_puts(out, "\t\t\tfor (long long @w = 1; @w <= 8; @w++) {\n");
		sb_puts(out, "\t\t\t\tlong long @n = @w * @slots / (@ctas * @tiles);\n");
		sb_puts(out, "\t\t\t\t@n = @n < 1 ? 1 : @n > @steps ? (@steps > 0 ? @steps : 1) : @n;\n");
		sb_puts(out, "\t\t\t\tlong long @cost = (@ctas * @tiles * @n + @slots - 1) / @slots * ((@steps + @n - 1) / @n + 2);\n");
		sb_puts(out, "\t\t\t\tif (@best < 0 || @cost < @best) {\n\t\t\t\t\t@best = @cost;\n\t\t\t\t\t@want = @n;\n\t\t\t\t}\n\t\t\t}\n");
	}
	sb_puts(out, "\t\t\tif (@want > @steps)\n\t\t\t\t@want = @steps;\n\t\t\tif (@want < 1)\n\t\t\t\t@want = 1;\n");
	sb_puts(out, "\t\t\tlong long @per = (@steps + @want - 1) / @want;\n");
	sb_printf(out, "\t\t\tint %s = @per > 0 ? (int)((@steps + @per - 1) / @per) : 1;\n", ns);
	sb_printf(out, "\t\t\tint %s = (int)(@per * %d);\n", cs, bn);
	sb_printf(out, "\t\t\tif (%s > 65535)\n\t\t\t\treturn %s;\n", ns, te->tg->invalid);
	sb_printf(out, "\t\t\tlong long @nrow = @ctas * @rows;\n\t\t\tif (@nrow > 2147483647LL)\n\t\t\t\treturn %s;\n", te->tg->invalid);
	StrBuf chunk = {0}, merge = {0};
	sb_printf(&chunk, "dim3((unsigned)@ctas, (unsigned)@tiles, (unsigned)%s), %d, %d, @stream", ns, tp->threads, bytes);
	sb_printf(&merge, "(unsigned)@nrow, %d, 0, @stream", tile_merge_threads(tp));
	print_splitk_launches(out, te->tg, tp->region->name, tp->kernel, "float", cols, "@nrow", &tp->split, chunk.s, merge.s, args);
	sb_free(&chunk);
	sb_free(&merge);
}

static void tile_launch(StrBuf *out, const GpuTarget *tg, TilePlan *tp, const char *args);

void emit_tile_launch(StrBuf *out, const GpuTarget *tg, TilePlan *tp, const char *args)
{
	if (!tp->wide) {
		tile_launch(out, tg, tp, args);
		return;
	}
	/* split-k's row tile by the rows a grid point has: the 16-row kernel reads the column
	 * tiles once per 16 rows, which suits a decode's few (its draft tokens), not cross
	 * attention's thousands of queries. From 64 rows the wide kernel wastes at most half
	 * its rows (H100, D = 128, B * H = 32, 4096 keys: 41 against 111 us at 64 rows); at
	 * 32 it wins there too (40 against 61) but not for an MQA decode's 32 heads on one KV
	 * head, B = 8 (36 against 25 us: the chunks, sized by occupancy, do 4x the products). */
	PrintTarget pt = {.type_name = gpu_type, .flatten_params = true};
	sb_puts(out, "\tif (");
	print_extent(out, &tp->grid[tp->rowdim], &pt);
	sb_printf(out, " >= %d)\n", TILE_WIDE_ROWS);
	tile_launch(out, tg, tp->wide, args);
	sb_puts(out, "\telse\n");
	tile_launch(out, tg, tp, args);
}

/* The terms of the launcher's 16-byte test for tile operand v (` | (uintptr_t)q`): its
 * address, and for a strided view (Var.strides) the byte size of each stride but the
 * unit one, since each row the tiles copy starts at a sum of strides. */
static void print_aligned_operand(StrBuf *out, size_t start, const Var *v, const PrintTarget *pt)
{
	sb_printf(out, "%s(uintptr_t)%s", out->len == start ? "" : " | ", v->name);
	for (int d = 0; v->strides && d < v->ndim; d++) {
		const Expr *st = v->strides[d];
		if (st->kind == EX_INT && st->ival == 1)
			continue;
		StrBuf term = {0};
		sb_puts(&term, " | (uintptr_t)(");
		print_expr_to(&term, st, pt);
		sb_printf(&term, " * %d)", scalar_size(v->ty));
		if (!strstr(out->s + start, term.s)) /* q, k and v often share their strides */
			sb_puts(out, term.s);
		sb_free(&term);
	}
}

/* The launch of tp's kernel: a block of its own. */
static void tile_launch(StrBuf *out, const GpuTarget *tg, TilePlan *tp, const char *args)
{
	TileEmit te = {.out = out, .tg = tg, .tp = tp, .pt = {.type_name = gpu_type, .flatten_params = true}};
	const GridLoop *gi = &tp->grid[tp->rowdim];
	int bytes = tile_smem_bytes(tp);
	if (tp->heads) {
		/* heads.c: the KV head's query heads share a CTA, which holds when G divides H (read
		 * as h / G or h % G), or when k divides n (read as h * k / n, G = n / k) */
		const HeadGroup *hg = tp->heads;
		const char *num = expr_str(&te, hg->knum ? hg->knum : hg->num), *den = expr_str(&te, hg->knum ? hg->kden : hg->den), *g = expr_str(&te, hg->den);
		const char *group = hg->knum || hg->kvmajor ? arena_printf(&tp->c->prog->arena, "%s / %s", num, den) : den;
		const char *read = hg->knum ? arena_printf(&tp->c->prog->arena, "h * %s / %s", den, num) : arena_printf(&tp->c->prog->arena, "h %s %s", hg->kvmajor ? "%%" : "/", den);
		sb_printf(out, "\tif ((%s) <= 0 || (%s) %% (%s)", den, num, den);
		if (hg->knum)
			sb_printf(out, " || (%s) <= 0", g);
		sb_puts(out, ") {\n");
		sb_printf(out, "\t\tfprintf(stderr, \"%s: %s = %%d is not a %smultiple of %s = %%d: the kernel shares each KV head's tiles among the %s query heads that read it at %s\\n\", (int)(%s), (int)(%s));\n",
		          tp->region->name, num, hg->knum ? "positive " : "", den, group, read, num, den);
		sb_printf(out, "\t\treturn %s;\n\t}\n", tg->invalid);
	}
	sb_puts(out, "\t{\n\t\tlong long @ctas = 1LL");
	for (int g = 0; g < tp->ngrid; g++)
		if (g != tp->rowdim && g != tp->pack) {
			sb_puts(out, " * ");
			print_extent(out, &tp->grid[g], &te.pt);
		}
	sb_puts(out, ";\n\t\tlong long @rows = ");
	GridLoop rows = *gi;
	if (tp->rows_host)
		rows.hi = tp->rows_host;
	print_extent(out, &rows, &te.pt);
	if (tp->pack >= 0) {
		/* packed rows: sum over s of ceil(len_s / bm) <= (rows + seqs * (bm - 1)) / bm */
		sb_puts(out, ";\n\t\tlong long @seqs = ");
		print_extent(out, &tp->grid[tp->pack], &te.pt);
		sb_printf(out, ";\n\t\tlong long @tiles = (@rows + @seqs * %d) / %d;\n", tp->bm - 1, tp->bm);
		sb_puts(out, "\t\tif (@ctas > 0 && @rows > 0 && @seqs > 0) {\n");
	} else {
		sb_printf(out, ";\n\t\tlong long @tiles = (@rows + %d) / %d;\n", tp->bm - 1, tp->bm);
		sb_puts(out, "\t\tif (@ctas > 0 && @rows > 0) {\n");
	}
	sb_printf(out, "\t\t\tif (@ctas > 2147483647LL || @tiles > 65535LL)\n\t\t\t\treturn %s;\n", tg->invalid);
	/* Tiles are copied 16 bytes at a time: every operand must start on a 16-byte boundary. */
	sb_puts(out, "\t\t\tif ((");
	size_t start = out->len;
	print_aligned_operand(out, start, tp->rowop->var, &te.pt);
	if (tp->rowop2)
		print_aligned_operand(out, start, tp->rowop2->var, &te.pt);
	for (int k = 0; k < tp->ncolop; k++) {
		print_aligned_operand(out, start, tile_operand_read(tp->colop[k])->var, &te.pt);
		if (tp->colop[k]->kind == EX_COND)
			print_aligned_operand(out, start, tp->colop[k]->args[2]->var, &te.pt);
		if (tp->colop2[k])
			print_aligned_operand(out, start, tp->colop2[k]->var, &te.pt);
	}
	sb_printf(out, ") & 15)\n\t\t\t\treturn %s;\n", tg->invalid);
	sb_printf(out, "\t\t\t%s @err = %s(%s%s_kernel%s, %s, %d);\n", tg->err_t, tg->func_set_attr, tg->kernel_cast, tp->region->name, tp->kernel, tg->attr_max_dyn_smem, bytes);
	sb_printf(out, "\t\t\tif (@err != %s)\n\t\t\t\treturn @err;\n", tg->success);
	if (tp->twin_launch) {
		/* a decode under `rolling`: a grid of few CTAs an SM (each one warp walking every
		 * key) keeps too few loads in flight; the split-k twin spreads the keys over the
		 * GPU instead */
		print_device_query(out, tg, false);
		sb_printf(out, "\t\t\tif (@ctas * @tiles < %d * @sms)\n\t\t\t\treturn %s(", TILE_TWIN_CTAS_PER_SM, tp->twin_launch);
		const Func *f = tp->region->fn;
		for (int i = 0; i < f->nparams; i++)
			sb_printf(out, "%s, ", f->params[i]->name);
		sb_puts(out, "@stream);\n");
	}
	if (tp->splitk) {
		splitk_launch(&te, args, bytes);
	} else {
		sb_printf(out, "\t\t\t%s_kernel%s<<<dim3((unsigned)@ctas, (unsigned)@tiles), %d, %d, @stream>>>(%s);\n", tp->region->name, tp->kernel, tp->threads, bytes, args);
		sb_printf(out, "\t\t\t@err = %s;\n\t\t\tif (@err != %s)\n\t\t\t\treturn @err;\n", tg->last_error, tg->success);
	}
	sb_puts(out, "\t\t}\n\t}\n");
}
