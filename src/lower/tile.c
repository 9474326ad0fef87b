/* tile.c: the tile planner (see tile.h). It reads the fused program only; nothing here
 * prints. The shapes it accepts are those whose every statement has a tile meaning:
 * per-row statements, per-element statements of the pass's (row, j) tile, products of the
 * row operand with a column operand (S = Q K^T), and products of a per-element value with
 * a column operand accumulated into a per-row array (O += P V). */
#include "tile.h"

#include <string.h>

Stmt *grid_loops(const Region *r, GridLoop *out, int *n)
{
	const Schedule *s = r->loop->sched;
	Stmt *l = r->loop;
	*n = 0;
	while (l->kind == ST_FOR && *n < MAX_GRID) {
		Stmt *inner = l->body[0];
		Expr *lo = l->lo, *hi = l->hi;
		Var *v = l->var;
		long tile = 0;
		if (l->step > 1 && inner->kind == ST_FOR && inner->lo->kind == EX_VAR && inner->lo->var == l->var) {
			v = inner->var;
			tile = l->step;
			inner = inner->body[0];
		}
		if (!sched_parallel(s, v->name))
			break;
		out[(*n)++] = (GridLoop){v, lo, hi, tile};
		while (inner->kind == ST_BLOCK && inner->nbody == 1)
			inner = inner->body[0];
		l = inner;
	}
	return l;
}

void tile_plan_free(TilePlan *tp)
{
	if (tp->names)
		vec_free(*tp->names);
}

TileRole tile_role(const TilePlan *tp, const Var *v)
{
	for (int i = 0; i < tp->nvars; i++)
		if (tp->vars[i] == v)
			return tp->roles[i];
	return TR_NONE;
}


static bool set_role(TilePlan *tp, Var *v, TileRole r)
{
	for (int i = 0; i < tp->nvars; i++)
		if (tp->vars[i] == v) {
			if (tp->roles[i] != TR_NONE && tp->roles[i] != r) {
				tp->why = "a local is used both as a per-step tile and as a product's accumulator";
				return false;
			}
			tp->roles[i] = r;
			return true;
		}
	if (tp->nvars == MAX_TILE_VARS) {
		tp->why = "too many locals for the tile lowering";
		return false;
	}
	tp->vars[tp->nvars] = v;
	tp->roles[tp->nvars++] = r;
	return true;
}

static bool declared_in_pro(const TilePlan *tp, const Var *v)
{
	for (int i = 0; i < tp->npro; i++)
		if (tp->pro[i]->kind == ST_DECL && tp->pro[i]->var == v)
			return true;
	return false;
}

static Stmt *single(Stmt *s)
{
	while (s->kind == ST_BLOCK && s->nbody == 1)
		s = s->body[0];
	return s;
}

static bool is_int(const Expr *e, long long v) { return e->kind == EX_INT && e->ival == v; }

/* Sets tp->why (unless set) for operand a of a product over k whose layout the tiles do
 * not read: k not its last subscript, or read by another one too (K stored transposed,
 * kT[..][d][j]; vLLM's K cache [..][D / X][BS][X], k[..][d / X][j][d % X]). */
static void layout_why(TilePlan *tp, const Expr *a, const Var *k)
{
	if (tp->why)
		return;
	StrBuf b = {0};
	print_expr(&b, a);
	tp->why = arena_printf(&tp->c->prog->arena,
	                       "'%s' is read as %s in the product over '%s': the tiles load rows of consecutive '%s', so '%s' must be its last subscript, "
	                       "alone, and in no other (store it as [..][row][%s])",
	                       a->var->name, b.s, k->name, k->name, k->name, k->name);
	sb_free(&b);
}

/* Whether integer expression e is a multiple of m whatever its variables: a literal
 * multiple, a product with one, a sum or difference of such. */
static bool multiple_of(const Expr *e, long long m)
{
	if (e->kind == EX_INT)
		return e->ival % m == 0;
	if (e->kind == EX_BIN && e->bop == OP_MUL)
		return multiple_of(e->args[0], m) || multiple_of(e->args[1], m);
	if (e->kind == EX_BIN && (e->bop == OP_ADD || e->bop == OP_SUB))
		return multiple_of(e->args[0], m) && multiple_of(e->args[1], m);
	if (e->kind == EX_CAST)
		return multiple_of(e->args[0], m);
	return false;
}

/* Position of the subscript `k / X` of a reference A[..][k / X][..][k % X] whose last
 * dimension is X (k split into chunks of X contiguous elements: vLLM's key cache
 * [..][D / X][BS][X]), k read by no other subscript, A an array of its declared
 * dimensions (no strides of its own); -1 otherwise. *X gets X. */
static int chunk_pos(const Expr *a, const Var *k, long long *X)
{
	if (a->kind != EX_INDEX || a->var->strides || a->nargs < 2 || a->var->ndim != a->nargs)
		return -1;
	const Expr *last = a->args[a->nargs - 1], *dim = a->var->dims[a->nargs - 1];
	if (last->kind != EX_BIN || last->bop != OP_MOD || last->args[0]->kind != EX_VAR || last->args[0]->var != k || last->args[1]->kind != EX_INT ||
	    last->args[1]->ival <= 0 || dim->kind != EX_INT || dim->ival != last->args[1]->ival)
		return -1;
	int pos = -1;
	for (int i = 0; i < a->nargs - 1; i++) {
		const Expr *x = a->args[i];
		if (!expr_reads_var(x, k))
			continue;
		if (pos >= 0 || x->kind != EX_BIN || x->bop != OP_DIV || x->args[0]->kind != EX_VAR || x->args[0]->var != k || !is_int(x->args[1], last->args[1]->ival))
			return -1;
		pos = i;
	}
	*X = last->args[1]->ival;
	return pos;
}

int tile_chunk(const TilePlan *tp, int k, int *pos)
{
	long long X;
	*pos = tp->colop_t[k] || tp->colop2[k] ? -1 : chunk_pos(tp->colop[k], tp->kc, &X);
	return *pos >= 0 ? (int)X : 0;
}

bool tile_t_rows(const TilePlan *tp, int k)
{
	const Expr *last = tp->colop[k]->args[tp->colop[k]->nargs - 1];
	return tp->colop_t[k] && !(last->kind == EX_VAR && last->var == tp->jc);
}

/* Whether t is a byte type read as a number (int8_t, uint8_t: a quantised cache). */
static bool is_byte(ScalarType t) { return t == TY_I8 || t == TY_U8; }

static Expr *operand_ref(TilePlan *tp, Expr *e, const Var *k, const Var *j, bool *trans);

/* A column operand whose rows come from two arrays by key position (`j < P ? kc[..][j][d]
 * : k[..][j - P][d]`, each side cast or not, a prefix cache then the chunk's own keys):
 * EX_COND(c, A1, A2) of the two references, c reading j and not k (it picks a row's
 * source, once per row as the tile is loaded; tile_plan's rows then do not read it), the two of one 16-bit or fp32 type and one row length, neither stored
 * transposed nor bytes. NULL (with tp->why) otherwise. */
static Expr *operand_pick(TilePlan *tp, Expr *e, const Var *k, const Var *j)
{
	Program *p = tp->c->prog;
	bool t1 = false, t2 = false;
	if (expr_reads_var(e->args[0], k) || !expr_reads_var(e->args[0], j))
		return NULL;
	Expr *a1 = operand_ref(tp, e->args[1], k, j, &t1), *a2 = a1 ? operand_ref(tp, e->args[2], k, j, &t2) : NULL;
	if (!a1 || !a2)
		return NULL;
	const char *why = t1 || t2 ? "one of them is stored transposed"
	                : a1->ty != a2->ty || is_byte(a1->ty) ? "they differ in type, or are bytes"
	                : !expr_equal(a1->var->dims[a1->nargs - 1], a2->var->dims[a2->nargs - 1]) ? "their rows differ in length"
	                : !expr_reads_var(a1, j) || !expr_reads_var(a2, j) ? "one of them does not move with the key"
	                                                                   : NULL;
	if (why) {
		if (!tp->why)
			tp->why = arena_printf(&p->arena, "the column operand picks its rows from '%s' or '%s' and %s: the tiles load each row from its source when both are 16-bit or fp32 rows [..][key][k] of one length",
			                       a1->var->name, a2->var->name, why);
		return NULL;
	}
	Expr *c = ex_cond(p, e->args[0], a1, a2, e->loc);
	c->ty = a1->ty;
	return c;
}

const Expr *tile_operand_read(const Expr *ref) { return ref && ref->kind == EX_COND ? ref->args[1] : ref; }

bool tile_operand_is(const Expr *ref, const Var *v)
{
	if (!ref)
		return false;
	if (ref->kind == EX_COND)
		return ref->args[1]->var == v || ref->args[2]->var == v;
	return ref->var == v;
}

/* `(float)A[..][k]` (or A[..][k] alone, promoted) with A a 16-bit, fp32 or byte parameter array
 * whose last subscript is k alone (or 0 + k, given as k). Whether the operands' types go together is decided
 * once they are all known (operand_types). */
static Expr *operand_ref(TilePlan *tp, Expr *e, const Var *k, const Var *j, bool *trans)
{
	/* (float)v, and (double)v of a 16-bit v: exact, the element the tiles load */
	if (e->kind == EX_CAST && (e->ty == TY_FLOAT || (e->ty == TY_DOUBLE && (e->args[0]->ty == TY_HALF || e->args[0]->ty == TY_BF16))))
		e = e->args[0];
	Expr *a = e;
	*trans = false;
	if (a->kind == EX_COND && j)
		return operand_pick(tp, a, k, j);
	if (a->kind != EX_INDEX || a->var->kind != VAR_PARAM)
		return NULL;
	if (!var_last_contiguous(a->var)) {
		if (!tp->why)
			tp->why = arena_printf(&tp->c->prog->arena, "the last dimension of '%s' steps by a stride passed as a parameter: the tiles copy rows of contiguous elements (index it with a unit stride, '+ d')",
			                       a->var->name);
		return NULL;
	}
	Expr *last = a->args[a->nargs - 1];
	if (j && a->nargs >= 2 && last->kind == EX_VAR && last->var == j && a->args[a->nargs - 2]->kind == EX_VAR && a->args[a->nargs - 2]->var == k &&
	    a->var->dims[a->nargs - 2]->kind == EX_INT && (a->ty == TY_HALF || a->ty == TY_BF16)) {
		/* a column operand stored transposed, kT[..][k][j] (tile.h, colop_t) */
		bool other = false;
		for (int i = 0; i < a->nargs - 2; i++)
			other |= expr_reads_var(a->args[i], k) || expr_reads_var(a->args[i], j);
		if (!other) {
			*trans = true;
			return a;
		}
	}
	if (j && a->nargs >= 2 && !a->var->strides && a->var->ndim == a->nargs && expr_reads_var(last, j) && !expr_reads_var(last, k) &&
	    !(last->kind == EX_VAR && last->var == j) && a->args[a->nargs - 2]->kind == EX_VAR && a->args[a->nargs - 2]->var == k && a->var->dims[a->nargs - 2]->kind == EX_INT) {
		if (a->ty != TY_HALF && a->ty != TY_BF16) {
			if (!tp->why)
				tp->why = arena_printf(&tp->c->prog->arena,
				                       "'%s' is stored transposed ('%s' before the key's place, a d-major value cache) with %s elements: the tiles transpose 16-bit operands only",
				                       a->var->name, k->name, scalar_type_c(a->ty));
			return NULL;
		}
		/* stored transposed with the key's place read through other subscripts too, a
		 * paged value cache kept d-major, v[bt[j / BS]][h][d][j % BS] (vLLM's): element
		 * (key r, column c) is its row's first plus c times the last dimension, and keys
		 * follow each other in memory within a page only (tile_t_rows, fx::strided) */
		bool other = false;
		for (int i = 0; i < a->nargs - 2; i++)
			other |= expr_reads_var(a->args[i], k);
		if (!other) {
			*trans = true;
			return a;
		}
	}
	long long X;
	int cpos = j && expr_reads_var(a, j) ? chunk_pos(a, k, &X) : -1;
	if (cpos >= 0) {
		/* vLLM's key cache, k[bt[j / BS]][h][d / X][j % BS][d % X]: a key's row is chunks
		 * of X contiguous elements, each a whole number of the loaders' 16-byte copies
		 * (fx::chunked) */
		if ((a->ty == TY_HALF || a->ty == TY_BF16 || a->ty == TY_FLOAT) && X * scalar_size(a->ty) % 16 == 0)
			return a;
		if (!tp->why)
			tp->why = arena_printf(&tp->c->prog->arena,
			                       "'%s' splits '%s' into chunks of %lld %s elements ([..][%s / %lld][..][%s %% %lld]): the tiles copy 16-byte chunks, so a chunk must be a multiple of 16 bytes",
			                       a->var->name, k->name, X, scalar_type_c(a->ty), k->name, X, k->name, X);
		return NULL;
	}
	if (last->kind == EX_BIN && last->bop == OP_ADD && (is_int(last->args[0], 0) || is_int(last->args[1], 0))) {
		/* a row pointer `const T *qrow = &q[b][h][0]` read as qrow[d]: q[b][h][0 + d] */
		Expr *x = is_int(last->args[0], 0) ? last->args[1] : last->args[0];
		if (x->kind == EX_VAR && x->var == k) {
			a = ex_copy(tp->c->prog, a);
			a->args[a->nargs - 1] = x;
			last = x;
		}
	}
	/* a head's columns in a hidden dim, q[b][i][h * 64 + d] of q[B][N][NH * 64] (BERT, GPT-2
	 * without the transpose): the rows start at &q[b][i][h * 64], 16-byte aligned when the
	 * offset is a multiple of 16 bytes' elements */
	bool offset = false;
	if (last->kind == EX_BIN && last->bop == OP_ADD && (a->ty == TY_HALF || a->ty == TY_BF16 || a->ty == TY_FLOAT)) {
		int side = last->args[1]->kind == EX_VAR && last->args[1]->var == k ? 1 : last->args[0]->kind == EX_VAR && last->args[0]->var == k ? 0 : -1;
		const Expr *off = side >= 0 ? last->args[1 - side] : NULL;
		if (off && !expr_reads_var(off, k) && (!j || !expr_reads_var(off, j)) && multiple_of(off, 16 / scalar_size(a->ty))) {
			last = last->args[side];
			offset = true;
		}
	}
	bool other = false;
	for (int i = 0; i < a->nargs - 1; i++)
		other |= expr_reads_var(a->args[i], k);
	if (last->kind != EX_VAR || last->var != k || other) {
		layout_why(tp, a, k);
		return NULL;
	}
	const Expr *dim = a->var->dims[a->nargs - 1];
	if (dim->kind != EX_INT && !offset)
		return NULL;
	if (a->ty == TY_DOUBLE) {
		if (!tp->why)
			tp->why = "the products read fp64 operands: the tile kernels multiply fp16, bf16 or fp32";
		return NULL;
	}
	if (a->ty != TY_HALF && a->ty != TY_BF16 && a->ty != TY_FLOAT && !is_byte(a->ty)) {
		if (!tp->why)
			tp->why = arena_printf(&tp->c->prog->arena, "the products read %s operands ('%s'): the tile kernels multiply fp16, bf16 or fp32", scalar_type_c(a->ty),
			                       a->var->name);
		return NULL;
	}
	return a;
}

/* Sets tp->elem, the type the tiles hold: the column operands' that are not bytes; with
 * bytes only (an int8 or uint8 cache), the row operand's where it is 16-bit, else fp16.
 * Byte column operands are widened to it as they are loaded (fx::load_tile_q8): every
 * byte value is exact in fp16 and bf16, so the products are the C's, and the scales the C
 * multiplies them by depend on the key alone and stay outside (on the scores, on P).
 * False, with the reason, where bytes cannot be loaded so: a transposed cache, a product
 * of two parts, rows that are not whole 16-byte chunks, a byte row operand. */
static bool byte_operands(TilePlan *tp)
{
	Program *p = tp->c->prog;
	tp->elem = TY_VOID;
	for (int k = 0; k < tp->ncolop && tp->elem == TY_VOID; k++)
		if (!is_byte(tp->colop[k]->ty))
			tp->elem = tp->colop[k]->ty;
	if (tp->elem == TY_VOID)
		tp->elem = tp->rowop->ty == TY_BF16 ? TY_BF16 : TY_HALF;
	if (is_byte(tp->rowop->ty)) {
		tp->why = arena_printf(&p->arena, "the row operand '%s' is %s: the tiles widen byte column operands (a quantised cache), not the rows", tp->rowop->var->name,
		                       scalar_type_c(tp->rowop->ty));
		return false;
	}
	for (int k = 0; k < tp->ncolop; k++) {
		if (!is_byte(tp->colop[k]->ty))
			continue;
		/* (uint8: no input with a uint8 cache multiplied as it is has been checked on a GPU) */
		const char *why = tp->colop[k]->ty == TY_U8 ? "is unsigned (a uint8 cache comes with a zero point; int8 ones are widened)"
		                : tp->colop_t[k]       ? "is stored transposed"
		                : tp->colop2[k]        ? "is a product of two parts"
		                : tp->colop_data[k] % 16 ? "has rows that are not whole 16-byte chunks"
		                                         : NULL;
		if (tp->elem == TY_FLOAT && !why)
			why = "meets fp32 column operands";
		if (why) {
			tp->why = arena_printf(&p->arena, "the byte column operand '%s' %s: the tiles widen an int8_t cache stored [..][key][k], rows of a multiple of 16 bytes, to 16 bits",
			                       tp->colop[k]->var->name, why);
			return false;
		}
	}
	return true;
}

/* Whether the operands' types fit the tiles, which hold one type, tp->elem (the column
 * operands', byte ones widened: byte_operands): 16-bit, or fp32 on targets with fp32 products. The row operand has that
 * type too, or is fp32 against 16-bit column operands (a query from an fp32 projection
 * against an fp16 or bf16 cache): its tile then holds x = hi + lo, hi = x rounded to the
 * 16-bit type and lo = x - hi rounded again (exact in fp32), converted once per CTA as
 * the rows are loaded, and each product with it is two 16-bit products, hi * B + lo * B,
 * summed in the fp32 accumulator: 22 bits of x for fp16 (16 for bf16) instead of the 11
 * (8) of x rounded once, the column operands exact as they are (tp->row_parts = 2). */
static bool operand_types(TilePlan *tp)
{
	Program *p = tp->c->prog;
	if (!byte_operands(tp))
		return false;
	for (int k = 0; k < tp->ncolop; k++)
		if (!is_byte(tp->colop[k]->ty) && tp->colop[k]->ty != tp->elem) {
			tp->why = arena_printf(&p->arena, "the products mix %s and %s column operands (the tiles hold one type: declare them alike)", scalar_type_c(tp->elem),
			                       scalar_type_c(tp->colop[k]->ty));
			return false;
		}
	if (tp->elem == TY_FLOAT && !tp->tt->f32) {
		tp->why = "the products read fp32 operands: these tile kernels multiply fp16 or bf16 (declare the arrays _Float16 or fusecc_bf16 and convert with (float) where the C needs it)";
		return false;
	}
	tp->tf32 = tp->elem == TY_FLOAT && tp->region->loop->sched->tf32;
	tp->row_parts = 1;
	if (tp->rowop->ty == TY_FLOAT && tp->elem != TY_FLOAT)
		tp->row_parts = 2;
	else if (tp->rowop->ty != tp->elem) {
		tp->why = arena_printf(&p->arena, "the products mix %s and %s operands (the tiles hold one type: declare them alike)", scalar_type_c(tp->rowop->ty),
		                       scalar_type_c(tp->elem));
		return false;
	}
	return true;
}

static Expr *canonical(TilePlan *tp, const Expr *e, const Var *j, const Var *k)
{
	Program *p = tp->c->prog;
	Expr *x = expr_subst_var(p, e, j, tp->jc);
	return expr_subst_var(p, x, k, tp->kc);
}

static bool equal_or_null(const Expr *a, const Expr *b) { return a == b || (a && b && expr_equal(a, b)); }

/* The index of the column operand equal to b (b2 its second part, NULL for none; trans:
 * stored transposed), added if `add`. */
static int colop_index(TilePlan *tp, Expr *b, Expr *b2, bool trans, int cols, bool add)
{
	for (int i = 0; i < tp->ncolop; i++)
		if (expr_equal(tp->colop[i], b) && equal_or_null(tp->colop2[i], b2) && tp->colop_t[i] == trans)
			return i;
	if (!add || tp->ncolop == MAX_OPERANDS)
		return -1;
	tp->colop[tp->ncolop] = b;
	tp->colop2[tp->ncolop] = b2;
	tp->colop_t[tp->ncolop] = trans;
	tp->colop_cols[tp->ncolop] = tp->colop_data[tp->ncolop] = cols;
	return tp->ncolop++;
}

/* The column operand of two parts whose first part is b over at least its `cols` first
 * columns (absorbed MLA: the latent cache ckv is the key's first 512 columns, next to
 * k_pe, and the value): P.V reads those columns of that operand's tile, which is then
 * loaded once. 16-bit only (fp32 tiles may be split into planes for one kind of product).
 * -1: none. */
static int first_part_of(const TilePlan *tp, const Expr *b, bool trans, int cols)
{
	for (int i = 0; i < tp->ncolop; i++)
		if (tp->colop2[i] && !trans && !tp->colop_t[i] && cols <= tp->kseg && expr_equal(tp->colop[i], b) && (b->ty == TY_HALF || b->ty == TY_BF16))
			return i;
	return -1;
}

/* A k loop: for (k = 0; k < K; k++) with a constant K; its single statement. */
static Stmt *k_loop(Stmt *f, long long *extent)
{
	if (f->kind != ST_FOR || f->step != 1 || !is_int(f->lo, 0) || f->hi->kind != EX_INT)
		return NULL;
	*extent = f->hi->ival;
	Stmt *b = single(f->body[0]);
	return b->kind == ST_ASSIGN ? b : NULL;
}

/* rhs of `x += e` or `x = x + e`, for lhs x; NULL otherwise. */
static Expr *accumulated(Stmt *s)
{
	if (s->aop == AS_ADD)
		return s->rhs;
	if (s->aop == AS_SET && s->rhs->kind == EX_BIN && s->rhs->bop == OP_ADD && expr_equal(s->rhs->args[0], s->lhs))
		return s->rhs->args[1];
	return NULL;
}

/* The loop before the pass that fills local array x from the row operand, `for (d = 0;
 * d < K; d++) x[d] = e;`, its only write; NULL if there is none. */
static Stmt *copy_loop(const TilePlan *tp, const Var *x)
{
	Stmt *def = NULL;
	for (int i = 0; i < tp->npro; i++) {
		Stmt *f = tp->pro[i];
		if (!stmt_writes_var(f, x))
			continue;
		long long K;
		Stmt *a = f->kind == ST_FOR ? k_loop(f, &K) : NULL;
		if (def || !a || a->aop != AS_SET || a->lhs->kind != EX_INDEX || a->lhs->var != x || a->lhs->args[0]->kind != EX_VAR ||
		    a->lhs->args[0]->var != f->var || expr_reads_var(a->rhs, x))
			return NULL;
		def = f;
	}
	return def && !stmt_writes_var(tp->step, x) ? def : NULL;
}

bool tile_is_copy_loop(const TilePlan *tp, const Stmt *s)
{
	if (s->kind != ST_FOR)
		return false;
	for (int i = 0; i < tp->nvars; i++)
		if (tp->roles[i] == TR_ROWCOPY && copy_loop(tp, tp->vars[i]) == s)
			return true;
	return false;
}

/* A product over k split into its factors: the two operand references and the factors
 * that do not change with k (multiplied, or divided by: den). */
typedef struct Factors {
	Expr *ops[2];
	bool trans[2]; /* ops[i] stored transposed (operand_ref) */
	int nops;
	Expr *num[8], *den[8];
	int nnum, nden;
	Var *copies[2]; /* local copies of an operand read on the way */
	int ncopies;
} Factors;

static bool factor(TilePlan *tp, Expr *e, Var *k, const Var *j, Factors *f, bool inverse)
{
	Program *p = tp->c->prog;
	/* (double)(x * y) of float x and y: a float product is exact in double */
	if (e->kind == EX_CAST && e->ty == TY_DOUBLE && e->args[0]->ty == TY_FLOAT && expr_reads_var(e, k))
		return factor(tp, e->args[0], k, j, f, inverse);
	if (e->kind == EX_BIN && e->bop == OP_MUL)
		return factor(tp, e->args[0], k, j, f, inverse) && factor(tp, e->args[1], k, j, f, inverse);
	if (e->kind == EX_BIN && e->bop == OP_DIV && !expr_reads_var(e->args[1], k))
		return factor(tp, e->args[0], k, j, f, inverse) && factor(tp, e->args[1], k, j, f, !inverse);
	if (!expr_reads_var(e, k)) {
		if (inverse ? f->nden == 8 : f->nnum == 8)
			return false;
		if (inverse)
			f->den[f->nden++] = e;
		else
			f->num[f->nnum++] = e;
		return true;
	}
	if (inverse)
		return false;
	bool trans;
	Expr *op = operand_ref(tp, e, k, j, &trans);
	if (op) {
		if (f->nops == 2)
			return false;
		f->trans[f->nops] = trans;
		f->ops[f->nops++] = op;
		return true;
	}
	Stmt *def;
	if (e->kind == EX_INDEX && e->var->kind == VAR_LOCAL && e->var->ndim == 1 && e->args[0]->kind == EX_VAR && e->args[0]->var == k &&
	    f->ncopies < 2 && (def = copy_loop(tp, e->var))) {
		Stmt *a = single(def->body[0]);
		f->copies[f->ncopies++] = e->var;
		return factor(tp, expr_subst_var(p, a->rhs, def->var, k), k, j, f, false);
	}
	return false;
}

/* The product of factors xs[0 .. n), NULL for none. */
static Expr *product(Program *p, Expr *const *xs, int n)
{
	Expr *acc = NULL;
	for (int i = 0; i < n; i++)
		acc = acc ? ex_bin(p, OP_MUL, acc, xs[i], xs[i]->loc) : xs[i];
	return acc;
}

/* Whether loop f is `for (k) x += a * b` (tile_match_dot's form): the row operand a and
 * the column operand b (canonical), the extent K, and the product of the other factors
 * (NULL for none). */
static bool dot_loop(TilePlan *tp, Stmt *f, const Var *x, Var *jvar, bool add, Expr **a, Expr **b, bool *trans, long long *K, Expr **scale)
{
	Stmt *s = k_loop(f, K);
	if (!s || s->lhs->kind != EX_VAR || s->lhs->var != x)
		return false;
	Expr *prod = accumulated(s);
	Factors fs = {0};
	if (!prod || !factor(tp, prod, f->var, jvar, &fs, false) || fs.nops != 2)
		return false;
	int ci = expr_reads_var(fs.ops[0], jvar) ? 0 : 1;
	Expr *r = fs.ops[1 - ci], *c = fs.ops[ci];
	*trans = fs.trans[ci];
	if (expr_reads_var(r, jvar) || !expr_reads_var(c, jvar))
		return false;
	for (int k = 0; k < fs.ncopies; k++)
		if (add && !set_role(tp, fs.copies[k], TR_ROWCOPY))
			return false;
	Program *p = tp->c->prog;
	Expr *num = product(p, fs.num, fs.nnum), *den = product(p, fs.den, fs.nden);
	*scale = den ? ex_bin(p, OP_DIV, num ? num : ex_flt(p, 1.0, TY_FLOAT, den->loc), den, den->loc) : num;
	*a = canonical(tp, r, jvar, f->var);
	*b = canonical(tp, c, jvar, f->var);
	return true;
}

/* Whether e reads the two variables of pair (ctx, const Var *[2]) only as their sum,
 * `x + y` or `y + x` (an ExprTest). */
static bool read_as_sum(const Expr *e, void *ctx)
{
	const Var *const *xy = ctx;
	if (e->kind == EX_BIN && e->bop == OP_ADD && e->args[0]->kind == EX_VAR && e->args[1]->kind == EX_VAR &&
	    ((e->args[0]->var == xy[0] && e->args[1]->var == xy[1]) || (e->args[0]->var == xy[1] && e->args[1]->var == xy[0])))
		return true;
	if (e->kind == EX_VAR && (e->var == xy[0] || e->var == xy[1]))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!read_as_sum(e->args[i], ctx))
			return false;
	return true;
}

/* Whether statements body[0 .. n) read x and y only as `x + y` and write neither. */
static bool stmts_read_as_sum(Stmt *const *body, int n, const Var *x, const Var *y)
{
	const Var *xy[2] = {x, y};
	for (int i = 0; i < n; i++)
		if (body[i] && (stmt_writes_var(body[i], x) || stmt_writes_var(body[i], y) || !stmt_all_exprs(body[i], read_as_sum, xy)))
			return false;
	return true;
}

/* Whether e reads array elements, and only 16-bit ones (fp16, bf16). */
static bool reads_only_16bit(const Expr *e)
{
	if (e->kind == EX_INDEX)
		return e->var->ty == TY_HALF || e->var->ty == TY_BF16;
	if (e->kind == EX_VAR)
		return false;
	bool any = false;
	for (int i = 0; i < e->nargs; i++) {
		bool leaf = e->args[i]->kind == EX_INT || e->args[i]->kind == EX_FLT;
		if (!leaf && !reads_only_16bit(e->args[i]))
			return false;
		any |= !leaf;
	}
	return any;
}

int tile_match_dot(TilePlan *tp, Stmt **body, int n, int i, Var *jvar, bool add, Expr **scale, int *len)
{
	if (i + 1 >= n)
		return -1;
	Stmt *d = body[i], *f = body[i + 1];
	long long K, K2 = 0;
	bool dbl = d->kind == ST_DECL && !d->var->ndim && d->var->ty == TY_DOUBLE && d->rhs && k_loop(f, &K);
	if (!dbl && (d->kind != ST_DECL || d->var->ndim || d->var->ty != TY_FLOAT || !d->rhs || !k_loop(f, &K)))
		return -1;
	Expr *a, *b, *sc, *a2 = NULL, *b2 = NULL, *sc2 = NULL;
	bool trans, trans2 = false;
	if (!dot_loop(tp, f, d->var, jvar, add, &a, &b, &trans, &K, &sc))
		return -1;
	/* A double sum of 16-bit products (ggml's ggml_vec_dot_f16) is summed in fp32 by the
	 * tensor cores: each product is exact in fp32, and the tiles reorder the sum anyway.
	 * fp32 products summed in double keep the fallback, which sums them in double. */
	if (dbl && !(reads_only_16bit(a) && reads_only_16bit(b))) {
		if (add && !tp->why)
			tp->why = "a dot product of fp32 values over the pass accumulates in double, which the tensor cores do not (declare its accumulator float)";
		return -1;
	}
	/* a second part: into x, or into y read only in x + y */
	int taken = 2;
	Stmt *y = i + 3 < n ? body[i + 2] : NULL;
	if (i + 2 < n && dot_loop(tp, body[i + 2], d->var, jvar, add, &a2, &b2, &trans2, &K2, &sc2))
		taken = 3;
	else if (y && y->kind == ST_DECL && !y->var->ndim && y->var->ty == TY_FLOAT && y->rhs && dot_loop(tp, body[i + 3], y->var, jvar, add, &a2, &b2, &trans2, &K2, &sc2) &&
	         stmts_read_as_sum(body + i + 4, n - i - 4, d->var, y->var))
		taken = 4;
	else
		a2 = b2 = NULL, K2 = 0;
	Program *p = tp->c->prog;
	if (a2 && (!equal_or_null(sc, sc2) || K % 8 || trans || trans2)) {
		tp->why = K % 8 ? arena_printf(&p->arena, "the first part of a product of two parts has %lld columns, and the tiles join parts at a multiple of 8", K)
		        : trans || trans2 ? "a product of two parts reads a column operand stored transposed (store both parts as [..][row][k])"
		                          : "the two parts of a product carry different factors (write the same scale on both, or apply it to their sum)";
		return -1;
	}
	if (scale)
		*scale = sc;
	if (len)
		*len = taken;
	if (tp->rowop && (!expr_equal(tp->rowop, a) || !equal_or_null(tp->rowop2, a2))) {
		tp->why = "the products over the pass read two different row operands";
		return -1;
	}
	if (tp->kdata && (tp->kdata != K + K2 || tp->kseg != (a2 ? K : 0))) {
		tp->why = "the products have different k extents";
		return -1;
	}
	int cb = colop_index(tp, b, b2, trans, (int)(K + K2), add);
	if (cb < 0)
		return -1;
	for (int k = 0; k < tp->ndots; k++)
		if (tp->dots[k].colop == cb)
			return k;
	if (!add || tp->ndots == MAX_OPERANDS)
		return -1;
	tp->rowop = a;
	tp->rowop2 = a2;
	tp->kseg = a2 ? (int)K : 0;
	tp->kdim = tp->kdata = (int)(K + K2);
	tp->dots[tp->ndots] = (TileDot){a, b, cb};
	return tp->ndots++;
}

/* A k loop's one assignment with the helper scalars declared before it in the loop's body
 * (`float p = e / l; acc[d] += p * v[..]`) replaced by their definitions; NULL if the body
 * is not of that form. */
static Stmt *k_loop_inlined(TilePlan *tp, Stmt *f, long long *extent)
{
	Stmt *b = f->kind == ST_FOR ? single(f->body[0]) : NULL;
	if (!b || b->kind != ST_BLOCK)
		return k_loop(f, extent);
	if (!b->nbody || f->step != 1 || !is_int(f->lo, 0) || f->hi->kind != EX_INT || b->body[b->nbody - 1]->kind != ST_ASSIGN)
		return NULL;
	*extent = f->hi->ival;
	Stmt *a = b->body[b->nbody - 1];
	Expr *rhs = a->rhs;
	for (int i = b->nbody - 2; i >= 0; i--) {
		Stmt *d = b->body[i];
		if (d->kind != ST_DECL || d->var->ndim || !d->rhs || expr_reads_var(a->lhs, d->var))
			return NULL;
		rhs = expr_subst_expr(tp->c->prog, rhs, d->var, d->rhs);
	}
	return st_assign(tp->c->prog, a->lhs, a->aop, rhs, a->loc);
}

/* The factors of a product of products (8 at most: the rest stay grouped) into fs from
 * n; the new count. */
static int mul_factors(Expr *e, Expr **fs, int n)
{
	if (e->kind == EX_BIN && e->bop == OP_MUL && n < 7)
		return mul_factors(e->args[1], fs, mul_factors(e->args[0], fs, n));
	fs[n] = e;
	return n + 1;
}

int tile_match_pv(TilePlan *tp, const Stmt *f, Var *jvar, Expr **g, Var **acc, bool add)
{
	long long NC;
	Stmt *s;
	if (!(s = k_loop_inlined(tp, (Stmt *)f, &NC)))
		return -1;
	Expr *lhs = s->lhs;
	if (lhs->kind != EX_INDEX || lhs->nargs != 1 || lhs->args[0]->kind != EX_VAR || lhs->args[0]->var != f->var || !declared_in_pro(tp, lhs->var))
		return -1;
	Expr *prod = accumulated(s);
	if (!prod || prod->kind != EX_BIN || prod->bop != OP_MUL)
		return -1;
	/* The factors of the product, in any grouping (`p * v[j][d] * vs[j]`: a per-key scale
	 * after the value): one reads the column, the others make P. */
	Expr *fs[8];
	int nf = mul_factors(prod, fs, 0), col = -1;
	for (int i = 0; i < nf; i++)
		if (expr_reads_var(fs[i], f->var))
			col = col < 0 ? i : nf;
	if (col < 0 || col == nf)
		return -1;
	Expr *rest[8];
	int nrest = 0;
	for (int i = 0; i < nf; i++)
		if (i != col)
			rest[nrest++] = fs[i];
	{
		bool trans;
		Expr *v = operand_ref(tp, fs[col], f->var, jvar, &trans), *other = product(tp->c->prog, rest, nrest);
		if (!v || !expr_reads_var(v, jvar) || expr_reads_var(other, lhs->var))
			return -1;
		if (tp->ndata && tp->ndata != NC) {
			tp->why = "the accumulator tiles have different extents";
			return -1;
		}
		Expr *cv = canonical(tp, v, jvar, f->var);
		int cb = first_part_of(tp, cv, trans, (int)NC);
		if (cb < 0)
			cb = colop_index(tp, cv, NULL, trans, (int)NC, add);
		if (cb < 0)
			return -1;
		if (add) {
			if (!set_role(tp, lhs->var, TR_ROWTILE))
				return -1;
			tp->ncols = tp->ndata = (int)NC;
			tp->colop_pv[cb] = true;
		}
		*g = other;
		*acc = lhs->var;
		return cb;
	}
}

bool tile_is_elem_loop(const TilePlan *tp, const Stmt *s)
{
	return s->kind == ST_FOR && s->lo->kind == EX_VAR && s->lo->var == tp->step->var;
}

/* The statements of a loop's body as an array (*n of them). */
Stmt **loop_body(const Stmt *loop, int *n)
{
	Stmt **b = &((Stmt *)loop)->body[0];
	if ((*b)->kind == ST_BLOCK) {
		*n = (*b)->nbody;
		return (*b)->body;
	}
	*n = 1;
	return b;
}

/* Whether int expression e is c * jv + (terms without jv) with constant c (*coef), its
 * other variables the row's or the function's (none that changes with the element). */
bool tile_affine_in(const TilePlan *tp, const Expr *e, const Var *jv, long long *coef)
{
	long long a, b;
	switch (e->kind) {
	case EX_INT: *coef = 0; return true;
	case EX_VAR:
		*coef = e->var == jv;
		return e->var == jv || e->var->kind == VAR_PARAM || e->var == tp->grid[tp->rowdim].var || e->var == tp->step->var;
	case EX_UN:
		if (e->uop != UOP_NEG || !tile_affine_in(tp, e->args[0], jv, &a))
			return false;
		*coef = -a;
		return true;
	case EX_BIN:
		if (e->bop != OP_ADD && e->bop != OP_SUB && e->bop != OP_MUL)
			return false;
		if (!tile_affine_in(tp, e->args[0], jv, &a) || !tile_affine_in(tp, e->args[1], jv, &b))
			return false;
		if (e->bop == OP_MUL) {
			/* c * jv needs the other factor to be a constant */
			const Expr *k = a ? e->args[1] : e->args[0];
			if (a && b)
				return false;
			if ((a || b) && k->kind != EX_INT)
				return false;
			*coef = a ? a * k->ival : b ? b * k->ival : 0;
			return true;
		}
		*coef = e->bop == OP_ADD ? a + b : a - b;
		return true;
	default: return false;
	}
}

/* Whether int expression e is the same for the whole CTA: constants, scalar parameters,
 * and the grid's coordinates other than the row's. */
bool tile_cta_level(const TilePlan *tp, const Expr *e)
{
	if (e->kind == EX_VAR) {
		if (e->var->kind == VAR_PARAM)
			return !e->var->ndim;
		for (int g = 0; g < tp->ngrid; g++)
			if (g != tp->rowdim && tp->grid[g].var == e->var)
				return true;
		return false;
	}
	if (e->kind == EX_INDEX || e->kind == EX_CALL)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!tile_cta_level(tp, e->args[i]))
			return false;
	return true;
}

/* e written with the canonical iterator tp->sj in place of the loop's j. */
static const Expr *sread_canon(const TilePlan *tp, const Expr *e, const Var *j)
{
	if (j == tp->sj)
		return e;
	Program *p = tp->c->prog;
	return expr_subst_expr(p, e, j, ex_var(p, tp->sj, e->loc));
}

int tile_sread_index(const TilePlan *tp, const Expr *e, const Var *j)
{
	if (!tp->nsread)
		return -1;
	const Expr *c = sread_canon(tp, e, j);
	for (int k = 0; k < tp->nsread; k++)
		if (expr_equal(c, tp->sread[k]))
			return k;
	return -1;
}

/* Whether the subscript e of a read in the loop over j reads only j, the row's and the
 * CTA's iterators, scalar parameters and values no loop of the step writes (no gathers,
 * nothing per element). */
static bool score_subscript(const TilePlan *tp, const Expr *e, const Var *j)
{
	if (e->kind == EX_INDEX || e->kind == EX_CALL)
		return false;
	if (e->kind == EX_VAR) {
		if (e->var == j || e->var == tp->grid[tp->rowdim].var)
			return true;
		if (e->var->kind == VAR_PARAM)
			return !e->var->ndim;
		if (e->var->kind == VAR_LOOP)
			return tile_cta_level(tp, e);
		return !stmt_writes_var(tp->step, e->var);
	}
	for (int i = 0; i < e->nargs; i++)
		if (!score_subscript(tp, e->args[i], j))
			return false;
	return true;
}

/* Collects from e, which every element of the loop over j evaluates, the reads of an input
 * array at a subscript of the element's row and column: not an operand of the products,
 * not written by the region. (A read the rows share, HF's padding mask[b][j], is one value
 * per column for the whole warp: its loads in the passes are cheap as they are.) Operands
 * evaluated under a condition (a ? b : c, a && b) are not looked into: their subscript may
 * be valid only where the condition holds. */
static void collect_sreads(TilePlan *tp, const Expr *e, Var *j)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->nargs == e->var->ndim && expr_reads_var(e, j) &&
	    expr_reads_var(e, tp->grid[tp->rowdim].var) && (scalar_is_float(e->ty) || scalar_is_int(e->ty))) {
		bool operand = tp->rowop->var == e->var || (tp->rowop2 && tp->rowop2->var == e->var);
		for (int k = 0; k < tp->ncolop; k++)
			operand |= tile_operand_is(tp->colop[k], e->var) || (tp->colop2[k] && tp->colop2[k]->var == e->var);
		bool ok = !operand && !stmt_writes_var(tp->region->loop, e->var);
		for (int i = 0; ok && i < e->nargs; i++)
			ok = score_subscript(tp, e->args[i], j);
		if (ok) {
			if (tile_sread_index(tp, e, j) < 0 && tp->nsread < MAX_TILE_VARS) {
				const Expr *c = sread_canon(tp, e, j);
				long long coef = 0;
				bool early = false; /* j in a subscript before the last (or a strided last): no pairs */
				for (int i = 0; i + 1 < c->nargs; i++)
					early |= expr_reads_var(c->args[i], tp->sj);
				tp->sread_pair[tp->nsread] = !early && var_last_contiguous(e->var) && tile_affine_in(tp, c->args[c->nargs - 1], tp->sj, &coef) && coef == 1;
				tp->sread[tp->nsread++] = c;
			}
			return;
		}
	}
	if (e->kind == EX_COND || (e->kind == EX_BIN && (e->bop == OP_LAND || e->bop == OP_LOR))) {
		collect_sreads(tp, e->args[0], j);
		return;
	}
	for (int i = 0; i < e->nargs; i++)
		collect_sreads(tp, e->args[i], j);
}

/* The per-score reads (tp->sread) of the step's per-element loops: those of the
 * straight-line statements each loop's body starts with (declarations, assignments, the
 * q.k products and their starts), which every element in the pass's range runs. */
static void find_score_reads(TilePlan *tp)
{
	tp->nsread = 0;
	tp->sj = NULL;
	Stmt *sb = tp->step->body[0];
	Stmt **steps = sb->kind == ST_BLOCK ? sb->body : &sb;
	int nsteps = sb->kind == ST_BLOCK ? sb->nbody : 1;
	for (int l = 0; l < nsteps; l++) {
		if (!tile_is_elem_loop(tp, steps[l]))
			continue;
		Var *j = steps[l]->var;
		if (!tp->sj)
			tp->sj = j;
		int n, len;
		Stmt **body = loop_body(steps[l], &n);
		for (int i = 0; i < n; i += len) {
			Stmt *s = body[i];
			if (tile_match_dot(tp, body, n, i, j, false, NULL, &len) >= 0) {
				/* the sums' starts (T5's s = bias[h][i][j] before the dot) */
				collect_sreads(tp, s->rhs, j);
				if (len == 4)
					collect_sreads(tp, body[i + 2]->rhs, j);
				continue;
			}
			len = 1;
			if (s->kind != ST_DECL && s->kind != ST_ASSIGN)
				break;
			if (s->lhs && s->lhs->kind == EX_INDEX)
				for (int a = 0; a < s->lhs->nargs; a++)
					collect_sreads(tp, s->lhs->args[a], j);
			if (s->rhs)
				collect_sreads(tp, s->rhs, j);
		}
	}
}


/* Reads and writes in per-element statements: per-step arrays must be indexed j - j0. */
static bool check_elem_expr(TilePlan *tp, const Expr *e, const Var *jvar)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_LOCAL) {
		const Expr *x = e->args[0];
		if (!declared_in_pro(tp, e->var) || e->nargs != 1 || x->kind != EX_BIN || x->bop != OP_SUB || x->args[0]->kind != EX_VAR ||
		    x->args[0]->var != jvar || x->args[1]->kind != EX_VAR || x->args[1]->var != tp->step->var || e->var->dims[0]->kind != EX_INT ||
		    e->var->dims[0]->ival != tp->bn) {
			tp->why = "a local array inside the pass is not indexed by the step (j - j0)";
			return false;
		}
		return set_role(tp, e->var, TR_ELEM);
	}
	for (int i = 0; i < e->nargs; i++)
		if (!check_elem_expr(tp, e->args[i], jvar))
			return false;
	return true;
}

static bool scan_elem_stmts(TilePlan *tp, Stmt **body, int n, Var *jvar, bool top);

/* The first array e reads; *other: whether it reads one at a subscript without j. */
static const Var *column_array(const Expr *e, const Var *j, bool *other)
{
	if (!e)
		return NULL;
	const Var *a = NULL;
	if (e->kind == EX_INDEX) {
		if (!expr_reads_var(e, j))
			*other = true;
		a = e->var;
	}
	for (int i = 0; i < e->nargs; i++) {
		const Var *b = column_array(e->args[i], j, other);
		a = a ? a : b;
	}
	return a;
}

/* Why loop l of the pass has no tile form, when the pass has a product and one of l's sums
 * reads only the column operand (`kn += k[j][d] * k[j][d]`, cosine attention's key norm):
 * NULL otherwise. */
static const char *column_sum_why(TilePlan *tp, const Stmt *l, const Var *j)
{
	int n;
	Stmt **b = slot_stmts((Stmt **)&l->body[0], &n);
	for (int i = 0; tp->ndots && i < n; i++) { /* beside attention's score */
		const Stmt *a = b[i];
		bool other = false;
		const Var *arr = a->kind == ST_ASSIGN && a->aop == AS_ADD && a->lhs->kind == EX_VAR ? column_array(a->rhs, j, &other) : NULL;
		if (arr && !other)
			return arena_printf(&tp->c->prog->arena,
			                    "'%s' sums over '%s' what row '%s' of '%s' holds alone (a norm of the column operand): the tiles multiply the row operand by the columns; normalise '%s' in a region before this one, so that the score is a product",
			                    a->lhs->var->name, l->var->name, j->name, arr->name, arr->name);
	}
	return NULL;
}

/* A local array declared before the pass (tp->pro) that e reads; NULL if none. */
static const Var *pro_array(const TilePlan *tp, const Expr *e)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_LOCAL && e->var->ndim && declared_in_pro(tp, e->var))
		return e->var;
	for (int i = 0; i < e->nargs; i++) {
		const Var *v = pro_array(tp, e->args[i]);
		if (v)
			return v;
	}
	return NULL;
}

/* Why loop l of the pass has no tile form, when it sums products of which one reads a
 * local array filled before the pass (`qr[d]`, the query rotated or normalised into a
 * local row before the key loop): the tiles read the row operand from memory, and the
 * prologue (prologue.c), which would compute that row in a kernel of its own, did not
 * take it. NULL otherwise. */
static const char *pro_array_why(TilePlan *tp, const Stmt *l)
{
	int n;
	Stmt **b = slot_stmts((Stmt **)&l->body[0], &n);
	for (int i = 0; i < n; i++) {
		const Stmt *a = b[i];
		const Var *v = a->kind == ST_ASSIGN && a->aop == AS_ADD && a->lhs->kind == EX_VAR ? pro_array(tp, a->rhs) : NULL;
		if (v)
			return arena_printf(&tp->c->prog->arena,
			                    "the product over '%s' reads '%s', a local array filled by statements before the pass (line %d), as its row operand: the tiles read both operands from memory, and the product's operands were not computed in a kernel before the region (a prologue workspace, docs/gpu-kernels.md: one sum `s += E` over the loop, the local read by the product alone, the row's statements reading only the row's inputs and the key's factors only the key's, none an array the region writes, a table at a position read from an array only for the row)",
			                    l->var->name, v->name, v->loc.line);
	}
	return NULL;
}

static bool scan_elem_stmt(TilePlan *tp, Stmt *s, Var *jvar)
{
	Program *p = tp->c->prog;
	switch (s->kind) {
	case ST_BLOCK: return scan_elem_stmts(tp, s->body, s->nbody, jvar, false);
	case ST_IF: {
		/* if (e > m) m = e; a reduction written as a branch */
		Expr *target, *g;
		Reducer red;
		if (reduce_match(p, s, &target, &red, &g) && target->kind == EX_VAR && declared_in_pro(tp, target->var))
			return set_role(tp, target->var, TR_ROW) && check_elem_expr(tp, g, jvar);
		if (!check_elem_expr(tp, s->cond, jvar))
			return false;
		for (int i = 0; i < s->nbody; i++)
			if (s->body[i] && !scan_elem_stmt(tp, s->body[i], jvar))
				return false;
		return true;
	}
	case ST_DECL:
		if (s->var->ndim) {
			tp->why = "a local array is declared inside the pass";
			return false;
		}
		return !s->rhs || check_elem_expr(tp, s->rhs, jvar);
	case ST_FOR: {
		Expr *g;
		Var *acc;
		if (tile_match_pv(tp, s, jvar, &g, &acc, true) >= 0)
			return check_elem_expr(tp, g, jvar);
		if (!tp->why)
			tp->why = column_sum_why(tp, s, jvar);
		if (!tp->why)
			tp->why = pro_array_why(tp, s);
		if (!tp->why)
			tp->why = "a loop inside the pass is neither a product with the row operand nor one accumulated over the pass";
		return false;
	}
	case ST_ASSIGN: {
		Expr *target, *g;
		Reducer red;
		if (s->lhs->kind == EX_VAR && declared_in_pro(tp, s->lhs->var)) {
			if (!reduce_match(p, s, &target, &red, &g) || expr_reads_var(g, s->lhs->var)) {
				tp->why = "a per-row value is written inside the pass by something other than a reduction";
				return false;
			}
			return set_role(tp, s->lhs->var, TR_ROW) && check_elem_expr(tp, g, jvar);
		}
		if (s->lhs->kind == EX_INDEX && s->lhs->var->kind == VAR_PARAM) {
			tp->why = arena_printf(&p->arena, "the pass stores '%s' (the tile kernels store nothing from inside the pass: store it in a loop of its own after the sums, where fusecc computes the value again)",
			                       s->lhs->var->name);
			return false;
		}
		return check_elem_expr(tp, s->lhs, jvar) && check_elem_expr(tp, s->rhs, jvar);
	}
	}
	return false;
}

/* The locals a guarded block declares, each with the guard it was declared under. */
typedef struct OwnLocal {
	const Var *var;
	const Expr *guard;
} OwnLocal;
typedef VEC(OwnLocal) LocalList;

/* Whether no statement of body writes a variable c reads: c may then be tested again
 * before each of body's statements instead of once before all of them. */
static bool cond_stable(const Expr *c, const Stmt *body)
{
	if ((c->kind == EX_VAR || c->kind == EX_INDEX) && stmt_writes_var(body, c->var))
		return false;
	for (int i = 0; i < c->nargs; i++)
		if (!cond_stable(c->args[i], body))
			return false;
	return true;
}

/* A product loop `for (d) X[d] += g * w` (one statement) under guard c: the loop with
 * g replaced by (c ? g : 0) on the factor that does not read d, which is the product
 * the masked tile computes; NULL when s is not of that form. */
static Stmt *mask_product_loop(Program *p, const Stmt *s, Expr *c)
{
	const Stmt *a = s->body[0];
	while (a->kind == ST_BLOCK && a->nbody == 1)
		a = a->body[0];
	if (a->kind != ST_ASSIGN || a->aop != AS_ADD || a->rhs->kind != EX_BIN || a->rhs->bop != OP_MUL || expr_reads_var(c, s->var))
		return NULL;
	Expr *f[2] = {a->rhs->args[0], a->rhs->args[1]};
	int side = !expr_reads_var(f[0], s->var) ? 0 : !expr_reads_var(f[1], s->var) ? 1 : -1;
	if (side < 0)
		return NULL;
	Expr *zero = f[side]->ty == TY_DOUBLE ? ex_flt(p, 0.0, TY_DOUBLE, a->loc) : ex_flt(p, 0.0, TY_FLOAT, a->loc);
	if (f[side]->ty != TY_DOUBLE && f[side]->ty != TY_FLOAT)
		return NULL;
	f[side] = ex_cond(p, ex_copy(p, c), f[side], zero, a->loc);
	Stmt *na = st_assign(p, ex_copy(p, a->lhs), AS_ADD, ex_bin(p, OP_MUL, f[0], f[1], a->loc), a->loc);
	return st_for(p, s->var, s->lo, s->hi, s->step, na, s->loc);
}

/* Whether every assignment in s writes a local the guarded block declared (own) or an
 * element of a per-step array (subscripted by the element, s[j - j0]): what the masked
 * elements store there is never read where the original read it (an element it never
 * wrote), so the store may run unguarded, when it is the only store to that array in
 * the step, whose per-element loop elem holds s (not `if (!keep[j]) s[j - j0] =
 * -INFINITY` after s[j - j0] = x, in the same loop or an earlier one). */
/* Whether every read of v in s is under an if whose condition is c (or its body). */
static bool read_only_under(const Stmt *s, const Var *v, const Expr *c)
{
	if (!s)
		return true;
	if (s->kind == ST_IF && expr_equal(s->cond, c)) /* its else arm runs where c is false */
		return !(s->nbody > 1 && s->body[1] && stmt_reads_var(s->body[1], v));
	if (s->kind == ST_ASSIGN)
		return !expr_reads_var(s->rhs, v) && (s->lhs->kind != EX_INDEX || !expr_reads_var(s->lhs, v));
	if ((s->kind == ST_DECL && s->rhs && expr_reads_var(s->rhs, v)) || (s->kind == ST_IF && expr_reads_var(s->cond, v)) ||
	    (s->kind == ST_FOR && (expr_reads_var(s->lo, v) || expr_reads_var(s->hi, v))))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!read_only_under(s->body[i], v, c))
			return false;
	return true;
}

static bool writes_only_own(const Stmt *s, const Stmt *elem, const Stmt *step, const Expr *c, const LocalList *own)
{
	if (s->kind == ST_ASSIGN) {
		const Expr *l = s->lhs;
		if (l->kind == EX_INDEX) /* and the step's only store to it */
			return l->var->kind == VAR_LOCAL && l->nargs == 1 && expr_reads_var(l->args[0], elem->var) && stmt_count_stores(step, l->var) == 1;
		for (int i = 0; i < own->n; i++) /* declared under this very guard */
			if (own->v[i].var == l->var && own->v[i].guard == c)
				return true;
		/* declared before any guard, and read only under this one (the score fuse.c
		 * computes under the mask of the P.V it feeds): what masked elements leave there
		 * is never read */
		for (int i = 0; i < own->n; i++)
			if (own->v[i].var == l->var && !own->v[i].guard && read_only_under(elem->body[0], l->var, c))
				return true;
		return false;
	}
	if (s->kind == ST_DECL)
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && !writes_only_own(s->body[i], elem, step, c, own))
			return false;
	return s->kind == ST_FOR || s->kind == ST_BLOCK;
}

/* Whether subscripts in e read only iterators, parameters, literals and locals the step
 * does not write: no array (a page table, whose masked entries may point nowhere) and no
 * per-element value. */
static bool plain_subscripts(const Expr *e, const Stmt *step, bool sub)
{
	if (sub && (e->kind == EX_INDEX || e->kind == EX_CALL))
		return false;
	if (sub && e->kind == EX_VAR && e->var->kind == VAR_LOCAL && stmt_writes_var(step, e->var))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!plain_subscripts(e->args[i], step, sub || e->kind == EX_INDEX))
			return false;
	return true;
}

/* Whether f is a dot into a scalar, `for (k = 0; k < K; k++) x += e` (k_loop's form), x
 * a float or double local that e does not read, e's reads at plain subscripts of step
 * (plain_subscripts; step NULL: any): its one assignment, or NULL. */
static Stmt *scalar_dot(Stmt *f, const Stmt *step)
{
	long long K;
	Stmt *a = f->kind == ST_FOR ? k_loop(f, &K) : NULL;
	Expr *e = a ? accumulated(a) : NULL;
	if (!e || a->lhs->kind != EX_VAR || a->lhs->var->kind != VAR_LOCAL || (a->lhs->ty != TY_FLOAT && a->lhs->ty != TY_DOUBLE) ||
	    expr_reads_var(e, a->lhs->var) || (step && !plain_subscripts(e, step, false)))
		return NULL;
	return a;
}

/* Whether s holds a scalar_dot. */
static bool holds_scalar_dot(Stmt *s, const Stmt *step)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR && scalar_dot(s, step))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (holds_scalar_dot(s->body[i], step))
			return true;
	return false;
}

static void distribute_guard(Cascade *cx, Stmt *s, const Stmt *elem, const Stmt *step, Expr *c, StmtVec *out, LocalList *own);

/* A dot into scalar x at b[i] under guard c (NULL: none), `x = init; for (k) x += e`
 * (2 statements; the loop alone under a guard, init then x's value there, 1): appends
 * `float t = init; for (k) t += e;` unguarded, t a new local, and `x = t` under c; the
 * statements taken, 0 for none. The tiles compute every element's product anyway (as
 * for `x = c ? q.k : -INFINITY`), and what the masked elements computed goes nowhere:
 * the statements run where they ran, so that x, the guard and the product's operands
 * are read as they were. Unguarded, the product reads its operands at every element
 * of the step: plain subscripts only (scalar_dot), no index read from an array. */
static int hoist_dot(Cascade *cx, Stmt **b, int n, int i, const Stmt *elem, const Stmt *step, Expr *c, StmtVec *out, LocalList *own)
{
	Program *p = cx->prog;
	Stmt *set = b[i]->kind == ST_ASSIGN && b[i]->aop == AS_SET && b[i]->lhs->kind == EX_VAR && i + 1 < n ? b[i] : NULL;
	Stmt *f = set ? b[i + 1] : b[i], *a = scalar_dot(f, c ? step : NULL); /* unguarded, it read them all */
	/* (a loop into a local of its own guarded block runs unguarded as it is: writes_only_own) */
	if (!a || (set && (a->lhs->var != set->lhs->var || (c && !plain_subscripts(set->rhs, step, false)))) || (!set && (!c || writes_only_own(f, elem, step, c, own))))
		return 0;
	Var *x = a->lhs->var;
	Var *t = fresh_var(cx, arena_printf(&p->arena, "%s_dot", x->name), x->ty, VAR_LOCAL);
	vec_push(*out, st_decl(p, t, set ? ex_copy(p, set->rhs) : ex_var(p, x, f->loc), f->loc));
	vec_push(*own, ((OwnLocal){t, NULL}));
	vec_push(*out, st_for(p, f->var, f->lo, f->hi, f->step, st_assign(p, ex_var(p, t, a->loc), AS_ADD, ex_copy(p, accumulated(a)), a->loc), f->loc));
	distribute_guard(cx, st_assign(p, ex_var(p, x, f->loc), AS_SET, ex_var(p, t, f->loc), f->loc), elem, step, c, out, own);
	return set ? 2 : 1;
}

/* Pushes guard c (NULL: none) down to each statement of s, appending to out: the tiles
 * run every statement of a step for every element and mask what the elements
 * contribute, so `if (j <= i) { float p = ...; l += p; for (d) acc[d] += p * v[j][d]; }`
 * becomes `float p = ...; if (j <= i) l += p; for (d) acc[d] += (j <= i ? p : 0) * v[j][d];`
 * (and `for (d) if (c) acc[d] += p * v` the same loop). Declarations and the locals the
 * guarded block declares run unguarded: they only read the step's elements; so do dots
 * into scalars (hoist_dot). An if with an else arm is two guards, c and !c, where an arm
 * holds such a dot (HF's `if (mask[j]) { x = q.k; } else x = -1e9f;`). An if whose body
 * writes what its condition reads stays as it is. */
static void distribute_guard(Cascade *cx, Stmt *s, const Stmt *elem, const Stmt *step, Expr *c, StmtVec *out, LocalList *own)
{
	Program *p = cx->prog;
	int taken;
	if (s->kind == ST_BLOCK) {
		for (int i = 0; i < s->nbody; i++)
			if ((taken = hoist_dot(cx, s->body, s->nbody, i, elem, step, c, out, own)))
				i += taken - 1;
			else
				distribute_guard(cx, s->body[i], elem, step, c, out, own);
		return;
	}
	if (c && hoist_dot(cx, &s, 1, 0, elem, step, c, out, own))
		return;
	if (s->kind == ST_IF && (s->nbody == 1 || !s->body[1]) && cond_stable(s->cond, s->body[0])) {
		Expr *g = c ? ex_bin(p, OP_LAND, ex_copy(p, c), ex_copy(p, s->cond), s->loc) : s->cond;
		distribute_guard(cx, s->body[0], elem, step, g, out, own);
		return;
	}
	if (s->kind == ST_IF && s->nbody > 1 && s->body[1] && cond_stable(s->cond, s->body[0]) && cond_stable(s->cond, s->body[1]) &&
	    (holds_scalar_dot(s->body[0], step) || holds_scalar_dot(s->body[1], step))) {
		/* the arms one after the other: neither writes what the condition reads */
		for (int k = 0; k < 2; k++) {
			Expr *e = k ? ex_un(p, UOP_NOT, ex_copy(p, s->cond), s->loc) : ex_copy(p, s->cond);
			distribute_guard(cx, s->body[k], elem, step, c ? ex_bin(p, OP_LAND, ex_copy(p, c), e, s->loc) : e, out, own);
		}
		return;
	}
	if (s->kind == ST_FOR && !c) { /* for (d) if (c) X[d] += g * w */
		const Stmt *f = s->body[0];
		while (f->kind == ST_BLOCK && f->nbody == 1)
			f = f->body[0];
		Stmt *m = f->kind == ST_IF && (f->nbody == 1 || !f->body[1]) ? st_for(p, s->var, s->lo, s->hi, s->step, f->body[0], s->loc) : NULL;
		m = m ? mask_product_loop(p, m, f->cond) : NULL;
		vec_push(*out, m ? m : s);
		return;
	}
	if (!c) {
		if (s->kind == ST_DECL && !s->var->ndim)
			vec_push(*own, ((OwnLocal){s->var, NULL}));
		vec_push(*out, s);
		return;
	}
	bool mine = false;
	if (s->kind == ST_DECL && !s->var->ndim) {
		vec_push(*own, ((OwnLocal){s->var, c}));
		mine = true;
	}
	if (s->kind == ST_ASSIGN || s->kind == ST_FOR)
		mine = writes_only_own(s, elem, step, c, own);
	Stmt *m = !mine && s->kind == ST_FOR ? mask_product_loop(p, s, c) : NULL;
	if (mine || m) {
		vec_push(*out, m ? m : s);
		return;
	}
	Stmt *g = st_new(p, ST_IF, s->loc);
	g->cond = ex_copy(p, c);
	st_set_body(p, g, &s, 1);
	vec_push(*out, g);
}

/* distribute_guard over the body of per-element loop l of the pass's step. */
static void distribute_guards(Cascade *cx, Stmt *l, const Stmt *step)
{
	Program *p = cx->prog;
	StmtVec out = {0};
	LocalList own = {0};
	distribute_guard(cx, l->body[0], l, step, NULL, &out, &own);
	Stmt *b = out.n == 1 ? out.v[0] : st_block(p, out.v, out.n, l->body[0]->loc);
	st_set_body(p, l, &b, 1);
	vec_free(out);
	vec_free(own);
}

static bool scan_elem_stmts(TilePlan *tp, Stmt **body, int n, Var *jvar, bool top)
{
	for (int i = 0; i < n; i++) {
		Expr *scale;
		int len;
		if (top && tile_match_dot(tp, body, n, i, jvar, true, &scale, &len) >= 0) {
			if (!check_elem_expr(tp, body[i]->rhs, jvar) || (scale && !check_elem_expr(tp, scale, jvar)) ||
			    (len == 4 && !check_elem_expr(tp, body[i + 2]->rhs, jvar)))
				return false;
			i += len - 1;
			continue;
		}
		if (tp->why || !scan_elem_stmt(tp, body[i], jvar))
			return false;
	}
	return true;
}

/* Row statements (before, between and after the per-element loops): accumulator tiles
 * only as X[k] inside a loop over their whole extent (`col`), no per-step tiles. */
static bool check_row_expr(TilePlan *tp, const Expr *e, const Var *col)
{
	if (e->kind == EX_INDEX && tile_role(tp, e->var) == TR_PART) {
		/* X_part[ch] or X_part[ch][col]: the chunk's own element. */
		const Expr *last = e->args[e->nargs - 1];
		if (e->args[0]->kind != EX_VAR || e->args[0]->var->kind != VAR_LOOP || e->nargs > 2 ||
		    (e->nargs == 2 && (!col || last->kind != EX_VAR || last->var != col))) {
			tp->why = "a partial is not read or written as the chunk's element";
			return false;
		}
		return true;
	}
	if (e->kind == EX_INDEX && e->var->kind == VAR_LOCAL) {
		TileRole r = tile_role(tp, e->var);
		if (r != TR_ROWTILE || !col || e->args[0]->kind != EX_VAR || e->args[0]->var != col) {
			tp->why = r == TR_ELEM      ? "a per-step tile is read outside the pass"
			          : r == TR_ROWCOPY ? "a local copy of the row operand is read outside the products"
			                            : "a local array is used outside a loop over its whole extent";
			return false;
		}
	}
	for (int i = 0; i < e->nargs; i++)
		if (!check_row_expr(tp, e->args[i], col))
			return false;
	return true;
}

static bool indexes_by(const TilePlan *tp, const Expr *e, const Var *v)
{
	if (!e)
		return false;
	if (e->kind == EX_INDEX && (tile_role(tp, e->var) == TR_ROWTILE || (tile_role(tp, e->var) == TR_PART && e->nargs == 2)) && e->args[e->nargs - 1]->kind == EX_VAR &&
	    e->args[e->nargs - 1]->var == v)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (indexes_by(tp, e->args[i], v))
			return true;
	return false;
}

static bool stmt_indexes_by(const TilePlan *tp, const Stmt *s, const Var *v)
{
	if (!s)
		return false;
	if (indexes_by(tp, s->lhs, v) || indexes_by(tp, s->rhs, v) || indexes_by(tp, s->cond, v))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_indexes_by(tp, s->body[i], v))
			return true;
	return false;
}

bool tile_is_col_loop(const TilePlan *tp, const Stmt *s) { return s->kind == ST_FOR && stmt_indexes_by(tp, s->body[0], s->var); }

int split_part_offset(const SplitBlock *sb, int k)
{
	int off = 0;
	for (int i = 0; i < k; i++)
		off += sb->part_cols[i];
	return off;
}

bool tile_touches_rowtile(const TilePlan *tp, const Stmt *s)
{
	for (int i = 0; i < tp->nvars; i++)
		if (tp->roles[i] == TR_ROWTILE && (stmt_reads_var(s, tp->vars[i]) || stmt_writes_var(s, tp->vars[i])))
			return true;
	return false;
}

/* A parameter array that s stores into, or NULL. */
static const Var *stored_param(const Stmt *s)
{
	if (s->kind == ST_ASSIGN && s->lhs->var->kind == VAR_PARAM && s->lhs->var->ndim)
		return s->lhs->var;
	for (int i = 0; i < s->nbody; i++) {
		const Var *w = s->body[i] ? stored_param(s->body[i]) : NULL;
		if (w)
			return w;
	}
	return NULL;
}

static bool check_row_stmt(TilePlan *tp, const Stmt *s, const Var *col, bool top)
{
	switch (s->kind) {
	case ST_BLOCK:
		for (int i = 0; i < s->nbody; i++)
			if (!check_row_stmt(tp, s->body[i], col, false))
				return false;
		return true;
	case ST_IF:
		if (!check_row_expr(tp, s->cond, col))
			return false;
		for (int i = 0; i < s->nbody; i++)
			if (s->body[i] && !check_row_stmt(tp, s->body[i], col, false))
				return false;
		return true;
	case ST_DECL:
		if (s->var->ndim && !(top && tile_role(tp, s->var) != TR_NONE)) {
			tp->why = "a local array has no tile role";
			return false;
		}
		return !s->rhs || check_row_expr(tp, s->rhs, col);
	case ST_FOR:
		if (top && tile_is_copy_loop(tp, s))
			return true;
		if (tile_is_elem_loop(tp, s)) {
			tp->why = "a per-element loop is nested in a row statement";
			return false;
		}
		if (!check_row_expr(tp, s->lo, col) || !check_row_expr(tp, s->hi, col))
			return false;
		if (tile_touches_rowtile(tp, s->body[0])) {
			if (col || !is_int(s->lo, 0) || !is_int(s->hi, tp->ncols) || s->step != 1) {
				tp->why = "a loop over an accumulator tile does not cover its whole extent";
				return false;
			}
			col = s->var;
		}
		return check_row_stmt(tp, s->body[0], col, false);
	case ST_ASSIGN: return check_row_expr(tp, s->lhs, col) && check_row_expr(tp, s->rhs, col);
	}
	return false;
}

void tile_find_masks(TilePlan *tp);

static void add_names(const Stmt *s, StrVec *names)
{
	if (s->var)
		vec_push(*names, s->var->name);
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			add_names(s->body[i], names);
}

/* Whether s holds a tiled pass (a loop of step > 1) at any depth. */
static bool stmt_has_pass(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_FOR && s->step > 1)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_has_pass(s->body[i]))
			return true;
	return false;
}

/* Whether subscript e is g + (terms without g): distinct for distinct g, whatever the
 * rest (kh * G + g); with stride, g * stride + (terms without g) too. */
static bool offset_by(const Expr *e, const Var *g, const Expr *stride)
{
	if (e->kind == EX_VAR)
		return e->var == g;
	if (stride && e->kind == EX_BIN && e->bop == OP_MUL) /* g * stride, stride * g */
		for (int k = 0; k < 2; k++)
			if (e->args[k]->kind == EX_VAR && e->args[k]->var == g && expr_equal(e->args[1 - k], stride))
				return true;
	if (e->kind != EX_BIN || e->bop != OP_ADD)
		return false;
	return (offset_by(e->args[0], g, stride) && !expr_reads_var(e->args[1], g)) || (offset_by(e->args[1], g, stride) && !expr_reads_var(e->args[0], g));
}

/* An access of w (RowAt.w) whose subscript k is not sub: false (stop; an ExprTest). */
typedef struct RowAt {
	const Var *w;
	int k;
	const Expr *sub;
} RowAt;

static bool at_row(const Expr *e, void *ctx)
{
	const RowAt *ra = ctx;
	if (e->kind == EX_INDEX && e->var == ra->w && (e->nargs <= ra->k || !expr_equal(e->args[ra->k], ra->sub)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!at_row(e->args[i], ctx))
			return false;
	return true;
}

/* Writes of s inside loop l: locals l declares, or elements of parameter arrays that l
 * reads only in the row it writes (or never), subscripted by l's iterator (plus terms
 * without it; or times stride, see Region.group_stride) in some position. */
static bool writes_own_rows(const Stmt *l, const Stmt *s, const Expr *stride)
{
	if (!s)
		return true;
	if (s->kind == ST_ASSIGN) {
		Var *w = s->lhs->var;
		if (w->kind == VAR_PARAM) {
			int own = -1;
			for (int i = 0; i < s->lhs->nargs && own < 0; i++)
				if (offset_by(s->lhs->args[i], l->var, stride))
					own = i;
			/* read too (a softmax in place, x[r][c] = ... x[r][c] ...): only in its own row */
			if (own < 0 || (stmt_reads_var(l->body[0], w) && !stmt_all_exprs(l->body[0], at_row, &(RowAt){w, own, s->lhs->args[own]})))
				return false;
		} else if (!stmt_declares(l->body[0], w)) {
			return false;
		}
	}
	for (int i = 0; i < s->nbody; i++)
		if (!writes_own_rows(l, s->body[i], stride))
			return false;
	return true;
}

bool tile_independent_loop(const Region *r, const Stmt *l) { return writes_own_rows(l, l->body[0], r ? r->group_stride : NULL); }

/* Whether s is or holds a loop. */
static bool holds_loop(const Stmt *s)
{
	if (s->kind == ST_FOR)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && holds_loop(s->body[i]))
			return true;
	return false;
}

/* Whether an assignment in w stores a variable that s reads. */
static bool stmt_stores_read_by_stmt(const Stmt *w, const Stmt *s)
{
	if (!w)
		return false;
	if (w->kind == ST_ASSIGN && stmt_reads_var(s, w->lhs->var))
		return true;
	for (int i = 0; i < w->nbody; i++)
		if (stmt_stores_read_by_stmt(w->body[i], s))
			return true;
	return false;
}

bool tile_store_pass(TilePlan *tp, Stmt *s)
{
	const Var *iv = tp->grid[tp->rowdim].var;
	if (tp->splitk || tp->ngather || tp->skip_hidden || s->kind != ST_FOR || s->step != 1 || !expr_equal(s->lo, tp->step->lo) ||
	    !expr_equal(s->hi, tp->step->hi) || expr_reads_var(s->lo, iv) || expr_reads_var(s->hi, iv))
		return false;
	/* It runs before the rest of the epilogue: it may read nothing that writes. */
	for (int k = 0; k < tp->nepi; k++)
		if (tp->epi[k] != s && ((tp->epi[k]->kind == ST_DECL && stmt_reads_var(s, tp->epi[k]->var)) || stmt_stores_read_by_stmt(tp->epi[k], s)))
			return false;
	Stmt *b = s->body[0];
	Stmt **body = b->kind == ST_BLOCK ? b->body : &s->body[0];
	int n = b->kind == ST_BLOCK ? b->nbody : 1, len, dots = 0;
	for (int i = 0; i < n; i++) {
		if (tile_match_dot(tp, body, n, i, s->var, false, NULL, &len) >= 0) {
			dots++;
			i += len - 1;
		} else if (holds_loop(body[i])) {
			return false;
		}
	}
	return dots > 0;
}

Stmt *grid_and_row_loops(const Region *r, GridLoop *out, int *n)
{
	Stmt *body = grid_loops(r, out, n);
	if (body->kind == ST_FOR && body->step == 1 && *n < MAX_GRID && holds_loop(body->body[0]) && tile_independent_loop(r, body)) {
		out[(*n)++] = (GridLoop){body->var, body->lo, body->hi, 0};
		body = single(body->body[0]);
	}
	return body;
}

/* e reads parameters and the listed variables only. */
static bool reads_only(const Expr *e, Var *const *ok, int n)
{
	if (!e)
		return true;
	if (e->kind == EX_VAR || e->kind == EX_INDEX) {
		bool found = e->var->kind == VAR_PARAM;
		for (int i = 0; i < n && !found; i++)
			found = e->var == ok[i];
		if (!found)
			return false;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!reads_only(e->args[i], ok, n))
			return false;
	return true;
}

/* The split-k row block (see build_splitk in src/fuse/fuse.c): [pre..., int nchunks,
 * int chunk, partials..., for (ch) {range, setup, pass, stores}, merge...]. The chunk
 * kernel's prologue is pre and the setup, its epilogue the stores. */
bool split_block(Stmt *body, SplitBlock *sb)
{
	memset(sb, 0, sizeof *sb);
	if (body->kind != ST_BLOCK)
		return false;
	sb->ichunks = -1;
	for (int i = 0; i < body->nbody; i++) {
		Stmt *s = body->body[i];
		if (s->kind == ST_FOR && s->step == 1 && s->hi->kind == EX_VAR && stmt_has_pass(s->body[0])) {
			if (sb->chunks)
				return false;
			sb->chunks = s;
			sb->ichunks = i;
		}
	}
	if (!sb->chunks)
		return false;
	Var *ns = sb->chunks->hi->var;
	for (int i = 0; i < sb->ichunks; i++) {
		Stmt *s = body->body[i];
		if (s->kind != ST_DECL)
			continue;
		if (s->var == ns) {
			sb->ndecl = s;
		} else if (!s->var->ndim && s->rhs && expr_reads_var(s->rhs, ns)) {
			sb->cdecl = s;
		} else if (s->var->ndim && expr_reads_var(s->var->dims[0], ns)) {
			long cols = 1;
			for (int d = 1; d < s->var->ndim; d++)
				cols *= s->var->dims[d]->kind == EX_INT ? s->var->dims[d]->ival : 0;
			if (s->var->ndim > 2 || cols <= 0 || sb->nparts == MAX_TILE_VARS)
				return false;
			sb->parts[sb->nparts] = s->var;
			sb->part_cols[sb->nparts++] = (int)cols;
		}
	}
	return sb->ndecl && sb->ndecl->rhs && sb->cdecl;
}

bool split_block_decl(const SplitBlock *sb, const Stmt *s)
{
	if (s == sb->ndecl || s == sb->cdecl)
		return true;
	for (int k = 0; k < sb->nparts; k++)
		if (s->kind == ST_DECL && s->var == sb->parts[k])
			return true;
	return false;
}

/* ---- the split axis's length on the host (see split_host_len in tile.h) ---- */

bool tile_host_expr(const Expr *e)
{
	if (e->kind == EX_INDEX || (e->kind == EX_VAR && (e->var->kind != VAR_PARAM || e->var->ndim)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!tile_host_expr(e->args[i]))
			return false;
	return true;
}

/* Whether e is the min (want_min) or the max of two values, `x < y ? x : y` and the
 * other spellings: x and y. */
static bool min_max_form(const Expr *e, bool want_min, const Expr **x, const Expr **y)
{
	if (e->kind != EX_COND || e->args[0]->kind != EX_BIN)
		return false;
	const Expr *c = e->args[0];
	bool lt = c->bop == OP_LT || c->bop == OP_LE, gt = c->bop == OP_GT || c->bop == OP_GE;
	bool same = expr_equal(c->args[0], e->args[1]) && expr_equal(c->args[1], e->args[2]);
	bool swapped = expr_equal(c->args[0], e->args[2]) && expr_equal(c->args[1], e->args[1]);
	bool is_min = (same && lt) || (swapped && gt), is_max = (same && gt) || (swapped && lt);
	*x = c->args[0];
	*y = c->args[1];
	return want_min ? is_min : is_max;
}

/* Whether e reads a variable the pass declares (its iterators, its locals). */
static bool reads_pass_var(const Stmt *pass, const Expr *e)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && stmt_declares(pass, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_pass_var(pass, e->args[i]))
			return true;
	return false;
}

/* A host bound of e from above (hi) or below (!hi): e itself, or a side of its min (hi)
 * or max (!hi) that is one. */
static const Expr *host_side(const Expr *e, bool hi)
{
	if (tile_host_expr(e))
		return e;
	const Expr *x, *y;
	if (!min_max_form(e, hi, &x, &y))
		return NULL;
	const Expr *b = host_side(x, hi);
	return b ? b : host_side(y, hi);
}

/* How many consecutive values of j can keep subscript e in a range of n values (NULL:
 * no bound): n for j plus an offset the pass does not change, P n + P - 1 for a quotient
 * by P (P n when it is j / P itself and j is not negative). */
static Expr *index_len(Program *p, const Stmt *pass, const Expr *e, const Var *j, Expr *n, bool j_nonneg)
{
	if (!n) /* the unknown outermost extent of a pointer */
		return NULL;
	if (e->kind == EX_VAR && e->var == j)
		return n;
	if (e->kind == EX_BIN && (e->bop == OP_ADD || e->bop == OP_SUB))
		for (int s = 0; s < 2; s++) {
			const Expr *t = e->args[s], *off = e->args[!s];
			if (s == 1 && e->bop == OP_SUB)
				break; /* off - j */
			if (expr_reads_var(t, j) && !expr_reads_var(off, j)) {
				/* the offset must be the same at every element of the pass */
				if (reads_pass_var(pass, off))
					return NULL;
				return index_len(p, pass, t, j, n, j_nonneg);
			}
		}
	/* j / P, P a positive constant, a size parameter (a page size given at run time:
	 * a size is not negative, and zero would divide by zero in the C as well) or a power
	 * of two 1 << bits (llama.cpp's `t >> page_bits`) */
	const Expr *dv = e->kind == EX_BIN && e->bop == OP_DIV ? e->args[1] : NULL;
	bool shift = dv && dv->kind == EX_BIN && dv->bop == OP_SHL && is_int(dv->args[0], 1) && tile_host_expr(dv->args[1]); /* 1 << page_bits */
	if (dv && ((dv->kind == EX_INT && dv->ival > 0) || (dv->kind == EX_VAR && dv->var->kind == VAR_PARAM && !dv->var->ndim && scalar_is_int(dv->var->ty)) || shift)) {
		Loc l = e->loc;
		Expr *P = ex_copy(p, dv);
		Expr *m = ex_bin(p, OP_MUL, n, P, l);
		if (!(j_nonneg && e->args[0]->kind == EX_VAR && e->args[0]->var == j))
			m = ex_bin(p, OP_ADD, m, dv->kind == EX_INT ? ex_int(p, dv->ival - 1, l) : ex_bin(p, OP_SUB, ex_copy(p, dv), ex_int(p, 1, l), l), l);
		return index_len(p, pass, e->args[0], j, m, j_nonneg);
	}
	return NULL;
}

typedef struct LenBounds {
	Program *p;
	const Stmt *pass;
	const Var *j; /* the element loop's iterator */
	bool j_nonneg;
	bool guarded; /* scanning the body of the element's guard (see len_bounds_stmt) */
	Expr *b[MAX_TILE_VARS];
	int n;
} LenBounds;

/* Whether subscript e is j itself or a quotient of one (j / P, (j / P) / Q): values of
 * j from 0 on. */
static bool plain_index(const Expr *e, const Var *j)
{
	if (e->kind == EX_VAR)
		return e->var == j;
	return e->kind == EX_BIN && e->bop == OP_DIV && !expr_reads_var(e->args[1], j) && plain_index(e->args[0], j);
}

static void add_len_bound(LenBounds *lb, Expr *e)
{
	for (int i = 0; i < lb->n; i++)
		if (expr_equal(lb->b[i], e))
			return;
	if (lb->n < MAX_TILE_VARS)
		lb->b[lb->n++] = e;
}

/* The reads of parameter arrays that evaluating e always makes (not under ?:, &&, ||). */
static void len_bounds_expr(LenBounds *lb, const Expr *e)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM)
		for (int d = 0; d < e->nargs; d++) {
			if (lb->guarded && !plain_index(e->args[d], lb->j))
				continue;
			Expr *n = index_len(lb->p, lb->pass, e->args[d], lb->j, e->var->dims[d], lb->j_nonneg);
			if (n && tile_host_expr(n))
				add_len_bound(lb, n);
		}
	bool lazy = e->kind == EX_COND || (e->kind == EX_BIN && (e->bop == OP_LAND || e->bop == OP_LOR));
	for (int i = 0; i < (lazy ? 1 : e->nargs); i++)
		len_bounds_expr(lb, e->args[i]);
}

/* Whether s has an effect outside itself: an assignment to anything it does not
 * declare (a declaration's value alone is the element's own). */
static bool effectful(const Stmt *s)
{
	if (s->kind == ST_ASSIGN)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && effectful(s->body[i]))
			return true;
	return false;
}

/* ... and that statement s always makes (an if's condition, not its branches). Where the
 * element's body is declarations and one if without else holding all its effects (a
 * `continue` or a window: `if (j >= n - W) {...}`), a key the guard excludes does
 * nothing, and the reads of the guarded body bound the keys that do work: those
 * subscripted by j itself or a quotient of it (0 <= j < L), when the range starts at a
 * constant >= 0, so that the chunks from there cover [0, L). */
static void len_bounds_stmt(LenBounds *lb, const Stmt *s);

static void len_bounds_guarded(LenBounds *lb, Stmt *body)
{
	Stmt *const *st = body->kind == ST_BLOCK ? body->body : &body;
	int n = body->kind == ST_BLOCK ? body->nbody : 1;
	const Stmt *g = NULL;
	for (int i = 0; i < n; i++) {
		if (!effectful(st[i]))
			continue;
		if (g || st[i]->kind != ST_IF || (st[i]->nbody > 1 && st[i]->body[1]))
			return;
		g = st[i];
	}
	if (!g || !lb->j_nonneg)
		return;
	lb->guarded = true;
	len_bounds_stmt(lb, g->body[0]);
	lb->guarded = false;
}

static void len_bounds_stmt(LenBounds *lb, const Stmt *s)
{
	if (!s)
		return;
	switch (s->kind) {
	case ST_BLOCK:
		for (int i = 0; i < s->nbody; i++)
			len_bounds_stmt(lb, s->body[i]);
		break;
	case ST_FOR:
		len_bounds_expr(lb, s->lo);
		len_bounds_expr(lb, s->hi);
		len_bounds_stmt(lb, s->body[0]);
		break;
	case ST_ASSIGN:
		len_bounds_expr(lb, s->lhs);
		len_bounds_expr(lb, s->rhs);
		break;
	case ST_DECL:
		if (s->rhs)
			len_bounds_expr(lb, s->rhs);
		break;
	case ST_IF: len_bounds_expr(lb, s->cond); break;
	}
}

bool split_host_len(Program *p, const Stmt *pass, const Expr *lo, const Expr *hi, Expr **len)
{
	*len = NULL;
	if (tile_host_expr(lo) && tile_host_expr(hi))
		return true;
	LenBounds lb = {.p = p, .pass = pass, .j_nonneg = lo->kind == EX_INT && lo->ival >= 0};
	/* a static bound of the range: hi <= ub, lo >= lb */
	const Expr *ub = host_side(hi, true), *lb0 = host_side(lo, false);
	if (ub && lb0)
		add_len_bound(&lb, lb0->kind == EX_INT && lb0->ival == 0 ? ex_copy(p, ub) : ex_bin(p, OP_SUB, ex_copy(p, ub), ex_copy(p, lb0), hi->loc));
	/* the extents of the arrays every element of the pass reads */
	Stmt *sb = pass->body[0];
	Stmt *const *st = sb->kind == ST_BLOCK ? sb->body : &pass->body[0];
	int nst = sb->kind == ST_BLOCK ? sb->nbody : 1;
	for (int i = 0; i < nst; i++)
		if (st[i]->kind == ST_FOR && st[i]->lo->kind == EX_VAR && st[i]->lo->var == pass->var) {
			lb.j = st[i]->var;
			len_bounds_stmt(&lb, st[i]->body[0]);
			len_bounds_guarded(&lb, st[i]->body[0]);
		}
	if (!lb.n)
		return false;
	*len = lb.b[0];
	for (int i = 1; i < lb.n; i++)
		*len = ex_min(p, *len, lb.b[i], hi->loc);
	return true;
}

/* A search for a ring buffer's modulus: the iterator j, and the modulus found. */
typedef struct RingFind {
	const Var *j;
	const Expr *m;
} RingFind;

/* Finds in e the modulus M of a ring buffer's subscript `(x + j) % M` (j an element loop's
 * iterator, M computed on the host) into rf->m; false (stop) once found (an ExprTest). */
static bool no_ring(const Expr *e, void *ctx)
{
	RingFind *rf = ctx;
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM)
		for (int d = 0; d < e->nargs; d++) {
			const Expr *x = e->args[d];
			if (x->kind == EX_BIN && x->bop == OP_MOD && expr_reads_var(x->args[0], rf->j) && tile_host_expr(x->args[1])) {
				rf->m = x->args[1];
				return false;
			}
		}
	for (int i = 0; i < e->nargs; i++)
		if (!no_ring(e->args[i], ctx))
			return false;
	return true;
}

/* Where no bound of the split axis's length is known on the host (split_host_len) but
 * the pass reads a ring buffer of M slots at (x + j) % M (a circular KV cache: the window
 * is at most the ring in any use that makes sense), the launcher sizes the chunks for a
 * length of M, and the last chunk runs to its row's end: a longer window, legal C, is
 * then still summed whole, by fewer CTAs. false when the pass reads no ring. */
static bool plan_ring_split(TilePlan *tp)
{
	Program *p = tp->c->prog;
	Stmt *sb = tp->step->body[0];
	Stmt *const *st = sb->kind == ST_BLOCK ? sb->body : &tp->step->body[0];
	int nst = sb->kind == ST_BLOCK ? sb->nbody : 1;
	RingFind rf = {NULL, NULL};
	for (int i = 0; i < nst && !rf.m; i++)
		if (st[i]->kind == ST_FOR && st[i]->lo->kind == EX_VAR && st[i]->lo->var == tp->step->var) {
			rf.j = st[i]->var;
			stmt_all_exprs(st[i]->body[0], no_ring, &rf);
		}
	const Expr *m = rf.m;
	if (!m || tp->step->hi->kind != EX_VAR)
		return false;
	for (int k = 0; k < tp->ncta_decls; k++) {
		const Stmt *d = tp->cta_decls[k];
		if (d->var != tp->step->hi->var)
			continue;
		/* j_hi = ch == nchunks - 1 ? hi : (the chunk's end, clipped to hi) */
		Stmt *open = st_new(p, ST_DECL, d->loc);
		*open = *d;
		Loc l = d->loc;
		Expr *last = ex_bin(p, OP_EQ, ex_var(p, tp->split.chunks->var, l),
		                    ex_bin(p, OP_SUB, ex_var(p, tp->split.ndecl->var, l), ex_int(p, 1, l), l), l);
		open->rhs = ex_cond(p, last, ex_copy(p, tp->axis_hi), ex_copy(p, d->rhs), l);
		tp->cta_decls[k] = open;
		tp->axis_len = ex_copy(p, m);
		tp->axis_open = true;
		return true;
	}
	return false;
}

/* Split-k: the chunk kernel's prologue is the row's statements before the split and the
 * chunk's setup, its epilogue the chunk's stores. */
static bool plan_splitk(TilePlan *tp, Stmt *body)
{
	Program *p = tp->c->prog;
	SplitBlock *sb = &tp->split;
	if (!split_block(body, sb)) {
		/* the usual cause: a partial whose row has a run-time width (a projection's N) */
		for (int i = 0; body->kind == ST_BLOCK && i < body->nbody && !tp->why; i++) {
			const Stmt *s = body->body[i];
			for (int d = 1; s->kind == ST_DECL && d < s->var->ndim && !tp->why; d++)
				if (s->var->dims[d]->kind != EX_INT) {
					StrBuf w = {0};
					print_expr(&w, s->var->dims[d]);
					const char *n = s->var->name;
					size_t len = strlen(n);
					if (len > 5 && !strcmp(n + len - 5, "_part"))
						len -= 5; /* the user's accumulator, as the fuser named its partials */
					tp->why = arena_printf(&p->arena, "'%.*s' is a row of run-time width ('%s') summed by chunks: the split-k tiles keep rows of constant width (a head dim, specialised: 64 ... 256, or a #define); "
					                                  "a wider output (a projection after a softmax or a norm) has no tile lowering yet",
					                       (int)len, n, w.s);
					sb_free(&w);
				}
		}
		return false;
	}
	for (int k = 0; k < sb->nparts; k++)
		if (!set_role(tp, sb->parts[k], TR_PART))
			return false;
	Stmt **pro = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(body->nbody + 64));
	for (int i = 0; i < sb->ichunks; i++)
		if (!split_block_decl(sb, body->body[i]))
			pro[tp->npro++] = body->body[i];
	tp->npre = tp->npro;
	Stmt *cb = sb->chunks->body[0];
	if (cb->kind != ST_BLOCK || cb->nbody > 64)
		return false;
	int si = -1;
	for (int i = 0; i < cb->nbody; i++)
		if (cb->body[i]->kind == ST_FOR && cb->body[i]->step > 1) {
			if (si >= 0)
				return false;
			si = i;
		}
	if (si < 0)
		return false;
	/* The chunk's range: integers of the chunk index, the sizes and the CTA's parallel
	 * loops (a length read from an array, `j_hi = min(j_lo + chunk, len[b])`), once per
	 * CTA; tile_plan checks that it does not read the loop whose rows a CTA shares. */
	Var *uniform[MAX_TILE_VARS] = {sb->chunks->var, sb->ndecl->var, sb->cdecl->var};
	int nu = 3;
	for (int g = 0; g < tp->ngrid && nu < MAX_TILE_VARS; g++)
		uniform[nu++] = tp->grid[g].var;
	tp->cta_decls = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)cb->nbody);
	for (int i = 0; i < si; i++) {
		Stmt *s = cb->body[i];
		if (s->kind == ST_DECL && !s->var->ndim && s->var->ty == TY_INT && s->rhs && nu < MAX_TILE_VARS && reads_only(s->rhs, uniform, nu)) {
			tp->cta_decls[tp->ncta_decls++] = s;
			uniform[nu++] = s->var;
		} else {
			pro[tp->npro++] = s;
		}
	}
	tp->pro = pro;
	tp->step = cb->body[si];
	tp->epi = cb->body + si + 1;
	tp->nepi = cb->nbody - si - 1;
	tp->merge = body->body + sb->ichunks + 1;
	tp->nmerge = body->nbody - sb->ichunks - 1;
	/* The launcher sizes the chunks from the axis's range, or from a bound of its length
	 * it can compute where the range is read from an array; each CTA clips its chunk to
	 * its row's range (the cta_decls). */
	tp->axis_lo = tp->c->levels[0]->lo;
	tp->axis_hi = tp->c->levels[0]->hi;
	if (!split_host_len(p, tp->step, tp->axis_lo, tp->axis_hi, &tp->axis_len) && !plan_ring_split(tp)) {
		tp->why = "the split axis's range is read on the device and no array the pass reads at every element bounds its length (the launcher sizes the chunks on the host)";
		return false;
	}
	return true;
}

/* A statement of the merge: row statements, whose loops over an accumulator tile's columns
 * (one column per thread in the merge kernel) write nothing but columns and their own
 * locals. */
static bool check_merge_stmt(TilePlan *tp, const Stmt *s, const Stmt *cl)
{
	const Var *col = cl ? cl->var : NULL;
	switch (s->kind) {
	case ST_BLOCK:
	case ST_IF:
		if (s->cond && !check_row_expr(tp, s->cond, col))
			return false;
		for (int i = 0; i < s->nbody; i++)
			if (s->body[i] && !check_merge_stmt(tp, s->body[i], cl))
				return false;
		return true;
	case ST_DECL:
		if (s->var->ndim && tile_role(tp, s->var) != TR_ROWTILE) {
			tp->why = "the merge declares a local array that is not an accumulator tile";
			return false;
		}
		return !s->rhs || check_row_expr(tp, s->rhs, col);
	case ST_FOR:
		if (!check_row_expr(tp, s->lo, col) || !check_row_expr(tp, s->hi, col))
			return false;
		if (tile_is_col_loop(tp, s)) {
			if (cl || !is_int(s->lo, 0) || !is_int(s->hi, tp->ncols) || s->step != 1) {
				tp->why = "a loop of the merge over an accumulator tile does not cover its whole extent";
				return false;
			}
			cl = s;
		}
		return check_merge_stmt(tp, s->body[0], cl);
	case ST_ASSIGN:
		if (cl && s->lhs->kind == EX_VAR && !stmt_declares(cl->body[0], s->lhs->var)) {
			tp->why = "the merge reduces over an accumulator tile's columns";
			return false;
		}
		return check_row_expr(tp, s->lhs, col) && check_row_expr(tp, s->rhs, col);
	}
	return false;
}

static bool fail(TilePlan *tp, const char **why, const char *msg)
{
	*why = tp->why ? tp->why : msg;
	return false;
}

int tile_stages(const TilePlan *tp, int k) { return tp->pv_one && tp->colop_pv[k] ? 1 : tp->stages; }

/* Bytes of the plan's tiles, rings of index values and row tables. */
static int tiles_bytes(const TilePlan *tp)
{
	int elems = tp->row_parts * tp->bm * tp->kdim;
	for (int k = 0; k < tp->ncolop; k++)
		elems += (tile_stages(tp, k) + (tp->presplit ? tp->tf32 ? 1 : 2 : 0)) * tp->bn * tp->colop_cols[k];
	int bytes = (tp->elem == TY_FLOAT ? 4 : 2) * elems;
	for (int g = 0; g < tp->ngather; g++)
		bytes += tile_index_ring_bytes(tp, g);
	for (int k = 0; k < tp->ncolop; k++)
		for (int part = 0; part < 2; part++)
			if (tile_row_table(tp, k, part))
				bytes += tp->bn * 8; /* a device pointer a row */
	return bytes;
}

bool tile_kt(const TilePlan *tp, int k)
{
	/* a d-major paged value cache read by P.V alone: kept [D][keys] (fx::dot_tile_t) */
	if (tile_t_rows(tp, k) && tp->colop_pv[k]) {
		for (int d = 0; d < tp->ndots; d++)
			if (tp->dots[d].colop == k)
				return false;
		return !tp->colop2[k] && tp->bn % 64 == 0 && tp->elem != TY_FLOAT;
	}
	/* 128 rows, two 16-row tiles a warp: the shape checked on the GPU (H100: wgmma; HIP
	 * through bench/hip_on_cuda). A decode's (16 rows, mma.sync) is not yet. */
	return tp->colop_t[k] && !tp->colop_pv[k] && !tp->colop2[k] && tp->bn % 64 == 0 && tp->bm == 128 && tp->mt == 2;
}

int tile_smem_bytes(const TilePlan *tp) { return tiles_bytes(tp) + (tile_kept_window(tp) ? 2 * TILE_KEPT_WINDOW / 8 : 0); }

/* Where the tiles leave no room for the window (HIP's 64 KB at 128 rows), it would cost
 * half the rows: the steps are tested one by one instead. */
bool tile_kept_window(const TilePlan *tp)
{
	return tp->skip_hidden && tp->skip_cj != 1 && tiles_bytes(tp) + 2 * TILE_KEPT_WINDOW / 8 <= tp->tt->smem_max;
}

/* Whether e (NULL: false) reads one of the plan's gathers. */
static bool reads_gather(const TilePlan *tp, const Expr *e)
{
	if (!e)
		return false;
	for (int g = 0; g < tp->ngather; g++)
		if (expr_equal(e, tp->gather[g]))
			return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_gather(tp, e->args[i]))
			return true;
	return false;
}

bool tile_row_table(const TilePlan *tp, int k, int part)
{
	return (!tp->colop_t[k] || tile_t_rows(tp, k)) && tp->colop[k]->kind != EX_COND && reads_gather(tp, part ? tp->colop2[k] : tp->colop[k]);
}

int tile_index_ring_bytes(const TilePlan *tp, int g)
{
	return (TILE_INDEX_RING * tp->bn * scalar_size(tp->gather[g]->ty) + 15) / 16 * 16;
}

/* Adds to tp->gather the outermost reads in e of a read-only int array, 4 or 8 bytes an
 * element (what an asynchronous copy moves), at subscripts that move with the key index
 * and not with k (one value per row of a tile). */
static void find_gathers(TilePlan *tp, const Expr *e)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->var->is_const && scalar_is_int(e->ty) && (scalar_size(e->ty) == 4 || scalar_size(e->ty) == 8) &&
	    expr_reads_var(e, tp->jc) && !expr_reads_var(e, tp->kc)) {
		for (int g = 0; g < tp->ngather; g++)
			if (expr_equal(tp->gather[g], e))
				return;
		if (tp->ngather < MAX_OPERANDS)
			tp->gather[tp->ngather++] = (Expr *)e;
		return;
	}
	for (int i = 0; i < e->nargs; i++)
		find_gathers(tp, e->args[i]);
}

/* The column operands' row addresses read through index arrays (tp->gather), read ahead
 * where the tiles are loaded asynchronously (two stages) and the rings fit; a transposed
 * operand is loaded column by column and keeps its reads. */
static void plan_gathers(TilePlan *tp)
{
	if (tp->stages != 2)
		return;
	/* (a pick between two sources reads its index arrays only where its condition holds:
	 * its rows' pointers are computed as its tiles are loaded) */
	for (int k = 0; k < tp->ncolop; k++)
		if ((!tp->colop_t[k] || tile_t_rows(tp, k)) && tp->colop[k]->kind != EX_COND) {
			find_gathers(tp, tp->colop[k]);
			if (tp->colop2[k])
				find_gathers(tp, tp->colop2[k]);
		}
	if (tile_smem_bytes(tp) > tp->tt->smem_max)
		tp->ngather = 0;
}

/* min (want_min) or max of int bounds a and b, either NULL (unbounded): NULL when both are,
 * or (keep_one) the other when one is; with !keep_one, NULL when either is. */
static Expr *bound_join(Program *p, Expr *a, Expr *b, bool want_min, bool keep_one, Loc loc)
{
	if (!a || !b)
		return keep_one ? (a ? a : b) : NULL;
	if (expr_equal(a, b))
		return a;
	return ex_cond(p, ex_bin(p, want_min ? OP_LT : OP_GT, a, b, loc), ex_copy(p, a), ex_copy(p, b), loc);
}

/* How an int expression changes with the row iterator: not at all, never down, never up,
 * or either way (a clamp of an increasing and a decreasing expression, a product). */
typedef enum Mono { MONO_CONST, MONO_UP, MONO_DOWN, MONO_NOT } Mono;

static Mono mono_join(Mono a, Mono b)
{
	if (a == MONO_CONST)
		return b;
	if (b == MONO_CONST || a == b)
		return a;
	return MONO_NOT;
}

static Mono mono_flip(Mono a) { return a == MONO_UP ? MONO_DOWN : a == MONO_DOWN ? MONO_UP : a; }

/* Whether int expression e is b + c for a constant c (*c gets it). */
static bool offset_of(const Expr *e, const Expr *b, long long *c)
{
	*c = 0;
	if (expr_equal(e, b))
		return true;
	if (e->kind != EX_BIN || (e->bop != OP_ADD && e->bop != OP_SUB))
		return false;
	if (e->args[1]->kind == EX_INT && expr_equal(e->args[0], b)) {
		*c = e->bop == OP_ADD ? e->args[1]->ival : -e->args[1]->ival;
		return true;
	}
	if (e->bop == OP_ADD && e->args[0]->kind == EX_INT && expr_equal(e->args[1], b)) {
		*c = e->args[0]->ival;
		return true;
	}
	return false;
}

/* Whether e is a - b plus a constant (*c), as written: `i - W + 1` for i and W. */
static bool diff_offset(const Expr *e, const Expr *a, const Expr *b, long long *c)
{
	*c = 0;
	if (e->kind == EX_BIN && (e->bop == OP_ADD || e->bop == OP_SUB) && e->args[1]->kind == EX_INT) {
		*c = e->bop == OP_ADD ? e->args[1]->ival : -e->args[1]->ival;
		e = e->args[0];
	}
	return e->kind == EX_BIN && e->bop == OP_SUB && expr_equal(e->args[0], a) && expr_equal(e->args[1], b);
}

/* Whether e, `L op R ? x : y` over ints, is the min or the max of x and y: x and y are L
 * and R plus constants that agree with the comparison (`i + W < N ? i + W + 1 : N` is
 * min(i + W + 1, N), `a < b ? a : b` min(a, b)). With the condition as D = L - R < t
 * (t = 1 for <=; > and >= swap L and R) and k the difference of the constants: x = L +
 * cx, y = R + cy is the min when -t <= k <= 1 - t; x = R + cx, y = L + cy the max when
 * t - 1 <= k <= t. */
static bool min_or_max(const Expr *e)
{
	const Expr *c = e->args[0];
	if (c->kind == EX_BIN && ((expr_equal(c->args[0], e->args[1]) && expr_equal(c->args[1], e->args[2])) ||
	                          (expr_equal(c->args[0], e->args[2]) && expr_equal(c->args[1], e->args[1]))))
		return true; /* the arms are the operands (any comparison picks one of them) */
	if (c->kind != EX_BIN || (c->bop != OP_LT && c->bop != OP_LE && c->bop != OP_GT && c->bop != OP_GE) || !scalar_is_int(c->args[0]->ty) ||
	    !scalar_is_int(c->args[1]->ty))
		return false;
	bool swap = c->bop == OP_GT || c->bop == OP_GE;
	const Expr *L = c->args[swap], *R = c->args[!swap];
	long long t = c->bop == OP_LE || c->bop == OP_GE, cx, cy;
	if (offset_of(e->args[1], L, &cx) && offset_of(e->args[2], R, &cy))
		return -t <= cx - cy && cx - cy <= 1 - t;
	if (offset_of(e->args[1], R, &cx) && offset_of(e->args[2], L, &cy))
		return t - 1 <= cx - cy && cx - cy <= t;
	/* `i >= W ? i - W + 1 : 0` (a window's start, max(i - W + 1, 0)): one arm the
	 * comparison's difference P = A - B as written plus cx, the other a constant cy; the
	 * arm P + cx is picked where P op 0, which agrees with max or min(P + cx, cy) when
	 * k = cx - cy is in {0, 1} for >= and <, in {-1, 0} for > and <= */
	const Expr *A = c->args[0], *B = c->args[1], *x = e->args[1], *y = e->args[2];
	BinOp op = c->bop;
	if (!diff_offset(x, A, B, &cx) || y->kind != EX_INT) {
		if (!diff_offset(y, A, B, &cx) || x->kind != EX_INT)
			return false;
		y = x; /* the constant arm is picked where P op 0 holds: P + cx where it does not */
		op = op == OP_LT ? OP_GE : op == OP_LE ? OP_GT : op == OP_GT ? OP_LE : OP_LT;
	}
	long long k = cx - y->ival;
	return op == OP_GE || op == OP_LT ? k == 0 || k == 1 : k == -1 || k == 0;
}

static Mono monotone_in(const Expr *e, const Var *row)
{
	if (!expr_reads_var(e, row))
		return MONO_CONST;
	switch (e->kind) {
	case EX_VAR: return MONO_UP;
	case EX_CAST: return monotone_in(e->args[0], row);
	case EX_UN: return e->uop == UOP_NEG ? mono_flip(monotone_in(e->args[0], row)) : MONO_NOT;
	case EX_BIN:
		switch (e->bop) {
		case OP_ADD: return mono_join(monotone_in(e->args[0], row), monotone_in(e->args[1], row));
		case OP_SUB: return mono_join(monotone_in(e->args[0], row), mono_flip(monotone_in(e->args[1], row)));
		case OP_MUL:
		case OP_DIV:
			/* (x / P) * P, x rounded toward zero to a multiple of P, never goes down as x
			 * goes up, whatever P's sign (a chunk's start) */
			if (e->bop == OP_MUL && e->args[0]->kind == EX_BIN && e->args[0]->bop == OP_DIV && expr_equal(e->args[0]->args[1], e->args[1]) &&
			    !expr_reads_var(e->args[1], row))
				return monotone_in(e->args[0]->args[0], row);
			/* by a constant: its sign decides */
			if (e->args[1]->kind == EX_INT)
				return e->args[1]->ival >= 0 ? monotone_in(e->args[0], row) : mono_flip(monotone_in(e->args[0], row));
			if (e->bop == OP_MUL && e->args[0]->kind == EX_INT)
				return e->args[0]->ival >= 0 ? monotone_in(e->args[1], row) : mono_flip(monotone_in(e->args[1], row));
			return MONO_NOT;
		default: return MONO_NOT;
		}
	case EX_COND:
		/* a min or max of two monotone expressions of one direction is monotone */
		if (expr_reads_var(e->args[0], row) && !min_or_max(e))
			return MONO_NOT;
		return mono_join(monotone_in(e->args[1], row), monotone_in(e->args[2], row));
	default: return MONO_NOT;
	}
}

/* The scalar locals s writes (its declarations with a value, its assignments). */
static void scalar_writes(const Stmt *s, Var **out, int *n)
{
	if (!s)
		return;
	Var *x = s->kind == ST_DECL && s->rhs ? s->var : s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR ? s->lhs->var : NULL;
	bool seen = false;
	for (int k = 0; x && k < *n; k++)
		seen |= out[k] == x;
	if (x && !x->ndim && !seen && *n < MAX_TILE_VARS)
		out[(*n)++] = x;
	for (int i = 0; i < s->nbody; i++)
		scalar_writes(s->body[i], out, n);
}

/* Whether e reads v, directly or through a scalar that the row's statements before the
 * pass compute from it (`const int kvh = h / (H / KVH);` read by k_cache[..][kvh]): a
 * column operand that does cannot be shared by v's rows. */
static bool reads_through_pro(const TilePlan *tp, const Expr *e, Var *v)
{
	Var *dep[MAX_TILE_VARS] = {v};
	int n = 1;
	for (int grown = 1; grown;) {
		grown = 0;
		for (int i = 0; i < tp->npro; i++) {
			bool reads = false;
			for (int k = 0; k < n && !reads; k++)
				reads = stmt_reads_var(tp->pro[i], dep[k]);
			int was = n;
			if (reads)
				scalar_writes(tp->pro[i], dep, &n);
			grown |= n > was;
		}
	}
	for (int k = 0; k < n; k++)
		if (expr_reads_var(e, dep[k]))
			return true;
	return false;
}

/* Whether e reads a scalar local that the pass writes (a per-key value: `blk =
 * bt[b][t / BS];` that could not be read through its definition). The tile loaders
 * address an operand from the loops alone, outside the pass's statements, where such a
 * local is not declared. */
static bool reads_pass_local(const TilePlan *tp, const Expr *e)
{
	if (e->kind == EX_VAR && e->var->kind == VAR_LOCAL && !e->var->ndim && stmt_writes_var(tp->step, e->var))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_pass_local(tp, e->args[i]))
			return true;
	return false;
}

/* Split-k whose axis ends per row (speculative decoding's verify: draft t sees the keys
 * j < past[b] + t + 1): the chunks split the range of the CTAs' widest row, the end at
 * the row loop's extreme (its last row for an end that grows with the row), and each row
 * keeps its own end as a bound of its elements (returned, for mask_hi). NULL when the
 * start depends on the row too, or the end is not monotone in it. */
static Expr *split_by_row(TilePlan *tp)
{
	Program *p = tp->c->prog;
	const GridLoop *g = &tp->grid[tp->rowdim];
	Mono mo = monotone_in(tp->axis_hi, g->var);
	if (expr_reads_var(tp->axis_lo, g->var) || (mo != MONO_UP && mo != MONO_DOWN) || !scalar_is_int(tp->axis_hi->ty))
		return NULL;
	Expr *widest = mo == MONO_UP ? ex_bin(p, OP_SUB, ex_copy(p, g->hi), ex_int(p, 1, g->hi->loc), g->hi->loc) : ex_copy(p, g->lo);
	for (int k = 0; k < tp->ncta_decls; k++) {
		Stmt *d = st_new(p, ST_DECL, tp->cta_decls[k]->loc);
		*d = *tp->cta_decls[k];
		d->rhs = expr_subst_expr(p, d->rhs, g->var, widest);
		tp->cta_decls[k] = d;
	}
	return tp->axis_hi->ty == TY_INT ? ex_copy(p, tp->axis_hi) : ex_cast(p, TY_INT, ex_copy(p, tp->axis_hi), tp->axis_hi->loc);
}

/* Whether subscript e is the row iterator i, or `off + i` with off a value read from
 * arrays (a packed batch's q[cu[s] + i]): either way i stays below the dimension's
 * extent, since offsets are not negative (the caller's contract for index arrays). */
static bool row_subscript(const Expr *e, const Var *i)
{
	if (e->kind == EX_VAR)
		return e->var == i;
	if (e->kind != EX_BIN || e->bop != OP_ADD)
		return false;
	for (int side = 0; side < 2; side++) {
		const Expr *x = e->args[side], *off = e->args[1 - side];
		if (x->kind == EX_VAR && x->var == i && !expr_reads_var(off, i) && expr_reads_element(off))
			return true;
	}
	return false;
}

/* Whether s, a statement of the epilogue, runs a store to `a[..][x][..]` (x equal to
 * sub, the other subscripts reading neither seq nor the row) every time the epilogue
 * runs: at its top, or in loops of constant bounds that run at least once. */
static bool stores_at(const TilePlan *tp, const Stmt *s, const Expr *sub, Var *seq)
{
	if (s->kind == ST_FOR)
		return s->lo->kind == EX_INT && s->hi->kind == EX_INT && s->lo->ival < s->hi->ival && stores_at(tp, s->body[0], sub, seq);
	if (s->kind == ST_BLOCK) {
		for (int i = 0; i < s->nbody; i++)
			if (stores_at(tp, s->body[i], sub, seq))
				return true;
		return false;
	}
	if (s->kind != ST_ASSIGN || s->lhs->kind != EX_INDEX || s->lhs->var->kind != VAR_PARAM)
		return false;
	int at = -1;
	for (int d = 0; d < s->lhs->nargs; d++) {
		const Expr *x = s->lhs->args[d];
		if (at < 0 && expr_equal(x, sub))
			at = d;
		else if (reads_through_pro(tp, x, seq) || reads_through_pro(tp, x, tp->grid[tp->rowdim].var))
			return false;
	}
	return at >= 0;
}

/* Packed rows (tile.h, pack), where the row loop's end is read per CTA and rows_host
 * bounds it through the row operand's subscript d: that subscript is `off + i` with off
 * read per value of one other parallel loop, seq (q[cu[s] + i]), and the epilogue stores
 * every row at that same subscript, its other subscripts reading neither seq nor the row
 * (o[cu[s] + i][h][d]). The loops being parallel, no two (seq, i) of the same other
 * coordinates store the same element, so their values of cu[s] + i are distinct, and
 * each lies in the row operand's extent: the rows of all sequences together are at most
 * rows_host. Returns seq's index in the grid, -1 if there is none. */
static int packed_seq(const TilePlan *tp, int d)
{
	const Expr *sub = tp->rowop->args[d];
	int seq = -1;
	for (int g = 0; g < tp->ngrid; g++) {
		if (g == tp->rowdim || !reads_through_pro(tp, sub, tp->grid[g].var))
			continue;
		if (seq >= 0)
			return -1;
		seq = g;
	}
	if (seq < 0)
		return -1;
	for (int i = 0; i < tp->nepi; i++)
		if (stores_at(tp, tp->epi[i], sub, tp->grid[seq].var))
			return seq;
	return -1;
}

/* An int parameter of f that nothing reads (no region, set-up statement or extent):
 * the row count a caller passes beside pointers (`int total`), or NULL. */
static const Var *unused_size(const Func *f)
{
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		bool used = v->ndim || v->ty != TY_INT;
		for (int k = 0; k < f->nregions && !used; k++)
			used = stmt_reads_var(f->regions[k]->loop, v);
		for (int k = 0; k < f->nsetup && !used; k++)
			used = stmt_reads_var(f->setup[k], v);
		for (int k = 0; k < f->nparams && !used; k++) {
			const Var *a = f->params[k];
			used = a->flat_extent && expr_reads_var(a->flat_extent, v);
			for (int d = 0; d < a->ndim && !used; d++)
				used = a->dims[d] && expr_reads_var(a->dims[d], v);
		}
		if (!used)
			return v;
	}
	return NULL;
}

/* Why the row loop's end (read per CTA) has no host bound, and the declaration that
 * gives one: the row operand declared with its size, its outermost extent the rows of
 * every sequence together (`q[total * H * 128]`), which the launcher counts the row
 * tiles by (packed rows: cu[S] for `i < cu[s + 1] - cu[s]`, s < S). */
static const char *rows_extent_why(const TilePlan *tp, const Var *iv)
{
	const Var *q = tp->rowop->var;
	const GridLoop *gr = &tp->grid[tp->rowdim];
	const Var *total = unused_size(tp->region->fn);
	StrBuf b = {0};
	sb_printf(&b, "the end of the row loop '%s' is read per CTA and no array extent bounds it on the host", iv->name);
	int d = 0;
	while (d < tp->rowop->nargs && !row_subscript(tp->rowop->args[d], iv))
		d++;
	if (d != 0 || q->dims[0] || !q->flat) {
		const char *s = arena_printf(&tp->c->prog->arena, "%s", b.s);
		sb_free(&b);
		return s;
	}
	sb_printf(&b, ": declare '%s' with its size, as '%s%s %s[%s", q->name, q->is_const ? "const " : "", q->ctype ? q->ctype : scalar_type_c(q->ty), q->name,
	          total ? total->name : "TOTAL");
	for (int k = 1; k < q->ndim; k++) {
		sb_puts(&b, " * ");
		print_expr(&b, q->dims[k]);
	}
	sb_puts(&b, "]'");
	/* the packed batch's rows end at cu[S]: i < cu[s + 1] - cu[s] over s < S */
	const Expr *hi = gr->hi;
	while (hi->kind == EX_CAST)
		hi = hi->args[0];
	const char *end = NULL;
	for (int g = 0; g < tp->ngrid && !end; g++) {
		const GridLoop *gs = &tp->grid[g];
		if (g == tp->rowdim || hi->kind != EX_BIN || hi->bop != OP_SUB || hi->args[1]->kind != EX_INDEX || hi->args[1]->var->ndim != 1 ||
		    hi->args[1]->args[0]->kind != EX_VAR || hi->args[1]->args[0]->var != gs->var || !(gs->lo->kind == EX_INT && !gs->lo->ival))
			continue;
		StrBuf e = {0};
		print_expr(&e, gs->hi);
		end = arena_printf(&tp->c->prog->arena, "%s[%s]", hi->args[1]->var->name, e.s);
		sb_free(&e);
	}
	if (total)
		sb_printf(&b, " (%s: the rows of all sequences together%s%s%s)", total->name, end ? ", " : "", end ? end : "", end ? " or more" : "");
	else
		sb_printf(&b, ", with TOTAL a new int parameter, the rows of all sequences together%s%s%s", end ? " (" : "", end ? end : "", end ? " or more)" : "");
	sb_puts(&b, ": the launcher counts the row tiles from that size");
	const char *s = arena_printf(&tp->c->prog->arena, "%s", b.s);
	sb_free(&b);
	return s;
}

StrVec *tile_names(const Region *r)
{
	Cascade *c = fuse_cascade_of(r);
	StrVec *names = NEW(&c->prog->arena, StrVec);
	vec_push(*names, r->fn->name);
	for (int i = 0; i < func_nkparams(r->fn); i++)
		vec_push(*names, func_kparam(r->fn, i)->name);
	add_names(r->loop, names);
	return c->names = names;
}

static bool is_zero(const Expr *e)
{
	while (e->kind == EX_CAST)
		e = e->args[0];
	return (e->kind == EX_FLT && e->fval == 0) || (e->kind == EX_INT && e->ival == 0);
}

/* Whether prologue statement s leaves accumulator v zero where it writes it: v's
 * declaration with no initialiser (or a zero one), or a loop setting its elements to 0. */
static bool leaves_zero(const Stmt *s, const Var *v)
{
	if (s->kind == ST_DECL)
		return s->var != v || !s->rhs || is_zero(s->rhs);
	if (!stmt_writes_var(s, v))
		return true;
	if (s->kind != ST_FOR)
		return false;
	const Stmt *a = single(s->body[0]);
	return a->kind == ST_ASSIGN && a->aop == AS_SET && a->lhs->kind == EX_INDEX && a->lhs->var == v && a->lhs->nargs == 1 &&
	       a->lhs->args[0]->kind == EX_VAR && a->lhs->args[0]->var == s->var && is_zero(a->rhs) && !expr_reads_var(a->rhs, v);
}

/* Whether the P.V accumulators may hold their sums scaled by a per-row power of two that
 * changes from step to step (pscale): each starts at zero (scaling zero changes
 * nothing, so the first exponent may be any), and within a step only the products touch
 * it (a row statement would see the scaled value). */
static bool pscale_fits(const TilePlan *tp)
{
	Stmt *sb = tp->step->body[0];
	Stmt **steps = sb->kind == ST_BLOCK ? sb->body : &sb;
	int nsteps = sb->kind == ST_BLOCK ? sb->nbody : 1;
	for (int k = 0; k < tp->nvars; k++) {
		if (tp->roles[k] != TR_ROWTILE)
			continue;
		for (int i = 0; i < tp->npro; i++)
			if (!leaves_zero(tp->pro[i], tp->vars[k]))
				return false;
	}
	for (int i = 0; i < nsteps; i++)
		if (!tile_is_elem_loop(tp, steps[i]) && tile_touches_rowtile(tp, steps[i]))
			return false;
	return true;
}

/* Whether fp32 column tiles can be split once per step into shared tf32 planes (tile.h,
 * presplit) for the plan's shapes: the target does it, steps of 32 keys (the transposed
 * planes of a P.V operand are rows of 32 fp32 keys, one 128-byte swizzled slab), each
 * operand read by one kind of product (dots read the planes as stored, P.V transposed),
 * and the planes fit next to the row tile without fewer rows per CTA (D = 128: 160 KB;
 * not D = 192 or 256, where the old split per warp keeps 128 rows). */
static bool presplit_fits(TilePlan *tp)
{
	if (!tp->tt->presplit || tp->bn != 32 || tp->row_parts != 1)
		return false;
	for (int k = 0; k < tp->ncolop; k++) {
		bool dot = false;
		for (int d = 0; d < tp->ndots; d++)
			dot |= tp->dots[d].colop == k;
		if (tp->colop_t[k] || dot == tp->colop_pv[k])
			return false;
	}
	tp->presplit = true;
	bool fits = tile_smem_bytes(tp) <= tp->tt->smem_max;
	tp->presplit = false;
	return fits;
}


/* Whether V's tile should have one stage (tile.h pv_one): two stages of every column tile
 * keep an SM to one CTA and one of V's lets it hold two; prefill's row tiles only (a
 * decode's 16 rows at D = 256 would qualify too, not measured). A CTA's 1 KB of reserved shared
 * memory counts; the registers (up to 255 a thread) hold two CTAs of 128 threads, not of
 * 256. V is the one operand of the P.V products, read by no q.k product (an absorbed MLA's
 * kv tile is both), loaded by cp.async (not transposed) from its own rows (no gathers,
 * whose row pointers are computed for the step that loads every tile). */
static bool pv_one_fits(TilePlan *tp)
{
	enum { RESERVED = 1024 };
	if (tp->stages != 2 || tp->bm < 64 || tp->threads > 128 || tp->ngather || tp->presplit || 2 * (tile_smem_bytes(tp) + RESERVED) <= tp->tt->smem_sm)
		return false;
	int v = -1;
	for (int k = 0; k < tp->ncolop; k++)
		if (tp->colop_pv[k]) {
			if (v >= 0)
				return false;
			v = k;
		}
	if (v < 0 || tp->colop_t[v])
		return false;
	for (int d = 0; d < tp->ndots; d++)
		if (tp->dots[d].colop == v)
			return false;
	tp->pv_one = true;
	bool fits = 2 * (tile_smem_bytes(tp) + RESERVED) <= tp->tt->smem_sm;
	tp->pv_one = false;
	return fits;
}

/* tile_plan, with rows (when not 0) as the row tile where the schedule gives none. */
static bool plan(TilePlan *tp, const Region *r, const TileTarget *tt, int rows, const char **why)
{
	memset(tp, 0, sizeof *tp);
	tp->kernel = "";
	tp->region = r;
	tp->tt = tt;
	tp->c = fuse_cascade_of(r);
	if (!tp->c)
		return fail(tp, why, "no reduction to fuse");
	/* a count is one value per row, added across the lanes that share the row: the tiles'
	 * row roles are floats (TR_ROW), not yet integers */
	for (int a = 0; a < tp->c->naccums; a++)
		if (scalar_is_int(tp->c->accums[a].var->ty))
			return fail(tp, why, arena_printf(&tp->c->prog->arena, "the integer count '%s' in the pass (the tiles keep their per-row values in float: make it a float to get them)", tp->c->accums[a].var->name));
	Program *p = tp->c->prog;
	tp->names = tile_names(r);
	Stmt *body = grid_loops(r, tp->grid, &tp->ngrid);
	int inner = -1;
	if (body->kind == ST_FOR && body->step == 1 && tp->ngrid < MAX_GRID - 1) {
		/* A loop over rows between the grid and the row (GQA decode's group, under
		 * splitk or rolling): its rows share the columns when its iterations are
		 * independent. */
		if (!tile_independent_loop(r, body))
			return fail(tp, why, "a loop between the parallel loops and the row carries a dependence");
		inner = tp->ngrid;
		tp->grid[tp->ngrid++] = (GridLoop){body->var, body->lo, body->hi, 0};
		body = single(body->body[0]);
	}
	if (tp->c->strategy == STRAT_SPLITK) {
		tp->splitk = true;
		if (!plan_splitk(tp, body))
			return fail(tp, why, "split-k of this shape");
	} else {
		if (body->kind != ST_BLOCK)
			return fail(tp, why, "the row is a single statement");
		int si = -1;
		for (int i = 0; i < body->nbody; i++)
			if (body->body[i]->kind == ST_FOR && body->body[i]->step > 1) {
				if (si >= 0)
					return fail(tp, why, "the row makes two passes");
				si = i;
			}
		if (si < 0)
			return fail(tp, why, "no tiled pass in the row");
		tp->step = body->body[si];
		tp->pro = body->body;
		tp->npro = si;
		tp->epi = body->body + si + 1;
		tp->nepi = body->nbody - si - 1;
	}
	tp->bn = (int)tp->step->step;
	if (tp->bn % 16 || tp->bn > 128)
		return fail(tp, why, "the pass's tile is not a multiple of 16 up to 128");
	tp->jc = var_new(p, VAR_LOOP, "j", TY_INT, tp->step->loc);
	tp->kc = var_new(p, VAR_LOOP, "k", TY_INT, tp->step->loc);
	for (int i = 0; i < tp->npro; i++)
		if (tp->pro[i]->kind == ST_DECL && !tp->pro[i]->var->ndim && !set_role(tp, tp->pro[i]->var, TR_ROW))
			return fail(tp, why, "");
	Stmt *sb = tp->step->body[0];
	Stmt **steps = sb->kind == ST_BLOCK ? sb->body : &sb;
	int nsteps = sb->kind == ST_BLOCK ? sb->nbody : 1;
	for (int i = 0; i < nsteps; i++) {
		Stmt *s = steps[i];
		if (!tile_is_elem_loop(tp, s))
			continue;
		distribute_guards(tp->c, s, tp->step);
		Stmt *eb = s->body[0];
		if (!(eb->kind == ST_BLOCK ? scan_elem_stmts(tp, eb->body, eb->nbody, s->var, true) : scan_elem_stmts(tp, &eb, 1, s->var, true)))
			return fail(tp, why, "a statement of the pass has no tile form");
	}
	if (!tp->ndots)
		return fail(tp, why, "no product of a row operand with a column operand over the pass");
	if (!operand_types(tp))
		return fail(tp, why, "");
	if (tp->kdim % 8 || tp->kdim > TILE_MAX_WIDTH || (tp->ncols && (tp->ncols % 8 || tp->ncols > TILE_MAX_WIDTH))) {
		/* say which extent, and how: a user with a head dim past the limit must not read
		 * "not a multiple of 8" */
		bool q_bad = tp->kdim % 8 || tp->kdim > TILE_MAX_WIDTH;
		int e = q_bad ? tp->kdim : tp->ncols;
		tp->why = arena_printf(&p->arena, "the %s product is %d wide: the tiles take widths that are multiples of 8 up to %d%s", q_bad ? "row operand's" : "second (P.V)", e,
		                       TILE_MAX_WIDTH, e > TILE_MAX_WIDTH ? " (a wider head has no tile kernel yet)" : "");
		return fail(tp, why, "");
	}
	for (int i = 0; i < nsteps; i++)
		if (!tile_is_elem_loop(tp, steps[i]) && !check_row_stmt(tp, steps[i], NULL, false))
			return fail(tp, why, "");
	for (int i = 0; i < tp->npro; i++) {
		if (!check_row_stmt(tp, tp->pro[i], NULL, true))
			return fail(tp, why, "");
		const Var *w = stored_param(tp->pro[i]);
		if (w && stmt_reads_var(tp->region->loop, w)) {
			/* the threads that share a row would each update it (a zero tail stored
			 * alike by each is harmless), after the row operand's tile was loaded from
			 * what it held before */
			tp->why = arena_printf(&p->arena, "a statement before the pass stores into the input '%s'", w->name);
			return fail(tp, why, "");
		}
	}
	for (int i = 0; i < tp->nepi; i++)
		if (!check_row_stmt(tp, tp->epi[i], NULL, false))
			return fail(tp, why, "");
	for (int i = 0; i < tp->nmerge; i++)
		if (!check_merge_stmt(tp, tp->merge[i], NULL))
			return fail(tp, why, "");
	for (int k = -1; k < tp->ncolop; k++)
		for (int part = 0; part < 2; part++) {
			const Expr *op = k < 0 ? (part ? tp->rowop2 : tp->rowop) : part ? tp->colop2[k] : tp->colop[k];
			if (op && reads_pass_local(tp, op))
				return fail(tp, why, arena_printf(&p->arena, "'%s' is read at a local the pass computes (define that local once, from loop iterators, parameters and const index arrays, so that fusecc can read '%s' through its definition)", op->var->name, op->var->name));
		}
	/* The rows a CTA shares: the innermost parallel loop the row operand reads and no
	 * column operand does (i for prefill, the group for GQA decode). Without one (decode's
	 * single query row) it gets a row loop of one row. */
	tp->rowdim = -1;
	tp->pack = -1;
	for (int g = 0; g < tp->ngrid; g++) {
		bool shared = expr_reads_var(tp->rowop, tp->grid[g].var);
		for (int k = 0; k < tp->ncolop; k++)
			shared &= !reads_through_pro(tp, tp->colop[k], tp->grid[g].var) && !(tp->colop2[k] && reads_through_pro(tp, tp->colop2[k], tp->grid[g].var));
		if (shared && (inner < 0 || g == inner))
			tp->rowdim = g;
	}
	/* A loop inside the parallel ones whose rows do not share the columns (heads inside
	 * the key loop's row, each with its own keys: `for (h) { m[h] ... }` under parallel(b,
	 * i)) is one more parallel loop, the rows a CTA shares those of an outer one. */
	if (tp->rowdim < 0 && inner >= 0) {
		for (int g = 0; g < inner; g++) {
			bool shared = expr_reads_var(tp->rowop, tp->grid[g].var);
			for (int k = 0; k < tp->ncolop; k++)
				shared &= !reads_through_pro(tp, tp->colop[k], tp->grid[g].var) && !(tp->colop2[k] && reads_through_pro(tp, tp->colop2[k], tp->grid[g].var));
			if (shared)
				tp->rowdim = g;
		}
		if (tp->rowdim >= 0)
			inner = -1;
	}
	if (tp->rowdim < 0 && inner >= 0)
		return fail(tp, why, "the row operand does not vary along the loop inside the parallel loops");
	if (tp->rowdim < 0 && tp->ngrid == MAX_GRID)
		return fail(tp, why, "no parallel loop whose rows share the column operands, and no room for a row loop of one row");
	if (tp->rowdim < 0) {
		tp->row_made = true;
		tp->rowdim = tp->ngrid;
		tp->grid[tp->ngrid++] = (GridLoop){fresh_var(tp->c, "row", TY_INT, VAR_LOOP), ex_int(p, 0, r->loop->loc), ex_int(p, 1, r->loop->loc), 0};
	}
	const Var *iv = tp->grid[tp->rowdim].var;
	Expr *row_hi = NULL;
	for (int k = 0; k < tp->ncta_decls && !row_hi; k++)
		if (expr_reads_var(tp->cta_decls[k]->rhs, iv) && !(row_hi = split_by_row(tp)))
			return fail(tp, why, "the split's chunk range depends on the row loop");
	for (int g = 0; g < tp->ngrid; g++)
		if (g != tp->rowdim && (expr_reads_var(tp->grid[g].lo, iv) || expr_reads_var(tp->grid[g].hi, iv)))
			return fail(tp, why, "a parallel loop's bounds depend on the row loop");
	/* The launcher counts the CTAs of every other parallel loop on the host (only the
	 * row loop's end may be bounded by an extent, below). */
	for (int g = 0; g < tp->ngrid; g++)
		if (g != tp->rowdim && (!tile_host_expr(tp->grid[g].lo) || !tile_host_expr(tp->grid[g].hi)))
			return fail(tp, why, arena_printf(&p->arena, "the bounds of the parallel loop '%s' are read per CTA, and only the rows' loop ('%s') may have such bounds", tp->grid[g].var->name, iv->name));
	/* The launcher counts the row tiles on the host. An end it cannot compute (i < len[b],
	 * per sequence) is bounded by the extent of the row operand's dimension the row
	 * indexes (q[b][h][N][D]: N), which every row reads; each CTA clips its rows to its
	 * own end. */
	const GridLoop *gr = &tp->grid[tp->rowdim];
	if (!tile_host_expr(gr->lo))
		return fail(tp, why, arena_printf(&p->arena, "the start of the row loop '%s' is not known on the host", iv->name));
	if (!tile_host_expr(gr->hi)) {
		for (int d = 0; d < tp->rowop->nargs && !tp->rows_host; d++)
			if (row_subscript(tp->rowop->args[d], iv) && tp->rowop->var->dims[d] && tile_host_expr(tp->rowop->var->dims[d])) {
				tp->rows_host = tp->rowop->var->dims[d];
				tp->pack = packed_seq(tp, d);
			}
		if (!tp->rows_host || tp->splitk)
			return fail(tp, why, tp->splitk ? arena_printf(&p->arena, "the end of the row loop '%s' is read per CTA and no array extent bounds it on the host", iv->name) : rows_extent_why(tp, iv));
	}
	for (int k = 0; k < tp->nvars; k++)
		if (tp->roles[k] == TR_ROW && (expr_reads_var(tp->step->lo, tp->vars[k]) || expr_reads_var(tp->step->hi, tp->vars[k])))
			return fail(tp, why, "the pass's bounds depend on a per-row value");
	/* a group loop (inner) has few rows, GQA's G query heads per KV head, unless the pass
	 * runs over as many keys or by the row (prefill's rows, r % N of a flat row loop
	 * regrouped by heads.c) */
	bool few = inner >= 0 && !expr_reads_var(tp->step->lo, iv) && !expr_reads_var(tp->step->hi, iv) && !expr_equal(tp->step->hi, tp->grid[inner].hi);
	tp->bm = tp->grid[tp->rowdim].tile ? (int)tp->grid[tp->rowdim].tile : rows ? rows : tp->splitk || tp->row_made || few ? 16 : 128;
	/* split-k's 16 rows suit a decode's few; a parallel loop of the user's may have many */
	tp->widen = tp->splitk && !tp->row_made && inner < 0 && !tp->grid[tp->rowdim].tile && !rows;
	if (tp->bm % 16 || tp->bm > 128)
		return fail(tp, why, "the row tile is not a multiple of 16 up to 128");
	tile_find_masks(tp);
	if (row_hi) {
		if (tp->skip_hidden)
			return fail(tp, why, "the split's chunk range depends on the row loop, and a mask skips steps");
		tp->mask_hi = bound_join(p, tp->mask_hi, row_hi, true, true, row_hi->loc);
	}
	/* The printer takes a bound's extremes over a CTA's rows at its first and last rows. */
	const Expr *ends[4] = {tp->step->lo, tp->step->hi, tp->mask_lo, tp->mask_hi};
	for (int k = 0; k < 4; k++)
		if (ends[k] && monotone_in(ends[k], tp->grid[tp->rowdim].var) == MONO_NOT)
			return fail(tp, why, "a bound of the pass is not monotone in the row (its extremes over a CTA's rows are not at the first and last)");
	/* Shared tiles have rows of 64-element slabs: other extents are padded with zeros,
	 * which add nothing to the products, and the padding columns are never stored. */
	tp->kdim = (tp->kdim + 63) / 64 * 64;
	tp->ncols = (tp->ncols + 63) / 64 * 64;
	for (int k = 0; k < tp->ncolop; k++)
		tp->colop_cols[k] = (tp->colop_cols[k] + 63) / 64 * 64;
	/* Where the tiles do not fit (fp32, wide heads, 64 KB of LDS), one stage of column
	 * tiles (their loads no longer overlap the step before), then fewer rows per CTA,
	 * then narrower steps (D = 256 in 64 KB). */
	tp->stages = tt->stages;
	/* Over 256 accumulator columns (absorbed MLA's 512) a warp's tile would take ncols / 2
	 * registers a thread: cw warps share the rows and split the columns, at most 128 each
	 * (64 floats a thread), in whole 64-column slabs. Each computes the rows' scores (the
	 * products with the row operand are repeated, a decode is bound by reading K and V).
	 * At most two row warps (so no wgmma warpgroup: its warps' rows are their index's)
	 * and eight warps in all; 16-bit tiles only (fp32 P.V reads tf32 planes). */
	tp->cw = 1;
	if (tp->ncols > 256) {
		if (tp->elem == TY_FLOAT)
			return fail(tp, why, arena_printf(&p->arena, "the second (P.V) product is %d wide, and fp32 tiles take widths up to 256", tp->ndata));
		int slabs = tp->ncols / 64;
		while (tp->ncols / tp->cw > 128 || slabs % tp->cw)
			tp->cw++;
		if (tp->bm > 32)
			tp->bm = 32;
		if (tp->bm / 16 * tp->cw > 8)
			tp->bm = 16;
	}
	if (tp->elem == TY_FLOAT) {
		/* fp32 operands take twice the registers and shared memory of 16-bit ones (and a
		 * split into two tf32 halves on top): steps of 32 columns (any step is a valid
		 * step of the rolling update) and one stage (H100, D = 128: 36-40 TFLOP/s,
		 * against 17 with steps of 64 and two stages). */
		if (tp->bn > 32 && tp->bn % 32 == 0)
			tp->bn = 32;
		tp->stages = 1;
		tp->presplit = presplit_fits(tp);
	}
	/* Byte column operands are loaded with plain loads and widened as they arrive
	 * (fx::load_tile_q8): a second stage would overlap nothing, and its shared memory
	 * would halve the CTAs an SM holds, whose loads are what overlaps. */
	for (int k = 0; k < tp->ncolop; k++)
		if (is_byte(tp->colop[k]->ty))
			tp->stages = 1;

	int need = tile_smem_bytes(tp);
	/* the narrowest step: 32 on CUDA; one fragment block on HIP, 16 wide (fp32 at D = 256
	 * fits its 64 KB in steps of 16) */
	const int bn_min = tt->frag_cols == 16 ? 16 : 32;
	while (tile_smem_bytes(tp) > tt->smem_max && (tp->stages > 1 || tp->bm > 16 || tp->bn > bn_min)) {
		if (tp->stages > 1)
			tp->stages = 1;
		else if (tp->bm > 16)
			tp->bm /= 2;
		else
			tp->bn /= 2;
	}
	if (tile_smem_bytes(tp) > tt->smem_max)
		return fail(tp, why, arena_printf(&p->arena, "the tiles need %d bytes of shared memory, more than the %d a CTA may have", need, tt->smem_max));
	plan_gathers(tp);
	/* Two 16-row tiles per warp share each column operand fragment, but double the
	 * accumulator tile: mt * ncols / 2 floats per thread, past the registers for D > 128. */
	tp->mt = tp->bm >= 64 && tp->bm % 32 == 0 && tp->ncols <= 128 && !(tt->group64 && tp->bm == 64) ? 2 : 1;
	/* fp32: one, the other spills (H100, D = 128, causal: 35 TFLOP/s against 33) */
	if (tp->elem == TY_FLOAT)
		tp->mt = 1;
	/* A row operand of two parts (hi + lo) takes twice a warp's fragments of it: at mt = 2
	 * the kernel spills (ggml's flash_attn_ext, D = 128: 736 bytes at 255 registers; 182
	 * registers and none at mt = 1, 2714 -> 1883 us on the H100). (mfma's layout gives a
	 * thread one row of each 16, half the elements: unchanged there, unmeasured.) */
	if (tt->row_slots == 2 && tp->row_parts == 2)
		tp->mt = 1;
	/* Per-score reads are kept in registers in the kernels of a two-part row operand, where
	 * it was measured (ggml's KQ mask, H100: 1883 -> 1611 us at mt = 1). At mt = 2 a copy
	 * of 4-byte values is 64 registers more a thread and the kernel spills (o04, D = 128:
	 * 1 KB), and mt = 1 for it lost (o04 1295 -> 1572 us); the other kernels of mt = 1
	 * (decode, D > 128, fp32) are neither timed nor GPU-checked with it. Elsewhere the
	 * passes read the input as written. */
	find_score_reads(tp);
	if (tp->mt != 1 || tp->row_parts != 2)
		tp->nsread = 0;
	tp->warps = tp->bm / (16 * tp->mt) * tp->cw;
	/* one warp would split the tiles for itself alone, as it does without (decode) */
	if (tp->warps < 2)
		tp->presplit = false;
	tp->threads = tt->wave * tp->warps;
	/* Two CTAs an SM: one's softmax runs while the other's products do (H100, MLA's q.k
	 * over 192 and V over 128 at 128 rows, 4 warps: 128 KB with two stages of K and V, one
	 * CTA an SM, 1526 us at B = 2, H = 16, 4096 rows and keys; one stage of V, 112 KB
	 * and two CTAs an SM: 1000 us; two stages at 64 rows: 1539; 8 warps of one 16-row
	 * tile: 1104; one stage of both, loaded at the step's start: 1066). */
	tp->pv_one = pv_one_fits(tp);
	bool softmax = false;
	for (int a = 0; a < tp->c->naccums; a++)
		softmax |= tp->c->accums[a].red == RED_MAX;
	tp->psplit = tp->elem != TY_FLOAT && !softmax;
	/* fp16 holds weights from 6e-5 (normal) to 65504 only: a sigmoid's 1e-13 or a ReLU^2's
	 * 1e5 would flush or overflow where bf16 keeps fp32's range. Each row's weights are
	 * scaled by a power of two instead (pscale), which needs the accumulators to hold
	 * nothing but the products' sums: zero before the pass, and no other statement of a
	 * step reading or writing them. */
	tp->pscale = tp->psplit && tp->elem == TY_HALF;
	if (tp->pscale && !pscale_fits(tp))
		return fail(tp, why, "the P.V weights are not a softmax's (in [0, 1] once the row's max is subtracted), fp16 tiles do not hold every float weight (above 65504 or below 6e-5), and the accumulator starts from a value other than zero or a step reads it outside the products, so the weights cannot be scaled per row: bf16 or fp32 values get the tiles");
	return true;
}

bool tile_plan(TilePlan *tp, const Region *r, const TileTarget *tt, const char **why) { return plan(tp, r, tt, 0, why); }

bool tile_plan_wide(TilePlan *wide, const TilePlan *tp, const char *suffix)
{
	const char *why = NULL;
	memset(wide, 0, sizeof *wide);
	if (!tp->widen || tp->heads)
		return false;
	/* the plan is made again from the region: its names are tp's again after */
	StrVec *names = tp->c->names;
	/* not for fewer (absorbed MLA's 576-wide tiles get 32): a kernel of its own for little */
	bool ok = plan(wide, tp->region, tp->tt, 128, &why) && wide->bm >= TILE_WIDE_ROWS && wide->splitk;
	if (!ok)
		tile_plan_free(wide);
	else
		wide->kernel = suffix;
	tp->c->names = names;
	return ok;
}

/* ---- masks that are domains ---- */

/* What a value is known to be at an element the mask hides. */
typedef enum MaskClass { MC_ANY, MC_FINITE, MC_NEGINF, MC_ZERO } MaskClass;

typedef struct MaskScan {
	TilePlan *tp;
	Var *jvar;         /* the current per-element loop's iterator */
	Var *decls[MAX_TILE_VARS]; /* the locals the current per-element loop declares */
	int ndecls;
	Expr *cond;        /* the canonical mask condition: true where the element is hidden */
	Var *vars[MAX_TILE_VARS];
	MaskClass cls[MAX_TILE_VARS];
	int nvars;
	/* the int locals the per-element loops declare, each with its value (canonical: j as
	 * jc) while that value holds (`int same = j / C == i / C;`), else NULL */
	Var *defv[MAX_TILE_VARS];
	Expr *defe[MAX_TILE_VARS];
	int ndefs;
	bool ok;
} MaskScan;

static bool is_minus_inf(const Expr *e)
{
	if (e->kind == EX_UN && e->uop == UOP_NEG)
		return e->args[0]->kind == EX_FLT && e->args[0]->fval > 0 && e->args[0]->fval * 0 != e->args[0]->fval * 0;
	return e->kind == EX_FLT && e->fval < 0 && e->fval * 0 != e->fval * 0;
}

/* A finite fill a mask writes where -INFINITY would be meant: a literal of -2^14 or
 * below (-1e9, -FLT_MAX, torch.finfo.min, -65504). */
static bool is_huge_fill(const Expr *e)
{
	double v = e->kind == EX_UN && e->uop == UOP_NEG && e->args[0]->kind == EX_FLT ? -e->args[0]->fval : e->kind == EX_FLT ? e->fval : 0;
	return v * 0 == 0 && v <= -16384.0;
}

/* ExprTest: whether e holds no huge fill. */
static bool no_huge_fill(const Expr *e, void *ctx)
{
	if (is_huge_fill(e))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!no_huge_fill(e->args[i], ctx))
			return false;
	return true;
}

/* What a mask writes at a hidden element: -INFINITY, or a huge finite fill, which hides
 * the element as well wherever its row keeps a key (tile_find_masks checks that): e^(F -
 * m) underflows to 0 in float once m > F + 104, as C's own expf does. */
static bool is_neg_inf(const Expr *e) { return is_minus_inf(e) || is_huge_fill(e); }

static MaskClass var_class(const MaskScan *ms, const Var *v)
{
	for (int i = ms->nvars - 1; i >= 0; i--)
		if (ms->vars[i] == v)
			return ms->cls[i];
	/* Per-row values are the sanitised producers (finite); parameters and iterators too. */
	return MC_FINITE;
}

/* The index of v in vars[0 .. *n), appended if absent; -1 when the list is full. */
static int var_slot(Var **vars, int *n, Var *v)
{
	for (int i = 0; i < *n; i++)
		if (vars[i] == v)
			return i;
	if (*n == MAX_TILE_VARS)
		return -1;
	vars[*n] = v;
	return (*n)++;
}

static void set_class(MaskScan *ms, Var *v, MaskClass c)
{
	int k = var_slot(ms->vars, &ms->nvars, v);
	if (k < 0)
		ms->ok = false;
	else
		ms->cls[k] = c;
}

static MaskClass join(MaskClass a, MaskClass b) { return a == b ? a : MC_ANY; }

/* Whether e reads no local other than those with a value in ms->defe. */
static bool reads_defined(const MaskScan *ms, const Expr *e)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->kind == VAR_LOCAL) {
		bool found = false;
		for (int i = 0; i < ms->ndefs && !found; i++)
			found = ms->defv[i] == e->var && ms->defe[i];
		if (!found)
			return false;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!reads_defined(ms, e->args[i]))
			return false;
	return true;
}

/* Records local v, declared by a per-element loop with value e (NULL: none): the mask's
 * bounds may read v through e while v keeps it, and may not read v otherwise. */
static void define(MaskScan *ms, Var *v, const Expr *e)
{
	Expr *d = e && !v->ndim && scalar_is_int(v->ty) && reads_defined(ms, e) ? expr_subst_var(ms->tp->c->prog, e, ms->jvar, ms->tp->jc) : NULL;
	int k = var_slot(ms->defv, &ms->ndefs, v);
	if (k < 0)
		ms->ok = false;
	else
		ms->defe[k] = d;
}

/* Whether a write to v loses the value define recorded (v is one of the locals). */
static void forget(MaskScan *ms, const Var *v)
{
	for (int i = 0; i < ms->ndefs; i++)
		if (ms->defv[i] == v)
			ms->defe[i] = NULL;
}

/* c with the recorded locals read through their values, latest first (a value may read
 * an earlier one); NULL when it reads a local that has none. */
static Expr *through_defs(MaskScan *ms, Expr *c)
{
	for (int i = ms->ndefs - 1; i >= 0; i--)
		if (ms->defe[i])
			c = expr_subst_expr(ms->tp->c->prog, c, ms->defv[i], ms->defe[i]);
	for (int i = 0; i < ms->ndefs; i++)
		if (expr_reads_var(c, ms->defv[i]))
			return NULL;
	return c;
}

/* Whether c, a condition on the element, is false (guard) or true (!guard) exactly where
 * the scan's mask hides it (a guard `if (j <= i)` kept from distribute_guard, the c of
 * `c ? p : 0`; the c of `c ? -INFINITY : x`); the first such condition sets the mask. */
static bool is_mask(MaskScan *ms, const Expr *c, bool guard)
{
	if (!expr_reads_var(c, ms->jvar))
		return false;
	Program *p = ms->tp->c->prog;
	Expr *hidden = expr_subst_var(p, c, ms->jvar, ms->tp->jc);
	if (guard)
		hidden = hidden->kind == EX_UN && hidden->uop == UOP_NOT ? hidden->args[0] : ex_un(p, UOP_NOT, hidden, c->loc);
	if (!ms->cond)
		ms->cond = hidden;
	return expr_equal(ms->cond, hidden);
}

static bool is_guard(MaskScan *ms, const Expr *c) { return is_mask(ms, c, true); }

/* The class of e at a hidden element. */
static MaskClass mask_class(MaskScan *ms, const Expr *e)
{
	if (is_neg_inf(e))
		return MC_NEGINF;
	switch (e->kind) {
	case EX_INT: return MC_FINITE;
	case EX_FLT: return e->fval == 0 ? MC_ZERO : e->fval * 0 == 0 ? MC_FINITE : MC_ANY;
	case EX_VAR:
	case EX_INDEX:
		if (e->var->kind == VAR_LOCAL)
			return var_class(ms, e->var);
		return e->var->ty == TY_FLOAT || scalar_is_int(e->var->ty) ? MC_FINITE : MC_ANY;
	case EX_CAST: return mask_class(ms, e->args[0]) == MC_ZERO ? MC_ZERO : mask_class(ms, e->args[0]) == MC_NEGINF ? MC_NEGINF : MC_ANY;
	case EX_UN: return MC_ANY;
	case EX_COND:
		if (is_neg_inf(e->args[1]) && !is_neg_inf(e->args[2])) /* `c ? -INFINITY : x` */
			return is_mask(ms, e->args[0], false) ? MC_NEGINF : join(MC_NEGINF, mask_class(ms, e->args[2]));
		if (is_guard(ms, e->args[0])) /* false at a hidden element */
			return mask_class(ms, e->args[2]);
		return join(mask_class(ms, e->args[1]), mask_class(ms, e->args[2]));
	case EX_CALL:
		if ((e->fn == FN_EXP || e->fn == FN_EXP2) && mask_class(ms, e->args[0]) == MC_NEGINF)
			return MC_ZERO;
		if ((e->fn == FN_FMAX && mask_class(ms, e->args[0]) == MC_NEGINF && mask_class(ms, e->args[1]) == MC_NEGINF))
			return MC_NEGINF;
		return MC_ANY;
	case EX_BIN: {
		MaskClass a = mask_class(ms, e->args[0]), b = mask_class(ms, e->args[1]);
		bool pos_const = e->args[1]->kind == EX_FLT && e->args[1]->fval > 0 && e->args[1]->fval * 0 == 0;
		switch (e->bop) {
		case OP_ADD: return (a == MC_NEGINF && (b == MC_FINITE || b == MC_ZERO)) || (b == MC_NEGINF && (a == MC_FINITE || a == MC_ZERO)) ? MC_NEGINF : MC_ANY;
		case OP_SUB: return a == MC_NEGINF && (b == MC_FINITE || b == MC_ZERO) ? MC_NEGINF : MC_ANY;
		case OP_MUL:
			if ((a == MC_ZERO && (b == MC_FINITE || b == MC_ZERO)) || (b == MC_ZERO && (a == MC_FINITE || a == MC_ZERO)))
				return MC_ZERO;
			return a == MC_NEGINF && pos_const ? MC_NEGINF : MC_ANY;
		case OP_DIV: return a == MC_ZERO && b == MC_FINITE ? MC_ZERO : a == MC_NEGINF && pos_const ? MC_NEGINF : MC_ANY;
		default: return MC_ANY;
		}
	}
	}
	return MC_ANY;
}

/* Which arm of `x = c ? a : b` is -INFINITY (1 or 2; 0: neither, or both). */
static int neg_inf_arm(const Stmt *s)
{
	if (s->kind != ST_ASSIGN || s->aop != AS_SET || s->rhs->kind != EX_COND)
		return 0;
	bool a = is_neg_inf(s->rhs->args[1]), b = is_neg_inf(s->rhs->args[2]);
	return a == b ? 0 : a ? 1 : 2;
}

/* For `if (c) x = -INFINITY; else x = y;` (or the arms the other way round): the arm's
 * value y, *hides_when_true saying whether c hides; NULL for another statement. */
static Expr *if_else_mask(const Stmt *s, bool *hides_when_true)
{
	if (s->kind != ST_IF || s->nbody < 2 || !s->body[1])
		return NULL;
	const Stmt *a = single(s->body[0]), *b = single(s->body[1]);
	if (a->kind != ST_ASSIGN || b->kind != ST_ASSIGN || a->aop != AS_SET || b->aop != AS_SET || !expr_equal(a->lhs, b->lhs) ||
	    is_neg_inf(a->rhs) == is_neg_inf(b->rhs))
		return NULL;
	*hides_when_true = is_neg_inf(a->rhs);
	return *hides_when_true ? b->rhs : a->rhs;
}

/* The hidden-when condition of a mask statement of loop variable j, canonical; NULL if s
 * is none: `if (c) x = -INFINITY`, `x = c ? y : -INFINITY`, `x = c ? -INFINITY : y` or
 * `if (c) x = -INFINITY; else x = y;` either way round (*kept gets y). */
static Expr *mask_cond(TilePlan *tp, const Stmt *s, const Var *j, Expr **kept)
{
	Program *p = tp->c->prog;
	*kept = NULL;
	bool hides;
	Expr *y = if_else_mask(s, &hides);
	if (y && expr_reads_var(s->cond, j)) {
		*kept = y;
		Expr *c = expr_subst_var(p, s->cond, j, tp->jc);
		return hides ? c : ex_un(p, UOP_NOT, c, s->loc);
	}
	if (s->kind == ST_IF && s->nbody >= 1 && !(s->nbody > 1 && s->body[1])) {
		Stmt *a = single(s->body[0]);
		if (a->kind == ST_ASSIGN && a->aop == AS_SET && is_neg_inf(a->rhs) && expr_reads_var(s->cond, j))
			return expr_subst_var(p, s->cond, j, tp->jc);
		return NULL;
	}
	int arm = neg_inf_arm(s);
	if (arm && expr_reads_var(s->rhs->args[0], j)) {
		*kept = s->rhs->args[3 - arm];
		Expr *c = expr_subst_var(p, s->rhs->args[0], j, tp->jc);
		return arm == 1 ? c : ex_un(p, UOP_NOT, c, s->loc);
	}
	return NULL;
}

bool tile_mask_stmt(const TilePlan *tp, const Stmt *s, Expr **kept)
{
	for (int i = 0; i < tp->nmask; i++)
		if (tp->mask_stmts[i] == s) {
			bool hides;
			*kept = s->kind == ST_ASSIGN ? s->rhs->args[3 - neg_inf_arm(s)] : if_else_mask(s, &hides);
			return true;
		}
	return false;
}

static void mask_walk(MaskScan *ms, Stmt **body, int n);

static bool declared_here(const MaskScan *ms, const Var *v)
{
	for (int i = 0; i < ms->ndecls; i++)
		if (ms->decls[i] == v)
			return true;
	return false;
}

/* The variables a guard's body writes, other than row reductions, hold unknown values
 * at the elements it skips, except a local the element declared before the guard: that
 * keeps the value it had (`float x = -INFINITY; if (keep) x = dot;`). */
static void guard_writes(MaskScan *ms, const Stmt *s)
{
	if (s->kind == ST_DECL || s->kind == ST_ASSIGN)
		forget(ms, s->kind == ST_DECL ? s->var : s->lhs->var);
	if (s->kind == ST_DECL ||
	    (s->kind == ST_ASSIGN && !(s->lhs->kind == EX_VAR && tile_role(ms->tp, s->lhs->var) == TR_ROW) && !declared_here(ms, s->lhs->var)))
		set_class(ms, s->kind == ST_DECL ? s->var : s->lhs->var, MC_ANY);
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			guard_writes(ms, s->body[i]);
}

/* The fill mask statement m stores (-INFINITY, -1e9) and into which local (*x); NULL if none. */
static const Expr *mask_fill(const Stmt *m, const Var **x)
{
	int arm = neg_inf_arm(m);
	if (arm) {
		*x = m->lhs->var;
		return m->rhs->args[arm];
	}
	if (m->kind != ST_IF)
		return NULL;
	for (int b = 0; b < m->nbody && b < 2; b++) {
		const Stmt *a = m->body[b] ? single(m->body[b]) : NULL;
		if (a && a->kind == ST_ASSIGN && a->lhs->kind == EX_VAR && is_neg_inf(a->rhs)) {
			*x = a->lhs->var;
			return a->rhs;
		}
	}
	return NULL;
}

/* Whether guard condition c is false wherever the mask hides: `if (s == -INFINITY)
 * continue;` after the mask statement `s = hidden ? -INFINITY : s` (c is !(s == F), s != F
 * or, for -INFINITY, s > F, !(s <= F), isfinite(s) or !isinf(s), with F the fill the last mask
 * statement stored into s and s not written since). The guard runs as written; the mask still bounds the steps. */
static bool false_where_hidden(MaskScan *ms, const Expr *c)
{
	bool not = c->kind == EX_UN && c->uop == UOP_NOT;
	if (not)
		c = c->args[0];
	/* isfinite(s), !isinf(s): false at -INFINITY */
	bool classify = c->kind == EX_CALL && (not ? c->fn == FN_ISINF : c->fn == FN_ISFINITE);
	if (!classify && (c->kind != EX_BIN || !(not ? c->bop == OP_EQ || c->bop == OP_LE : (c->bop == OP_NE || c->bop == OP_GT))))
		return false;
	if (c->args[0]->kind != EX_VAR)
		return false;
	const Var *x = NULL;
	const Expr *fill = ms->tp->nmask ? mask_fill(ms->tp->mask_stmts[ms->tp->nmask - 1], &x) : NULL;
	if (!fill || x != c->args[0]->var || var_class(ms, x) != MC_NEGINF)
		return false;
	if (classify)
		return is_minus_inf(fill);
	const Expr *f = c->args[1];
	return c->bop == OP_GT || c->bop == OP_LE ? is_minus_inf(f) && is_minus_inf(fill) : expr_equal(f, fill) || (is_minus_inf(f) && is_minus_inf(fill));
}

static void mask_stmt(MaskScan *ms, Stmt *s, Stmt **body, int n, int *i)
{
	TilePlan *tp = ms->tp;
	Program *p = tp->c->prog;
	Expr *kept, *target, *g, *c;
	Reducer red;
	Var *acc;
	if ((c = mask_cond(tp, s, ms->jvar, &kept))) {
		if (!ms->cond)
			ms->cond = c;
		else if (!expr_equal(ms->cond, c))
			ms->ok = false;
		Expr *lhs = s->kind == ST_IF ? single(s->body[0])->lhs : s->lhs;
		set_class(ms, lhs->var, MC_NEGINF);
		if (tp->nmask < MAX_TILE_VARS)
			tp->mask_stmts[tp->nmask++] = s;
		else
			ms->ok = false;
		return;
	}
	int len;
	if (body && tile_match_dot(tp, body, n, *i, ms->jvar, false, NULL, &len) >= 0) {
		set_class(ms, s->var, MC_ANY);
		if (len == 4)
			set_class(ms, body[*i + 2]->var, MC_ANY);
		*i += len - 1;
		return;
	}
	switch (s->kind) {
	case ST_DECL:
		set_class(ms, s->var, s->rhs ? mask_class(ms, s->rhs) : MC_ANY);
		define(ms, s->var, s->rhs);
		if (ms->ndecls < MAX_TILE_VARS)
			ms->decls[ms->ndecls++] = s->var;
		return;
	case ST_ASSIGN:
		if (s->lhs->kind == EX_VAR && tile_role(tp, s->lhs->var) == TR_ROW) {
			if (!reduce_match(p, s, &target, &red, &g))
				ms->ok = false;
			else
				ms->ok &= red == RED_ADD ? mask_class(ms, g) == MC_ZERO : red == RED_MAX ? mask_class(ms, g) == MC_NEGINF : false;
			return;
		}
		set_class(ms, s->lhs->var, s->aop == AS_SET ? mask_class(ms, s->rhs) : MC_ANY);
		forget(ms, s->lhs->var);
		return;
	case ST_FOR:
		if (tile_match_pv(tp, s, ms->jvar, &g, &acc, false) >= 0)
			ms->ok &= mask_class(ms, g) == MC_ZERO;
		else
			ms->ok = false;
		return;
	case ST_BLOCK: mask_walk(ms, s->body, s->nbody); return;
	case ST_IF:
		/* A branchy max of a row value (`if (s > m) m = s;`): as its select form. */
		if (reduce_match(p, s, &target, &red, &g) && target->kind == EX_VAR && tile_role(tp, target->var) == TR_ROW) {
			ms->ok &= red == RED_MAX ? mask_class(ms, g) == MC_NEGINF : false;
			return;
		}
		/* A guard: nothing in it runs at a hidden element, where what it writes keeps an
		 * earlier value (a row reduction: no contribution). Other branches would need a
		 * join of the classes. */
		if ((s->nbody == 1 || !s->body[1]) && (is_guard(ms, s->cond) || false_where_hidden(ms, s->cond)))
			guard_writes(ms, s->body[0]);
		else
			ms->ok = false;
		return;
	}
}

static void mask_walk(MaskScan *ms, Stmt **body, int n)
{
	for (int i = 0; i < n && ms->ok; i++)
		mask_stmt(ms, body[i], body, n, &i);
}

/* Rewrites comparison `*a op *b` so that *a is jc alone, moving the terms added to or
 * subtracted from it (`i - j >= W`: j <= i - W). false when jc is not one term of a sum
 * on one side. */
static bool isolate_jc(TilePlan *tp, const Expr **a, BinOp *op, const Expr **b)
{
	Program *p = tp->c->prog;
	if (expr_reads_var(*b, tp->jc)) {
		const Expr *t = *a;
		*a = *b;
		*b = t;
		*op = binop_mirror(*op);
	}
	if (expr_reads_var(*b, tp->jc))
		return false;
	while (!((*a)->kind == EX_VAR && (*a)->var == tp->jc)) {
		const Expr *e = *a;
		if (e->kind != EX_BIN || (e->bop != OP_ADD && e->bop != OP_SUB) || !scalar_is_int(e->ty))
			return false;
		bool left = expr_reads_var(e->args[0], tp->jc), right = expr_reads_var(e->args[1], tp->jc);
		if (left == right)
			return false;
		if (left) { /* x + t op b: x op b - t; x - t op b: x op b + t */
			*b = ex_bin(p, e->bop == OP_ADD ? OP_SUB : OP_ADD, ex_copy(p, *b), ex_copy(p, e->args[1]), e->loc);
			*a = e->args[0];
		} else if (e->bop == OP_ADD) { /* t + x op b: x op b - t */
			*b = ex_bin(p, OP_SUB, ex_copy(p, *b), ex_copy(p, e->args[0]), e->loc);
			*a = e->args[1];
		} else { /* t - x op b: x op' t - b */
			*b = ex_bin(p, OP_SUB, ex_copy(p, e->args[0]), ex_copy(p, *b), e->loc);
			*a = e->args[1];
			*op = binop_mirror(*op);
		}
	}
	return true;
}

/* Whether c is `jc / C == e / C` (either side) with C an int constant or parameter, not
 * zero: e's chunk of C keys, [(e / C) * C, (e / C) * C + C) for non-negative keys; *e and
 * *div get e and C. */
static bool same_chunk(const TilePlan *tp, const Expr *c, const Expr **e, const Expr **div)
{
	for (int s = 0; s < 2; s++) {
		const Expr *x = c->args[s], *y = c->args[!s];
		if (x->kind == EX_BIN && x->bop == OP_DIV && x->args[0]->kind == EX_VAR && x->args[0]->var == tp->jc && y->kind == EX_BIN &&
		    y->bop == OP_DIV && expr_equal(x->args[1], y->args[1]) && !expr_reads_var(y->args[0], tp->jc) && scalar_is_int(y->args[0]->ty) &&
		    ((x->args[1]->kind == EX_INT && x->args[1]->ival > 0) || (x->args[1]->kind == EX_VAR && x->args[1]->var->kind == VAR_PARAM && !x->args[1]->var->ndim))) {
			*e = y->args[0];
			*div = x->args[1];
			return true;
		}
	}
	return false;
}

/* Bounds on jc from the condition under which an element is kept (negate: c is the
 * hidden-when condition): every kept element has *lo <= jc < *hi (NULL: unbounded).
 * *exact stays true when c keeps exactly that range and becomes false when c has terms
 * that bound nothing (a prefix length, a document id) or a union of ranges: those are
 * still tested per element, and the bounds only skip the steps outside the hull. */
static void kept_bounds(TilePlan *tp, const Expr *c, bool negate, Expr **lo, Expr **hi, bool *exact)
{
	Program *p = tp->c->prog;
	*lo = *hi = NULL;
	if (c->kind == EX_UN && c->uop == UOP_NOT) {
		kept_bounds(tp, c->args[0], !negate, lo, hi, exact);
		return;
	}
	/* a helper's bool result, `(bool)(q >= k && q - k < w)`: the condition's truth */
	if (c->kind == EX_CAST && c->ty == TY_BOOL) {
		kept_bounds(tp, c->args[0], negate, lo, hi, exact);
		return;
	}
	if (c->kind != EX_BIN || !expr_reads_var(c, tp->jc)) {
		*exact = false;
		return;
	}
	if (c->bop == OP_LAND || c->bop == OP_LOR) {
		/* both hold (a conjunction): the tighter bounds; either (a union): the hull */
		bool both = (c->bop == OP_LAND) != negate;
		Expr *lo1, *hi1, *lo2, *hi2;
		/* A side the same for all of a CTA's keys and rows (a causal flag, `causal && j >
		 * i`) selects: t && c2 keeps c2's range where t holds and nothing elsewhere, t ||
		 * c2 keeps every key where t holds and c2's range elsewhere (the pass's own range
		 * for "every"). A side reading the row stays a term that bounds nothing: a bound
		 * switching between rows would not be monotone along them. */
		Var *uniform[MAX_GRID];
		int nuniform = 0;
		for (int g = 0; g < tp->ngrid; g++)
			if (g != tp->rowdim)
				uniform[nuniform++] = tp->grid[g].var;
		for (int s = 0; s < 2; s++) {
			if (!reads_only(c->args[s], uniform, nuniform) || !expr_reads_var(c->args[!s], tp->jc))
				continue;
			kept_bounds(tp, c->args[!s], negate, &lo2, &hi2, exact);
			Expr *t = ex_copy(p, c->args[s]);
			if (negate)
				t = ex_un(p, UOP_NOT, t, c->loc);
			Expr *from = tp->step->lo, *to = tp->step->hi;
			if (both) {
				*lo = lo2;
				*hi = ex_cond(p, t, hi2 ? hi2 : ex_copy(p, to), ex_copy(p, from), c->loc);
			} else {
				*lo = lo2 ? ex_cond(p, t, ex_copy(p, from), lo2, c->loc) : NULL;
				*hi = hi2 ? ex_cond(p, ex_copy(p, t), ex_copy(p, to), hi2, c->loc) : NULL;
			}
			return;
		}
		kept_bounds(tp, c->args[0], negate, &lo1, &hi1, exact);
		kept_bounds(tp, c->args[1], negate, &lo2, &hi2, exact);
		*lo = bound_join(p, lo1, lo2, !both, both, c->loc);
		*hi = bound_join(p, hi1, hi2, both, both, c->loc);
		if (!both)
			*exact = false;
		return;
	}
	BinOp op = c->bop;
	const Expr *a = c->args[0], *b = c->args[1], *e, *div;
	if ((op == OP_EQ) != negate && (op == OP_EQ || op == OP_NE) && same_chunk(tp, c, &e, &div)) {
		Expr *start = ex_bin(p, OP_MUL, ex_bin(p, OP_DIV, ex_copy(p, e), ex_copy(p, div), c->loc), ex_copy(p, div), c->loc);
		start = start->ty != TY_INT ? ex_cast(p, TY_INT, start, c->loc) : start;
		/* a chunk of a parameter's size: |C| keys, whatever C's sign */
		Expr *len = div->kind == EX_INT ? ex_copy(p, div)
		                                : ex_cond(p, ex_bin(p, OP_LT, ex_copy(p, div), ex_int(p, 0, c->loc), c->loc),
		                                          ex_un(p, UOP_NEG, ex_copy(p, div), c->loc), ex_copy(p, div), c->loc);
		/* C truncates: keys in (-C, C) share chunk 0, so the start holds for keys >= 0 */
		if (tp->step->lo->kind == EX_INT && tp->step->lo->ival >= 0)
			*lo = start;
		*hi = ex_bin(p, OP_ADD, ex_copy(p, start), len, c->loc);
		*exact = false;
		return;
	}
	if ((op != OP_LT && op != OP_LE && op != OP_GT && op != OP_GE) || !isolate_jc(tp, &a, &op, &b) || !scalar_is_int(b->ty)) {
		*exact = false;
		return;
	}
	if (negate)
		op = op == OP_LT ? OP_GE : op == OP_LE ? OP_GT : op == OP_GT ? OP_LE : OP_LT;
	/* The printer computes the row's range in int, as the column index is: a bound read
	 * from an int64 array (a length) is one of the int column indices. */
	Expr *one = ex_int(p, 1, c->loc), *v = b->ty == TY_INT ? ex_copy(p, b) : ex_cast(p, TY_INT, ex_copy(p, b), c->loc);
	Expr *bound = op == OP_GT || op == OP_LE ? ex_bin(p, OP_ADD, v, one, c->loc) : v;
	if (op == OP_GT || op == OP_GE)
		*lo = bound;
	else
		*hi = bound;
}

/* Whether e reads v other than as `v / C` with C a positive constant; *c gets the C
 * (one for all the reads: 0 until seen). */
static bool reads_bare(const Expr *e, const Var *v, long long *c)
{
	if (e->kind == EX_BIN && e->bop == OP_DIV && e->args[0]->kind == EX_VAR && e->args[0]->var == v && e->args[1]->kind == EX_INT &&
	    e->args[1]->ival > 0 && e->args[1]->ival <= 1 << 20) {
		if (*c && *c != e->args[1]->ival)
			return true;
		*c = e->args[1]->ival;
		return false;
	}
	if (e->kind == EX_VAR)
		return e->var == v;
	for (int i = 0; i < e->nargs; i++)
		if (reads_bare(e->args[i], v, c))
			return true;
	return false;
}

/* e with every `v / C` replaced by b. */
static Expr *subst_div(Program *p, const Expr *e, const Var *v, Var *b)
{
	if (e->kind == EX_BIN && e->bop == OP_DIV && e->args[0]->kind == EX_VAR && e->args[0]->var == v)
		return ex_var(p, b, e->loc);
	Expr *x = ex_copy(p, e);
	for (int i = 0; i < x->nargs; i++)
		x->args[i] = subst_div(p, e->args[i], v, b);
	return x;
}

/* The skipping of steps for hidden-when condition c (see skip_hidden in tile.h): c may
 * read the row only as `i / C` and the column as `j / C` or j, besides parameters and
 * the other parallel loops; nothing else is skipped. */
static void find_skip(TilePlan *tp, Expr *c)
{
	Program *p = tp->c->prog;
	Var *iv = tp->grid[tp->rowdim].var;
	long long ci = 0, cj = 0;
	if (reads_bare(c, iv, &ci) || !expr_reads_var(c, tp->jc))
		return;
	Expr *h = c;
	Var *bi = NULL, *bj = fresh_var(tp->c, "blk_j", TY_INT, VAR_LOOP);
	if (ci) {
		bi = fresh_var(tp->c, "blk_i", TY_INT, VAR_LOOP);
		h = subst_div(p, h, iv, bi);
	}
	if (reads_bare(h, tp->jc, &cj)) {
		if (cj)
			return;
		h = expr_subst_var(p, h, tp->jc, bj);
		cj = 1;
	} else {
		h = subst_div(p, h, tp->jc, bj);
	}
	/* the same for every row of the CTA: parameters, the other parallel loops, the blocks */
	Var *ok[MAX_GRID + 2];
	int n = 0;
	for (int g = 0; g < tp->ngrid; g++)
		ok[n++] = tp->grid[g].var;
	ok[n++] = bj;
	if (bi)
		ok[n++] = bi;
	if (!reads_only(h, ok, n))
		return;
	tp->skip_hidden = h;
	tp->skip_bi = bi;
	tp->skip_bj = bj;
	tp->skip_ci = (int)ci;
	tp->skip_cj = (int)cj;
}

/* Whether e is not negative by its form: literals >= 0, integer parameters (sizes),
 * iterators of loops of the region that start at such a value, their sums and products. */
static bool nonneg_form(const TilePlan *tp, const Expr *e)
{
	switch (e->kind) {
	case EX_INT: return e->ival >= 0;
	case EX_VAR:
		if (e->var->kind == VAR_PARAM)
			return !e->var->ndim && scalar_is_int(e->var->ty);
		if (e->var->kind == VAR_LOOP) {
			const Stmt *l = stmt_loop_of(tp->region->loop, e->var);
			return l && l->step > 0 && nonneg_form(tp, l->lo);
		}
		return false;
	case EX_BIN: return (e->bop == OP_ADD || e->bop == OP_MUL) && nonneg_form(tp, e->args[0]) && nonneg_form(tp, e->args[1]);
	default: return false;
	}
}

/* Whether every row keeps the pass's first key under kept range [lo, hi) (NULL: no bound
 * that side): the pass starts at 0, lo is at most 0 and hi at least 1 by their forms. */
static bool keeps_first_key(const TilePlan *tp, const Expr *lo, const Expr *hi)
{
	const Expr *s = tp->step->lo;
	if (s->kind != EX_INT || s->ival != 0)
		return false;
	if (lo && !(lo->kind == EX_INT && lo->ival <= 0))
		return false;
	if (!hi)
		return true;
	if (hi->kind == EX_INT)
		return hi->ival >= 1;
	return hi->kind == EX_BIN && hi->bop == OP_ADD &&
	       ((hi->args[1]->kind == EX_INT && hi->args[1]->ival >= 1 && nonneg_form(tp, hi->args[0])) ||
	        (hi->args[0]->kind == EX_INT && hi->args[0]->ival >= 1 && nonneg_form(tp, hi->args[1])));
}

/* In element body b, `if (c) x = F; else { x = y; rest }` with F a fill (the form
 * `if (c) { s[j] = -INFINITY; continue; }` takes) becomes `x = c ? F : y; if (!c) { rest
 * }`: a mask statement and a guard, as the scan reads them. */
static void split_mask_else(Program *p, Stmt *b)
{
	if (b->kind != ST_BLOCK)
		return;
	for (int i = 0; i < b->nbody; i++) {
		Stmt *s = b->body[i];
		if (s->kind != ST_IF || s->nbody < 2 || !s->body[1] || s->body[1]->kind != ST_BLOCK || s->body[1]->nbody < 2)
			continue;
		Stmt *t = single(s->body[0]), *e0 = s->body[1]->body[0];
		if (t->kind != ST_ASSIGN || t->aop != AS_SET || !is_neg_inf(t->rhs) || e0->kind != ST_ASSIGN || e0->aop != AS_SET ||
		    !expr_equal(e0->lhs, t->lhs) || expr_reads_var(e0->rhs, t->lhs->var) || expr_reads_var(s->cond, t->lhs->var))
			continue;
		Stmt *m = st_assign(p, ex_copy(p, t->lhs), AS_SET, ex_cond(p, ex_copy(p, s->cond), ex_copy(p, t->rhs), ex_copy(p, e0->rhs), s->loc), s->loc);
		Stmt *g = st_new(p, ST_IF, s->loc);
		g->cond = ex_un(p, UOP_NOT, ex_copy(p, s->cond), s->loc);
		Stmt *rest = st_block(p, s->body[1]->body + 1, s->body[1]->nbody - 1, s->loc);
		st_set_body(p, g, &rest, 1);
		stmt_replace(p, b, s, (Stmt *[]){m, g}, 2);
		i++;
	}
}

/* e with each row's integer local that the row block declares before the pass with an
 * initialiser reading only the grid's loops and scalar parameters (`const int pos = i + Nk
 * - Nq;`), and assigns nowhere, replaced by that initialiser: a bound on the keys through
 * such a local is the same affine function of the row as the initialiser. */
static Expr *through_row_consts(TilePlan *tp, Expr *e)
{
	Var *grid[MAX_GRID];
	for (int g = 0; g < tp->ngrid; g++)
		grid[g] = tp->grid[g].var;
	for (int i = tp->npro - 1; e && i >= 0; i--) {
		const Stmt *d = tp->pro[i];
		if (d->kind != ST_DECL || d->var->ndim || !scalar_is_int(d->var->ty) || !d->rhs || !expr_reads_var(e, d->var) ||
		    !reads_only(d->rhs, grid, tp->ngrid) || expr_reads_element(d->rhs) || stmt_writes_var(tp->step, d->var))
			continue;
		bool once = true;
		for (int k = 0; k < tp->npro && once; k++)
			once = k == i || !stmt_writes_var(tp->pro[k], d->var);
		if (once)
			e = expr_subst_expr(tp->c->prog, e, d->var, ex_as_type(tp->c->prog, d->var->ty, ex_copy(tp->c->prog, d->rhs)));
	}
	return e;
}

void tile_find_masks(TilePlan *tp)
{
	MaskScan ms = {.tp = tp, .ok = true};
	Stmt *sb = tp->step->body[0];
	Stmt **steps = sb->kind == ST_BLOCK ? sb->body : &sb;
	int nsteps = sb->kind == ST_BLOCK ? sb->nbody : 1;
	for (int i = 0; i < nsteps && ms.ok; i++) {
		if (!tile_is_elem_loop(tp, steps[i]))
			continue;
		Stmt *eb = steps[i]->body[0];
		split_mask_else(tp->c->prog, eb);
		ms.jvar = steps[i]->var;
		ms.ndecls = 0;
		if (eb->kind == ST_BLOCK)
			mask_walk(&ms, eb->body, eb->nbody);
		else
			mask_walk(&ms, &eb, 1);
	}
	Expr *lo = NULL, *hi = NULL, *c = ms.ok && ms.cond ? through_defs(&ms, ms.cond) : NULL;
	bool exact = true;
	if (c)
		kept_bounds(tp, c, true, &lo, &hi, &exact);
	if (c && !stmt_all_exprs(tp->step, no_huge_fill, NULL) && !(exact && (lo || hi) && keeps_first_key(tp, lo, hi))) {
		/* a finite fill hides an element only where its row keeps a key: C weighs a row
		 * masked whole uniformly (every e^(F - F) is 1); unproven, it runs as written */
		tp->nmask = 0;
		return;
	}
	lo = lo ? through_row_consts(tp, lo) : NULL;
	hi = hi ? through_row_consts(tp, hi) : NULL;
	/* The bounds may read the row, parameters and parallel loops only. */
	for (int k = 0; k < tp->nvars; k++)
		if ((lo && expr_reads_var(lo, tp->vars[k])) || (hi && expr_reads_var(hi, tp->vars[k])))
			lo = hi = NULL;
	/* A skip of the steps the mask hides whole (a block layout) comes first, as the range
	 * is no part of it. */
	if (!exact && ms.ok && ms.cond)
		find_skip(tp, ms.cond);
	if ((!lo && !hi) || tp->skip_hidden) {
		if (ms.ok && ms.cond && !tp->skip_hidden)
			find_skip(tp, ms.cond);
		if (!tp->skip_hidden) /* with a skip, the mask statements run where a step is not kept whole */
			tp->nmask = 0;
		return;
	}
	tp->mask_lo = lo;
	tp->mask_hi = hi;
	/* A mask that is more than its range (a prefix, a chunk) still runs as written inside it. */
	if (!exact)
		tp->nmask = 0;
}
