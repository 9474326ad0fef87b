/* flat.c: the dimensions of pointer parameters.
 *
 * A parameter declared `const float *q` is read through flat subscripts,
 * `q[((b * H + h) * N + i) * D + d]`, where the fuser, the dependence analysis and the tile
 * lowering want one subscript per dimension. Each flat subscript is expanded into a sum
 * of terms, coefficient x size parameters x index factors (iterators, and anything that
 * is not a sum of products: `h / G`, `bt[b][p]`); the strides (the coefficient and size
 * parameters of the terms with an index factor) must form a chain in which each divides
 * the next, and each link becomes a dimension: q[b][h][i][d] of q[?][H][N][D]. The
 * element is the same whatever the values, so the rewrite needs no bounds. Int (and int64) locals
 * and set-up scalars assigned once are read through their definitions first, so that
 * `const int row = b * N + i; ... q[row * D + d]` nests the same way.
 *
 * A set-up division of sizes, `int hs = C / NH;` (llm.c, llama2.c and whisper.cpp compute
 * their head size so), is a size of its own when the strides have it as a factor: C reads
 * as NH * hs, so that `t * 3 * C + h * hs + C` nests as [T][3][NH][hs]. That holds when NH
 * divides C, which the fused C asserts and the launcher checks (Func.divs).
 *
 * A one-dimensional local array, `float S[N * N]` subscripted `S[i * N + j]` (a scratch
 * matrix kept flat, or a malloc'd one, which the parser declares so), is read the same way,
 * `S[N][N]`, when its declared size is the product of the dims and every subscript but
 * the outermost stays within its dim: the region writes and reads a local again, and
 * the dependences between those are computed from the subscripts as dims.
 */
#include "front.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FACTORS = 8, MAX_TERMS = 64, MAX_INLINE_DEPTH = 8 };

typedef struct Term {
	long long coef;
	int nsize, nidx;
	Var *size[MAX_FACTORS];        /* size parameters, sorted by id */
	const Expr *idx[MAX_FACTORS];  /* index factors, in source order */
} Term;

typedef struct Poly {
	Term t[MAX_TERMS];
	int n;
	bool ok; /* false: too many terms or factors to expand */
} Poly;

/* A local or set-up int scalar with one definition, read through it. */
typedef struct Def {
	const Var *var;
	const Expr *rhs;
	int writes;
} Def;

/* A set-up `q = num / den` of int parameters that no one assigns again. */
typedef struct Div {
	Var *q, *num, *den;
	bool spec;           /* the GPU printers' reparse reads q as the constant value */
	long long value;
	bool used;           /* a stride has q as a factor: num reads as den * q */
} Div;

typedef struct Flat {
	Program *p;
	Func *f;
	VEC(Def) defs;
	VEC(Div) divs;
	bool subst; /* expand reads the numerators of the used divisions as den * q */
	VEC(const Stmt *) loops;  /* every for loop of the function (iterator -> bounds) */
	VEC(Expr *) access;       /* the EX_INDEX of the parameter being delinearised */
	VEC(const Var *) inlined; /* locals read through their definitions */
} Flat;

static Def *find_def(Flat *fl, const Var *v)
{
	for (int i = 0; i < fl->defs.n; i++)
		if (fl->defs.v[i].var == v)
			return &fl->defs.v[i];
	return NULL;
}

/* Records the definitions of int and int64 scalars (`const int64_t off = ...`, read
 * through as expand reads through the casts between them) and counts every write, and
 * lists the loops. */
static void scan_stmt(Flat *fl, const Stmt *s)
{
	if (!s)
		return;
	if (s->kind == ST_DECL && !s->var->ndim && (s->var->ty == TY_INT || s->var->ty == TY_I64)) {
		Def d = {s->var, s->rhs, 0};
		vec_push(fl->defs, d);
	} else if (s->kind == ST_ASSIGN && s->lhs->kind == EX_VAR) {
		Def *d = find_def(fl, s->lhs->var);
		if (d)
			d->writes++;
	} else if (s->kind == ST_FOR)
		vec_push(fl->loops, s);
	for (int i = 0; i < s->nbody; i++)
		scan_stmt(fl, s->body[i]);
}

static bool same_term_factors(const Term *a, const Term *b)
{
	if (a->nsize != b->nsize || a->nidx != b->nidx)
		return false;
	for (int i = 0; i < a->nsize; i++)
		if (a->size[i] != b->size[i])
			return false;
	bool used[MAX_FACTORS] = {0};
	for (int i = 0; i < a->nidx; i++) {
		int j = 0;
		while (j < b->nidx && (used[j] || !expr_equal(a->idx[i], b->idx[j])))
			j++;
		if (j == b->nidx)
			return false;
		used[j] = true;
	}
	return true;
}

/* Adds t to p, merging it with a term of the same factors. */
static void poly_add(Poly *p, const Term *t)
{
	if (!t->coef)
		return;
	for (int i = 0; i < p->n; i++)
		if (same_term_factors(&p->t[i], t)) {
			p->t[i].coef += t->coef;
			if (!p->t[i].coef)
				p->t[i] = p->t[--p->n];
			return;
		}
	if (p->n == MAX_TERMS) {
		p->ok = false;
		return;
	}
	p->t[p->n++] = *t;
}

static Poly *poly_new(void)
{
	Poly *p = calloc(1, sizeof *p);
	p->ok = true;
	return p;
}

static void poly_scale(Poly *p, long long k)
{
	for (int i = 0; i < p->n; i++)
		p->t[i].coef *= k;
}

static Poly *poly_mul(const Poly *a, const Poly *b)
{
	Poly *r = poly_new();
	r->ok = a->ok && b->ok;
	for (int i = 0; i < a->n && r->ok; i++)
		for (int j = 0; j < b->n && r->ok; j++) {
			const Term *x = &a->t[i], *y = &b->t[j];
			if (x->nsize + y->nsize > MAX_FACTORS || x->nidx + y->nidx > MAX_FACTORS) {
				r->ok = false;
				break;
			}
			Term t = *x;
			t.coef = x->coef * y->coef;
			for (int k = 0; k < y->nsize; k++) { /* insertion, by id */
				int at = t.nsize++;
				while (at > 0 && t.size[at - 1]->id > y->size[k]->id) {
					t.size[at] = t.size[at - 1];
					at--;
				}
				t.size[at] = y->size[k];
			}
			for (int k = 0; k < y->nidx; k++)
				t.idx[t.nidx++] = y->idx[k];
			poly_add(r, &t);
		}
	return r;
}

static bool is_size_param(const Var *v) { return v->kind == VAR_PARAM && !v->ndim && v->ty == TY_INT; }

/* The division whose quotient (as_num: numerator, when used) is v; NULL: none. */
static Div *find_div(Flat *fl, const Var *v, bool as_num)
{
	for (int i = 0; i < fl->divs.n; i++) {
		Div *d = &fl->divs.v[i];
		if (as_num ? d->used && d->num == v : d->q == v)
			return d;
	}
	return NULL;
}

/* t divided by the one term of d, when it divides every term exactly (a set-up
 * `kv_dim = (dim * n_kv_heads) / n_heads` once dim reads as n_heads * head_size);
 * NULL otherwise. The quotient is exact, so it is the C division's value. */
static Poly *poly_div(const Poly *a, const Poly *d)
{
	if (!a->ok || !d->ok || d->n != 1 || d->t[0].nidx || !d->t[0].coef)
		return NULL;
	const Term *dt = &d->t[0];
	Poly *r = poly_new();
	for (int i = 0; i < a->n; i++) {
		Term t = a->t[i];
		if (t.coef % dt->coef) {
			free(r);
			return NULL;
		}
		t.coef /= dt->coef;
		for (int k = 0; k < dt->nsize; k++) {
			int j = 0;
			while (j < t.nsize && t.size[j] != dt->size[k])
				j++;
			if (j == t.nsize) {
				free(r);
				return NULL;
			}
			memmove(&t.size[j], &t.size[j + 1], sizeof(Var *) * (size_t)(t.nsize - j - 1));
			t.nsize--;
		}
		poly_add(r, &t);
	}
	return r;
}

/* Whether e has the same value wherever it is read in the function: it reads parameters,
 * iterators and locals assigned once from such values (a use after `off += D` must not
 * see `base = off` read through its definition). */
static bool stable(Flat *fl, const Expr *e, int depth)
{
	if (e->kind == EX_VAR || e->kind == EX_INDEX) {
		if (e->var->kind == VAR_LOCAL) {
			const Def *d = find_def(fl, e->var);
			if (e->kind == EX_INDEX || !d || !d->rhs || d->writes || depth >= MAX_INLINE_DEPTH || !stable(fl, d->rhs, depth + 1))
				return false;
		} else if (e->var->kind == VAR_PARAM && e->var->ndim && !e->var->is_const)
			return false; /* an output array: a region may write it */
	}
	for (int i = 0; i < e->nargs; i++)
		if (!stable(fl, e->args[i], depth))
			return false;
	return true;
}

/* e as a sum of terms. */
static Poly *expand(Flat *fl, const Expr *e, int depth)
{
	Poly *p = poly_new();
	Term t = {.coef = 1};
	switch (e->kind) {
	case EX_INT:
		t.coef = e->ival;
		poly_add(p, &t);
		return p;
	case EX_VAR: {
		Div *dv = find_div(fl, e->var, false);
		if (dv && dv->spec) {
			t.coef = dv->value;
			poly_add(p, &t);
			return p;
		}
		if (dv) { /* a size of its own, not the division it is computed by */
			t.size[t.nsize++] = e->var;
			poly_add(p, &t);
			return p;
		}
		dv = fl->subst && depth < MAX_INLINE_DEPTH ? find_div(fl, e->var, true) : NULL;
		if (dv) { /* num as den * q */
			free(p);
			Poly *a = expand(fl, &(Expr){.kind = EX_VAR, .var = dv->den, .ty = TY_INT}, depth + 1);
			Poly *b = expand(fl, &(Expr){.kind = EX_VAR, .var = dv->q, .ty = TY_INT}, depth + 1);
			Poly *r = poly_mul(a, b);
			free(a), free(b);
			return r;
		}
		Def *d = find_def(fl, e->var);
		if (d && d->rhs && !d->writes && depth < MAX_INLINE_DEPTH && stable(fl, d->rhs, depth)) {
			free(p);
			bool seen = false;
			for (int i = 0; i < fl->inlined.n; i++)
				seen |= fl->inlined.v[i] == e->var;
			if (!seen)
				vec_push(fl->inlined, e->var);
			return expand(fl, d->rhs, depth + 1);
		}
		if (is_size_param(e->var))
			t.size[t.nsize++] = e->var;
		else
			t.idx[t.nidx++] = e;
		poly_add(p, &t);
		return p;
	}
	case EX_BIN:
		if (e->bop == OP_ADD || e->bop == OP_SUB || e->bop == OP_MUL) {
			free(p);
			Poly *a = expand(fl, e->args[0], depth), *b = expand(fl, e->args[1], depth);
			if (e->bop == OP_MUL) {
				Poly *r = poly_mul(a, b);
				free(a), free(b);
				return r;
			}
			if (e->bop == OP_SUB)
				poly_scale(b, -1);
			for (int i = 0; i < b->n; i++)
				poly_add(a, &b->t[i]);
			a->ok &= b->ok;
			free(b);
			return a;
		}
		if (e->bop == OP_DIV) {
			Poly *a = expand(fl, e->args[0], depth), *b = expand(fl, e->args[1], depth);
			Poly *r = poly_div(a, b);
			free(a), free(b);
			if (r) {
				free(p);
				return r;
			}
		}
		break;
	case EX_UN:
		if (e->uop == UOP_NEG) {
			free(p);
			p = expand(fl, e->args[0], depth);
			poly_scale(p, -1);
			return p;
		}
		break;
	case EX_CAST:
		if (scalar_is_int(e->ty) && scalar_is_int(e->args[0]->ty) && scalar_size(e->ty) >= 4 && scalar_size(e->args[0]->ty) >= 4) {
			free(p);
			return expand(fl, e->args[0], depth);
		}
		break;
	default:
		break;
	}
	t.idx[t.nidx++] = e;
	poly_add(p, &t);
	return p;
}

/* A stride: coef x the size parameters. */
typedef struct Stride {
	long long coef;
	int nsize;
	Var *size[MAX_FACTORS];
} Stride;

static Stride stride_of(const Term *t)
{
	Stride s = {t->coef < 0 ? -t->coef : t->coef, t->nsize, {0}};
	memcpy(s.size, t->size, sizeof(Var *) * (size_t)t->nsize);
	return s;
}

/* Whether a divides b; *q gets b / a's size parameters and coefficient. */
static bool stride_divides(const Stride *a, const Stride *b, Stride *q)
{
	if (!a->coef || b->coef % a->coef)
		return false;
	Stride r = {b->coef / a->coef, 0, {0}};
	bool used[MAX_FACTORS] = {0};
	for (int i = 0; i < a->nsize; i++) {
		int j = 0;
		while (j < b->nsize && (used[j] || b->size[j] != a->size[i]))
			j++;
		if (j == b->nsize)
			return false;
		used[j] = true;
	}
	for (int j = 0; j < b->nsize; j++)
		if (!used[j])
			r.size[r.nsize++] = b->size[j];
	if (q)
		*q = r;
	return true;
}

static bool stride_equal(const Stride *a, const Stride *b) { return stride_divides(a, b, NULL) && stride_divides(b, a, NULL); }

/* s as an expression of the parameters: a division's quotient reads as the division
 * (the launcher's null checks and the harness size arrays before any set-up runs). */
static Expr *stride_expr(Flat *fl, const Stride *s, Loc loc)
{
	Program *p = fl->p;
	Expr *e = s->coef != 1 || !s->nsize ? ex_int(p, s->coef, loc) : NULL;
	for (int i = 0; i < s->nsize; i++) {
		const Div *d = find_div(fl, s->size[i], false);
		Expr *v = d ? ex_bin(p, OP_DIV, ex_var(p, d->num, loc), ex_var(p, d->den, loc), loc) : ex_var(p, s->size[i], loc);
		e = e ? ex_bin(p, OP_MUL, e, v, loc) : v;
	}
	return e;
}

/* mult x the index factors of a term (and its size parameters, with_sizes), one of the
 * parts of a link's subscript; t NULL: the constant mult. */
typedef struct Piece {
	long long mult;
	const Term *t;
	bool with_sizes;
} Piece;

static Expr *sum_expr(Program *p, const Piece *pc, int n, Loc loc)
{
	Expr *e = NULL;
	for (int i = 0; i < n; i++) {
		bool sub = e && pc[i].mult < 0;
		long long m = sub ? -pc[i].mult : pc[i].mult;
		Expr *prod = NULL;
		for (int k = 0; pc[i].t && pc[i].with_sizes && k < pc[i].t->nsize; k++) {
			Expr *f = ex_var(p, pc[i].t->size[k], loc);
			prod = prod ? ex_bin(p, OP_MUL, prod, f, loc) : f;
		}
		for (int k = 0; pc[i].t && k < pc[i].t->nidx; k++) {
			Expr *f = ex_copy(p, pc[i].t->idx[k]);
			prod = prod ? ex_bin(p, OP_MUL, prod, f, loc) : f;
		}
		Expr *x = !prod ? ex_int(p, m, loc) : m == 1 ? prod : m == -1 ? ex_un(p, UOP_NEG, prod, loc) : ex_bin(p, OP_MUL, ex_int(p, m, loc), prod, loc);
		e = e ? ex_bin(p, sub ? OP_SUB : OP_ADD, e, x, loc) : x;
	}
	return e ? e : ex_int(p, 0, loc);
}

/* The extent of the outermost dimension, when some access subscripts it with an
 * iterator of a loop from 0 to a bound of parameters only. */
static Expr *outer_extent(Flat *fl, const Expr *sub)
{
	if (sub->kind != EX_VAR || sub->var->kind != VAR_LOOP)
		return NULL;
	for (int i = 0; i < fl->loops.n; i++) {
		const Stmt *l = fl->loops.v[i];
		if (l->var != sub->var || l->lo->kind != EX_INT || l->lo->ival || l->step != 1)
			continue;
		bool params_only = true;
		for (int j = 0; j < fl->loops.n; j++)
			params_only &= !expr_reads_var(l->hi, fl->loops.v[j]->var);
		for (int j = 0; j < fl->defs.n; j++)
			params_only &= fl->defs.v[j].var->kind == VAR_PARAM || !expr_reads_var(l->hi, fl->defs.v[j].var);
		return params_only ? ex_copy(fl->p, l->hi) : NULL;
	}
	return NULL;
}

static void collect_access(Flat *fl, Expr *e, const Var *v)
{
	if (!e)
		return;
	if (e->kind == EX_INDEX && e->var == v)
		vec_push(fl->access, e);
	for (int i = 0; i < e->nargs; i++)
		collect_access(fl, e->args[i], v);
}

static void collect_stmt_access(Flat *fl, Stmt *s, const Var *v)
{
	if (!s)
		return;
	collect_access(fl, s->lhs, v);
	collect_access(fl, s->rhs, v);
	collect_access(fl, s->cond, v);
	collect_access(fl, s->lo, v);
	collect_access(fl, s->hi, v);
	for (int i = 0; i < s->nbody; i++)
		collect_stmt_access(fl, s->body[i], v);
}

enum { MAX_LINKS = 8 };

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* The stride a size-only term (`+ C`, the k of a packed qkv; `+ 2 * C`, its v) steps
 * along: k x its size parameters for the smallest k dividing its coefficient that nests
 * with every link and equals or divides one of them. With the head dim a constant the
 * term is 64 * NH, which steps by 64 * NH (index 1 of that link), not by NH. False: none
 * does (the term stays with link 0). */
static bool size_term_stride(const Term *t, const Stride *links, int nlinks, Stride *s)
{
	*s = stride_of(t);
	long long c = s->coef, divs[128];
	int n = 0;
	for (long long k = 1; k * k <= c && n + 2 <= 128; k++)
		if (!(c % k)) {
			divs[n++] = k;
			if (k * k != c)
				divs[n++] = c / k;
		}
	qsort(divs, (size_t)n, sizeof *divs, cmp_ll);
	for (int i = 0; i < n; i++) {
		s->coef = divs[i];
		bool nests = true, under = false;
		for (int l = 0; l < nlinks && nests; l++) {
			bool down = stride_divides(s, &links[l], NULL);
			nests = down || stride_divides(&links[l], s, NULL);
			under |= down;
		}
		if (nests && under)
			return true;
	}
	return false;
}

/* Subscripts that do not nest: an error for a pointer, which has no other shape; a 1-D
 * array keeps its one dimension (its subscripts are checked as any array's are). */
__attribute__((format(printf, 3, 4))) static void refuse(const Var *v, Loc loc, const char *fmt, ...)
{
	if (v->flat_extent)
		return;
	va_list ap;
	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
}

/* The extent of the outermost dimension of a 1-D array declared with `extent` elements
 * (q[TQ * H * D]) whose outermost link has stride `outer` (H * D): extent / outer (TQ)
 * when extent is one product of size parameters that outer divides; NULL otherwise. */
static Expr *declared_outer(Flat *fl, const Expr *extent, const Stride *outer)
{
	Poly *e = expand(fl, extent, 0);
	Expr *r = NULL;
	Stride whole, q;
	if (e->ok && e->n == 1 && !e->t[0].nidx && e->t[0].coef > 0) {
		whole = stride_of(&e->t[0]);
		if (stride_divides(outer, &whole, &q))
			r = stride_expr(fl, &q, extent->loc);
	}
	free(e);
	return r;
}

/* The subscripts, outermost first, that flat subscript p reads along the links (the
 * strides' chain, innermost first): each term on the link of its stride. */
static Expr **link_subscripts(Flat *fl, const Poly *p, const Stride *links, int nlinks, Loc loc)
{
	Piece pieces[MAX_LINKS][MAX_TERMS];
	int npieces[MAX_LINKS] = {0};
	long long rest = 0; /* the constant terms */
	for (int k = 0; k < p->n; k++) {
		const Term *t = &p->t[k];
		Stride s = stride_of(t);
		if (!t->nidx && !t->nsize) {
			rest += t->coef;
			continue;
		}
		bool on_link = t->nidx || size_term_stride(t, links, nlinks, &s);
		int l = on_link ? 0 : nlinks; /* a size term with no stride of its own matches no link */
		while (l < nlinks && !stride_equal(&s, &links[l]))
			l++;
		if (l == nlinks) /* a size-only term no link is a multiple of: on link 0 */
			pieces[0][npieces[0]++] = (Piece){t->coef, t, true};
		else if (t->nidx) /* on the link of its own stride */
			pieces[l][npieces[l]++] = (Piece){t->coef < 0 ? -1 : 1, t, false};
		else /* c x S on the link S */
			pieces[l][npieces[l]++] = (Piece){t->coef / s.coef, NULL, false};
	}
	/* Constants go down the links of constant stride, largest first. */
	for (int l = nlinks - 1; l >= 0 && rest; l--)
		if (!links[l].nsize && rest / links[l].coef) {
			pieces[l][npieces[l]++] = (Piece){rest / links[l].coef, NULL};
			rest %= links[l].coef;
		}
	Expr **args = arena_alloc(&fl->p->arena, sizeof(Expr *) * (size_t)nlinks);
	for (int l = 0; l < nlinks; l++)
		args[nlinks - 1 - l] = sum_expr(fl->p, pieces[l], npieces[l], loc);
	return args;
}

static const Stmt *loop_of(Flat *fl, const Var *v)
{
	for (int i = 0; i < fl->loops.n; i++)
		if (fl->loops.v[i]->var == v)
			return fl->loops.v[i];
	return NULL;
}

static bool below(Flat *fl, const Expr *e, const Expr *dim, int depth);

/* Whether end hi <= dim: the same expression or literals in order, or an iterator
 * below dim (plus one: `j <= i`, causal, over rows i < N). */
static bool end_within(Flat *fl, const Expr *hi, const Expr *dim, int depth)
{
	if (expr_equal(hi, dim))
		return true;
	if (hi->kind == EX_INT && dim->kind == EX_INT)
		return hi->ival <= dim->ival;
	if (hi->kind == EX_BIN && hi->bop == OP_ADD && hi->args[1]->kind == EX_INT && hi->args[1]->ival == 1)
		hi = hi->args[0];
	return hi->kind == EX_VAR && below(fl, hi, dim, depth + 1);
}

/* Whether 0 <= e < dim wherever e is read: a literal (0 below any extent, the array
 * being read), or an iterator of a loop from a literal >= 0 to an end within dim. */
static bool below(Flat *fl, const Expr *e, const Expr *dim, int depth)
{
	if (e->kind == EX_INT)
		return !e->ival || (e->ival > 0 && dim->kind == EX_INT && e->ival < dim->ival);
	const Stmt *l = e->kind == EX_VAR && e->var->kind == VAR_LOOP && depth < MAX_INLINE_DEPTH ? loop_of(fl, e->var) : NULL;
	return l && l->lo->kind == EX_INT && l->lo->ival >= 0 && end_within(fl, l->hi, dim, depth);
}

/* Why a local array does not read as dims: where, the subscript that may leave its
 * dimension (NULL: the declared extent is no product of the dims), the dims. */
typedef struct Misfit {
	Loc loc;
	const Expr *sub, *dim;
	Expr **dims;
	int ndim;
} Misfit;

/* The first access (-1: none) of a local array read as dims through subscripts
 * subs[0..n) whose subscript in some dimension but the outermost may leave it (*m gets
 * which): while none does, no two elements (i, j) are one, and the dims address the
 * elements the flat subscripts did. Unlike a parameter, a local is written and read
 * again in the region, and the dependences between those are taken from the
 * subscripts as dims. */
static int local_misfit(Flat *fl, Expr *const *dims, int ndim, Expr **const *subs, int n, Misfit *m)
{
	for (int a = 0; a < n; a++)
		for (int d = 1; d < ndim; d++)
			if (!below(fl, subs[a][d], dims[d], 0)) {
				m->sub = subs[a][d], m->dim = dims[d];
				return a;
			}
	return -1;
}

/* Reports local v, read through flat subscripts with size-parameter strides
 * (`S[i * N + j]`), that does not read as dims (*m), with the declaration to write. */
static void refuse_local(const Var *v, const Misfit *m)
{
	StrBuf why = {0}, decl = {0};
	if (m->sub) {
		sb_puts(&why, "its subscript '");
		print_expr(&why, m->sub);
		sb_puts(&why, "' is not shown to stay within its dimension of ");
		print_expr(&why, m->dim);
		sb_puts(&why, " elements (a loop's iterator from 0 to that extent)");
	} else if (m->dims) {
		sb_puts(&why, "its declared extent ");
		print_expr(&why, v->flat_extent);
		sb_puts(&why, " is not the product of the dimensions its subscripts step by");
	} else {
		sb_puts(&why, "its subscripts step by strides that do not nest");
	}
	sb_printf(&decl, "%s %s", scalar_type_c(v->ty), v->name);
	for (int d = 0; d < (m->dims ? m->ndim : 2); d++) {
		sb_putc(&decl, '[');
		if (m->dims && m->dims[d])
			print_expr(&decl, m->dims[d]);
		else
			sb_puts(&decl, !m->dims ? (d ? "D" : "N") : "...");
		sb_putc(&decl, ']');
	}
	error_at(m->loc, "fusecc reads the flat subscripts of local array '%s' as one per dimension, and %s: declare it with its dimensions ('%s') and subscript each one", v->name, why.s, decl.s);
	sb_free(&why);
	sb_free(&decl);
}

/* The extent of a dimension of a strided view that subscript sub reads: the bound of
 * its iterator (outer_extent), or of the iterator of `x / c` (more than the elements read,
 * which is what the harness and the launcher need of it: an extent that covers them). */
static Expr *strided_extent(Flat *fl, const Expr *sub, int depth)
{
	if (sub->kind == EX_BIN && sub->bop == OP_DIV)
		sub = sub->args[0];
	Expr *e = outer_extent(fl, sub);
	const Stmt *l = !e && sub->kind == EX_VAR && sub->var->kind == VAR_LOOP && depth < MAX_INLINE_DEPTH ? loop_of(fl, sub->var) : NULL;
	if (!l || l->lo->kind != EX_INT || l->lo->ival < 0)
		return e;
	/* j < i or j <= i (i + 1) below rows i < N: j's extent is i's */
	const Expr *hi = l->hi;
	if (hi->kind == EX_BIN && hi->bop == OP_ADD && hi->args[1]->kind == EX_INT && hi->args[1]->ival == 1)
		hi = hi->args[0];
	return hi->kind == EX_VAR ? strided_extent(fl, hi, depth + 1) : NULL;
}

/* Pointer parameter v whose strides do not nest, read as a strided view: each distinct
 * stride of the terms with index factors is a dimension (in the order the first access
 * names them; the unit stride innermost), whose subscript is the sum of those terms'
 * index factors, and whose extent the loops give (strided_extent). Element (x0, .., xn) is
 * at the sum of xk x stride k (Var.strides), the address the flat subscript computes
 * whatever the values. That two elements never overlap is the caller's contract, as with
 * the tensor strides it reads them from. A term of size parameters alone goes to a link
 * whose stride it is a multiple of (`(i + 1) * sqm`). False (v unchanged): such a term
 * with none (`off * sqm` beside no stride of sqm), more than MAX_LINKS strides, or two
 * dimensions no loop bounds (one goes outermost, dims[0] NULL, as a flat pointer's). */
static bool strided_view(Flat *fl, Var *v)
{
	int n = fl->access.n;
	if (v->kind != VAR_PARAM || v->flat_extent || !n)
		return false;
	Poly **polys = calloc((size_t)n, sizeof *polys);
	Stride links[MAX_LINKS];
	int nlinks = 0;
	bool ok = true;
	for (int a = 0; a < n && ok; a++) {
		polys[a] = expand(fl, fl->access.v[a]->args[0], 0);
		ok = polys[a]->ok;
		for (int k = 0; ok && k < polys[a]->n; k++) {
			const Term *t = &polys[a]->t[k];
			if (!t->nidx) /* placed once the links are known */
				continue;
			Stride st = stride_of(t);
			int l = 0;
			while (l < nlinks && !stride_equal(&st, &links[l]))
				l++;
			if (l == nlinks && nlinks == MAX_LINKS)
				ok = false;
			else if (l == nlinks)
				links[nlinks++] = st;
		}
	}
	int unit = 0;
	while (unit < nlinks && !(links[unit].coef == 1 && !links[unit].nsize))
		unit++;
	if (ok && unit < nlinks) { /* the unit stride innermost */
		Stride u = links[unit];
		memmove(&links[unit], &links[unit + 1], sizeof(Stride) * (size_t)(nlinks - unit - 1));
		links[nlinks - 1] = u;
	}
	Expr ***subs = calloc((size_t)n, sizeof *subs);
	for (int a = 0; a < n && ok; a++) {
		Piece pieces[MAX_LINKS][MAX_TERMS];
		int npieces[MAX_LINKS] = {0};
		for (int k = 0; k < polys[a]->n && ok; k++) {
			const Term *t = &polys[a]->t[k];
			Stride st = stride_of(t), q;
			int l = 0;
			if (t->nidx) {
				while (!stride_equal(&st, &links[l]))
					l++;
				pieces[l][npieces[l]++] = (Piece){t->coef < 0 ? -1 : 1, t, false};
				continue;
			}
			/* a constant, or `+ N` on the link of stride N: (i + 1) * N */
			while (l < nlinks && !(stride_divides(&links[l], &st, &q) && !q.nsize))
				l++;
			ok = l < nlinks;
			if (ok)
				pieces[l][npieces[l]++] = (Piece){t->coef < 0 ? -q.coef : q.coef, NULL, false};
		}
		subs[a] = arena_alloc(&fl->p->arena, sizeof(Expr *) * (size_t)nlinks);
		for (int l = 0; l < nlinks; l++)
			subs[a][l] = sum_expr(fl->p, pieces[l], npieces[l], fl->access.v[a]->loc);
	}
	Expr **dims = arena_alloc(&fl->p->arena, sizeof(Expr *) * (size_t)nlinks);
	int unbounded = -1;
	for (int l = 0; l < nlinks && ok; l++) {
		dims[l] = NULL;
		for (int a = 0; a < n && !dims[l]; a++)
			dims[l] = strided_extent(fl, subs[a][l], 0);
		if (!dims[l]) { /* `t < len[b]`: outermost, where a flat pointer's unknown extent goes */
			ok = unbounded < 0;
			unbounded = l;
		}
	}
	if (ok && unbounded > 0) {
		Stride st = links[unbounded];
		memmove(&links[1], &links[0], sizeof(Stride) * (size_t)unbounded);
		links[0] = st;
		memmove(&dims[1], &dims[0], sizeof(Expr *) * (size_t)unbounded);
		dims[0] = NULL;
		for (int a = 0; a < n; a++) {
			Expr *x = subs[a][unbounded];
			memmove(&subs[a][1], &subs[a][0], sizeof(Expr *) * (size_t)unbounded);
			subs[a][0] = x;
		}
	}
	if (ok) {
		v->ndim = nlinks;
		v->dims = dims;
		v->strides = arena_alloc(&fl->p->arena, sizeof(Expr *) * (size_t)nlinks);
		for (int l = 0; l < nlinks; l++)
			v->strides[l] = stride_expr(fl, &links[l], v->loc);
		for (int a = 0; a < n; a++) {
			fl->access.v[a]->args = subs[a];
			fl->access.v[a]->nargs = nlinks;
		}
	}
	for (int a = 0; a < n; a++)
		free(polys[a]);
	free(polys);
	free(subs);
	return ok;
}

/* Rewrites every access of flat parameter v into one subscript per link of its strides'
 * chain and sets v's dims. False (reported) when the strides do not nest. A local
 * array v[n] (VAR_LOCAL, flat_extent n) is rewritten only when n is the product of the
 * dims and every subscript lies within its dim (local_misfit); otherwise it stays
 * one-dimensional, and is refused (reported, false) when its strides have a size
 * parameter, which no one-dimensional subscript can be affine with. */
static bool delinearize(Flat *fl, Var *v)
{
	fl->access.n = 0;
	for (int r = 0; r < fl->f->nregions; r++)
		collect_stmt_access(fl, fl->f->regions[r]->loop, v);
	for (int i = 0; i < fl->f->nsetup; i++)
		collect_stmt_access(fl, fl->f->setup[i], v);
	int n = fl->access.n;
	if (!n) {
		if (v->flat_extent)
			v->flat = false, v->flat_extent = NULL;
		return true;
	}
	Poly **polys = calloc((size_t)n, sizeof *polys);
	Misfit misfit = {v->loc, NULL, NULL}; /* why a local does not delinearize */
	Stride links[MAX_LINKS];
	int nlinks = 1;
	links[0] = (Stride){1, 0, {0}};
	bool ok = true;
	/* The strides of the terms with an index factor; then those of size-only terms
	 * (`+ H * D`, the k of a packed qkv) that some such stride is a multiple of. */
	for (int pass = 0; pass < 2 && ok; pass++)
		for (int a = 0; a < n && ok; a++) {
			if (!pass)
				polys[a] = expand(fl, fl->access.v[a]->args[0], 0);
			const Poly *p = polys[a];
			if (!p->ok) {
				refuse(v, fl->access.v[a]->loc, "the subscript of '%s' has too many terms to see its dimensions: declare '%s' as an array with its extents", v->name, v->name);
				ok = false;
				break;
			}
			for (int k = 0; k < p->n && ok; k++) {
				const Term *t = &p->t[k];
				if (pass == 0 ? !t->nidx : t->nidx || !t->nsize)
					continue;
				Stride s = stride_of(t);
				if (pass == 1 && !size_term_stride(t, links, nlinks, &s))
					continue;
				int l = 0;
				while (l < nlinks && !stride_equal(&s, &links[l]))
					l++;
				if (l < nlinks)
					continue;
				if (nlinks == MAX_LINKS) {
					refuse(v, fl->access.v[a]->loc, "the subscripts of '%s' have more than %d strides: declare '%s' as an array with its extents", v->name, MAX_LINKS, v->name);
					ok = false;
					break;
				}
				/* Insert in order; each link must divide the next. */
				int at = 0;
				while (at < nlinks && stride_divides(&links[at], &s, NULL))
					at++;
				bool nests = true;
				for (int m = 0; m < nlinks; m++)
					nests &= m < at ? stride_divides(&links[m], &s, NULL) : stride_divides(&s, &links[m], NULL);
				if (!nests && strided_view(fl, v)) {
					for (int b = 0; b < n; b++)
						free(polys[b]);
					free(polys);
					return true;
				}
				if (!nests) {
					StrBuf a1 = {0}, a2 = {0};
					Expr *x = stride_expr(fl, &s, v->loc), *y = stride_expr(fl, &links[at < nlinks ? at : nlinks - 1], v->loc);
					print_expr(&a1, x);
					print_expr(&a2, y);
					refuse(v, fl->access.v[a]->loc,
					         "the subscripts of '%s' step by %s and by %s, neither a multiple of the other (strides passed as parameters?): fusecc cannot see '%s' as an array; "
					         "pass it contiguous and declare it with its extents ('const %s %s[B][N][C]', or index it as ((b * N + n) * C + c))",
					         v->name, a1.s, a2.s, v->name, scalar_type_c(v->ty), v->name);
					sb_free(&a1);
					sb_free(&a2);
					ok = false;
					break;
				}
				memmove(&links[at + 1], &links[at], sizeof(Stride) * (size_t)(nlinks - at));
				links[at] = s;
				nlinks++;
			}
		}
	if (ok && nlinks == 1) {
		/* One dimension: the subscripts stay as written; an array keeps its extent
		 * and is an array again. */
		v->dims[0] = v->flat_extent ? v->flat_extent : outer_extent(fl, fl->access.v[0]->args[0]);
		if (v->flat_extent)
			v->flat = false, v->flat_extent = NULL;
	} else if (ok) {
		/* The dims, outermost first: link j is dimension nlinks-1-j. */
		Expr **dims = arena_alloc(&fl->p->arena, sizeof(Expr *) * (size_t)nlinks);
		dims[0] = NULL;
		for (int j = 0; j + 1 < nlinks; j++) {
			Stride q;
			stride_divides(&links[j], &links[j + 1], &q);
			dims[nlinks - 1 - j] = stride_expr(fl, &q, v->loc);
		}
		Expr ***subs = calloc((size_t)n, sizeof *subs);
		for (int a = 0; a < n; a++)
			subs[a] = link_subscripts(fl, polys[a], links, nlinks, fl->access.v[a]->loc);
		if (v->kind == VAR_LOCAL) {
			dims[0] = declared_outer(fl, v->flat_extent, &links[nlinks - 1]);
			int bad = dims[0] ? local_misfit(fl, dims, nlinks, subs, n, &misfit) : 0;
			ok = bad < 0;
			if (!dims[0])
				misfit = (Misfit){fl->access.v[0]->loc, NULL, NULL};
			else if (!ok)
				misfit.loc = fl->access.v[bad]->loc;
			misfit.dims = dims, misfit.ndim = nlinks;
		}
		if (ok) {
			v->ndim = nlinks;
			v->dims = dims;
			for (int a = 0; a < n; a++) {
				fl->access.v[a]->args = subs[a];
				fl->access.v[a]->nargs = nlinks;
				if (!v->dims[0])
					v->dims[0] = outer_extent(fl, subs[a][0]);
			}
			/* no access names the outermost extent (q[(cu[b] + i) * H * D + ...]): the
			 * declared size does */
			if (!v->dims[0] && v->flat_extent)
				v->dims[0] = declared_outer(fl, v->flat_extent, &links[nlinks - 1]);
			if (v->kind == VAR_LOCAL) /* an array of its dims, as if declared so */
				v->flat = false, v->flat_extent = NULL;
		}
		free(subs);
	}
	bool sized = false; /* a subscript with a size-parameter stride: not affine as 1-D */
	for (int a = 0; a < n; a++) {
		for (int k = 0; polys[a] && k < polys[a]->n; k++)
			sized |= polys[a]->t[k].nidx && polys[a]->t[k].nsize;
		free(polys[a]);
	}
	free(polys);
	if (!ok && v->kind == VAR_LOCAL && sized) {
		refuse_local(v, &misfit);
		v->dims[0] = v->flat_extent;
		v->flat = false, v->flat_extent = NULL;
		return false;
	}
	if (!ok && v->flat_extent) {
		v->dims[0] = v->flat_extent;
		v->flat = false, v->flat_extent = NULL;
		return true;
	}
	return ok;
}

/* Drops the declarations of inlined locals nothing reads any more. */
static void drop_unused(Flat *fl, Stmt *s)
{
	if (!s || s->kind == ST_FOR || s->kind == ST_IF) {
		for (int i = 0; s && i < s->nbody; i++)
			drop_unused(fl, s->body[i]);
		return;
	}
	if (s->kind != ST_BLOCK)
		return;
	int k = 0;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *b = s->body[i];
		bool drop = false;
		if (b->kind == ST_DECL)
			for (int j = 0; j < fl->inlined.n && !drop; j++)
				if (fl->inlined.v[j] == b->var) {
					drop = true;
					for (int r = 0; r < fl->f->nregions && drop; r++)
						drop = !stmt_reads_var(fl->f->regions[r]->loop, b->var);
				}
		if (!drop) {
			drop_unused(fl, b);
			s->body[k++] = b;
		}
	}
	s->nbody = k;
}

/* Whether v is an int parameter of f (not an array) that nothing assigns. */
static bool fixed_size_param(const Func *f, const Var *v)
{
	bool param = false;
	for (int i = 0; i < f->nparams; i++)
		param |= f->params[i] == v;
	if (!param || !is_size_param(v))
		return false;
	for (int i = 0; i < f->nsetup; i++)
		if (stmt_writes_var(f->setup[i], v))
			return false;
	for (int r = 0; r < f->nregions; r++)
		if (stmt_writes_var(f->regions[r]->loop, v))
			return false;
	return true;
}

/* Lists the set-up divisions `q = num / den` of fixed int parameters, q assigned once;
 * the GPU printers' reparse (o) may read q as a constant. */
static void find_divs(Flat *fl, const FrontOptions *o)
{
	for (int i = 0; i < fl->defs.n; i++) {
		const Def *d = &fl->defs.v[i];
		const Expr *e = d->rhs;
		if (d->var->kind != VAR_PARAM || d->writes || !e || e->kind != EX_BIN || e->bop != OP_DIV || e->args[0]->kind != EX_VAR || e->args[1]->kind != EX_VAR ||
		    e->args[0]->var == e->args[1]->var || !fixed_size_param(fl->f, e->args[0]->var) || !fixed_size_param(fl->f, e->args[1]->var))
			continue;
		Div dv = {(Var *)d->var, e->args[0]->var, e->args[1]->var, false, 0, false};
		for (int k = 0; o && o->spec_fn && !strcmp(o->spec_fn, fl->f->name) && k < o->nspec; k++)
			if (!strcmp(o->spec_names[k], d->var->name))
				dv.spec = dv.used = true, dv.value = o->spec_values[k];
		vec_push(fl->divs, dv);
	}
}

/* Marks the divisions whose quotient some flat subscript has as a factor of a term: those
 * are read as exact (num = den * q) when the subscripts are delinearised. */
static void mark_used_divs(Flat *fl)
{
	for (int i = 0; i < fl->f->nparams; i++) {
		Var *v = fl->f->params[i];
		if (!v->flat)
			continue;
		fl->access.n = 0;
		for (int r = 0; r < fl->f->nregions; r++)
			collect_stmt_access(fl, fl->f->regions[r]->loop, v);
		for (int a = 0; a < fl->access.n; a++) {
			Poly *p = expand(fl, fl->access.v[a]->args[0], 0);
			for (int k = 0; k < p->n; k++)
				for (int j = 0; j < p->t[k].nsize; j++) {
					Div *d = find_div(fl, p->t[k].size[j], false);
					if (d)
						d->used = true;
				}
			free(p);
		}
	}
}

typedef VEC(Var *) VarVec;

/* The one-dimensional local arrays declared in s (`float S[N * N];`, a malloc'd
 * scratch matrix): each marked flat, with its declared extent, for delinearize. */
static void flat_locals(Stmt *s, VarVec *out)
{
	if (!s)
		return;
	if (s->kind == ST_DECL && s->var->kind == VAR_LOCAL && s->var->ndim == 1 && !s->var->flat) {
		s->var->flat = true;
		s->var->flat_extent = s->var->dims[0];
		vec_push(*out, s->var);
	}
	for (int i = 0; i < s->nbody; i++)
		flat_locals(s->body[i], out);
}

bool front_delinearize(Program *p, Func *f, const FrontOptions *o)
{
	VarVec locals = {0};
	for (int r = 0; r < f->nregions; r++)
		flat_locals(f->regions[r]->loop, &locals);
	bool any = locals.n > 0;
	for (int i = 0; i < f->nparams; i++)
		any |= f->params[i]->flat;
	if (!any)
		return true;
	Flat fl = {.p = p, .f = f};
	for (int i = 0; i < f->nsetup; i++)
		scan_stmt(&fl, f->setup[i]);
	for (int r = 0; r < f->nregions; r++)
		scan_stmt(&fl, f->regions[r]->loop);
	find_divs(&fl, o);
	mark_used_divs(&fl);
	fl.subst = true;
	f->divs = arena_alloc(&p->arena, sizeof(SizeDiv) * (size_t)(fl.divs.n ? fl.divs.n : 1));
	for (int i = 0; i < fl.divs.n; i++)
		if (fl.divs.v[i].used)
			f->divs[f->ndivs++] = (SizeDiv){fl.divs.v[i].q, fl.divs.v[i].num, fl.divs.v[i].den};
	bool ok = true;
	for (int i = 0; i < f->nparams; i++)
		if (f->params[i]->flat)
			ok &= delinearize(&fl, f->params[i]);
	for (int i = 0; i < locals.n; i++)
		ok &= delinearize(&fl, locals.v[i]);
	for (int r = 0; ok && r < f->nregions; r++)
		drop_unused(&fl, f->regions[r]->loop);
	vec_free(fl.defs);
	vec_free(fl.divs);
	vec_free(fl.loops);
	vec_free(fl.access);
	vec_free(fl.inlined);
	vec_free(locals);
	return ok;
}
