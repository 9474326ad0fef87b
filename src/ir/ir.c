/* ir.c: IR constructors and type rules. */
#include "ir.h"

#include <string.h>

const MathFnInfo mathfn_info[FN_COUNT] = {
#define MATHFN(id, f32, f64, nargs) [FN_##id] = {f32, f64, nargs},
#include "mathfn.def"
#undef MATHFN
};

/* Whether fn classifies its argument (an int, whatever the argument's type). */
bool mathfn_classifies(MathFn fn) { return fn == FN_ISFINITE || fn == FN_ISNAN || fn == FN_ISINF || fn == FN_SIGNBIT; }

bool mathfn_lookup(const char *name, MathFn *fn, bool *is_double)
{
	/* <math.h>'s classification macros expand to builtins (glibc: `isfinite(x)` is
	 * `__builtin_isfinite(x)`, `isinf(x)` is `__builtin_isinf_sign(x)`, whose sign a
	 * truth value ignores): the names the user wrote */
	static const char *const builtins[][2] = {{"__builtin_isfinite", "isfinite"}, {"__builtin_isnan", "isnan"}, {"__builtin_isinf", "isinf"}, {"__builtin_isinf_sign", "isinf"}, {"__builtin_signbit", "signbit"}};
	for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++)
		if (!strcmp(name, builtins[k][0]))
			name = builtins[k][1];
	/* GCC's builtin spellings of the math functions (__builtin_fmaf, __builtin_expf) are
	 * the functions themselves */
	if (!strncmp(name, "__builtin_", 10))
		name += 10;
	for (int i = 0; i < FN_COUNT; i++) {
		if (!strcmp(name, mathfn_info[i].f32) || !strcmp(name, mathfn_info[i].f64)) {
			*fn = (MathFn)i;
			*is_double = !strcmp(name, mathfn_info[i].f64);
			return true;
		}
	}
	return false;
}

const char *scalar_type_c(ScalarType t)
{
	switch (t) {
	case TY_VOID: return "void";
	case TY_INT: return "int";
	case TY_FLOAT: return "float";
	case TY_DOUBLE: return "double";
	case TY_HALF: return "_Float16";
	case TY_BF16: return "fusecc_bf16";
	case TY_I64: return "int64_t";
	case TY_U8: return "uint8_t";
	case TY_BOOL: return "_Bool";
	case TY_I8: return "int8_t";
	case TY_FP8: return "fusecc_fp8e4m3";
	}
	return "?";
}

bool scalar_is_float(ScalarType t) { return t == TY_FLOAT || t == TY_DOUBLE || t == TY_HALF || t == TY_BF16 || t == TY_FP8; }

bool scalar_is_storage(ScalarType t) { return t == TY_BF16 || t == TY_FP8; }

bool scalar_is_int(ScalarType t) { return t == TY_INT || t == TY_I64 || t == TY_U8 || t == TY_I8 || t == TY_BOOL; }

int scalar_size(ScalarType t)
{
	switch (t) {
	case TY_VOID: return 0;
	case TY_U8:
	case TY_I8:
	case TY_FP8:
	case TY_BOOL: return 1;
	case TY_HALF:
	case TY_BF16: return 2;
	case TY_INT:
	case TY_FLOAT: return 4;
	case TY_DOUBLE:
	case TY_I64: return 8;
	}
	return 0;
}

/* C's integer promotions: bool and bytes compute as int. */
static ScalarType promote(ScalarType t) { return t == TY_U8 || t == TY_I8 || t == TY_BOOL ? TY_INT : t; }

/* C's usual arithmetic conversions for the types we have: _Float16 arithmetic happens
 * in _Float16 per C (gcc and clang agree on x86-64 with excess precision float), but we
 * model it as C does: the wider operand wins. Integers promote, and int64 wins over int.
 * Comparisons and logic give int. */
BinOp binop_mirror(BinOp op)
{
	switch (op) {
	case OP_LT: return OP_GT;
	case OP_LE: return OP_GE;
	case OP_GT: return OP_LT;
	case OP_GE: return OP_LE;
	default: return op;
	}
}

BinOp assignop_binop(AssignOp op)
{
	static const BinOp ops[] = {[AS_ADD] = OP_ADD, [AS_SUB] = OP_SUB, [AS_MUL] = OP_MUL, [AS_DIV] = OP_DIV};
	return ops[op];
}

ScalarType binop_result(BinOp op, ScalarType a, ScalarType b)
{
	if (op >= OP_LT)
		return TY_INT;
	if (op == OP_SHL || op == OP_SHR) /* the left operand's type, promoted */
		return promote(a);
	if (a == TY_DOUBLE || b == TY_DOUBLE)
		return TY_DOUBLE;
	if (a == TY_FLOAT || b == TY_FLOAT)
		return TY_FLOAT;
	if (a == TY_HALF || b == TY_HALF)
		return TY_HALF;
	if (a == TY_I64 || b == TY_I64)
		return TY_I64;
	return TY_INT;
}

static Expr *ex_new(Program *p, ExprKind k, ScalarType ty, int nargs, Loc loc)
{
	Expr *e = NEW(&p->arena, Expr);
	e->kind = k;
	e->ty = ty;
	e->nargs = nargs;
	e->args = nargs ? arena_alloc(&p->arena, sizeof(Expr *) * (size_t)nargs) : NULL;
	e->loc = loc;
	return e;
}

Expr *ex_int(Program *p, long long v, Loc loc)
{
	Expr *e = ex_new(p, EX_INT, TY_INT, 0, loc);
	e->ival = v;
	return e;
}

Expr *ex_flt(Program *p, double v, ScalarType ty, Loc loc)
{
	Expr *e = ex_new(p, EX_FLT, ty, 0, loc);
	e->fval = v;
	return e;
}

Expr *ex_var(Program *p, Var *v, Loc loc)
{
	Expr *e = ex_new(p, EX_VAR, v->ty, 0, loc);
	e->var = v;
	return e;
}

Expr *ex_index(Program *p, Var *v, Expr **idx, Loc loc)
{
	Expr *e = ex_new(p, EX_INDEX, v->ty, v->ndim, loc);
	e->var = v;
	memcpy(e->args, idx, sizeof(Expr *) * (size_t)v->ndim);
	return e;
}

Expr *ex_un(Program *p, UnOp op, Expr *a, Loc loc)
{
	Expr *e = ex_new(p, EX_UN, op == UOP_NOT ? TY_INT : promote(a->ty), 1, loc);
	e->uop = op;
	e->args[0] = a;
	return e;
}

Expr *ex_bin(Program *p, BinOp op, Expr *a, Expr *b, Loc loc)
{
	Expr *e = ex_new(p, EX_BIN, binop_result(op, a->ty, b->ty), 2, loc);
	e->bop = op;
	e->args[0] = a;
	e->args[1] = b;
	return e;
}

Expr *ex_call(Program *p, MathFn fn, bool is_double, Expr **args, Loc loc)
{
	/* isfinite is a classification macro: an int whatever its argument. */
	Expr *e = ex_new(p, EX_CALL, mathfn_classifies(fn) ? TY_INT : is_double ? TY_DOUBLE : TY_FLOAT, mathfn_info[fn].nargs, loc);
	e->fn = fn;
	memcpy(e->args, args, sizeof(Expr *) * (size_t)e->nargs);
	return e;
}

Expr *ex_cond(Program *p, Expr *c, Expr *a, Expr *b, Loc loc)
{
	/* C's usual conversions; two bf16 arms (fusecc_bf16, a struct) keep their type */
	ScalarType ty = a->ty == TY_BF16 && b->ty == TY_BF16 ? TY_BF16 : binop_result(OP_ADD, a->ty, b->ty);
	Expr *e = ex_new(p, EX_COND, ty, 3, loc);
	e->args[0] = c;
	e->args[1] = a;
	e->args[2] = b;
	return e;
}

Expr *ex_cast(Program *p, ScalarType ty, Expr *a, Loc loc)
{
	Expr *e = ex_new(p, EX_CAST, ty, 1, loc);
	e->args[0] = a;
	return e;
}

Expr *ex_as_type(Program *p, ScalarType ty, Expr *e)
{
	return e->ty == ty ? e : ex_cast(p, ty, e, e->loc);
}

Expr *ex_copy(Program *p, const Expr *e)
{
	Expr *c = ex_new(p, e->kind, e->ty, e->nargs, e->loc);
	Expr **args = c->args;
	*c = *e;
	c->args = args;
	for (int i = 0; i < e->nargs; i++)
		c->args[i] = ex_copy(p, e->args[i]);
	return c;
}

Expr *expr_subst_expr(Program *p, const Expr *e, const Var *from, const Expr *to)
{
	if (!e)
		return NULL;
	if (e->kind == EX_VAR && e->var == from)
		return ex_copy(p, to);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = expr_subst_expr(p, e->args[i], from, to);
	return c;
}

bool expr_equal_map(const Expr *a, const Expr *b, VarMap map, ExprEqHook hook, void *ctx)
{
	int h = hook ? hook(a, b, ctx) : -1;
	if (h >= 0)
		return h;
	if (a->kind != b->kind || a->ty != b->ty || a->nargs != b->nargs)
		return false;
	const Var *v = a->var && map && map(a->var, ctx) ? map(a->var, ctx) : a->var;
	switch (a->kind) {
	case EX_INT: return a->ival == b->ival;
	case EX_FLT: return a->fval == b->fval || (a->fval != a->fval && b->fval != b->fval);
	case EX_VAR:
	case EX_INDEX: if (v != b->var) return false; break;
	case EX_UN: if (a->uop != b->uop) return false; break;
	case EX_BIN: if (a->bop != b->bop) return false; break;
	case EX_CALL: if (a->fn != b->fn) return false; break;
	case EX_COND:
	case EX_CAST: break;
	}
	for (int i = 0; i < a->nargs; i++)
		if (!expr_equal_map(a->args[i], b->args[i], map, hook, ctx))
			return false;
	return true;
}

bool expr_equal(const Expr *a, const Expr *b) { return expr_equal_map(a, b, NULL, NULL, NULL); }

Var *var_new(Program *p, VarKind kind, const char *name, ScalarType ty, Loc loc)
{
	Var *v = NEW(&p->arena, Var);
	v->kind = kind;
	v->name = arena_strdup(&p->arena, name);
	v->ty = ty;
	v->id = p->nvars++;
	v->loc = loc;
	return v;
}

Stmt *st_new(Program *p, StmtKind kind, Loc loc)
{
	Stmt *s = NEW(&p->arena, Stmt);
	s->kind = kind;
	s->loc = loc;
	return s;
}

void st_set_body(Program *p, Stmt *s, Stmt **body, int n)
{
	s->nbody = n;
	s->body = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(n ? n : 1));
	if (n)
		memcpy(s->body, body, sizeof(Stmt *) * (size_t)n);
}

bool expr_reads_var(const Expr *e, const Var *v)
{
	if (!e)
		return false;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var == v)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (expr_reads_var(e->args[i], v))
			return true;
	return false;
}

const Stmt *stmt_loop_of(const Stmt *s, const Var *v)
{
	if (!s)
		return NULL;
	if (s->kind == ST_FOR && s->var == v)
		return s;
	for (int i = 0; i < s->nbody; i++) {
		const Stmt *l = stmt_loop_of(s->body[i], v);
		if (l)
			return l;
	}
	return NULL;
}

Expr *expr_uncast(Expr *e)
{
	while (e->kind == EX_CAST)
		e = e->args[0];
	return e;
}

bool expr_is_zero_literal(const Expr *e)
{
	while (e->kind == EX_CAST)
		e = e->args[0];
	return (e->kind == EX_INT && e->ival == 0) || (e->kind == EX_FLT && e->fval == 0);
}

bool expr_reads_named(const Expr *e, const char *name)
{
	if (!e)
		return false;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && !strcmp(e->var->name, name))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (expr_reads_named(e->args[i], name))
			return true;
	return false;
}

bool sched_parallel(const Schedule *sc, const char *name)
{
	for (int i = 0; i < sc->nparallel; i++)
		if (!strcmp(sc->parallel[i].loop, name))
			return true;
	return false;
}

bool expr_reads_element(const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_INDEX)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (expr_reads_element(e->args[i]))
			return true;
	return false;
}

bool stmt_reads_var(const Stmt *s, const Var *v)
{
	if (!s)
		return false;
	if (expr_reads_var(s->rhs, v) || expr_reads_var(s->cond, v) || expr_reads_var(s->lo, v) || expr_reads_var(s->hi, v))
		return true;
	if (s->lhs) {
		if (s->aop != AS_SET && s->lhs->var == v)
			return true;
		for (int i = 0; i < s->lhs->nargs; i++)
			if (expr_reads_var(s->lhs->args[i], v))
				return true;
	}
	for (int i = 0; i < s->nbody; i++)
		if (stmt_reads_var(s->body[i], v))
			return true;
	return false;
}

bool stmt_writes_var(const Stmt *s, const Var *v)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->var == v)
		return true;
	if (s->kind == ST_DECL && s->var == v && s->rhs)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_writes_var(s->body[i], v))
			return true;
	return false;
}

bool stmt_only_accesses(const Stmt *s, const Var *v, int (*mine)(const Stmt *s, void *ctx), void *ctx)
{
	if (!s)
		return true;
	switch (s->kind) {
	case ST_ASSIGN: {
		int m = mine(s, ctx);
		if (m >= 0)
			return m;
		return !stmt_reads_var(s, v) && s->lhs->var != v;
	}
	case ST_DECL:
		return s->var != v && (!s->rhs || !expr_reads_var(s->rhs, v));
	case ST_IF:
		if (expr_reads_var(s->cond, v))
			return false;
		break;
	case ST_FOR:
		if (expr_reads_var(s->lo, v) || expr_reads_var(s->hi, v))
			return false;
		break;
	case ST_BLOCK:
		break;
	}
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_only_accesses(s->body[i], v, mine, ctx))
			return false;
	return true;
}

bool extents_read_setup(const Func *f, const Var *a)
{
	for (int k = 0; k < f->nsvars; k++) {
		if (a->flat_extent && expr_reads_var(a->flat_extent, f->svars[k]))
			return true;
		for (int d = 0; d < a->ndim; d++)
			if (a->dims[d] && expr_reads_var(a->dims[d], f->svars[k]))
				return true;
	}
	return false;
}

int stmt_count_stores(const Stmt *s, const Var *v)
{
	if (!s)
		return 0;
	int n = s->kind == ST_ASSIGN && s->lhs->var == v;
	for (int i = 0; i < s->nbody; i++)
		n += stmt_count_stores(s->body[i], v);
	return n;
}

static unsigned expr_types(const Expr *e)
{
	if (!e)
		return 0;
	unsigned m = 1u << e->ty;
	if (e->var)
		m |= 1u << e->var->ty;
	for (int i = 0; i < e->nargs; i++)
		m |= expr_types(e->args[i]);
	return m;
}

static unsigned stmt_types(const Stmt *s)
{
	if (!s)
		return 0;
	unsigned m = (s->var ? 1u << s->var->ty : 0) | expr_types(s->lhs) | expr_types(s->rhs) | expr_types(s->cond) | expr_types(s->lo) | expr_types(s->hi);
	for (int i = 0; i < s->nbody; i++)
		m |= stmt_types(s->body[i]);
	return m;
}

unsigned program_types(const Program *p)
{
	unsigned m = 0;
	for (int f = 0; f < p->nfuncs; f++) {
		const Func *fn = p->funcs[f];
		for (int i = 0; i < func_nkparams(fn); i++)
			m |= 1u << func_kparam(fn, i)->ty;
		for (int i = 0; i < fn->nsetup; i++)
			m |= stmt_types(fn->setup[i]);
		for (int r = 0; r < fn->nregions; r++)
			m |= stmt_types(fn->regions[r]->loop);
	}
	return m;
}

bool same_lvalue(const Expr *a, const Expr *b)
{
	return a->kind == b->kind && (a->kind == EX_VAR || a->kind == EX_INDEX) && expr_equal(a, b);
}

AccumKind accum_step(const Stmt *s, const Expr *t)
{
	if (s->kind != ST_ASSIGN || !same_lvalue(s->lhs, t))
		return ACCUM_NONE;
	const Expr *r = s->rhs;
	if (s->aop == AS_ADD || s->aop == AS_SUB)
		return expr_reads_var(r, t->var) ? ACCUM_NONE : ACCUM_SUM;
	if (s->aop != AS_SET || r->kind != EX_CALL || (r->fn != FN_FMAX && r->fn != FN_FMIN) || !same_lvalue(r->args[0], t) || expr_reads_var(r->args[1], t->var))
		return ACCUM_NONE;
	return r->fn == FN_FMAX ? ACCUM_MAX : ACCUM_MIN;
}

Stmt *accum_step_new(Program *p, AccumKind k, Expr *t, Expr *e, Loc loc)
{
	Stmt *s = st_new(p, ST_ASSIGN, loc);
	s->lhs = t;
	s->aop = k == ACCUM_SUM ? AS_ADD : AS_SET;
	s->rhs = e;
	if (k != ACCUM_SUM) {
		Expr *args[2] = {ex_copy(p, t), ex_as_type(p, t->ty, e)};
		s->rhs = ex_call(p, k == ACCUM_MAX ? FN_FMAX : FN_FMIN, t->ty == TY_DOUBLE, args, loc);
	}
	return s;
}

Stmt *fma_step(Program *p, Stmt *s)
{
	if (s->kind != ST_ASSIGN || s->aop != AS_SET)
		return s;
	Expr *x = s->lhs, *r = s->rhs;
	if (r->kind == EX_CAST && r->ty == x->ty) /* (float)fma(a, b, x) */
		r = r->args[0];
	if (r->kind != EX_CALL || r->fn != FN_FMA || (x->ty != TY_FLOAT && x->ty != TY_DOUBLE) || (r->ty == TY_FLOAT && x->ty != TY_FLOAT))
		return s;
	for (int i = 0; i < x->nargs; i++)
		if (expr_reads_var(x->args[i], x->var))
			return s;
	const Expr *acc = r->args[2];
	if (acc->kind == EX_CAST && acc->ty == r->ty && acc->args[0]->ty == x->ty) /* x widened to fma's double */
		acc = acc->args[0];
	/* an online softmax's rescale written with fma, `acc[d] = fmaf(acc[d], c, p * v)`:
	 * x = x * c + e, the form online.c undoes */
	for (int k = 0; k < 2 && !same_lvalue(acc, x); k++) {
		const Expr *t = r->args[k];
		if (t->kind == EX_CAST && t->ty == r->ty && t->args[0]->ty == x->ty)
			t = t->args[0];
		if (!same_lvalue(t, x) || expr_reads_var(r->args[1 - k], x->var) || expr_reads_var(r->args[2], x->var))
			continue;
		Expr *prod = ex_bin(p, OP_MUL, ex_as_type(p, r->ty, ex_copy(p, x)), ex_as_type(p, r->ty, r->args[1 - k]), r->loc);
		s->rhs = ex_as_type(p, x->ty, ex_bin(p, OP_ADD, prod, ex_as_type(p, r->ty, r->args[2]), r->loc));
		return s;
	}
	if (!same_lvalue(acc, x) || expr_reads_var(r->args[0], x->var) || expr_reads_var(r->args[1], x->var))
		return s;
	Expr *prod = ex_bin(p, OP_MUL, ex_as_type(p, r->ty, r->args[0]), ex_as_type(p, r->ty, r->args[1]), r->loc);
	s->aop = AS_ADD;
	s->rhs = prod;
	return s;
}

void accum_retarget(Program *p, Stmt *s, Var *to)
{
	s->lhs = ex_var(p, to, s->lhs->loc);
	if (s->aop == AS_SET) /* fmaxf(t, e) */
		s->rhs->args[0] = ex_var(p, to, s->rhs->args[0]->loc);
}

Expr *select_extreme(Expr *c, const Expr *x, bool *max)
{
	if (c->kind != EX_COND || c->args[0]->kind != EX_BIN)
		return NULL;
	Expr *cmp = c->args[0], *a = c->args[1], *b = c->args[2];
	BinOp op = cmp->bop;
	if (op != OP_GT && op != OP_GE && op != OP_LT && op != OP_LE)
		return NULL;
	bool gt = op == OP_GT || op == OP_GE;
	Expr *l = cmp->args[0], *r = cmp->args[1];
	/* c picks the larger of l and r when (gt and a == l) or (!gt and a == r). */
	if (!(expr_equal(a, l) && expr_equal(b, r)) && !(expr_equal(a, r) && expr_equal(b, l)))
		return NULL;
	Expr *e = same_lvalue(l, x) ? r : same_lvalue(r, x) ? l : NULL;
	if (!e || expr_reads_var(e, x->var))
		return NULL;
	*max = gt == expr_equal(a, l);
	return e;
}

bool var_last_contiguous(const Var *v)
{
	const Expr *st = v->strides ? v->strides[v->ndim - 1] : NULL;
	return !st || (st->kind == EX_INT && st->ival == 1);
}

int func_signature(const Func *f, SigEntry *sig)
{
	int n = 0, k = 0;
	for (int i = 0; i <= f->nparams; i++) {
		for (; k < f->nstructs && f->structs[k]->at == i; k++)
			sig[n++] = (SigEntry){NULL, f->structs[k]};
		if (i < f->nparams && !f->params[i]->field_of)
			sig[n++] = (SigEntry){f->params[i], NULL};
	}
	return n;
}
