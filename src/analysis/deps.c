/* deps.c: the polyhedral model of a region, written as isl strings, and its memory-based
 * dependences. Every leaf statement is an isl statement S<n> over the iterators of its
 * enclosing loops; every variable is an isl array named <name>_<id> so that identity,
 * not spelling, ties accesses together; the schedule is the 2d+1 vector of textual
 * positions and iterators. A dependence is a pair of instances, the first scheduled
 * before the second, that touch one element with at least one write. Dependences are
 * kept per array so that queries can leave out recognised reductions. */
#include "deps.h"

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/union_map.h>
#include <isl/space.h>
#include <isl/union_set.h>
#include <string.h>

/* One isl statement: an assignment or an initialised declaration. */
typedef struct DStmt {
	const Stmt *s;
	Var *target;        /* the variable it writes */
	const Stmt **loops; /* enclosing loops, the region's loop first */
	int *pos;           /* depth + 1 textual positions: the schedule's even dimensions */
	int depth;
} DStmt;

typedef struct DLoop {
	const Stmt *s;
	const Stmt *parent; /* the enclosing loop; NULL for the region's loop */
	int depth;          /* 1 for the region's loop */
	int pos;            /* position in the parent's body */
} DLoop;

typedef struct DArray {
	Var *var;
	StrBuf w, r;        /* access relations in isl notation, while building */
	isl_union_map *dep; /* its dependences: S<a>[..] -> S<b>[..] */
} DArray;

struct DepInfo {
	isl_ctx *ctx;
	Program *prog;
	VEC(DStmt) stmts;
	VEC(DLoop) loops;
	VEC(DArray) arrays;
	isl_union_set *domain;
	isl_union_map *sched;
};

/* A local and the number of loops around its declaration: its privatisation prefix. */
typedef struct Local {
	const Var *var;
	int nloops;
} Local;

typedef struct BadAccess {
	const Var *v;
	const char *msg;
	Loc at;
	bool write;
} BadAccess;

typedef struct Build {
	DepInfo *d;
	StrBuf params;           /* "[N_0, D_1] -> " or empty */
	VEC(const Stmt *) loops; /* the loops around the walk */
	VEC(char *) bounds;      /* each one's constraints as isl text; NULL after an error */
	VEC(int) path;           /* each one's position in its parent's body */
	VEC(int) next;           /* next free position at each level (loops.n + 1 entries) */
	VEC(const Expr *) conds; /* the if conditions around the walk */
	VEC(const Expr *) holds; /* those of them true where the walk is (not an else's) */
	VEC(Local) locals;
	StrBuf dom;              /* the domain's pieces */
	int maxdepth;
	int nfree;               /* free subscripts so far (u<n>) */
	const Region *region;
	bool ok;
	/* The error for the first non-affine subscript of each array the walk met, reported
	 * once per array after it (a store's before a read's: the store is what cannot be
	 * shown), in the order the arrays came. */
	VEC(BadAccess) bad;
} Build;

/* ---- names ---- */

/* The isl name of a variable: its name with anything isl could misread replaced, then its
 * id. The id after the last '_' keeps names unique; statements (S<n>) and existentials
 * (e<n>) have no '_' and cannot collide. */
static void put_name(StrBuf *b, const Var *v)
{
	for (const char *s = v->name; *s; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
		sb_putc(b, ok ? c : '_');
	}
	sb_printf(b, "_%d", v->id);
}

/* `S<si>[it_1, ..., it_k]`: the statement's tuple over its loops' iterators. */
static void put_tuple(StrBuf *b, const DStmt *st, int si)
{
	sb_printf(b, "S%d[", si);
	for (int i = 0; i < st->depth; i++) {
		if (i)
			sb_puts(b, ", ");
		put_name(b, st->loops[i]->var);
	}
	sb_putc(b, ']');
}

/* ---- affine expressions ---- */

/* An affine expression in isl notation, or a folded constant. */
typedef struct Aff {
	bool is_const;
	long long c;
	StrBuf s; /* the text when not constant */
} Aff;

/* The text of `a`, printing a folded constant first (parenthesised when negative). */
static const char *aff_text(Aff *a)
{
	if (a->is_const) {
		a->s.len = 0;
		sb_printf(&a->s, a->c < 0 ? "(%lld)" : "%lld", a->c);
	}
	return a->s.s;
}

/* e, `a < b ? a : b` or a mirror of it: 1 where it is min(a, b), -1 max(a, b), else 0. */
static int cond_extreme(const Expr *e)
{
	if (e->kind != EX_COND)
		return 0;
	const Expr *c = e->args[0], *x = e->args[1], *y = e->args[2];
	if (c->kind != EX_BIN || (c->bop != OP_LT && c->bop != OP_LE && c->bop != OP_GT && c->bop != OP_GE))
		return 0;
	bool same = expr_equal(c->args[0], x) && expr_equal(c->args[1], y), swapped = expr_equal(c->args[0], y) && expr_equal(c->args[1], x);
	bool less = c->bop == OP_LT || c->bop == OP_LE;
	return !same && !swapped ? 0 : less == same ? 1 : -1;
}

/* Converts `e` to an affine expression over loop iterators and int parameters. Returns
 * NULL on success (the caller frees out->s), or the innermost subexpression that makes it
 * non-affine. Division and modulo of a non-constant need a positive constant divisor and
 * become isl's floor and mod: they agree with C's truncation for the non-negative values
 * subscripts have. Constants fold with C's rules. */
static const Expr *affine(const Expr *e, Aff *out)
{
	*out = (Aff){0};
	switch (e->kind) {
	case EX_INT:
		out->is_const = true;
		out->c = e->ival;
		return NULL;
	case EX_VAR:
		if (e->var->ndim || e->var->ty != TY_INT || e->var->kind == VAR_LOCAL)
			return e;
		put_name(&out->s, e->var);
		return NULL;
	case EX_CAST:
		/* (int) of an int changes nothing, nor does widening an int or int64 to int64
		 * (`(int64_t)(b * H + h) * N`: isl's integers are unbounded); a narrowing or a
		 * float is not affine. */
		if (!(e->args[0]->ty == TY_INT && e->ty == TY_INT) && !((e->args[0]->ty == TY_INT || e->args[0]->ty == TY_I64) && e->ty == TY_I64))
			return e;
		return affine(e->args[0], out);
	case EX_UN: {
		if (e->uop != UOP_NEG)
			return e;
		Aff a;
		const Expr *bad = affine(e->args[0], &a);
		if (!bad) {
			if (a.is_const) {
				out->is_const = true;
				out->c = -a.c;
			} else {
				sb_printf(&out->s, "(-%s)", a.s.s);
			}
		}
		sb_free(&a.s);
		return bad;
	}
	case EX_BIN: {
		Aff a, b = {0};
		const Expr *bad = affine(e->args[0], &a);
		if (!bad)
			bad = affine(e->args[1], &b);
		if (bad)
			goto done;
		bool both = a.is_const && b.is_const;
		switch (e->bop) {
		case OP_ADD:
		case OP_SUB:
			if (both) {
				out->is_const = true;
				out->c = e->bop == OP_ADD ? a.c + b.c : a.c - b.c;
			} else {
				sb_printf(&out->s, "(%s %c ", aff_text(&a), e->bop == OP_ADD ? '+' : '-');
				sb_printf(&out->s, "%s)", aff_text(&b));
			}
			break;
		case OP_MUL:
			if (both) {
				out->is_const = true;
				out->c = a.c * b.c;
			} else if (a.is_const || b.is_const) {
				sb_printf(&out->s, "(%s*", aff_text(&a));
				sb_printf(&out->s, "%s)", aff_text(&b));
			} else {
				bad = e;
			}
			break;
		case OP_DIV:
		case OP_MOD:
			if (both && b.c != 0) {
				out->is_const = true;
				out->c = e->bop == OP_DIV ? a.c / b.c : a.c % b.c;
			} else if (b.is_const && b.c > 0 && !a.is_const) {
				if (e->bop == OP_DIV)
					sb_printf(&out->s, "floor(%s/%lld)", a.s.s, b.c);
				else
					sb_printf(&out->s, "(%s mod %lld)", a.s.s, b.c);
			} else {
				bad = e;
			}
			break;
		default:
			bad = e;
			break;
		}
	done:
		sb_free(&a.s);
		sb_free(&b.s);
		if (bad)
			sb_free(&out->s);
		return bad;
	}
	case EX_COND: {
		/* min or max of affine expressions */
		const Expr *x = e->args[1], *y = e->args[2];
		int ext = cond_extreme(e);
		if (!ext)
			return e;
		Aff a, b;
		const Expr *bad = affine(x, &a);
		if (!bad && (bad = affine(y, &b)) != NULL)
			sb_free(&b.s);
		if (!bad) {
			sb_printf(&out->s, "%s(%s, ", ext > 0 ? "min" : "max", aff_text(&a));
			sb_printf(&out->s, "%s)", aff_text(&b));
			sb_free(&b.s);
		}
		sb_free(&a.s);
		return bad;
	}
	default:
		return e;
	}
}

/* ---- building the model ---- */

/* The model's array for variable `v`, created on first use: arrays keep textual order. */
static DArray *array_of(Build *b, Var *v)
{
	for (int i = 0; i < b->d->arrays.n; i++)
		if (b->d->arrays.v[i].var == v)
			return &b->d->arrays.v[i];
	vec_push(b->d->arrays, ((DArray){v, {0}, {0}, NULL}));
	return &b->d->arrays.v[b->d->arrays.n - 1];
}

/* How many loops surround the declaration of local `v` (0 for a variable that is not a
 * local of the region): the iterators that privatise it. */
static int local_loops(Build *b, const Var *v)
{
	for (int i = b->locals.n - 1; i >= 0; i--)
		if (b->locals.v[i].var == v)
			return b->locals.v[i].nloops;
	return 0;
}

static void reads(Build *b, int si, const Expr *e, bool report);

/* Whether e is `x * P + g` (in any order of terms and factors) with P an int parameter, x
 * affine and g the iterator of a loop `for (g = 0; g < P; g++)` of the region: a pair of
 * indices flattened, as in q[b][kh * G + g]. Sets *x, *g and *P. */
static bool flattened(const Build *b, const Expr *e, const Expr **x, const Var **g, const Var **P)
{
	if (e->kind != EX_BIN || e->bop != OP_ADD)
		return false;
	for (int side = 0; side < 2; side++) {
		const Expr *m = e->args[side], *it = e->args[1 - side];
		if (m->kind != EX_BIN || m->bop != OP_MUL || it->kind != EX_VAR || it->var->kind != VAR_LOOP)
			continue;
		for (int f = 0; f < 2; f++) {
			const Expr *p = m->args[f];
			if (p->kind != EX_VAR || p->var->kind != VAR_PARAM || p->var->ndim || p->var->ty != TY_INT)
				continue;
			const Stmt *l = stmt_loop_of(b->region->loop, it->var);
			Aff a;
			const Expr *bad = affine(m->args[1 - f], &a);
			sb_free(&a.s);
			if (!l || bad || l->step != 1 || l->lo->kind != EX_INT || l->lo->ival != 0 || l->hi->kind != EX_VAR || l->hi->var != p->var)
				continue;
			*x = m->args[1 - f];
			*g = it->var;
			*P = p->var;
			return true;
		}
	}
	return false;
}

/* A test of one subscript against what the first access chose (ctx). */
typedef bool (*SubTest)(const Build *b, const Expr *sub, const void *ctx);

/* Whether every access to v in e passes test on its subscript `dim`. */
static bool all_accesses(const Build *b, const Expr *e, const Var *v, int dim, SubTest test, const void *ctx)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var == v && !test(b, e->args[dim], ctx))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!all_accesses(b, e->args[i], v, dim, test, ctx))
			return false;
	return true;
}

/* ... in every statement of s (the region). */
static bool stmt_all_accesses(const Build *b, const Stmt *s, const Var *v, int dim, SubTest test, const void *ctx)
{
	if (!s)
		return true;
	if (!all_accesses(b, s->lhs, v, dim, test, ctx) || !all_accesses(b, s->rhs, v, dim, test, ctx) || !all_accesses(b, s->cond, v, dim, test, ctx))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_all_accesses(b, s->body[i], v, dim, test, ctx))
			return false;
	return true;
}

/* Whether sub flattens with the parameter P (ctx). When every access to an array does so
 * on one dimension, the model gives the array two dimensions there (x, g): exact. */
static bool flattened_by(const Build *b, const Expr *sub, const void *P)
{
	const Expr *x;
	const Var *g, *q;
	return flattened(b, sub, &x, &g, &q) && q == P;
}

static bool data_bound(const Build *b, const Expr *e);

/* The element of an index array (`cu[s]`, maybe cast to int) that sum e adds, when it
 * adds one and only one such term and nothing else non-affine; NULL otherwise. */
static const Expr *offset_term(const Build *b, const Expr *e)
{
	const Expr *x = e->kind == EX_CAST && e->ty == TY_INT ? e->args[0] : e;
	if (x->kind == EX_INDEX)
		return x->var->kind == VAR_PARAM && x->var->is_const && scalar_is_int(x->var->ty) && data_bound(b, x) ? e : NULL;
	if (e->kind != EX_BIN || (e->bop != OP_ADD && e->bop != OP_SUB))
		return NULL;
	Aff a;
	for (int side = 0; side < 2; side++) {
		const Expr *bad = affine(e->args[1 - side], &a);
		sb_free(&a.s);
		if (!bad && (side == 0 || e->bop == OP_ADD))
			return offset_term(b, e->args[side]);
	}
	return NULL;
}

/* e with subexpression t (by address) replaced by 0. */
static Expr *zero_term(Program *p, const Expr *e, const Expr *t)
{
	if (e == t)
		return ex_int(p, 0, e->loc);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < e->nargs; i++)
		c->args[i] = zero_term(p, e->args[i], t);
	return c;
}

static bool is_zero(const Expr *e) { return e->kind == EX_INT && e->ival == 0; }

/* Whether e is cu[k + 1] - cu[k] for the element t = cu[k] (maybe cast). */
static bool next_minus(const Expr *e, const Expr *t)
{
	const Expr *u = t->kind == EX_CAST ? t->args[0] : t;
	if (e->kind != EX_BIN || e->bop != OP_SUB || !expr_equal(e->args[1], t))
		return false;
	const Expr *n = e->args[0]->kind == EX_CAST && t->kind == EX_CAST ? e->args[0]->args[0] : e->args[0];
	if (n->kind != EX_INDEX || n->var != u->var || n->nargs != 1 || u->nargs != 1)
		return false;
	const Expr *k1 = n->args[0];
	return k1->kind == EX_BIN && k1->bop == OP_ADD && expr_equal(k1->args[0], u->args[0]) && k1->args[1]->kind == EX_INT && k1->args[1]->ival == 1;
}

/* Whether end e keeps a packed row inside its sequence (t = cu[k]): cu[k + 1] - cu[k], or
 * the min of it and anything (`if (i >= seqlen) break;` in a loop to max_seqlen). */
static bool within_next(const Expr *e, const Expr *t)
{
	if (next_minus(e, t))
		return true;
	return e->kind == EX_COND && cond_extreme(e) > 0 && (within_next(e->args[1], t) || within_next(e->args[2], t));
}

/* Whether e is `cu[k] + i` (either order) where loop i runs from 0 (to cu[k + 1] - cu[k]
 * or less: in_sequence): row i of sequence k of a packed batch, o[cu[s] + i], rows
 * [cu[s], cu[s + 1]). Sets
 * *off to cu[k] and *x to i. Rows of distinct k do not overlap when the offsets rise,
 * which is the caller's contract (FlashAttention's varlen functions ask the same); any
 * other subscript through an index array stays a scatter. */
static bool packed(const Build *b, const Expr *e, const Expr **off, const Expr **x)
{
	const Expr *t = offset_term(b, e);
	if (!t)
		return false;
	Expr *rest = zero_term(b->d->prog, e, t);
	if (rest->kind == EX_BIN && rest->bop == OP_ADD && (is_zero(rest->args[0]) || is_zero(rest->args[1])))
		rest = is_zero(rest->args[0]) ? rest->args[1] : rest->args[0];
	if (rest->kind != EX_VAR || rest->var->kind != VAR_LOOP)
		return false;
	const Stmt *l = stmt_loop_of(b->region->loop, rest->var);
	if (!l || l->step != 1 || !is_zero(l->lo))
		return false;
	*off = t;
	*x = rest;
	return true;
}

/* Whether cond, or one of its && terms, is x < e with e within the sequence of t. */
static bool guard_within(const Expr *c, const Expr *x, const Expr *t)
{
	if (c->kind != EX_BIN)
		return false;
	if (c->bop == OP_LAND)
		return guard_within(c->args[0], x, t) || guard_within(c->args[1], x, t);
	return (c->bop == OP_LT && expr_equal(c->args[0], x) && within_next(c->args[1], t)) ||
	       (c->bop == OP_GT && expr_equal(c->args[1], x) && within_next(c->args[0], t));
}

/* Whether the packed row x of sequence t (packed) that the walk is at stays in its
 * sequence: its loop ends there, or an if around the access ends it there (`if (i >=
 * seqlen) break;` in a loop to max_seqlen, whose guard the fuser puts on each statement). */
static bool in_sequence(const Build *b, const Expr *x, const Expr *t)
{
	const Stmt *l = stmt_loop_of(b->region->loop, x->var);
	if (within_next(l->hi, t))
		return true;
	for (int i = 0; i < b->holds.n; i++)
		if (guard_within(b->holds.v[i], x, t))
			return true;
	return false;
}

/* Whether sub is a packed row at offset off (ctx). When every access to an array is so on
 * one dimension, the model reads that dimension as (the iterators off reads, x), exact
 * when the rows of distinct offsets do not overlap, which is the caller's contract for
 * packed batches (cu_seqlens rising, as FlashAttention's varlen functions require). */
static bool packed_at(const Build *b, const Expr *sub, const void *off)
{
	const Expr *o, *x;
	return packed(b, sub, &o, &x) && expr_equal(o, off);
}

/* A variable e reads that the fuser made (its loc is the region's: fresh_var), or NULL. */
static const Var *made_var(const Build *b, const Expr *e)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->loc.line == b->region->loc.line && e->var->loc.col == b->region->loc.col)
		return e->var;
	for (int i = 0; i < e->nargs; i++) {
		const Var *v = made_var(b, e->args[i]);
		if (v)
			return v;
	}
	return NULL;
}

static bool reads_array(const Expr *e)
{
	if (e->kind == EX_INDEX)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_array(e->args[i]))
			return true;
	return false;
}

/* The error for subscript sub of v, not affine at bad, in statement si (< 0: none), and
 * where it points (*at): at the subscript where the statement holds it, else at the
 * statement (the front end forwarded `y = Y[i]` into X[i][y]; the fuser walked a nest of
 * loops as one), in the input's names. */
static const char *bad_subscript(const Build *b, int si, const Var *v, const Expr *sub, const Expr *bad, bool write, Loc *at)
{
	Arena *ar = &b->d->prog->arena;
	const Stmt *s = si >= 0 ? b->d->stmts.v[si].s : NULL;
	*at = bad->loc;
	bool moved = s && bad->loc.line != s->loc.line;
	if (moved)
		*at = s->loc;
	const Var *m = made_var(b, sub);
	const Stmt *l = m ? stmt_loop_of(b->region->loop, m) : NULL;
	if (l) {
		StrBuf by = {0};
		if (bad->kind == EX_BIN && (bad->bop == OP_DIV || bad->bop == OP_MOD))
			sb_puts(&by, "'"), print_expr(&by, bad->args[1]), sb_puts(&by, "'");
		else
			sb_puts(&by, "its size");
		const char *msg = arena_printf(ar, "'%s' is %s at a subscript fusecc cannot show to differ between iterations: it walks the nested loops at line %d as one loop over the keys, and a subscript from both of them then takes a division and a remainder by %s, which is not a constant (%s's subscripts must be affine in loop iterators and int parameters)",
		                               v->name, write ? "stored" : "read, and stored by the region,", l->loc.line, by.s, write ? "a store" : "an access");
		sb_free(&by);
		return msg;
	}
	StrBuf t = {0};
	print_expr(&t, sub);
	const char *from = moved ? arena_printf(ar, " (read at line %d)", bad->loc.line) : "";
	const char *msg;
	if (write && reads_array(sub))
		msg = arena_printf(ar, "'%s' is stored through an index, at subscript '%s'%s: fusecc refuses a write through an index array, since it cannot show that two iterations store different elements (a store's subscripts must be affine in loop iterators and int parameters)",
		                   v->name, t.s, from);
	else if (write)
		msg = arena_printf(ar, "non-affine subscript '%s'%s of '%s': fusecc cannot show that two iterations store different elements (a store's subscripts must be affine in loop iterators and int parameters)", t.s, from, v->name);
	else
		msg = arena_printf(ar, "non-affine subscript '%s'%s of '%s', which the region also stores: subscripts must be affine in loop iterators and int parameters", t.s, from, v->name);
	sb_free(&t);
	return msg;
}

/* Records that statement `si` reads or writes element `subs` of `v`; si < 0 only checks
 * the subscripts. Locals get the iterators of the loops around their declaration first.
 * Notes a non-affine subscript for the array's one error (b->bad) when `report` (callers
 * that see an expression twice report the first time only). */
static void access(Build *b, int si, Var *v, Expr *const *subs, int nsubs, bool write, bool report)
{
	StrBuf idx = {0};
	bool ok = true;
	int nl = v->kind == VAR_LOCAL ? local_loops(b, v) : 0;
	sb_puts(&idx, "");
	for (int i = 0; i < nl; i++) {
		if (i)
			sb_puts(&idx, ", ");
		put_name(&idx, b->loops.v[i]->var);
	}
	/* A read of an array the region never writes conflicts with nothing: a subscript
	 * that is not affine (h / G with G a parameter, an index array's value) may be any
	 * element, a free variable u<n> of the access (the reads inside it are recorded). */
	bool read_only = !write && v->kind == VAR_PARAM && v->ndim && !stmt_writes_var(b->region->loop, v);
	for (int i = 0; i < nsubs; i++) {
		Aff a;
		const Expr *bad = affine(subs[i], &a), *x, *pk_off;
		const Var *g, *P;
		if (bad && flattened(b, subs[i], &x, &g, &P) && stmt_all_accesses(b, b->region->loop, v, i, flattened_by, P)) {
			affine(x, &a);
			sb_printf(&idx, "%s%s, ", nl + i ? ", " : "", aff_text(&a));
			put_name(&idx, g);
			sb_free(&a.s);
			continue;
		}
		/* every access is packed at one offset; each one's row in its sequence is checked
		 * where it is walked */
		if (bad && packed(b, subs[i], &pk_off, &x) && in_sequence(b, x, pk_off) && stmt_all_accesses(b, b->region->loop, v, i, packed_at, pk_off)) {
			if (si >= 0)
				reads(b, si, pk_off, report);
			bool first = !nl && !i;
			for (int l = 0; l < b->loops.n; l++)
				if (expr_reads_var(pk_off, b->loops.v[l]->var)) {
					sb_puts(&idx, first ? "" : ", ");
					put_name(&idx, b->loops.v[l]->var);
					first = false;
				}
			affine(x, &a);
			sb_printf(&idx, "%s%s", first ? "" : ", ", aff_text(&a));
			sb_free(&a.s);
			continue;
		}
		if (bad && read_only) {
			if (si >= 0)
				reads(b, si, subs[i], report);
			sb_printf(&idx, "%su%d", nl + i ? ", " : "", b->nfree++);
			continue;
		}
		if (bad) {
			int k = 0;
			while (k < b->bad.n && b->bad.v[k].v != v)
				k++;
			if (report && k == b->bad.n)
				vec_push(b->bad, ((BadAccess){.v = v}));
			if (report && (!b->bad.v[k].msg || (write && !b->bad.v[k].write))) {
				b->bad.v[k].msg = bad_subscript(b, si, v, subs[i], bad, write, &b->bad.v[k].at);
				b->bad.v[k].write = write;
			}
			ok = false;
			continue;
		}
		if (nl + i)
			sb_puts(&idx, ", ");
		sb_puts(&idx, aff_text(&a));
		sb_free(&a.s);
	}
	if (!ok)
		b->ok = false;
	if (ok && si >= 0) {
		DArray *arr = array_of(b, v);
		StrBuf *t = write ? &arr->w : &arr->r;
		put_tuple(t, &b->d->stmts.v[si], si);
		sb_puts(t, " -> ");
		put_name(t, v);
		sb_printf(t, "[%s]; ", idx.s);
	}
	sb_free(&idx);
}

/* Records every memory read in `e`: local scalars and array elements. Subscripts hold
 * reads only when they are not affine (access() records those of a read-only array's,
 * and reports the others). */
static void reads(Build *b, int si, const Expr *e, bool report)
{
	if (e->kind == EX_VAR) {
		if (e->var->kind == VAR_LOCAL)
			access(b, si, e->var, NULL, 0, false, report);
		return;
	}
	if (e->kind == EX_INDEX) {
		access(b, si, e->var, e->args, e->nargs, false, report);
		return;
	}
	for (int i = 0; i < e->nargs; i++)
		reads(b, si, e->args[i], report);
}

/* A leaf statement: its place in the schedule, its domain and its accesses. */
static void leaf(Build *b, const Stmt *s)
{
	DepInfo *d = b->d;
	Arena *ar = &d->prog->arena;
	int si = d->stmts.n, depth = b->loops.n;
	DStmt st = {s, s->kind == ST_DECL ? s->var : s->lhs->var, NULL, NULL, depth};
	st.loops = arena_alloc(ar, sizeof(Stmt *) * (size_t)depth);
	st.pos = arena_alloc(ar, sizeof(int) * (size_t)(depth + 1));
	for (int i = 0; i < depth; i++) {
		st.loops[i] = b->loops.v[i];
		st.pos[i] = b->path.v[i];
	}
	st.pos[depth] = b->next.v[depth]++;
	vec_push(d->stmts, st);

	bool bounds_ok = true;
	for (int i = 0; i < depth; i++)
		bounds_ok &= b->bounds.v[i] != NULL;
	if (bounds_ok) {
		put_tuple(&b->dom, &st, si);
		sb_puts(&b->dom, " : ");
		for (int i = 0; i < depth; i++)
			sb_printf(&b->dom, "%s%s", i ? " and " : "", b->bounds.v[i]);
		sb_puts(&b->dom, "; ");
	}
	if (s->kind == ST_DECL) {
		access(b, si, s->var, NULL, 0, true, true);
		reads(b, si, s->rhs, true);
	} else {
		const Expr *l = s->lhs;
		Expr *const *subs = l->kind == EX_INDEX ? l->args : NULL;
		int nsubs = l->kind == EX_INDEX ? l->nargs : 0;
		if (l->kind == EX_INDEX || l->var->kind == VAR_LOCAL) {
			access(b, si, l->var, subs, nsubs, true, true);
			if (s->aop != AS_SET)
				access(b, si, l->var, subs, nsubs, false, false);
		}
		reads(b, si, s->rhs, true);
	}
	/* The if conditions were checked where they stand; do not report them again. */
	for (int i = 0; i < b->conds.n; i++)
		reads(b, si, b->conds.v[i], false);
}

/* Whether e reads only int parameters, loop iterators and arrays the region never
 * stores (a length read from an array: len[b], cu[s + 1] - cu[s]). */
static bool data_bound(const Build *b, const Expr *e)
{
	if (e->kind == EX_VAR && e->var->kind == VAR_LOCAL)
		return false;
	if (e->kind == EX_INDEX && (e->var->kind != VAR_PARAM || stmt_writes_var(b->region->loop, e->var)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!data_bound(b, e->args[i]))
			return false;
	return true;
}

/* A start `(x / P) * P` with x affine and P an int parameter (a chunk's first key,
 * Llama-4's `(i / C) * C`): *lo gets the affine bound below it that the model uses,
 * min(x - P, x + P) + 1 (x rounded toward zero to a multiple of P is above x - |P|
 * whatever the signs, and P is not zero where the division runs). */
static bool chunk_start(const Expr *e, Aff *lo)
{
	if (e->kind != EX_BIN || e->bop != OP_MUL || e->args[0]->kind != EX_BIN || e->args[0]->bop != OP_DIV)
		return false;
	const Expr *x = e->args[0]->args[0], *P = e->args[1];
	if (!expr_equal(e->args[0]->args[1], P) || P->kind != EX_VAR || P->var->kind != VAR_PARAM || P->var->ndim || P->var->ty != TY_INT)
		return false;
	Aff a;
	if (affine(x, &a))
		return false;
	*lo = (Aff){0};
	sb_printf(&lo->s, "(min(%s - ", aff_text(&a));
	put_name(&lo->s, P->var);
	sb_printf(&lo->s, ", %s + ", aff_text(&a));
	put_name(&lo->s, P->var);
	sb_puts(&lo->s, ") + 1)");
	sb_free(&a.s);
	return true;
}

/* The constraint `e <= v` (lower) or `v < e` on iterator v where bound e is `c ? x : y`
 * with c a comparison of affine expressions and x, y such bounds in turn (a window's
 * start from a helper's early returns, `i < W ? 0 : i - W + 1`): the two cases as a
 * disjunction, which isl takes as it is. NULL when e is no such bound. */
static char *piecewise_bound(const Expr *e, const Var *v, bool lower)
{
	StrBuf c = {0};
	Aff a;
	if (!affine(e, &a)) {
		if (lower)
			sb_printf(&c, "%s <= ", aff_text(&a));
		put_name(&c, v);
		if (!lower)
			sb_printf(&c, " < %s", aff_text(&a));
		sb_free(&a.s);
		return c.s;
	}
	const Expr *k = e->kind == EX_COND ? e->args[0] : NULL;
	static const char *const ops[][2] = {[OP_LT] = {"<", ">="}, [OP_LE] = {"<=", ">"}, [OP_GT] = {">", "<="}, [OP_GE] = {">=", "<"}};
	if (!k || k->kind != EX_BIN || (k->bop != OP_LT && k->bop != OP_LE && k->bop != OP_GT && k->bop != OP_GE))
		return NULL;
	Aff l, r = {0};
	char *x = NULL, *y = NULL;
	if (!affine(k->args[0], &l) && !affine(k->args[1], &r) && (x = piecewise_bound(e->args[1], v, lower)) && (y = piecewise_bound(e->args[2], v, lower))) {
		sb_printf(&c, "((%s %s ", aff_text(&l), ops[k->bop][0]);
		sb_printf(&c, "%s and %s) or (", aff_text(&r), x);
		sb_printf(&c, "%s %s ", aff_text(&l), ops[k->bop][1]);
		sb_printf(&c, "%s and %s))", aff_text(&r), y);
	}
	sb_free(&l.s);
	sb_free(&r.s);
	free(x);
	free(y);
	return c.s;
}

/* The constraints of loop `s` on its iterator, or NULL after reporting a non-affine bound.
 * An end read from an array the region never stores (j < len[b]) constrains nothing, and
 * a chunk's start (chunk_start) only from below: the model's domain holds every iteration
 * that any values could make. */
static char *bounds_text(const Build *b, const Stmt *s)
{
	Aff lo, hi = {0};
	const Expr *bad = affine(s->lo, &lo), *which = s->lo;
	bool free_hi = false, free_lo = false;
	if (bad && chunk_start(s->lo, &lo))
		bad = NULL;
	char *pw = bad && s->step == 1 ? piecewise_bound(s->lo, s->var, true) : NULL;
	if (pw) { /* the start piecewise: the end is affine or data */
		Aff e;
		if (!affine(s->hi, &e)) {
			StrBuf c = {0};
			sb_printf(&c, "%s and ", pw);
			put_name(&c, s->var);
			sb_printf(&c, " < %s", aff_text(&e));
			sb_free(&e.s);
			free(pw);
			return c.s;
		}
		free(pw);
		if (data_bound(b, s->hi)) {
			sb_free(&lo.s);
			return piecewise_bound(s->lo, s->var, true);
		}
	}
	/* A start read from data and relative to an outer iterator (`i - win[h] + 1`, a
	 * window per head: parse.c's shift_data_starts leaves it) constrains nothing. */
	if (bad && !pw && s->step == 1 && expr_reads_element(s->lo) && data_bound(b, s->lo)) {
		free_lo = true;
		bad = NULL;
	}
	if (!bad) {
		bad = affine(s->hi, &hi);
		which = s->hi;
		if (bad && data_bound(b, s->hi)) {
			free_hi = true;
			bad = NULL;
		}
	}
	if (bad) {
		StrBuf t = {0};
		print_expr(&t, which);
		error_at(bad->loc, "non-affine loop bound '%s': loop bounds must be affine in outer loop iterators and int parameters (an end may also be read from an array the region does not store)", t.s);
		sb_free(&t);
		sb_free(&lo.s);
		sb_free(&hi.s);
		return NULL;
	}
	StrBuf c = {0};
	if (!free_lo)
		sb_printf(&c, "%s <= ", aff_text(&lo));
	put_name(&c, s->var);
	if (!free_hi)
		sb_printf(&c, " < %s", aff_text(&hi));
	else if (free_lo)
		sb_puts(&c, " = ");
	if (free_hi && free_lo)
		put_name(&c, s->var);
	/* The fuser's tile loops step by more than one: v = lo + step*e. */
	if (s->step > 1) {
		sb_printf(&c, " and exists (e%d : ", s->var->id);
		put_name(&c, s->var);
		sb_printf(&c, " = %s + %ld*e%d)", aff_text(&lo), s->step, s->var->id);
	}
	sb_free(&lo.s);
	sb_free(&hi.s);
	return c.s;
}

static void walk(Build *b, const Stmt *s);

/* Loop `s`: takes the next position at its level, checks its bounds, walks its body with
 * its iterator on the stack. */
static void loop(Build *b, const Stmt *s)
{
	int depth = b->loops.n + 1;
	int pos = b->next.v[depth - 1]++;
	vec_push(b->d->loops, ((DLoop){s, depth > 1 ? b->loops.v[depth - 2] : NULL, depth, pos}));
	char *bt = bounds_text(b, s);
	if (!bt)
		b->ok = false;
	vec_push(b->loops, s);
	vec_push(b->bounds, bt);
	vec_push(b->path, pos);
	vec_push(b->next, 0);
	if (depth > b->maxdepth)
		b->maxdepth = depth;
	walk(b, s->body[0]);
	b->loops.n--;
	b->bounds.n--;
	b->path.n--;
	b->next.n--;
	free(bt);
}

/* Walks the region in textual order. Blocks and ifs take no schedule position of their
 * own: their statements are numbered in the body of the innermost loop around them. */
static void walk(Build *b, const Stmt *s)
{
	switch (s->kind) {
	case ST_BLOCK:
		for (int i = 0; i < s->nbody; i++)
			walk(b, s->body[i]);
		break;
	case ST_IF:
		reads(b, -1, s->cond, true);
		vec_push(b->conds, s->cond);
		for (int i = 0; i < s->nbody; i++) {
			if (!i)
				vec_push(b->holds, s->cond);
			if (s->body[i])
				walk(b, s->body[i]);
			if (!i)
				b->holds.n--;
		}
		b->conds.n--;
		break;
	case ST_FOR:
		loop(b, s);
		break;
	case ST_DECL:
		vec_push(b->locals, ((Local){s->var, b->loops.n}));
		if (s->rhs)
			leaf(b, s);
		break;
	case ST_ASSIGN:
		leaf(b, s);
		break;
	}
}

/* Reads `text` (the model's parameters prepended) as a union map or set. */
static isl_union_map *read_map(Build *b, const StrBuf *text)
{
	StrBuf t = {0};
	sb_printf(&t, "%s{ %s}", b->params.s, text->s ? text->s : "");
	isl_union_map *m = isl_union_map_read_from_str(b->d->ctx, t.s);
	sb_free(&t);
	return m;
}

/* Ordering conflicts: the union of each conflict map S_a -> S_b intersected with "a's
 * instance runs before b's" (sched_a <<_lex sched_b). Only statement pairs that touch one
 * array are ordered: the all-pairs order map grows with the square of the statements.
 * The schedules are [pos0, l0, pos1, l1, ..., pos_depth] with constant positions, so the
 * lexicographic order is built on the conflict map itself rather than through
 * isl_map_lex_lt_map on the padded schedule space (which cost most of the analysis):
 * while a and b sit at equal positions they share the loops there, and a runs first
 * when the shared loops agree up to one where a's iteration is smaller, or all agree and
 * a's position is the smaller at the first place they differ. */
typedef struct OrderCtx {
	const DepInfo *d;
	isl_union_map *deps; /* result */
} OrderCtx;

static isl_stat order_map(isl_map *m, void *user)
{
	OrderCtx *o = user;
	const DStmt *a = &o->d->stmts.v[atoi(isl_map_get_tuple_name(m, isl_dim_in) + 1)];
	const DStmt *b = &o->d->stmts.v[atoi(isl_map_get_tuple_name(m, isl_dim_out) + 1)];
	int shared = 0, lim = a->depth < b->depth ? a->depth : b->depth;
	while (shared < lim && a->pos[shared] == b->pos[shared])
		shared++;
	isl_map *before = isl_map_empty(isl_map_get_space(m));
	for (int t = 0; t <= shared; t++) {
		bool last = t == shared;
		if (last && !(t <= lim && a->pos[t] < b->pos[t]))
			break;
		isl_map *e = isl_map_copy(m);
		for (int s2 = 0; s2 < t; s2++)
			e = isl_map_equate(e, isl_dim_in, s2, isl_dim_out, s2);
		if (!last)
			e = isl_map_order_lt(e, isl_dim_in, t, isl_dim_out, t);
		before = isl_map_union(before, e);
	}
	isl_map_free(m);
	o->deps = isl_union_map_union(o->deps, isl_union_map_from_map(before));
	return o->deps ? isl_stat_ok : isl_stat_error;
}

/* Runs isl on the strings that the walk built: the schedule, the order it defines on
 * instances, and the conflicting accesses of each array in that order. false on an isl
 * failure (a fusecc bug: the strings are ours). */
static bool solve(Build *b)
{
	DepInfo *d = b->d;
	/* Pad every schedule to one length so that all statements share one space. */
	StrBuf sched = {0};
	for (int si = 0; si < d->stmts.n; si++) {
		DStmt *st = &d->stmts.v[si];
		put_tuple(&sched, st, si);
		sb_puts(&sched, " -> [");
		for (int i = 0; i < st->depth; i++) {
			sb_printf(&sched, "%d, ", st->pos[i]);
			put_name(&sched, st->loops[i]->var);
			sb_puts(&sched, ", ");
		}
		sb_printf(&sched, "%d", st->pos[st->depth]);
		for (int i = st->depth; i < b->maxdepth; i++)
			sb_puts(&sched, ", 0, 0");
		sb_puts(&sched, "]; ");
	}
	StrBuf dom = {0};
	sb_printf(&dom, "%s{ %s}", b->params.s, b->dom.s ? b->dom.s : "");
	d->domain = isl_union_set_read_from_str(d->ctx, dom.s);
	sb_free(&dom);
	d->sched = isl_union_map_intersect_domain(read_map(b, &sched), isl_union_set_copy(d->domain));
	sb_free(&sched);
	OrderCtx o = {d, NULL};
	bool ok = d->domain && d->sched;
	for (int i = 0; i < d->arrays.n; i++) {
		DArray *a = &d->arrays.v[i];
		isl_union_map *w = isl_union_map_intersect_domain(read_map(b, &a->w), isl_union_set_copy(d->domain));
		isl_union_map *r = isl_union_map_intersect_domain(read_map(b, &a->r), isl_union_set_copy(d->domain));
		/* Instance pairs that touch one element, at least one of them writing it. */
		isl_union_map *ww = isl_union_map_apply_range(isl_union_map_copy(w), isl_union_map_reverse(isl_union_map_copy(w)));
		isl_union_map *wr = isl_union_map_apply_range(isl_union_map_copy(w), isl_union_map_reverse(isl_union_map_copy(r)));
		isl_union_map *rw = isl_union_map_apply_range(r, isl_union_map_reverse(w));
		isl_union_map *conflict = isl_union_map_union(isl_union_map_union(ww, wr), rw);
		o.deps = isl_union_map_empty(isl_union_map_get_space(conflict));
		if (!ok || isl_union_map_foreach_map(conflict, order_map, &o) < 0) {
			isl_union_map_free(o.deps);
			o.deps = NULL;
		}
		isl_union_map_free(conflict);
		a->dep = isl_union_map_coalesce(o.deps);
		ok &= a->dep != NULL;
	}
	return ok;
}

DepInfo *deps_compute(Program *p, const Region *r)
{
	DepInfo *d = calloc(1, sizeof *d);
	d->prog = p;
	d->ctx = isl_ctx_alloc();
	/* isl reports through us (NULL results), never on its own. */
	isl_options_set_on_error(d->ctx, ISL_ON_ERROR_CONTINUE);
	Build b = {.d = d, .region = r, .ok = true};

	/* The parameters: the function's int scalars, set-up ones included. */
	int np = 0;
	for (int i = 0; i < func_nkparams(r->fn); i++) {
		Var *v = func_kparam(r->fn, i);
		if (v->kind != VAR_PARAM || v->ndim || v->ty != TY_INT)
			continue;
		sb_puts(&b.params, np++ ? ", " : "[");
		put_name(&b.params, v);
	}
	sb_puts(&b.params, np ? "] -> " : "");

	vec_push(b.next, 0);
	walk(&b, r->loop);
	for (int i = 0; i < b.bad.n; i++)
		error_at(b.bad.v[i].at, "%s", b.bad.v[i].msg);
	vec_free(b.bad);
	bool ok = b.ok;
	if (ok && !solve(&b)) {
		internal_error_at(r->loc, "isl failed on the dependence model of this region");
		ok = false;
	}

	for (int i = 0; i < d->arrays.n; i++) {
		sb_free(&d->arrays.v[i].w);
		sb_free(&d->arrays.v[i].r);
	}
	sb_free(&b.params);
	sb_free(&b.dom);
	vec_free(b.loops);
	vec_free(b.bounds);
	vec_free(b.path);
	vec_free(b.next);
	vec_free(b.conds);
	vec_free(b.holds);
	vec_free(b.locals);
	if (!ok) {
		deps_free(d);
		return NULL;
	}
	return d;
}

/* ---- queries ---- */

/* Whether dependences through `v` are left out of a query. */
static bool ignored(const Var *v, Var *const *ignore, int nignore)
{
	for (int i = 0; i < nignore; i++)
		if (ignore[i] == v)
			return true;
	return false;
}

/* Whether statement `st` is nested in `loop`. */
static bool inside(const DStmt *st, const Stmt *loop)
{
	for (int i = 0; i < st->depth; i++)
		if (st->loops[i] == loop)
			return true;
	return false;
}

/* The model's record of loop `s`, or NULL when `s` is not in the region. */
static const DLoop *find_loop(DepInfo *d, const Stmt *s)
{
	for (int i = 0; i < d->loops.n; i++)
		if (d->loops.v[i].s == s)
			return &d->loops.v[i];
	return NULL;
}

/* A search for dependences from a statement inside `from` to one inside `to` whose
 * instances agree on the first k iterators and differ on iterator k. */
typedef struct Query {
	DepInfo *d;
	const Stmt *from, *to;
	int k;
	const Var *array;
	bool found, failed;
	int best_w, best_o; /* the witness pair: the writing end, then the other */
} Query;

/* n from the isl statement name "S<n>"; -1 for anything else. */
static int stmt_index(const char *name)
{
	return name && name[0] == 'S' ? atoi(name + 1) : -1;
}

/* Callback over the maps (statement pairs) of one array's dependences: records the pair as
 * a witness when it matches the query. Takes `m`. */
static isl_stat check_map(isl_map *m, void *user)
{
	Query *q = user;
	DepInfo *d = q->d;
	int x = stmt_index(isl_map_get_tuple_name(m, isl_dim_in));
	int y = stmt_index(isl_map_get_tuple_name(m, isl_dim_out));
	if (x < 0 || y < 0 || x >= d->stmts.n || y >= d->stmts.n) {
		q->failed = true;
		isl_map_free(m);
		return isl_stat_ok;
	}
	if (!inside(&d->stmts.v[x], q->from) || !inside(&d->stmts.v[y], q->to)) {
		isl_map_free(m);
		return isl_stat_ok;
	}
	for (int i = 0; i < q->k; i++)
		m = isl_map_equate(m, isl_dim_in, i, isl_dim_out, i);
	isl_map *lt = isl_map_order_lt(isl_map_copy(m), isl_dim_in, q->k, isl_dim_out, q->k);
	isl_map *gt = isl_map_order_gt(m, isl_dim_in, q->k, isl_dim_out, q->k);
	isl_bool e1 = isl_map_is_empty(lt), e2 = isl_map_is_empty(gt);
	isl_map_free(lt);
	isl_map_free(gt);
	if (e1 < 0 || e2 < 0)
		q->failed = true;
	if (e1 == isl_bool_true && e2 == isl_bool_true)
		return isl_stat_ok;
	/* Point at the write: that is the statement the user must change. */
	int w = d->stmts.v[x].target == q->array ? x : y, o = w == x ? y : x;
	if (!q->found || w < q->best_w || (w == q->best_w && o < q->best_o)) {
		q->best_w = w;
		q->best_o = o;
	}
	q->found = true;
	return isl_stat_ok;
}

/* Whether some dependence that is not through `ignore` matches the query; sets *witness. */
static bool search(Query *q, Var *const *ignore, int nignore, Loc *witness, Loc fallback)
{
	DepInfo *d = q->d;
	for (int i = 0; i < d->arrays.n && !q->failed; i++) {
		DArray *a = &d->arrays.v[i];
		if (ignored(a->var, ignore, nignore))
			continue;
		q->array = a->var;
		if (isl_union_map_foreach_map(a->dep, check_map, q) < 0)
			q->failed = true;
	}
	if (q->failed) {
		/* Answer "dependent": the safe side for every caller. */
		internal_error_at(fallback, "isl failed while checking dependences");
		if (witness)
			*witness = fallback;
		return true;
	}
	if (q->found && witness)
		*witness = d->stmts.v[q->best_w].s->loc;
	return q->found;
}

bool deps_loop_carries(DepInfo *d, const Stmt *loop, Var *const *ignore, int nignore, Loc *witness)
{
	const DLoop *l = find_loop(d, loop);
	if (!l) {
		if (witness)
			*witness = loop->loc;
		return true;
	}
	Query q = {d, loop, loop, l->depth - 1, NULL, false, false, 0, 0};
	return search(&q, ignore, nignore, witness, loop->loc);
}

bool deps_fusable(DepInfo *d, const Stmt *a, const Stmt *b, Var *const *ignore, int nignore, Loc *witness)
{
	const DLoop *la = find_loop(d, a), *lb = find_loop(d, b);
	if (!la || !lb || la->parent != lb->parent || la->depth != lb->depth || la->pos >= lb->pos) {
		if (witness)
			*witness = b->loc;
		return false;
	}
	/* Dependences from b back to a, or between different iterations of the outer loops,
	 * keep their order after fusion: only a -> b at equal outer iterators matters. */
	Query q = {d, a, b, la->depth - 1, NULL, false, false, 0, 0};
	return !search(&q, ignore, nignore, witness, b->loc);
}

/* ---- text ---- */

/* Appends a string that isl allocated, and frees it. */
static void put_isl(StrBuf *b, char *s)
{
	sb_puts(b, s ? s : "(null)");
	free(s);
}

char *deps_describe(DepInfo *d)
{
	StrBuf b = {0};
	sb_puts(&b, "");
	for (int i = 0; i < d->stmts.n; i++) {
		sb_printf(&b, "S%d (line %d): ", i, d->stmts.v[i].s->loc.line);
		print_stmt(&b, d->stmts.v[i].s, 0);
	}
	sb_puts(&b, "domain: ");
	put_isl(&b, isl_union_set_to_str(d->domain));
	sb_puts(&b, "\nschedule: ");
	put_isl(&b, isl_union_map_to_str(d->sched));
	sb_putc(&b, '\n');
	for (int i = 0; i < d->arrays.n; i++) {
		sb_printf(&b, "deps through %s: ", d->arrays.v[i].var->name);
		put_isl(&b, isl_union_map_to_str(d->arrays.v[i].dep));
		sb_putc(&b, '\n');
	}
	return b.s;
}

void deps_free(DepInfo *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->arrays.n; i++)
		isl_union_map_free(d->arrays.v[i].dep);
	vec_free(d->arrays);
	vec_free(d->stmts);
	vec_free(d->loops);
	isl_union_set_free(d->domain);
	isl_union_map_free(d->sched);
	/* A leaked isl object is a fusecc bug: let isl_ctx_free say so. */
	isl_options_set_on_error(d->ctx, ISL_ON_ERROR_WARN);
	isl_ctx_free(d->ctx);
	free(d);
}
