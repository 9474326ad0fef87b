/* emit_gpu.c: the CUDA and HIP printer. One printer, two targets: what differs is in
 * the GpuTarget table below.
 *
 * Lowering today: one GPU thread per row. The outer parallel loops of a region become a
 * flat thread index; the thread runs the fused program of its row (the rolling pass, with
 * its repair terms) in registers with FMA code. This is the correct fallback the tile
 * lowering (tensor-core dots, shared-memory staging) will replace for the shapes it
 * covers. Regions the fallback cannot print (arrays of run-time size, as split-k's
 * partials are) are refused with a located error. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "../front/pragma.h"
#include "../fuse/fuse.h"
#include "../lower/prologue.h"
#include "emit_tile.h"

static const GpuTarget targets[] = {
	[GPU_CUDA] = {"CUDA", "#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include \"fusecc_tile_cuda.h\"\n", "cudaError_t", "cudaStream_t", "cudaSuccess",
	              "cudaErrorInvalidValue", "cudaGetLastError()", "cudaMallocAsync", "cudaFreeAsync", "cudaGetDevice", "cudaDeviceGetAttribute",
	              "cudaDevAttrMultiProcessorCount", "cudaDevAttrMaxSharedMemoryPerMultiprocessor", "cudaFuncSetAttribute", "",
	              "cudaFuncAttributeMaxDynamicSharedMemorySize", "cudaDevAttrMaxSharedMemoryPerBlockOptin",
	              "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "tensor-core tiles", "warp", "three tf32 products each",
	              /* mma.sync m16n8k16 (m16n8k8 tf32 for fp32), cp.async; 227 KB of shared
	               * memory per CTA and 228 KB per SM on sm_90; wgmma on sm_90a for 64-row
	               * warpgroups */
	              {32, 2, 8, 2, 227 * 1024, 228 * 1024, true, true, true}, 8},
	[GPU_HIP] = {"HIP", "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n#include <stdint.h>\n#include \"fusecc_tile_hip.h\"\n", "hipError_t", "hipStream_t",
	             "hipSuccess", "hipErrorInvalidValue", "hipGetLastError()", "hipMallocAsync", "hipFreeAsync", "hipGetDevice", "hipDeviceGetAttribute",
	             "hipDeviceAttributeMultiprocessorCount", "hipDeviceAttributeMaxSharedMemoryPerMultiprocessor",
	             "hipFuncSetAttribute", "(const void *)", "hipFuncAttributeMaxDynamicSharedMemorySize", "hipDeviceAttributeMaxSharedMemoryPerBlock",
	             "hipOccupancyMaxActiveBlocksPerMultiprocessor", "matrix-core (MFMA) tiles", "wavefront", "mfma 16x16x4f32",
	             /* mfma 16x16x16 on a 64-lane wavefront (16x16x4f32 for fp32), loads through
	              * registers; 64 KB of LDS on CDNA */
	             {64, 1, 16, 1, 64 * 1024, 64 * 1024, true, false, false}, 64},
};

enum { THREADS = 128 };

const char *gpu_type(ScalarType t) { return t == TY_HALF ? "__half" : t == TY_BOOL ? "bool" : scalar_type_c(t); }

/* Set per output: --line adds line_last. */
static PrintTarget device_print = {gpu_type, true};
static int device_line_last;
static bool warn_fallback;
static Loc warned_slow; /* the last slow epilogue warned about: once for all head dims */

static bool expr_constant(const Expr *e)
{
	if (e->kind == EX_VAR || e->kind == EX_INDEX)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!expr_constant(e->args[i]))
			return false;
	return true;
}

/* Every local array must have a size known when the kernel is compiled. */
static bool check_local_arrays(const GpuTarget *tg, const Stmt *s, const char *why)
{
	if (!s)
		return true;
	if (s->kind == ST_DECL && s->var->ndim)
		for (int i = 0; i < s->var->ndim; i++)
			if (!expr_constant(s->var->dims[i])) {
				if (strstr(s->var->name, "_part"))
					error_at(s->loc, "the %s printer has no split-k for this region: %s", tg->name,
					         why ? why : "split-k partials need the tile lowering");
				else
					error_at(s->loc, "the %s printer needs local arrays of constant size; '%s' has a run-time size", tg->name, s->var->name);
				return false;
			}
	for (int i = 0; i < s->nbody; i++)
		if (!check_local_arrays(tg, s->body[i], why))
			return false;
	return true;
}

/* The first of tp's epilogue statements that is a loop holding a loop and no second pass
 * over the tiles (tile_store_pass): an output stored after the pass from a value
 * computed again per element (a row of probabilities recomputed from the scores,
 * stores.c's recompute_row), which the epilogue runs one row per thread. NULL when there
 * is none. */
static const Stmt *recomputing_loop(TilePlan *tp)
{
	for (int i = 0; i < tp->nepi; i++) {
		Stmt *s = tp->epi[i];
		if (s->kind != ST_FOR || tile_store_pass(tp, s))
			continue;
		const Stmt *b = s->body[0];
		for (int k = 0; k < (b->kind == ST_BLOCK ? b->nbody : 1); k++)
			if ((b->kind == ST_BLOCK ? b->body[k] : b)->kind == ST_FOR)
				return s;
	}
	return NULL;
}

/* The name of the array s stores into (its last assignment to an element). */
static const char *stored_array(const Stmt *s)
{
	const char *name = "?";
	if (s->kind == ST_ASSIGN && s->lhs->kind == EX_INDEX)
		name = s->lhs->var->name;
	for (int i = 0; i < s->nbody; i++) {
		const char *in = s->body[i] ? stored_array(s->body[i]) : "?";
		if (strcmp(in, "?"))
			name = in;
	}
	return name;
}

/* The launcher's parameters (the C function's), or a kernel's: those and the set-up
 * scalars the launcher computes. */
static void print_params(StrBuf *b, const Func *f, bool device)
{
	for (int i = 0; i < (device ? func_nkparams(f) : f->nparams); i++) {
		const Var *v = func_kparam(f, i);
		if (i)
			sb_puts(b, ", ");
		if (!v->ndim)
			sb_printf(b, "%s %s", gpu_type(v->ty), v->name);
		else
			sb_printf(b, "%s%s *%s%s", v->is_const ? "const " : "", gpu_type(v->ty), device ? "__restrict__ " : "", v->name);
	}
}

static bool is_zero(const Expr *e) { return e->kind == EX_INT && e->ival == 0; }

void print_extent(StrBuf *b, const GridLoop *g, const PrintTarget *t)
{
	sb_putc(b, '(');
	print_expr_to(b, g->hi, t);
	if (!is_zero(g->lo)) {
		sb_puts(b, " - (");
		print_expr_to(b, g->lo, t);
		sb_putc(b, ')');
	}
	sb_putc(b, ')');
}

/* The trip counts of the grid loops multiplied, in 64 bits. */
void print_rows(StrBuf *b, const GridLoop *g, int n)
{
	for (int i = 0; i < n; i++) {
		sb_puts(b, i ? " * " : "(long long)");
		print_extent(b, &g[i], &device_print);
	}
	if (!n)
		sb_puts(b, "1LL");
}

/* Whether e reads a grid loop's iterator other than g[self]'s, or an array element. */
static bool reads_per_row(const Expr *e, const GridLoop *g, int n, int self)
{
	for (int k = 0; k < n; k++)
		if (k != self && expr_reads_var(e, g[k].var))
			return true;
	return expr_reads_element(e);
}

bool grid_host_ends(GridLoop *g, int n)
{
	Expr *host[MAX_GRID];
	for (int i = 0; i < n; i++) {
		const Expr *hi = g[i].hi;
		host[i] = NULL;
		if (reads_per_row(g[i].lo, g, n, i))
			return false;
		if (!reads_per_row(hi, g, n, i))
			continue;
		/* a < b ? a : b, the minimum the narrowing makes */
		const Expr *c = hi->kind == EX_COND ? hi->args[0] : NULL;
		if (!c || c->kind != EX_BIN || (c->bop != OP_LT && c->bop != OP_LE) || !expr_equal(c->args[0], hi->args[1]) || !expr_equal(c->args[1], hi->args[2]))
			return false;
		for (int s = 1; s <= 2 && !host[i]; s++)
			if (!reads_per_row(hi->args[s], g, n, i))
				host[i] = hi->args[s];
		if (!host[i])
			return false;
	}
	for (int i = 0; i < n; i++)
		if (host[i]) {
			g[i].guard = g[i].hi;
			g[i].hi = host[i];
		}
	return true;
}

/* The grid loops' iterators from the thread's row index `rv` (consumed), innermost fastest;
 * then the return of a row past its own end (GridLoop.guard). */
void print_row_coords(StrBuf *out, const GridLoop *g, int n, const char *rv)
{
	for (int i = n - 1; i >= 0; i--) {
		StrBuf ext = {0};
		print_extent(&ext, &g[i], &device_print);
		sb_printf(out, "\tint %s = ", g[i].var->name);
		if (!is_zero(g[i].lo)) {
			print_expr_to(out, g[i].lo, &device_print);
			sb_puts(out, " + ");
		}
		if (i > 0)
			sb_printf(out, "(int)(%s %% %s);\n\t%s /= %s;\n", rv, ext.s, rv, ext.s);
		else
			sb_printf(out, "(int)%s;\n", rv);
		sb_free(&ext);
	}
	for (int i = 0; i < n; i++)
		if (g[i].guard) {
			sb_printf(out, "\tif (%s >= (", g[i].var->name);
			print_expr_to(out, g[i].guard, &device_print);
			sb_puts(out, "))\n\t\treturn; /* past this row's own end */\n");
		}
}

/* ---- split-k without the tile lowering ----
 * The row block of a split-k region (see SplitBlock in src/lower/tile.h). The chunk kernel
 * runs one thread per (row, chunk), the merge kernel one thread per row; the partials
 * live in a workspace, [rows][nchunks][elements] floats each. */
typedef struct SplitFallback {
	bool on;
	Stmt *block;
	SplitBlock sb;
	const char *ws, *nrow, *rid, *rv; /* the kernels' names */
	Expr *nchunks, *chunk;            /* the launcher's chunk count and size */
} SplitFallback;

/* A partial's element in the workspace. */
static bool part_hook(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	const SplitFallback *sf = t->ctx;
	if (e->kind != EX_INDEX)
		return false;
	for (int k = 0; k < sf->sb.nparts; k++)
		if (e->var == sf->sb.parts[k]) {
			sb_printf(b, "%s[(%s * %s + ", e->var->name, sf->rid, sf->sb.ndecl->var->name);
			print_expr_to(b, e->args[0], t);
			sb_putc(b, ')');
			if (e->nargs > 1) {
				sb_printf(b, " * %d + ", sf->sb.part_cols[k]);
				print_expr_to(b, e->args[1], t);
			}
			sb_putc(b, ']');
			return true;
		}
	return false;
}

/* The workspace's element: double when a partial is (each partial then takes 8 bytes an
 * element, whatever its type, so that the double ones are aligned and stay double). */
static const char *ws_type(const SplitBlock *sb)
{
	for (int k = 0; k < sb->nparts; k++)
		if (sb->parts[k]->ty == TY_DOUBLE)
			return "double";
	return "float";
}

/* The chunk kernel (merge false) or the merge kernel of a split-k region. */
static void emit_split_fallback(StrBuf *out, const Func *f, const Region *r, const GridLoop *g, int n, const SplitFallback *sf, bool merge)
{
	PrintTarget pt = device_print;
	pt.var_hook = part_hook;
	pt.ctx = (void *)sf;
	const SplitBlock *sb = &sf->sb;
	const char *ns = sb->ndecl->var->name;
	sb_printf(out, "__global__ void __launch_bounds__(%d) %s_%s(", THREADS, r->name, merge ? "merge" : "kernel");
	print_params(out, f, true);
	sb_printf(out, ", %s%s *__restrict__ %s, long long %s, int %s", merge ? "const " : "", ws_type(sb), sf->ws, sf->nrow, ns);
	if (!merge)
		sb_printf(out, ", int %s", sb->cdecl->var->name);
	sb_printf(out, ")\n{\n\t%s\n", merge ? SPLITK_MERGE_START : SPLITK_CHUNK_START);
	const char *rv = sf->rv;
	sb_printf(out, "\tlong long %s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n\tif (%s >= %s%s%s)\n\t\treturn;\n", rv, rv, sf->nrow, merge ? "" : " * ",
	          merge ? "" : ns);
	if (!merge)
		sb_printf(out, "\tconst int %s = (int)(%s %% %s);\n\t%s /= %s;\n", sb->chunks->var->name, rv, ns, rv, ns);
	sb_printf(out, "\tconst long long %s = %s;\n", sf->rid, rv);
	print_row_coords(out, g, n, rv);
	for (int k = 0; k < sb->nparts; k++)
{
		/* an argmax's positions are ints, in the workspace's bits */
		const char *ty = sb->parts[k]->ty == TY_INT ? "int" : sb->parts[k]->ty == TY_DOUBLE ? "double" : "float", *cst = merge ? "const " : "";
		sb_printf(out, "\t%s%s *%s = (%s%s *)(%s + %dLL * %s * %s);\n", cst, ty, sb->parts[k]->name, cst, ty, sf->ws, split_part_offset(sb, k), sf->nrow, ns);
	}
	const Stmt *blk = sf->block;
	int i = 0;
	for (; i < sb->ichunks; i++)
		if (!split_block_decl(sb, blk->body[i])) {
			sb_putc(out, '\t');
			print_stmt_to(out, blk->body[i], 1, &pt);
		}
	const Stmt *cb = sb->chunks->body[0];
	Stmt *const *body = merge ? blk->body + i + 1 : cb->kind == ST_BLOCK ? cb->body : &sb->chunks->body[0];
	int nb = merge ? blk->nbody - i - 1 : cb->kind == ST_BLOCK ? cb->nbody : 1;
	for (int k = 0; k < nb; k++) {
		sb_putc(out, '\t');
		print_stmt_to(out, body[k], 1, &pt);
	}
	sb_puts(out, "}\n");
}

/* Copy of e with each `hi - lo` replaced by len. */
static Expr *subst_len(Program *p, const Expr *e, const Expr *hi, const Expr *lo, const Expr *len)
{
	if (e->kind == EX_BIN && e->bop == OP_SUB && expr_equal(e->args[0], hi) && expr_equal(e->args[1], lo))
		return ex_copy(p, len);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = subst_len(p, e->args[i], hi, lo, len);
	return c;
}

/* The split block's pass: its loop over the axis in steps, NULL when none. */
static const Stmt *split_pass(const SplitFallback *sf)
{
	const Stmt *cb = sf->sb.chunks->body[0], *pass = NULL;
	for (int i = 0; cb->kind == ST_BLOCK && i < cb->nbody; i++)
		if (cb->body[i]->kind == ST_FOR && cb->body[i]->step > 1)
			pass = cb->body[i];
	return pass;
}

/* Finds in e a read of a parameter array of values whose outermost extent nothing gives
 * (a pointer, `const float *k`) into *ctx; false (stop) once found (an ExprTest). */
static bool no_unsized_read(const Expr *e, void *ctx)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->var->ndim && !e->var->dims[0] && !e->var->flat_extent && scalar_is_float(e->var->ty)) {
		*(const Var **)ctx = e->var;
		return false;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!no_unsized_read(e->args[i], ctx))
			return false;
	return true;
}

/* The declaration that lets the launcher size a split pass's chunks on the host: an
 * array the pass reads, declared with its size (split_host_len takes its extent as a bound
 * of the axis's length), as ` declare 'k' with its size, as 'const float k[TOTAL * H * D]'
 * ...`; "" when the pass reads no array without one. */
static const char *sized_decl_hint(Program *p, const SplitFallback *sf)
{
	const Stmt *pass = split_pass(sf);
	const Var *a = NULL;
	if (!pass || stmt_all_exprs(pass, no_unsized_read, &a) || !a)
		return "";
	StrBuf b = {0};
	sb_printf(&b, "declare '%s' with its size, as '%s%s %s[TOTAL", a->name, a->is_const ? "const " : "", a->ctype ? a->ctype : scalar_type_c(a->ty), a->name);
	for (int k = 1; k < a->ndim; k++) {
		sb_puts(&b, " * ");
		print_expr(&b, a->dims[k]);
	}
	sb_puts(&b, "]', with TOTAL an int parameter, the rows of all sequences together: its extent bounds the chunks on the host; or ");
	const char *h = arena_printf(&p->arena, "%s", b.s);
	sb_free(&b);
	return h;
}

/* The chunk count and size the launcher computes: the fused program's (from the axis's
 * length, hi - lo), with a bound of the length the host computes where the range is read
 * from an array (split_host_len; each chunk is clipped to its row's range in the kernel,
 * as the fused program's chunk statements do). false when there is none. */
static bool split_fallback_sizes(Program *p, const Cascade *c, SplitFallback *sf)
{
	sf->nchunks = sf->sb.ndecl->rhs;
	sf->chunk = sf->sb.cdecl->rhs;
	const Stmt *pass = split_pass(sf);
	const Expr *lo = c->levels[0]->lo, *hi = c->levels[0]->hi;
	Expr *len;
	if (!pass || !split_host_len(p, pass, lo, hi, &len))
		return false;
	if (len) {
		sf->nchunks = subst_len(p, sf->nchunks, hi, lo, len);
		sf->chunk = subst_len(p, sf->chunk, hi, lo, len);
	}
	return !expr_reads_element(sf->nchunks) && !expr_reads_element(sf->chunk);
}

/* The tile lowering's kernel when the plan fits, else the fallback's, whose comment
 * says why the plan did not fit. */
static bool name_used(const Stmt *s, const char *name)
{
	if (!s)
		return false;
	if (s->var && !strcmp(s->var->name, name))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (name_used(s->body[i], name))
			return true;
	return false;
}

/* `base`, or base2, base3, ...: a name no parameter or local of the region has. */
static const char *unique_name(Program *p, const Func *f, const Region *r, const char *base)
{
	for (int k = 1;; k++) {
		const char *nm = k == 1 ? base : arena_printf(&p->arena, "%s%d", base, k);
		bool used = name_used(r->loop, nm) || !strcmp(nm, "row");
		for (int i = 0; i < func_nkparams(f); i++)
			used |= !strcmp(func_kparam(f, i)->name, nm);
		if (!used)
			return nm;
	}
}

static bool ident_char(char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

/* Whether nm is a parameter or set-up scalar of f, or in v. */
static bool name_taken(const Func *f, const StrVec *v, const char *nm)
{
	for (int i = 0; i < f->nstructs; i++)
		if (!strcmp(f->structs[i]->name, nm))
			return true;
	for (int i = 0; i < func_nkparams(f); i++)
		if (!strcmp(func_kparam(f, i)->name, nm))
			return true;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], nm))
			return true;
	return false;
}

void name_generated(StrBuf *b, size_t from, const Func *f)
{
	Arena arena = {0}, *a = &arena;
	StrVec bases = {0}, names = {0};
	for (size_t i = from; i < b->len; i++) {
		if (b->s[i] != '@')
			continue;
		size_t n = 1;
		while (ident_char(b->s[i + n]))
			n++;
		const char *base = arena_strndup(a, b->s + i + 1, n - 1);
		int k = 0;
		while (k < bases.n && strcmp(bases.v[k], base))
			k++;
		if (k == bases.n)
			vec_push(bases, base);
	}
	/* A base keeps its spelling unless a user name has it; a renamed one avoids the
	 * other bases too (base2 could be one) and the names given before. */
	for (int k = 0; k < bases.n; k++) {
		const char *nm = bases.v[k];
		for (int j = 2; name_taken(f, &names, nm) || (nm != bases.v[k] && name_taken(f, &bases, nm)); j++)
			nm = arena_printf(a, "%s%d", bases.v[k], j);
		vec_push(names, nm);
	}
	StrBuf o = {0};
	for (size_t i = from; i < b->len; i++) {
		if (b->s[i] != '@') {
			sb_putc(&o, b->s[i]);
			continue;
		}
		size_t n = 1;
		while (ident_char(b->s[i + n]))
			n++;
		for (int k = 0; k < bases.n; k++)
			if (strlen(bases.v[k]) == n - 1 && !strncmp(bases.v[k], b->s + i + 1, n - 1))
				sb_puts(&o, names.v[k]);
		i += n - 1;
	}
	b->len = from;
	b->s[from] = 0;
	sb_puts(b, o.s ? o.s : "");
	sb_free(&o);
	vec_free(bases);
	vec_free(names);
	arena_free(a);
}

static bool holds_loop(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (holds_loop(s->body[i]))
			return true;
	return false;
}

/* Whether region r's rows hold no loop and some parallel loop: each row is a few
 * element-wise operations (a gather, llm.c's `losses[bt] = -logf(probs[bt][target])`),
 * for which one thread per row is the kernel (a CTA's threads would have nothing to
 * share), not a fallback. */
static bool elementwise_rows(const Region *r)
{
	GridLoop g[16];
	int n;
	Stmt *body = grid_loops(r, g, &n);
	return n > 0 && !holds_loop(body);
}

/* Kernel `name`: a thread per point of grid loops g[0 .. n) (its index rv), which runs
 * body (a block's statements without a second pair of braces); with `lane`, PRO_LANES
 * threads per point, `lane` each one's index among them (the body divides the work). */
static void print_thread_kernel(StrBuf *out, const Func *f, const char *name, const GridLoop *g, int n, const Stmt *body, const char *rv, const char *lane)
{
	sb_printf(out, "__global__ void __launch_bounds__(%d) %s(", THREADS, name);
	print_params(out, f, true);
	sb_puts(out, ")\n{\n");
	if (lane)
		sb_printf(out, "\tlong long %s = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / %d;\n\tint %s = (int)(threadIdx.x %% %d);\n\tif (%s >= ", rv, PRO_LANES, lane, PRO_LANES, rv);
	else
		sb_printf(out, "\tlong long %s = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n\tif (%s >= ", rv, rv);
	print_rows(out, g, n);
	sb_puts(out, ")\n\t\treturn;\n");
	print_row_coords(out, g, n, rv);
	sb_putc(out, '\t');
	if (body->kind == ST_BLOCK) {
		for (int i = 0; i < body->nbody; i++) {
			if (i)
				sb_putc(out, '\t');
			print_stmt_to(out, body->body[i], 1, &device_print);
		}
	} else {
		print_stmt_to(out, body, 1, &device_print);
	}
	sb_puts(out, "}\n");
}

/* The launch of print_thread_kernel's kernel `name``suffix` (a block of its own), per_row
 * threads per point of g. */
static void print_thread_launch(StrBuf *out, const GpuTarget *tg, const char *name, const char *suffix, const GridLoop *g, int n, const char *args, int per_row)
{
	sb_puts(out, "\t{\n\t\tlong long @rows = ");
	print_rows(out, g, n);
	if (per_row > 1)
		sb_printf(out, ";\n\t\tif (@rows > 0) {\n\t\t\tunsigned @blocks = (unsigned)((@rows * %d + %d) / %d);\n", per_row, THREADS - 1, THREADS);
	else
		sb_printf(out, ";\n\t\tif (@rows > 0) {\n\t\t\tunsigned @blocks = (unsigned)((@rows + %d) / %d);\n", THREADS - 1, THREADS);
	sb_printf(out, "\t\t\t%s%s<<<@blocks, %d, 0, @stream>>>(%s", name, suffix, THREADS, args);
	sb_printf(out, ");\n\t\t\t%s @err = %s;\n\t\t\tif (@err != %s)\n\t\t\t\treturn @err;\n\t\t}\n\t}\n", tg->err_t, tg->last_error, tg->success);
}

/* The kernels that fill region r's workspaces (prologue.h): PRO_LANES threads per row of
 * each, over its columns. */
static void emit_prologue_kernels(StrBuf *out, const Func *f, const Region *r, const Prologue *pl)
{
	StrVec none = {0};
	for (int k = 0; k < pl->nsides; k++) {
		const ProSide *ps = &pl->sides[k];
		sb_printf(out, "\n/* %s's operand computed from '%s' once per row of it (the products of %s read it): '%s' [", r->name, ps->main->name, r->name, ps->ws->name);
		for (int i = 0; i < ps->ws->ndim; i++) {
			sb_puts(out, i ? "][" : "");
			print_expr_to(out, ps->ws->dims[i], &device_print);
		}
		sb_printf(out, "] of %s%s; %d threads per row (its columns; each runs the row's other statements), FMA code, %d threads per block */\n",
		          ps->ws->ty == TY_HALF ? "fp16" : ps->ws->ty == TY_BF16 ? "bf16" : "fp32", ps->split == 2 ? ", each value as hi + lo (columns c and W + c)" : ps->split == 1 ? ", each value twice (columns c and W + c)" : "", PRO_LANES, THREADS);
		const char *rv = name_used(ps->body, "row") || name_taken(f, &none, "row") ? "thread_row" : "row";
		print_thread_kernel(out, f, ps->kernel, ps->grid, ps->ngrid, ps->body, rv, ps->lane->name);
	}
}

/* Whether region r, fused, gets tensor-core tiles (*splitk: split-k ones), its plan
 * freed and its nest as it was. */
static bool region_tiles(Program *p, Region *r, const GpuTarget *tg, bool *splitk)
{
	TilePlan tp = {0};
	HeadGroup hg = {0};
	const char *why = NULL;
	bool tiled = heads_tile_plan(p, r, &tg->tile, &tp, &hg, &why);
	if (splitk)
		*splitk = tiled && tp.splitk;
	if (tp.heads)
		heads_restore(r, tp.heads);
	tile_plan_free(&tp);
	return tiled;
}

/* Whether region r with its products' operands in workspaces (prologue_rewrite) gets
 * tiles where as written it does not: then r stays rewritten (pl) and the count of its
 * workspaces is returned; else r is as it was, and 0. */
static int prologue_plan(Program *p, const GpuTarget *tg, Region *r, Prologue *pl)
{
	for (int pass = 0; pass < 2; pass++) {
		if (!prologue_rewrite(p, r->fn, r, pl, unique_name))
			return 0;
		/* the region as written first: a plan that fits it stands */
		if (!pass)
			prologue_restore(pl);
		if (region_tiles(p, r, tg, NULL) != (pass == 1)) {
			prologue_restore(pl);
			*pl = (Prologue){0};
			return 0;
		}
		if (pass)
			return pl->nsides;
	}
	return 0;
}

static bool emit_kernel(StrBuf *out, const GpuTarget *tg, const Program *p, const Func *f, const Region *r, TilePlan *tp, bool tiled, const char *why,
                        SplitFallback *sf, const RowPlan *rp)
{
	if (rp) {
		sb_putc(out, '\n');
		emit_schedule_echo(out, r, "");
		sb_puts(out, "\n * lowering: one CTA per row (");
		for (int i = 0; i < rp->ngrid; i++)
			sb_printf(out, "%s%s", i ? ", " : "", rp->grid[i].var->name);
		sb_printf(out, ") of 128, 256 or 512 threads, or for short rows a %s or less per row, 128 threads a CTA (%s, chosen at launch),\n *   each thread taking vectors of %d element%s", tg->wave_name, rp->t_name, rp->vw, rp->vw > 1 ? "s" : "");
		if (rp->c)
			sb_printf(out, ",\n *   its threads the chunks of '%s', partials merged in shared memory", rp->c->axis);
		else
			sb_printf(out, ",\n *   the row as written: %s%s",
			          rp->npasses > 1 ? arena_printf(&((Program *)p)->arena, "its %d loops one after another", rp->npasses) : "one loop",
			          rows_plan_reduces(rp) ? ", each reduction merged in shared memory" : "");
		if (rp->nkeeps) {
			sb_puts(out, ";\n *   kept in shared memory between the loops:");
			for (int k = 0; k < rp->nkeeps; k++)
				sb_printf(out, "%s %s%s", k ? "," : "", rp->keeps[k].var->name, rp->keeps[k].local ? " (a local array)" : "");
			sb_puts(out, rp->keep_mode == KEEP_LAUNCH ? " (when the GPU gives a CTA that much)" : "");
		}
		sb_puts(out, " */\n");
		emit_rows_kernel(out, tg, rp, print_params);
		return true;
	}
	if (tiled) {
		sb_putc(out, '\n');
		emit_schedule_echo(out, r, "");
		/* warps that split the accumulator columns (tile.h, cw) say so */
		const char *split = tp->cw > 1 ? arena_printf(&tp->c->prog->arena, ", %d to a row tile, each %d of the %d accumulator columns", tp->cw, tp->ncols / tp->cw, tp->ncols) : "";
		if (tp->row_made)
			sb_printf(out, "\n * lowering: %s: one row, padded to %d, per CTA (%d %s%s%s)", tg->lowering, tp->bm, tp->warps, tg->wave_name, tp->warps > 1 ? "s" : "", split);
		else
			sb_printf(out, "\n * lowering: %s: %d rows of '%s' per CTA (%d %s%s%s)", tg->lowering, tp->bm, tp->grid[tp->rowdim].var->name, tp->warps,
			          tg->wave_name, tp->warps > 1 ? "s" : "", split);
		sb_printf(out, ", steps of %d over '%s'; ", tp->bn, tp->c->axis);
		if (tp->elem != TY_FLOAT)
			sb_puts(out, tp->row_parts > 1 ? "16-bit products with fp32 accumulation, the fp32 row operand as two 16-bit parts (hi + lo: two products each)"
			                               : "16-bit products with fp32 accumulation");
		else if (tp->tf32 && tp->tt->presplit)
			sb_puts(out, "fp32 products (one tf32 product each, precision(tf32))");
		else
			sb_printf(out, "fp32 products (%s)", tg->f32_products);
		if (tp->pscale)
			sb_puts(out, ", the P.V weights scaled by a power of two per row into fp16's range");
		if (tp->presplit)
			sb_puts(out, ", the column tiles split into tf32 once per step");
		for (int k = 0; k < tp->ncolop; k++)
			if (scalar_size(tp->colop[k]->ty) == 1)
				sb_printf(out, "; '%s' (%s) widened to %s as loaded", tp->colop[k]->var->name, scalar_type_c(tp->colop[k]->ty), scalar_type_c(tp->elem));
		if (tp->splitk)
			sb_printf(out, "\n *   split-k: one CTA per chunk of '%s' (partials in fp32 in a workspace), then %s_merge", tp->c->axis, r->name);
		sb_puts(out, " */\n");
		int used = tp->c->names->n;
		emit_tile_kernel(out, tg, tp, print_params);
		if (tp->wide) {
			/* its own locals, named as the first kernel's */
			tp->c->names->n = used;
			sb_printf(out, "\n/* %s with %d rows of '%s' per CTA (%d %s%s), run where a grid point has %d rows or more. */\n", r->name, tp->wide->bm,
			          tp->grid[tp->rowdim].var->name, tp->wide->warps, tg->wave_name, tp->wide->warps > 1 ? "s" : "", TILE_WIDE_ROWS);
			emit_tile_kernel(out, tg, tp->wide, print_params);
		}
		if (tp->splitk)
			emit_merge_kernel(out, tg, tp, print_params);
		return true;
	}
	GridLoop g[16];
	int n;
	Stmt *body = grid_loops(r, g, &n);
	grid_host_ends(g, n);
	/* The fallback's grid has one thread per point of the parallel loops, counted on the
	 * host: a range per sequence (i < cu[b + 1] - cu[b]) has no host count. Say why the
	 * tiles, which bound such rows by an array's extent, did not apply. */
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++)
			if (expr_reads_var(g[i].lo, g[k].var) || expr_reads_var(g[i].hi, g[k].var))
				return error_at(r->loop->loc, "the %s printer's one-thread-per-row fallback needs the parallel loops' bounds to be independent of each other ('%s' depends on '%s')%s%s%s%s", tg->name,
				                g[i].var->name, g[k].var->name, why && *why ? ", and the tiles did not apply (" : "", why && *why ? why : "", why && *why ? ")" : "",
				                why && strstr(why, "no array extent") && !strstr(why, ": declare") ? ": declare the arrays the rows index with their extents (q[total_q][H][D], or q[total_q * H * D])" : ""),
				       false;
	/* The thread's row index: `row`, unless the user named a loop, local or parameter so. */
	StrVec none = {0};
	const char *rv = name_used(r->loop, "row") || name_taken(f, &none, "row") ? unique_name((Program *)p, f, r, "thread_row") : "row";
	const Cascade *c = fuse_cascade_of(r);
	if (c && c->strategy == STRAT_SPLITK && split_block(body, &sf->sb)) {
		if (!split_fallback_sizes((Program *)p, c, sf))
			return error_at(r->loop->loc,
			                "the %s printer cannot split '%s' into chunks: its range is read from an array, and no array the pass reads at every element bounds its length on the host, where the launcher sizes the chunks (%swrite rolling(%s) instead of splitk)",
			                tg->name, c->axis, sized_decl_hint((Program *)p, sf), c->axis), false;
		StmtVec own = {0}; /* the row's locals before the chunks, not the partials */
		for (int i = 0; i < sf->sb.ichunks; i++)
			if (!split_block_decl(&sf->sb, body->body[i]))
				vec_push(own, body->body[i]);
		const Var *kept = stmts_carried_array(own.v, own.n, &sf->sb.chunks, 1, body->body + sf->sb.ichunks + 1, body->nbody - sf->sb.ichunks - 1);
		vec_free(own);
		if (kept)
			return error_at(r->loop->loc,
			                "the %s printer cannot split '%s' into chunks: the local array '%s' is written by the chunks and read after their merge, and each chunk runs apart (write rolling(%s) instead of splitk)",
			                tg->name, c->axis, kept->name, c->axis),
			       false;
		sf->on = true;
		sf->block = body;
		for (int i = 0; i < body->nbody; i++)
			if (!split_block_decl(&sf->sb, body->body[i]) && !check_local_arrays(tg, body->body[i], why))
				return false;
		Program *mp = (Program *)p;
		sf->ws = unique_name(mp, f, r, "ws");
		sf->nrow = unique_name(mp, f, r, "nrow");
		sf->rid = unique_name(mp, f, r, "rid");
		sf->rv = rv;
		sb_putc(out, '\n');
		emit_schedule_echo(out, r, "");
		sb_printf(out, "\n * lowering: split-k, one thread per row (");
		for (int i = 0; i < n; i++)
			sb_printf(out, "%s%s", i ? ", " : "", g[i].var->name);
		sb_printf(out, ") and chunk of '%s', partials in %s in a workspace, then %s_merge, one thread per row; FMA code", c->axis,
		          strcmp(ws_type(&sf->sb), "double") ? "fp32" : "fp64", r->name);
		if (why)
			sb_printf(out, "\n *   (no tile lowering: %s)", why);
		sb_puts(out, " */\n");
		emit_split_fallback(out, f, r, g, n, sf, false);
		sb_putc(out, '\n');
		emit_split_fallback(out, f, r, g, n, sf, true);
		return true;
	}
	if (!check_local_arrays(tg, body, why))
		return false;
	sb_putc(out, '\n');
	emit_schedule_echo(out, r, "");
	bool elementwise = elementwise_rows(r);
	sb_printf(out, "\n * lowering: %s (", elementwise ? "element-wise, one thread per row" : "one thread per row");
	for (int i = 0; i < n; i++)
		sb_printf(out, "%s%s", i ? ", " : "", g[i].var->name);
	sb_printf(out, "), FMA code, %d threads per block", THREADS);
	if (elementwise)
		sb_puts(out, ": the row holds no loop");
	else if (why)
		sb_printf(out, "\n *   (no tile lowering: %s)", why);
	sb_puts(out, " */\n");
	print_thread_kernel(out, f, arena_printf(&((Program *)p)->arena, "%s_kernel", r->name), g, n, body, rv, NULL);
	return true;
}

/* Whether int parameter v gives an extent of some array (it must not be negative). */
static bool is_size(const Func *f, const Var *v)
{
	for (int i = 0; i < f->nparams; i++)
		for (int d = 0; d < f->params[i]->ndim; d++)
			if (expr_reads_var(f->params[i]->dims[d], v))
				return true;
	return false;
}

/* Split-k fallback launch: the chunk count and size as the fused program computes them,
 * the workspace, the chunk kernel, the merge. */
static void split_fallback_launch(StrBuf *out, const GpuTarget *tg, const Region *r, const GridLoop *g, int n, const SplitFallback *sf, const char *args)
{
	const SplitBlock *sb = &sf->sb;
	const char *ns = sb->ndecl->var->name, *cs = sb->cdecl->var->name;
	long cols = split_part_offset(sb, sb->nparts);
	sb_puts(out, "\t{\n\t\tlong long @rows = ");
	print_rows(out, g, n);
	sb_printf(out, ";\n\t\tif (@rows > 0) {\n\t\t\tint %s = ", ns);
	print_expr_to(out, sf->nchunks, &device_print);
	sb_printf(out, ";\n\t\t\tint %s = ", cs);
	print_expr_to(out, sf->chunk, &device_print);
	sb_printf(out, ";\n\t\t\tif (%s < 1 || (@rows * %s + %d) / %d > 2147483647LL)\n\t\t\t\treturn %s;\n", ns, ns, THREADS - 1, THREADS, tg->invalid);
	sb_printf(out, "\t\t\t%s @err;\n", tg->err_t);
	StrBuf chunk = {0}, merge = {0};
	sb_printf(&chunk, "(unsigned)((@rows * %s + %d) / %d), %d, 0, @stream", ns, THREADS - 1, THREADS, THREADS);
	sb_printf(&merge, "(unsigned)((@rows + %d) / %d), %d, 0, @stream", THREADS - 1, THREADS, THREADS);
	print_splitk_launches(out, tg, r->name, "", ws_type(sb), cols, "@rows", sb, chunk.s, merge.s, args);
	sb_free(&chunk);
	sb_free(&merge);
	sb_puts(out, "\t\t}\n\t}\n");
}

void print_splitk_launches(StrBuf *out, const GpuTarget *tg, const char *region, const char *kernel, const char *ws_t, long cols, const char *nrow, const SplitBlock *sb, const char *chunk_cfg,
                           const char *merge_cfg, const char *args)
{
	const char *ns = sb->ndecl->var->name;
	sb_printf(out, "\t\t\t%s *@ws = NULL;\n", ws_t);
	sb_printf(out, "\t\t\tif ((@err = %s((void **)&@ws, sizeof(%s) * %ldULL * (size_t)%s * (size_t)%s, @stream)) != %s)\n\t\t\t\treturn @err;\n",
	          tg->malloc_async, ws_t, cols, nrow, ns, tg->success);
	sb_printf(out, "\t\t\t%s_kernel%s<<<%s>>>(%s, @ws, %s, %s, %s);\n", region, kernel, chunk_cfg, args, nrow, ns, sb->cdecl->var->name);
	sb_printf(out, "\t\t\t@err = %s;\n\t\t\tif (@err == %s)\n", tg->last_error, tg->success);
	sb_printf(out, "\t\t\t\t@err = fx::launch_after(%s_merge, %s, %s, @ws, %s, %s);\n", region, merge_cfg, args, nrow, ns);
	sb_printf(out, "\t\t\t%s @freed = %s(@ws, @stream);\n", tg->err_t, tg->free_async);
	sb_printf(out, "\t\t\tif (@err != %s || (@err = @freed) != %s)\n\t\t\t\treturn @err;\n", tg->success, tg->success);
}

/* Refuses, with the reason on stderr, the sizes for which a set-up division the kernels
 * read as exact (`int hs = C / NH;`, Func.divs) leaves a remainder. */
static void emit_div_checks(StrBuf *out, const GpuTarget *tg, const Func *f)
{
	for (int i = 0; i < f->ndivs; i++) {
		const SizeDiv *d = &f->divs[i];
		sb_printf(out, "\tif (%s <= 0 || %s %% %s) {\n", d->den->name, d->num->name, d->den->name);
		sb_printf(out, "\t\tfprintf(stderr, \"%s_launch: %s = %%d is not a multiple of %s = %%d: the kernels read '%s = %s / %s' as exact\\n\", %s, %s);\n", f->name, d->num->name,
		          d->den->name, d->q->name, d->num->name, d->den->name, d->num->name, d->den->name);
		sb_printf(out, "\t\treturn %s;\n\t}\n", tg->invalid);
	}
}

/* Refuses a null array of a non-empty extent, and a misaligned one: the arrays whose
 * extents read a set-up scalar (after_setup) once the set-up has run, the others before. */
static void emit_ptr_checks(StrBuf *out, const GpuTarget *tg, const Func *f, bool after_setup)
{
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (!v->ndim || extents_read_setup(f, v) != after_setup)
			continue;
		sb_puts(out, "\tif (!");
		sb_puts(out, v->name);
		sb_puts(out, " && 1LL");
		/* A pointer of unknown outermost extent: the null check counts the rest. */
		for (int d = 0; d < (v->flat_extent ? 1 : v->ndim); d++) {
			const Expr *n = v->flat_extent ? v->flat_extent : v->dims[d];
			if (!n)
				continue;
			sb_puts(out, " * (");
			print_expr_to(out, n, &device_print);
			sb_putc(out, ')');
		}
		sb_printf(out, " > 0)\n\t\treturn %s;\n", tg->invalid);
		/* A misaligned element would fault in the kernel and spoil the context (bytes and
		 * bools are never misaligned). */
		if (scalar_size(v->ty) > 1)
			sb_printf(out, "\tif ((uintptr_t)%s %% sizeof(%s))\n\t\treturn %s;\n", v->name, gpu_type(v->ty), tg->invalid);
	}
}

/* The launcher of f's kernels. With workspaces (pls, prologue.h), it is the static
 * `<f>_launch_ws`, which takes them after f's parameters (appended there by the caller)
 * and runs each region's prologue kernels before the region's own; emit_ws_launcher
 * prints the launcher that allocates them. */
/* The comment and head of <f>_launch<suffix>, up to its opening brace: static for a
 * combination's (suffix) and for the one that takes workspaces (ws: `_ws` after suffix),
 * extern "C" else. */
static void print_launcher_head(StrBuf *out, const GpuTarget *tg, const Func *f, const char *suffix, bool ws)
{
	if (ws) {
		sb_printf(out, "\n/* %s_launch%s with its workspaces, which %s_launch%s allocates. */\n", f->name, suffix ? suffix : "", f->name, suffix ? suffix : "");
		sb_printf(out, "static %s %s_launch%s_ws(", tg->err_t, f->name, suffix ? suffix : "");
	} else if (suffix) {
		sb_printf(out, "\n/* %s_launch for %s. */\n", f->name, suffix + 1);
		sb_printf(out, "static %s %s_launch%s(", tg->err_t, f->name, suffix);
	} else if (f->nstructs) { /* emit_gpu_struct_launcher's takes the structs */
		sb_printf(out, "\n/* %s_launch with the fields of its struct parameters as parameters. */\n", f->name);
		sb_printf(out, "static %s %s_launch_fields(", tg->err_t, f->name);
	} else {
		sb_printf(out, "\n/* Runs %s on the GPU: arrays are device pointers; sizes as in the C function. */\n", f->name);
		sb_printf(out, "extern \"C\" %s %s_launch(", tg->err_t, f->name);
	}
	print_params(out, f, false);
	sb_printf(out, "%s%s @stream)\n{\n", f->nparams ? ", " : "", tg->stream_t);
}

static void emit_launcher(StrBuf *out, const GpuTarget *tg, const Func *f, TilePlan *plans, const bool *tiled, const SplitFallback *sfs, const RowPlan *rows,
                          const bool *by_rows, const char *suffix, const Prologue *pls, bool ws)
{
	size_t start = out->len;
	print_launcher_head(out, tg, f, suffix, ws);
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (!v->ndim && v->ty == TY_INT && is_size(f, v))
			sb_printf(out, "\tif (%s < 0)\n\t\treturn %s;\n", v->name, tg->invalid);
	}
	if (!suffix) /* a combination's launcher runs after the dispatcher's checks */
		emit_div_checks(out, tg, f);
	emit_ptr_checks(out, tg, f, false);
	/* The set-up between the regions runs here, on the host, before every kernel. */
	for (int i = 0; i < f->nsetup; i++) {
		sb_putc(out, '\t');
		print_stmt_to(out, f->setup[i], 1, &device_print);
	}
	emit_ptr_checks(out, tg, f, true);
	if (f->exit_when) { /* the C function's early return, once the arguments are checked */
		sb_puts(out, "\tif (");
		print_expr_to(out, f->exit_when, &device_print);
		sb_printf(out, ")\n\t\treturn %s;\n", tg->success);
	}
	StrBuf args = {0};
	for (int i = 0; i < func_nkparams(f); i++)
		sb_printf(&args, "%s%s", i ? ", " : "", func_kparam(f, i)->name);
	for (int r = 0; r < f->nregions; r++) {
		for (int k = 0; k < pls[r].nsides; k++)
			print_thread_launch(out, tg, pls[r].sides[k].kernel, "", pls[r].sides[k].grid, pls[r].sides[k].ngrid, args.s ? args.s : "", PRO_LANES);
		if (tiled[r]) {
			emit_tile_launch(out, tg, &plans[r], args.s ? args.s : "");
			continue;
		}
		if (by_rows[r]) {
			emit_rows_launch(out, tg, &rows[r], args.s ? args.s : "");
			continue;
		}
		GridLoop g[16];
		int n;
		grid_loops(f->regions[r], g, &n);
		grid_host_ends(g, n);
		if (sfs[r].on) {
			split_fallback_launch(out, tg, f->regions[r], g, n, &sfs[r], args.s ? args.s : "");
			continue;
		}
		print_thread_launch(out, tg, f->regions[r]->name, "_kernel", g, n, args.s ? args.s : "", 1);
	}
	sb_free(&args);
	sb_printf(out, "\treturn %s;\n}\n", tg->success);
	name_generated(out, start, f);
}

/* f's launcher when its regions have workspaces (pls[0 .. n)): each allocated
 * (stream-ordered, none for an empty one), then <f>_launch_ws, then each freed; the
 * first error is returned. f's parameters are its own again. */
static void emit_ws_launcher(StrBuf *out, const GpuTarget *tg, const Func *f, const Prologue *pls, int n, const char *suffix)
{
	size_t start = out->len;
	print_launcher_head(out, tg, f, suffix, false);
	sb_printf(out, "\t%s @err = %s;\n", tg->err_t, tg->success);
	StrBuf args = {0}, freed = {0};
	for (int i = 0; i < f->nparams; i++)
		sb_printf(&args, "%s, ", f->params[i]->name);
	for (int r = 0; r < n; r++)
		for (int k = 0; k < pls[r].nsides; k++) {
			const Var *w = pls[r].sides[k].ws;
			const char *t = gpu_type(w->ty);
			sb_printf(out, "\t%s *%s = NULL;\n\tsize_t @%s_bytes = sizeof(%s)", t, w->name, w->name, t);
			for (int d = 0; d < w->ndim; d++) {
				if (w->dims[d]->kind == EX_INT) {
					sb_printf(out, " * %lld", w->dims[d]->ival);
					continue;
				}
				/* a negative size gives no workspace (and the launcher refuses it) */
				sb_puts(out, " * (");
				print_expr_to(out, w->dims[d], &device_print);
				sb_puts(out, " > 0 ? (size_t)(");
				print_expr_to(out, w->dims[d], &device_print);
				sb_puts(out, ") : 0)");
			}
			sb_printf(out, ";\n\tif (@err == %s && @%s_bytes)\n\t\t@err = %s((void **)&%s, @%s_bytes, @stream);\n", tg->success, w->name, tg->malloc_async, w->name, w->name);
			sb_printf(&args, "%s, ", w->name);
			sb_printf(&freed, "\tif (%s) {\n\t\t%s @freed = %s(%s, @stream);\n\t\tif (@err == %s)\n\t\t\t@err = @freed;\n\t}\n", w->name, tg->err_t, tg->free_async, w->name,
			          tg->success);
		}
	sb_printf(out, "\tif (@err == %s)\n\t\t@err = %s_launch%s_ws(%s@stream);\n", tg->success, f->name, suffix ? suffix : "", args.s);
	sb_puts(out, freed.s);
	sb_puts(out, "\treturn @err;\n}\n");
	sb_free(&args);
	sb_free(&freed);
	name_generated(out, start, f);
}

void emit_gpu_begin(StrBuf *out, const char *input_name, GpuKind kind, const GpuOptions *o, bool stdio)
{
	device_line_last = 0;
	device_print.line_last = o->line_directives ? &device_line_last : NULL;
	warn_fallback = o->warn_fallback;
	warned_slow = (Loc){0};
	emit_banner(out, "/*", input_name);
	sb_puts(out, targets[kind].includes);
	sb_puts(out, "#include <math.h>\n");
	if (stdio)
		sb_puts(out, "#include <stdio.h>\n");
	sb_puts(out, "#include \"fusecc.h\"\n");
}

/* A sum across the rows (gridsum.c) has a deterministic GPU form in the CTA-per-row
 * kernels only (per-row parts, then a merge kernel): refused, located, for a region that
 * gets another kernel (how: why). */
static bool rows_only_sums(const Region *r, const GpuTarget *tg, const char *how)
{
	GridSums gs;
	grid_sums(r->loop, &gs);
	if (!gs.n)
		return true;
	const char *what = gs.kinds[0] == ACCUM_MAX ? "reduced to its maximum" : gs.kinds[0] == ACCUM_MIN ? "reduced to its minimum" : "summed";
	error_at(gs.elems[0]->loc, "'%s' is %s across the rows of '%s': the %s kernels do that only with one CTA per row (each row's part, then a kernel adding them in a fixed order), and this region gets another kernel (%s)",
	         gs.vars[0]->name, what, r->name, tg->name, how);
	return false;
}

bool emit_gpu_function(StrBuf *out, const Program *p, const Func *fn, GpuKind kind, const char *suffix, const char *twin)
{
	const GpuTarget *tg = &targets[kind];
	bool ok = true;
	TilePlan *plans = calloc((size_t)fn->nregions + 1, sizeof *plans);
	bool *tiled = calloc((size_t)fn->nregions + 1, sizeof *tiled);
	SplitFallback *sfs = calloc((size_t)fn->nregions + 1, sizeof *sfs);
	RowPlan *rows = calloc((size_t)fn->nregions + 1, sizeof *rows);
	bool *by_rows = calloc((size_t)fn->nregions + 1, sizeof *by_rows);
	HeadGroup *heads = calloc((size_t)fn->nregions + 1, sizeof *heads);
	TilePlan *wides = calloc((size_t)fn->nregions + 1, sizeof *wides);
	Prologue *pls = calloc((size_t)fn->nregions + 1, sizeof *pls);
	/* A region whose products compute their operands (prologue.h) is rewritten to read
	 * workspaces where that gives it tiles; the kernels take the workspaces after f's
	 * parameters, in a launcher of its own. */
	Func *mf = (Func *)fn;
	Var **params = fn->params;
	int nparams = fn->nparams, nws = 0;
	for (int r = 0; r < fn->nregions; r++)
		nws += prologue_plan((Program *)p, tg, fn->regions[r], &pls[r]);
	if (nws) {
		Var **all = arena_alloc(&((Program *)p)->arena, sizeof(Var *) * (size_t)(nparams + nws));
		memcpy(all, params, sizeof(Var *) * (size_t)nparams);
		for (int r = 0; r < fn->nregions; r++)
			for (int k = 0; k < pls[r].nsides; k++)
				all[mf->nparams++] = pls[r].sides[k].ws;
		mf->params = all;
	}
	for (int r = 0; r < fn->nregions; r++) {
		const char *why = NULL, *why_rows = NULL;
		tiled[r] = heads_tile_plan((Program *)p, fn->regions[r], &tg->tile, &plans[r], &heads[r], &why);
		if (tiled[r] && tile_plan_wide(&wides[r], &plans[r], "_wide")) {
			plans[r].wide = &wides[r];
			wides[r].line_directives = device_print.line_last != NULL;
		}
		plans[r].line_directives = device_print.line_last != NULL;
		if (twin && tiled[r] && !plans[r].splitk && fn->nregions == 1)
			plans[r].twin_launch = twin;
		/* A region without products: a row reduction, one CTA per row. */
		by_rows[r] = !tiled[r] && !plans[r].ndots && rows_plan(&rows[r], (Program *)p, fn->regions[r], &why_rows);
		/* Nothing fused: why the row is not a sequence of passes says more. */
		/* A row down a column (x[b][c][p] over c): one thread per row is the coalesced read;
		 * not where the fuser left a product over a loop as written (an attention), which
		 * the tiles would take: its reason stands. */
		const char *unfused = fuse_cascade_of(fn->regions[r]) ? NULL : fn->regions[r]->unfused_why;
		bool column = !tiled[r] && !by_rows[r] && rows[r].columns && !plans[r].ndots && !unfused;
		if (!tiled[r] && !by_rows[r] && unfused)
			why = unfused;
		else if (!tiled[r] && !by_rows[r] && (!fuse_cascade_of(fn->regions[r]) || column) && why_rows)
			why = why_rows;
		if (!by_rows[r] && !rows_only_sums(fn->regions[r], tg, tiled[r] ? "tensor-core tiles" : why ? why : "no tile lowering")) {
			ok = false;
			continue;
		}
		emit_prologue_kernels(out, fn, fn->regions[r], &pls[r]);
		bool printed = emit_kernel(out, tg, p, fn, fn->regions[r], &plans[r], tiled[r], why, &sfs[r], by_rows[r] ? &rows[r] : NULL);
		/* The fallback is correct but 25-50x slower than the tiles: the user must know. */
		if (printed && !tiled[r] && !by_rows[r] && !elementwise_rows(fn->regions[r]) && !column && warn_fallback)
			warning_at(fn->regions[r]->loc, "%s kernel '%s' falls back to one thread per row (FMA code, far slower than the %s): %s (-Wno-fallback silences this)",
			           tg->name, fn->regions[r]->name, tg->lowering, why ? why : "no tile lowering for this region");
		const Stmt *slow = tiled[r] ? recomputing_loop(&plans[r]) : NULL;
		if (printed && slow && warn_fallback && !(slow->loc.line == warned_slow.line && slow->loc.col == warned_slow.col)) {
			warned_slow = slow->loc;
			warning_at(slow->loc, "%s kernel '%s' stores '%s' after the pass one row per thread, computing each element again in FMA code (far slower than the %s): keep the pass's values in an array the pass writes, or leave '%s' out (-Wno-fallback silences this)",
			           tg->name, fn->regions[r]->name, stored_array(slow), tg->lowering, stored_array(slow));
		}
		const Schedule *sc = fn->regions[r]->loop->sched;
		if (printed && sc->tf32 && (tiled[r] ? !plans[r].tf32 : by_rows[r]))
			warning_at(sc->precision_loc, "precision(tf32) has no effect on %s kernel '%s': %s", tg->name, fn->regions[r]->name,
			           tiled[r] ? "its tiles multiply 16-bit operands" : "a row kernel has no products");
		ok &= printed;
	}
	/* The statements after the last region run in its sum kernel (emit_rows.c). */
	int last = fn->nregions - 1;
	if (ok && fn->ntail && (!by_rows[last] || !rows[last].gs.n)) {
		error_at(fn->tail[0]->loc, "the statements after the last region run, on a GPU, in the kernel that adds up the region's sums across its rows (`total += ...` into a scalar set up before it, or `loss[0] += ...`), and region '%s' %s: "
		         "store the result inside the region",
		         fn->regions[last]->name, by_rows[last] ? "has no such sum" : "gets another kernel than one CTA per row");
		ok = false;
	}
	if (ok)
		emit_launcher(out, tg, fn, plans, tiled, sfs, rows, by_rows, suffix, pls, nws > 0);
	mf->params = params;
	mf->nparams = nparams;
	if (ok && nws)
		emit_ws_launcher(out, tg, fn, pls, fn->nregions, suffix);
	for (int r = 0; r < fn->nregions; r++) {
		prologue_restore(&pls[r]);
		if (plans[r].heads)
			heads_restore(fn->regions[r], plans[r].heads);
		tile_plan_free(&plans[r]);
		if (plans[r].wide)
			tile_plan_free(plans[r].wide);
	}
	free(heads);
	free(wides);
	free(pls);
	free(plans);
	free(tiled);
	free(sfs);
	free(rows);
	free(by_rows);
	return ok;
}

bool emit_gpu_splitk_tiles(const Program *p, const Region *r, GpuKind kind)
{
	bool splitk;
	return region_tiles((Program *)p, (Region *)r, &targets[kind], &splitk) && splitk;
}

/* `_D128`, `_DK192_DV128`: the names of combination c's kernels and launcher. */
const char *spec_suffix(Arena *a, const SpecPlan *sp, int c)
{
	StrBuf b = {0};
	for (int k = 0; k < sp->nparams; k++)
		sb_printf(&b, "_%s%ld", sp->params[k]->name, sp->values[c][k]);
	const char *s = arena_strdup(a, b.s);
	sb_free(&b);
	return s;
}

void emit_gpu_dispatch(StrBuf *out, Arena *a, const Func *f, GpuKind kind, const SpecPlan *sp)
{
	const GpuTarget *tg = &targets[kind];
	StrBuf names = {0}, fmt = {0}, vals = {0}, list = {0};
	for (int k = 0; k < sp->nparams; k++) {
		sb_printf(&names, "%s%s", k ? ", " : "", sp->params[k]->name);
		sb_printf(&fmt, "%s%%d", k ? ", " : "");
		sb_printf(&vals, ", %s", sp->params[k]->name);
	}
	for (int c = 0; c < sp->ncombos; c++) {
		sb_puts(&list, c ? ", " : "");
		for (int k = 0; k < sp->nparams; k++)
			sb_printf(&list, "%s%ld", k ? "/" : "", sp->values[c][k]);
	}
	bool one = sp->nparams == 1;
	size_t start = out->len;
	sb_printf(out, "\n/* Runs %s on the GPU: arrays are device pointers; sizes as in the C function.\n", f->name);
	sb_printf(out, " * The kernels are compiled for %s%s%s = %s (specialize); other values are refused. */\n", one ? "" : "(", names.s, one ? "" : ")", list.s);
	sb_printf(out, f->nstructs ? "static %s %s_launch_fields(" : "extern \"C\" %s %s_launch(", tg->err_t, f->name);
	print_params(out, f, false);
	sb_printf(out, "%s%s @stream)\n{\n", f->nparams ? ", " : "", tg->stream_t);
	StrBuf args = {0};
	for (int i = 0; i < f->nparams; i++)
		sb_printf(&args, "%s, ", f->params[i]->name);
	/* A specialised quotient is computed as the set-up would, once its division is exact. */
	emit_div_checks(out, tg, f);
	for (int i = 0; i < f->ndivs; i++)
		for (int k = 0; k < sp->nparams; k++)
			if (sp->params[k] == f->divs[i].q)
				sb_printf(out, "\tconst int %s = %s / %s;\n", f->divs[i].q->name, f->divs[i].num->name, f->divs[i].den->name);
	for (int k = 0; k < sp->nparams; k++)
		if (sp->unit_of[k])
			sb_printf(out, "\tif (%s != 1) {\n\t\tfprintf(stderr, \"%s_launch: %s = %%lld: the kernels read the innermost dimension of '%s' contiguous (a stride of 1)\\n\", (long long)%s);\n\t\treturn %s;\n\t}\n",
			          sp->params[k]->name, f->name, sp->params[k]->name, sp->unit_of[k]->name, sp->params[k]->name, tg->invalid);
	for (int c = 0; c < sp->ncombos; c++) {
		sb_puts(out, "\tif (");
		for (int k = 0; k < sp->nparams; k++)
			sb_printf(out, "%s%s == %ld", k ? " && " : "", sp->params[k]->name, sp->values[c][k]);
		sb_printf(out, ")\n\t\treturn %s_launch%s(%s@stream);\n", f->name, spec_suffix(a, sp, c), args.s ? args.s : "");
	}
	sb_printf(out, "\tfprintf(stderr, \"%s_launch: %s%s%s = %s%s%s is not a compiled size (%s); add it with '#pragma fuse specialize(...)'\\n\"%s);\n", f->name, one ? "" : "(",
	          names.s, one ? "" : ")", one ? "" : "(", fmt.s, one ? "" : ")", list.s, vals.s);
	sb_printf(out, "\treturn %s;\n}\n", tg->invalid);
	name_generated(out, start, f);
	sb_free(&names);
	sb_free(&fmt);
	sb_free(&vals);
	sb_free(&list);
	sb_free(&args);
}

void emit_gpu_struct_launcher(StrBuf *out, const Func *f, GpuKind kind)
{
	if (!f->nstructs)
		return;
	const GpuTarget *tg = &targets[kind];
	/* The types' definitions, each once in the file (the kernels' type names). */
	for (int k = 0; k < f->nstructs; k++) {
		StrBuf d = {0};
		print_struct_def(&d, f->structs[k], &device_print);
		if (!strstr(out->s, d.s))
			sb_printf(out, "\n%s", d.s);
		sb_free(&d);
	}
	size_t start = out->len;
	sb_printf(out, "\n/* Runs %s on the GPU: arrays are device pointers (the structs' pointer fields too); sizes as in the C function. */\n", f->name);
	sb_printf(out, "extern \"C\" %s %s_launch(", tg->err_t, f->name);
	SigEntry *sig = calloc((size_t)(f->nparams + f->nstructs + 1), sizeof *sig);
	int n = func_signature(f, sig);
	for (int i = 0; i < n; i++) {
		if (i)
			sb_puts(out, ", ");
		if (sig[i].s)
			print_struct_param(out, sig[i].s);
		else if (!sig[i].v->ndim)
			sb_printf(out, "%s %s", gpu_type(sig[i].v->ty), sig[i].v->name);
		else
			sb_printf(out, "%s%s *%s", sig[i].v->is_const ? "const " : "", gpu_type(sig[i].v->ty), sig[i].v->name);
	}
	free(sig);
	sb_printf(out, ", %s @stream)\n{\n", tg->stream_t);
	for (int k = 0; k < f->nstructs; k++)
		if (f->structs[k]->by_pointer && f->structs[k]->nvars)
			sb_printf(out, "\tif (!%s)\n\t\treturn %s;\n", f->structs[k]->name, tg->invalid);
	sb_printf(out, "\treturn %s_launch_fields(", f->name);
	for (int i = 0; i < f->nparams; i++) {
		if (f->params[i]->field_of)
			print_field_ref(out, f->params[i]);
		else
			sb_puts(out, f->params[i]->name);
		sb_puts(out, ", ");
	}
	sb_puts(out, "@stream);\n}\n");
	name_generated(out, start, f);
}

bool emit_gpu(StrBuf *out, const Program *p, const char *input_name, GpuKind kind, const GpuOptions *o)
{
	bool divs = false;
	for (int f = 0; f < p->nfuncs; f++) {
		divs |= p->funcs[f]->ndivs > 0;
		for (int r = 0; r < p->funcs[f]->nregions; r++)
			divs |= heads_candidate(p->funcs[f]->regions[r]);
	}
	emit_gpu_begin(out, input_name, kind, o, divs);
	bool ok = true;
	for (int f = 0; f < p->nfuncs; f++) {
		ok &= emit_gpu_function(out, p, p->funcs[f], kind, NULL, NULL);
		if (ok)
			emit_gpu_struct_launcher(out, p->funcs[f], kind);
	}
	return ok;
}
