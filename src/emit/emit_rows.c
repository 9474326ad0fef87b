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

bool rows_plan(RowPlan *rp, const Region *r, const char **why)
{
	memset(rp, 0, sizeof *rp);
	rp->region = r;
	rp->c = fuse_cascade_of(r);
	if (!rp->c || rp->c->strategy != STRAT_SPLITK)
		return fail(why, "not a split row reduction");
	Program *p = rp->c->prog;
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
		const char *j0 = s->var->name;
		sb_printf(out, "\tfor (int %s = ", j0);
		print_expr_to(out, rp->lo, pt);
		sb_printf(out, "; %s < ", j0);
		print_operand_to(out, rp->hi, OP_LT, pt);
		sb_printf(out, "; %s += %d) {\n", j0, ROW_THREADS * ROW_VEC);
		/* Whole steps without the bound test, so that the loads of a step issue
		 * together; the last step tests it. */
		sb_printf(out, "\t\tif (%s + %d <= ", j0, ROW_THREADS * ROW_VEC);
		print_operand_to(out, rp->hi, OP_LE, pt);
		sb_puts(out, ") {\n");
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

void emit_rows_kernel(StrBuf *out, const RowPlan *rp, void (*print_params)(StrBuf *, const Func *, bool))
{
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
		} else if (stmt_writes_param(s)) {
			/* A value of the row: one thread stores it. */
			sb_puts(out, "\tif (threadIdx.x == 0)\n\t\t");
			print_stmt_to(out, s, 2, &pt);
		} else {
			sb_putc(out, '\t');
			print_stmt_to(out, s, 1, &pt);
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

