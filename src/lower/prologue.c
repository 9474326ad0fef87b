/* prologue.c: the pass's q.k operands computed per key and per row before the tile
 * kernel (see prologue.h). It reads and rewrites the fused region only; nothing here
 * prints. */
#include "prologue.h"

#include <string.h>

enum { MAX_TERMS = 4, MAX_SLICE = 32, MAX_PATH = 64, MAX_OCC = 8, MAX_VARS = 64 };

/* A sum of products: term t is fac[t][0] (the row side's factors, NULL for 1) times
 * fac[t][1] (the key side's). */
typedef struct Terms {
	Expr *fac[MAX_TERMS][2];
	int n;
} Terms;

/* What the search knows where it found a dot: the key loop, the key locals (declared
 * inside it), and the statements on the way down (path[k] holds path[k + 1] at body
 * index idx[k]). */
typedef struct Walk {
	Program *p;
	Region *r;
	const char *axis;
	Stmt *path[MAX_PATH];
	int idx[MAX_PATH];
	int depth;
	Var *j;       /* the fused loop's iterator at the dot */
	int jdepth;   /* path index of the fused loop */
	Var *keyl[MAX_VARS]; /* locals declared inside the fused loop */
	int nkeyl;
} Walk;

/* A side of one dot: its factors' main array, the statements computing the locals they
 * read (slice, in execution order, each with its block), and whether it needs a
 * workspace. */
typedef struct Side {
	const Expr *mainref; /* the main array's element read by the factors */
	Stmt *slice[MAX_SLICE];
	Stmt *slice_blk[MAX_SLICE];
	int slice_key[MAX_SLICE]; /* execution order: path depth * 4096 + index */
	int nslice;
	bool plain; /* one term, the factor a plain operand reference: no workspace (but see ws_types) */
	bool rows_ok; /* its values are functions of mainref's row (side_rows) */
	/* more than one term, each a plain read of mainref's array at its leading subscripts,
	 * term t at column cols[t * P + d] of it, a bijection onto [0, T * P): the side is that
	 * row as stored, in another order (stored_order) */
	int *cols;
} Side;

/* One dot found: the block and index of `float s = init;`, the loop, its terms and sides. */
typedef struct Occ {
	Stmt *blk;
	int k;
	Stmt *loop;
	Var *d;
	long long P;
	Terms t;
	Side side[2];
	Var *j;
	/* `s = s * f * g / h` right after the loop whose key factors went into the key side:
	 * the statement, and its row factors (NULL: none, the statement goes) */
	Stmt *post;
	Expr *post_rest;
} Occ;

static bool reads_any(const Expr *e, Var *const *vs, int n)
{
	for (int i = 0; i < n; i++)
		if (expr_reads_var(e, vs[i]))
			return true;
	return false;
}

/* Whether e reads the fused loop's iterator or a local declared inside the fused loop. */
static bool reads_key(const Walk *w, const Expr *e) { return expr_reads_var(e, w->j) || reads_any(e, w->keyl, w->nkeyl); }

/* Whether e mixes the sides below a sum or product that must be split to separate them. */
static bool needs_split(const Walk *w, const Expr *e)
{
	if (e->kind == EX_BIN && (e->bop == OP_ADD || e->bop == OP_SUB || e->bop == OP_MUL || e->bop == OP_DIV))
		return needs_split(w, e->args[0]) || needs_split(w, e->args[1]) || reads_key(w, e->args[0]) != reads_key(w, e->args[1]);
	if ((e->kind == EX_UN && e->uop == UOP_NEG) || (e->kind == EX_CAST && e->ty == TY_FLOAT && e->args[0]->ty == TY_FLOAT))
		return needs_split(w, e->args[0]);
	return false;
}

static Expr *mul(Program *p, Expr *a, Expr *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return ex_bin(p, OP_MUL, a, b, a->loc);
}

/* e as a sum of terms, each a product of a row factor and a key factor; false when a
 * part reads both sides in a way no sum of products separates (a call of both). */
static bool split_terms(const Walk *w, Expr *e, Terms *t)
{
	Program *p = w->p;
	if (!needs_split(w, e)) {
		if (e->ty != TY_FLOAT)
			return false;
		t->n = 1;
		t->fac[0][0] = t->fac[0][1] = NULL;
		t->fac[0][reads_key(w, e)] = e;
		return true;
	}
	if (e->kind == EX_CAST)
		return split_terms(w, e->args[0], t);
	Terms a = {0}, b = {0};
	if (e->kind == EX_UN) {
		if (!split_terms(w, e->args[0], t))
			return false;
		for (int i = 0; i < t->n; i++)
			t->fac[i][0] = t->fac[i][0] ? ex_un(p, UOP_NEG, t->fac[i][0], e->loc) : ex_flt(p, -1.0, TY_FLOAT, e->loc);
		return true;
	}
	if (e->bop == OP_DIV) {
		/* a divisor of one side divides that side's factor */
		Expr *den = e->args[1];
		if (needs_split(w, den) || den->ty != TY_FLOAT || !split_terms(w, e->args[0], t))
			return false;
		int s = reads_key(w, den);
		for (int i = 0; i < t->n; i++)
			t->fac[i][s] = ex_bin(p, OP_DIV, t->fac[i][s] ? t->fac[i][s] : ex_flt(p, 1.0, TY_FLOAT, e->loc), den, e->loc);
		return true;
	}
	if (!split_terms(w, e->args[0], &a) || !split_terms(w, e->args[1], &b))
		return false;
	if (e->bop == OP_MUL) {
		if (a.n * b.n > MAX_TERMS)
			return false;
		t->n = 0;
		for (int i = 0; i < a.n; i++)
			for (int k = 0; k < b.n; k++, t->n++)
				for (int s = 0; s < 2; s++)
					t->fac[t->n][s] = mul(p, a.fac[i][s], b.fac[k][s]);
		return true;
	}
	if (a.n + b.n > MAX_TERMS)
		return false;
	*t = a;
	for (int k = 0; k < b.n; k++, t->n++) {
		t->fac[t->n][0] = b.fac[k][0];
		t->fac[t->n][1] = b.fac[k][1];
		if (e->bop == OP_SUB)
			t->fac[t->n][0] = b.fac[k][0] ? ex_un(p, UOP_NEG, b.fac[k][0], e->loc) : ex_flt(p, -1.0, TY_FLOAT, e->loc);
	}
	return true;
}

/* The element of a parameter array in e with the most subscripts whose last reads d (and,
 * for the key side, whose others read the fused iterator j); NULL if none. */
static const Expr *main_ref(const Expr *e, const Var *d, const Var *j, const Expr *best)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->var->ndim >= 2 && expr_reads_var(e->args[e->nargs - 1], d) && (!best || e->nargs > best->nargs)) {
		bool ok = !j;
		for (int i = 0; i + 1 < e->nargs; i++)
			ok |= j && expr_reads_var(e->args[i], j);
		if (ok)
			best = e;
	}
	for (int i = 0; i < e->nargs; i++)
		best = main_ref(e->args[i], d, j, best);
	return best;
}

/* Whether e is `(float)A[..][d]` or `A[..][d]` of a parameter array A the tiles read as an
 * operand (16-bit, fp32, bytes), d the last subscript itself. */
static bool plain_operand(const Expr *e, const Var *d)
{
	if (e->kind == EX_CAST && e->ty == TY_FLOAT)
		e = e->args[0];
	if (e->kind != EX_INDEX || e->var->kind != VAR_PARAM)
		return false;
	const Expr *last = e->args[e->nargs - 1];
	ScalarType t = e->var->ty;
	return last->kind == EX_VAR && last->var == d && (t == TY_HALF || t == TY_BF16 || t == TY_FLOAT || t == TY_I8 || t == TY_U8);
}

/* ---- the statements a side's factors read ---- */

typedef struct VarSet {
	Var *v[MAX_VARS];
	int n;
	bool full;
} VarSet;

static bool set_has(const VarSet *s, const Var *v)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return true;
	return false;
}

static void set_add(VarSet *s, Var *v)
{
	if (set_has(s, v))
		return;
	if (s->n == MAX_VARS)
		s->full = true;
	else
		s->v[s->n++] = v;
}

/* The locals e reads (an ExprTest that always holds). */
static bool collect_locals(const Expr *e, void *ctx)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var->kind == VAR_LOCAL)
		set_add(ctx, e->var);
	for (int i = 0; i < e->nargs; i++)
		collect_locals(e->args[i], ctx);
	return true;
}

/* The locals and iterators s declares. */
static void collect_declared(const Stmt *s, VarSet *vs)
{
	if (!s)
		return;
	if ((s->kind == ST_DECL || s->kind == ST_FOR) && s->var)
		set_add(vs, s->var);
	for (int i = 0; i < s->nbody; i++)
		collect_declared(s->body[i], vs);
}

/* The variables s assigns that it does not declare. */
static void collect_written(const Stmt *s, const Stmt *top, VarSet *vs)
{
	if (!s)
		return;
	if (s->kind == ST_ASSIGN && !stmt_declares(top, s->lhs->var))
		set_add(vs, s->lhs->var);
	if (s == top && s->kind == ST_DECL)
		set_add(vs, s->var);
	for (int i = 0; i < s->nbody; i++)
		collect_written(s->body[i], top, vs);
}

static bool set_has_key(const Walk *w, const Var *v)
{
	for (int i = 0; i < w->nkeyl; i++)
		if (w->keyl[i] == v)
			return true;
	return false;
}

/* Adds statement s (in block b, order key) to the side's slice once. */
static bool slice_add(Side *sd, Stmt *s, Stmt *b, int key)
{
	for (int i = 0; i < sd->nslice; i++)
		if (sd->slice[i] == s)
			return true;
	if (sd->nslice == MAX_SLICE)
		return false;
	int i = sd->nslice++;
	while (i > 0 && sd->slice_key[i - 1] > key) {
		sd->slice[i] = sd->slice[i - 1];
		sd->slice_blk[i] = sd->slice_blk[i - 1];
		sd->slice_key[i] = sd->slice_key[i - 1];
		i--;
	}
	sd->slice[i] = s;
	sd->slice_blk[i] = b;
	sd->slice_key[i] = key;
	return true;
}

/* The statements before the dot (on its path) that compute the locals the side's
 * factors read, and those they read in turn: each local's declaration and the
 * statements between it and the dot's path that assign it, which must be all that
 * assign it in the region. false when a local has no such definition. */
static bool find_slice(const Walk *w, Side *sd, Expr *const *facs, int nfacs)
{
	VarSet need = {0}, done = {0};
	for (int i = 0; i < nfacs; i++)
		if (facs[i])
			collect_locals(facs[i], &need);
	for (int n = 0; n < need.n; n++) {
		Var *v = need.v[n];
		if (set_has(&done, v))
			continue;
		set_add(&done, v);
		bool found = false;
		int stores = 0;
		for (int k = w->depth - 1; k >= 0 && !found; k--) {
			Stmt *b = w->path[k];
			if (b->kind != ST_BLOCK)
				continue;
			for (int i = w->idx[k] - 1; i >= 0 && !found; i--) {
				if (b->body[i]->kind != ST_DECL || b->body[i]->var != v)
					continue;
				found = true;
				for (int m = i; m < w->idx[k]; m++) {
					Stmt *s = b->body[m];
					if (m != i && !stmt_writes_var(s, v))
						continue;
					if (!slice_add(sd, s, b, k * 4096 + m))
						return false;
					stores += stmt_count_stores(s, v);
					VarSet reads = {0}, decl = {0};
					stmt_all_exprs(s, collect_locals, &reads);
					collect_declared(s, &decl);
					for (int q = 0; q < reads.n; q++)
						if (!set_has(&decl, reads.v[q]))
							set_add(&need, reads.v[q]);
					if (reads.full || need.full)
						return false;
				}
			}
		}
		/* a key local is the fused loop's own (each pass over the keys has its copy); a
		 * local array is the row's (`float qr[128]` filled before the key loop: decode
		 * kernels rotate or normalise the query alone), never the key's */
		const Stmt *scope = set_has_key(w, v) ? (v->ndim ? NULL : w->path[w->jdepth]) : w->r->loop;
		if (!found || !scope || stores != stmt_count_stores(scope, v))
			return false;
	}
	return true;
}

/* ---- the side's values as functions of its main array's row ---- */

typedef struct Cover {
	const Expr *const *lead; /* the main array's subscripts but its last */
	int nlead;
	const Expr *const *mdims; /* the main array's extents */
	bool full[PRO_MAX_DIMS];  /* lead i is a parallel loop's iterator over [0, mdims[i]) */
	const VarSet *ok;        /* locals and iterators the side defines itself */
	const Var *d;
	const Stmt *region;
	/* the expression is run at every row of the main array in the region, unconditionally
	 * (a statement of the row before the key loop, every leading subscript a parallel
	 * loop's iterator over its whole extent): any subscript it reads is in bounds there */
	bool all_rows;
} Cover;

static int lead_of(const Cover *c, const Expr *e)
{
	for (int i = 0; i < c->nlead; i++)
		if (expr_equal(e, c->lead[i]))
			return i;
	return -1;
}

/* Whether subscript e stays in the range the region reads, for every row of the main
 * array (the prologue runs over all of them, the region perhaps not: keys past a row's
 * length): it reads a leading subscript only where that is a parallel loop's iterator
 * over the whole extent, and otherwise d, scalar parameters and the side's own loop
 * iterators. */
static bool subscript_ok(const Cover *c, const Expr *e)
{
	int m = lead_of(c, e);
	if (m >= 0)
		return c->full[m];
	if (e->kind == EX_INDEX)
		return false;
	if (e->kind == EX_VAR && e->var != c->d && !(e->var->kind == VAR_PARAM && !e->var->ndim) && !(e->var->kind == VAR_LOOP && set_has(c->ok, e->var)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!subscript_ok(c, e->args[i]))
			return false;
	return true;
}

/* Whether e depends on the region's iterators only through the main array's leading
 * subscripts (each read whole), and reads no array the region writes: then its value
 * is the same wherever the main array's row is; and whether each array it reads stays
 * in bounds for every row of the main array: a subscript that is a leading subscript
 * indexes an extent equal to the main array's there (cos[j][d] beside k[b][h][j][d],
 * both N), any other is subscript_ok (an ExprTest). */
static bool covered(const Expr *e, void *ctx)
{
	const Cover *c = ctx;
	if (lead_of(c, e) >= 0)
		return true;
	if (e->kind == EX_VAR && e->var != c->d && !(e->var->kind == VAR_PARAM && !e->var->ndim) && !set_has(c->ok, e->var))
		return false;
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM) {
		if (stmt_writes_var(c->region, e->var))
			return false;
		for (int a = 0; a < e->nargs; a++) {
			int m = lead_of(c, e->args[a]);
			if (m >= 0 ? !e->var->dims[a] || !c->mdims[m] || !expr_equal(e->var->dims[a], c->mdims[m])
			           : c->all_rows ? !covered(e->args[a], ctx) : !subscript_ok(c, e->args[a]))
				return false;
		}
		return true;
	}
	if (e->kind == EX_INDEX && !set_has(c->ok, e->var))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!covered(e->args[i], ctx))
			return false;
	return true;
}

/* e with each subexpression equal to a leading subscript replaced by its row index. */
typedef struct LeadMap {
	Program *p;
	const Expr *const *lead;
	Var *const *idx;
	int n;
} LeadMap;

static Expr *map_lead(Program *p, const Expr *e, void *ctx)
{
	const LeadMap *m = ctx;
	if (!e)
		return NULL;
	for (int i = 0; i < m->n; i++)
		if (expr_equal(e, m->lead[i]))
			return ex_var(p, m->idx[i], e->loc);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = map_lead(p, e->args[i], ctx);
	return c;
}

/* ---- the search ---- */

/* rhs of `x += e` (or `x = x + e`) into scalar x. */
static Expr *accumulated_into(const Stmt *s, const Var *x)
{
	if (s->kind != ST_ASSIGN || s->lhs->kind != EX_VAR || s->lhs->var != x)
		return NULL;
	if (s->aop == AS_ADD)
		return s->rhs;
	if (s->aop == AS_SET && s->rhs->kind == EX_BIN && s->rhs->bop == OP_ADD && s->rhs->args[0]->kind == EX_VAR && s->rhs->args[0]->var == x)
		return s->rhs->args[1];
	return NULL;
}

/* Whether body[k], body[k + 1] of block b are `float s = init; for (d = 0; d < P; d++)
 * { helpers; s += E; }`: E with the helpers (scalars declared in the loop's body and
 * assigned nowhere else) written out. */
static Expr *dot_at(Walk *w, Stmt *b, int k, Var **d, long long *P)
{
	if (k + 1 >= b->nbody)
		return NULL;
	Stmt *x = b->body[k], *f = b->body[k + 1];
	if (x->kind != ST_DECL || x->var->ndim || x->var->ty != TY_FLOAT || !x->rhs || f->kind != ST_FOR || f->step != 1 || f->lo->kind != EX_INT || f->lo->ival ||
	    f->hi->kind != EX_INT || f->hi->ival <= 0)
		return NULL;
	Stmt *body = f->body[0];
	int n = body->kind == ST_BLOCK ? body->nbody : 1;
	Stmt **ss = body->kind == ST_BLOCK ? body->body : &f->body[0];
	if (!n)
		return NULL;
	Expr *e = accumulated_into(ss[n - 1], x->var);
	if (!e || expr_reads_var(e, x->var))
		return NULL;
	for (int i = n - 2; i >= 0; i--) {
		Stmt *h = ss[i];
		if (h->kind != ST_DECL || h->var->ndim || !h->rhs || stmt_count_stores(body, h->var))
			return NULL;
		Expr *hv = ex_var(w->p, h->var, h->loc);
		e = expr_subst_equal(w->p, e, hv, h->rhs);
	}
	*d = f->var;
	*P = f->hi->ival;
	return e;
}

static void collect_key_locals(Walk *w, const Stmt *s)
{
	if (!s)
		return;
	if (s->kind == ST_DECL && w->nkeyl < MAX_VARS)
		w->keyl[w->nkeyl++] = s->var;
	for (int i = 0; i < s->nbody; i++)
		collect_key_locals(w, s->body[i]);
}

/* The factors of a product or quotient e (num, or den below a division): false past 8. */
static bool mul_parts(Expr *e, Expr **num, int *nn, Expr **den, int *nd, bool inv)
{
	if (e->kind == EX_BIN && e->bop == OP_MUL)
		return mul_parts(e->args[0], num, nn, den, nd, inv) && mul_parts(e->args[1], num, nn, den, nd, inv);
	if (e->kind == EX_BIN && e->bop == OP_DIV)
		return mul_parts(e->args[0], num, nn, den, nd, inv) && mul_parts(e->args[1], num, nn, den, nd, !inv);
	int *n = inv ? nd : nn;
	if (*n == 8)
		return false;
	(inv ? den : num)[(*n)++] = e;
	return true;
}

/* A scaling of the dot's sum x right after its loop, `x = x * f / g` (or `x *= f`): its
 * key factors (reading the fused iterator or a key local) into *key, the rest into
 * *rest (NULL for none); false when there is no such statement or no key factor. */
static bool post_scale(const Walk *w, Stmt *s, const Var *x, Expr **key, Expr **rest)
{
	Program *p = w->p;
	if (s->kind != ST_ASSIGN || s->lhs->kind != EX_VAR || s->lhs->var != x || (s->aop != AS_SET && s->aop != AS_MUL))
		return false;
	Expr *num[8], *den[8];
	int nn = 0, nd = 0;
	if (!mul_parts(s->rhs, num, &nn, den, &nd, false))
		return false;
	int self = s->aop == AS_MUL;
	for (int i = 0; i < nd; i++)
		if (expr_reads_var(den[i], x))
			return false;
	Expr *kn = NULL, *kd = NULL, *rn = NULL, *rd = NULL;
	for (int i = 0; i < nn; i++) {
		if (num[i]->kind == EX_VAR && num[i]->var == x && !self) {
			self = 2;
			continue;
		}
		if (expr_reads_var(num[i], x) || num[i]->ty != TY_FLOAT)
			return false;
		if (reads_key(w, num[i]))
			kn = mul(p, kn, num[i]);
		else
			rn = mul(p, rn, num[i]);
	}
	for (int i = 0; i < nd; i++) {
		if (den[i]->ty != TY_FLOAT)
			return false;
		if (reads_key(w, den[i]))
			kd = mul(p, kd, den[i]);
		else
			rd = mul(p, rd, den[i]);
	}
	if (!self || (!kn && !kd))
		return false;
	Loc loc = s->loc;
	*key = kd ? ex_bin(p, OP_DIV, kn ? kn : ex_flt(p, 1.0, TY_FLOAT, loc), kd, loc) : kn;
	*rest = rd ? ex_bin(p, OP_DIV, rn ? rn : ex_flt(p, 1.0, TY_FLOAT, loc), rd, loc) : rn;
	return true;
}

/* The value of integer expression e (literals, d, + - * / %) at d = dv; false if it
 * reads anything else. */
static bool int_at(const Expr *e, const Var *d, long long dv, long long *out)
{
	long long a, b;
	switch (e->kind) {
	case EX_INT:
		*out = e->ival;
		return true;
	case EX_VAR:
		*out = dv;
		return e->var == d;
	case EX_CAST:
		return e->ty != TY_FLOAT && e->ty != TY_DOUBLE && int_at(e->args[0], d, dv, out);
	case EX_BIN:
		if (!int_at(e->args[0], d, dv, &a) || !int_at(e->args[1], d, dv, &b))
			return false;
		switch (e->bop) {
		case OP_ADD: *out = a + b; return true;
		case OP_SUB: *out = a - b; return true;
		case OP_MUL: *out = a * b; return true;
		case OP_DIV: *out = b ? a / b : 0; return b != 0;
		case OP_MOD: *out = b ? a % b : 0; return b != 0;
		default: return false;
		}
	default:
		return false;
	}
}

/* Side s of o as its array's row in another order (Side.cols): every term's factor
 * `(float)A[lead][c_t(d)]`, one array A the tiles read (16-bit, fp32, bytes) and the same
 * leading subscripts, and (t, d) -> c_t(d) a bijection onto [0, T * P). Then the side
 * needs no workspace: the dot over T * P columns reads A's row as stored and the other
 * side's workspace puts term t's column d at c_t(d) (NeoX's halves, GPT-J's pairs and a
 * decode's pre-rotated cache: only the query is rotated). NULL otherwise. */
static int *stored_order(Program *p, const Occ *o, int s)
{
	const Expr *a0 = NULL;
	long long W = o->t.n * o->P;
	if (o->t.n < 2 || W > TILE_MAX_WIDTH)
		return NULL;
	int *cols = arena_alloc(&p->arena, sizeof(int) * (size_t)W);
	bool *seen = calloc((size_t)W, 1);
	bool ok = true;
	for (int t = 0; t < o->t.n && ok; t++) {
		const Expr *e = o->t.fac[t][s];
		if (e->kind == EX_CAST && e->ty == TY_FLOAT)
			e = e->args[0];
		ScalarType ty = e->kind == EX_INDEX ? e->var->ty : TY_VOID;
		if (e->kind != EX_INDEX || e->var->kind != VAR_PARAM || e->nargs < 2 || (ty != TY_HALF && ty != TY_BF16 && ty != TY_FLOAT && ty != TY_I8 && ty != TY_U8)) {
			ok = false;
			break;
		}
		if (!a0)
			a0 = e;
		ok = e->var == a0->var;
		for (int i = 0; ok && i + 1 < e->nargs; i++)
			ok = expr_equal(e->args[i], a0->args[i]) && !expr_reads_var(e->args[i], o->d);
		for (long long dv = 0; ok && dv < o->P; dv++) {
			long long c;
			ok = int_at(e->args[e->nargs - 1], o->d, dv, &c) && c >= 0 && c < W && !seen[c];
			if (ok) {
				seen[c] = true;
				cols[t * o->P + dv] = (int)c;
			}
		}
	}
	free(seen);
	return ok ? cols : NULL;
}

/* The element of a parameter array in e with the most subscripts whose last reads one of
 * the loop iterators its[] and whose others read none of the variables decl declares
 * (and, for the key side, read the fused iterator j); best if none better. */
static const Expr *slice_ref(const Expr *e, const VarSet *its, const VarSet *decl, const Var *j, const Expr *best)
{
	if (e->kind == EX_INDEX && e->var->kind == VAR_PARAM && e->var->ndim >= 2 && reads_any(e->args[e->nargs - 1], its->v, its->n) && (!best || e->nargs > best->nargs)) {
		bool ok = !j;
		for (int i = 0; i + 1 < e->nargs; i++) {
			ok |= j && expr_reads_var(e->args[i], j);
			if (reads_any(e->args[i], decl->v, decl->n))
				ok = false, i = e->nargs;
		}
		if (ok)
			best = e;
	}
	for (int i = 0; i < e->nargs; i++)
		best = slice_ref(e->args[i], its, decl, j, best);
	return best;
}

typedef struct SliceRef {
	const VarSet *its, *decl;
	const Var *j;
	const Expr *best;
} SliceRef;

static bool slice_ref_test(const Expr *e, void *ctx)
{
	SliceRef *sr = ctx;
	sr->best = slice_ref(e, sr->its, sr->decl, sr->j, sr->best);
	return true;
}

static void collect_loops(const Stmt *s, VarSet *vs)
{
	if (!s)
		return;
	if (s->kind == ST_FOR && s->var)
		set_add(vs, s->var);
	for (int i = 0; i < s->nbody; i++)
		collect_loops(s->body[i], vs);
}

/* The main array of a side whose factors read locals only: among the arrays the slice's
 * loops read at their iterator (`q[b][h][d]`, `q[b][h][64 + d]` filling `qr[d]`), the
 * one with the most subscripts, its others free of the slice's own variables (the
 * workspace has its leading extents, a row per row of it); NULL if none. */
static const Expr *slice_main_ref(const Walk *w, const Side *sd, const Var *j)
{
	VarSet its = {0}, decl = {0};
	for (int i = 0; i < sd->nslice; i++) {
		collect_loops(sd->slice[i], &its);
		collect_declared(sd->slice[i], &decl);
	}
	(void)w;
	if (its.full || decl.full || !its.n)
		return NULL;
	SliceRef sr = {&its, &decl, j, NULL};
	for (int i = 0; i < sd->nslice; i++)
		stmt_all_exprs(sd->slice[i], slice_ref_test, &sr);
	return sr.best;
}

/* Whether the statements of block w->path[k] run once at every point of the region's
 * parallel loops g: every statement on the way down to it is a block or one of those
 * loops (no guard, no other loop). */
static bool row_level(const Walk *w, const GridLoop *g, int ng, int k)
{
	if (k >= w->depth || w->path[k]->kind != ST_BLOCK)
		return false;
	for (int q = 0; q < k; q++) {
		const Stmt *s = w->path[q];
		bool grid = false;
		for (int i = 0; i < ng && s->kind == ST_FOR; i++)
			grid |= s->var == g[i].var;
		if (s->kind != ST_BLOCK && !grid)
			return false;
	}
	return true;
}

/* Whether side s's values (its factors facs and slice) are functions of its main
 * array's row, each read in bounds for every row, so that a kernel over the rows
 * of the main array computes them (a workspace shaped like it). */
static bool side_rows(Walk *w, const Occ *o, Side *sd, Expr *const *facs, int s)
{
	const Var *m = sd->mainref->var;
	if (sd->mainref->nargs < 2)
		return false;
	for (int i = 0; i + 1 < m->ndim; i++)
		if (!m->dims[i] || !tile_host_expr(m->dims[i]))
			return false;
	/* a row is the main array's last dimension: its leading subscripts do not move with d
	 * (vLLM's key cache [..][D / 8][block][8], read at [i / 8][t][i % 8], is not rows of D) */
	for (int i = 0; i + 1 < sd->mainref->nargs; i++) {
		if (expr_reads_var(sd->mainref->args[i], o->d))
			return false;
		for (int q = 0; q < i; q++)
			if (expr_equal(sd->mainref->args[i], sd->mainref->args[q]))
				return false;
	}
	VarSet ok = {0};
	for (int i = 0; i < sd->nslice; i++)
		collect_declared(sd->slice[i], &ok);
	if (sd->mainref->nargs - 1 > PRO_MAX_DIMS)
		return false;
	Cover c = {.lead = (const Expr *const *)sd->mainref->args, .nlead = sd->mainref->nargs - 1, .mdims = (const Expr *const *)sd->mainref->var->dims, .ok = &ok, .d = o->d, .region = w->r->loop};
	GridLoop g[MAX_GRID];
	int ng;
	grid_loops(w->r, g, &ng);
	for (int i = 0; i < c.nlead && i < PRO_MAX_DIMS; i++)
		for (int q = 0; q < ng; q++)
			c.full[i] |= c.lead[i]->kind == EX_VAR && c.lead[i]->var == g[q].var && g[q].lo->kind == EX_INT && !g[q].lo->ival && c.mdims[i] && expr_equal(g[q].hi, c.mdims[i]);
	for (int t = 0; t < o->t.n; t++)
		if (!covered(facs[t], &c))
			return false;
	/* the row side's statements before the key loop run at every row of the main array when
	 * each leading subscript is a parallel loop over its whole extent and each parallel
	 * loop is one of them (none runs zero times while the prologue's rows do not) */
	bool full = s == 0;
	for (int i = 0; i < c.nlead; i++)
		full &= c.full[i];
	for (int q = 0; q < ng && full; q++) {
		bool lead = false;
		for (int i = 0; i < c.nlead; i++)
			lead |= c.lead[i]->kind == EX_VAR && c.lead[i]->var == g[q].var;
		full = lead;
	}
	for (int i = 0; i < sd->nslice; i++) {
		c.all_rows = full && row_level(w, g, ng, sd->slice_key[i] / 4096);
		if (!stmt_all_exprs(sd->slice[i], covered, &c))
			return false;
	}
	/* the row side's locals are computed outside the fused loop */
	for (int i = 0; i < sd->nslice; i++)
		if (s == 0 && sd->slice_key[i] / 4096 > w->jdepth)
			return false;
	return true;
}

/* Analyses the dot at body[k] of the innermost block on w's path: its terms and sides. */
static bool analyse(Walk *w, Stmt *b, int k, Occ *o)
{
	if (!dot_at(w, b, k, &o->d, &o->P))
		return false;
	w->j = NULL;
	for (int i = w->depth - 1; i >= 0 && !w->j; i--)
		if (w->path[i]->kind == ST_FOR && !strcmp(w->path[i]->var->name, w->axis) && w->path[i]->step == 1) {
			w->j = w->path[i]->var;
			w->jdepth = i;
		}
	if (!w->j)
		return false;
	w->nkeyl = 0;
	collect_key_locals(w, w->path[w->jdepth]->body[0]);
	Expr *e = dot_at(w, b, k, &o->d, &o->P);
	if (!e || !w->j || !reads_key(w, e) || !expr_reads_var(e, o->d))
		return false;
	*o = (Occ){.blk = b, .k = k, .loop = b->body[k + 1], .d = o->d, .P = o->P, .j = w->j};
	if (!split_terms(w, e, &o->t))
		return false;
	/* a per-key normalisation applied to the sum (cosine attention's 1 / |k|) belongs to
	 * the key side */
	Expr *key;
	if (k + 2 < b->nbody && post_scale(w, b->body[k + 2], b->body[k]->var, &key, &o->post_rest)) {
		o->post = b->body[k + 2];
		for (int t = 0; t < o->t.n; t++)
			o->t.fac[t][1] = o->t.fac[t][1] ? mul(w->p, o->t.fac[t][1], key) : NULL;
	}
	for (int s = 0; s < 2; s++) {
		Side *sd = &o->side[s];
		Expr *facs[MAX_TERMS];
		for (int t = 0; t < o->t.n; t++) {
			facs[t] = o->t.fac[t][s];
			if (!facs[t])
				return false; /* a side without a factor (a bias added to the score; a sum of squares) */
		}
		sd->plain = o->t.n == 1 && plain_operand(facs[0], o->d);
		if (sd->plain) {
			/* a plain row operand gets a workspace too where the key side's holds hi +
			 * lo (rewrite): whether it can is noted, not required */
			sd->mainref = facs[0]->kind == EX_CAST ? facs[0]->args[0] : facs[0];
			sd->rows_ok = s == 0 && side_rows(w, o, sd, facs, s);
			continue;
		}
		sd->cols = stored_order(w->p, o, s);
		if (sd->cols) {
			sd->mainref = facs[0]->kind == EX_CAST ? facs[0]->args[0] : facs[0];
			sd->rows_ok = s == 0 && side_rows(w, o, sd, facs, s);
			continue;
		}
		for (int t = 0; t < o->t.n && !sd->mainref; t++)
			sd->mainref = main_ref(facs[t], o->d, s ? w->j : NULL, NULL);
		if (!find_slice(w, sd, facs, o->t.n))
			return false;
		/* factors reading only locals (`qr[d]`, the query rotated into a local row before
		 * the key loop): the array the slice's loops read by their iterator */
		if (!sd->mainref)
			sd->mainref = slice_main_ref(w, sd, s ? w->j : NULL);
		if (!sd->mainref)
			return false;
		/* the workspace's type is chosen in rewrite (ws_types) */
		const Var *m = sd->mainref->var;
		if (m->ty != TY_FLOAT && m->ty != TY_HALF && m->ty != TY_BF16 && m->ty != TY_I8 && m->ty != TY_U8)
			return false;
		if (!side_rows(w, o, sd, facs, s))
			return false;
		sd->rows_ok = true;
	}
	return !o->side[0].plain || !o->side[1].plain;
}

typedef struct Found {
	Occ occ[MAX_OCC];
	int n;
	bool bad; /* more dots than MAX_OCC, or a nest deeper than MAX_PATH */
} Found;

static void search(Walk *w, Stmt *s, Found *fd)
{
	if (!s || w->depth == MAX_PATH) {
		fd->bad |= s != NULL;
		return;
	}
	w->path[w->depth] = s;
	for (int i = 0; i < s->nbody; i++) {
		w->idx[w->depth] = i;
		w->depth++;
		if (s->kind == ST_BLOCK) {
			Occ o = {.blk = NULL};
			/* a dot whose operands the region computes (a sum over d of a row side
			 * times a key side); any other is left as it is, and the tile planner
			 * judges the region as rewritten */
			if (analyse(w, s, i, &o)) {
				if (fd->n == MAX_OCC)
					fd->bad = true;
				else
					fd->occ[fd->n++] = o;
			}
		}
		search(w, s->body[i], fd);
		w->depth--;
	}
}

/* ---- the rewrite ---- */

/* The statement of tree s whose body holds b; NULL if none. */
static Stmt *parent_of(Stmt *s, const Stmt *b)
{
	if (!s)
		return NULL;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] == b)
			return s;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *q = parent_of(s->body[i], b);
		if (q)
			return q;
	}
	return NULL;
}

/* Remembers statement s's body (s may be NULL) for prologue_restore, once. */
static bool remember(Prologue *pl, Stmt *s)
{
	if (!s)
		return true;
	for (int u = 0; u < pl->nundo; u++)
		if (pl->undo_blk[u] == s)
			return true;
	if (pl->nundo == PRO_MAX_UNDO)
		return false;
	pl->undo_blk[pl->nundo] = s;
	pl->undo_body[pl->nundo] = s->body;
	pl->undo_n[pl->nundo] = s->nbody;
	pl->nundo++;
	return true;
}

/* Sets block b (in region r) of statements, remembering the first ones for prologue_restore,
 * and those of the statement holding b: the tile planner, judging the rewritten region,
 * may put b's statements into a new block of that statement (tile.c, distribute_guards),
 * and the restore must put b back there. */
static bool set_stmts(Program *p, Prologue *pl, const Region *r, Stmt *b, Stmt **body, int n)
{
	if (!remember(pl, parent_of(r->loop, b)) || !remember(pl, b))
		return false;
	st_set_body(p, b, body, n);
	return true;
}

void prologue_restore(Prologue *pl)
{
	for (int u = pl->nundo - 1; u >= 0; u--) {
		pl->undo_blk[u]->body = pl->undo_body[u];
		pl->undo_blk[u]->nbody = pl->undo_n[u];
	}
	pl->nundo = 0;
}

/* The printed form of an occurrence's terms and slices: two dots are the same product
 * when these agree. */
static char *signature(const Occ *o)
{
	StrBuf b = {0};
	sb_printf(&b, "%lld:", o->P);
	if (o->post_rest)
		print_expr(&b, o->post_rest);
	for (int t = 0; t < o->t.n; t++)
		for (int s = 0; s < 2; s++) {
			print_expr(&b, o->t.fac[t][s]);
			sb_puts(&b, ";");
		}
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < o->side[s].nslice; i++)
			print_stmt(&b, o->side[s].slice[i], 0);
	return b.s;
}

/* The type of the array side s of o reads: its main array's, or its plain operand's. */
static ScalarType side_type(const Occ *o, int s)
{
	const Expr *e = o->side[s].plain ? o->t.fac[0][s] : o->side[s].mainref;
	return (e->kind == EX_CAST ? e->args[0] : e)->var->ty;
}

/* The workspaces' types (ty[s] for side s), and whether the key side's holds each value
 * as hi + lo (*hilo). With fp32 and byte arrays only, fp32 (the fp32 tiles, 3xTF32).
 * Where a side reads fp16 or bf16 (T), the tiles multiply T: a computed operand rounded
 * to T once more (on top of P's rounding) put GPT-J RoPE (fp16) 3-20x and QK-norm (bf16)
 * 12x past their fp64 tolerance on the GPU (session 23), so a computed row side stays
 * fp32, which the tiles split into hi + lo as they load it (tile.c, operand_types), and a
 * computed key side holds each value x as hi = x rounded to T at column c and lo = x - hi
 * rounded at column W + c (W the terms' columns), its row side (a workspace then, even
 * where plain) the same value at both: [R | R] . [Kh | Kl], width 2W, is Rh.Kh + Rl.Kh +
 * Rh.Kl + Rl.Kl, every product exact, summed in fp32. 2W and not [Rh | Rl | Rh] . [Kh |
 * Kh | Kl] (3W, one product fewer): the key workspace, which every CTA streams and a
 * decode is bound by reading, is two-thirds as wide; the row's split is the tiles' own;
 * at D = 128, 2W = 256 is a head width with the 128-row prefill plan, 3W = 384 a wide
 * head (docs/gpu-kernels.md). A key side read as stored (Side.cols) is exact: no hi +
 * lo. False where the sides read fp16 and bf16. */
static bool ws_types(const Occ *o, ScalarType ty[2], bool *hilo)
{
	ScalarType t16 = TY_VOID;
	for (int s = 0; s < 2; s++) {
		ScalarType t = side_type(o, s);
		if (t != TY_HALF && t != TY_BF16)
			continue;
		if (t16 != TY_VOID && t16 != t)
			return false;
		t16 = t;
	}
	*hilo = t16 != TY_VOID && !o->side[1].plain && !o->side[1].cols;
	ty[0] = o->side[0].plain || o->side[0].cols ? side_type(o, 0) : TY_FLOAT;
	ty[1] = *hilo ? t16 : TY_FLOAT;
	return true;
}

/* side s of occurrence o as the operand of the rewritten dot: the factor itself (plain),
 * or its workspace's element. */
static Expr *operand(Program *p, const Occ *o, int s, Var *ws, Var *dd)
{
	if (!ws && o->side[s].plain)
		return expr_subst_var(p, o->t.fac[0][s], o->d, dd);
	const Expr *m = o->side[s].mainref;
	if (!ws) /* the array's row as stored (Side.cols) */
		ws = m->var;
	Expr *idx[PRO_MAX_DIMS + 1];
	for (int i = 0; i + 1 < m->nargs; i++)
		idx[i] = ex_copy(p, m->args[i]);
	idx[m->nargs - 1] = ex_var(p, dd, m->loc);
	return ex_as_type(p, TY_FLOAT, ex_index(p, ws, idx, m->loc));
}

/* Removes statement s from block b (if still there); puts it back when a variable it
 * defines is still read in the region. */
static bool drop_if_dead(Program *p, Prologue *pl, const Region *r, Stmt *b, Stmt *s)
{
	int at = -1;
	for (int i = 0; i < b->nbody; i++)
		if (b->body[i] == s)
			at = i;
	if (at < 0)
		return true;
	VarSet wr = {0};
	collect_written(s, s, &wr);
	Stmt *nb[b->nbody];
	int n = 0;
	for (int i = 0; i < b->nbody; i++)
		if (i != at)
			nb[n++] = b->body[i];
	Stmt **old = b->body;
	int oldn = b->nbody;
	b->body = nb;
	b->nbody = n;
	bool live = wr.full;
	for (int i = 0; i < wr.n; i++)
		live |= stmt_reads_var(r->loop, wr.v[i]);
	b->body = old;
	b->nbody = oldn;
	return live || set_stmts(p, pl, r, b, nb, n);
}

static bool rewrite(Program *p, const Func *f, Region *r, Prologue *pl, const char *(*unique)(Program *, const Func *, const Region *, const char *))
{
	const Cascade *c = fuse_cascade_of(r);
	if (!c)
		return false;
	Walk w = {.p = p, .r = r, .axis = c->axis};
	Found fd = {0};
	search(&w, r->loop, &fd);
	if (fd.bad || !fd.n)
		return false;
	char *sig = signature(&fd.occ[0]);
	bool same = true;
	for (int i = 1; i < fd.n && same; i++) {
		char *s2 = signature(&fd.occ[i]);
		same = !strcmp(sig, s2);
		free(s2);
	}
	free(sig);
	if (!same)
		return false;
	const Occ *o = &fd.occ[0];
	ScalarType ty[2];
	bool hilo;
	if (!ws_types(o, ty, &hilo))
		return false;
	long long cols_t = o->t.n * o->P, width = hilo ? 2 * cols_t : cols_t;
	if (width > TILE_MAX_WIDTH)
		return false;
	/* the columns' order: a side read as stored (the key's first) gives it, the other
	 * side's workspace follows; else term t's column d is t * P + d */
	int msrc = o->side[1].cols ? 1 : o->side[0].cols && !hilo ? 0 : -1;
	bool same_order = o->side[0].cols && o->side[1].cols && !memcmp(o->side[0].cols, o->side[1].cols, sizeof(int) * (size_t)cols_t);
	/* the workspaces and the kernels that fill them */
	Var *ws[2] = {NULL, NULL};
	for (int s = 0; s < 2; s++) {
		const Side *sd = &o->side[s];
		if ((sd->plain && !(s == 0 && hilo)) || s == msrc || (s == 0 && msrc == 1 && same_order))
			continue;
		if (!sd->rows_ok)
			return false;
		ProSide *ps = &pl->sides[pl->nsides++];
		const Expr *m = sd->mainref;
		const Var *mv = m->var;
		ps->main = mv;
		/* q and k may be one array (self-attention on x[i], x[j]): the key side's names differ */
		bool again = s && pl->nsides == 2 && pl->sides[0].main == mv;
		ps->kernel = unique(p, f, r, arena_printf(&p->arena, "%s_%s%s_prologue", r->name, mv->name, again ? "_key" : ""));
		Var *v = var_new(p, VAR_PARAM, unique(p, f, r, arena_printf(&p->arena, "%s%s_ws", mv->name, again ? "_key" : "")), ty[s], m->loc);
		ps->split = hilo ? 1 + s : 0;
		ps->lane = var_new(p, VAR_LOOP, unique(p, f, r, "lane"), TY_INT, m->loc);
		v->ndim = mv->ndim;
		v->dims = arena_alloc(&p->arena, sizeof(Expr *) * (size_t)v->ndim);
		for (int i = 0; i + 1 < mv->ndim; i++)
			v->dims[i] = mv->dims[i];
		v->dims[v->ndim - 1] = ex_int(p, width, m->loc);
		ps->ws = ws[s] = v;
		/* a thread per row of the workspace: its index where the main array's subscript
		 * is an iterator, else a fresh one */
		Var *idx[PRO_MAX_DIMS];
		ps->ngrid = mv->ndim - 1;
		if (ps->ngrid > PRO_MAX_DIMS)
			return false;
		for (int i = 0; i < ps->ngrid; i++) {
			const Expr *a = m->args[i];
			idx[i] = a->kind == EX_VAR && a->var->kind == VAR_LOOP ? a->var : var_new(p, VAR_LOOP, unique(p, f, r, arena_printf(&p->arena, "r%d", i)), TY_INT, a->loc);
			ps->grid[i] = (GridLoop){idx[i], ex_int(p, 0, a->loc), mv->dims[i], 0};
		}
		LeadMap lm = {p, (const Expr *const *)m->args, idx, ps->ngrid};
		Stmt *body[MAX_SLICE + 1];
		int n = 0;
		for (int i = 0; i < sd->nslice; i++)
			body[n++] = stmt_map_exprs(p, sd->slice[i], map_lead, &lm);
		Stmt *st[MAX_TERMS];
		for (int t = 0; t < o->t.n; t++) {
			Expr *at[PRO_MAX_DIMS + 1];
			for (int i = 0; i < ps->ngrid; i++)
				at[i] = ex_var(p, idx[i], m->loc);
			Expr *col = ex_var(p, o->d, m->loc);
			if (msrc >= 0) {
				const Expr *f0 = o->t.fac[t][msrc];
				f0 = f0->kind == EX_CAST ? f0->args[0] : f0;
				col = ex_copy(p, f0->args[f0->nargs - 1]);
			}
			at[ps->ngrid] = t && msrc < 0 ? ex_bin(p, OP_ADD, ex_int(p, t * o->P, m->loc), col, m->loc) : col;
			Expr *val = map_lead(p, sd->plain ? sd->mainref : o->t.fac[t][s], &lm);
			if (!hilo) {
				st[t] = st_assign(p, ex_index(p, v, at, m->loc), AS_SET, ex_as_type(p, v->ty, val), m->loc);
				continue;
			}
			/* the key side: x = hi + lo at columns c and W + c (hi = x rounded, lo = x -
			 * hi rounded); the row side: its value at both */
			Expr *at2[PRO_MAX_DIMS + 1];
			for (int i = 0; i < ps->ngrid; i++)
				at2[i] = ex_var(p, idx[i], m->loc);
			at2[ps->ngrid] = ex_bin(p, OP_ADD, ex_int(p, cols_t + (msrc < 0 ? t * o->P : 0), m->loc), msrc < 0 ? ex_var(p, o->d, m->loc) : ex_copy(p, col), m->loc);
			Var *x = var_new(p, VAR_LOCAL, unique(p, f, r, s ? "x_key" : "x_row"), s ? TY_FLOAT : v->ty, m->loc);
			Stmt *two[4];
			two[0] = st_decl(p, x, ex_as_type(p, x->ty, val), m->loc);
			if (s) {
				Var *h = var_new(p, VAR_LOCAL, unique(p, f, r, "x_hi"), v->ty, m->loc);
				two[1] = st_decl(p, h, ex_as_type(p, v->ty, ex_var(p, x, m->loc)), m->loc);
				two[2] = st_assign(p, ex_index(p, v, at, m->loc), AS_SET, ex_var(p, h, m->loc), m->loc);
				Expr *lo = ex_bin(p, OP_SUB, ex_var(p, x, m->loc), ex_as_type(p, TY_FLOAT, ex_var(p, h, m->loc)), m->loc);
				two[3] = st_assign(p, ex_index(p, v, at2, m->loc), AS_SET, ex_as_type(p, v->ty, lo), m->loc);
			} else {
				two[1] = st_assign(p, ex_index(p, v, at, m->loc), AS_SET, ex_var(p, x, m->loc), m->loc);
				two[2] = st_assign(p, ex_index(p, v, at2, m->loc), AS_SET, ex_var(p, x, m->loc), m->loc);
			}
			st[t] = st_block(p, two, s ? 4 : 3, m->loc);
		}
		Stmt *cols = o->t.n == 1 ? st[0] : st_block(p, st, o->t.n, m->loc);
		body[n++] = st_for(p, o->d, ex_var(p, ps->lane, m->loc), ex_int(p, o->P, m->loc), PRO_LANES, cols, m->loc);
		ps->body = st_block(p, body, n, m->loc);
	}
	/* every dot reads the workspaces; what only the dots read goes */
	for (int i = 0; i < fd.n; i++) {
		Occ *q = &fd.occ[i];
		Stmt *x = q->blk->body[q->k];
		Expr *prod = ex_bin(p, OP_MUL, operand(p, q, 0, ws[0], q->d), operand(p, q, 1, ws[1], q->d), q->loop->loc);
		Stmt *loop = st_for(p, q->d, ex_int(p, 0, q->loop->loc), ex_int(p, width, q->loop->loc), 1, st_assign(p, ex_var(p, x->var, x->loc), AS_ADD, prod, q->loop->loc), q->loop->loc);
		Stmt *nb[q->blk->nbody];
		memcpy(nb, q->blk->body, sizeof nb);
		nb[q->k + 1] = loop;
		int n = q->blk->nbody;
		if (q->post && q->post_rest) {
			nb[q->k + 2] = st_assign(p, ex_var(p, x->var, q->post->loc), AS_MUL, q->post_rest, q->post->loc);
		} else if (q->post) {
			memmove(nb + q->k + 2, nb + q->k + 3, sizeof(Stmt *) * (size_t)(n - q->k - 3));
			n--;
		}
		if (!set_stmts(p, pl, r, q->blk, nb, n))
			return false;
	}
	for (int i = 0; i < fd.n; i++)
		for (int s = 0; s < 2; s++)
			for (int k = fd.occ[i].side[s].nslice - 1; k >= 0; k--)
				if (!drop_if_dead(p, pl, r, fd.occ[i].side[s].slice_blk[k], fd.occ[i].side[s].slice[k]))
					return false;
	return true;
}

bool prologue_rewrite(Program *p, const Func *f, Region *r, Prologue *pl, const char *(*unique)(Program *, const Func *, const Region *, const char *))
{
	*pl = (Prologue){0};
	if (rewrite(p, f, r, pl, unique))
		return true;
	/* a refusal part way: nothing of it stays */
	prologue_restore(pl);
	*pl = (Prologue){0};
	return false;
}
