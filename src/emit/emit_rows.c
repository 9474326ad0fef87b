/* emit_rows.c: the CTA-per-row lowering of row reductions (softmax, norms, log-sum-exp,
 * cross-entropy's row part): regions whose cascade has no product, fused as a split-k row
 * block (the driver asks the fuser for it, Program.split_rows). One CTA takes a row; its
 * threads are the block's chunks. Each thread runs the chunk's pass over the elements
 * tid + k * ROW_THREADS (each step of the pass takes ROW_VEC of them per thread, so a
 * warp's loads are contiguous), stores its partials in shared memory, and the merge's
 * loops over the chunks become CTA reductions (fx::cta_sum, cta_max, cta_min) of the
 * same terms. The loops after the merge over the row's elements are strided over the
 * threads the same way; a row's own values are stored by thread 0. The numbers are those
 * of the fused C with ROW_THREADS chunks, up to the order of the sums. */
#include <string.h>

#include "emit_tile.h"

enum { ROW_VEC = 8 };

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

/* Whether s stores to a parameter array. */
static bool stmt_writes_param(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->var->kind == VAR_PARAM)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_writes_param(s->body[i]))
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

static bool fail(const char **why, const char *msg)
{
	*why = msg;
	return false;
}

static bool passes_plan(RowPlan *rp, Program *p, const char **why);

bool rows_plan(RowPlan *rp, Program *p, const Region *r, const char **why)
{
	memset(rp, 0, sizeof *rp);
	rp->region = r;
	rp->c = fuse_cascade_of(r);
	if (!rp->c)
		return passes_plan(rp, p, why);
	if (rp->c->strategy != STRAT_SPLITK)
		return fail(why, "not a split row reduction");
	Stmt *body = grid_loops(r, rp->grid, &rp->ngrid);
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
		if (!split_block_decl(sb, body->body[i]) && !flat_stmt(body->body[i]))
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
			}
		} else if (!flat_stmt(s)) {
			return fail(why, "a statement of the chunk holds a loop");
		}
	}
	if (!rp->pass)
		return fail(why, "no pass in the chunk");
	for (int i = sb->ichunks + 1; i < body->nbody; i++) {
		Stmt *s = body->body[i];
		Expr *t, *g;
		Reducer red;
		if (flat_stmt(s))
			continue;
		if (s->kind == ST_FOR && s->hi->kind == EX_VAR && s->hi->var == sb->ndecl->var) {
			if (!merge_loop(p, s, &t, &red, &g))
				return fail(why, "a loop of the merge is not a reduction of the chunks' terms");
			continue;
		}
		if (s->kind == ST_FOR && s->step == 1 && flat_stmt(s->body[0]) && tile_independent_loop(s))
			continue;
		return fail(why, "a loop after the merge is not an independent loop over the row's elements");
	}
	return true;
}

/* The device spelling, with the tile printers' fast exponentials. */
static PrintTarget row_print(void)
{
	return (PrintTarget){.type_name = gpu_type, .flatten_params = true, .fn_name = device_fn, .recip_div = true, .exp_sub = true};
}

/* One step of the pass: the element loops over the thread's ROW_VEC elements (tested
 * against the row's end when `last`), the other statements as they are. */
static void print_step(StrBuf *out, const RowPlan *rp, const Stmt *pass, bool last, const PrintTarget *pt)
{
	int ne;
	Stmt **pb = loop_body(pass, &ne);
	for (int k = 0; k < ne; k++) {
		if (!elem_loop(pass, pb[k])) {
			sb_puts(out, "\t\t\t");
			print_stmt_to(out, pb[k], 3, pt);
			continue;
		}
		const char *j = pb[k]->var->name;
		sb_printf(out, "\t\t\t#pragma unroll\n\t\t\tfor (int v_ = 0; v_ < %d; v_++) {\n", ROW_VEC);
		sb_printf(out, "\t\t\t\tconst int %s = %s + (int)threadIdx.x + v_ * %d;\n\t\t\t\t", j, pass->var->name, ROW_THREADS);
		if (last) {
			sb_printf(out, "if (%s < ", j);
			print_operand_to(out, rp->hi, OP_LT, pt);
			sb_puts(out, ") ");
		}
		print_stmt_to(out, pb[k]->body[0], 4, pt);
		sb_puts(out, "\t\t\t}\n");
	}
}

/* `for (j0 = lo; j0 < hi; j0 += THREADS * VEC) { if (j0 + THREADS * VEC <= hi) {` at
 * indent ind: the steps over a row's elements strided over the CTA, whole steps without
 * the bound test so that a step's loads issue together (the last step tests it, in the
 * else branch the caller prints). */
static void print_strided_head(StrBuf *out, const char *ind, const char *j0, const Expr *lo, const Expr *hi, const PrintTarget *pt)
{
	sb_printf(out, "%sfor (int %s = ", ind, j0);
	print_expr_to(out, lo, pt);
	sb_printf(out, "; %s < ", j0);
	print_operand_to(out, hi, OP_LT, pt);
	sb_printf(out, "; %s += %d) {\n", j0, ROW_THREADS * ROW_VEC);
	sb_printf(out, "%s\tif (%s + %d <= ", ind, j0, ROW_THREADS * ROW_VEC);
	print_operand_to(out, hi, OP_LE, pt);
	sb_puts(out, ") {\n");
}

static void print_chunk(StrBuf *out, const RowPlan *rp, const PrintTarget *pt)
{
	const SplitBlock *sb = &rp->sb;
	int n;
	Stmt **cb = loop_body(sb->chunks, &n);
	const Var *cs = sb->cdecl->var, *ch = sb->chunks->var;
	for (int i = 0; i < n; i++) {
		Stmt *s = cb[i];
		/* The chunk's contiguous range: the thread strides over the row instead. */
		if (s->kind == ST_DECL && s->rhs && (expr_reads_var(s->rhs, cs) || expr_reads_var(s->rhs, ch)))
			continue;
		if (s != rp->pass) {
			sb_putc(out, '\t');
			print_stmt_to(out, s, 1, pt);
			continue;
		}
		print_strided_head(out, "\t", s->var->name, rp->lo, rp->hi, pt);
		print_step(out, rp, s, false, pt);
		sb_puts(out, "\t\t} else {\n");
		print_step(out, rp, s, true, pt);
		sb_puts(out, "\t\t}\n\t}\n");
	}
}

static void print_merge_loop(StrBuf *out, Program *p, const Stmt *s, const PrintTarget *pt)
{
	Expr *t, *g;
	Reducer red;
	merge_loop(p, s, &t, &red, &g);
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
		sb_printf(out, " = f%sf(", op);
		print_expr_to(out, t, pt);
		sb_printf(out, ", fx::cta_%s(", op);
	}
	print_expr_to(out, g, pt);
	sb_printf(out, ", fx_scratch)%s;\n\t}\n", red == RED_ADD ? "" : ")");
}

/* A row statement outside the loops over its elements: run by every thread, or, when it
 * stores a value of the row to a parameter array, by thread 0. */
static void print_row_stmt(StrBuf *out, const Stmt *s, const PrintTarget *pt)
{
	if (!stmt_writes_param(s)) {
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

static void emit_passes_kernel(StrBuf *out, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool));

void emit_rows_kernel(StrBuf *out, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool))
{
	if (!rp->c) {
		emit_passes_kernel(out, rp, print_params);
		return;
	}
	const Region *r = rp->region;
	Program *p = rp->c->prog;
	const SplitBlock *sb = &rp->sb;
	PrintTarget pt = row_print();
	sb_printf(out, "__global__ void __launch_bounds__(%d) %s_kernel(", ROW_THREADS, r->name);
	print_params(out, r->fn, true);
	sb_puts(out, ")\n{\n\t__shared__ float fx_scratch[32];\n");
	for (int k = 0; k < sb->nparts; k++)
		sb_printf(out, "\t__shared__ float %s[%d];\n", sb->parts[k]->name, ROW_THREADS);
	sb_puts(out, "\tlong long row_ = blockIdx.x;\n");
	print_row_coords(out, rp->grid, rp->ngrid, "row_");
	sb_printf(out, "\tconst int %s = %d;\n\tconst int %s = threadIdx.x;\n", sb->ndecl->var->name, ROW_THREADS, sb->chunks->var->name);
	const Stmt *blk = rp->block;
	for (int i = 0; i < sb->ichunks; i++)
		if (!split_block_decl(sb, blk->body[i])) {
			sb_putc(out, '\t');
			print_stmt_to(out, blk->body[i], 1, &pt);
		}
	sb_puts(out, "\t{ /* the thread's chunk */\n");
	print_chunk(out, rp, &pt);
	sb_puts(out, "\t}\n");
	for (int i = sb->ichunks + 1; i < blk->nbody; i++) {
		const Stmt *s = blk->body[i];
		if (s->kind == ST_FOR && s->hi->kind == EX_VAR && s->hi->var == sb->ndecl->var) {
			print_merge_loop(out, p, s, &pt);
		} else if (s->kind == ST_FOR) {
			/* The row's elements, strided over the threads. */
			sb_printf(out, "\t#pragma unroll 4\n\tfor (int %s = ", s->var->name);
			print_operand_to(out, s->lo, OP_ADD, &pt);
			sb_puts(out, " + (int)threadIdx.x; ");
			sb_printf(out, "%s < ", s->var->name);
			print_operand_to(out, s->hi, OP_LT, &pt);
			sb_printf(out, "; %s += %d)", s->var->name, ROW_THREADS);
			Stmt *b = s->body[0];
			if (b->kind != ST_BLOCK)
				sb_puts(out, "\n\t\t");
			else
				sb_putc(out, ' ');
			print_stmt_to(out, b, b->kind == ST_BLOCK ? 1 : 2, &pt);
		} else {
			print_row_stmt(out, s, &pt);
		}
	}
	sb_puts(out, "}\n");
}

void emit_rows_launch(StrBuf *out, const GpuTarget *tg, const RowPlan *rp, const char *args)
{
	sb_puts(out, "\t{\n\t\tlong long rows = ");
	print_rows(out, rp->grid, rp->ngrid);
	sb_printf(out, ";\n\t\tif (rows > 2147483647LL)\n\t\t\treturn %s;\n", tg->invalid);
	sb_printf(out, "\t\tif (rows > 0) {\n\t\t\t%s_kernel<<<(unsigned)rows, %d, 0, stream>>>(%s);\n", rp->region->name, ROW_THREADS, args);
	sb_printf(out, "\t\t\t%s err = %s;\n\t\t\tif (err != %s)\n\t\t\t\treturn err;\n\t\t}\n\t}\n", tg->err_t, tg->last_error, tg->success);
}


/* ---- the row's passes as written ----
 * A region the fuser left as it is (one reduction, as RMSNorm's sum of squares; sums that
 * need no fusing, as LayerNorm's sum and sum of squares in one loop) whose row, below the
 * parallel loops, is scalar statements and loops over the row's elements with flat bodies.
 * One CTA takes the row. Every thread runs the row's scalar statements (each gets the same
 * values: a CTA reduction gives every thread the same result); a store of the row's own
 * values is made by thread 0. Each loop is strided over the threads (element j to thread
 * (j - lo) mod ROW_THREADS). A loop that reduces into a scalar of the row, or into an
 * element of a float output the row owns, accumulates a partial per thread from the
 * reducer's identity, which a CTA reduction merges into the target after the loop; the
 * other statements of a loop may store only the elements their own iteration owns (at
 * subscripts that move with the loop) and read those arrays only there. Where a thread
 * could read or overwrite an array element that another thread wrote, or overwrite one it
 * read, since the last barrier, a __syncthreads() comes first. The numbers are those of the
 * C, up to the order of the sums. */

/* Whether loop l's body declares or assigns v (a value that moves with the loop). */
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

/* Finds the reduction statements of the loop: into a float scalar of the row, or into an
 * element of a float output at subscripts that do not move with the loop. */
static bool scan_reductions(PassScan *sc, Stmt *s)
{
	Program *p = sc->p;
	if (s->kind == ST_BLOCK) {
		for (int i = 0; i < s->nbody; i++)
			if (!scan_reductions(sc, s->body[i]))
				return false;
		return true;
	}
	Expr *t, *g;
	Reducer red;
	if ((s->kind == ST_ASSIGN || s->kind == ST_IF) && reduce_match(p, s, &t, &red, &g)) {
		bool row = t->kind == EX_VAR ? t->var->kind == VAR_LOCAL && !stmt_declares(sc->loop->body[0], t->var)
		                             : t->var->kind == VAR_PARAM && !expr_moves_with(sc->loop, t);
		if (row) {
			if (t->var->ty != TY_FLOAT)
				return scan_fail(sc, arena_printf(&p->arena, "the reduction into '%s' is not in float (the CTA reductions are fp32)", t->var->name));
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
		if (expr_reads_var(e, sc->reds.v[i].target->var))
			return &sc->reds.v[i];
	return NULL;
}

static const RowRed *stmt_reads_target(const PassScan *sc, const Stmt *s, const RowRed *own)
{
	for (int i = 0; i < sc->reds.n; i++)
		if (&sc->reds.v[i] != own && stmt_reads_var(s, sc->reds.v[i].target->var))
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
		Expr *t, *g;
		Reducer red;
		reduce_match(sc->p, s, &t, &red, &g);
		const RowRed *own = NULL;
		for (int i = 0; i < sc->reds.n; i++)
			if (sc->reds.v[i].target->kind == t->kind && expr_equal(sc->reds.v[i].target, t))
				own = &sc->reds.v[i];
		if ((rr = stmt_reads_target(sc, s, own)))
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
		if (w->kind != VAR_PARAM || !w->ndim) {
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
		return scan_fail(sc, "a loop over the row's elements holds a loop");
	}
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && !scan_others(sc, s->body[i]))
			return false;
	return true;
}

/* Whether e reads an array element. */
static bool reads_element(const Expr *e)
{
	if (e->kind == EX_INDEX)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_element(e->args[i]))
			return true;
	return false;
}

/* An array access in loop l that moves with it along its last subscript only (the
 * iterator plus terms that do not move, or a gather), or not at all: the threads of a
 * warp then read neighbouring elements. Down a column (x[c][r], a matmul's b[k][j]), one
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
			bool last = i == e->nargs - 1;
			if (!last || !((offset_by(a, l->var) && !offset_rest_moves(l, a)) || reads_element(a))) {
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

/* Whether s declares or assigns a local. */
static bool writes_local(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_DECL || (s->kind == ST_ASSIGN && s->lhs->var->kind != VAR_PARAM))
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

static bool plan_pass(RowPlan *rp, Program *p, Stmt *l, RowPass *ps, StrVec *made, const char **why)
{
	if (l->step != 1)
		return fail(why, "a loop of the row steps by more than one");
	if (has_array_decl(l->body[0]))
		return fail(why, "a loop over the row's elements declares a local array");
	const Var *bad = NULL;
	if (!stmt_along_row(l, l->body[0], &bad))
		return fail(why, arena_printf(&p->arena, "the loop over '%s' reads or stores '%s' across rows, not along one (one thread per row reads it coalesced)", l->var->name, bad->name));
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
	ps->nreds = sc.reds.n;
	ps->reds = arena_alloc(&p->arena, sizeof(RowRed) * (size_t)(sc.reds.n + 1));
	for (int i = 0; i < sc.reds.n; i++) {
		ps->reds[i] = sc.reds.v[i];
		ps->reds[i].part = fresh_name(p, rp->region, made, arena_printf(&p->arena, "%s_part", sc.reds.v[i].target->var->name));
	}
	if (ps->nreds) {
		/* Each pass's step iterator is scoped to its pass: the name may repeat. */
		ps->step = fresh_name(p, rp->region, made, arena_printf(&p->arena, "%s0", l->var->name));
		made->n--;
	}
	vec_free(sc.reds);
	vec_free(sc.rstmts);
	vec_free(sc.stores);
	return true;
}

static bool passes_plan(RowPlan *rp, Program *p, const char **why)
{
	Stmt *body = grid_loops(rp->region, rp->grid, &rp->ngrid);
	if (!rp->ngrid)
		return fail(why, "no parallel loop over rows");
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
		} else if (!flat_stmt(s)) {
			ok = fail(why, has_array_decl(s) ? "the row holds a local array" : "a statement of the row holds a loop");
		} else if (stmt_writes_param(s) && writes_local(s)) {
			ok = fail(why, "a statement of the row both stores to an array and sets a local");
		}
	}
	if (ok && !rp->npasses)
		ok = fail(why, "no loop over the row's elements");
	if (ok) {
		rp->row_name = fresh_name(p, rp->region, &made, "row_");
		rp->vec_name = fresh_name(p, rp->region, &made, "v_");
		rp->scratch_name = fresh_name(p, rp->region, &made, "fx_scratch");
	}
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
static bool is_target_array(const RowPass *ps, const Var *v)
{
	for (int i = 0; ps && i < ps->nreds; i++)
		if (ps->reds[i].target->var == v)
			return true;
	return false;
}

/* The output arrays (parameters not const) e reads, but the pass's targets. */
static void collect_arrays(const Expr *e, VarSet *out, const RowPass *ps)
{
	if (!e)
		return;
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && !e->var->is_const && !is_target_array(ps, e->var))
		add_var(out, e->var);
	for (int i = 0; i < e->nargs; i++)
		collect_arrays(e->args[i], out, ps);
}

/* The output arrays statement s reads (rd) and writes (wr). */
static void stmt_arrays(const Stmt *s, VarSet *rd, VarSet *wr, const RowPass *ps)
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
		if (s->lhs->kind == EX_INDEX && s->lhs->var->kind == VAR_PARAM && !is_target_array(ps, s->lhs->var)) {
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
static bool part_hook(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	const RowPass *ps = t->ctx;
	for (int i = 0; ps && i < ps->nreds; i++)
		if (ps->reds[i].target->kind == e->kind && expr_equal(ps->reds[i].target, e)) {
			sb_puts(b, ps->reds[i].part);
			return true;
		}
	return false;
}

static void print_pass_step(StrBuf *out, const RowPlan *rp, const RowPass *ps, bool last, const PrintTarget *pt)
{
	const Stmt *l = ps->loop;
	const char *v = rp->vec_name;
	sb_printf(out, "\t\t\t\t#pragma unroll\n\t\t\t\tfor (int %s = 0; %s < %d; %s++) {\n", v, v, ROW_VEC, v);
	sb_printf(out, "\t\t\t\t\tconst int %s = %s + (int)threadIdx.x + %s * %d;\n\t\t\t\t\t", l->var->name, ps->step, v, ROW_THREADS);
	const Stmt *b = l->body[0];
	if (last) {
		sb_printf(out, "if (%s < ", l->var->name);
		print_operand_to(out, l->hi, OP_LT, pt);
		sb_puts(out, ") ");
		if (b->kind != ST_BLOCK) {
			sb_puts(out, "{\n\t\t\t\t\t\t");
			print_stmt_to(out, b, 6, pt);
			sb_puts(out, "\t\t\t\t\t}\n\t\t\t\t}\n");
			return;
		}
	}
	print_stmt_to(out, b, 5, pt);
	sb_puts(out, "\t\t\t\t}\n");
}

static void print_pass(StrBuf *out, const RowPlan *rp, const RowPass *ps, const PrintTarget *row_pt)
{
	const Stmt *l = ps->loop;
	const char *j = l->var->name;
	if (!ps->nreds) {
		/* Stores only: the row's elements strided over the threads. */
		sb_printf(out, "\t/* line %d: for (%s ...): stores, the elements strided over the threads */\n", l->loc.line, j);
		sb_printf(out, "\t#pragma unroll 4\n\tfor (int %s = ", j);
		print_operand_to(out, l->lo, OP_ADD, row_pt);
		sb_printf(out, " + (int)threadIdx.x; %s < ", j);
		print_operand_to(out, l->hi, OP_LT, row_pt);
		sb_printf(out, "; %s += %d)", j, ROW_THREADS);
		Stmt *b = l->body[0];
		sb_puts(out, b->kind == ST_BLOCK ? " " : "\n\t\t");
		print_stmt_to(out, b, b->kind == ST_BLOCK ? 1 : 2, row_pt);
		return;
	}
	PrintTarget pt = *row_pt;
	pt.var_hook = part_hook;
	pt.ctx = (void *)ps;
	sb_printf(out, "\t{ /* line %d: for (%s ...): ", l->loc.line, j);
	for (int i = 0; i < ps->nreds; i++)
		sb_printf(out, "%s%s", i ? ", " : "", ps->reds[i].target->var->name);
	sb_puts(out, " over the thread's elements, then over the CTA */\n");
	for (int i = 0; i < ps->nreds; i++) {
		const RowRed *rr = &ps->reds[i];
		sb_printf(out, "\t\tfloat %s = %s;\n", rr->part, rr->red == RED_ADD ? "0.0f" : rr->red == RED_MAX ? "-INFINITY" : "INFINITY");
	}
	print_strided_head(out, "\t\t", ps->step, l->lo, l->hi, row_pt);
	print_pass_step(out, rp, ps, false, &pt);
	sb_puts(out, "\t\t\t} else {\n");
	print_pass_step(out, rp, ps, true, &pt);
	sb_puts(out, "\t\t\t}\n\t\t}\n");
	for (int i = 0; i < ps->nreds; i++) {
		const RowRed *rr = &ps->reds[i];
		const char *op = rr->red == RED_ADD ? "sum" : rr->red == RED_MAX ? "max" : "min";
		if (rr->target->kind == EX_INDEX) {
			/* Every thread takes part in the reduction; thread 0 stores. */
			sb_printf(out, "\t\t%s = fx::cta_%s(%s, %s);\n\t\tif (threadIdx.x == 0)\n\t\t\t", rr->part, op, rr->part, rp->scratch_name);
		} else {
			sb_puts(out, "\t\t");
		}
		print_expr_to(out, rr->target, row_pt);
		const char *merged = rr->target->kind == EX_INDEX ? rr->part : NULL;
		if (rr->red == RED_ADD) {
			if (merged)
				sb_printf(out, " += %s;\n", merged);
			else
				sb_printf(out, " += fx::cta_sum(%s, %s);\n", rr->part, rp->scratch_name);
		} else {
			sb_printf(out, " = f%sf(", op);
			print_expr_to(out, rr->target, row_pt);
			if (merged)
				sb_printf(out, ", %s);\n", merged);
			else
				sb_printf(out, ", fx::cta_%s(%s, %s));\n", op, rr->part, rp->scratch_name);
		}
	}
	sb_puts(out, "\t}\n");
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
	const Region *r = rp->region;
	PrintTarget pt = row_print();
	bool reduces = rows_plan_reduces(rp);
	sb_printf(out, "__global__ void __launch_bounds__(%d) %s_kernel(", ROW_THREADS, r->name);
	print_params(out, r->fn, true);
	sb_puts(out, ")\n{\n");
	if (reduces)
		sb_printf(out, "\t__shared__ float %s[32];\n", rp->scratch_name);
	sb_printf(out, "\tlong long %s = blockIdx.x;\n", rp->row_name);
	print_row_coords(out, rp->grid, rp->ngrid, rp->row_name);
	VarSet rd = {0}, wr = {0};
	for (int i = 0; i < rp->nstmts; i++) {
		const Stmt *s = rp->stmts[i];
		const RowPass *ps = &rp->passes[i];
		VarSet srd = {0}, swr = {0};
		stmt_arrays(s, &srd, &swr, ps->loop ? ps : NULL);
		if (meets(&swr, &rd) || meets(&swr, &wr) || meets(&srd, &wr)) {
			sb_puts(out, "\t__syncthreads(); /* what other threads stored before is read or overwritten next */\n");
			rd.n = wr.n = 0;
		}
		add_all(&rd, &srd);
		add_all(&wr, &swr);
		if (ps->loop) {
			print_pass(out, rp, ps, &pt);
			if (ps->nreds) {
				/* The CTA reductions wait for every thread's loop; their stores are
				 * thread 0's. */
				rd.n = wr.n = 0;
				for (int k = 0; k < ps->nreds; k++)
					if (ps->reds[k].target->kind == EX_INDEX) {
						add_var(&rd, ps->reds[k].target->var);
						add_var(&wr, ps->reds[k].target->var);
					}
			}
		} else {
			print_row_stmt(out, s, &pt);
		}
		vec_free(srd);
		vec_free(swr);
	}
	vec_free(rd);
	vec_free(wr);
	sb_puts(out, "}\n");
}
