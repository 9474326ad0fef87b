/* parse.c: libclang's AST of the input to fusecc's IR.
 *
 * libclang's C API hides much of the AST: unknown pragmas have no cursor, binary operators
 * have no operator kind before libclang 17, implicit conversions are "UnexposedExpr". So
 * pragmas are found by scanning tokens, operators by the first token after the left
 * operand, and implicit conversions are looked through (C's rules, which binop_result
 * models, redo them when the IR is printed). Anything outside the input language of
 * DESIGN §1 is an error at its location, never silently dropped. */
#include "front.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "macro.h"
#include "pragma.h"

typedef struct VarBinding {
	CXCursor decl;
	Var *var;
} VarBinding;

/* A struct parameter of the function being converted and its declaration. */
typedef struct StructBinding {
	CXCursor decl;
	StructParam *s;
} StructBinding;

/* A parameter or local of a helper function being inlined, and its value at the call. */
typedef struct InlineBinding {
	CXCursor decl;
	Expr *value;
} InlineBinding;

/* A group of consecutive `#pragma fuse` lines and the `for` they precede. */
typedef struct PragmaGroup {
	unsigned for_offset; /* offset of the `for` keyword that follows */
	Loc loc;
	VEC(PragmaLine) lines;
	bool used;
} PragmaGroup;

/* A pointer local into an array parameter, `const float *qi = q + (b * N + i) * D;` or
 * `const float *row = x[t];`: never a Var; each `qi[e]` reads base[lead...][off + e]
 * (off NULL: 0). Its offset is read where it is subscripted, which is where it was set
 * as long as the variables it reads do not change in between (loop iterators, const
 * locals, parameters). */
typedef struct PtrAlias {
	CXCursor decl;
	Var *base;
	int nlead;    /* base->ndim - 1 leading subscripts */
	Expr **lead;
	Expr *off;    /* subscript of base's last dimension, before the local's own */
	int depth;    /* loops around its declaration */
	Loc walked;   /* the loop that advanced it (walk_begin), once ended (line 0: none) */
	Var *scalar;  /* a helper's pointer parameter bound to `&s`, a scalar local of the
	               * caller (ggml's `vec_dot(n, &s, x, y)` out-parameter): `*p` and `p[0]`
	               * are s; base NULL */
} PtrAlias;

/* A pointer local advanced once per iteration of a loop (`kp += D;` in the loop's body
 * after its last read, ggml's and llama2.c's walk): while the body is converted, the
 * alias reads from its start plus (v - lo) strides; the step itself is no statement. */
typedef struct Walk {
	int alias;      /* index in Parser.aliases */
	CXCursor step;  /* the statement that advances it */
	Expr *stride;
	Expr *off;      /* the alias's offset before the loop */
	Expr **lead;    /* and its leading subscripts */
} Walk;

/* A scratch array a block allocates, `float *S = malloc(sizeof(float) * N * N);`, which
 * fusecc reads as the local array `float S[N * N];` (heap_local). */
typedef struct HeapLocal {
	CXCursor decl;
	Var *var;
} HeapLocal;

/* An integer local that counts loops the C89 way, `int j;` declared before
 * `for (j = 0; j < N; j++)`: each such loop gets an iterator of its own (a fresh Var, as
 * `for (int j = 0; ...)` would), the declaration none. A use of the local outside the
 * loops it counts (the value a loop left, read after it; the local used as a plain one
 * too) is refused: the loops' own iterators keep no value after them. */
typedef struct IterDecl {
	CXCursor decl;
	bool counts;      /* some `for (j = lo; ...)` assigns it */
	bool outside;     /* used outside the loops it counts: at out_loc */
	Loc out_loc;
	bool reported;
} IterDecl;

/* The loop whose body is being converted: its iterator and step (1 or -1). */
typedef struct LoopCtx {
	Var *var;
	int step;
	int first;                /* Parser.vars bound in the loop's body start here */
	Expr **hi;                /* its end, which a break may narrow */
	const struct LoopCtx *up; /* the loop around it (var NULL: none) */
} LoopCtx;

/* A loop rolled back from `for (d = 0; d < 64; d += 4) { s0 += q[d] * k[d]; ... s3 +=
 * q[d + 3] * k[d + 3]; }`: it now adds every term to acc[0]; acc[1..n) are the other
 * partial sums, which the statements after it must add up with acc[0]. */
typedef struct Partials {
	Stmt *loop;
	Var *acc[16];
	int n;
	bool merged;
} Partials;

typedef struct Parser {
	Program *prog;
	CXTranslationUnit tu;
	CXFile main_file;
	const char *path;
	VEC(VarBinding) vars;
	VEC(InlineBinding) binds; /* of the helper functions being inlined */
	VEC(PtrAlias) aliases;
	VEC(IterDecl) iters; /* of the function being converted */
	VEC(Var *) nonneg; /* loop iterators whose first value is not negative, and unsigned
	                      locals (every value stored in them is shown not negative), and const int locals
	                      set to such a value */
	VEC(const Expr *) unsigned_casts; /* float values converted to an unsigned type: not
	                                     negative, or C's conversion is undefined */
	bool shifted; /* nonneg asks for the operand of a shift or mask: a signed array's
	                 element may be a bit pattern (a tree mask's word), not a size */
	VEC(PragmaGroup) pragmas;
	bool failed;
	int depth; /* loops around the statement being converted */
	LoopCtx loop; /* the innermost of them (var NULL: none) */
	int nesting; /* expressions around the one being converted */
	const FrontOptions *opt;
	const char *fn_name; /* the function being converted */
	MacroOps *mops;      /* operators of the expressions written through macros */
	CXSourceRange fn_extent; /* of the function being converted */
	int inlining;        /* helper bodies being inlined around what is converted */
	bool alias_locals;   /* pointers may point into local arrays (a helper's parameters) */
	/* Where the statement being converted takes the statements that go before it (the
	 * body of a helper called in one of its expressions); NULL where there is no such
	 * place (a loop's bounds, a 'continue' condition, set-up). */
	StmtVec *pre;
	VEC(Walk) walks;     /* of the loops being converted */
	VEC(HeapLocal) heap; /* of the function being converted */
	/* Loops counting down whose body writes a 1-D array at a subscript reversible() cannot
	 * read yet (`y[t * C + c]`): checked again once front_delinearize has given it its
	 * dimensions (of the function being converted). */
	VEC(Stmt *) reversals;
	/* Loops unrolled by hand into partial sums and rolled back into one (reroll): their
	 * partial sums, merged where the block around them adds them up (merge_partials). */
	VEC(Partials) partials;
	VEC(StructBinding) structs; /* of the function being converted */
	/* Declarations of const scalar locals with an initialiser, of the function being
	 * converted: C never changes their value (inline_body_decls). */
	VEC(const Stmt *) consts;
} Parser;

/* The size of a region, far above what real operators need (the samples nest at most 6
 * loops, weigh at most about 100): the dependence analysis grows steeply with the depth
 * and with statements times depth, and past these limits an input runs for minutes and
 * takes gigabytes instead of failing. */
#define MAX_LOOP_DEPTH 10
#define MAX_REGION_WEIGHT 256 /* the sum over its statements of the loops around each */

/* ---- locations and tokens ---- */

static Loc loc_of_location(Parser *ps, CXSourceLocation l)
{
	CXFile f;
	unsigned line, col;
	clang_getExpansionLocation(l, &f, &line, &col, NULL);
	Loc loc = {ps->path, (int)line, (int)col};
	if (f && !clang_File_isEqual(f, ps->main_file)) {
		CXString s = clang_getFileName(f);
		loc.file = arena_strdup(&ps->prog->arena, clang_getCString(s));
		clang_disposeString(s);
	}
	return loc;
}

static Loc loc_of(Parser *ps, CXCursor c)
{
	return loc_of_location(ps, clang_getRangeStart(clang_getCursorExtent(c)));
}

static unsigned offset_of(CXSourceLocation l)
{
	unsigned off;
	clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
	return off;
}

/* Whether `l` was written inside a macro (its spelling is not where it expands). */
static bool in_macro(CXSourceLocation l)
{
	CXFile ef, sf;
	unsigned eoff, soff;
	clang_getExpansionLocation(l, &ef, NULL, NULL, &eoff);
	clang_getSpellingLocation(l, &sf, NULL, NULL, &soff);
	return eoff != soff || !clang_File_isEqual(ef, sf);
}

static char *token_text(Parser *ps, CXToken t)
{
	CXString s = clang_getTokenSpelling(ps->tu, t);
	char *r = arena_strdup(&ps->prog->arena, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

static bool fail(Parser *ps, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(Parser *ps, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
	ps->failed = true;
	return false;
}

/* ---- children ---- */

typedef VEC(CXCursor) CursorVec;

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	CursorVec *v = d;
	vec_push(*v, c);
	return CXChildVisit_Continue;
}

static CursorVec children(CXCursor c)
{
	CursorVec v = {0};
	clang_visitChildren(c, collect_child, &v);
	return v;
}

/* Implicit conversions, parentheses and the like: the one child that carries the value. */
static CXCursor strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
			return c;
		CursorVec ch = children(c);
		if (ch.n != 1) {
			vec_free(ch);
			return c;
		}
		c = ch.v[0];
		vec_free(ch);
	}
}

/* The last child of c that is an expression (a cast's operand, a declaration's
 * initialiser after its extents), or the null cursor. */
static CXCursor last_expression(CXCursor c)
{
	CursorVec ch = children(c);
	CXCursor e = clang_getNullCursor();
	for (int i = 0; i < ch.n; i++)
		if (clang_isExpression(clang_getCursorKind(ch.v[i])))
			e = ch.v[i];
	vec_free(ch);
	return e;
}

/* ---- types ---- */

/* Maps a scalar C type; false if it is not one the input language has. */
static bool scalar_type(CXType t, ScalarType *out)
{
	t = clang_getCanonicalType(t);
	switch (t.kind) {
	case CXType_Int: *out = TY_INT; return true;
	case CXType_Long:
	case CXType_LongLong:
		*out = TY_I64;
		return clang_Type_getSizeOf(t) == 8;
	case CXType_UChar: *out = TY_U8; return true;
	case CXType_SChar: *out = TY_I8; return true;
	case CXType_Bool: *out = TY_BOOL; return true;
	case CXType_Float: *out = TY_FLOAT; return true;
	case CXType_Double: *out = TY_DOUBLE; return true;
	case CXType_Float16: *out = TY_HALF; return true;
	case CXType_Record: {
		CXString s = clang_getTypeSpelling(t);
		const char *n = clang_getCString(s);
		if (!strncmp(n, "const ", 6))
			n += 6;
		bool bf = !strcmp(n, "struct fusecc_bf16"), f8 = !strcmp(n, "struct fusecc_fp8e4m3");
		clang_disposeString(s);
		if (bf || f8)
			*out = bf ? TY_BF16 : TY_FP8;
		return bf || f8;
	}
	default: return false;
	}
}

/* Whether t is an integer type people give sizes and iterators (int, long, long long,
 * their unsigned forms, and typedefs of them: size_t, int64_t, uint32_t), which a scalar
 * parameter, an iterator or a cast may have: fusecc reads them as int (sizes below 2^31).
 * *is_unsigned: whether C computes with it unsigned. */
static bool size_type(CXType t, bool *is_unsigned)
{
	switch (clang_getCanonicalType(t).kind) {
	case CXType_Int:
	case CXType_Long:
	case CXType_LongLong: *is_unsigned = false; return true;
	case CXType_UInt:
	case CXType_ULong:
	case CXType_ULongLong: *is_unsigned = true; return true;
	default: return false;
	}
}

static bool unsigned_size(CXType t)
{
	bool u;
	return size_type(t, &u) && u;
}

static const char *type_spelling(Parser *ps, CXType t)
{
	CXString s = clang_getTypeSpelling(t);
	const char *r = arena_strdup(&ps->prog->arena, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* How the user spelled integer element type t, for the fused C's parameter list: the
 * <stdint.h> name where one was written (int64_t, through typedefs of it too), else the
 * builtin's name ("long", "unsigned char"); never a typedef of the user's own, which
 * the fused C does not see. */
static const char *int_spelling(Parser *ps, CXType t)
{
	static const char *const std_names[] = {"int32_t", "int64_t", "int8_t", "uint8_t", "uint32_t", "uint64_t", "size_t", "ptrdiff_t"};
	for (;;) {
		if (t.kind == CXType_Elaborated)
			t = clang_Type_getNamedType(t);
		if (t.kind != CXType_Typedef)
			break;
		CXString s = clang_getTypedefName(t);
		const char *name = clang_getCString(s);
		for (size_t i = 0; i < sizeof std_names / sizeof std_names[0]; i++)
			if (!strcmp(name, std_names[i])) {
				clang_disposeString(s);
				return std_names[i];
			}
		clang_disposeString(s);
		t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
	}
	return type_spelling(ps, clang_getUnqualifiedType(clang_getCanonicalType(t)));
}

static bool is_array_kind(enum CXTypeKind k)
{
	return k == CXType_ConstantArray || k == CXType_VariableArray || k == CXType_IncompleteArray;
}

static Expr *convert_expr(Parser *ps, CXCursor c);

/* The newest binding wins: a C89 iterator is bound afresh for each loop it counts, and
 * unbound after it (its decl replaced by the null cursor). */
static Var *lookup_var(Parser *ps, CXCursor decl)
{
	for (int i = ps->vars.n - 1; i >= 0; i--)
		if (clang_equalCursors(ps->vars.v[i].decl, decl))
			return ps->vars.v[i].var;
	return NULL;
}

static void bind_var(Parser *ps, CXCursor decl, Var *v) { vec_push(ps->vars, ((VarBinding){decl, v})); }

static const PtrAlias *lookup_alias(Parser *ps, CXCursor decl)
{
	for (int i = 0; i < ps->aliases.n; i++)
		if (clang_equalCursors(ps->aliases.v[i].decl, decl))
			return &ps->aliases.v[i];
	return NULL;
}

static bool is_zero(const Expr *e) { return e && e->kind == EX_INT && e->ival == 0; }

/* off + e (or off - e), either possibly NULL (0). A literal 0 is dropped, so that
 * `&q[b][h][0]` subscripted by d reads q[b][h][d]: the tiles want the dot index alone. */
static Expr *add_offset(Parser *ps, Expr *off, Expr *e, BinOp op, Loc loc)
{
	if (is_zero(off))
		off = NULL;
	if (off && is_zero(e))
		return off;
	if (!off)
		return op == OP_SUB ? ex_un(ps->prog, UOP_NEG, e, loc) : e;
	return e ? ex_bin(ps->prog, op, off, e, loc) : off;
}

static bool name_unused(Parser *ps, const char *name);

/* The name of a local or iterator spelled `name`: itself, except in an inlined helper,
 * whose locals take names that no identifier of the function and no variable bound so far
 * has (`sum` -> `sum_2`), so that they clash with nothing once spliced into the region. */
static const char *local_name(Parser *ps, const char *name)
{
	if (!ps->inlining || name_unused(ps, name))
		return arena_strdup(&ps->prog->arena, name);
	char *n = NULL;
	for (int k = 2; !n || !name_unused(ps, n); k++)
		n = arena_printf(&ps->prog->arena, "%s_%d", name, k);
	return n;
}

/* A parameter's extent that is an int constant expression other than a literal
 * (`[HEAD_DIM]` with `#define HEAD_DIM (D_MODEL / N_HEADS)`): its value. The operators of
 * macros are found where regions use them, not in a function's declarator, and libclang
 * gives a macro's tokens there the expansion's place; NULL for any other extent. */
static Expr *macro_constant(Parser *ps, CXCursor c)
{
	if (clang_getCursorKind(c) == CXCursor_IntegerLiteral)
		return NULL;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return NULL;
	Expr *e = NULL;
	if (clang_EvalResult_getKind(r) == CXEval_Int && !clang_EvalResult_isUnsignedInt(r) && clang_EvalResult_getAsLongLong(r) > 0 &&
	    clang_EvalResult_getAsLongLong(r) < 2147483647LL)
		e = ex_int(ps->prog, clang_EvalResult_getAsLongLong(r), loc_of(ps, c));
	clang_EvalResult_dispose(r);
	return e;
}

/* The refusal of an array of 16-bit unsigned integers, which llm.c and ggml use to store
 * bf16 and fp16 as raw bits (converted by a shift through memcpy or a union, or by a
 * table): it names the declarations that say what the bits are. */
static const char *raw_half_help(Parser *ps, const char *name, CXType t)
{
	return arena_printf(&ps->prog->arena,
	                    "'%s' has type '%s': fusecc does not read 16-bit floats stored as raw bits (a uint16_t array converted by a shift, memcpy, a union or a table); declare what the bits are: bf16 as 'fusecc_bf16' from fusecc.h (the same 16 bits; read 'fusecc_bf16_to_float(%s[...])', write '%s[...] = fusecc_float_to_bf16(value)') or fp16 as '_Float16' (read '(float)%s[...]'); integers as int32_t",
	                    name, type_spelling(ps, t), name, name, name);
}

/* Builds the Var of a parameter or local declaration `decl`: a scalar or an array of
 * scalars whose extents are expressions over parameters (VLA) or constants. libclang
 * lists the written extents as the declaration's children, innermost first. */
static Var *declare_var(Parser *ps, CXCursor decl, VarKind kind)
{
	CXString name = clang_getCursorSpelling(decl);
	Loc loc = loc_of_location(ps, clang_getCursorLocation(decl));
	CXType t = clang_getCursorType(decl);
	int ndim = 0;
	CXType elem = t;
	/* A parameter `T *p` or `T p[]`: one dimension of unknown extent, which
	 * front_delinearize turns into the dims its subscripts use. `T p[][D]`: the
	 * outermost extent unknown. */
	bool flat = false, open_outer = false;
	if (kind == VAR_PARAM && clang_getCanonicalType(t).kind == CXType_Pointer) {
		CXType pointee = clang_getPointeeType(t);
		if (!is_array_kind(clang_getCanonicalType(pointee).kind) && clang_getCanonicalType(pointee).kind != CXType_Pointer) {
			flat = true;
			ndim = 1;
			elem = pointee;
		}
	} else if (kind == VAR_PARAM && clang_getCanonicalType(t).kind == CXType_IncompleteArray) {
		open_outer = true;
		ndim = 1;
		CXType next = clang_getArrayElementType(elem);
		elem = next.kind != CXType_Invalid ? next : clang_getArrayElementType(clang_getCanonicalType(elem));
		flat = !is_array_kind(clang_getCanonicalType(elem).kind);
	}
	while (!flat && is_array_kind(clang_getCanonicalType(elem).kind)) {
		if (clang_getCanonicalType(elem).kind == CXType_IncompleteArray) {
			fail(ps, loc, "array '%s' needs the extent of every dimension", clang_getCString(name));
			clang_disposeString(name);
			return NULL;
		}
		ndim++;
		/* Step through the written type: the canonical one of a VLA drops the const. */
		CXType next = clang_getArrayElementType(elem);
		elem = next.kind != CXType_Invalid ? next : clang_getArrayElementType(clang_getCanonicalType(elem));
	}
	ScalarType st;
	bool uns;
	/* An integer scalar parameter is a size: int, whatever width or signedness C gives it
	 * (the fused C keeps the user's type, Var.ctype). */
	bool size_param = kind == VAR_PARAM && !ndim && size_type(elem, &uns);
	/* An unsigned scalar local (`const size_t off = ...`, an offset people keep in 64
	 * bits) is an int64_t: C's value wherever it is not negative, which each store into
	 * it must show (unsigned_store). */
	bool unsigned_local = kind == VAR_LOCAL && !ndim && size_type(elem, &uns) && uns;
	if (size_param)
		st = TY_INT;
	else if (unsigned_local)
		st = TY_I64;
	else if (!scalar_type(elem, &st) && ndim && clang_getCanonicalType(elem).kind == CXType_UShort) {
		fail(ps, loc, "%s", raw_half_help(ps, clang_getCString(name), t));
		clang_disposeString(name);
		return NULL;
	} else if (!scalar_type(elem, &st)) {
		fail(ps, loc,
		     "'%s' has type '%s': the input language has int, float, double, _Float16 and fusecc_bf16 scalars; arrays of those, of fusecc_fp8e4m3, int32_t, int64_t, int8_t and uint8_t, and pointers to them; and const arrays of (or pointers to) bool",
		     clang_getCString(name), type_spelling(ps, t));
		clang_disposeString(name);
		return NULL;
	}
	Var *v = var_new(ps->prog, kind, local_name(ps, clang_getCString(name)), st, loc);
	clang_disposeString(name);
	v->is_const = clang_isConstQualifiedType(elem) && kind == VAR_PARAM;
	v->ndim = ndim;
	v->flat = flat;
	if (kind == VAR_PARAM && scalar_is_int(st))
		v->ctype = int_spelling(ps, elem);
	if (flat) {
		v->dims = arena_alloc(&ps->prog->arena, sizeof(Expr *));
		v->dims[0] = NULL;
	} else if (ndim) {
		v->dims = arena_alloc(&ps->prog->arena, sizeof(Expr *) * (size_t)ndim);
		CursorVec ch = children(decl);
		int nexpr = 0;
		for (int i = 0; i < ch.n; i++)
			if (clang_isExpression(clang_getCursorKind(ch.v[i])))
				nexpr++;
		if (open_outer)
			v->dims[0] = NULL;
		if (nexpr < ndim - open_outer) {
			vec_free(ch);
			fail(ps, loc, "the extents of '%s' must be written in its declaration", v->name);
			return NULL;
		}
		for (int i = 0, d = ndim - 1; i < ch.n && d >= open_outer; i++) {
			if (!clang_isExpression(clang_getCursorKind(ch.v[i])))
				continue;
			if (kind == VAR_PARAM && (v->dims[d] = macro_constant(ps, ch.v[i]))) {
				d--;
				continue;
			}
			if (!(v->dims[d--] = convert_expr(ps, ch.v[i]))) {
				vec_free(ch);
				return NULL;
			}
		}
		vec_free(ch);
		for (int d = open_outer; d < ndim; d++)
			if (!scalar_is_int(v->dims[d]->ty))
				return fail(ps, v->dims[d]->loc, "array extent must be an integer expression"), NULL;
		/* A 1-D parameter may be a flattened tensor (q[B * N * D]): front_delinearize
		 * looks at its subscripts and keeps it 1-D unless they nest. */
		if (kind == VAR_PARAM && ndim == 1 && !open_outer) {
			v->flat = true;
			v->flat_extent = v->dims[0];
		}
	}
	bind_var(ps, decl, v);
	if (unsigned_local)
		vec_push(ps->nonneg, v);
	/* int64, byte and bool parameters are what frameworks pass index, offset and mask
	 * arrays in, and int8 and uint8 quantised values (an int8 KV cache with its scales):
	 * bools read-only; int64 also an output (torch.argmax's indices), as int is; bytes
	 * also an output (a quantiser's codes), the value stored converted as C converts it at
	 * the store: the rounding and the clamping are the program's, written before the store
	 * (a float out of the byte's range converts to nothing C defines, and fusecc adds no
	 * saturation of its own). The sizes are int scalars. The parameter stays declared, so
	 * that its uses are not reported again. */
	if (kind == VAR_PARAM && scalar_is_int(st) && st != TY_INT && (!ndim || (!v->is_const && st == TY_BOOL)))
		fail(ps, loc, ndim ? "'%s' is an array of %s that is not const: arrays of %s are read-only inputs (masks) and a region writes float, int, int64_t and byte arrays (int8_t, uint8_t: quantised codes); declare it const if the region only reads it"
		                   : "parameter '%s' has type %s: integer scalar parameters are sizes (int, long, int64_t, size_t, unsigned, ...), bytes and bools are not",
		     v->name, v->ctype, v->ctype);
	return v;
}

/* ---- struct parameters ---- */

static const char struct_accepts[] =
	"fusecc reads a struct parameter (by value, or as a pointer to a const struct) whose fields are scalars (int, long, int64_t, size_t, float, double, _Float16, fusecc_bf16) or pointers to arrays of them";

typedef struct FieldScan {
	Parser *ps;
	StructParam *s;
	VEC(StructField) fields;
	bool ok;
} FieldScan;

/* One field of a struct parameter's type: kept for the definition the printers write,
 * or refused (nested structs, unions, arrays, bitfields) at the field. */
static enum CXVisitorResult scan_field(CXCursor c, CXClientData data)
{
	FieldScan *fs = data;
	Parser *ps = fs->ps;
	CXString nm = clang_getCursorSpelling(c);
	StructField f = {.name = arena_strdup(&ps->prog->arena, clang_getCString(nm))};
	clang_disposeString(nm);
	CXType t = clang_getCursorType(c), ct = clang_getCanonicalType(t);
	Loc loc = loc_of_location(ps, clang_getCursorLocation(c));
	const char *what = NULL;
	bool uns;
	if (clang_Cursor_isBitField(c))
		what = "a bitfield";
	else if (is_array_kind(ct.kind))
		what = "an array";
	else if (ct.kind == CXType_Pointer) {
		CXType pt = clang_getPointeeType(t);
		ScalarType st;
		enum CXTypeKind pk = clang_getCanonicalType(pt).kind;
		if (!scalar_type(pt, &st) && pk >= CXType_FirstBuiltin && pk <= CXType_LastBuiltin) /* void *, char *: kept, not read */
			f.opaque = type_spelling(ps, ct);
		else if (is_array_kind(pk) || pk == CXType_Pointer || !scalar_type(pt, &st))
			what = "a pointer to something other than scalars";
		else {
			f.ptr = true;
			f.ty = st;
			f.is_const = clang_isConstQualifiedType(pt);
			if (scalar_is_int(st))
				f.ctype = int_spelling(ps, pt);
		}
	} else if (size_type(t, &uns)) {
		f.ty = TY_INT;
		f.ctype = int_spelling(ps, t);
	} else if (scalar_type(t, &f.ty)) {
		if (scalar_is_int(f.ty))
			f.ctype = int_spelling(ps, t);
	} else if (ct.kind >= CXType_FirstBuiltin && ct.kind <= CXType_LastBuiltin) { /* char, short: kept, not read */
		f.opaque = type_spelling(ps, ct);
	} else if (ct.kind == CXType_Record) {
		CXCursor d = clang_getTypeDeclaration(ct);
		what = clang_getCursorKind(d) == CXCursor_UnionDecl ? "a union" : "a nested struct";
	} else
		what = arena_printf(&ps->prog->arena, "of type '%s'", type_spelling(ps, t));
	if (what) {
		fail(ps, loc, "field '%s' of '%s' (parameter '%s') is %s: %s", f.name, fs->s->type, fs->s->name, what, struct_accepts);
		fs->ok = false;
	}
	vec_push(fs->fields, f);
	return CXVisit_Continue;
}

/* The StructParam of parameter decl when its type is a struct or a pointer to one (not
 * fusecc_bf16, a scalar); NULL otherwise, *bad set (and the reason reported) where it is
 * one fusecc does not read. */
static StructParam *declare_struct_param(Parser *ps, CXCursor decl, bool *bad)
{
	*bad = false;
	CXType t = clang_getCursorType(decl);
	bool by_pointer = clang_getCanonicalType(t).kind == CXType_Pointer;
	CXType rt = by_pointer ? clang_getPointeeType(t) : t;
	ScalarType st;
	if (clang_getCanonicalType(rt).kind != CXType_Record || scalar_type(rt, &st))
		return NULL;
	CXString nm = clang_getCursorSpelling(decl);
	Loc loc = loc_of_location(ps, clang_getCursorLocation(decl));
	StructParam *s = NEW(&ps->prog->arena, StructParam);
	s->name = arena_strdup(&ps->prog->arena, clang_getCString(nm));
	clang_disposeString(nm);
	s->loc = loc;
	s->by_pointer = by_pointer;
	s->type = type_spelling(ps, clang_getUnqualifiedType(rt));
	CXType named = rt.kind == CXType_Elaborated ? clang_Type_getNamedType(rt) : rt;
	s->typedef_name = named.kind == CXType_Typedef;
	CXCursor rd = clang_getTypeDeclaration(clang_getCanonicalType(rt));
	*bad = true;
	if (clang_getCursorKind(rd) == CXCursor_UnionDecl)
		return fail(ps, loc, "parameter '%s' is a union ('%s'): %s", s->name, s->type, struct_accepts), NULL;
	if (by_pointer && !clang_isConstQualifiedType(rt))
		return fail(ps, loc, "parameter '%s' is a pointer to a struct that is not const: the fields are values of the function (sizes, scales, array pointers), which a region may not write; declare it 'const %s *%s'", s->name, s->type,
		            s->name),
		       NULL;
	/* libclang names an unnamed struct after the typedef that names it: whether the
	 * definition has a tag is in its tokens (`struct {` or `struct tag {`). */
	CXToken *toks;
	unsigned ntok;
	clang_tokenize(ps->tu, clang_getCursorExtent(rd), &toks, &ntok);
	bool tagged = ntok >= 2 && clang_getTokenKind(toks[1]) == CXToken_Identifier;
	clang_disposeTokens(ps->tu, toks, ntok);
	if (tagged) {
		CXString tg = clang_getCursorSpelling(rd);
		s->tag = arena_strdup(&ps->prog->arena, clang_getCString(tg));
		clang_disposeString(tg);
	} else if (!s->typedef_name)
		return fail(ps, loc, "parameter '%s' has an unnamed struct type: name it (a tag or a typedef), so that the generated files can declare it", s->name), NULL;
	if (clang_Type_getSizeOf(clang_getCanonicalType(rt)) < 0)
		return fail(ps, loc, "parameter '%s' has type '%s', which is not defined here: %s", s->name, s->type, struct_accepts), NULL;
	FieldScan fs = {ps, s, {0}, true};
	clang_Type_visitFields(clang_getCanonicalType(rt), scan_field, &fs);
	if (!fs.ok) {
		vec_free(fs.fields);
		return NULL;
	}
	s->nfields = fs.fields.n;
	s->fields = arena_alloc(&ps->prog->arena, sizeof(StructField) * (size_t)(fs.fields.n ? fs.fields.n : 1));
	if (fs.fields.n)
		memcpy(s->fields, fs.fields.v, sizeof(StructField) * (size_t)fs.fields.n);
	vec_free(fs.fields);
	*bad = false;
	vec_push(ps->structs, ((StructBinding){decl, s}));
	return s;
}

/* The parameter that field cursor c of a struct parameter stands for (`cfg.n_head`,
 * `p->q`), made the first time the function reads the field; NULL with the reason
 * reported for any other member expression. */
static Var *member_var(Parser *ps, CXCursor c, Loc loc)
{
	CursorVec ch = children(c);
	CXCursor base = ch.n ? strip(ch.v[0]) : clang_getNullCursor();
	vec_free(ch);
	StructParam *s = NULL;
	if (!clang_Cursor_isNull(base) && clang_getCursorKind(base) == CXCursor_DeclRefExpr)
		for (int i = 0; i < ps->structs.n && !s; i++)
			if (clang_equalCursors(ps->structs.v[i].decl, clang_getCursorReferenced(base)))
				s = ps->structs.v[i].s;
	if (!s)
		return fail(ps, loc, "struct members are read here only as fields of a struct parameter ('cfg.n', 'p->n'): %s", struct_accepts), NULL;
	CXString fn = clang_getCursorSpelling(clang_getCursorReferenced(c));
	StructField *f = NULL;
	for (int i = 0; i < s->nfields && !f; i++)
		if (!strcmp(s->fields[i].name, clang_getCString(fn)))
			f = &s->fields[i];
	clang_disposeString(fn);
	if (!f)
		return fail(ps, loc, "unknown field of '%s'", s->name), NULL;
	if (f->var)
		return f->var;
	if (f->opaque)
		return fail(ps, loc, "field '%s' of '%s' has type '%s': %s", f->name, s->name, f->opaque, struct_accepts), NULL;
	const char *base_name = arena_printf(&ps->prog->arena, "%s_%s", s->name, f->name);
	const char *name = base_name;
	for (int k = 2; !name_unused(ps, name); k++)
		name = arena_printf(&ps->prog->arena, "%s_%d", base_name, k);
	Var *v = var_new(ps->prog, VAR_PARAM, name, f->ty, loc);
	v->field_of = s;
	v->field = f->name;
	v->ctype = f->ctype;
	if (f->ptr) {
		v->ndim = 1;
		v->flat = true;
		v->is_const = f->is_const;
		v->dims = arena_alloc(&ps->prog->arena, sizeof(Expr *));
		v->dims[0] = NULL;
	}
	f->var = v;
	/* The rules of parameters (declare_var): integer scalars are sizes; byte and bool
	 * arrays read-only. */
	if (scalar_is_int(f->ty) && f->ty != TY_INT && (!f->ptr || (!f->is_const && f->ty != TY_I64)))
		fail(ps, loc, f->ptr ? "field '%s' of '%s' points to %s that is not const: arrays of %s are read-only inputs (masks, quantised values read as numbers) and a region writes float, int and int64_t arrays; declare it const if the region only reads it"
		                     : "field '%s' of '%s' has type %s: integer scalars are sizes (int, long, int64_t, size_t, unsigned, ...), bytes and bools are not",
		     f->name, s->name, f->ctype, f->ctype);
	return v;
}

/* ---- expressions ---- */

/* The operator token of a binary or compound-assignment cursor: the one macro.c read
 * when the expression uses a macro, else the punctuation token whose cursor is this very expression (libclang maps an operator's location to its
 * expression; compare kind and extent, not clang_equalCursors). An operator that comes
 * from a macro has no such token in the source: refuse it rather than guess. *oploc is
 * the operator's location, or the first token after the left operand when there is none. */
static const char *binary_operator(Parser *ps, CXCursor c, CXCursor lhs, Loc *oploc)
{
	const char *mop;
	CXSourceLocation ml;
	if (macro_ops_lookup(ps->mops, c, &mop, &ml)) {
		*oploc = loc_of_location(ps, ml);
		return mop;
	}
	CXSourceLocation lhs_end_loc = clang_getRangeEnd(clang_getCursorExtent(lhs));
	unsigned lhs_end = offset_of(lhs_end_loc);
	CXSourceRange ext = clang_getCursorExtent(c);
	CXToken *toks;
	unsigned n;
	/* Outside macros the operator is the first token after the left operand: tokenizing
	 * all of `c`, or asking clang_getCursor (a walk down from the translation unit) which
	 * expression a token belongs to, at every node of a long `a + b + c + ...` chain
	 * would be quadratic. */
	bool plain = !in_macro(clang_getRangeStart(ext)) && !in_macro(lhs_end_loc);
	if (plain)
		clang_tokenize(ps->tu, clang_getRange(lhs_end_loc, clang_getRangeEnd(ext)), &toks, &n);
	else
		clang_tokenize(ps->tu, ext, &toks, &n);
	const char *op = NULL;
	bool located = false;
	for (unsigned i = 0; i < n && !op; i++) {
		CXSourceLocation tl = clang_getTokenLocation(ps->tu, toks[i]);
		if (!located && offset_of(tl) >= lhs_end) {
			*oploc = loc_of_location(ps, tl);
			located = true;
		}
		if (plain && offset_of(tl) >= lhs_end) {
			/* The first token after the operand: the operator, unless it is a
			 * macro's name (s CAT(+, =) x), which the careful search below handles. */
			plain = false;
			if (clang_getTokenKind(toks[i]) == CXToken_Punctuation) {
				op = token_text(ps, toks[i]);
				*oploc = loc_of_location(ps, tl);
				break;
			}
		}
		if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
			continue;
		CXCursor at = clang_getCursor(ps->tu, tl);
		if (clang_getCursorKind(at) == clang_getCursorKind(c) && clang_equalRanges(clang_getCursorExtent(at), ext)) {
			op = token_text(ps, toks[i]);
			*oploc = loc_of_location(ps, tl);
		}
	}
	clang_disposeTokens(ps->tu, toks, n);
	return op;
}

static const char macro_operator_help[] =
	"operator comes from a macro expansion fusecc cannot follow (one with '#' or '##', a variadic macro, a macro defined twice): write the operator itself";

static bool binop_from_text(const char *s, BinOp *op)
{
	static const struct {
		const char *s;
		BinOp op;
	} t[] = {
		{"+", OP_ADD}, {"-", OP_SUB}, {"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD},
		{"<<", OP_SHL}, {">>", OP_SHR}, {"&", OP_BAND}, {"|", OP_BOR}, {"^", OP_BXOR},
		{"<", OP_LT}, {"<=", OP_LE}, {">", OP_GT}, {">=", OP_GE}, {"==", OP_EQ},
		{"!=", OP_NE}, {"&&", OP_LAND}, {"||", OP_LOR},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(s, t[i].s)) {
			*op = t[i].op;
			return true;
		}
	return false;
}

/* Whether e is an int's absolute value as a selection, `x < 0 ? -x : x` (what abs(x)
 * becomes; also `x <= 0`, and `x > 0 ? x : -x`, `x >= 0`): x then, else NULL. */
static const Expr *abs_of(const Expr *e)
{
	if (e->kind != EX_COND || !scalar_is_int(e->ty))
		return NULL;
	const Expr *c = e->args[0];
	if (c->kind != EX_BIN || c->args[1]->kind != EX_INT || c->args[1]->ival != 0)
		return NULL;
	const Expr *x = c->args[0], *neg, *pos;
	if (c->bop == OP_LT || c->bop == OP_LE) {
		neg = e->args[1];
		pos = e->args[2];
	} else if (c->bop == OP_GT || c->bop == OP_GE) {
		neg = e->args[2];
		pos = e->args[1];
	} else {
		return NULL;
	}
	return neg->kind == EX_UN && neg->uop == UOP_NEG && expr_equal(neg->args[0], x) && expr_equal(pos, x) ? x : NULL;
}

/* A comparison of an int's absolute value (a local attention window, `abs(i - j) > W`) as
 * the two comparisons it means, `i - j > W || j - i > W` (for `<` and `<=`: both hold),
 * which bound the iterator on each side as the tile lowering reads them; NULL when
 * neither side is an absolute value. Not inlined: convert_binary recurses once per
 * operator of a machine-written sum, and its frame is what bounds that depth. */
__attribute__((noinline)) static Expr *window_compare(Program *p, BinOp op, Expr *a, Expr *b, Loc loc)
{
	if (op != OP_LT && op != OP_LE && op != OP_GT && op != OP_GE)
		return NULL;
	const Expr *x = abs_of(a);
	if (!x && (x = abs_of(b))) {
		Expr *t = a;
		a = b;
		b = t;
		op = binop_mirror(op);
	}
	if (!x)
		return NULL;
	Expr *pos = ex_copy(p, x);
	Expr *neg = x->kind == EX_BIN && x->bop == OP_SUB ? ex_bin(p, OP_SUB, ex_copy(p, x->args[1]), ex_copy(p, x->args[0]), loc) : ex_un(p, UOP_NEG, ex_copy(p, x), loc);
	return ex_bin(p, op == OP_GT || op == OP_GE ? OP_LOR : OP_LAND, ex_bin(p, op, pos, b, loc), ex_bin(p, op, neg, ex_copy(p, b), loc), loc);
}

static bool nonneg(Parser *ps, const Expr *e);

/* nonneg for the value a shift or a mask applies to, where a signed array's elements count
 * as possibly negative: `w >> s & 1` of an int32 bit-mask word is no division when bit 31
 * is set (-1 >> 1 is -1, -1 / 2 is 0). */
static bool shift_operand_nonneg(Parser *ps, const Expr *e)
{
	ps->shifted = true;
	bool r = nonneg(ps, e);
	ps->shifted = false;
	return r;
}

/* A shift or mask of a value that is not negative as the division it is: `t >> s` as
 * t / (1 << s), `t & ((1 << s) - 1)` and `t & 15` as t % (1 << s) and t % 16 (llama.cpp's
 * page and slot of a token), which the analyzer and the paged lowering read as a run of
 * pages; NULL when e is no such form. */
static Expr *shift_as_division(Program *p, BinOp op, Expr *a, Expr *b, Loc loc)
{
	if (op == OP_SHR) {
		if (b->kind == EX_INT)
			return b->ival >= 0 && b->ival < 31 ? ex_bin(p, OP_DIV, a, ex_int(p, 1LL << b->ival, loc), loc) : NULL;
		return ex_bin(p, OP_DIV, a, ex_bin(p, OP_SHL, ex_int(p, 1, loc), b, loc), loc);
	}
	if (op != OP_BAND)
		return NULL;
	if (b->kind == EX_INT)
		return b->ival >= 0 && b->ival < (1LL << 31) - 1 && !((b->ival + 1) & b->ival) ? ex_bin(p, OP_MOD, a, ex_int(p, b->ival + 1, loc), loc) : NULL;
	if (b->kind == EX_BIN && b->bop == OP_SUB && b->args[1]->kind == EX_INT && b->args[1]->ival == 1 && b->args[0]->kind == EX_BIN && b->args[0]->bop == OP_SHL &&
	    b->args[0]->args[0]->kind == EX_INT && b->args[0]->args[0]->ival == 1)
		return ex_bin(p, OP_MOD, a, b->args[0], loc);
	return NULL;
}

static Expr *convert_binary(Parser *ps, CXCursor c)
{
	CursorVec ch = children(c);
	Loc loc = loc_of(ps, c), oploc = loc;
	Expr *r = NULL;
	if (ch.n != 2) {
		fail(ps, loc, "unsupported expression");
		goto out;
	}
	const char *op = binary_operator(ps, c, ch.v[0], &oploc);
	BinOp bop;
	if (!op) {
		fail(ps, oploc, "%s", macro_operator_help);
	} else if (!strcmp(op, "=")) {
		fail(ps, oploc, "assignment inside an expression is not supported: make it a statement");
	} else if (!strcmp(op, ",")) {
		fail(ps, oploc, "the comma operator is not supported");
	} else if (!binop_from_text(op, &bop)) {
		fail(ps, oploc, "operator '%s' is not supported in a fuse region", op);
	} else {
		Expr *a = convert_expr(ps, ch.v[0]);
		Expr *b = a ? convert_expr(ps, ch.v[1]) : NULL;
		if (b && a->kind == EX_INT && b->kind == EX_INT && a->ty == TY_INT && b->ty == TY_INT && (bop == OP_MUL || bop == OP_DIV) && b->ival &&
		    (bop == OP_DIV ? a->ival % b->ival == 0 : llabs(a->ival * b->ival) < 2147483647LL)) {
			/* a size spelled by a macro, `#define HEAD_DIM (D_MODEL / N_HEADS)`: its value, which
			 * the tiles need as a constant extent */
			r = ex_int(ps->prog, bop == OP_MUL ? a->ival * b->ival : a->ival / b->ival, oploc);
		} else if (b && (r = window_compare(ps->prog, bop, a, b, oploc))) {
			/* r: the two comparisons */
		} else if (b && bop == OP_SUB && scalar_is_int(a->ty) && b->kind == EX_BIN && b->bop == OP_MOD && scalar_is_int(b->ty) && expr_equal(b->args[0], a) &&
		           b->args[1]->kind != EX_INT) {
			/* `i - i % C`, Llama 4's chunk start: (i / C) * C, which C's division defines it
			 * to be, and which the analyzer bounds as a chunk's start for a run-time C (a
			 * literal C is affine as written) */
			r = ex_bin(ps->prog, OP_MUL, ex_bin(ps->prog, OP_DIV, a, b->args[1], oploc), ex_copy(ps->prog, b->args[1]), oploc);
		} else if (b && scalar_is_int(a->ty) && scalar_is_int(b->ty) && shift_operand_nonneg(ps, a) && (r = shift_as_division(ps->prog, bop, a, b, oploc))) {
			/* r: the division */
		} else if (b) {
			r = ex_bin(ps->prog, bop, a, b, oploc);
			if ((bop == OP_MOD || (bop >= OP_SHL && bop <= OP_BXOR)) && (!scalar_is_int(a->ty) || !scalar_is_int(b->ty))) {
				fail(ps, oploc, "'%s' needs integer operands", op);
				r = NULL;
			}
		}
	}
out:
	vec_free(ch);
	return r;
}

static Expr *element_of(Parser *ps, CXCursor base, const CXCursor *idx, Expr *at, int n, Loc loc);
static bool walked_read(Parser *ps, const PtrAlias *al, Loc loc);
static int heap_local(Parser *ps, CXCursor d, CXCursor init, StmtVec *out);

/* `*p` as p[0], `*(p + e)` and `*(e + p)` as p[e] (a scalar output `*loss = ...`, a
 * scalar read through a pointer `x / *temperature`, ggml's `*s = sumf`); other
 * dereferences are refused. Not inlined: its frame would join convert_expr's, which
 * bounds how deep a machine-written sum can nest (see window_compare). */
__attribute__((noinline)) static Expr *deref(Parser *ps, CXCursor c, Loc loc)
{
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_getCursorType(c).kind == CXType_Pointer)
		return element_of(ps, c, NULL, ex_int(ps->prog, 0, loc), 1, loc);
	if (clang_getCursorKind(c) == CXCursor_BinaryOperator) {
		CursorVec ch = children(c);
		Expr *r = NULL;
		bool done = false;
		for (int k = 0; ch.n == 2 && k < 2 && !done; k++) {
			CXCursor p = strip(ch.v[k]);
			if (clang_getCursorKind(p) != CXCursor_DeclRefExpr || clang_getCursorType(p).kind != CXType_Pointer ||
			    clang_getCursorType(strip(ch.v[1 - k])).kind == CXType_Pointer)
				continue;
			Loc oploc;
			const char *op = binary_operator(ps, c, ch.v[0], &oploc);
			if (!op || strcmp(op, "+"))
				break;
			Expr *e = convert_expr(ps, ch.v[1 - k]);
			r = e ? element_of(ps, p, NULL, e, 1, loc) : NULL;
			done = true;
		}
		vec_free(ch);
		if (done)
			return r;
	}
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator && clang_getCursorType(c).kind == CXType_Pointer)
		return fail(ps, loc, "'*p++' reads a pointer and advances it in one expression: advance it in a statement of its own after the read ('s += *p; p++;'), which fusecc reads as a walk"), NULL;
	return fail(ps, loc, "'*' is supported on a pointer ('*p') and on a pointer plus an offset ('*(p + i)'): subscript it ('p[i]')"), NULL;
}

static Expr *convert_unary(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	CXToken *toks;
	unsigned n;
	clang_tokenize(ps->tu, clang_getCursorExtent(c), &toks, &n);
	const char *op = n && clang_getTokenKind(toks[0]) == CXToken_Punctuation ? token_text(ps, toks[0]) : NULL;
	const char *last = n ? token_text(ps, toks[n - 1]) : "";
	clang_disposeTokens(ps->tu, toks, n);
	CXSourceLocation ml;
	if (macro_ops_lookup(ps->mops, c, &op, &ml)) {
		loc = loc_of_location(ps, ml);
		last = op;
		if (!strcmp(op, "++") || !strcmp(op, "--"))
			op = NULL;
	}
	if (!op && (!strcmp(last, "++") || !strcmp(last, "--")))
		return fail(ps, loc, "'%s' is only supported as the increment of a for loop", last), NULL;
	if (!op)
		return fail(ps, loc, "%s", macro_operator_help), NULL;
	CursorVec ch = children(c);
	Expr *a = ch.n == 1 ? NULL : NULL, *r = NULL;
	if (!strcmp(op, "-") || !strcmp(op, "+") || !strcmp(op, "!")) {
		if (ch.n == 1 && (a = convert_expr(ps, ch.v[0])))
			r = !strcmp(op, "+") ? a : ex_un(ps->prog, !strcmp(op, "-") ? UOP_NEG : UOP_NOT, a, loc);
	} else if (!strcmp(op, "++") || !strcmp(op, "--")) {
		fail(ps, loc, "'%s' is only supported as the increment of a for loop", op);
	} else if (!strcmp(op, "*")) {
		r = ch.n == 1 ? deref(ps, strip(ch.v[0]), loc) : NULL;
	} else if (!strcmp(op, "&")) {
		fail(ps, loc, "'&' is supported only in the initialiser of a pointer local ('const float *qi = &q[b][h][i][0];')");
	} else {
		fail(ps, loc, "operator '%s' is not supported in a fuse region", op);
	}
	vec_free(ch);
	return r;
}

/* Array element: `q[b][h][i][d]` is a chain of subscripts down to the array's name; every
 * dimension must be subscripted (no row pointers). */
/* Element e of pointer alias al: base[lead...][off + e]. */
/* e as x * n + y (the product either way round, y on either side, or none: *y NULL). */
static bool split_by(Expr *e, const Expr *n, Expr **x, Expr **y)
{
	*y = NULL;
	if (e->kind == EX_BIN && e->bop == OP_ADD)
		for (int s = 0; s < 2; s++) {
			Expr *a = e->args[s];
			if (a->kind == EX_BIN && a->bop == OP_MUL && (expr_equal(a->args[1], n) || expr_equal(a->args[0], n))) {
				*x = expr_equal(a->args[1], n) ? a->args[0] : a->args[1];
				*y = e->args[1 - s];
				return true;
			}
		}
	if (e->kind == EX_BIN && e->bop == OP_MUL && (expr_equal(e->args[1], n) || expr_equal(e->args[0], n))) {
		*x = expr_equal(e->args[1], n) ? e->args[0] : e->args[1];
		return true;
	}
	return false;
}

/* The element that pointer local al reads at subscript e. A pointer to the start of a
 * row of a multi-dimensional array read past its row (`K = &k[b][h][0][0]; K[j * D + d]`
 * over k[B][H][N][D], as a whole head's matrix is passed to a helper) reads k[b][h][j][d]:
 * a flat subscript x * D + y of the last dimension moves into a leading subscript of 0 as
 * x, as often as the extents allow; C leaves the flat form undefined past the row, which
 * gcc's optimisations exploit. */
static Expr *alias_elem(Parser *ps, const PtrAlias *al, Expr *e, Loc loc)
{
	Expr *args[16];
	for (int i = 0; i < al->nlead; i++)
		args[i] = ex_copy(ps->prog, al->lead[i]);
	int d = al->nlead;
	Expr *x, *y;
	while (d > 0 && (!al->off || is_zero(al->off)) && is_zero(args[d - 1]) && al->base->dims[d] && split_by(e, al->base->dims[d], &x, &y)) {
		args[d--] = y ? y : ex_int(ps->prog, 0, e->loc);
		e = x;
	}
	if (d < al->nlead) {
		args[d] = e;
		return ex_index(ps->prog, al->base, args, loc);
	}
	args[al->nlead] = add_offset(ps, al->off ? ex_copy(ps->prog, al->off) : NULL, e, OP_ADD, e->loc);
	return ex_index(ps->prog, al->base, args, loc);
}

/* The element that pointer-to-rows local al (`const _Float16 (*K)[D] = k[b][h];`, a
 * head's matrix as rows) reads at the n subscripts idx (cursors, innermost first),
 * `K[j][d]`: k[b][h][j][d], the first subscript added to the dimension the local points
 * along, the others the dimensions after it, where the local starts at their 0. */
static Expr *rows_alias_elem(Parser *ps, const PtrAlias *al, const CXCursor *idx, int n, Loc loc)
{
	int nd = al->nlead + 1, at = nd - n;
	bool ok = at >= 0 && (!al->off || is_zero(al->off));
	for (int d = at + 1; ok && d < al->nlead; d++)
		ok = is_zero(al->lead[d]);
	if (!ok)
		return fail(ps, loc, "this pointer local takes %d subscripts where it points into '%s' at the start of a row: point it at a row ('= %s[b][h]') or subscript it once", n,
		            al->base->name, al->base->name),
		       NULL;
	Expr *args[16];
	for (int d = 0; d < nd; d++) {
		Expr *x = d >= at ? convert_expr(ps, idx[nd - 1 - d]) : NULL;
		if (d >= at && !x)
			return NULL;
		if (d >= at && !scalar_is_int(x->ty))
			return fail(ps, x->loc, "array subscript must be an integer expression"), NULL;
		Expr *lead = d < al->nlead ? ex_copy(ps->prog, al->lead[d]) : NULL;
		args[d] = d < at ? lead : d == at ? add_offset(ps, lead, x, OP_ADD, x->loc) : x;
	}
	return ex_index(ps->prog, al->base, args, loc);
}

static Expr *convert_subscript(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	CXCursor idx[16];
	int n = 0;
	CXCursor cur = c;
	while (clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr) {
		CursorVec ch = children(cur);
		if (ch.n != 2 || n == 16) {
			vec_free(ch);
			return fail(ps, loc, "unsupported subscript"), NULL;
		}
		idx[n++] = ch.v[1];
		cur = strip(ch.v[0]);
		vec_free(ch);
	}
	return element_of(ps, cur, idx, NULL, n, loc);
}

/* The element of the array (or pointer local) named by cursor `base` at the n subscripts
 * idx (cursors, innermost first), or at *at (already converted, n == 1) where idx is
 * NULL: `p[e]` and `*(p + e)` alike. */
static Expr *element_of(Parser *ps, CXCursor base, const CXCursor *idx, Expr *at, int n, Loc loc)
{
	CXCursor cur = base;
	bool member = clang_getCursorKind(cur) == CXCursor_MemberRefExpr; /* p->q[i]: a pointer field */
	if (clang_getCursorKind(cur) != CXCursor_DeclRefExpr && !member)
		return fail(ps, loc, "only named arrays may be subscripted"), NULL;
	if (member) {
		Var *fv = member_var(ps, cur, loc);
		if (!fv)
			return NULL;
		if (!fv->ndim)
			return fail(ps, loc, "'%s' is a scalar field, not an array", fv->field), NULL;
		Expr *e = idx && n == 1 ? convert_expr(ps, idx[0]) : n == 1 ? at : NULL;
		if (n != 1)
			return fail(ps, loc, "field '%s' is a pointer: it takes one subscript", fv->field), NULL;
		if (!e)
			return NULL;
		if (!scalar_is_int(e->ty))
			return fail(ps, e->loc, "array subscript must be an integer expression"), NULL;
		return ex_index(ps->prog, fv, &e, loc);
	}
	const PtrAlias *al = lookup_alias(ps, clang_getCursorReferenced(cur));
	if (al && al->scalar) {
		Expr *e = n == 1 ? idx ? convert_expr(ps, idx[0]) : at : NULL;
		if (e && (e->kind != EX_INT || e->ival))
			fail(ps, loc, "this pointer points to the scalar '%s' (passed as '&%s'): only '*p' and 'p[0]' read or write it", al->scalar->name, al->scalar->name);
		return e && e->kind == EX_INT && !e->ival ? ex_var(ps->prog, al->scalar, loc) : NULL;
	}
	if (al) {
		if (!al->base || walked_read(ps, al, loc))
			return ps->failed = true, NULL;
		if (n > 1 && idx)
			return rows_alias_elem(ps, al, idx, n, loc);
		if (n != 1)
			return fail(ps, loc, "a pointer local takes one subscript"), NULL;
		Expr *e = idx ? convert_expr(ps, idx[0]) : at;
		if (!e)
			return NULL;
		if (!scalar_is_int(e->ty))
			return fail(ps, e->loc, "array subscript must be an integer expression"), NULL;
		return alias_elem(ps, al, e, loc);
	}
	Var *v = lookup_var(ps, clang_getCursorReferenced(cur));
	if (!v) {
		CXString nm = clang_getCursorSpelling(cur);
		fail(ps, loc, "'%s' is not a parameter or a local of this function", clang_getCString(nm));
		clang_disposeString(nm);
		return NULL;
	}
	if (v->ndim != n)
		return fail(ps, loc, "'%s' has %d dimensions but %d subscripts: index every dimension", v->name, v->ndim, n), NULL;
	Expr *args[16];
	for (int i = 0; i < n; i++) {
		args[n - 1 - i] = idx ? convert_expr(ps, idx[i]) : at;
		if (!args[n - 1 - i])
			return NULL;
		if (!scalar_is_int(args[n - 1 - i]->ty))
			return fail(ps, args[n - 1 - i]->loc, "array subscript must be an integer expression"), NULL;
	}
	return ex_index(ps->prog, v, args, loc);
}

static bool iterator_only(Parser *ps, CXCursor decl);

/* A constant of the file, `static const float kScale = 0.125f;` or `const int HEAD_DIM =
 * 128;` at file scope, or a function's `static const int head_dim = 256;` (the same
 * object, only its name's scope is smaller), const-qualified, int, float or double, with a
 * value the compiler computes: that value as a literal of its type (an int one is a
 * constant extent, as a macro's is). NULL for anything else. */
__attribute__((noinline)) static Expr *file_constant(Parser *ps, CXCursor d, Loc loc)
{
	CXType t = clang_getCursorType(d);
	ScalarType ty;
	bool file_scope = clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_TranslationUnit;
	if ((!file_scope && clang_Cursor_getStorageClass(d) != CX_SC_Static) || !clang_isConstQualifiedType(t) || !scalar_type(t, &ty) ||
	    (ty != TY_INT && ty != TY_FLOAT && ty != TY_DOUBLE))
		return NULL;
	CXEvalResult r = clang_Cursor_Evaluate(d);
	if (!r)
		return NULL;
	Expr *e = NULL;
	CXEvalResultKind k = clang_EvalResult_getKind(r);
	if (ty == TY_INT && k == CXEval_Int)
		e = ex_int(ps->prog, clang_EvalResult_getAsLongLong(r), loc);
	else if (ty != TY_INT && k == CXEval_Float)
		e = ex_flt(ps->prog, ty == TY_FLOAT ? (double)(float)clang_EvalResult_getAsDouble(r) : clang_EvalResult_getAsDouble(r), ty, loc);
	clang_EvalResult_dispose(r);
	return e;
}

static Expr *convert_declref(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	CXCursor d = clang_getCursorReferenced(c);
	CXString name = clang_getCursorSpelling(c);
	const char *nm = arena_strdup(&ps->prog->arena, clang_getCString(name));
	clang_disposeString(name);
	if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl)
		return ex_int(ps->prog, clang_getEnumConstantDeclValue(d), loc);
	for (int i = ps->binds.n - 1; i >= 0; i--)
		if (clang_equalCursors(ps->binds.v[i].decl, d))
			return ex_copy(ps->prog, ps->binds.v[i].value);
	Var *v = lookup_var(ps, d);
	if (!v && lookup_alias(ps, d))
		return fail(ps, loc, "pointer '%s' may only be subscripted ('%s[d]')", nm, nm), NULL;
	for (int i = 0; !v && i < ps->structs.n; i++)
		if (clang_equalCursors(ps->structs.v[i].decl, d))
			return fail(ps, loc, "struct parameter '%s' is read only through its fields here ('%s%sfield')", nm, nm, ps->structs.v[i].s->by_pointer ? "->" : "."), NULL;
	if (!v) {
		if (iterator_only(ps, d))
			return fail(ps, loc, "the bounds of the loop that '%s' counts may not read '%s'", nm, nm), NULL;
		if (clang_getCursorKind(d) == CXCursor_VarDecl) {
			Expr *k = file_constant(ps, d, loc);
			if (k)
				return k;
			return fail(ps, loc, "'%s' is declared outside the function: pass it as a parameter (or make it a 'static const' with a constant value)", nm), NULL;
		}
		return fail(ps, loc, "'%s' cannot be used here", nm), NULL;
	}
	if (v->ndim)
		return fail(ps, loc, "array '%s' used without subscripts", nm), NULL;
	if (v->kind == VAR_PARAM && v->ty == TY_INT && ps->opt->spec_fn && !strcmp(ps->opt->spec_fn, ps->fn_name))
		for (int k = 0; k < ps->opt->nspec; k++)
			if (!strcmp(ps->opt->spec_names[k], v->name))
				return ex_int(ps->prog, ps->opt->spec_values[k], loc);
	return ex_var(ps->prog, v, loc);
}

enum { MAX_INLINE_DEPTH = 8 };

/* e converted to type ty as C's assignment would (an argument to a parameter, a value to
 * a local, a result to the return type). */
static Expr *as_type(Parser *ps, Expr *e, ScalarType ty)
{
	return ex_as_type(ps->prog, ty, e);
}

/* A call to a helper function of the file. One whose body declares scalars and returns one
 * expression (`static inline float softcap(float x, float c) { return c * tanhf(x / c); }`)
 * is that expression, its parameters and locals read as the values the call gives them
 * (each converted to its declared type, as C converts them); any other (loops, pointer
 * parameters: `float dot(const float *a, const float *b, int n)`) puts its body before
 * the statement (inline_body_call). NULL with *why set when the callee cannot be inlined
 * (nothing reported), or after a reported error. */
/* Kept out of line: convert_call is part of the expression converter's recursion, and this
 * function's cursors would otherwise widen every level of it (a 4000-term sum nests 4000
 * deep; under AddressSanitizer the stack overflowed). */
static Expr *inline_body_call(Parser *ps, CXCursor call, CXCursor def, CXCursor body, const char *name, Loc loc, ScalarType rty, const char **why);

/* The body (the compound statement) of function definition fn; a null cursor when fn is
 * null or no function definition. */
static CXCursor function_body(CXCursor fn)
{
	CXCursor body = clang_getNullCursor();
	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return body;
	CursorVec ch = children(fn);
	for (int i = 0; i < ch.n; i++)
		if (clang_getCursorKind(ch.v[i]) == CXCursor_CompoundStmt)
			body = ch.v[i];
	vec_free(ch);
	return body;
}

/* The body of the helper that `call` calls, when this file defines it (a null cursor
 * otherwise), and in *def its definition. */
static CXCursor helper_body(CXCursor call, CXCursor *def)
{
	*def = clang_getCursorDefinition(clang_getCursorReferenced(call));
	return function_body(*def);
}

__attribute__((noinline)) static Expr *inline_call(Parser *ps, CXCursor call, const char *name, Loc loc, const char **why)
{
	CXCursor def, body = helper_body(call, &def);
	*why = "it has no definition in this file";
	if (clang_Cursor_isNull(body))
		return NULL;
	ScalarType rty;
	*why = "it returns no scalar";
	if (!scalar_type(clang_getResultType(clang_getCursorType(def)), &rty))
		return NULL;
	int n = clang_Cursor_getNumArguments(def);
	*why = "its arguments do not match its parameters";
	if (n < 0 || n != clang_Cursor_getNumArguments(call))
		return NULL;
	ScalarType pty[16];
	bool ok = n <= 16;
	for (int i = 0; ok && i < n; i++)
		ok = scalar_type(clang_getCursorType(clang_Cursor_getArgument(def, i)), &pty[i]);
	CursorVec st = children(body);
	ok = ok && st.n > 0 && clang_getCursorKind(st.v[st.n - 1]) == CXCursor_ReturnStmt;
	for (int i = 0; ok && i < st.n - 1; i++)
		ok = clang_getCursorKind(st.v[i]) == CXCursor_DeclStmt;
	if (ps->binds.n > MAX_INLINE_DEPTH * 16) {
		*why = "helper calls nest too deep here (a recursive helper?)";
		vec_free(st);
		return NULL;
	}
	if (!ok) {
		/* Loops, ifs, pointer parameters: the body goes before the statement. */
		vec_free(st);
		return inline_body_call(ps, call, def, body, name, loc, rty, why);
	}
	int mark = ps->binds.n;
	Expr *result = NULL;
	for (int i = 0; i < n; i++) {
		Expr *a = convert_expr(ps, clang_Cursor_getArgument(call, (unsigned)i));
		if (!a)
			goto done;
		InlineBinding b = {clang_Cursor_getArgument(def, i), as_type(ps, a, pty[i])};
		vec_push(ps->binds, b);
	}
	for (int i = 0; i < st.n - 1; i++) {
		CursorVec ds = children(st.v[i]);
		for (int k = 0; k < ds.n; k++) {
			ScalarType ty;
			CXCursor init = last_expression(ds.v[k]);
			if (clang_getCursorKind(ds.v[k]) != CXCursor_VarDecl || !scalar_type(clang_getCursorType(ds.v[k]), &ty) || clang_Cursor_isNull(init)) {
				fail(ps, loc_of(ps, ds.v[k]), "helper function '%s' is inlined into the region: its locals must be scalars with an initialiser", name);
				vec_free(ds);
				goto done;
			}
			Expr *v = convert_expr(ps, init);
			if (!v) {
				vec_free(ds);
				goto done;
			}
			InlineBinding b = {ds.v[k], as_type(ps, v, ty)};
			vec_push(ps->binds, b);
		}
		vec_free(ds);
	}
	CXCursor ret = last_expression(st.v[st.n - 1]);
	if (clang_Cursor_isNull(ret)) {
		fail(ps, loc, "helper function '%s' returns no value", name);
		goto done;
	}
	result = convert_expr(ps, ret);
	if (result)
		result = as_type(ps, result, rty);
done:
	ps->binds.n = mark;
	vec_free(st);
	if (!result)
		ps->failed = true;
	return result;
}

/* Whether e is the literal 2 or 2.0 (through casts). */
static bool is_literal_two(const Expr *e)
{
	while (e->kind == EX_CAST)
		e = e->args[0];
	return (e->kind == EX_INT && e->ival == 2) || (e->kind == EX_FLT && e->fval == 2.0);
}

/* e * e in type ty: what powf(e, 2) and pow(e, 2) compute (x * x is correctly rounded,
 * as is x^2), written as a product so that the fuser's algebra sees one. */
static Expr *square(Program *p, Expr *e, ScalarType ty, Loc loc)
{
	if (e->ty != ty)
		e = ex_cast(p, ty, e, loc);
	return ex_bin(p, OP_MUL, e, ex_copy(p, e), loc);
}

/* `abs(e)` of an int (stdlib's abs, labs, llabs): `e < 0 ? -e : e`, which a comparison
 * splits into two (window_compare). */
__attribute__((noinline)) static Expr *int_abs(Parser *ps, CXCursor c, Loc loc)
{
	Expr *e = convert_expr(ps, clang_Cursor_getArgument(c, 0));
	if (!e)
		return NULL;
	if (!scalar_is_int(e->ty))
		return fail(ps, loc, "abs() of a non-integer value: use fabsf"), NULL;
	Program *p = ps->prog;
	return ex_cond(p, ex_bin(p, OP_LT, e, ex_int(p, 0, loc), loc), ex_un(p, UOP_NEG, ex_copy(p, e), loc), ex_copy(p, e), loc);
}

/* Calls: math functions, the bf16 conversions (casts), and the builtins that INFINITY and
 * NAN expand to (literals). */
static Expr *convert_call(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	CXString s = clang_getCursorSpelling(c);
	const char *name = arena_strdup(&ps->prog->arena, clang_getCString(s));
	clang_disposeString(s);
	int n = clang_Cursor_getNumArguments(c);
	if (!strcmp(name, "__builtin_inff") || !strcmp(name, "__builtin_huge_valf"))
		return ex_flt(ps->prog, INFINITY, TY_FLOAT, loc);
	if (!strcmp(name, "__builtin_inf") || !strcmp(name, "__builtin_huge_val"))
		return ex_flt(ps->prog, INFINITY, TY_DOUBLE, loc);
	if (!strcmp(name, "__builtin_nanf"))
		return ex_flt(ps->prog, NAN, TY_FLOAT, loc);
	if (!strcmp(name, "__builtin_nan"))
		return ex_flt(ps->prog, NAN, TY_DOUBLE, loc);
	CXCursor def;
	if ((!strcmp(name, "abs") || !strcmp(name, "labs") || !strcmp(name, "llabs")) && n == 1 && clang_Cursor_isNull(helper_body(c, &def)))
		return int_abs(ps, c, loc); /* stdlib's, not a helper of the file's */
	bool bf16_cast = !strcmp(name, "fusecc_bf16_to_float") || !strcmp(name, "fusecc_float_to_bf16") || !strcmp(name, "fusecc_fp8e4m3_to_float") ||
	                 !strcmp(name, "fusecc_float_to_fp8e4m3");
	/* C's rounding to an integer type and nearbyint: the rounding function, then the
	 * conversion (exact wherever the C is defined: the value fits the long) */
	static const struct { const char *name; MathFn fn; bool is_double, to_long; } rounds[] = {
		{"lrintf", FN_RINT, false, true},   {"llrintf", FN_RINT, false, true},   {"lrint", FN_RINT, true, true},
		{"llrint", FN_RINT, true, true},    {"lroundf", FN_ROUND, false, true},  {"llroundf", FN_ROUND, false, true},
		{"lround", FN_ROUND, true, true},   {"llround", FN_ROUND, true, true},   {"nearbyintf", FN_RINT, false, false},
		{"nearbyint", FN_RINT, true, false},
	};
	for (size_t i = 0; i < sizeof rounds / sizeof rounds[0]; i++)
		if (!strcmp(name, rounds[i].name) && n == 1 && clang_Cursor_isNull(helper_body(c, &def))) {
			Expr *a = convert_expr(ps, clang_Cursor_getArgument(c, 0));
			if (!a)
				return NULL;
			Expr *r = ex_call(ps->prog, rounds[i].fn, rounds[i].is_double, &a, loc);
			return rounds[i].to_long ? ex_cast(ps->prog, TY_I64, r, loc) : r;
		}
	MathFn fn;
	bool is_double;
	/* The callee first: a helper function's row arguments (dot(q[b][h][i], ...)) would
	 * otherwise be reported as arrays short of subscripts. */
	if (!bf16_cast && !mathfn_lookup(name, &fn, &is_double)) {
		const char *why;
		Expr *e = inline_call(ps, c, name, loc, &why);
		if (e || ps->failed)
			return e;
		if (strcmp(why, "it has no definition in this file"))
			return fail(ps, loc, "call to '%s': fusecc inlines the helper functions of this file, and %s", name, why), NULL;
		StrBuf known = {0};
		for (int i = 0; i < FN_COUNT; i++)
			sb_printf(&known, "%s%s", i ? ", " : "", mathfn_info[i].f32);
		fail(ps, loc, "call to '%s', which this file does not define: a fuse region may call math functions (%s and their double forms; lrintf, lroundf and nearbyintf too) and the helper functions the file defines, which fusecc inlines", name, known.s);
		sb_free(&known);
		return NULL;
	}
	if (n < 0 || n > 4)
		return fail(ps, loc, "unsupported call"), NULL;
	Expr *args[4];
	for (int i = 0; i < n; i++)
		if (!(args[i] = convert_expr(ps, clang_Cursor_getArgument(c, (unsigned)i))))
			return NULL;
	if (!strcmp(name, "fusecc_bf16_to_float") && n == 1)
		return ex_cast(ps->prog, TY_FLOAT, args[0], loc);
	if (!strcmp(name, "fusecc_float_to_bf16") && n == 1)
		return ex_cast(ps->prog, TY_BF16, args[0], loc);
	if (!strcmp(name, "fusecc_fp8e4m3_to_float") && n == 1)
		return ex_cast(ps->prog, TY_FLOAT, args[0], loc);
	if (!strcmp(name, "fusecc_float_to_fp8e4m3") && n == 1)
		return ex_cast(ps->prog, TY_FP8, args[0], loc);
	if (bf16_cast)
		return fail(ps, loc, "'%s' takes 1 argument", name), NULL;
	if (mathfn_info[fn].nargs != n)
		return fail(ps, loc, "'%s' takes %d arguments", name, mathfn_info[fn].nargs), NULL;
	if (fn == FN_POW && is_literal_two(args[1]))
		return square(ps->prog, args[0], is_double ? TY_DOUBLE : TY_FLOAT, loc);
	return ex_call(ps->prog, fn, is_double, args, loc);
}

static Expr *convert_literal(Parser *ps, CXCursor c, bool is_float)
{
	Loc loc = loc_of(ps, c);
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return fail(ps, loc, "cannot evaluate this literal"), NULL;
	Expr *e;
	if (is_float) {
		ScalarType ty;
		if (!scalar_type(clang_getCursorType(c), &ty) || (ty != TY_FLOAT && ty != TY_DOUBLE))
			ty = TY_DOUBLE;
		e = ex_flt(ps->prog, ty == TY_FLOAT ? (double)(float)clang_EvalResult_getAsDouble(r) : clang_EvalResult_getAsDouble(r), ty, loc);
	} else {
		/* 256u, 64L, 8ull: a size as the unsigned and long counters are (size_type), so an
		 * int while its value is one */
		enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(c)).kind;
		bool uns = clang_EvalResult_isUnsignedInt(r);
		unsigned long long u = uns ? clang_EvalResult_getAsUnsigned(r) : 0;
		long long v = uns ? (long long)u : clang_EvalResult_getAsLongLong(r);
		bool sized = k == CXType_Int || k == CXType_UInt || k == CXType_Long || k == CXType_ULong || k == CXType_LongLong || k == CXType_ULongLong;
		if (sized && (uns ? u <= 2147483647ULL : v >= 0 && v <= 2147483647LL))
			e = ex_int(ps->prog, v, loc);
		else
			e = (fail(ps, loc, "only integer literals below 2^31 are supported (an int, or a size such as 256u or 64L)"), NULL);
	}
	clang_EvalResult_dispose(r);
	return e;
}

static Expr *convert_cast(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	ScalarType ty;
	CXType t = clang_getCursorType(c);
	bool uns;
	if (!scalar_type(t, &ty) && size_type(t, &uns))
		ty = TY_INT; /* (size_t)i: a size; convert_expr checks it is not negative */
	else if (!scalar_type(t, &ty))
		return fail(ps, loc, "cast to '%s' is not supported", type_spelling(ps, t)), NULL;
	CXCursor arg = last_expression(c);
	if (clang_Cursor_isNull(arg))
		return fail(ps, loc, "unsupported cast"), NULL;
	Expr *a = convert_expr(ps, arg);
	if (!a)
		return NULL;
	if (ty == TY_BF16 || a->ty == TY_BF16)
		return fail(ps, loc, "convert bf16 with fusecc_bf16_to_float / fusecc_float_to_bf16, not a cast"), NULL;
	if (ty == TY_FP8 || a->ty == TY_FP8)
		return fail(ps, loc, "convert fp8 with fusecc_fp8e4m3_to_float / fusecc_float_to_fp8e4m3, not a cast"), NULL;
	return ex_cast(ps->prog, ty, a, loc);
}

/* Whether b is the iterator of a loop around the expression being converted whose
 * condition keeps it at most a (`j <= i`, `j < i`, `j < i + 1`), so that a - b is never
 * negative: ALiBi's `(float)(i - j)` with unsigned counters under the causal bound. A
 * bound a break narrowed (a min) is not recognised. */
static bool bounded_by(Parser *ps, const Expr *b, const Expr *a)
{
	if (b->kind != EX_VAR)
		return false;
	for (const LoopCtx *l = &ps->loop; l && l->var; l = l->up)
		if (l->var == b->var) {
			const Expr *hi = *l->hi; /* [lo, hi) counting either way */
			return expr_equal(hi, a) ||
			       (hi->kind == EX_BIN && hi->bop == OP_ADD && hi->args[1]->kind == EX_INT && hi->args[1]->ival == 1 && expr_equal(hi->args[0], a));
		}
	return false;
}

/* Whether e cannot be negative: a literal >= 0, a parameter (integer parameters are
 * sizes), an iterator that starts at such a value, an unsigned local, and sums,
 * products, quotients, remainders, casts and selections of those. An element of an
 * integer input array (`(size_t)len[r]`, an offset, a length) counts too: such arrays
 * hold sizes and indices, whose range is the caller's contract (docs/input-language.md),
 * as it is for an index read through them; so does a float converted to an unsigned
 * type (ggml's `(uint32_t)floorf(log2f(n))`), which C leaves undefined below zero, and
 * a - b where the loop b counts keeps b at most a (bounded_by). */
static bool nonneg(Parser *ps, const Expr *e)
{
	switch (e->kind) {
	case EX_BIN:
		if (e->bop == OP_SUB && bounded_by(ps, e->args[1], e->args[0]))
			return true;
		break;
	default: break;
	}
	switch (e->kind) {
	case EX_INT: return e->ival >= 0;
	case EX_INDEX: return e->var->kind == VAR_PARAM && scalar_is_int(e->ty) && (!ps->shifted || e->ty == TY_U8 || e->ty == TY_BOOL);
	case EX_VAR:
		if (e->var->kind == VAR_PARAM)
			return true;
		for (int i = 0; i < ps->nonneg.n; i++)
			if (ps->nonneg.v[i] == e->var)
				return true;
		return false;
	case EX_BIN:
		return (e->bop == OP_ADD || e->bop == OP_MUL || e->bop == OP_DIV || e->bop == OP_MOD || e->bop == OP_SHL || e->bop == OP_SHR) && nonneg(ps, e->args[0]) &&
		       nonneg(ps, e->args[1]);
	case EX_CAST:
		for (int i = 0; i < ps->unsigned_casts.n; i++)
			if (ps->unsigned_casts.v[i] == e)
				return true;
		return scalar_is_int(e->args[0]->ty) && nonneg(ps, e->args[0]);
	case EX_COND: return nonneg(ps, e->args[1]) && nonneg(ps, e->args[2]);
	default: return false;
	}
}

static Expr *convert_expr_(Parser *ps, CXCursor c);

/* Whether storing e into v with op (`=`, `+=`, ...) keeps C's value of v: v is not an
 * unsigned local, or the store adds, multiplies or divides by (or sets) a value that
 * cannot be negative, so that the int64_t fusecc reads v as never wraps where C's
 * unsigned would. Reports the store otherwise. */
static bool unsigned_store(Parser *ps, const Var *v, AssignOp op, const Expr *e)
{
	bool is_unsigned = false;
	for (int i = 0; v->kind == VAR_LOCAL && i < ps->nonneg.n; i++)
		is_unsigned |= ps->nonneg.v[i] == v;
	if (!is_unsigned || (op != AS_SUB && nonneg(ps, e)))
		return true;
	fail(ps, e->loc, "'%s' is unsigned in C, which wraps around below zero, and fusecc reads it as int64_t: it cannot show this value is never negative (a subtraction, a negative number or local): declare '%s' int64_t", v->name, v->name);
	return false;
}

/* Converts an expression cursor; NULL after reporting if it is outside the language.
 * A value C computes unsigned (size_t, unsigned) is read as int, which is the same value
 * only where it cannot be negative: anything else there is refused. */
static Expr *convert_expr(Parser *ps, CXCursor c)
{
	/* Every stage walks expressions recursively: past this depth (a sum of thousands of
	 * terms written as one left-nested chain is fine below it) the stack would not do. */
	enum { MAX_NESTING = 5000 };
	if (ps->nesting >= MAX_NESTING)
		return fail(ps, loc_of(ps, c), "expression nested more than %d deep: split it into several statements (partial sums in locals)", MAX_NESTING), NULL;
	ps->nesting++;
	Expr *e = convert_expr_(ps, c);
	ps->nesting--;
	CXType t = clang_getCursorType(c);
	if (e && unsigned_size(t) && e->kind == EX_CAST && scalar_is_float(e->args[0]->ty)) /* (uint32_t)floorf(x) */
		vec_push(ps->unsigned_casts, e);
	if (e && unsigned_size(t) && !nonneg(ps, e))
		return fail(ps, e->loc, "this value is '%s' in C, which wraps around below zero, and fusecc reads sizes as int: it cannot show the value is never negative (a subtraction, a negative number or local): compute it in int ('(int)N - 1')",
		            type_spelling(ps, t)),
		       NULL;
	return e;
}

static Expr *convert_expr_(Parser *ps, CXCursor c)
{
	c = strip(c);
	Loc loc = loc_of(ps, c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral: return convert_literal(ps, c, false);
	case CXCursor_FloatingLiteral: return convert_literal(ps, c, true);
	case CXCursor_DeclRefExpr: return convert_declref(ps, c);
	case CXCursor_ArraySubscriptExpr: return convert_subscript(ps, c);
	case CXCursor_BinaryOperator: return convert_binary(ps, c);
	case CXCursor_UnaryOperator: return convert_unary(ps, c);
	case CXCursor_CallExpr: return convert_call(ps, c);
	case CXCursor_CStyleCastExpr: return convert_cast(ps, c);
	case CXCursor_ConditionalOperator: {
		CursorVec ch = children(c);
		Expr *r = NULL;
		if (ch.n == 3) {
			Expr *a = convert_expr(ps, ch.v[0]);
			Expr *b = a ? convert_expr(ps, ch.v[1]) : NULL;
			Expr *d = b ? convert_expr(ps, ch.v[2]) : NULL;
			if (d)
				r = ex_cond(ps->prog, a, b, d, loc);
		} else {
			fail(ps, loc, "unsupported conditional expression");
		}
		vec_free(ch);
		return r;
	}
	case CXCursor_CompoundAssignOperator:
		return fail(ps, loc, "assignment inside an expression is not supported: make it a statement"), NULL;
	case CXCursor_MemberRefExpr: {
		Var *v = member_var(ps, c, loc);
		if (!v)
			return NULL;
		if (v->ndim)
			return fail(ps, loc, "array '%s' used without subscripts", v->field), NULL;
		if (v->ty == TY_INT && ps->opt->spec_fn && !strcmp(ps->opt->spec_fn, ps->fn_name))
			for (int k = 0; k < ps->opt->nspec; k++)
				if (!strcmp(ps->opt->spec_names[k], v->name))
					return ex_int(ps->prog, ps->opt->spec_values[k], loc);
		return ex_var(ps->prog, v, loc);
	}
	case CXCursor_StringLiteral:
	case CXCursor_CharacterLiteral:
		return fail(ps, loc, "string and character literals are not supported in a fuse region"), NULL;
	case CXCursor_StmtExpr:
		return fail(ps, loc, "a GNU statement expression `({ ... })` (as in a MAX macro with __typeof__) is not supported in a fuse region: write the value as a ternary, fmaxf/fminf, or a static inline function"),
		       NULL;
	default: {
		CXString k = clang_getCursorKindSpelling(clang_getCursorKind(c));
		fail(ps, loc, "unsupported expression (%s) in a fuse region", clang_getCString(k));
		clang_disposeString(k);
		return NULL;
	}
	}
}

/* ---- statements ---- */

static Stmt *convert_stmt(Parser *ps, CXCursor c);
static bool unchecked_expr(Parser *ps, CXCursor c);
static Stmt *convert_loop_body(Parser *ps, CXCursor c, int drop);
/* The parts of a counted loop. A for gives its header's; a counted while (see
 * counted_while) the statement before it as init and its body's last statement as inc. */
typedef struct LoopHead {
	Loc loc;
	CXCursor init; /* `int v = lo` or `v = lo` */
	bool own;      /* init is the for's own declaration: v is declared in the header */
	CXCursor cond;
	CXCursor inc;  /* null for the count-down idiom `for (v = hi; v-- > lo;)` */
	CXCursor body;
	int drop;      /* statements at the end of body that inc already is (a while's step) */
} LoopHead;

static Stmt *convert_loop(Parser *ps, const LoopHead *h);
static bool counted_while(Parser *ps, const CursorVec *ch, int i, LoopHead *h);
static Stmt *convert_own_stmt(Parser *ps, CXCursor c);
static int walk_begin(Parser *ps, CXCursor body, const CursorVec *header, unsigned from, unsigned to, Var *v, Expr *lo, int step);
static int pointer_assign(Parser *ps, CXCursor c, CXCursor *stride, bool *fwd);
static void walk_end(Parser *ps, int mark, const Stmt *body, const Var *v, int first, Loc loc);
static bool reversible(const Stmt *body, const Var *v, Loc *why);

#define COUNTS_DOWN                                                                                                         \
	"this loop counts down and its iterations depend on each other's order here: fusecc runs loops upward, which it does only " \
	"when every iteration writes its own elements ('y[j] = ...') or sums and maxima ('s += ...', 'm = fmaxf(m, ...)'); write " \
	"the loop counting up"

/* Whether s writes a one-dimensional array (a flat pointer `y[t * C + c]`, a local row),
 * whose subscripts front_delinearize may still split into dimensions. */
static bool writes_flat(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && s->lhs->kind == EX_INDEX && s->lhs->var->ndim == 1)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (writes_flat(s->body[i]))
			return true;
	return false;
}

static bool refers_to(CXCursor e, CXCursor decl)
{
	e = strip(e);
	return clang_getCursorKind(e) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(e), decl);
}

/* Whether c is the integer literal 1. */
static bool is_literal_one(CXCursor c)
{
	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_IntegerLiteral)
		return false;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	bool one = r && clang_EvalResult_getAsLongLong(r) == 1;
	if (r)
		clang_EvalResult_dispose(r);
	return one;
}

/* The step of increment `inc` of iterator iv: 1 for `v++`, `++v`, `v += 1`, `v = v + 1`,
 * `v = 1 + v`; -1 for `v--`, `--v`, `v -= 1`, `v = v - 1`; 0 for anything else. */
static int unit_step(Parser *ps, CXCursor inc, CXCursor iv)
{
	enum CXCursorKind k = clang_getCursorKind(inc);
	CursorVec ch = children(inc);
	int step = 0;
	Loc dummy;
	const char *mop;
	CXSourceLocation ml;
	if (k == CXCursor_UnaryOperator && ch.n == 1 && refers_to(ch.v[0], iv) && macro_ops_lookup(ps->mops, inc, &mop, &ml)) {
		/* a loop macro's `++i` (macro.c read the header's operators) */
		step = !strcmp(mop, "++") ? 1 : !strcmp(mop, "--") ? -1 : 0;
	} else if (k == CXCursor_UnaryOperator && ch.n == 1 && refers_to(ch.v[0], iv)) {
		CXToken *toks;
		unsigned n;
		clang_tokenize(ps->tu, clang_getCursorExtent(inc), &toks, &n);
		for (unsigned i = 0; i < n; i++) {
			const char *t = token_text(ps, toks[i]);
			if (!strcmp(t, "++") || !strcmp(t, "--"))
				step = t[0] == '+' ? 1 : -1;
		}
		clang_disposeTokens(ps->tu, toks, n);
	} else if (k == CXCursor_CompoundAssignOperator && ch.n == 2 && refers_to(ch.v[0], iv)) {
		const char *op = binary_operator(ps, inc, ch.v[0], &dummy);
		if (op && (!strcmp(op, "+=") || !strcmp(op, "-=")) && is_literal_one(ch.v[1]))
			step = op[0] == '+' ? 1 : -1;
	} else if (k == CXCursor_BinaryOperator && ch.n == 2 && refers_to(ch.v[0], iv)) {
		const char *op = binary_operator(ps, inc, ch.v[0], &dummy);
		CXCursor rhs = strip(ch.v[1]);
		CursorVec rc = children(rhs);
		if (op && !strcmp(op, "=") && clang_getCursorKind(rhs) == CXCursor_BinaryOperator && rc.n == 2) {
			const char *op2 = binary_operator(ps, rhs, rc.v[0], &dummy);
			if (op2 && !strcmp(op2, "+") && ((refers_to(rc.v[0], iv) && is_literal_one(rc.v[1])) || (is_literal_one(rc.v[0]) && refers_to(rc.v[1], iv))))
				step = 1;
			else if (op2 && !strcmp(op2, "-") && refers_to(rc.v[0], iv) && is_literal_one(rc.v[1]))
				step = -1;
		}
		vec_free(rc);
	}
	vec_free(ch);
	return step;
}

/* The step of a loop's increment `v++, p += D` (ggml's walk in the header, which runs on
 * `continue` too): the iterator's unit step (unit_step) and pointer locals advanced
 * (pointer_assign), whose advances go to *ptrs for walk_begin; 0 for anything else. */
static int header_steps(Parser *ps, CXCursor inc, CXCursor iv, CursorVec *ptrs)
{
	CursorVec todo = {0};
	vec_push(todo, strip(inc));
	int step = 0, nsteps = 0;
	bool ok = true;
	Loc dummy;
	while (ok && todo.n) {
		CXCursor c = todo.v[--todo.n];
		CursorVec ch = children(c);
		const char *op = clang_getCursorKind(c) == CXCursor_BinaryOperator && ch.n == 2 ? binary_operator(ps, c, ch.v[0], &dummy) : NULL;
		CXCursor sc;
		bool fwd;
		if (op && !strcmp(op, ",")) {
			vec_push(todo, strip(ch.v[1]));
			vec_push(todo, strip(ch.v[0]));
		} else if (unit_step(ps, c, iv)) {
			step = unit_step(ps, c, iv);
			nsteps++;
		} else if (pointer_assign(ps, c, &sc, &fwd) >= 0 && fwd) {
			vec_push(*ptrs, c);
		} else {
			ok = false;
		}
		vec_free(ch);
	}
	vec_free(todo);
	return ok && nsteps == 1 && ptrs->n ? step : 0;
}

/* The step S > 1 of increment `inc` of iterator iv when it adds a positive integer
 * constant (`v += BLOCK_N`, `v += 4`, `v = v + S`, a macro or an enum); 0 otherwise. */
static long long const_step(Parser *ps, CXCursor inc, CXCursor iv)
{
	inc = strip(inc);
	enum CXCursorKind k = clang_getCursorKind(inc);
	CursorVec ch = children(inc);
	CXCursor amount = clang_getNullCursor();
	Loc dummy;
	if (ch.n == 2 && refers_to(ch.v[0], iv)) {
		const char *op = binary_operator(ps, inc, ch.v[0], &dummy);
		if (k == CXCursor_CompoundAssignOperator && op && !strcmp(op, "+=")) {
			amount = ch.v[1];
		} else if (k == CXCursor_BinaryOperator && op && !strcmp(op, "=")) {
			CXCursor rhs = strip(ch.v[1]);
			CursorVec rc = children(rhs);
			const char *op2 = clang_getCursorKind(rhs) == CXCursor_BinaryOperator && rc.n == 2 ? binary_operator(ps, rhs, rc.v[0], &dummy) : NULL;
			if (op2 && !strcmp(op2, "+"))
				amount = refers_to(rc.v[0], iv) ? rc.v[1] : refers_to(rc.v[1], iv) ? rc.v[0] : clang_getNullCursor();
			vec_free(rc);
		}
	}
	vec_free(ch);
	long long step = 0;
	CXEvalResult r = clang_Cursor_isNull(amount) ? NULL : clang_Cursor_Evaluate(amount);
	if (r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) > 1 && clang_EvalResult_getAsLongLong(r) <= INT_MAX)
		step = clang_EvalResult_getAsLongLong(r);
	if (r)
		clang_EvalResult_dispose(r);
	return step;
}

static const char canonical_loop_help[] =
	"loops must have the form 'for (int v = lo; v < hi; v++)' (or 'v <= hi', 'v != hi', 'hi > v', '++v', 'v += 1', 'v = v + 1', or counting down by one; 'v' may be declared before the loop: 'for (v = lo; ...)')";

/* e + 1, folded when e is a literal. */
static Expr *plus_one(Parser *ps, Expr *e)
{
	return e->kind == EX_INT ? ex_int(ps->prog, e->ival + 1, e->loc) : ex_bin(ps->prog, OP_ADD, e, ex_int(ps->prog, 1, e->loc), e->loc);
}

/* ---- C89 iterators: `int j;` before `for (j = 0; ...)` ---- */

/* Whether decl is a variable declared in a function (not a global, not a parameter). */
static bool is_local_decl(CXCursor decl)
{
	return clang_getCursorKind(decl) == CXCursor_VarDecl && clang_getCursorKind(clang_getCursorSemanticParent(decl)) != CXCursor_TranslationUnit;
}

/* `v = lo`, a for's initialisation that assigns a local declared before the loop: *decl
 * gets v's declaration and *lo the initial value. */
static bool assigned_iterator(Parser *ps, CXCursor init, CXCursor *decl, CXCursor *lo)
{
	init = strip(init);
	if (clang_getCursorKind(init) != CXCursor_BinaryOperator)
		return false;
	CursorVec ch = children(init);
	bool ok = false;
	if (ch.n == 2 && clang_getCursorKind(strip(ch.v[0])) == CXCursor_DeclRefExpr && is_local_decl(clang_getCursorReferenced(strip(ch.v[0])))) {
		Loc oploc;
		const char *op = binary_operator(ps, init, ch.v[0], &oploc);
		if (op && !strcmp(op, "=")) {
			*decl = clang_getCursorReferenced(strip(ch.v[0]));
			*lo = ch.v[1];
			ok = true;
		}
	}
	vec_free(ch);
	return ok;
}

/* The entry of local decl, added if new. */
static IterDecl *iter_entry(Parser *ps, CXCursor decl)
{
	for (int i = 0; i < ps->iters.n; i++)
		if (clang_equalCursors(ps->iters.v[i].decl, decl))
			return &ps->iters.v[i];
	vec_push(ps->iters, ((IterDecl){.decl = decl}));
	return &ps->iters.v[ps->iters.n - 1];
}

/* Whether decl declares a C89 iterator that only its loops use: it gets no Var of its
 * own, each loop it counts binds a fresh one. */
static bool iterator_only(Parser *ps, CXCursor decl)
{
	for (int i = 0; i < ps->iters.n; i++)
		if (clang_equalCursors(ps->iters.v[i].decl, decl))
			return ps->iters.v[i].counts && !ps->iters.v[i].outside;
	return false;
}

typedef struct IterScan {
	Parser *ps;
	CursorVec active; /* the locals counting the C89 loops around the cursor visited */
} IterScan;

static void iter_scan(IterScan *sc, CXCursor c);
static void iter_scan_block(IterScan *sc, CXCursor block);
static bool declared_iterator(CXCursor decl, CXCursor *iv, CXCursor *lo);

/* Records, for each local, whether a `for (v = lo; ...)` counts it and whether it is used
 * outside such loops: inside one, its cond, increment and body read the loop's iterator;
 * its lo does not. */
static enum CXChildVisitResult iter_scan_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	IterScan *sc = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ForStmt) {
		CursorVec ch = children(c);
		CXCursor d, lo;
		if (ch.n >= 1 && assigned_iterator(sc->ps, ch.v[0], &d, &lo)) {
			iter_entry(sc->ps, d)->counts = true;
			iter_scan(sc, lo);
			vec_push(sc->active, d);
			for (int i = 1; i < ch.n; i++)
				iter_scan(sc, ch.v[i]);
			sc->active.n--;
			vec_free(ch);
			return CXChildVisit_Continue;
		}
		vec_free(ch);
	} else if (k == CXCursor_CompoundStmt) {
		iter_scan_block(sc, c);
		return CXChildVisit_Continue;
	} else if (k == CXCursor_DeclRefExpr && is_local_decl(clang_getCursorReferenced(c))) {
		CXCursor d = clang_getCursorReferenced(c);
		bool inside = false;
		for (int i = 0; i < sc->active.n && !inside; i++)
			inside = clang_equalCursors(sc->active.v[i], d);
		IterDecl *it = iter_entry(sc->ps, d);
		if (!inside && !it->outside) {
			it->outside = true;
			it->out_loc = loc_of(sc->ps, c);
		}
	}
	return CXChildVisit_Recurse;
}

/* iter_scan_visit for a block, where a counted while (see counted_while) counts the
 * local that the statement before it sets, as `for (v = lo; ...)` does. */
static void iter_scan_block(IterScan *sc, CXCursor block)
{
	CursorVec ch = children(block);
	for (int i = 0; i < ch.n; i++) {
		LoopHead h;
		CXCursor d, lo;
		if (!counted_while(sc->ps, &ch, i, &h) || !(assigned_iterator(sc->ps, h.init, &d, &lo) || declared_iterator(h.init, &d, &lo))) {
			iter_scan(sc, ch.v[i]);
			continue;
		}
		iter_entry(sc->ps, d)->counts = true;
		iter_scan(sc, lo);
		vec_push(sc->active, d);
		iter_scan(sc, ch.v[++i]);
		sc->active.n--;
	}
	vec_free(ch);
}

static void iter_scan(IterScan *sc, CXCursor c)
{
	if (iter_scan_visit(c, clang_getNullCursor(), sc) == CXChildVisit_Recurse)
		clang_visitChildren(c, iter_scan_visit, sc);
}

/* Fills ps->iters for the function whose body is `body`. */
static void scan_iterators(Parser *ps, CXCursor body)
{
	ps->iters.n = 0;
	IterScan sc = {ps, {0}};
	iter_scan(&sc, body);
	vec_free(sc.active);
}

/* `int v = lo` (one integer local with its value): *iv and *lo. */
static bool declared_iterator(CXCursor decl, CXCursor *iv, CXCursor *lo)
{
	if (clang_getCursorKind(decl) != CXCursor_DeclStmt)
		return false;
	CursorVec init = children(decl);
	*iv = init.n == 1 ? init.v[0] : clang_getNullCursor();
	vec_free(init);
	CursorVec ivc = clang_Cursor_isNull(*iv) ? (CursorVec){0} : children(*iv);
	/* the initial value: the one expression child (a typedef's name is a TypeRef child) */
	int nexpr = 0;
	for (int i = 0; i < ivc.n; i++)
		if (clang_isExpression(clang_getCursorKind(ivc.v[i])))
			*lo = ivc.v[i], nexpr++;
	vec_free(ivc);
	bool uns;
	return !clang_Cursor_isNull(*iv) && clang_getCursorKind(*iv) == CXCursor_VarDecl && size_type(clang_getCursorType(*iv), &uns) && nexpr == 1;
}

/* The operand of `e--` (or `e++`, `--e`, `++e`, as *op says: "--", "++", "--e", "++e"),
 * or a null cursor when c is no step. libclang names no unary operator: the first and
 * last tokens of the extent tell. */
static CXCursor step_operand(Parser *ps, CXCursor c, const char **op)
{
	c = strip(c);
	CXCursor r = clang_getNullCursor();
	if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
		return r;
	CXToken *toks;
	unsigned n;
	clang_tokenize(ps->tu, clang_getCursorExtent(c), &toks, &n);
	const char *first = n ? token_text(ps, toks[0]) : "", *last = n ? token_text(ps, toks[n - 1]) : "";
	clang_disposeTokens(ps->tu, toks, n);
	CursorVec ch = children(c);
	if (ch.n == 1 && (!strcmp(last, "--") || !strcmp(last, "++")))
		r = ch.v[0], *op = last;
	else if (ch.n == 1 && (!strcmp(first, "--") || !strcmp(first, "++")))
		r = ch.v[0], *op = first[0] == '-' ? "--e" : "++e";
	vec_free(ch);
	return r;
}

/* Whether for-condition c steps its iterator itself (`c-- > 0`): the count-down idiom. */
static bool steps_in_cond(Parser *ps, CXCursor c)
{
	c = strip(c);
	CursorVec ch = children(c);
	const char *op;
	bool r = clang_getCursorKind(c) == CXCursor_BinaryOperator && ch.n == 2 &&
	         (!clang_Cursor_isNull(step_operand(ps, ch.v[0], &op)) || !clang_Cursor_isNull(step_operand(ps, ch.v[1], &op)));
	vec_free(ch);
	return r;
}

static const char countdown_help[] = "the count-down idiom must read 'for (v = hi; v-- > lo;)' (the loop over [lo, hi) from the top), with nothing else stepping 'v'";

/* The end of loop condition cond on iterator iv, converted: *rel gets the relation with the
 * iterator on the left (`hi > v` is `v < hi`) and *uns whether the comparison is unsigned.
 * `v < a && v <= b` (two ends) is `v < min(a, b + 1)`, written as the ternary the bound
 * analysis reads. With `down` the iterator is compared as `v--` (the count-down idiom).
 * NULL (reported) for any other condition. */
static Expr *loop_end(Parser *ps, CXCursor cond, CXCursor iv, bool down, const char **rel, bool *uns)
{
	cond = strip(cond);
	CursorVec cc = children(cond);
	Loc oploc = loc_of(ps, cond);
	const char *op = clang_getCursorKind(cond) == CXCursor_BinaryOperator && cc.n == 2 ? binary_operator(ps, cond, cc.v[0], &oploc) : NULL;
	Expr *r = NULL;
	if (op && !strcmp(op, "&&") && !down) {
		const char *r0, *r1;
		bool u0, u1;
		Expr *a = loop_end(ps, cc.v[0], iv, false, &r0, &u0);
		Expr *b = a ? loop_end(ps, cc.v[1], iv, false, &r1, &u1) : NULL;
		if (b && (!strcmp(r0, "<") || !strcmp(r0, "<=")) && (!strcmp(r1, "<") || !strcmp(r1, "<="))) {
			a = r0[1] ? plus_one(ps, a) : a;
			b = r1[1] ? plus_one(ps, b) : b;
			r = ex_cond(ps->prog, ex_bin(ps->prog, OP_LT, a, b, oploc), ex_copy(ps->prog, a), ex_copy(ps->prog, b), oploc);
			*rel = "<";
			*uns = u0 || u1;
		} else if (b) {
			fail(ps, oploc, "a loop condition with two ends must bound the iterator from above in both ('v < a && v <= b', read as 'v < min(a, b + 1)'); %s", canonical_loop_help);
		}
		vec_free(cc);
		return r;
	}
	/* `hi > v` is `v < hi`: the iterator on the left, the other operand the end */
	const char *pop = "";
	CXCursor side[2] = {cc.n == 2 ? cc.v[0] : cond, cc.n == 2 ? cc.v[1] : cond};
	for (int i = 0; down && i < 2; i++)
		if (!clang_Cursor_isNull(step_operand(ps, cc.v[i], &pop)))
			side[i] = step_operand(ps, cc.v[i], &pop);
	int at = cc.n == 2 && refers_to(side[0], iv) ? 0 : cc.n == 2 && refers_to(side[1], iv) ? 1 : -1;
	static const char *const flipped[][2] = {{"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}, {"!=", "!="}};
	*rel = NULL;
	for (int i = 0; op && at >= 0 && i < 5; i++)
		if (!strcmp(op, flipped[i][0]))
			*rel = flipped[i][at];
	if (down && (!*rel || strcmp(*rel, ">") || strcmp(pop, "--")))
		fail(ps, oploc, "%s", countdown_help);
	else if (!*rel)
		fail(ps, loc_of(ps, cond), "the loop condition must compare the iterator with its end ('v < e', 'v <= e', 'v != e', 'e > v', or two ends 'v < a && v <= b'); %s", canonical_loop_help);
	else if ((r = convert_expr(ps, cc.v[1 - at])))
		/* `j < N` with N unsigned compares j unsigned: the same as int while j >= 0 */
		*uns = unsigned_size(clang_getCursorType(cc.v[at]));
	vec_free(cc);
	return r;
}

/* Copy of e with every subexpression equal to x replaced by a copy of to. */
static Expr *subst_equal(Program *p, const Expr *e, const Expr *x, const Expr *to)
{
	if (expr_equal(e, x))
		return ex_copy(p, to);
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = subst_equal(p, e->args[i], x, to);
	return c;
}

/* The terms of float sum e (its + tree, left to right) into t, *n of them, at most max;
 * false if there are more. */
static bool float_terms(Expr *e, Expr **t, int *n, int max)
{
	if (e->kind == EX_BIN && e->bop == OP_ADD && scalar_is_float(e->ty))
		return float_terms(e->args[0], t, n, max) && float_terms(e->args[1], t, n, max);
	if (*n == max)
		return false;
	t[(*n)++] = e;
	return true;
}

/* Whether t is term 0 read at v + r: t0 with `at` (what v is, lo + vb * S) read as at + r. */
static bool shifted_term(Program *p, const Expr *t0, const Expr *t, const Expr *at, int r)
{
	if (!r)
		return true;
	Expr *plus = ex_bin(p, OP_ADD, ex_copy(p, at), ex_int(p, r, at->loc), at->loc);
	return expr_equal(subst_equal(p, t0, at, plus), t);
}

/* Block loop s's range as the loop stepping by one over what its blocks of S cover:
 * from first to first + S * (blocks). */
static void roll_range(Program *p, Stmt *s, Expr *first, long long S)
{
	Expr *span = ex_bin(p, OP_MUL, s->hi, ex_int(p, S, s->loc), s->loc);
	if (s->hi->kind == EX_INT)
		span = ex_int(p, s->hi->ival * S, s->loc);
	s->hi = first->kind == EX_INT && span->kind == EX_INT ? ex_int(p, first->ival + span->ival, s->loc)
	        : first->kind == EX_INT && first->ival == 0 ? span : ex_bin(p, OP_ADD, ex_copy(p, first), span, s->loc);
	s->lo = ex_copy(p, first);
}

/* Block loop s (iterator vb, v, called name, read as at = first + vb * S) unrolled by hand, rolled back
 * into a loop stepping by one over v from first to first + S * (blocks), which is every
 * v the unrolled loop read (it reads v + S - 1 in its last block, as this loop does):
 *   one sum of S terms, the r-th term the first read at v + r:
 *     `s += q[d] * k[d] + q[d + 1] * k[d + 1] + ...` -> `s += q[d] * k[d]`;
 *   S sums, the r-th adding that term to partial sum r (s0 += ..., s3 += q[d + 3] * ...):
 *     all terms go to the first partial, and merge_partials then reads the partials'
 *     sum after the loop as the first alone (or refuses).
 * Exact up to the order of the float additions. Anything else stays a block loop. */
static void reroll(Parser *ps, Stmt *s, Expr *first, const Expr *at, long long S, const char *name)
{
	Program *p = ps->prog;
	int n;
	Stmt **b = s->body[0]->kind == ST_BLOCK ? s->body[0]->body : s->body, *one = s->body[0];
	n = s->body[0]->kind == ST_BLOCK ? s->body[0]->nbody : 1;
	if (S > 16 || !n)
		return;
	Expr *t[16];
	Partials part = {0};
	/* S statements, the r-th statement 0 at v + r, elements included (`acc[d] += p *
	 * v[j][d]; acc[d + 1] += p * v[j][d + 1];`, a P.V unrolled by hand): the loop stepping
	 * by one runs the same statements in the same order, exactly */
	bool elems = n == S && n > 1;
	for (int r = 0; elems && r < n; r++)
		elems = b[r]->kind == ST_ASSIGN && b[r]->lhs->kind == EX_INDEX && b[r]->aop == b[0]->aop && expr_reads_var(b[0]->lhs, s->var) &&
		        shifted_term(p, b[0]->lhs, b[r]->lhs, at, r) && shifted_term(p, b[0]->rhs, b[r]->rhs, at, r);
	if (elems) {
		Var *v = var_new(p, VAR_LOOP, name, TY_INT, s->var->loc);
		Stmt *st = st_new(p, ST_ASSIGN, b[0]->loc);
		st->lhs = subst_equal(p, b[0]->lhs, at, ex_var(p, v, s->loc));
		st->rhs = subst_equal(p, b[0]->rhs, at, ex_var(p, v, s->loc));
		st->aop = b[0]->aop;
		if (stmt_reads_var(st, s->var))
			return;
		roll_range(p, s, first, S);
		s->var = v;
		st_set_body(p, s, &st, 1);
		return;
	}
	if (n == 1 && one->kind == ST_ASSIGN && one->aop == AS_ADD && scalar_is_float(one->lhs->ty)) {
		int nt = 0;
		if (!float_terms(one->rhs, t, &nt, 16) || nt != S)
			return;
	} else if (n == S) {
		for (int r = 0; r < n; r++) {
			if (b[r]->kind != ST_ASSIGN || b[r]->aop != AS_ADD || b[r]->lhs->kind != EX_VAR || b[r]->lhs->var->kind != VAR_LOCAL || !scalar_is_float(b[r]->lhs->ty))
				return;
			for (int q = 0; q < r; q++)
				if (part.acc[q] == b[r]->lhs->var)
					return;
			part.acc[r] = b[r]->lhs->var;
			t[r] = b[r]->rhs;
		}
		for (int r = 0; r < n; r++)
			for (int q = 0; q < n; q++)
				if (expr_reads_var(t[r], part.acc[q]))
					return;
		part.n = n;
	} else {
		return;
	}
	if (!expr_reads_var(t[0], s->var))
		return;
	for (int r = 1; r < S; r++)
		if (!shifted_term(p, t[0], t[r], at, r))
			return;
	Var *v = var_new(p, VAR_LOOP, name, TY_INT, s->var->loc); /* v's name back */
	Expr *term = subst_equal(p, t[0], at, ex_var(p, v, s->loc));
	if (expr_reads_var(term, s->var))
		return;
	roll_range(p, s, first, S);
	s->var = v;
	Stmt *add = st_new(p, ST_ASSIGN, one->loc);
	add->lhs = ex_copy(p, part.n ? b[0]->lhs : one->lhs);
	add->aop = AS_ADD;
	add->rhs = term;
	st_set_body(p, s, &add, 1);
	if (part.n) {
		part.loop = s;
		vec_push(ps->partials, part);
	}
}

/* Whether e is a literal zero (perhaps converted). */
static bool zero_init(const Expr *e)
{
	while (e->kind == EX_CAST)
		e = e->args[0];
	return (e->kind == EX_INT && e->ival == 0) || (e->kind == EX_FLT && e->fval == 0.0);
}

/* e with each float sum that holds every partial of pt once as a term holding the first
 * alone; *bad set where a partial is read otherwise. */
static Expr *merge_sum(Program *p, Expr *e, const Partials *pt, bool *bad)
{
	Expr *t[64];
	int n = 0;
	if (e->kind == EX_BIN && e->bop == OP_ADD && scalar_is_float(e->ty) && float_terms(e, t, &n, 64)) {
		int seen[16] = {0}, found = 0;
		for (int i = 0; i < n; i++)
			for (int r = 0; r < pt->n; r++)
				if (t[i]->kind == EX_VAR && t[i]->var == pt->acc[r])
					found += !seen[r]++;
		bool all = found == pt->n;
		for (int r = 0; r < pt->n; r++)
			all &= seen[r] == 1;
		if (all) {
			Expr *sum = NULL;
			for (int i = 0; i < n; i++) {
				bool other = false;
				for (int r = 1; r < pt->n; r++)
					other |= t[i]->kind == EX_VAR && t[i]->var == pt->acc[r];
				if (!other)
					sum = sum ? ex_bin(p, OP_ADD, sum, t[i], e->loc) : t[i];
			}
			bool rest = false;
			for (int i = 0; i < n; i++)
				rest |= !(t[i]->kind == EX_VAR) && expr_reads_var(t[i], pt->acc[0]);
			for (int r = 1; r < pt->n; r++)
				for (int i = 0; i < n; i++)
					rest |= t[i]->kind != EX_VAR && expr_reads_var(t[i], pt->acc[r]);
			*bad |= rest;
			return sum;
		}
	}
	if (e->kind == EX_VAR) {
		for (int r = 0; r < pt->n; r++)
			*bad |= e->var == pt->acc[r];
		return e;
	}
	Expr *c = ex_copy(p, e);
	for (int i = 0; i < c->nargs; i++)
		c->args[i] = merge_sum(p, e->args[i], pt, bad);
	return c;
}

/* merge_sum over every expression of s (a write of a partial sets *bad). */
static void merge_stmt(Program *p, Stmt *s, const Partials *pt, bool *bad)
{
	if (!s)
		return;
	for (int r = 0; r < pt->n; r++)
		*bad |= stmt_writes_var(s, pt->acc[r]);
	Expr **es[5] = {&s->lo, &s->hi, &s->lhs, &s->rhs, &s->cond};
	for (int i = 0; i < 5; i++)
		if (*es[i])
			*es[i] = merge_sum(p, *es[i], pt, bad);
	for (int i = 0; i < s->nbody; i++)
		merge_stmt(p, s->body[i], pt, bad);
}

/* The partial sums of the rolled loops in s (reroll): in the block holding such a loop,
 * the other partials are declared zero before it and unused between, and the statements
 * after it read the partials only added up together (`(s0 + s1) + (s2 + s3)`), which then
 * read the first alone: it holds every term now. Marks the loops done. */
static void merge_partials(Parser *ps, Stmt *s)
{
	if (!s || !ps->partials.n)
		return;
	for (int i = 0; i < s->nbody; i++)
		merge_partials(ps, s->body[i]);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++)
		for (int k = 0; k < ps->partials.n; k++) {
			Partials *pt = &ps->partials.v[k];
			if (pt->merged || s->body[i] != pt->loop)
				continue;
			bool bad = false;
			for (int r = 1; r < pt->n && !bad; r++) {
				int d = -1;
				for (int j = 0; j < i; j++)
					if (s->body[j]->kind == ST_DECL && s->body[j]->var == pt->acc[r])
						d = j;
				bad |= d < 0 || !s->body[d]->rhs || !zero_init(s->body[d]->rhs);
				for (int j = d + 1; !bad && j < i; j++)
					bad |= stmt_reads_var(s->body[j], pt->acc[r]) || stmt_writes_var(s->body[j], pt->acc[r]);
			}
			Program *p = ps->prog;
			for (int j = i + 1; j < s->nbody && !bad; j++)
				merge_stmt(p, s->body[j], pt, &bad); /* in place: refused when bad */
			pt->merged = true;
			if (bad)
				fail(ps, pt->loop->loc, "this loop, unrolled by hand into partial sums ('%s' ... '%s'), is read back as one loop (exact up to the order of the additions) only where each partial starts at zero in the same block and the statements after the loop read them only added up together ('(s0 + s1) + (s2 + s3)'): add them up so, or write one sum ('s += q[d] * k[d]' stepping by one)",
				     pt->acc[0]->name, pt->acc[pt->n - 1]->name);
		}
}

/* merge_partials over statements [from, to) of v, just converted; a rolled loop outside any block of
 * them is refused (its partials would be lost). */
static void finish_partials(Parser *ps, Stmt **v, int from, int to)
{
	for (int i = from; i < to; i++)
		merge_partials(ps, v[i]);
	for (int k = 0; k < ps->partials.n; k++)
		if (!ps->partials.v[k].merged)
			fail(ps, ps->partials.v[k].loop->loc,
			     "this loop, unrolled by hand into partial sums ('%s' ... '%s'), is read back as one loop only inside braces that also declare the partials and add them up after it: write one sum ('s += q[d] * k[d]' stepping by one)",
			     ps->partials.v[k].acc[0]->name, ps->partials.v[k].acc[ps->partials.v[k].n - 1]->name);
	ps->partials.n = 0;
}

/* `for (int v = lo; v < hi; v++) body` (or the other forms of canonical_loop_help):
 * anything else is refused. libclang omits the missing parts of a for, so a canonical
 * loop is exactly four children, and the count-down idiom `for (v = hi; v-- > lo;)`
 * three. A C89 iterator (`for (v = lo; ...)`, v declared before) is bound to a Var of
 * this loop alone. */
static Stmt *convert_for(Parser *ps, CXCursor c)
{
	CursorVec ch = children(c);
	LoopHead h = {loc_of(ps, c), clang_getNullCursor(), false, clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), 0};
	Stmt *s = NULL;
	if (ch.n == 4)
		h.init = ch.v[0], h.cond = ch.v[1], h.inc = ch.v[2], h.body = ch.v[3];
	else if (ch.n == 3 && steps_in_cond(ps, ch.v[1]))
		h.init = ch.v[0], h.cond = ch.v[1], h.body = ch.v[2];
	if (clang_Cursor_isNull(h.init))
		fail(ps, h.loc, "%s", canonical_loop_help);
	else
		h.own = clang_getCursorKind(h.init) == CXCursor_DeclStmt, s = convert_loop(ps, &h);
	vec_free(ch);
	return s;
}

/* The loop that head h describes (convert_for's contract). */
static Stmt *convert_loop(Parser *ps, const LoopHead *h)
{
	Loc loc = h->loc;
	if (ps->depth == MAX_LOOP_DEPTH)
		return fail(ps, loc, "loops nest more than %d deep here: a region may nest at most %d loops", MAX_LOOP_DEPTH, MAX_LOOP_DEPTH), NULL;
	Stmt *s = NULL;
	int bound = -1; /* the binding of a C89 iterator, undone after the loop */
	int binds_mark = ps->binds.n; /* a block loop binds its iterator to lo + vb * S */
	CXCursor iv = clang_getNullCursor(), lo_c = clang_getNullCursor();
	bool uns, init_ok = false;
	bool down = clang_Cursor_isNull(h->inc);
	if (h->own) {
		init_ok = declared_iterator(h->init, &iv, &lo_c);
	} else if (assigned_iterator(ps, h->init, &iv, &lo_c) || declared_iterator(h->init, &iv, &lo_c)) {
		IterDecl *it = iter_entry(ps, iv);
		CXString nm = clang_getCursorSpelling(iv);
		const char *name = arena_strdup(&ps->prog->arena, clang_getCString(nm));
		clang_disposeString(nm);
		Var *outer = lookup_var(ps, iv);
		if (it->outside) {
			if (!it->reported)
				fail(ps, it->out_loc,
				     "'%s' counts the loop at line %d and is also used here, outside the loops it counts: fusecc gives each 'for (%s = ...)' loop an iterator of its own, which keeps no value after the loop; use another local here (or read it inside the loop)",
				     name, loc.line, name);
			it->reported = ps->failed = true;
			goto out;
		}
		if (outer && outer->kind == VAR_LOOP) {
			fail(ps, loc_of(ps, h->init), "'%s' already counts a loop around this one: give this loop its own iterator", name);
			goto out;
		}
		init_ok = size_type(clang_getCursorType(iv), &uns);
	} else if (clang_getCursorKind(strip(h->init)) == CXCursor_BinaryOperator) {
		fail(ps, loc_of(ps, h->init), "the loop must start by assigning its iterator, a local integer ('for (v = lo; ...)'); %s", canonical_loop_help);
		goto out;
	}
	if (clang_Cursor_isNull(iv) && !init_ok) {
		fail(ps, loc, "%s", canonical_loop_help);
		goto out;
	}
	if (!init_ok) {
		fail(ps, loc_of(ps, h->init), "the loop must declare one integer iterator (int, long, size_t, unsigned, ...) with an initial value; %s", canonical_loop_help);
		goto out;
	}
	Expr *lo = convert_expr(ps, lo_c);
	if (!lo)
		goto out;
	const char *rel;
	bool iv_unsigned = false;
	Expr *hi = loop_end(ps, h->cond, iv, down, &rel, &iv_unsigned);
	if (!hi)
		goto out;
	if (!scalar_is_int(hi->ty) || !scalar_is_int(lo->ty)) {
		fail(ps, !scalar_is_int(hi->ty) ? hi->loc : lo->loc, "loop bounds must be integer expressions");
		goto out;
	}
	CursorVec hsteps = {0};
	int step = down ? -1 : unit_step(ps, h->inc, iv);
	if (!step && !down)
		step = header_steps(ps, h->inc, iv, &hsteps);
	/* `for (v = lo; v < hi; v += S)`, S a constant above one (a Triton port's key blocks,
	 * a chunk walk, a loop unrolled by hand): a loop over the blocks, its iterator vb from
	 * 0 while lo + vb * S is below hi, v read as lo + vb * S (below). */
	long long big = !step && !down ? const_step(ps, h->inc, iv) : 0;
	if (big && strcmp(rel, "<") && strcmp(rel, "<=")) {
		fail(ps, loc_of(ps, h->cond), "a loop stepping by %lld must end with 'v < hi' or 'v <= hi' ('v != hi' may step over its end)", big);
		goto out;
	}
	if (big)
		step = 1;
	if (!step && !down && clang_getCursorKind(strip(h->inc)) == CXCursor_CompoundAssignOperator) {
		CursorVec ic = children(strip(h->inc));
		Loc dummy;
		const char *op = ic.n == 2 && refers_to(ic.v[0], iv) ? binary_operator(ps, strip(h->inc), ic.v[0], &dummy) : NULL;
		vec_free(ic);
		if (op && !strcmp(op, "+=")) {
			fail(ps, loc_of(ps, h->inc), "the loop steps by a value that is not a positive constant: count its blocks by one instead, 'for (int b = 0; b < (hi - lo + S - 1) / S; b++)' with v = lo + b * S in the body (a step known when compiling, 'v += 4' or 'v += BLOCK_N', is read so by fusecc)");
			goto out;
		}
	}
	if (!step) {
		fail(ps, loc_of(ps, h->inc), "the loop must step by one or by a positive constant ('v += BLOCK', counting up); %s", canonical_loop_help);
		goto out;
	}
	/* `v != e` ends the loop where `v < e` (counting up) or `v > e` (down) would: it
	 * runs forever otherwise. */
	if (!strcmp(rel, "!="))
		rel = step > 0 ? "<" : ">";
	if ((step > 0) != (rel[0] == '<')) {
		fail(ps, loc_of(ps, h->cond), "the loop counts %s while its condition wants the iterator %s its end: it never runs or never ends; %s", step > 0 ? "up" : "down", step > 0 ? "above" : "below", canonical_loop_help);
		goto out;
	}
	if (iv_unsigned && step > 0 && !nonneg(ps, lo)) {
		fail(ps, lo->loc, "the loop compares its iterator unsigned (its end is unsigned), which C does not do as int when the iterator starts below zero, and fusecc cannot show this start is never negative: compare in int ('v < (int)N')");
		goto out;
	}
	if (iv_unsigned && step < 0 && !down && (strcmp(rel, ">") || !nonneg(ps, hi))) {
		fail(ps, loc_of(ps, h->cond), "the loop counts an unsigned iterator down to a condition fusecc cannot show stops it above zero (C wraps the iterator around below zero): count up ('for (v = lo; v < hi; v++)'), or end it with 'v > e'");
		goto out;
	}
	/* The range as [lo, hi): `v <= e` ends at e + 1; a loop counting down from lo to
	 * `v > e` (`v >= e`) covers [e + 1, lo + 1) ([e, lo + 1)), which it runs upward when
	 * its iterations may run in any order (checked on the body below). The idiom `for (v =
	 * hi; v-- > e;)` tests before it steps: its body sees [e, hi), even unsigned. */
	if (down) {
		Expr *top = lo;
		lo = hi;
		hi = top;
	} else if (step < 0) {
		/* `for (v = N - 1; ...)` ends at N, not N - 1 + 1 */
		Expr *top = lo;
		lo = !strcmp(rel, ">") ? plus_one(ps, hi) : hi;
		hi = top->kind == EX_BIN && top->bop == OP_SUB && top->args[1]->kind == EX_INT && top->args[1]->ival == 1 ? top->args[0] : plus_one(ps, top);
	} else if (!strcmp(rel, "<=")) {
		hi = plus_one(ps, hi);
	}
	Expr *first_v = lo; /* a block loop's first value of v, which then counts blocks */
	if (big) {
		/* ceil((hi - lo) / S) blocks; none where hi <= lo (C's division truncates) */
		Expr *span = lo->kind == EX_INT && lo->ival == 0 ? hi : ex_bin(ps->prog, OP_SUB, hi, ex_copy(ps->prog, lo), loc);
		hi = span->kind == EX_INT ? ex_int(ps->prog, span->ival > 0 ? (span->ival + big - 1) / big : 0, loc)
		                          : ex_bin(ps->prog, OP_DIV, ex_bin(ps->prog, OP_ADD, span, ex_int(ps->prog, big - 1, loc), loc), ex_int(ps->prog, big, loc), loc);
		lo = ex_int(ps->prog, 0, loc);
	}
	/* Bind the iterator only now: its bounds may not mention it. */
	CXString nm = clang_getCursorSpelling(iv);
	/* a C89 iterator is located where its loop assigns it, not where it was declared */
	Loc vloc = h->own ? loc_of_location(ps, clang_getCursorLocation(iv)) : loc_of(ps, h->init);
	/* A block loop keeps the iterator's name: clauses name it (rolling(j)), and sibling
	 * loops over the same blocks share it, as loops over one axis do. */
	const char *vname = local_name(ps, clang_getCString(nm)), *iv_name = vname;
	Var *v = var_new(ps->prog, VAR_LOOP, vname, TY_INT, vloc);
	v->block_step = (long)big;
	clang_disposeString(nm);
	if (!h->own)
		bound = ps->vars.n;
	bind_var(ps, iv, v);
	if (nonneg(ps, lo))
		vec_push(ps->nonneg, v);
	binds_mark = ps->binds.n;
	if (big) {
		Expr *at = ex_bin(ps->prog, OP_MUL, ex_var(ps->prog, v, loc), ex_int(ps->prog, big, loc), loc);
		if (!(first_v->kind == EX_INT && first_v->ival == 0))
			at = ex_bin(ps->prog, OP_ADD, ex_copy(ps->prog, first_v), at, loc);
		vec_push(ps->binds, ((InlineBinding){iv, at}));
	}
	LoopCtx outer_loop = ps->loop;
	ps->loop = (LoopCtx){v, step, ps->vars.n, &hi, &outer_loop};
	CXCursor first = clang_Cursor_isNull(h->init) ? h->cond : h->init;
	unsigned from = offset_of(clang_getRangeStart(clang_getCursorExtent(first))), to = offset_of(clang_getRangeEnd(clang_getCursorExtent(h->body)));
	int walks = walk_begin(ps, h->body, &hsteps, from, to, v, lo, step);
	vec_free(hsteps);
	ps->depth++;
	Stmt *body = convert_loop_body(ps, h->body, h->drop);
	ps->depth--;
	walk_end(ps, walks, body, v, ps->loop.first, loc);
	ps->loop = outer_loop;
	if (!body)
		goto out;
	bool recheck = false;
	if (step < 0) {
		Loc why;
		if (!reversible(body, v, &why) && !(recheck = writes_flat(body))) {
			fail(ps, why, COUNTS_DOWN);
			goto out;
		}
	}
	s = st_new(ps->prog, ST_FOR, loc);
	s->var = v;
	s->lo = lo;
	s->hi = hi;
	s->step = 1;
	/* `for (...) { x = e; }` is `for (...) x = e;`: the matchers downstream see one shape. */
	while (body->kind == ST_BLOCK && body->nbody == 1 && body->body[0]->kind != ST_DECL)
		body = body->body[0];
	st_set_body(ps->prog, s, &body, 1);
	if (big)
		reroll(ps, s, first_v, ps->binds.v[binds_mark].value, big, iv_name);
	if (recheck)
		vec_push(ps->reversals, s);
out:
	ps->binds.n = binds_mark;
	if (bound >= 0)
		ps->vars.v[bound].decl = clang_getNullCursor();
	return s;
}

/* Whether a statement of c (loops inside it left out) is a `continue`. */
static enum CXChildVisitResult find_continue(CXCursor c, CXCursor parent, CXClientData found)
{
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ContinueStmt)
		*(bool *)found = true;
	bool loop = k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt;
	return *(bool *)found ? CXChildVisit_Break : loop ? CXChildVisit_Continue : CXChildVisit_Recurse;
}

/* Whether ch->v[i] and ch->v[i + 1] are a counted while, `int v = lo;` (or `v = lo;`)
 * then `while (cond) { ...; v++; }` with the step (any of unit_step's) last: *h gets it
 * as a loop whose body leaves the step out. The condition and the rest of the body are
 * checked as a for's are (convert_loop): nothing else may step v. */
static bool counted_while(Parser *ps, const CursorVec *ch, int i, LoopHead *h)
{
	if (i + 1 >= ch->n || clang_getCursorKind(ch->v[i + 1]) != CXCursor_WhileStmt)
		return false;
	CXCursor iv, lo;
	if (!assigned_iterator(ps, ch->v[i], &iv, &lo) && !declared_iterator(ch->v[i], &iv, &lo))
		return false;
	CursorVec w = children(ch->v[i + 1]);
	CursorVec b = w.n == 2 && clang_getCursorKind(w.v[1]) == CXCursor_CompoundStmt ? children(w.v[1]) : (CursorVec){0};
	bool ok = b.n >= 1 && unit_step(ps, b.v[b.n - 1], iv);
	if (ok)
		*h = (LoopHead){loc_of(ps, ch->v[i + 1]), ch->v[i], false, w.v[0], b.v[b.n - 1], w.v[1], 1};
	vec_free(b);
	vec_free(w);
	return ok;
}

/* The counted while at ch->v[i] (counted_while's h): refused where a `continue` would skip
 * its step. */
static Stmt *convert_while(Parser *ps, const LoopHead *h)
{
	bool cont = false;
	clang_visitChildren(h->body, find_continue, &cont);
	if (cont)
		return fail(ps, h->loc, "this while loop steps its iterator last, which a 'continue' in its body skips (a for loop steps after 'continue'): write it as a for loop, or guard the statements instead of 'continue'"), NULL;
	return convert_loop(ps, h);
}

static const char alias_help[] = "a pointer local must point into an array parameter: 'const float *qi = q + i * D;', '= &q[b][h][i][0];' or '= x[t];' (a row of x[T][V])";

/* *a points at v's first element: v's leading subscripts 0 (at least one slot), no offset. */
static void alias_row_start(Parser *ps, PtrAlias *a, Var *v, Loc loc)
{
	a->base = v, a->nlead = v->ndim - 1, a->off = NULL;
	a->lead = arena_alloc(&ps->prog->arena, sizeof(Expr *) * (size_t)(a->nlead ? a->nlead : 1));
	for (int i = 0; i < a->nlead; i++)
		a->lead[i] = ex_int(ps->prog, 0, loc);
}

/* Where pointer expression e points: *a gets its base array, leading subscripts and
 * offset. False (reported) if e is not an array parameter, a pointer local, a row of an
 * array, an element's address, or one of those plus or minus an integer. */
static bool convert_pointer(Parser *ps, CXCursor e, PtrAlias *a)
{
	e = strip(e);
	Loc loc = loc_of(ps, e);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_CStyleCastExpr) { /* (const float *)q */
		CursorVec ch = children(e);
		bool ok = ch.n >= 1 && clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Pointer && convert_pointer(ps, ch.v[ch.n - 1], a);
		if (!ok && ch.n < 1)
			fail(ps, loc, alias_help);
		vec_free(ch);
		return ok;
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		const PtrAlias *al = lookup_alias(ps, d);
		if (al && walked_read(ps, al, loc))
			return false;
		if (al) {
			*a = (PtrAlias){a->decl, al->base, al->nlead, al->lead, al->off}; /* the alias keeps its own declaration */
			return true;
		}
		Var *v = lookup_var(ps, d);
		if (v && (v->kind == VAR_PARAM || ps->alias_locals) && v->ndim == 1) {
			a->base = v, a->nlead = 0, a->lead = NULL, a->off = NULL;
			return true;
		}
		if (v && (v->kind == VAR_PARAM || ps->alias_locals) && v->ndim > 1 && is_array_kind(clang_getCanonicalType(clang_getCursorType(e)).kind)) {
			/* a whole matrix passed as its rows (`softmax_rows(N, N, S)` to `float X[n][m]`): &S[0][0] */
			alias_row_start(ps, a, v, loc);
			return true;
		}
		return fail(ps, loc, alias_help), false;
	}
	bool addr = false;
	if (k == CXCursor_UnaryOperator) {
		CXToken *toks;
		unsigned n;
		clang_tokenize(ps->tu, clang_getCursorExtent(e), &toks, &n);
		addr = n && !strcmp(token_text(ps, toks[0]), "&");
		clang_disposeTokens(ps->tu, toks, n);
		CursorVec ch = children(e);
		if (addr && ch.n == 1)
			e = strip(ch.v[0]), k = clang_getCursorKind(e);
		vec_free(ch);
		Var *s = addr && k == CXCursor_DeclRefExpr && ps->alias_locals ? lookup_var(ps, clang_getCursorReferenced(e)) : NULL;
		if (s && s->kind == VAR_LOCAL && !s->ndim) { /* a helper's out-parameter */
			*a = (PtrAlias){.decl = a->decl, .scalar = s};
			return true;
		}
		if (!addr || k != CXCursor_ArraySubscriptExpr)
			return fail(ps, loc, alias_help), false;
	}
	if (k == CXCursor_ArraySubscriptExpr) {
		/* x[t] of x[T][V] (a row), or &q[...][d] (an element): subscripts down to a
		 * parameter, the last one the offset when the element's address is taken. */
		CXCursor idx[16], cur = e;
		int n = 0;
		while (clang_getCursorKind(cur) == CXCursor_ArraySubscriptExpr && n < 16) {
			CursorVec ch = children(cur);
			if (ch.n != 2) {
				vec_free(ch);
				break;
			}
			idx[n++] = ch.v[1];
			cur = strip(ch.v[0]);
			vec_free(ch);
		}
		Var *v = clang_getCursorKind(cur) == CXCursor_DeclRefExpr ? lookup_var(ps, clang_getCursorReferenced(cur)) : NULL;
		const PtrAlias *al = clang_getCursorKind(cur) == CXCursor_DeclRefExpr ? lookup_alias(ps, clang_getCursorReferenced(cur)) : NULL;
		if (al && addr && n == 1) { /* &qi[d] */
			Expr *o = convert_expr(ps, idx[0]);
			if (!o)
				return false;
			*a = (PtrAlias){a->decl, al->base, al->nlead, al->lead, al->off}; /* the alias keeps its own declaration */
			a->off = add_offset(ps, a->off, o, OP_ADD, loc);
			return true;
		}
		/* `(const float *)k[b][h]` of k[B][H][N][D]: a sub-array cast to its elements'
		 * pointer, &k[b][h][0][0] */
		bool sub = v && !addr && n < v->ndim - 1 && is_array_kind(clang_getCanonicalType(clang_getCursorType(e)).kind);
		if (!v || (v->kind != VAR_PARAM && !ps->alias_locals) || (n != v->ndim - !addr && !sub))
			return fail(ps, loc, alias_help), false;
		alias_row_start(ps, a, v, loc);
		for (int i = 0; i < n; i++) {
			Expr *x = convert_expr(ps, idx[n - 1 - i]);
			if (!x)
				return false;
			if (i < a->nlead)
				a->lead[i] = x;
			else
				a->off = x;
		}
		return true;
	}
	if (k == CXCursor_BinaryOperator) {
		CursorVec ch = children(e);
		bool ok = false;
		if (ch.n == 2) {
			Loc oploc;
			const char *op = binary_operator(ps, e, ch.v[0], &oploc);
			/* libclang types an array parameter's name as the array written
			 * (`q[T * H * 64]`), not the pointer C adjusts it to */
			enum CXTypeKind k0 = clang_getCanonicalType(clang_getCursorType(ch.v[0])).kind;
			int ptr = k0 == CXType_Pointer || is_array_kind(k0) ? 0 : 1;
			if (!op || !(!strcmp(op, "+") || (!strcmp(op, "-") && ptr == 0)))
				fail(ps, loc, alias_help);
			else if (convert_pointer(ps, ch.v[ptr], a)) {
				Expr *o = convert_expr(ps, ch.v[1 - ptr]);
				if (o && !scalar_is_int(o->ty))
					fail(ps, o->loc, "a pointer offset must be an integer expression");
				else if (o) {
					a->off = add_offset(ps, a->off, o, !strcmp(op, "-") ? OP_SUB : OP_ADD, oploc);
					ok = true;
				}
			}
		}
		vec_free(ch);
		return ok;
	}
	return fail(ps, loc, alias_help), false;
}

/* Whether initialiser c is all zeros: `{0}`, `{0.0f}`, `{}`, `{{0}}`, zero literals. */
static bool zero_initialiser(CXCursor c)
{
	c = strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_InitListExpr) {
		CursorVec ch = children(c);
		bool zero = true;
		for (int i = 0; i < ch.n && zero; i++)
			zero = zero_initialiser(ch.v[i]);
		vec_free(ch);
		return zero;
	}
	if (k != CXCursor_IntegerLiteral && k != CXCursor_FloatingLiteral)
		return false;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	bool zero = r && (k == CXCursor_IntegerLiteral ? clang_EvalResult_getAsLongLong(r) == 0 : clang_EvalResult_getAsDouble(r) == 0.0);
	if (r)
		clang_EvalResult_dispose(r);
	return zero;
}

/* Whether no identifier of the function being converted, nor a variable bound so far,
 * is spelled `name`. */
static bool name_unused(Parser *ps, const char *name)
{
	for (int i = 0; i < ps->vars.n; i++)
		if (!strcmp(ps->vars.v[i].var->name, name))
			return false;
	CXToken *toks;
	unsigned n;
	clang_tokenize(ps->tu, ps->fn_extent, &toks, &n);
	bool unused = true;
	for (unsigned i = 0; i < n && unused; i++) {
		if (clang_getTokenKind(toks[i]) == CXToken_Punctuation && i + 1 < n && !strcmp(token_text(ps, toks[i]), "#") &&
		    !strcmp(token_text(ps, toks[i + 1]), "pragma")) {
			/* a pragma's names are no variables: `rolling(j)` may name a helper's loop j,
			 * which keeps its name then */
			unsigned line, l2;
			clang_getSpellingLocation(clang_getTokenLocation(ps->tu, toks[i]), NULL, &line, NULL, NULL);
			while (i + 1 < n && (clang_getSpellingLocation(clang_getTokenLocation(ps->tu, toks[i + 1]), NULL, &l2, NULL, NULL), l2 == line))
				i++;
			continue;
		}
		if (clang_getTokenKind(toks[i]) == CXToken_Identifier) {
			CXString t = clang_getTokenSpelling(ps->tu, toks[i]);
			unused = strcmp(clang_getCString(t), name) != 0;
			clang_disposeString(t);
		}
	}
	clang_disposeTokens(ps->tu, toks, n);
	return unused;
}

/* `T a[D0][D1] = {0};` after its declaration: the loops that assign zero to every
 * element, `for (int a_i0 = 0; a_i0 < D0; a_i0++) for (...) a[a_i0][a_i1] = 0;`, with
 * iterator names no identifier of the function has. The loops run over the n extents
 * ext, a's dims or, for a one-dimensional a of their product (a calloc'd `a[N * N]`),
 * its factors, the subscript then `a_i0 * N + a_i1`, which flat.c reads as it reads a's
 * other subscripts. */
static Stmt *zero_fill(Parser *ps, Var *a, Expr *const *ext, int n, Loc loc)
{
	Expr *idx[16];
	Var *iv[16];
	for (int d = 0; d < n; d++) {
		char *name = arena_printf(&ps->prog->arena, "%s_i%d", a->name, d);
		for (int k = 1; !name_unused(ps, name); k++)
			name = arena_printf(&ps->prog->arena, "%s_i%d_%d", a->name, d, k);
		iv[d] = var_new(ps->prog, VAR_LOOP, name, TY_INT, loc);
		idx[d] = ex_var(ps->prog, iv[d], loc);
		if (d && n != a->ndim) /* ((i0 * e1 + i1) * e2 + i2) ... */
			idx[0] = ex_bin(ps->prog, OP_ADD, ex_bin(ps->prog, OP_MUL, idx[0], ex_copy(ps->prog, ext[d]), loc), idx[d], loc);
	}
	Expr *zero = scalar_is_int(a->ty) ? ex_int(ps->prog, 0, loc)
	             : a->ty == TY_FLOAT || a->ty == TY_DOUBLE ? ex_flt(ps->prog, 0.0, a->ty, loc)
	                                                       : ex_cast(ps->prog, a->ty, ex_flt(ps->prog, 0.0, TY_FLOAT, loc), loc);
	Stmt *s = st_new(ps->prog, ST_ASSIGN, loc);
	s->lhs = ex_index(ps->prog, a, idx, loc);
	s->rhs = zero;
	s->aop = AS_SET;
	for (int d = n - 1; d >= 0; d--) {
		Stmt *f = st_new(ps->prog, ST_FOR, loc);
		f->var = iv[d];
		f->lo = ex_int(ps->prog, 0, loc);
		f->hi = ex_copy(ps->prog, ext[d]);
		f->step = 1;
		st_set_body(ps->prog, f, &s, 1);
		s = f;
	}
	return s;
}

/* A declaration statement appends one ST_DECL per declared variable to *out. C allows
 * declarations only directly in blocks, so only convert_block calls this. */
static bool convert_decl(Parser *ps, CXCursor c, StmtVec *out)
{
	CursorVec ch = children(c);
	bool ok = false;
	for (int i = 0; i < ch.n; i++) {
		CXCursor d = ch.v[i];
		Loc loc = loc_of(ps, d);
		if (clang_getCursorKind(d) != CXCursor_VarDecl) {
			fail(ps, loc, "only variable declarations are supported in a fuse region");
			goto out;
		}
		if (iterator_only(ps, d))
			continue; /* each loop it counts binds an iterator of its own */
		if (clang_Cursor_getStorageClass(d) == CX_SC_Static || clang_Cursor_getStorageClass(d) == CX_SC_Extern) {
			/* `static const int head_dim = 256;`: its value, read where it is used (file_constant) */
			if (clang_Cursor_getStorageClass(d) == CX_SC_Static && file_constant(ps, d, loc))
				continue;
			fail(ps, loc, "static and extern locals are not supported in fusecc's input (only a 'static const' int, float or double with a constant value)");
			goto out;
		}
		if (clang_getCanonicalType(clang_getCursorType(d)).kind == CXType_Pointer) {
			CXCursor init = last_expression(d);
			PtrAlias a = {d, NULL, 0, NULL, NULL};
			if (clang_Cursor_isNull(init)) {
				fail(ps, loc, alias_help);
				goto out;
			}
			int heap = heap_local(ps, d, init, out);
			if (heap < 0)
				goto out;
			if (heap)
				continue;
			bool good = convert_pointer(ps, init, &a);
			if (!good)
				a.base = NULL; /* its uses fail quietly: the declaration was reported */
			a.depth = ps->depth;
			vec_push(ps->aliases, a);
			if (!good)
				goto out;
			continue;
		}
		bool is_array = is_array_kind(clang_getCanonicalType(clang_getCursorType(d)).kind);
		/* `const int head_size = 128;`: the constant it names, as a #define would (C never
		 * changes it), so that arrays it sizes have a constant size for the GPU. */
		bool uns;
		if (!is_array && clang_isConstQualifiedType(clang_getCursorType(d)) && size_type(clang_getCursorType(d), &uns)) {
			CXCursor init = last_expression(d);
			CXEvalResult r = clang_Cursor_isNull(init) ? NULL : clang_Cursor_Evaluate(init);
			bool folded = r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) >= INT_MIN && clang_EvalResult_getAsLongLong(r) <= INT_MAX;
			if (folded)
				vec_push(ps->binds, ((InlineBinding){d, ex_int(ps->prog, clang_EvalResult_getAsLongLong(r), loc)}));
			if (r)
				clang_EvalResult_dispose(r);
			if (folded)
				continue;
		}
		/* Find the initialiser before declaring: an array's extents are children too. */
		CursorVec dc = children(d);
		CXCursor init = clang_getNullCursor();
		for (int j = 0; j < dc.n; j++)
			if (is_array ? clang_getCursorKind(dc.v[j]) == CXCursor_InitListExpr : clang_isExpression(clang_getCursorKind(dc.v[j])))
				init = dc.v[j];
		vec_free(dc);
		Expr *e = NULL;
		if (!is_array && !clang_Cursor_isNull(init) && !(e = convert_expr(ps, init))) {
			declare_var(ps, d, VAR_LOCAL); /* declared all the same: its uses are not reported again */
			goto out;
		}
		Var *v = declare_var(ps, d, VAR_LOCAL);
		if (!v || (e && !unsigned_store(ps, v, AS_SET, e)))
			goto out;
		/* `const int hk = h / n_gqa;`: never negative, as what it is set to (C never
		 * changes it), so that a size_t offset may read it */
		if (!is_array && e && scalar_is_int(v->ty) && clang_isConstQualifiedType(clang_getCursorType(d)) && nonneg(ps, e))
			vec_push(ps->nonneg, v);
		if (is_array && !clang_Cursor_isNull(init) && !zero_initialiser(init)) {
			/* declared all the same: its uses are not reported again */
			fail(ps, loc_of(ps, init), "array initialisers other than zeros ('= {0}', '= {}') are not supported: assign the elements in a loop");
			goto out;
		}
		Stmt *s = st_new(ps->prog, ST_DECL, loc);
		s->var = v;
		s->rhs = e;
		/* the bodies of the helpers its initialiser calls go before it */
		for (int k = 0; ps->pre && k < ps->pre->n; k++)
			vec_push(*out, ps->pre->v[k]);
		if (ps->pre)
			ps->pre->n = 0;
		vec_push(*out, s);
		if (!is_array && e && clang_isConstQualifiedType(clang_getCursorType(d)))
			vec_push(ps->consts, s);
		if (is_array && !clang_Cursor_isNull(init))
			vec_push(*out, zero_fill(ps, v, v->dims, v->ndim, loc));
	}
	ok = true;
out:
	vec_free(ch);
	return ok;
}

/* The statement `lhs aop rhs`, or NULL with the reason reported: iterators, parameters
 * and const arrays are not assigned. */
static Stmt *assign_stmt(Parser *ps, Loc loc, Expr *lhs, AssignOp aop, Expr *rhs)
{
	if (lhs->kind != EX_VAR && lhs->kind != EX_INDEX) /* a block loop's iterator, lo + vb * S */
		return fail(ps, loc, "only a local, an array element or a helper's local may be assigned here (a loop's iterator may not be)"), NULL;
	if (lhs->kind == EX_VAR && lhs->var->field_of)
		return fail(ps, loc, "field '%s' of struct parameter '%s' may not be assigned: the fields are values of the function; write results to arrays", lhs->var->field, lhs->var->field_of->name), NULL;
	if (lhs->kind == EX_VAR && lhs->var->kind != VAR_LOCAL)
		return fail(ps, loc, lhs->var->kind == VAR_LOOP ? "the loop iterator '%s' may not be assigned" : "parameter '%s' may not be assigned: write results to arrays", lhs->var->name), NULL;
	if (lhs->kind == EX_INDEX && lhs->var->is_const)
		return fail(ps, loc, "'%s' is const", lhs->var->name), NULL;
	if (lhs->kind == EX_VAR && !unsigned_store(ps, lhs->var, aop, rhs))
		return NULL;
	Stmt *s = st_new(ps->prog, ST_ASSIGN, loc);
	s->lhs = lhs;
	s->rhs = rhs;
	s->aop = aop;
	return fma_step(ps->prog, s); /* x = fmaf(a, b, x): x += a * b */
}

static Stmt *convert_assign(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c), oploc = loc;
	CursorVec ch = children(c);
	Stmt *s = NULL;
	const char *op = ch.n == 2 ? binary_operator(ps, c, ch.v[0], &oploc) : NULL;
	static const char *const ops[] = {"=", "+=", "-=", "*=", "/="};
	int aop = -1;
	for (int i = 0; op && i < 5; i++)
		if (!strcmp(op, ops[i]))
			aop = i;
	if (!op) {
		fail(ps, oploc, "%s", macro_operator_help);
	} else if (aop < 0) {
		fail(ps, oploc, clang_getCursorKind(c) == CXCursor_BinaryOperator ? "expression statement has no effect: a statement must be an assignment" : "operator '%s' is not supported in a fuse region", op);
	} else {
		Expr *lhs = convert_expr(ps, ch.v[0]);
		Expr *rhs = lhs ? convert_expr(ps, ch.v[1]) : NULL;
		if (rhs)
			s = assign_stmt(ps, loc, lhs, (AssignOp)aop, rhs);
	}
	vec_free(ch);
	return s;
}

/* `x++;`, `++x;` as a statement: `x += 1;` (`--`: `-= 1`), as counters are written. */
__attribute__((noinline)) static Stmt *convert_incdec(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	CXToken *toks;
	unsigned n;
	clang_tokenize(ps->tu, clang_getCursorExtent(c), &toks, &n);
	int aop = -1;
	for (unsigned i = 0; n && i < 2; i++) {
		const char *t = token_text(ps, toks[i ? n - 1 : 0]);
		aop = !strcmp(t, "++") ? AS_ADD : !strcmp(t, "--") ? AS_SUB : aop;
	}
	clang_disposeTokens(ps->tu, toks, n);
	CursorVec ch = children(c);
	Stmt *s = NULL;
	if (aop < 0 || ch.n != 1) {
		fail(ps, loc, "expression statement has no effect: a statement must be an assignment");
	} else {
		Expr *lhs = convert_expr(ps, ch.v[0]);
		if (lhs)
			s = assign_stmt(ps, loc, lhs, (AssignOp)aop, ex_int(ps->prog, 1, loc));
	}
	vec_free(ch);
	return s;
}

/* ---- guards that bound a loop's iterator ---- */

typedef VEC(Stmt *) LoopVec;

static void collect_loops(Stmt *s, LoopVec *out)
{
	if (!s)
		return;
	if (s->kind == ST_FOR)
		vec_push(*out, s);
	for (int i = 0; i < s->nbody; i++)
		collect_loops(s->body[i], out);
}

/* The end that conjunct c puts on iterator v, `v < e` (also `v <= e`, `e > v`, `e >= v`)
 * as e (exclusive); NULL if c is no such bound. */
static Expr *upper_bound_of(Program *p, const Expr *c, const Var *v)
{
	if (c->kind != EX_BIN || !scalar_is_int(c->args[0]->ty) || !scalar_is_int(c->args[1]->ty))
		return NULL;
	BinOp op = c->bop;
	const Expr *l = c->args[0], *r = c->args[1];
	if (r->kind == EX_VAR && r->var == v) {
		const Expr *t = l;
		l = r;
		r = t;
		op = binop_mirror(op);
	}
	if (l->kind != EX_VAR || l->var != v || expr_reads_var(r, v) || (op != OP_LT && op != OP_LE))
		return NULL;
	Expr *e = ex_copy(p, r);
	return op == OP_LT ? e : e->kind == EX_INT ? ex_int(p, e->ival + 1, e->loc) : ex_bin(p, OP_ADD, e, ex_int(p, 1, e->loc), e->loc);
}

/* Whether e <= hi wherever a loop ending at hi runs inside the loops `outer`: e is hi, or
 * an outer iterator w, or w + 1, whose loop ends at hi (w < hi). */
static bool ends_within(const Expr *e, const Expr *hi, const LoopCtx *outer)
{
	if (expr_equal(e, hi))
		return true;
	if (e->kind == EX_BIN && e->bop == OP_ADD && e->args[1]->kind == EX_INT && e->args[1]->ival == 1)
		e = e->args[0];
	for (; e->kind == EX_VAR && outer && outer->var; outer = outer->up)
		if (outer->var == e->var && expr_equal(*outer->hi, hi))
			return true;
	return false;
}

/* The conjunct of guard *cond that bounds v above by an e that fits(e, ctx)
 * (upper_bound_of), taken out of *cond (NULL when it was the only one): e, or NULL when
 * no conjunct fits. */
static Expr *take_bound(Program *p, Expr **cond, const Var *v, bool (*fits)(const Expr *e, const void *ctx), const void *ctx)
{
	/* the conjuncts of the guard, left to right */
	const Expr *conj[16], *stack[16];
	int n = 0, sp = 0;
	stack[sp++] = *cond;
	while (sp) {
		const Expr *c = stack[--sp];
		if (c->kind == EX_BIN && c->bop == OP_LAND) {
			if (sp + 2 > 16)
				return NULL;
			stack[sp++] = c->args[1];
			stack[sp++] = c->args[0];
		} else if (n == 16) {
			return NULL;
		} else {
			conj[n++] = c;
		}
	}
	for (int k = 0; k < n; k++) {
		Expr *e = upper_bound_of(p, conj[k], v);
		if (!e || !fits(e, ctx))
			continue;
		Expr *rest = NULL;
		for (int i = 0; i < n; i++)
			if (i != k)
				rest = rest ? ex_bin(p, OP_LAND, rest, ex_copy(p, conj[i]), (*cond)->loc) : ex_copy(p, conj[i]);
		*cond = rest;
		return e;
	}
	return NULL;
}

typedef struct {
	const Expr *hi, *want;
	const LoopCtx *outer;
} WithinCtx;

static bool fits_within(const Expr *e, const void *ctx)
{
	const WithinCtx *w = ctx;
	return (!w->want || expr_equal(e, w->want)) && ends_within(e, w->hi, w->outer);
}

/* Narrows a loop over v ending at *hi, inside `outer`, whose iterations past a bound do
 * nothing: *cond is the guard of the rest of its body. A conjunct of it that bounds v
 * above by e, with e <= *hi (ends_within), becomes the loop's end, when `want` is NULL or
 * e equals it; *cond keeps the other conjuncts (NULL: none). False if none fits. */
static bool narrow_to_guard(Program *p, Expr **cond, const Var *v, Expr **hi, const LoopCtx *outer, const Expr *want)
{
	WithinCtx w = {*hi, want, outer};
	Expr *e = take_bound(p, cond, v, fits_within, &w);
	if (e)
		*hi = e;
	return e != NULL;
}

static bool written_after(const Expr *e, Stmt *const *body, int from, int n);

/* The if-guard (no else) that loop s's body is, after declarations only (`const int
 * seqlen = cu[b + 1] - cu[b]; if (i >= seqlen) break;` becomes such a body); NULL if
 * none. *blk: the block holding the declarations and the guard, or NULL. */
static Stmt *body_guard(const Stmt *s, Stmt **blk)
{
	Stmt *g = s->body[0];
	*blk = NULL;
	if (g->kind == ST_BLOCK && g->nbody > 1) {
		for (int i = 0; i + 1 < g->nbody; i++)
			if (g->body[i]->kind != ST_DECL)
				return NULL;
		*blk = g;
		g = g->body[g->nbody - 1];
	}
	return g->kind == ST_IF && g->nbody == 1 ? g : NULL;
}

/* Whether loop o's whole body is guarded by a conjunct `v < e` on its iterator v. */
static bool guarded_by(Program *p, const Stmt *o, const Expr *e)
{
	Stmt *blk;
	const Stmt *g = body_guard(o, &blk);
	if (!g)
		return false;
	const Expr *stack[16] = {g->cond};
	for (int sp = 1; sp;) {
		const Expr *c = stack[--sp];
		if (c->kind == EX_BIN && c->bop == OP_LAND && sp + 2 <= 16) {
			stack[sp++] = c->args[0];
			stack[sp++] = c->args[1];
			continue;
		}
		const Expr *u = upper_bound_of(p, c, o->var);
		if (u && expr_equal(u, e))
			return true;
	}
	return false;
}

typedef struct {
	Program *p;
	const Stmt *loop;   /* the guarded loop */
	const LoopVec *all; /* every loop of the region */
} ClampCtx;

/* The other loops of the region over loop c->loop's name and range: how many there are,
 * or -1 when one of them is not guarded by the bound e (guarded_by). */
static int siblings_guarded(const ClampCtx *c, const Expr *e)
{
	const Stmt *s = c->loop;
	int n = 0;
	for (int i = 0; i < c->all->n; i++) {
		const Stmt *o = c->all->v[i];
		if (o != s && !strcmp(o->var->name, s->var->name) && expr_equal(o->lo, s->lo) && expr_equal(o->hi, s->hi)) {
			if (!guarded_by(c->p, o, e))
				return -1;
			n++;
		}
	}
	return n;
}

/* Whether loop c->loop may end at min(e, its end): e reads an index array (a data bound
 * nothing shows is below the end) and nothing the loop writes, and every other loop over
 * the same name and range is guarded by the same bound, so that the loops keep one
 * range, which the fuser needs (an unguarded sibling keeps them all as written). */
static bool fits_clamp(const Expr *e, const void *ctx)
{
	const ClampCtx *c = ctx;
	return expr_reads_element(e) && !written_after(e, c->loop->body, 0, 1) && siblings_guarded(c, e) >= 0;
}

typedef struct {
	WithinCtx within;
	ClampCtx loops;
} SharedGuardCtx;

/* Whether loop c->loops.loop may end at e, within its end (fits_within), where every other
 * loop over the same name and range is guarded by the same bound, and there is one
 * (`if (j > i) continue;` atop each of a row's loops over j): then all end at e, one range. */
static bool fits_shared_guard(const Expr *e, const void *ctx)
{
	const SharedGuardCtx *c = ctx;
	return fits_within(e, &c->within) && siblings_guarded(&c->loops, e) > 0;
}

/* Loop s whose body, an if-guard, lost its last conjunct to the loop's end: the guarded
 * statements become the body, in the shape convert_for gives a loop's body. */
static void unguard_body(Program *p, Stmt *s)
{
	Stmt *blk, *g = body_guard(s, &blk);
	if (g->cond)
		return;
	Stmt *b = g->body[0];
	while (b->kind == ST_BLOCK && b->nbody == 1 && b->body[0]->kind != ST_DECL)
		b = b->body[0];
	if (!blk) {
		st_set_body(p, s, &b, 1);
		return;
	}
	/* the declarations, then the guarded statements, in one block */
	StmtVec all = {0};
	for (int i = 0; i + 1 < blk->nbody; i++)
		vec_push(all, blk->body[i]);
	for (int i = 0; i < (b->kind == ST_BLOCK ? b->nbody : 1); i++)
		vec_push(all, b->kind == ST_BLOCK ? b->body[i] : b);
	st_set_body(p, blk, all.v, all.n);
	vec_free(all);
}

/* Loops whose whole body is `if (v < e && ...)` (an if-guard, or what `if (v >= e)
 * continue;` becomes) run to e instead, where a loop over the same name in the region ends
 * at e and e cannot pass the loop's own end: `for (j < N) if (j <= i) ...` beside `for (j
 * <= i) ...` inside `for (i < N)`. The fuser fuses loops over one name only when their
 * ranges are one; a guard alone it keeps (the tile lowering narrows each row's range by
 * it), so loops without such a sibling stay as written. */
static void narrow_guarded_loops(Program *p, Stmt *s, const LoopCtx *outer, const LoopVec *all)
{
	if (!s)
		return;
	LoopCtx here = {0};
	if (s->kind == ST_FOR) {
		Stmt *blk, *g = body_guard(s, &blk);
		/* an end must not read what the body declares */
		for (int i = 0; g && blk && i + 1 < blk->nbody; i++)
			if (expr_reads_var(g->cond, blk->body[i]->var))
				g = NULL;
		if (!g)
			g = s->body[0];
		bool narrowed = false;
		for (int i = 0; g->kind == ST_IF && g->nbody == 1 && i < all->n && !narrowed; i++) {
			const Stmt *o = all->v[i];
			narrowed = o != s && !strcmp(o->var->name, s->var->name) && expr_equal(o->lo, s->lo) && narrow_to_guard(p, &g->cond, s->var, &s->hi, outer, o->hi);
		}
		/* else the guard every loop over the name and range has (`if (j > i) continue;` atop
		 * each, in-place stores under it) ends them all; the first here, the others then
		 * by the rule above */
		SharedGuardCtx sg = {{s->hi, NULL, outer}, {p, s, all}};
		if (!narrowed && g->kind == ST_IF && g->nbody == 1 && s->step == 1) {
			Expr *e = take_bound(p, &g->cond, s->var, fits_shared_guard, &sg);
			if (e) {
				s->hi = e;
				narrowed = true;
			}
		}
		/* else a data bound (`if (j >= context_lens[b]) break;`) ends the loop at its
		 * minimum with the end written, `e < hi ? e : hi`: the same iterations run, a
		 * ternary end is a data bound the fuser and the tile lowering read, and in-place
		 * stores under the guard (`s[j] = expf(s[j] - m)`) are plain stores, which the
		 * fuser follows */
		ClampCtx cc = {p, s, all};
		Expr *e = !narrowed && g->kind == ST_IF && g->nbody == 1 && s->step == 1 ? take_bound(p, &g->cond, s->var, fits_clamp, &cc) : NULL;
		if (e) {
			s->hi = ex_cond(p, ex_bin(p, OP_LT, e, s->hi, e->loc), ex_copy(p, e), s->hi, e->loc);
			narrowed = true;
		}
		if (narrowed)
			unguard_body(p, s);
		here = (LoopCtx){s->var, 1, 0, &s->hi, outer};
		outer = &here;
	}
	for (int i = 0; i < s->nbody; i++)
		narrow_guarded_loops(p, s->body[i], outer, all);
}

/* ---- blocks and loop bodies: continue and break ---- */

static bool convert_stmts(Parser *ps, const CursorVec *ch, int from, bool loop_body, bool at_start, StmtVec *out);

static Stmt *convert_block(Parser *ps, CXCursor c)
{
	CursorVec ch = children(c);
	StmtVec body = {0};
	Stmt *r = NULL;
	if (convert_stmts(ps, &ch, 0, false, false, &body)) {
		r = st_new(ps->prog, ST_BLOCK, loc_of(ps, c));
		st_set_body(ps->prog, r, body.v, body.n);
	}
	vec_free(ch);
	vec_free(body);
	return r;
}

/* A loop's body, where `if (c) continue;` and `if (c) break;` may guard the statements
 * after them (convert_stmts), less its last `drop` statements (a while's step). */
static Stmt *convert_loop_body(Parser *ps, CXCursor c, int drop)
{
	if (clang_getCursorKind(c) != CXCursor_CompoundStmt && clang_getCursorKind(c) != CXCursor_IfStmt)
		return convert_own_stmt(ps, c);
	CursorVec ch = {0};
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		ch = children(c);
	else
		vec_push(ch, c);
	ch.n -= drop;
	StmtVec body = {0};
	Stmt *r = NULL;
	if (convert_stmts(ps, &ch, 0, true, true, &body)) {
		r = st_new(ps->prog, ST_BLOCK, loc_of(ps, c));
		st_set_body(ps->prog, r, body.v, body.n);
		/* a lone if stays an if, as convert_stmt gives it */
		if (clang_getCursorKind(c) == CXCursor_IfStmt && body.n == 1)
			r = body.v[0];
	}
	vec_free(ch);
	vec_free(body);
	return r;
}

/* `if (cond) continue;` or `if (cond) break;`, without else, the jump alone or last in
 * braces: *cond, the jump, and the statements before it in the braces (*pre). */
static bool jump_if(CXCursor c, CXCursor *cond, CXCursor *jump, CursorVec *pre)
{
	if (clang_getCursorKind(c) != CXCursor_IfStmt)
		return false;
	CursorVec ch = children(c);
	bool ok = false;
	if (ch.n == 2) {
		CXCursor then = ch.v[1];
		CursorVec tc = {0};
		if (clang_getCursorKind(then) == CXCursor_CompoundStmt) {
			CursorVec all = children(then);
			for (int i = 0; i < all.n; i++)
				if (clang_getCursorKind(all.v[i]) != CXCursor_NullStmt)
					vec_push(tc, all.v[i]);
			vec_free(all);
		} else {
			vec_push(tc, then);
		}
		enum CXCursorKind k = tc.n ? clang_getCursorKind(tc.v[tc.n - 1]) : CXCursor_NullStmt;
		if (k == CXCursor_ContinueStmt || k == CXCursor_BreakStmt) {
			ok = true;
			*cond = ch.v[0];
			*jump = tc.v[--tc.n];
			*pre = tc;
		} else {
			vec_free(tc);
		}
	}
	vec_free(ch);
	return ok;
}

/* The condition that is true where e is false. For integer comparisons the opposite
 * comparison (`j > i` gives `j <= i`: the guard the tile lowering reads as a bound on j),
 * and De Morgan over && and ||; float comparisons are not negated that way (NaN makes
 * both false): `!(e)`. */
static Expr *negate_cond(Parser *ps, Expr *e)
{
	if (e->kind == EX_BIN) {
		static const BinOp pairs[][2] = {{OP_LT, OP_GE}, {OP_LE, OP_GT}, {OP_GT, OP_LE}, {OP_GE, OP_LT}, {OP_EQ, OP_NE}, {OP_NE, OP_EQ}};
		for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
			if (e->bop == pairs[i][0] && scalar_is_int(e->args[0]->ty) && scalar_is_int(e->args[1]->ty))
				return ex_bin(ps->prog, pairs[i][1], e->args[0], e->args[1], e->loc);
		if (e->bop == OP_LAND || e->bop == OP_LOR)
			return ex_bin(ps->prog, e->bop == OP_LAND ? OP_LOR : OP_LAND, negate_cond(ps, e->args[0]), negate_cond(ps, e->args[1]), e->loc);
	}
	if (e->kind == EX_UN && e->uop == UOP_NOT)
		return e->args[0]; /* a condition: only its truth matters */
	return ex_un(ps->prog, UOP_NOT, e, e->loc);
}

/* The coefficient of iterator v in integer expression e, into *c, when e is v times a
 * constant plus terms that do not read v; false otherwise (v under a division, in a
 * subscript, times a variable). */
static bool iter_coef(const Expr *e, const Var *v, long long *c)
{
	if (!expr_reads_var(e, v)) {
		*c = 0;
		return true;
	}
	long long a, b;
	switch (e->kind) {
	case EX_VAR: *c = 1; return true;
	case EX_UN:
		if (e->uop != UOP_NEG || !iter_coef(e->args[0], v, &a))
			return false;
		*c = -a;
		return true;
	case EX_CAST: return scalar_is_int(e->ty) && scalar_is_int(e->args[0]->ty) && iter_coef(e->args[0], v, c);
	case EX_BIN:
		if ((e->bop == OP_ADD || e->bop == OP_SUB) && iter_coef(e->args[0], v, &a) && iter_coef(e->args[1], v, &b)) {
			*c = e->bop == OP_ADD ? a + b : a - b;
			return true;
		}
		if (e->bop == OP_MUL && e->args[0]->kind == EX_INT && iter_coef(e->args[1], v, &b)) {
			*c = e->args[0]->ival * b;
			return true;
		}
		if (e->bop == OP_MUL && e->args[1]->kind == EX_INT && iter_coef(e->args[0], v, &a)) {
			*c = e->args[1]->ival * a;
			return true;
		}
		return false;
	default: return false;
	}
}

/* Whether condition e, once true on some iteration of the loop ps->loop, stays true on
 * the later ones (its other variables taken as fixed): then `if (e) break;` at the top of
 * the body skips the same iterations as `if (e) continue;`. Such are conditions without
 * the iterator, integer comparisons that grow towards true as the loop counts (`j > i`
 * counting up, `j < lo` counting down), and && and || of those. */
static bool monotone(const Expr *e, const LoopCtx *l)
{
	if (!expr_reads_var(e, l->var))
		return true;
	if (e->kind != EX_BIN)
		return false;
	if (e->bop == OP_LAND || e->bop == OP_LOR)
		return monotone(e->args[0], l) && monotone(e->args[1], l);
	long long a, b;
	if (!scalar_is_int(e->args[0]->ty) || !scalar_is_int(e->args[1]->ty) || !iter_coef(e->args[0], l->var, &a) || !iter_coef(e->args[1], l->var, &b))
		return false;
	long long grow = (a - b) * l->step; /* how left minus right moves per iteration */
	return ((e->bop == OP_GT || e->bop == OP_GE) && grow > 0) || ((e->bop == OP_LT || e->bop == OP_LE) && grow < 0);
}

/* The first variable e reads, other than the loop's iterator, that may change while the
 * loop runs: one declared in its body (bound at or after binding `first`) or written by
 * `body`; NULL if none. */
static const Expr *loop_variant_read(Parser *ps, const Expr *e, const Var *iv, int first, const Stmt *const *body, int nbody)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var != iv) {
		for (int i = first; i < ps->vars.n; i++)
			if (ps->vars.v[i].var == e->var)
				return e;
		for (int i = 0; i < nbody; i++)
			if (stmt_writes_var(body[i], e->var))
				return e;
	}
	for (int i = 0; i < e->nargs; i++) {
		const Expr *r = loop_variant_read(ps, e->args[i], iv, first, body, nbody);
		if (r)
			return r;
	}
	return NULL;
}

/* Whether e reads only values fixed since the const locals were declared: iterators,
 * parameters (arrays of const elements), const locals. */
static bool reads_settled(const Parser *ps, const Expr *e)
{
	if (e->kind == EX_VAR || e->kind == EX_INDEX) {
		const Var *v = e->var;
		bool ok = v->kind == VAR_LOOP || (v->kind == VAR_PARAM && (!v->ndim || v->is_const));
		for (int i = 0; !ok && i < ps->consts.n; i++)
			ok = ps->consts.v[i]->var == v;
		if (!ok)
			return false;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!reads_settled(ps, e->args[i]))
			return false;
	return true;
}

/* e with each integer local that `decls` (the statements of the loop's body so far)
 * declares with nothing but declarations after it, and that `rest` does not assign, and
 * (with consts) each const integer local declared before the loop whose initialiser reads
 * only fixed values (reads_settled), replaced by its initialiser, as often as that finds
 * more: `const int seqlen = cu[b + 1] - start;` before `if (i >= seqlen) break;` holds one
 * value in every iteration when its initialiser does, which the break's checks and the
 * loop's end (a data bound) then see. e itself where nothing is replaced. */
static Expr *inline_body_decls(Parser *ps, Expr *e, const StmtVec *decls, const Stmt *const *rest, int nrest, bool consts)
{
	for (int round = 0; round < 8; round++) {
		bool again = false;
		for (int q = 0; q < decls->n + (consts ? ps->consts.n : 0); q++) {
			bool mine = q < decls->n;
			const Stmt *d = mine ? decls->v[q] : ps->consts.v[q - decls->n];
			if (d->kind != ST_DECL || !d->rhs || d->var->ndim || !scalar_is_int(d->var->ty) || !expr_reads_var(e, d->var))
				continue;
			bool ok = mine || reads_settled(ps, d->rhs);
			for (int k = 0; k < nrest && ok && mine; k++)
				ok = !stmt_writes_var(rest[k], d->var);
			for (int k = q + 1; k < decls->n && ok && mine; k++)
				ok = decls->v[k]->kind == ST_DECL && !stmt_writes_var(decls->v[k], d->var);
			if (!ok)
				continue;
			e = expr_subst_expr(ps->prog, e, d->var, ex_as_type(ps->prog, d->var->ty, ex_copy(ps->prog, d->rhs)));
			again = true;
		}
		if (!again)
			break;
	}
	return e;
}

/* ---- loops counting down ---- */

typedef VEC(const Var *) ConstVarVec;

/* The variables s writes (assignments) into *written and declares into *declared. */
static void body_vars(const Stmt *s, ConstVarVec *written, ConstVarVec *declared)
{
	if (!s)
		return;
	if (s->kind == ST_DECL)
		vec_push(*declared, s->var);
	if (s->kind == ST_ASSIGN)
		vec_push(*written, s->lhs->var);
	for (int i = 0; i < s->nbody; i++)
		body_vars(s->body[i], written, declared);
}

/* The positions of array x's subscripts that are iterator v itself in every access to x
 * in e (a bit each), ANDed into *mask; a read of x as a scalar clears it. */
static void own_positions(const Expr *e, const Var *x, const Var *v, unsigned *mask)
{
	if (!e)
		return;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var == x) {
		unsigned m = 0;
		for (int i = 0; e->kind == EX_INDEX && i < e->nargs && i < 32; i++)
			if (e->args[i]->kind == EX_VAR && e->args[i]->var == v)
				m |= 1u << i;
		*mask &= m;
	}
	for (int i = 0; i < e->nargs; i++)
		own_positions(e->args[i], x, v, mask);
}

static void stmt_own_positions(const Stmt *s, const Var *x, const Var *v, unsigned *mask)
{
	if (!s)
		return;
	own_positions(s->lhs, x, v, mask);
	own_positions(s->rhs, x, v, mask);
	own_positions(s->cond, x, v, mask);
	own_positions(s->lo, x, v, mask);
	own_positions(s->hi, x, v, mask);
	for (int i = 0; i < s->nbody; i++)
		stmt_own_positions(s->body[i], x, v, mask);
}

enum { RED_NONE, RED_ADD, RED_MUL, RED_MAX, RED_MIN };

/* The kind of select c (`x > e ? x : e`, either order) as a reduction of lvalue x:
 * RED_MAX, RED_MIN (select_extreme), or RED_NONE. */
static int select_kind(Expr *c, const Expr *x)
{
	bool max;
	return select_extreme(c, x, &max) ? (max ? RED_MAX : RED_MIN) : RED_NONE;
}

/* Which reduction assignment a is of its target x: `x += e`, `x -= e`, `x = x + e`,
 * `x = e + x`, `x = x - e` (sums), `x *= e`, `x = x * e` (products), `x = fmaxf(x, e)`
 * (either order; maxima), fminf (minima); e must not read x. RED_NONE otherwise. */
static int reduction_kind(const Stmt *a)
{
	const Var *x = a->lhs->var;
	for (int i = 0; i < a->lhs->nargs; i++)
		if (expr_reads_var(a->lhs->args[i], x))
			return RED_NONE;
	if (a->aop != AS_SET)
		return expr_reads_var(a->rhs, x) ? RED_NONE : a->aop == AS_ADD || a->aop == AS_SUB ? RED_ADD : a->aop == AS_MUL ? RED_MUL : RED_NONE;
	const Expr *r = a->rhs;
	if (r->kind == EX_COND && a->lhs->kind == EX_VAR) /* x = x > e ? x : e */
		return select_kind(a->rhs, a->lhs);
	int kind = r->kind == EX_BIN && (r->bop == OP_ADD || r->bop == OP_SUB) ? RED_ADD
	           : r->kind == EX_BIN && r->bop == OP_MUL                      ? RED_MUL
	           : r->kind == EX_CALL && r->fn == FN_FMAX                     ? RED_MAX
	           : r->kind == EX_CALL && r->fn == FN_FMIN                     ? RED_MIN
	                                                                        : RED_NONE;
	if (kind == RED_NONE || r->nargs != 2)
		return RED_NONE;
	bool commutes = !(r->kind == EX_BIN && r->bop == OP_SUB);
	for (int i = 0; i < 2; i++)
		if (expr_equal(r->args[i], a->lhs) && !expr_reads_var(r->args[1 - i], x) && (i == 0 || commutes))
			return kind;
	return RED_NONE;
}

/* Whether every access to x in s is a reduction assignment to it of one kind (*kind,
 * RED_NONE until the first), x read nowhere else; *where: the first access that is not. */
static bool only_reduced(const Stmt *s, const Var *x, int *kind, Loc *where)
{
	if (!s)
		return true;
	/* `if (e > x) x = e;`: x = e > x ? e : x */
	Stmt *a = s->kind == ST_IF && s->nbody == 1 ? s->body[0] : NULL;
	while (a && a->kind == ST_BLOCK && a->nbody == 1)
		a = a->body[0];
	if (a && a->kind == ST_ASSIGN && a->aop == AS_SET && a->lhs->kind == EX_VAR && a->lhs->var == x) {
		Expr *arms[3] = {s->cond, a->rhs, a->lhs};
		Expr sel = {.kind = EX_COND, .ty = x->ty, .nargs = 3, .args = arms};
		int k = select_kind(&sel, a->lhs);
		if (k == RED_NONE || (*kind != RED_NONE && k != *kind))
			return *where = s->loc, false;
		*kind = k;
		return true;
	}
	const Expr *reads[] = {s->cond, s->lo, s->hi, s->kind == ST_DECL ? s->rhs : NULL};
	for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
		if (expr_reads_var(reads[i], x))
			return *where = reads[i]->loc, false;
	if (s->kind == ST_ASSIGN) {
		int k = s->lhs->var == x ? reduction_kind(s) : RED_NONE;
		if (s->lhs->var == x && (k == RED_NONE || (*kind != RED_NONE && k != *kind)))
			return *where = s->loc, false;
		if (s->lhs->var == x)
			*kind = k;
		else if (stmt_reads_var(s, x))
			return *where = s->loc, false;
	}
	for (int i = 0; i < s->nbody; i++)
		if (!only_reduced(s->body[i], x, kind, where))
			return false;
	return true;
}

/* Whether the iterations of a loop over v with this body may run in any order, so that
 * a loop counting down may run upward: every variable the body writes, other than its
 * own locals and iterators, is an array whose every access has v itself as one subscript
 * (each iteration its own elements) or is only reduced, by sums, products, maxima or
 * minima, which fusecc reorders anyway (rolling, split-k). *why: where that fails. */
static bool reversible(const Stmt *body, const Var *v, Loc *why)
{
	ConstVarVec written = {0}, declared = {0};
	body_vars(body, &written, &declared);
	bool ok = true;
	for (int i = 0; ok && i < written.n; i++) {
		const Var *x = written.v[i];
		bool own = x->kind == VAR_LOOP;
		for (int k = 0; !own && k < declared.n; k++)
			own = declared.v[k] == x;
		if (own)
			continue;
		unsigned mask = ~0u;
		stmt_own_positions(body, x, v, &mask);
		if (x->ndim && mask)
			continue;
		int kind = RED_NONE;
		ok = only_reduced(body, x, &kind, why);
	}
	vec_free(written);
	vec_free(declared);
	return ok;
}

/* ---- pointer walks and scratch arrays ---- */

/* What search looks for: a reference to decl; or, decl null, one to a variable declared
 * at offsets [lo, hi) of the main file; or (cont) a 'continue' of the loop searched. */
typedef struct Search {
	CXCursor decl;
	unsigned lo, hi;
	bool cont;
	bool found;
} Search;

static enum CXChildVisitResult search_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	Search *sr = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (sr->cont) {
		if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt)
			return CXChildVisit_Continue; /* its continues are its own */
		sr->found = k == CXCursor_ContinueStmt;
	} else if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		unsigned off = offset_of(clang_getCursorLocation(d));
		sr->found = clang_Cursor_isNull(sr->decl) ? clang_getCursorKind(d) == CXCursor_VarDecl && off >= sr->lo && off < sr->hi : clang_equalCursors(d, sr->decl);
	}
	return sr->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether c holds what sr asks for (Search). */
static bool search(CXCursor c, Search sr)
{
	if (search_visit(c, clang_getNullCursor(), &sr) == CXChildVisit_Recurse)
		clang_visitChildren(c, search_visit, &sr);
	return sr.found;
}

static int alias_index(Parser *ps, CXCursor decl)
{
	for (int i = 0; i < ps->aliases.n; i++)
		if (clang_equalCursors(ps->aliases.v[i].decl, decl))
			return i;
	return -1;
}

static const char *decl_name(Parser *ps, CXCursor decl)
{
	CXString s = clang_getCursorSpelling(decl);
	const char *n = arena_strdup(&ps->prog->arena, clang_getCString(s));
	clang_disposeString(s);
	return n;
}

/* If statement c assigns a pointer local: the index of its alias, with *fwd set when it
 * advances it (`p += e;`, `p++;`, `++p;`, `p = p + e;`) and *stride the cursor of e
 * (null for ++: 1); -1 if c assigns no pointer local. */
static int pointer_assign(Parser *ps, CXCursor c, CXCursor *stride, bool *fwd)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	*stride = clang_getNullCursor();
	*fwd = false;
	if (k != CXCursor_CompoundAssignOperator && k != CXCursor_BinaryOperator && k != CXCursor_UnaryOperator)
		return -1;
	CursorVec ch = children(c);
	CXCursor lhs = ch.n ? strip(ch.v[0]) : clang_getNullCursor();
	int a = ch.n && clang_getCursorKind(lhs) == CXCursor_DeclRefExpr ? alias_index(ps, clang_getCursorReferenced(lhs)) : -1;
	const char *op = NULL;
	Loc oploc;
	if (a >= 0 && k == CXCursor_UnaryOperator) {
		CXToken *toks;
		unsigned n;
		clang_tokenize(ps->tu, clang_getCursorExtent(c), &toks, &n);
		for (unsigned i = 0; n && i < 2 && !op; i++) {
			const char *t = token_text(ps, toks[i ? n - 1 : 0]);
			op = !strcmp(t, "++") || !strcmp(t, "--") ? t : NULL;
		}
		clang_disposeTokens(ps->tu, toks, n);
	} else if (a >= 0 && ch.n == 2) {
		op = binary_operator(ps, c, ch.v[0], &oploc);
	}
	if (!op || (strcmp(op, "++") && strcmp(op, "--") && strcmp(op, "=") && strcmp(op, "+=") && strcmp(op, "-="))) {
		vec_free(ch);
		return -1;
	}
	*fwd = !strcmp(op, "++") || !strcmp(op, "+=");
	if (!strcmp(op, "+="))
		*stride = ch.v[1];
	CXCursor r = !strcmp(op, "=") ? strip(ch.v[1]) : clang_getNullCursor();
	CursorVec rc = clang_Cursor_isNull(r) ? (CursorVec){0} : children(r);
	const char *rop = clang_getCursorKind(r) == CXCursor_BinaryOperator && rc.n == 2 ? binary_operator(ps, r, rc.v[0], &oploc) : NULL;
	for (int side = 0; rop && !strcmp(rop, "+") && side < 2 && !*fwd; side++)
		if (refers_to(rc.v[side], ps->aliases.v[a].decl)) /* p = p + e, p = e + p */
			*fwd = true, *stride = rc.v[1 - side];
	vec_free(rc);
	vec_free(ch);
	return a;
}

static const char walk_help[] =
	"fusecc reads a pointer advanced once per iteration of a loop counting up ('kp += D;' a statement of the loop's body after the last read of kp there, kp declared just outside the loop, "
	"the stride fixed while the loop runs) as its start plus the iteration times the stride; or subscript it from its start ('k[t * D + d]')";

/* The offset of pointer local al while the body of the loop over v from lo is converted,
 * when the loop advances it by stride: its start plus (v - lo) strides. */
static Expr *walk_offset(Parser *ps, const PtrAlias *al, Var *v, Expr *lo, Expr *stride, Loc loc)
{
	Expr *it = ex_var(ps->prog, v, loc);
	if (!is_zero(lo))
		it = ex_bin(ps->prog, OP_SUB, it, ex_copy(ps->prog, lo), loc);
	if (stride->kind != EX_INT || stride->ival != 1)
		it = ex_bin(ps->prog, OP_MUL, it, stride, loc);
	return add_offset(ps, al->off ? ex_copy(ps->prog, al->off) : NULL, it, OP_ADD, loc);
}

/* Why step st[i] of the body of the loop spanning source offsets [from, to) cannot be
 * read as a walk of alias a (NULL: it can): the pointer is advanced by another loop too or twice here, declared outside
 * the loop around this one (its start would move with each iteration of that one), the
 * loop counts down, a 'continue' before the step may skip it, the pointer is read after
 * the step, or the stride reads a variable of the loop. */
static const char *walk_refusal(Parser *ps, unsigned from, unsigned to, const CursorVec *st, int i, int a, CXCursor stride, int step, int mark)
{
	const PtrAlias *al = &ps->aliases.v[a];
	for (int k = mark; k < ps->walks.n; k++)
		if (ps->walks.v[k].alias == a)
			return "it is advanced twice in one iteration";
	if (al->walked.line)
		return arena_printf(&ps->prog->arena, "the loop at line %d advances it too", al->walked.line);
	if (al->depth != ps->depth)
		return "it is declared outside the loop around this loop, so that where it starts in each iteration of that loop depends on how far this loop advanced it";
	if (step < 0)
		return "the loop counts down";
	for (int k = 0; k < i; k++)
		if (search(st->v[k], (Search){.cont = true}))
			return "a 'continue' before the step may skip it";
	for (int k = i + 1; k < st->n; k++)
		if (search(st->v[k], (Search){.decl = al->decl}))
			return "it is read after the step in the same iteration";
	if (!clang_Cursor_isNull(stride) && search(stride, (Search){.decl = clang_getNullCursor(), .lo = from, .hi = to}))
		return "its stride reads a variable of the loop";
	return NULL;
}

/* Finds the pointer locals that loop body `body` (of the loop whose text spans source
 * offsets [from, to), iterator v from lo, counting by step) advances once per iteration, and reads each as its start plus (v -
 * lo) strides while the body is converted; refuses (located) a step walk_refusal
 * rejects. Returns the mark that walk_end takes. */
static int walk_begin(Parser *ps, CXCursor body, const CursorVec *header, unsigned from, unsigned to, Var *v, Expr *lo, int step)
{
	int mark = ps->walks.n;
	CursorVec st = {0};
	if (clang_getCursorKind(body) == CXCursor_CompoundStmt)
		st = children(body);
	else if (!clang_Cursor_isNull(body))
		vec_push(st, body);
	int nbody = st.n;
	for (int i = 0; i < header->n; i++) /* the header's, after the body's */
		vec_push(st, header->v[i]);
	for (int i = 0; i < st.n; i++) {
		CXCursor sc;
		bool fwd;
		int a = pointer_assign(ps, st.v[i], &sc, &fwd);
		if (a < 0 || !fwd || !ps->aliases.v[a].base)
			continue;
		Loc loc = loc_of(ps, st.v[i]);
		/* a step in the header runs after the body whatever it does, `continue` included */
		CursorVec in_body = {st.v, nbody, nbody}, none = {0};
		const char *why = i < nbody ? walk_refusal(ps, from, to, &in_body, i, a, sc, step, mark) : walk_refusal(ps, from, to, &none, 0, a, sc, step, mark);
		if (why) {
			fail(ps, loc, "pointer '%s' is advanced here but %s: %s", decl_name(ps, ps->aliases.v[a].decl), why, walk_help);
			vec_push(ps->walks, ((Walk){a, st.v[i], NULL, NULL})); /* its step is not reported again */
			continue;
		}
		Expr *s = clang_Cursor_isNull(sc) ? ex_int(ps->prog, 1, loc) : convert_expr(ps, sc);
		if (s && !scalar_is_int(s->ty))
			fail(ps, s->loc, "a pointer's stride must be an integer expression"), s = NULL;
		PtrAlias *al = &ps->aliases.v[a]; /* after convert_expr, which may add aliases */
		vec_push(ps->walks, ((Walk){a, st.v[i], s, al->off, al->lead}));
		if (s && al->nlead && expr_equal(s, al->base->dims[al->base->ndim - 1])) {
			/* a row at a time (`kp = &k[h][0][0]; ... kp += D;` over k[H][L][D]): the
			 * row's subscript moves, the element stays within its row, as C wants */
			Expr **lead = arena_alloc(&ps->prog->arena, sizeof(Expr *) * (size_t)al->nlead);
			memcpy(lead, al->lead, sizeof(Expr *) * (size_t)al->nlead);
			lead[al->nlead - 1] = walk_offset(ps, &(PtrAlias){.off = lead[al->nlead - 1]}, v, lo, ex_int(ps->prog, 1, loc), loc);
			al->lead = lead;
		} else if (s) {
			al->off = walk_offset(ps, al, v, lo, s, loc);
		}
	}
	vec_free(st);
	return mark;
}

/* Ends the walks walk_begin started (from mark) for the loop over v at loc whose body
 * (converted) is body, and whose body's variables are bound from ps->vars[first]: each
 * pointer reads from its start again, and is refused where read after the loop; a
 * stride the body changes is refused. */
static void walk_end(Parser *ps, int mark, const Stmt *body, const Var *v, int first, Loc loc)
{
	for (int i = mark; i < ps->walks.n; i++) {
		Walk *w = &ps->walks.v[i];
		PtrAlias *al = &ps->aliases.v[w->alias];
		if (!w->stride)
			continue;
		al->off = w->off;
		al->lead = w->lead;
		al->walked = loc;
		const Expr *bad = expr_reads_var(w->stride, v) ? w->stride : body ? loop_variant_read(ps, w->stride, v, first, &body, 1) : NULL;
		if (bad)
			fail(ps, bad->loc, "pointer '%s' is advanced by a stride that changes while the loop runs ('%s'): %s", decl_name(ps, al->decl), bad->var ? bad->var->name : "?", walk_help);
	}
	ps->walks.n = mark;
}

/* Whether statement c is the step of a walk (walk_begin), which is no statement. */
static bool walk_step(Parser *ps, CXCursor c)
{
	for (int i = 0; i < ps->walks.n; i++)
		if (ps->walks.v[i].stride && clang_equalCursors(ps->walks.v[i].step, c))
			return true;
	return false;
}

/* If statement c assigns a pointer local: *r gets what it is (the step of a walk: no
 * statement, an empty block; any other assignment: NULL, reported) and true; false
 * when c assigns no pointer local. */
static bool pointer_stmt(Parser *ps, CXCursor c, Stmt **r)
{
	CXCursor sc;
	bool fwd;
	int a = pointer_assign(ps, c, &sc, &fwd);
	if (a < 0)
		return false;
	*r = NULL;
	for (int i = 0; i < ps->walks.n; i++)
		if (clang_equalCursors(ps->walks.v[i].step, c)) {
			if (!ps->walks.v[i].stride)
				return ps->failed = true;
			*r = st_new(ps->prog, ST_BLOCK, loc_of(ps, c));
			st_set_body(ps->prog, *r, NULL, 0);
			return true;
		}
	if (!ps->aliases.v[a].base)
		return ps->failed = true;
	const char *nm = decl_name(ps, ps->aliases.v[a].decl);
	if (fwd)
		fail(ps, loc_of(ps, c), "pointer '%s' is advanced here, not as a statement of a loop's body (under a condition, or in a block of its own): %s", nm, walk_help);
	else
		fail(ps, loc_of(ps, c), "pointer '%s' is assigned here: a pointer local keeps the value it is declared with, except for the walk of a loop (%s)", nm, walk_help);
	return true;
}

/* Whether alias al, advanced by a loop that has ended, is read (reported): fusecc reads
 * a walk only inside its loop. */
static bool walked_read(Parser *ps, const PtrAlias *al, Loc loc)
{
	if (!al->walked.line)
		return false;
	return fail(ps, loc, "pointer '%s' is read after the loop at line %d that advances it: read it inside that loop, or subscript it from its start ('k[t * D + d]')", decl_name(ps, al->decl), al->walked.line);
}

static Expr *element_count(Parser *ps, CXCursor size, int esize, const char *name);
static Stmt *zero_fill(Parser *ps, Var *a, Expr *const *ext, int n, Loc loc);

/* The factors of product e, left to right, into f[0..max): their count, 0 when e is
 * no product or has more. */
static int product_of(Expr *e, Expr **f, int max)
{
	if (e->kind != EX_BIN || e->bop != OP_MUL) {
		if (max < 1)
			return 0;
		f[0] = e;
		return 1;
	}
	int a = product_of(e->args[0], f, max), b = a ? product_of(e->args[1], f + a, max - a) : 0;
	return b ? a + b : 0;
}

/* `T *p = malloc(n * sizeof(T));` (also `(T *)malloc(...)`, `calloc(n, sizeof(T))`): the
 * local array `T p[n]`, declared into *out (calloc's filled with zeros). Its block frees
 * it (heap_free): a scratch array the size of a local one. 0: init is no malloc or
 * calloc call; 1: declared; -1: refused (reported). */
static int heap_local(Parser *ps, CXCursor d, CXCursor init, StmtVec *out)
{
	CXCursor c = strip(init);
	while (clang_getCursorKind(c) == CXCursor_CStyleCastExpr)
		c = strip(last_expression(c));
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return 0;
	const char *fn = decl_name(ps, c);
	bool zeroed = !strcmp(fn, "calloc");
	if (strcmp(fn, "malloc") && !zeroed)
		return 0;
	Loc loc = loc_of(ps, c);
	CXType elem = clang_getPointeeType(clang_getCursorType(d));
	ScalarType st;
	if (!scalar_type(elem, &st))
		return fail(ps, loc, "'%s' points to '%s': a scratch array holds int, float, double, _Float16 or fusecc_bf16 elements", decl_name(ps, d), type_spelling(ps, elem)), -1;
	int esize = (int)clang_Type_getSizeOf(elem), nargs = clang_Cursor_getNumArguments(c);
	Expr *n = NULL;
	if (!zeroed && nargs == 1)
		n = element_count(ps, clang_Cursor_getArgument(c, 0), esize, "malloc");
	for (int k = 1; zeroed && nargs == 2 && k >= 0 && !n; k--) { /* calloc(n, sizeof(T)), or the other way */
		CXEvalResult r = clang_Cursor_Evaluate(clang_Cursor_getArgument(c, (unsigned)k));
		bool size = r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == esize;
		if (r)
			clang_EvalResult_dispose(r);
		if (size && !(n = convert_expr(ps, strip(clang_Cursor_getArgument(c, (unsigned)(1 - k))))))
			break;
	}
	if (!n && !ps->failed)
		fail(ps, loc, "calloc's arguments must be a count and the element's size ('calloc(n, sizeof(float))')");
	else if (n && !scalar_is_int(n->ty))
		fail(ps, n->loc, "the size of a scratch array must be an integer expression"), n = NULL;
	/* declared all the same: its uses and its free are not reported again */
	Var *v = var_new(ps->prog, VAR_LOCAL, local_name(ps, decl_name(ps, d)), st, loc_of_location(ps, clang_getCursorLocation(d)));
	v->ndim = 1;
	v->dims = arena_alloc(&ps->prog->arena, sizeof(Expr *));
	v->dims[0] = n ? n : ex_int(ps->prog, 1, loc);
	bind_var(ps, d, v);
	vec_push(ps->heap, ((HeapLocal){d, v}));
	if (!n)
		return -1;
	Stmt *s = st_new(ps->prog, ST_DECL, loc);
	s->var = v;
	vec_push(*out, s);
	if (zeroed) {
		Expr *f[16];
		int nf = product_of(n, f, 16);
		vec_push(*out, nf ? zero_fill(ps, v, f, nf, loc) : zero_fill(ps, v, v->dims, 1, loc));
	}
	return 1;
}

/* The scratch array (heap_local) that statement c frees, `free(S);`; NULL if c is none. */
static const HeapLocal *freed_array(Parser *ps, CXCursor c)
{
	if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 1 || strcmp(decl_name(ps, c), "free"))
		return NULL;
	CXCursor a = strip(clang_Cursor_getArgument(c, 0));
	while (clang_getCursorKind(a) == CXCursor_CStyleCastExpr)
		a = strip(last_expression(a));
	for (int i = 0; clang_getCursorKind(a) == CXCursor_DeclRefExpr && i < ps->heap.n; i++)
		if (clang_equalCursors(ps->heap.v[i].decl, clang_getCursorReferenced(a)))
			return &ps->heap.v[i];
	return NULL;
}

/* Whether statement ch[i] of a block frees a scratch array that a declaration of the
 * same block before it allocates, and no statement after it reads: the end of the
 * array, which the local array has at the block's end anyway (no statement). */
static bool heap_free(Parser *ps, const CursorVec *ch, int i)
{
	const HeapLocal *h = freed_array(ps, ch->v[i]);
	if (!h)
		return false;
	bool here = false;
	for (int k = 0; k < i && !here; k++)
		if (clang_getCursorKind(ch->v[k]) == CXCursor_DeclStmt) {
			CursorVec ds = children(ch->v[k]);
			for (int j = 0; j < ds.n; j++)
				here |= clang_equalCursors(ds.v[j], h->decl);
			vec_free(ds);
		}
	for (int k = i + 1; k < ch->n && here; k++)
		here = !search(ch->v[k], (Search){.decl = h->decl});
	return here;
}

static const char break_help[] =
	"'break' is supported only as 'if (c) break;' at the top of a loop's body, with c true from some iteration on (such as 'if (j > i) break;' counting up): write the end in the loop's condition ('for (j = 0; j <= i; j++)') or guard the statements with an if";

/* Statements ch[from..] of a block, appended to *out in order; false if any was refused
 * (all are converted, so that one run reports every problem). In a loop's body
 * (loop_body), `if (c) continue;` guards the statements after it: they become `if (!c) {
 * ... }` (the if-guard form, whose bound the tile lowering narrows the rows' range by),
 * and `if (c) { s...; continue; }` becomes `if (c) { s... } else { ... }`. `if (c)
 * break;` does the same where it skips the same iterations, which at_start (no statement
 * with an effect before it) and a monotone c ensure. */
static bool convert_stmts(Parser *ps, const CursorVec *ch, int from, bool loop_body, bool at_start, StmtVec *out)
{
	bool ok = true;
	for (int i = from; i < ch->n; i++) {
		enum CXCursorKind k = clang_getCursorKind(ch->v[i]);
		if (k == CXCursor_NullStmt)
			continue;
		StmtVec pend = {0}, *saved = ps->pre;
		/* a counted while: its set-up `v = lo;` is its start (a declaration `int v = lo;`
		 * goes as C89 iterators' do), the while the loop */
		LoopHead wh;
		if (k != CXCursor_DeclStmt && counted_while(ps, ch, i, &wh))
			continue;
		if (k == CXCursor_WhileStmt && i > from && counted_while(ps, ch, i - 1, &wh)) {
			Stmt *w = convert_while(ps, &wh);
			if (w)
				vec_push(*out, w);
			ok &= w != NULL;
			at_start = false;
			continue;
		}
		if (k == CXCursor_DeclStmt) {
			ps->pre = &pend;
			ok &= convert_decl(ps, ch->v[i], out);
			ps->pre = saved;
			vec_free(pend);
			continue;
		}
		if (heap_free(ps, ch, i) || walk_step(ps, ch->v[i]))
			continue;
		CXCursor cond_c, jump;
		CursorVec pre = {0};
		if (loop_body && jump_if(ch->v[i], &cond_c, &jump, &pre)) {
			bool brk = clang_getCursorKind(jump) == CXCursor_BreakStmt;
			bool good = !brk || (!pre.n && at_start);
			Loc loc = loc_of(ps, ch->v[i]);
			ps->pre = NULL; /* a helper's body would run before the statements the jump skips */
			Expr *cond = convert_expr(ps, cond_c);
			ps->pre = saved;
			Stmt *then = NULL;
			if (pre.n) {
				StmtVec tb = {0};
				if (convert_stmts(ps, &pre, 0, false, false, &tb))
					then = st_new(ps->prog, ST_BLOCK, loc_of(ps, pre.v[0])), st_set_body(ps->prog, then, tb.v, tb.n);
				vec_free(tb);
			}
			if (!good)
				fail(ps, loc_of(ps, jump), "%s", break_help);
			StmtVec rest = {0};
			bool rest_ok = convert_stmts(ps, ch, i + 1, true, at_start && !pre.n, &rest);
			/* a continue's condition reads the body's own locals through their
			 * initialisers too (`if (i >= len) continue;` with len the sequence's length
			 * computed in the row's body): the guard it becomes is then a data bound */
			if (!brk && cond && rest_ok)
				cond = inline_body_decls(ps, cond, out, (const Stmt *const *)rest.v, rest.n, false);
			if (brk && good && cond && rest_ok) {
				cond = inline_body_decls(ps, cond, out, (const Stmt *const *)rest.v, rest.n, true);
				const Expr *bad = loop_variant_read(ps, cond, ps->loop.var, ps->loop.first, (const Stmt *const *)rest.v, rest.n);
				good = !bad && monotone(cond, &ps->loop);
				bool in_body = false;
				for (int q = 0; bad && q < out->n && !in_body; q++)
					in_body = out->v[q]->kind == ST_DECL && out->v[q]->var == bad->var;
				if (bad && in_body)
					fail(ps, bad->loc, "'%s' is declared in the loop's body, a value of each iteration, so fusecc cannot show that the condition of this 'break' stays true once it holds; "
					                   "compute '%s' before the loop, or write the end in the loop's condition ('%s < %s' with '%s' defined before it)",
					     bad->var->name, bad->var->name, ps->loop.var ? ps->loop.var->name : "i", bad->var->name, bad->var->name);
				else if (bad)
					fail(ps, bad->loc, "'%s' may change while the loop runs, so the condition of this 'break' may turn false again; %s", bad->var->name, break_help);
				else if (!monotone(cond, &ps->loop))
					fail(ps, cond->loc, "this condition may turn false again on a later iteration (it is not a comparison of the iterator that grows towards true as the loop %s); %s",
					     ps->loop.step > 0 ? "counts up" : "counts down", break_help);
			}
			if (cond && rest_ok && (!pre.n || then) && good) {
				Stmt *r = st_new(ps->prog, ST_BLOCK, loc);
				st_set_body(ps->prog, r, rest.v, rest.n);
				Stmt *g = st_new(ps->prog, ST_IF, loc);
				if (then) {
					g->cond = cond;
					Stmt *two[2] = {then, r};
					st_set_body(ps->prog, g, two, 2);
				} else {
					g->cond = negate_cond(ps, cond);
					st_set_body(ps->prog, g, &r, 1);
				}
				/* `if (j > i) break;` counting up: the loop ends at i + 1 when that is
				 * not past its end, as `for (j = 0; j <= i; j++)` does */
				if (brk && ps->loop.step > 0 && narrow_to_guard(ps->prog, &g->cond, ps->loop.var, ps->loop.hi, ps->loop.up, NULL) && !g->cond) {
					for (int k = 0; k < rest.n; k++)
						vec_push(*out, rest.v[k]);
				} else if (then || rest.n) {
					vec_push(*out, g);
				}
			} else {
				ok = false;
			}
			vec_free(pre);
			vec_free(rest);
			return ok;
		}
		vec_free(pre);
		at_start = false;
		ps->pre = &pend;
		Stmt *s = convert_stmt(ps, ch->v[i]);
		ps->pre = saved;
		for (int j = 0; j < pend.n; j++)
			vec_push(*out, pend.v[j]);
		vec_free(pend);
		if (!s)
			ok = false;
		else if (k == CXCursor_CallExpr && s->kind == ST_BLOCK) /* an inlined helper's body */
			for (int j = 0; j < s->nbody; j++)
				vec_push(*out, s->body[j]);
		else
			vec_push(*out, s);
	}
	return ok;
}

/* convert_stmt for a statement that stands alone (an if's branch, a loop's body without
 * braces): the bodies of the helpers it calls go with it, in a block. */
static Stmt *convert_own_stmt(Parser *ps, CXCursor c)
{
	StmtVec pend = {0}, *saved = ps->pre;
	ps->pre = &pend;
	Stmt *s = convert_stmt(ps, c);
	ps->pre = saved;
	if (s && pend.n) {
		vec_push(pend, s);
		s = st_new(ps->prog, ST_BLOCK, s->loc);
		st_set_body(ps->prog, s, pend.v, pend.n);
	}
	vec_free(pend);
	return s;
}

static Stmt *convert_call_stmt(Parser *ps, CXCursor c);

static Stmt *convert_stmt(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	Stmt *walk;
	if (pointer_stmt(ps, c, &walk))
		return walk;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CompoundStmt: return convert_block(ps, c);
	case CXCursor_ForStmt: {
		unsigned off = offset_of(clang_getRangeStart(clang_getCursorExtent(c)));
		for (int i = 0; i < ps->pragmas.n; i++)
			if (ps->pragmas.v[i].for_offset == off) {
				ps->pragmas.v[i].used = true;
				return fail(ps, ps->pragmas.v[i].loc, "'#pragma fuse' is only allowed before a for statement at the top level of a function body"), NULL;
			}
		return convert_for(ps, c);
	}
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: return convert_assign(ps, c);
	case CXCursor_NullStmt: {
		Stmt *s = st_new(ps->prog, ST_BLOCK, loc);
		st_set_body(ps->prog, s, NULL, 0);
		return s;
	}
	case CXCursor_IfStmt: {
		CursorVec ch = children(c);
		Stmt *s = NULL;
		if (ch.n == 2 || ch.n == 3) {
			Expr *cond = convert_expr(ps, ch.v[0]);
			Stmt *body[2] = {NULL, NULL};
			body[0] = cond ? convert_own_stmt(ps, ch.v[1]) : NULL;
			if (ch.n == 3 && body[0])
				body[1] = convert_own_stmt(ps, ch.v[2]);
			if (body[0] && (ch.n == 2 || body[1])) {
				s = st_new(ps->prog, ST_IF, loc);
				s->cond = cond;
				st_set_body(ps->prog, s, body, ch.n - 1);
			}
		} else {
			fail(ps, loc, "unsupported if statement");
		}
		vec_free(ch);
		return s;
	}
	case CXCursor_WhileStmt:
		return fail(ps, loc, "fusecc reads a while loop as a for loop only when the statement just before it sets its iterator ('int v = lo;' or 'v = lo;') and its body ends with the step ('v++;'); else write 'for (int v = lo; v < hi; v++)'"), NULL;
	case CXCursor_DoStmt: return fail(ps, loc, "'do' loops are not supported in a fuse region: write a canonical for loop"), NULL;
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt: return fail(ps, loc, "'goto' is not supported in a fuse region"), NULL;
	case CXCursor_LabelStmt: return fail(ps, loc, "labels are not supported in a fuse region"), NULL;
	case CXCursor_BreakStmt: return fail(ps, loc, "%s", break_help), NULL;
	case CXCursor_ContinueStmt:
		return fail(ps, loc, "'continue' is supported only as 'if (c) continue;' (or a block that ends with it) directly in a loop's body: guard the statements after it with 'if (!c) { ... }'"), NULL;
	case CXCursor_ReturnStmt:
		if (ps->inlining)
			return fail(ps, loc, "this helper returns before the end of its body from inside a loop or a branch: fusecc inlines a helper whose returns are its last statement and 'if (c) return e;' statements of its body's top level"), NULL;
		return fail(ps, loc, "'return' is not supported in a fuse region"), NULL;
	case CXCursor_SwitchStmt: return fail(ps, loc, "'switch' is not supported in a fuse region"), NULL;
	case CXCursor_UnexposedStmt: {
		/* libclang's AttributedStmt: a loop hint (`#pragma GCC unroll 4`, `#pragma
		 * unroll`, `#pragma clang loop vectorize(enable)`) over one statement, advice to a
		 * CPU compiler: the statement as written */
		CursorVec ch = children(c);
		Stmt *r = ch.n == 1 && clang_isStatement(clang_getCursorKind(ch.v[0])) ? convert_stmt(ps, ch.v[0]) : (fail(ps, loc, "unsupported statement in a fuse region"), NULL);
		vec_free(ch);
		return r;
	}
	case CXCursor_CallExpr: return convert_call_stmt(ps, c);
	case CXCursor_UnaryOperator: return convert_incdec(ps, c);
	default:
		if (unchecked_expr(ps, c))
			return st_new(ps->prog, ST_BLOCK, loc);
		if (clang_isExpression(clang_getCursorKind(c)))
			return fail(ps, loc, "expression statement has no effect: a statement must be an assignment"), NULL;
		return fail(ps, loc, "unsupported statement in a fuse region"), NULL;
	}
}

/* ---- helper functions inlined with their statements ---- */

/* Whether the tokens of `body` assign to a name spelled `name` (`name = ...`, `name += ...`,
 * `name++`, `--name`): such a parameter is a local of the inlined call, not its argument
 * substituted. A local of the same name counts too, which only costs the substitution. */
static bool assigns_name(Parser *ps, CXCursor body, const char *name)
{
	static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--"};
	CXToken *toks;
	unsigned n;
	clang_tokenize(ps->tu, clang_getCursorExtent(body), &toks, &n);
	bool found = false;
	for (unsigned i = 0; i < n && !found; i++) {
		if (clang_getTokenKind(toks[i]) != CXToken_Identifier || strcmp(token_text(ps, toks[i]), name))
			continue;
		const char *next = i + 1 < n ? token_text(ps, toks[i + 1]) : "";
		const char *prev = i > 0 ? token_text(ps, toks[i - 1]) : "";
		for (size_t k = 0; k < sizeof ops / sizeof ops[0] && !found; k++)
			found = !strcmp(next, ops[k]) || (k >= 11 && !strcmp(prev, ops[k]));
	}
	clang_disposeTokens(ps->tu, toks, n);
	return found;
}

static const Expr *setup_array_read(const Expr *e);

/* Binds the parameters of helper `def` (body `body`) to the arguments of `call`, until
 * the caller restores ps->binds and ps->aliases. A pointer parameter points where its
 * argument points (into an array parameter or a local array of the caller). A scalar one
 * reads as its argument converted to its type, substituted; where the helper assigns the
 * parameter, or the argument reads an array that the body might write, it is a local
 * declared in *out with that value instead. */
static bool bind_helper_params(Parser *ps, CXCursor def, CXCursor body, CXCursor call, const char *name, Loc loc, StmtVec *out)
{
	int n = clang_Cursor_getNumArguments(def);
	if (n < 0 || n != clang_Cursor_getNumArguments(call))
		return fail(ps, loc, "call to '%s': its arguments do not match its parameters", name);
	for (int i = 0; i < n; i++) {
		CXCursor p = clang_Cursor_getArgument(def, (unsigned)i);
		CXCursor a = clang_Cursor_getArgument(call, (unsigned)i);
		CXType t = clang_getCanonicalType(clang_getCursorType(p));
		CXString pn = clang_getCursorSpelling(p);
		const char *pname = arena_strdup(&ps->prog->arena, clang_getCString(pn));
		clang_disposeString(pn);
		if (t.kind == CXType_Pointer || is_array_kind(t.kind)) {
			CXType elem = t.kind == CXType_Pointer ? clang_getPointeeType(t) : clang_getArrayElementType(t);
			ScalarType ety;
			/* `const _Float16 K[n][128]` bound to k[b][h]: rows, K[j][d] (rows_alias_elem) */
			CXType row = clang_getCanonicalType(elem);
			if (is_array_kind(row.kind))
				elem = clang_getArrayElementType(row);
			if (!scalar_type(elem, &ety))
				return fail(ps, loc_of(ps, p), "parameter '%s' of helper '%s' points to rows of rows: fusecc inlines helpers whose pointer parameters point to scalars ('const float *x', 'float x[]')", pname, name);
			PtrAlias al = {p, NULL, 0, NULL, NULL};
			bool was = ps->alias_locals;
			ps->alias_locals = true;
			bool ok = convert_pointer(ps, a, &al);
			ps->alias_locals = was;
			if (!ok)
				return false;
			al.depth = ps->depth; /* the helper's loops may walk it */
			vec_push(ps->aliases, al);
			continue;
		}
		ScalarType ty;
		bool uns;
		if (size_type(t, &uns))
			ty = TY_INT;
		else if (!scalar_type(t, &ty))
			return fail(ps, loc_of(ps, p), "parameter '%s' of helper '%s' has type '%s': fusecc inlines helpers whose parameters are scalars and pointers to scalars", pname, name, type_spelling(ps, t));
		Expr *v = convert_expr(ps, a);
		if (!v)
			return false;
		v = as_type(ps, v, ty);
		if (!assigns_name(ps, body, pname) && !setup_array_read(v)) {
			vec_push(ps->binds, ((InlineBinding){p, v}));
			continue;
		}
		Var *var = var_new(ps->prog, VAR_LOCAL, local_name(ps, pname), ty, loc_of(ps, p));
		bind_var(ps, p, var);
		Stmt *d = st_new(ps->prog, ST_DECL, loc);
		d->var = var;
		d->rhs = v;
		vec_push(*out, d);
	}
	return true;
}

/* Whether c is `if (cond) return e;` (the return alone or in braces, no else): *cond, and
 * *e (null for `return;`). */
static bool early_return_stmt(CXCursor c, CXCursor *cond, CXCursor *e)
{
	if (clang_getCursorKind(c) != CXCursor_IfStmt)
		return false;
	CursorVec ch = children(c);
	bool ok = ch.n == 2;
	CXCursor t = ok ? ch.v[1] : clang_getNullCursor();
	if (ok && clang_getCursorKind(t) == CXCursor_CompoundStmt) {
		CursorVec tb = children(t);
		ok = tb.n == 1;
		t = ok ? tb.v[0] : t;
		vec_free(tb);
	}
	ok = ok && clang_getCursorKind(t) == CXCursor_ReturnStmt;
	if (ok) {
		*cond = ch.v[0];
		*e = last_expression(t);
	}
	vec_free(ch);
	return ok;
}

/* `if (cond) return e;` with a value e. */
static bool early_return_value(CXCursor c, CXCursor *cond, CXCursor *e) { return early_return_stmt(c, cond, e) && !clang_Cursor_isNull(*e); }

/* `if (cond) return;`. */
static bool early_return_void(CXCursor c, CXCursor *cond)
{
	CXCursor e;
	return early_return_stmt(c, cond, &e) && clang_Cursor_isNull(e);
}

/* The statements st[from..] of a void helper with `if (c) return;` among them, into *out:
 * what follows each such return runs under `if (!c)`. */
static bool convert_void_returns(Parser *ps, CursorVec *st, int from, StmtVec *out)
{
	int k = from;
	CXCursor cond_c;
	while (k < st->n && !early_return_void(st->v[k], &cond_c))
		k++;
	CursorVec head = {st->v + from, k - from, k - from};
	if (k > from && !convert_stmts(ps, &head, 0, false, false, out))
		return false;
	if (k == st->n)
		return true;
	StmtVec *saved = ps->pre;
	ps->pre = NULL;
	Expr *cond = convert_expr(ps, cond_c);
	ps->pre = saved;
	StmtVec rest = {0};
	bool ok = cond && convert_void_returns(ps, st, k + 1, &rest);
	if (ok) {
		Stmt *b = st_new(ps->prog, ST_BLOCK, cond->loc);
		st_set_body(ps->prog, b, rest.v, rest.n);
		Stmt *f = st_new(ps->prog, ST_IF, cond->loc);
		f->cond = ex_un(ps->prog, UOP_NOT, cond, cond->loc);
		st_set_body(ps->prog, f, &b, 1);
		vec_push(*out, f);
	}
	vec_free(rest);
	return ok;
}

/* The statements st[from..] of a helper returning a value with `if (c) return e;` among
 * them, into *out, each return an assignment to res: `if (c) res = e; else { the rest }`. */
static bool convert_returns(Parser *ps, CursorVec *st, int from, Var *res, ScalarType rty, StmtVec *out)
{
	int k = from;
	CXCursor cond_c, e_c;
	while (k < st->n && !early_return_value(st->v[k], &cond_c, &e_c) && clang_getCursorKind(st->v[k]) != CXCursor_ReturnStmt)
		k++;
	CursorVec head = {st->v + from, k - from, k - from};
	if (k > from && !convert_stmts(ps, &head, 0, false, false, out))
		return false;
	if (k == st->n)
		return fail(ps, loc_of(ps, st->v[st->n - 1]), "this helper's body must end with 'return e;'");
	bool last = clang_getCursorKind(st->v[k]) == CXCursor_ReturnStmt;
	if (last && clang_Cursor_isNull(e_c = last_expression(st->v[k])))
		return fail(ps, loc_of(ps, st->v[k]), "this helper returns no value");
	StmtVec then = {0}, *saved = ps->pre;
	Expr *cond = last ? NULL : convert_expr(ps, cond_c);
	ps->pre = &then;
	Expr *v = (last || cond) ? convert_expr(ps, e_c) : NULL;
	ps->pre = saved;
	bool ok = v != NULL;
	if (ok) {
		Stmt *a = st_new(ps->prog, ST_ASSIGN, v->loc);
		a->lhs = ex_var(ps->prog, res, v->loc);
		a->rhs = as_type(ps, v, rty);
		a->aop = AS_SET;
		vec_push(then, a);
	}
	if (ok && last) {
		for (int i = 0; i < then.n; i++)
			vec_push(*out, then.v[i]);
	} else if (ok) {
		StmtVec rest = {0};
		ok = convert_returns(ps, st, k + 1, res, rty, &rest);
		Stmt *body[2] = {st_new(ps->prog, ST_BLOCK, cond->loc), st_new(ps->prog, ST_BLOCK, cond->loc)};
		st_set_body(ps->prog, body[0], then.v, then.n);
		st_set_body(ps->prog, body[1], rest.v, rest.n);
		Stmt *f = st_new(ps->prog, ST_IF, cond->loc);
		f->cond = cond;
		st_set_body(ps->prog, f, body, 2);
		vec_push(*out, f);
		vec_free(rest);
	}
	vec_free(then);
	return ok && (last || k + 1 <= st->n);
}

/* The statements of helper body `body` into *out: all of them, a last `return;` aside, for
 * a void helper (ret NULL); else all but the last, which must be `return e;` (e in *ret).
 * A value helper with `if (c) return e;` in its body (res not NULL) returns through a
 * local instead: its value is in *res, *ret is null. */
static bool convert_helper_body(Parser *ps, CXCursor body, const char *name, Loc loc, CXCursor *ret, StmtVec *out, Var **res, ScalarType rty)
{
	CursorVec st = children(body);
	CXCursor ec, ee;
	bool early = false;
	for (int i = 0; ret && res && i < st.n; i++)
		early |= early_return_value(st.v[i], &ec, &ee);
	if (early) {
		IterScan sc = {ps, {0}};
		iter_scan(&sc, body);
		vec_free(sc.active);
		macro_ops_scan(ps->mops, body);
		*res = var_new(ps->prog, VAR_LOCAL, local_name(ps, arena_printf(&ps->prog->arena, "%s_ret", name)), rty, loc);
		bind_var(ps, clang_getNullCursor(), *res); /* taken: a second call's result is named apart */
		Stmt *d = st_new(ps->prog, ST_DECL, loc);
		d->var = *res;
		vec_push(*out, d);
		*ret = clang_getNullCursor();
		bool ok = convert_returns(ps, &st, 0, *res, rty, out);
		vec_free(st);
		return ok;
	}
	CXCursor last = st.n ? st.v[st.n - 1] : clang_getNullCursor();
	bool ends = !clang_Cursor_isNull(last) && clang_getCursorKind(last) == CXCursor_ReturnStmt;
	if (ret) {
		*ret = ends ? last_expression(last) : clang_getNullCursor();
		if (clang_Cursor_isNull(*ret)) {
			vec_free(st);
			return fail(ps, loc, "helper '%s' is called for its value: its body must end with 'return e;'", name);
		}
	}
	if (ends)
		st.n--;
	/* its C89 iterators, and the operators its macros spell */
	IterScan sc = {ps, {0}};
	iter_scan(&sc, body);
	vec_free(sc.active);
	macro_ops_scan(ps->mops, body);
	bool ok = ret ? convert_stmts(ps, &st, 0, false, false, out) : convert_void_returns(ps, &st, 0, out);
	vec_free(st);
	return ok;
}

/* Whether helper body `body` is a chain of returns only: `if (c) return e;` statements,
 * then `return e;` (a clamp, a mask predicate, a window's start). */
static bool return_chain(CXCursor body)
{
	CursorVec st = children(body);
	CXCursor c, e;
	bool ok = st.n >= 2 && clang_getCursorKind(st.v[st.n - 1]) == CXCursor_ReturnStmt && !clang_Cursor_isNull(last_expression(st.v[st.n - 1]));
	for (int i = 0; ok && i + 1 < st.n; i++)
		ok = early_return_value(st.v[i], &c, &e);
	vec_free(st);
	return ok;
}

/* Whether e is a truth value: a comparison, a logical operation, 0 or 1. */
static bool truth_value(const Expr *e)
{
	if (e->kind == EX_INT)
		return e->ival == 0 || e->ival == 1;
	if (e->kind == EX_UN)
		return e->uop == UOP_NOT;
	return e->kind == EX_BIN && (e->bop == OP_LT || e->bop == OP_LE || e->bop == OP_GT || e->bop == OP_GE || e->bop == OP_EQ || e->bop == OP_NE ||
	                             e->bop == OP_LAND || e->bop == OP_LOR);
}

/* `c ? t : f` of truth values as `!c && f` (t = 0), `c || f` (t = 1), `c && t` (f = 0) or
 * `!c || t` (f = 1): a mask predicate written with early returns (`if (j > i) return 0;
 * if (i - j >= W) return 0; return 1;`) is then the conjunction of its conditions, which
 * the loop bounds take in (a window's blocks skipped, not masked). Else as it is. */
static Expr *truth_cond(Parser *ps, Expr *c, Expr *t, Expr *f)
{
	Program *p = ps->prog;
	Loc l = c->loc;
	if (!truth_value(t) || !truth_value(f) || (t->kind != EX_INT && f->kind != EX_INT))
		return ex_cond(p, c, t, f, l);
	Expr *notc = negate_cond(ps, c);
	if (t->kind == EX_INT && f->kind == EX_INT) /* c ? 1 : 0, c ? 0 : 1 */
		return t->ival == f->ival ? t : t->ival ? c : notc;
	if (t->kind == EX_INT)
		return t->ival ? ex_bin(p, OP_LOR, c, f, l) : ex_bin(p, OP_LAND, notc, f, l);
	return f->ival ? ex_bin(p, OP_LOR, notc, t, l) : ex_bin(p, OP_LAND, c, t, l);
}

/* The value of return chain `body` (return_chain) as one expression, `c1 ? e1 : c2 ? e2 :
 * e`, of type rty: it evaluates what the calls would, and is an expression wherever the
 * call is (a loop's bound, a `continue` condition, a mask), where the helper's
 * statements would have no place. Statements its parts need go to *out. */
static Expr *return_chain_value(Parser *ps, CXCursor body, ScalarType rty, StmtVec *out)
{
	CursorVec st = children(body);
	IterScan sc = {ps, {0}};
	iter_scan(&sc, body);
	vec_free(sc.active);
	macro_ops_scan(ps->mops, body);
	StmtVec *saved = ps->pre;
	ps->pre = out;
	Expr *v = convert_expr(ps, last_expression(st.v[st.n - 1]));
	v = v ? as_type(ps, v, rty) : NULL;
	for (int i = st.n - 2; v && i >= 0; i--) {
		CXCursor c, e;
		early_return_value(st.v[i], &c, &e);
		Expr *cv = convert_expr(ps, c), *ev = cv ? convert_expr(ps, e) : NULL;
		v = ev ? truth_cond(ps, cv, as_type(ps, ev, rty), v) : NULL;
	}
	ps->pre = saved;
	vec_free(st);
	return v;
}

/* Inlines the call `call` of helper def (body `body`) into *out: the parameters bound
 * (bind_helper_params), the body's statements under names of their own, a helper that
 * returns a value ending with `return e;` (returns). With val, e is converted, to type
 * rty, into *val while the parameters are still bound; any statements its conversion
 * needs go to *out too. The bindings end with the call. */
static bool inline_helper(Parser *ps, CXCursor call, CXCursor def, CXCursor body, const char *name, Loc loc, bool returns, ScalarType rty, Expr **val,
                          StmtVec *out)
{
	int mb = ps->binds.n, ma = ps->aliases.n;
	ps->inlining++;
	CXCursor ret;
	Var *res = NULL;
	bool ok = bind_helper_params(ps, def, body, call, name, loc, out);
	if (ok && val && return_chain(body)) {
		ok = (*val = return_chain_value(ps, body, rty, out)) != NULL;
		val = NULL;
	} else if (ok) {
		ok = convert_helper_body(ps, body, name, loc, returns ? &ret : NULL, out, val ? &res : NULL, rty);
	}
	if (ok && val && res) {
		*val = ex_var(ps->prog, res, loc);
	} else if (ok && val) {
		StmtVec *saved = ps->pre;
		ps->pre = out;
		*val = convert_expr(ps, ret);
		ps->pre = saved;
		ok = *val != NULL;
		if (ok)
			*val = as_type(ps, *val, rty);
	}
	ps->inlining--;
	ps->binds.n = mb;
	ps->aliases.n = ma;
	return ok;
}

/* A helper called in an expression whose body has statements: its body goes before the
 * statement being converted (ps->pre), and the call reads as its returned expression. */
static Expr *inline_body_call(Parser *ps, CXCursor call, CXCursor def, CXCursor body, const char *name, Loc loc, ScalarType rty, const char **why)
{
	static const char nowhere[] = "its body has statements, which go before the statement that calls it, and this expression has no statement of its own (a loop's bounds, a 'continue' or 'break' condition, set-up outside a region): assign the call to a local first";
	if (!ps->pre && !return_chain(body)) {
		*why = nowhere;
		return NULL;
	}
	if (ps->inlining >= MAX_INLINE_DEPTH) {
		*why = "helper calls nest too deep here (a recursive helper?)";
		return NULL;
	}
	Expr *r = NULL;
	StmtVec none = {0}; /* a return chain where statements have no place: it must need none */
	if (!inline_helper(ps, call, def, body, name, loc, true, rty, &r, ps->pre ? ps->pre : &none))
		ps->failed = true;
	if (none.n) {
		*why = nowhere;
		r = NULL;
	}
	vec_free(none);
	return r;
}

/* The factors of product c, left to right (`a * b * c` nests as (a * b) * c), into *out. */
static void product_factors(Parser *ps, CXCursor c, CursorVec *out)
{
	c = strip(c);
	CursorVec ch = children(c);
	Loc oploc;
	const char *op = clang_getCursorKind(c) == CXCursor_BinaryOperator && ch.n == 2 ? binary_operator(ps, c, ch.v[0], &oploc) : NULL;
	if (op && !strcmp(op, "*")) {
		product_factors(ps, ch.v[0], out);
		product_factors(ps, ch.v[1], out);
	} else {
		vec_push(*out, c);
	}
	vec_free(ch);
}

/* The size argument of memset, memcpy or malloc as a count of elements of esize bytes:
 * a product with one factor `sizeof(T)` (`n * sizeof(T)`, `sizeof(float) * N * N`,
 * `n * sizeof *p`), or a constant; NULL (reported) otherwise. */
static Expr *element_count(Parser *ps, CXCursor size, int esize, const char *name)
{
	size = strip(size);
	Loc loc = loc_of(ps, size);
	/* the factors other than sizeof as written, as the loops that use the row bound it
	 * (clang would fold a const n into a number) */
	CursorVec fs = {0};
	product_factors(ps, size, &fs);
	int at = -1;
	for (int k = 0; k < fs.n && fs.n > 1; k++)
		if (clang_getCursorKind(fs.v[k]) == CXCursor_UnaryExpr)
			at = at < 0 ? k : -2; /* two sizeofs: no count of elements */
	Expr *count = NULL;
	if (at >= 0) {
		CXEvalResult e = clang_Cursor_Evaluate(fs.v[at]);
		long long bytes = e && clang_EvalResult_getKind(e) == CXEval_Int ? clang_EvalResult_getAsLongLong(e) : -1;
		if (e)
			clang_EvalResult_dispose(e);
		if (bytes != esize) {
			fail(ps, loc_of(ps, fs.v[at]), "%s counts elements of %lld bytes but the array's are %d bytes", name, bytes, esize);
			vec_free(fs);
			return NULL;
		}
		for (int k = 0; k < fs.n; k++) {
			Expr *f = k == at ? NULL : convert_expr(ps, fs.v[k]); /* as the int it is before C widens it */
			if (k != at && !f) {
				vec_free(fs);
				return NULL;
			}
			count = !f ? count : count ? ex_bin(ps->prog, OP_MUL, count, f, f->loc) : f;
		}
	}
	vec_free(fs);
	if (count)
		return count;
	CXEvalResult r = clang_Cursor_Evaluate(size);
	if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
		long long bytes = clang_EvalResult_getAsLongLong(r);
		clang_EvalResult_dispose(r);
		if (bytes % esize)
			return fail(ps, loc, "%s of %lld bytes: not a whole number of %d-byte elements", name, bytes, esize), NULL;
		return ex_int(ps->prog, bytes / esize, loc);
	}
	if (r)
		clang_EvalResult_dispose(r);
	return fail(ps, loc, "the size of this %s must be 'n * sizeof(T)' (or 'sizeof(T) * n', or a constant) for fusecc to read it as a loop over n elements", name), NULL;
}

/* memset(p, 0, n * sizeof(T)) and memcpy(d, s, n * sizeof(T)), as C engines clear and
 * copy rows: the loop doing the same element by element. `memset(a, 0, sizeof a)` of a
 * whole local array is its zero fill. */
static Stmt *convert_mem_call(Parser *ps, CXCursor c, const char *name, Loc loc)
{
	bool set = !strcmp(name, "memset");
	if (clang_Cursor_getNumArguments(c) != 3)
		return fail(ps, loc, "%s takes three arguments", name), NULL;
	CXCursor a0 = strip(clang_Cursor_getArgument(c, 0)), a1 = clang_Cursor_getArgument(c, 1), a2 = strip(clang_Cursor_getArgument(c, 2));
	if (set && !zero_initialiser(a1))
		return fail(ps, loc_of(ps, a1), "memset with a value other than 0: fusecc reads memset as clearing a row to zero; assign the value in a loop"), NULL;
	/* sizeof a, a local array cleared whole */
	if (set && clang_getCursorKind(a2) == CXCursor_UnaryExpr && clang_getCursorKind(a0) == CXCursor_DeclRefExpr) {
		CursorVec ch = children(a2);
		CXCursor opnd = ch.n == 1 ? strip(ch.v[0]) : clang_getNullCursor();
		vec_free(ch);
		Var *v = lookup_var(ps, clang_getCursorReferenced(a0));
		if (v && v->ndim && v->kind == VAR_LOCAL && !clang_Cursor_isNull(opnd) && clang_getCursorKind(opnd) == CXCursor_DeclRefExpr &&
		    clang_equalCursors(clang_getCursorReferenced(opnd), clang_getCursorReferenced(a0)))
			return zero_fill(ps, v, v->dims, v->ndim, loc);
	}
	PtrAlias dst = {clang_getNullCursor(), NULL, 0, NULL, NULL}, src = dst;
	bool was = ps->alias_locals;
	ps->alias_locals = true;
	bool ok = convert_pointer(ps, a0, &dst) && (set || convert_pointer(ps, strip(a1), &src));
	ps->alias_locals = was;
	if (!ok)
		return NULL;
	if (!set && src.base->ty != dst.base->ty)
		return fail(ps, loc, "memcpy between arrays of different element types ('%s' and '%s'): copy with a loop, converting each element", dst.base->name, src.base->name), NULL;
	Expr *count = element_count(ps, a2, scalar_size(dst.base->ty), name);
	if (!count)
		return NULL;
	char *iname = arena_printf(&ps->prog->arena, "%s_i", dst.base->name);
	for (int k = 2; !name_unused(ps, iname); k++)
		iname = arena_printf(&ps->prog->arena, "%s_i%d", dst.base->name, k);
	Var *iv = var_new(ps->prog, VAR_LOOP, iname, TY_INT, loc);
	Stmt *s = st_new(ps->prog, ST_ASSIGN, loc);
	s->lhs = alias_elem(ps, &dst, ex_var(ps->prog, iv, loc), loc);
	s->aop = AS_SET;
	if (set) {
		ScalarType t = dst.base->ty;
		s->rhs = scalar_is_int(t) ? ex_int(ps->prog, 0, loc) : t == TY_FLOAT || t == TY_DOUBLE ? ex_flt(ps->prog, 0.0, t, loc) : ex_cast(ps->prog, t, ex_flt(ps->prog, 0.0, TY_FLOAT, loc), loc);
	} else {
		s->rhs = alias_elem(ps, &src, ex_var(ps->prog, iv, loc), loc);
	}
	Stmt *f = st_new(ps->prog, ST_FOR, loc);
	f->var = iv;
	f->lo = ex_int(ps->prog, 0, loc);
	f->hi = count;
	f->step = 1;
	st_set_body(ps->prog, f, &s, 1);
	return f;
}

/* A call as a statement: memset or memcpy of a row, or a helper function of the file
 * inlined (a block of its body, the parameters bound to the arguments), as llama2.c calls
 * `softmax(att, pos + 1);` or `rmsnorm(o, x, w, n);`. */
static Stmt *convert_call_stmt(Parser *ps, CXCursor c)
{
	Loc loc = loc_of(ps, c);
	CXString s = clang_getCursorSpelling(c);
	const char *name = arena_strdup(&ps->prog->arena, clang_getCString(s));
	clang_disposeString(s);
	if (!strcmp(name, "memset") || !strcmp(name, "memcpy"))
		return convert_mem_call(ps, c, name, loc);
	if (freed_array(ps, c))
		return fail(ps, loc, "'free' of a scratch array, which fusecc reads as a local array: free it in the block that declares it, after its last use there"), NULL;
	CXCursor def, body = helper_body(c, &def);
	if (clang_Cursor_isNull(body))
		return fail(ps, loc, "call to '%s' as a statement: fusecc inlines the helper functions defined in this file (and memset and memcpy of rows), and '%s' is not one", name, name), NULL;
	if (ps->inlining >= MAX_INLINE_DEPTH)
		return fail(ps, loc, "helper calls nest more than %d deep here (a recursive helper?): fusecc inlines every call", MAX_INLINE_DEPTH), NULL;
	StmtVec out = {0};
	bool is_void = clang_getCanonicalType(clang_getCursorResultType(def)).kind == CXType_Void;
	Stmt *r = NULL;
	if (inline_helper(ps, c, def, body, name, loc, !is_void, TY_FLOAT, NULL, &out)) {
		r = st_new(ps->prog, ST_BLOCK, loc);
		st_set_body(ps->prog, r, out.v, out.n);
	}
	vec_free(out);
	return r;
}

/* ---- pragmas ---- */

static bool in_ranges(unsigned off, const unsigned (*r)[2], int n)
{
	for (int i = 0; i < n; i++)
		if (off >= r[i][0] && off < r[i][1])
			return true;
	return false;
}

/* End offset of the logical line that starts at `off` (backslash-newlines continue it). */
static size_t logical_line_end(const char *text, size_t len, size_t off)
{
	while (off < len && text[off] != '\n') {
		if (text[off] == '\\') {
			size_t k = off + 1;
			if (k < len && text[k] == '\r')
				k++;
			if (k < len && text[k] == '\n') {
				off = k + 1;
				continue;
			}
		}
		off++;
	}
	return off;
}

/* Finds every `#pragma fuse` line of the main file (outside `#if 0` and comments), groups
 * consecutive ones, and records the offset of the `for` that must follow each group. */
static bool scan_pragmas(Parser *ps, const char *text, size_t len)
{
	CXSourceRangeList *sk = clang_getSkippedRanges(ps->tu, ps->main_file);
	unsigned(*skipped)[2] = calloc(sk->count + 1, sizeof *skipped);
	for (unsigned i = 0; i < sk->count; i++) {
		skipped[i][0] = offset_of(clang_getRangeStart(sk->ranges[i]));
		skipped[i][1] = offset_of(clang_getRangeEnd(sk->ranges[i]));
	}
	int nskipped = (int)sk->count;
	clang_disposeSourceRangeList(sk);

	CXSourceRange whole = clang_getRange(clang_getLocationForOffset(ps->tu, ps->main_file, 0),
	                                     clang_getLocationForOffset(ps->tu, ps->main_file, (unsigned)len));
	CXToken *toks;
	unsigned n;
	clang_tokenize(ps->tu, whole, &toks, &n);
	PragmaGroup *open = NULL;
	for (unsigned i = 0; i < n; i++) {
		if (clang_getTokenKind(toks[i]) == CXToken_Comment)
			continue;
		unsigned off = offset_of(clang_getTokenLocation(ps->tu, toks[i]));
		if (in_ranges(off, (const unsigned(*)[2])skipped, nskipped))
			continue;
		const char *t = token_text(ps, toks[i]);
		bool is_fuse = !strcmp(t, "#") && i + 2 < n && !strcmp(token_text(ps, toks[i + 1]), "pragma") &&
		               !strcmp(token_text(ps, toks[i + 2]), "fuse");
		if (!strcmp(t, "_Pragma") && i + 2 < n && !strncmp(token_text(ps, toks[i + 2]), "\"fuse", 5)) {
			fail(ps, loc_of_location(ps, clang_getTokenLocation(ps->tu, toks[i])), "write '#pragma fuse' as a directive; '_Pragma(\"fuse ...\")' is not supported");
			continue;
		}
		if (is_fuse) {
			size_t end = logical_line_end(text, len, off);
			if (!open) {
				PragmaGroup g = {0};
				g.loc = loc_of_location(ps, clang_getTokenLocation(ps->tu, toks[i]));
				vec_push(ps->pragmas, g);
				open = &ps->pragmas.v[ps->pragmas.n - 1];
			}
			PragmaLine line = {loc_of_location(ps, clang_getTokenLocation(ps->tu, toks[i])), NULL, 0};
			VEC(PTok) pt = {0};
			for (i += 3; i < n && offset_of(clang_getTokenLocation(ps->tu, toks[i])) < end; i++) {
				CXTokenKind k = clang_getTokenKind(toks[i]);
				if (k == CXToken_Comment)
					continue;
				PTok tok = {k == CXToken_Identifier || k == CXToken_Keyword ? PT_IDENT : k == CXToken_Literal ? PT_NUMBER : k == CXToken_Punctuation ? PT_PUNCT : PT_OTHER,
				            token_text(ps, toks[i]), loc_of_location(ps, clang_getTokenLocation(ps->tu, toks[i]))};
				if (tok.kind == PT_NUMBER && !(tok.text[0] >= '0' && tok.text[0] <= '9'))
					tok.kind = PT_OTHER; /* string or character literal */
				vec_push(pt, tok);
			}
			i--;
			line.toks = arena_alloc(&ps->prog->arena, sizeof(PTok) * (size_t)(pt.n ? pt.n : 1));
			if (pt.n)
				memcpy(line.toks, pt.v, sizeof(PTok) * (size_t)pt.n);
			line.ntoks = pt.n;
			vec_free(pt);
			vec_push(open->lines, line);
			continue;
		}
		if (open && !strcmp(t, "#") && i + 1 < n && !strcmp(token_text(ps, toks[i + 1]), "pragma")) {
			/* another pragma between the fuse lines and the loop (a CPU reference's
			 * `#pragma omp parallel for`): the compiler's, not fusecc's; skipped */
			size_t end = logical_line_end(text, len, off);
			while (i + 1 < n && offset_of(clang_getTokenLocation(ps->tu, toks[i + 1])) < end)
				i++;
			continue;
		}
		if (open) {
			if (!strcmp(t, "for") || macro_expands_to_for(ps->mops, toks + i, n - i)) {
				open->for_offset = off;
			} else {
				fail(ps, open->loc, "'#pragma fuse' must be followed by a for statement");
				open->used = true;
			}
			open = NULL;
		}
	}
	if (open) {
		fail(ps, open->loc, "'#pragma fuse' must be followed by a for statement");
		open->used = true;
	}
	clang_disposeTokens(ps->tu, toks, n);
	free(skipped);
	return !ps->failed;
}

/* ---- functions ---- */

static PragmaGroup *pragma_for(Parser *ps, CXCursor for_stmt)
{
	if (clang_getCursorKind(for_stmt) != CXCursor_ForStmt)
		return NULL;
	unsigned off = offset_of(clang_getRangeStart(clang_getCursorExtent(for_stmt)));
	for (int i = 0; i < ps->pragmas.n; i++)
		if (ps->pragmas.v[i].for_offset == off && ps->pragmas.v[i].lines.n)
			return &ps->pragmas.v[i];
	return NULL;
}

/* What the region costs the dependence analysis: the sum over the statements it models
 * (assignments, initialised declarations) of the loops around each. */
/* ---- loop bounds from clamped locals ---- */

static bool is_var(const Expr *e, const Var *x) { return e->kind == EX_VAR && e->var == x; }

/* `if (x < a) x = a;` (or >, either operand order, no else): the clamp's value of x when
 * it was e before, `e < a ? a : e`; also the clamp written as one assignment from x,
 * `x = x < a ? a : x;` (any integer value of x: e read for x). NULL if s is not such an
 * update of x. */
static Expr *clamp_value(Program *p, const Stmt *s, const Var *x, const Expr *e)
{
	if (s->kind == ST_ASSIGN && s->aop == AS_SET && is_var(s->lhs, x) && scalar_is_int(s->rhs->ty) && expr_reads_var(s->rhs, x))
		return expr_subst_expr(p, s->rhs, x, e);
	if (s->kind != ST_IF || (s->nbody > 1 && s->body[1]))
		return NULL;
	const Stmt *a = s->body[0];
	while (a->kind == ST_BLOCK && a->nbody == 1)
		a = a->body[0];
	const Expr *c = s->cond;
	if (a->kind != ST_ASSIGN || a->aop != AS_SET || !is_var(a->lhs, x) || expr_reads_var(a->rhs, x) || c->kind != EX_BIN)
		return NULL;
	BinOp op = c->bop;
	const Expr *l = c->args[0], *r = c->args[1];
	if (is_var(r, x)) { /* a > x is x < a */
		const Expr *t = l;
		l = r;
		r = t;
		op = binop_mirror(op);
	}
	if (!is_var(l, x) || !expr_equal(r, a->rhs) || (op != OP_LT && op != OP_GT && op != OP_LE && op != OP_GE))
		return NULL;
	Expr *ec = ex_bin(p, op, ex_copy(p, e), ex_copy(p, a->rhs), c->loc);
	return ex_cond(p, ec, ex_copy(p, a->rhs), ex_copy(p, e), s->loc);
}

/* An integer local set once before the loops that read it in their bounds, and its value
 * (converted to the local's type). */
typedef struct {
	const Var *var;
	Expr *val;
} BoundDef;
typedef VEC(BoundDef) BoundDefs;

/* e with each local of env replaced by its value. The values hold no local of env
 * (each was resolved when it was added), so a chain `npages = ...; kv_len = (npages - 1)
 * * PAGE + last[b]` resolves in one pass. */
static Expr *resolve_bound(Program *p, Expr *e, const BoundDefs *env)
{
	for (int i = 0; i < env->n; i++)
		if (expr_reads_var(e, env->v[i].var))
			e = expr_subst_expr(p, e, env->v[i].var, env->v[i].val);
	return e;
}

/* Whether a statement of body[from..n) writes a variable that e reads. */
static bool written_after(const Expr *e, Stmt *const *body, int from, int n)
{
	if (!e)
		return false;
	if (e->kind == EX_VAR || e->kind == EX_INDEX)
		for (int k = from; k < n; k++)
			if (stmt_writes_var(body[k], e->var))
				return true;
	for (int i = 0; i < e->nargs; i++)
		if (written_after(e->args[i], body, from, n))
			return true;
	return false;
}

/* The value a loop bound may read int local d (body[i] of a block, `int x = e;`) as: e,
 * or the clamp's ternary when body[i + 1] clamps it, resolved through env; *next is the
 * statement after them. NULL when x is stored again or what e reads changes later. */
static Expr *bound_def(Program *p, Stmt *const *body, int i, int n, const BoundDefs *env, int *next)
{
	const Stmt *d = body[i];
	if (d->kind != ST_DECL || d->var->ndim || !scalar_is_int(d->var->ty) || !d->rhs)
		return NULL;
	Expr *v = ex_as_type(p, d->var->ty, d->rhs);
	int writes = 0;
	*next = i + 1;
	Expr *c = *next < n ? clamp_value(p, body[*next], d->var, v) : NULL;
	if (c) {
		v = c;
		writes = 1;
		(*next)++;
	}
	int total = 0;
	for (int k = 0; k < n; k++)
		total += stmt_count_stores(body[k], d->var);
	if (total != writes || written_after(v, body, i + 1, n))
		return NULL;
	return resolve_bound(p, v, env);
}

/* Loop bounds that read integer locals the region sets once before them, `int lo = e;`,
 * optionally clamped (`if (lo < 0) lo = 0;`), read the locals' values instead: an end
 * `j <= hi` (hi + 1) or a local defined from another (`kv_len = (npages - 1) * PAGE +
 * last[b]`) becomes an expression over iterators, parameters and array reads (a ternary
 * for a clamp, which the dependence analysis reads as a max or min). The locals stay.
 * env holds the locals of the enclosing blocks. */
static void fold_bounds(Program *p, Stmt *s, BoundDefs *env)
{
	if (!s)
		return;
	int mark = env->n;
	if (s->kind == ST_FOR) {
		s->lo = resolve_bound(p, s->lo, env);
		s->hi = resolve_bound(p, s->hi, env);
	}
	for (int i = 0; i < s->nbody; i++) {
		int next;
		Expr *v = s->kind == ST_BLOCK ? bound_def(p, s->body, i, s->nbody, env, &next) : NULL;
		if (v) {
			vec_push(*env, ((BoundDef){s->body[i]->var, v}));
			i = next - 1;
			continue;
		}
		fold_bounds(p, s->body[i], env);
	}
	env->n = mark;
}

static void fold_clamped_bounds(Program *p, Stmt *s)
{
	BoundDefs env = {0};
	fold_bounds(p, s, &env);
	vec_free(env);
}

/* ---- loops from an offset read from an array ---- */

/* e with one term equal to a removed from its sum (`cu[s] + t + 1` less cu[s] is t + 1):
 * *done tells whether e had such a term (added, not subtracted); e otherwise. */
static Expr *cancel_term(Program *p, Expr *e, const Expr *a, bool *done)
{
	if (expr_equal(e, a)) {
		*done = true;
		return ex_int(p, 0, e->loc);
	}
	/* through a conversion that keeps every value (int to int64_t: a local's type) */
	if (e->kind == EX_CAST && (e->ty == TY_INT || e->ty == TY_I64) && (e->args[0]->ty == TY_INT || e->args[0]->ty == TY_I64) &&
	    scalar_size(e->ty) >= scalar_size(e->args[0]->ty)) {
		Expr *r = cancel_term(p, e->args[0], a, done);
		return *done ? ex_cast(p, e->ty, r, e->loc) : e;
	}
	/* a selection both of whose values add it (a start clamped to the sequence's first
	 * row: `t - W + 1 < cu[s] ? cu[s] : t - W + 1` once t is cu[s] + t) */
	if (e->kind == EX_COND) {
		bool d1 = false, d2 = false;
		Expr *x = cancel_term(p, e->args[1], a, &d1), *y = cancel_term(p, e->args[2], a, &d2);
		if (!d1 || !d2)
			return e;
		*done = true;
		return ex_cond(p, e->args[0], x, y, e->loc);
	}
	if (e->kind != EX_BIN || (e->bop != OP_ADD && e->bop != OP_SUB))
		return e;
	for (int i = 0; i < (e->bop == OP_ADD ? 2 : 1); i++) {
		Expr *r = cancel_term(p, e->args[i], a, done);
		if (!*done)
			continue;
		Expr *other = e->args[1 - i];
		if (is_zero(r))
			return e->bop == OP_SUB ? ex_un(p, UOP_NEG, other, e->loc) : other;
		return i ? ex_bin(p, OP_ADD, other, r, e->loc) : ex_bin(p, e->bop, r, other, e->loc);
	}
	return e;
}

/* e - a, a cancelled in e where e adds it. */
static Expr *minus_term(Program *p, Expr *e, const Expr *a)
{
	bool done = false;
	Expr *r = cancel_term(p, e, a, &done);
	return done ? r : ex_bin(p, OP_SUB, e, ex_copy(p, a), e->loc);
}

/* e with a dropped from both sides of each comparison that adds it to both (after v is
 * read as a + v: `cu[s] + u <= cu[s] + t` is u <= t), so that the bounds and guards of
 * the loops keep the forms the analyses read. e is a fresh copy: changed in place. */
static Expr *cancel_compares(Program *p, Expr *e, const Expr *a)
{
	if (!e)
		return NULL;
	for (int i = 0; i < e->nargs; i++)
		e->args[i] = cancel_compares(p, e->args[i], a);
	if (e->kind == EX_BIN && e->bop >= OP_LT && e->bop <= OP_NE) {
		bool d0 = false, d1 = false;
		Expr *l = cancel_term(p, e->args[0], a, &d0), *r = cancel_term(p, e->args[1], a, &d1);
		if (d0 && d1)
			return ex_bin(p, e->bop, l, r, e->loc);
	}
	return e;
}

/* Every expression of s, and the extents of the local arrays it declares, with iterator
 * v read as av = a + v. */
static void shift_stmt(Program *p, Stmt *s, const Var *v, const Expr *a, const Expr *av)
{
	if (!s)
		return;
	Expr **es[] = {&s->lo, &s->hi, &s->lhs, &s->rhs, &s->cond};
	for (int i = 0; i < 5; i++)
		if (*es[i])
			*es[i] = cancel_compares(p, expr_subst_expr(p, *es[i], v, av), a);
	if (s->kind == ST_DECL)
		for (int d = 0; d < s->var->ndim; d++)
			s->var->dims[d] = cancel_compares(p, expr_subst_expr(p, s->var->dims[d], v, av), a);
	for (int i = 0; i < s->nbody; i++)
		shift_stmt(p, s->body[i], v, a, av);
}

/* ---- a local row indexed from a shifted start ---- */

typedef struct {
	const Var *arr;     /* the local array */
	const Expr *base;   /* the start every access adds (the first met) */
	const Stmt *region; /* nothing in it may write what base reads */
	bool ok;
} RowBase;

/* Whether e reads only parameters (scalars, and arrays region does not write) and
 * iterators. */
static bool reads_fixed(const Expr *e, const Stmt *region)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) &&
	    !((e->var->kind == VAR_PARAM && !stmt_writes_var(region, e->var)) || (e->kind == EX_VAR && e->var->kind == VAR_LOOP)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!reads_fixed(e->args[i], region))
			return false;
	return true;
}

/* Checks (rewrite false) or rewrites every access of rb->arr in e: `arr[base + v]`, v an
 * iterator, becomes `arr[v]`. */
static void row_base_expr(Expr *e, RowBase *rb, bool rewrite)
{
	if (!e)
		return;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var == rb->arr) {
		Expr *x = e->kind == EX_INDEX && e->nargs == 1 ? e->args[0] : NULL;
		bool form = x && x->kind == EX_BIN && x->bop == OP_ADD && x->args[1]->kind == EX_VAR && x->args[1]->var->kind == VAR_LOOP &&
		            !expr_reads_var(x->args[0], x->args[1]->var) && expr_reads_element(x->args[0]) && reads_fixed(x->args[0], rb->region);
		if (!form || (rb->base && !expr_equal(rb->base, x->args[0]))) {
			rb->ok = false;
			return;
		}
		rb->base = x->args[0];
		if (rewrite)
			e->args[0] = x->args[1];
		return;
	}
	for (int i = 0; i < e->nargs; i++)
		row_base_expr(e->args[i], rb, rewrite);
}

static void row_base_stmt(Stmt *s, RowBase *rb, bool rewrite)
{
	if (!s)
		return;
	Expr *es[] = {s->lo, s->hi, s->lhs, s->rhs, s->cond};
	for (int i = 0; i < 5; i++)
		row_base_expr(es[i], rb, rewrite);
	for (int i = 0; i < s->nbody; i++)
		row_base_stmt(s->body[i], rb, rewrite);
}

/* Local rows of the region each of whose accesses, once loops from a start read from an
 * array count from 0 (shift_data_starts), is `row[start + j]` with one start: `float
 * kq[L]; for (j = lo; j <= pos; j++) kq[j] = ...` of a window decode, lo from seq_len[b].
 * The start reads parameters and iterators only, the same value in every loop, and
 * every element the C touches is start + j with j >= 0 (the C's index is not negative):
 * indexed at j instead, the same elements moved down by the start, which no access sees,
 * and an affine store. */
static void unshift_local_rows(Stmt *region, Stmt *s)
{
	if (!s)
		return;
	if (s->kind == ST_DECL && s->var->kind == VAR_LOCAL && s->var->ndim == 1) {
		RowBase rb = {s->var, NULL, region, true};
		row_base_stmt(region, &rb, false);
		if (rb.ok && rb.base)
			row_base_stmt(region, &rb, true);
	}
	for (int i = 0; i < s->nbody; i++)
		unshift_local_rows(region, s->body[i]);
}

/* What a loop starting at lo (which reads an array) counts from: lo itself, or, where lo
 * selects between an offset read from arrays and a value adding that offset (a window's
 * first key clamped to its sequence's first row, `t - W + 1 < cu[s] ? cu[s] : t - W + 1`
 * once the row loop counts from cu[s]), that offset: the loop then reads x[cu[s] + u]
 * from the same offset as the rows, where counting from lo would put a per-row value
 * in every key's subscript. */
static const Expr *data_base(Program *p, const Expr *lo)
{
	while (lo->kind == EX_CAST && scalar_is_int(lo->ty))
		lo = lo->args[0];
	if (lo->kind != EX_COND)
		return lo;
	for (int side = 1; side <= 2; side++) {
		const Expr *b = lo->args[side];
		while (b->kind == EX_CAST && scalar_is_int(b->ty))
			b = b->args[0];
		bool done = false;
		Expr *rest = cancel_term(p, ex_copy(p, lo->args[3 - side]), b, &done);
		if (expr_reads_element(b) && done && !expr_reads_element(rest))
			return b;
	}
	return lo;
}

/* Whether what e reads, variables and arrays, keeps its value through loop s: neither s's
 * iterator nor stored in s (the start is read once, before the loop; the shifted body
 * reads it again at every use). */
static bool invariant_in(const Expr *e, const Stmt *s)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && (e->var == s->var || stmt_writes_var(s, e->var)))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!invariant_in(e->args[i], s))
			return false;
	return true;
}

/* A loop over absolute rows, `for (t = cu[s]; t < cu[s + 1]; t++) body` (varlen, CSR,
 * EmbeddingBag offsets), whose start is read from an array and so has no affine form,
 * becomes `for (t = 0; t < cu[s + 1] - cu[s]; t++) body[t := cu[s] + t]`: rows of a
 * packed batch, x[cu[s] + t]. A loop inside from the same start to t (causal keys,
 * `u <= t`) becomes u < t + 1, the start cancelled; one from a start clamped to it (a
 * sliding window, data_base) counts from the same offset, `u = t - W + 1 < 0 ? 0 : t - W
 * + 1`. A start that reads what the loop stores stays (then refused as not affine). */
static bool reads_iterator_unsubscripted(const Expr *e)
{
	if (e->kind == EX_VAR && e->var->kind == VAR_LOOP)
		return true;
	if (e->kind == EX_INDEX)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (reads_iterator_unsubscripted(e->args[i]))
			return true;
	return false;
}

/* A start relative to an outer iterator with no offset of its own (a window per head,
 * `i - win[h] + 1`, clamped at 0) reads the element as a length, not as where the data
 * start: counting from it would put a per-row value in every key's subscript (the rows
 * of a tile could not share keys). It stays; the dependence model leaves such a start
 * free (deps.c). */
static void shift_data_starts(Program *p, Stmt *s)
{
	if (!s)
		return;
	if (s->kind == ST_FOR && s->step == 1 && expr_reads_element(s->lo) && invariant_in(s->lo, s) &&
	    !(data_base(p, s->lo) == s->lo && reads_iterator_unsubscripted(s->lo))) {
		Expr *a = ex_copy(p, data_base(p, s->lo));
		Expr *av = ex_bin(p, OP_ADD, ex_copy(p, a), ex_var(p, s->var, s->loc), s->loc);
		s->hi = minus_term(p, s->hi, a);
		s->lo = cancel_compares(p, minus_term(p, ex_copy(p, s->lo), a), a);
		for (int i = 0; i < s->nbody; i++)
			shift_stmt(p, s->body[i], s->var, a, av);
	}
	for (int i = 0; i < s->nbody; i++)
		shift_data_starts(p, s->body[i]);
}

/* ---- locals declared before they are set ---- */

/* Whether s is `x = e` with e not reading x. */
static bool sets_var(const Stmt *s, const Var *x)
{
	return s->kind == ST_ASSIGN && s->aop == AS_SET && s->lhs->kind == EX_VAR && s->lhs->var == x && !expr_reads_var(s->rhs, x);
}

static bool touches(const Stmt *s, const Var *x) { return stmt_reads_var(s, x) || stmt_writes_var(s, x); }

/* Whether every iteration of loop l sets scalar x before anything else touches it: the
 * first statement of the body that touches x is `x = e`, not under a condition. */
static bool set_first_in_loop(const Stmt *l, const Var *x)
{
	if (expr_reads_var(l->lo, x) || expr_reads_var(l->hi, x))
		return false;
	const Stmt *b = l->body[0];
	Stmt *const *body = b->kind == ST_BLOCK ? b->body : &l->body[0];
	int n = b->kind == ST_BLOCK ? b->nbody : 1;
	for (int i = 0; i < n; i++)
		if (touches(body[i], x))
			return sets_var(body[i], x);
	return false;
}

/* Whether the statements of block s after its k-th that touch scalar x are loops, each
 * of whose iterations sets x before reading it (set_first_in_loop, or loop_sets_first
 * through ifs and inner loops): scratch of those loops, none reading what another left. */
static bool scratch_of_loops(const Stmt *s, int k, const Var *x)
{
	int n = 0;
	for (int t = k + 1; t < s->nbody; t++) {
		if (!touches(s->body[t], x))
			continue;
		if (s->body[t]->kind != ST_FOR || !(set_first_in_loop(s->body[t], x) || loop_sets_first(s->body[t], x)))
			return false;
		n++;
	}
	return n > 0;
}

/* Replaces variable `from` by `to` in e, in place. */
static void rename_in_expr(Expr *e, const Var *from, Var *to)
{
	if (!e)
		return;
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && e->var == from)
		e->var = to;
	for (int i = 0; i < e->nargs; i++)
		rename_in_expr(e->args[i], from, to);
}

/* Replaces local `from` by `to` in s, in place (reads, writes, declarations). */
static void rename_var(Stmt *s, const Var *from, Var *to)
{
	if (!s)
		return;
	Expr *es[] = {s->lo, s->hi, s->rhs, s->cond, s->lhs};
	for (size_t i = 0; i < sizeof es / sizeof es[0]; i++)
		rename_in_expr(es[i], from, to);
	if (s->kind == ST_DECL && s->var == from)
		s->var = to;
	for (int i = 0; i < s->nbody; i++)
		rename_var(s->body[i], from, to);
}

/* A new local like v (name, type, extents). */
static Var *var_like(Program *p, const Var *v)
{
	Var *nv = var_new(p, VAR_LOCAL, v->name, v->ty, v->loc);
	nv->ctype = v->ctype;
	nv->ndim = v->ndim;
	nv->dims = v->dims;
	return nv;
}

/* Puts d first in the body of loop f, or in the then branch of if f. */
static void prepend_stmt(Program *p, Stmt *f, Stmt *d)
{
	Stmt *b = f->body[0];
	int nb = b->kind == ST_BLOCK ? b->nbody : 1;
	Stmt **body = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(nb + 1));
	body[0] = d;
	for (int i = 0; i < nb; i++)
		body[i + 1] = b->kind == ST_BLOCK ? b->body[i] : b;
	Stmt *blk = st_new(p, ST_BLOCK, b->loc);
	st_set_body(p, blk, body, nb + 1);
	f->body[0] = blk;
}

/* Scalar locals declared without a value and set later, the C89 way (`float m, l, x;
 * ... m = -INFINITY;`), are declared where they are first set (`float m = -INFINITY;`),
 * when nothing touches them in between; one that only later loops use, set first in
 * each of their iterations (scratch: `x = 0; for (d) x += ...;`, in both passes over the
 * keys), is declared in each loop's body first, a local of its own per loop; one that
 * only the then branch of an if uses is declared there. That is the form `for (int j ...) { float x = 0; ... }` has, which
 * the fuser's matchers know and in which the dependence analysis sees that the loop
 * carries nothing through x. */
static void sink_decls(Program *p, Stmt *s)
{
	if (!s)
		return;
	for (int k = 0; s->kind == ST_BLOCK && k < s->nbody; k++) {
		Stmt *d = s->body[k];
		if (d->kind != ST_DECL || d->rhs || d->var->ndim)
			continue;
		int first = -1, n = 0;
		for (int t = k + 1; t < s->nbody; t++)
			if (touches(s->body[t], d->var)) {
				if (first < 0)
					first = t;
				n++;
			}
		if (first < 0)
			continue;
		Stmt *f = s->body[first];
		if (sets_var(f, d->var)) {
			Stmt *nd = st_new(p, ST_DECL, d->loc);
			nd->var = d->var;
			nd->rhs = f->rhs;
			s->body[first] = nd;
		} else if (n == 1 && f->kind == ST_IF && !expr_reads_var(f->cond, d->var) && !(f->nbody > 1 && touches(f->body[1], d->var))) {
			/* used only under the if (a loop's body after `if (c) continue;`) */
			prepend_stmt(p, f, d);
		} else if (scratch_of_loops(s, k, d->var)) {
			/* Each loop gets a local of its own (the first the user's). */
			for (int t = k + 1, seen = 0; t < s->nbody; t++) {
				if (!touches(s->body[t], d->var))
					continue;
				Stmt *nd = d;
				if (seen++) {
					Var *nv = var_like(p, d->var);
					rename_var(s->body[t], d->var, nv);
					nd = st_new(p, ST_DECL, d->loc);
					nd->var = nv;
				}
				prepend_stmt(p, s->body[t], nd);
			}
		} else {
			continue;
		}
		memmove(&s->body[k], &s->body[k + 1], sizeof(Stmt *) * (size_t)(s->nbody - k - 1));
		s->nbody--;
		k--;
	}
	for (int i = 0; i < s->nbody; i++)
		sink_decls(p, s->body[i]);
}

static int region_weight(const Stmt *s, int depth)
{
	if (s->kind == ST_FOR)
		depth++;
	int w = s->kind == ST_ASSIGN || (s->kind == ST_DECL && s->rhs) ? depth : 0;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i])
			w += region_weight(s->body[i], depth);
	return w;
}

static bool name_taken(Program *p, const char *name)
{
	for (int f = 0; f < p->nfuncs; f++)
		for (int r = 0; r < p->funcs[f]->nregions; r++)
			if (!strcmp(p->funcs[f]->regions[r]->name, name))
				return true;
	return false;
}

/* A function whose body holds regions: its parameters, then each region. Every statement
 * of such a body must be a region (the fused output replaces the whole function). */
/* ---- scalar set-up between the regions ---- */

typedef VEC(Var *) VarVec;

/* The first read of an array in e: set-up runs on the host, before the kernels, where
 * the arrays are device memory. */
static const Expr *setup_array_read(const Expr *e)
{
	if (!e)
		return NULL;
	if (e->kind == EX_INDEX)
		return e;
	for (int i = 0; i < e->nargs; i++) {
		const Expr *r = setup_array_read(e->args[i]);
		if (r)
			return r;
	}
	return NULL;
}

/* Whether e is an array element at constant subscripts (`stats[1]`, `*loss`). */
static bool const_elem(const Expr *e)
{
	if (e->kind != EX_INDEX)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (e->args[i]->kind != EX_INT)
			return false;
	return true;
}

/* Checks one converted set-up statement: scalars computed from scalars, nothing else.
 * A set-up scalar may not change once a region has read it (the kernels see one value). */
static bool setup_check(Parser *ps, const Stmt *s, Region *const *regions, int nregions, bool top)
{
	const Expr *bad = NULL;
	bool elem = s->kind == ST_ASSIGN && top && const_elem(s->lhs);
	switch (s->kind) {
	case ST_BLOCK:
		for (int i = 0; i < s->nbody; i++)
			if (!setup_check(ps, s->body[i], regions, nregions, false))
				return false;
		return true;
	case ST_IF:
		bad = setup_array_read(s->cond);
		for (int i = 0; !bad && i < s->nbody; i++)
			if (!setup_check(ps, s->body[i], regions, nregions, false))
				return false;
		break;
	case ST_DECL:
		/* An array is refused by finish_setup unless a region takes it (localise_scratch);
		 * so is a scalar read from an array (`const int W = windows[layer];`) unless the
		 * regions that read it take a copy (sink_device_setup). */
		bad = s->var->ndim || !top ? setup_array_read(s->rhs) : NULL;
		break;
	case ST_ASSIGN:
		if (s->lhs->kind == EX_INDEX && !elem)
			return fail(ps, s->loc, "'%s' is written outside a '#pragma fuse kernel' region: only scalar set-up may go there; write arrays inside a region", s->lhs->var->name);
		if (s->lhs->kind == EX_INDEX) { /* the start of a sum, maybe: element_sums decides */
			bad = setup_array_read(s->rhs);
			break;
		}
		for (int r = 0; r < nregions; r++)
			if (stmt_reads_var(regions[r]->loop, s->lhs->var))
				return fail(ps, s->loc, "'%s' is changed after region '%s' reads it: the kernels see one value, so finish setting it up before the first region", s->lhs->var->name, regions[r]->name);
		bad = setup_array_read(s->rhs);
		break;
	case ST_FOR:
		return fail(ps, s->loc, "a loop outside a '#pragma fuse kernel' region: fusecc compiles only regions; put '#pragma fuse kernel' before it, or move it into a region");
	}
	if (bad)
		return fail(ps, bad->loc, "set-up outside a region may read only scalars: it runs on the host before the kernels, where '%s' is device memory; read it inside the region", bad->var->name);
	return true;
}

/* In the GPU printers' reparse, a set-up int local they specialise (a head size computed
 * by `int hs = C / NH;`, flat.c's SizeDiv) reads as its constant after its declaration,
 * as a specialised parameter does; the declaration stays (the launcher computes it). */
static void bind_spec_setup(Parser *ps, CXCursor c, const Var *v)
{
	const FrontOptions *o = ps->opt;
	if (v->ty != TY_INT || v->ndim || !o->spec_fn || strcmp(o->spec_fn, ps->fn_name))
		return;
	for (int k = 0; k < o->nspec; k++) {
		if (strcmp(o->spec_names[k], v->name))
			continue;
		CursorVec ds = children(c);
		for (int i = 0; i < ds.n; i++) {
			CXString nm = clang_getCursorSpelling(ds.v[i]);
			if (clang_getCursorKind(ds.v[i]) == CXCursor_VarDecl && !strcmp(clang_getCString(nm), v->name))
				vec_push(ps->binds, ((InlineBinding){ds.v[i], ex_int(ps->prog, o->spec_values[k], v->loc)}));
			clang_disposeString(nm);
		}
		vec_free(ds);
	}
}

/* Whether expression statement c is one a CPU reference keeps for its own checking:
 * `assert(e)` (the macro, also as NDEBUG leaves it) or a cast to void (`(void)flags;`).
 * It has no effect on the results: fusecc leaves it out of what it prints. */
static bool unchecked_expr(Parser *ps, CXCursor c)
{
	if (!clang_isExpression(clang_getCursorKind(c)))
		return false;
	CXCursor e = strip(c);
	if (clang_getCursorKind(e) == CXCursor_CStyleCastExpr && clang_getCursorType(e).kind == CXType_Void)
		return true;
	/* a macro's expansion has no tokens of its own: read the source at the invocation */
	CXFile file;
	unsigned off;
	clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, &off);
	size_t size;
	const char *text = file ? clang_getFileContents(ps->tu, file, &size) : NULL;
	bool is_assert = text && off + 6 < size && !strncmp(text + off, "assert", 6) && !(isalnum((unsigned char)text[off + 6]) || text[off + 6] == '_');
	return is_assert;
}

/* Whether e reads no array and no variable other than scalar parameters. */
static bool reads_scalar_params_only(const Expr *e)
{
	if ((e->kind == EX_VAR || e->kind == EX_INDEX) && (e->var->kind != VAR_PARAM || e->var->ndim))
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (!reads_scalar_params_only(e->args[i]))
			return false;
	return true;
}

/* `if (cond) return;` (no else; the return alone or in braces) before the first region:
 * cond, which must read only scalar parameters, is or-ed into *exit_when (Func.exit_when)
 * and true returned. false, with nothing reported, for an if of another shape; after a
 * region, or with another condition, reported. */
static bool early_return(Parser *ps, CXCursor c, int nregions, Expr **exit_when)
{
	CursorVec ch = children(c);
	bool ret = false;
	if (ch.n == 2) {
		CXCursor t = ch.v[1];
		if (clang_getCursorKind(t) == CXCursor_CompoundStmt) {
			CursorVec tb = children(t);
			if (tb.n == 1)
				t = tb.v[0];
			vec_free(tb);
		}
		ret = clang_getCursorKind(t) == CXCursor_ReturnStmt;
		CursorVec rv = ret ? children(t) : (CursorVec){0};
		ret = ret && rv.n == 0;
		vec_free(rv);
	}
	if (!ret) {
		vec_free(ch);
		return false;
	}
	Loc loc = loc_of(ps, c);
	if (nregions) {
		vec_free(ch);
		return fail(ps, loc, "a 'return' after a '#pragma fuse kernel' region: fusecc runs every region of a function; return only before the first"), true;
	}
	Expr *cond = convert_expr(ps, ch.v[0]);
	vec_free(ch);
	if (!cond)
		return true;
	if (!reads_scalar_params_only(cond))
		return fail(ps, cond->loc, "the condition of an early 'return' may read only scalar parameters (the launcher tests it before any kernel)"), true;
	*exit_when = *exit_when ? ex_bin(ps->prog, OP_LOR, *exit_when, cond, loc) : cond;
	return true;
}

/* A statement of the function body that is not a region: scalar set-up (declarations,
 * assignments and ifs of scalar locals computed from parameters) is kept in order in
 * *setup; anything else is refused with the reason. */
static void convert_setup(Parser *ps, CXCursor c, Region *const *regions, int nregions, StmtVec *setup, VarVec *svars, Expr **exit_when)
{
	StmtVec got = {0};
	enum CXCursorKind k = clang_getCursorKind(c);
	if (unchecked_expr(ps, c))
		return;
	if (k == CXCursor_IfStmt && early_return(ps, c, nregions, exit_when))
		return;
	if (k == CXCursor_DeclStmt) {
		if (!convert_decl(ps, c, &got)) {
			vec_free(got);
			return;
		}
	} else if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
		fail(ps, loc_of(ps, c), "a loop outside a '#pragma fuse kernel' region: fusecc compiles only regions; put '#pragma fuse kernel' before it, or move it into a region");
		return;
	} else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_IfStmt || k == CXCursor_CompoundStmt) {
		Stmt *s = convert_stmt(ps, c);
		if (!s)
			return;
		vec_push(got, s);
	} else {
		fail(ps, loc_of(ps, c), "outside a '#pragma fuse kernel' region a function may hold only scalar set-up (declarations and assignments of scalar locals): this statement is neither");
		return;
	}
	for (int i = 0; i < got.n; i++) {
		if (!setup_check(ps, got.v[i], regions, nregions, true))
			continue;
		vec_push(*setup, got.v[i]);
		if (got.v[i]->kind == ST_DECL) {
			vec_push(*svars, got.v[i]->var);
			bind_spec_setup(ps, c, got.v[i]->var);
		}
	}
	vec_free(got);
}

/* ---- statements after the last region (Func.tail) ---- */

/* Checks one statement after the last region: no loops, no arrays declared. It runs
 * once, after the kernels, so it may read and store any element. */
static bool tail_check(Parser *ps, const Stmt *s)
{
	if (s->kind == ST_FOR)
		return fail(ps, s->loc, "a loop outside a '#pragma fuse kernel' region: fusecc compiles only regions; put '#pragma fuse kernel' before it, or move it into a region");
	if (s->kind == ST_DECL && s->var->ndim)
		return fail(ps, s->loc, "array '%s' is declared after the last '#pragma fuse kernel' region: declare it inside a region", s->var->name);
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && !tail_check(ps, s->body[i]))
			return false;
	return true;
}

/* Whether s stores to an array: a tail that does not has no effect, and is left out. */
static bool stores_array(const Stmt *s)
{
	if (s->kind == ST_ASSIGN && s->lhs->kind == EX_INDEX)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && stores_array(s->body[i]))
			return true;
	return false;
}

/* A statement after the last region: kept in *tail when it is of the form tail_check
 * allows, else reported. */
static void convert_tail(Parser *ps, CXCursor c, int nregions, StmtVec *tail)
{
	StmtVec got = {0};
	enum CXCursorKind k = clang_getCursorKind(c);
	if (unchecked_expr(ps, c) || k == CXCursor_NullStmt)
		return;
	Expr *never = NULL;
	if (k == CXCursor_IfStmt && early_return(ps, c, nregions, &never))
		return;
	if (k == CXCursor_DeclStmt) {
		if (!convert_decl(ps, c, &got)) {
			vec_free(got);
			return;
		}
	} else {
		Stmt *s = convert_stmt(ps, c);
		if (s)
			vec_push(got, s);
	}
	for (int i = 0; i < got.n; i++)
		if (tail_check(ps, got.v[i]))
			vec_push(*tail, got.v[i]);
	vec_free(got);
}

/* Whether step s of kind k (accum_step) may be taken in any order: a sum into a float
 * (up to rounding), into an integer of integers (`n += 0.5f` truncates at every step:
 * its order matters); a maximum or minimum of a float or a double. */
static bool any_order_step(const Stmt *s, AccumKind k)
{
	if (k == ACCUM_SUM)
		return scalar_is_float(s->lhs->ty) || scalar_is_int(s->rhs->ty);
	return s->lhs->ty == TY_FLOAT || s->lhs->ty == TY_DOUBLE;
}

typedef struct Steps {
	const Expr *t;
	AccumKind kind;
} Steps;

/* For stmt_only_accesses: an assignment to target t (a set-up scalar, or an array element
 * at constant subscripts) is a step across the iterations (accum_step), of one kind at
 * every assignment. For an element, so may be an assignment to another element at
 * constant subscripts (`stats[0] += x; stats[1] += x * x;`): each element is a sum of its
 * own, judged by its own. */
static int steps_of(const Stmt *s, void *ctx)
{
	Steps *st = ctx;
	const Expr *t = st->t;
	if (s->lhs->var != t->var || !(t->kind == EX_VAR ? s->lhs->kind == EX_VAR : const_elem(s->lhs)))
		return -1;
	AccumKind k = accum_step(s, s->lhs);
	if (!k || !any_order_step(s, k))
		return 0;
	if (t->kind == EX_INDEX && !expr_equal(s->lhs, t))
		return 1;
	if (st->kind != ACCUM_NONE && st->kind != k)
		return 0;
	st->kind = k;
	return 1;
}

/* How target t is accumulated in s: every access of its variable a step of one kind
 * into it (a sum where there is none), neither read nor set otherwise; ACCUM_NONE when
 * not so. */
static AccumKind region_steps(const Stmt *s, const Expr *t)
{
	Steps st = {t, ACCUM_NONE};
	if (!stmt_only_accesses(s, t->var, steps_of, &st))
		return ACCUM_NONE;
	return st.kind == ACCUM_NONE ? ACCUM_SUM : st.kind;
}

/* How set-up scalar v (the function's svars) accumulates in the last of the regions
 * (Var.accum): a number the last region only adds to (takes the maximum or minimum
 * with), which no other region assigns; ACCUM_NONE if not so. */
static AccumKind region_accum(const Var *v, Region *const *regions, int nregions)
{
	if (v->ndim || !nregions || (!scalar_is_float(v->ty) && v->ty != TY_INT && v->ty != TY_I64))
		return ACCUM_NONE;
	for (int r = 0; r + 1 < nregions; r++)
		if (stmt_writes_var(regions[r]->loop, v))
			return ACCUM_NONE;
	Expr t = {.kind = EX_VAR, .var = (Var *)v};
	return region_steps(regions[nregions - 1]->loop, &t);
}

/* Whether e is what a step across the rows may go into: a set-up scalar (one of svars) or
 * an element at constant subscripts of an array parameter. */
static bool accum_target(const Expr *e, const VarVec *svars)
{
	if (e->kind == EX_INDEX)
		return e->var->kind == VAR_PARAM && const_elem(e);
	for (int i = 0; e->kind == EX_VAR && i < svars->n; i++)
		if (svars->v[i] == e->var)
			return true;
	return false;
}

/* The step assignment s (to x) is, in the form accum_step reads, or NULL: `x = x + e`,
 * `x = e + x` as `x += e`; `x = x - e` as `x -= e`; `x = fmaxf(e, x)` as
 * `x = fmaxf(x, e)`; a select of the larger or smaller, `x = e > x ? e : x`, as fmaxf or
 * fminf (float and double x). The same value, up to the sign of a zero and a NaN in x. */
static Stmt *step_form(Program *p, const Stmt *s)
{
	Expr *x = s->lhs, *r = s->rhs;
	if (s->aop != AS_SET || !expr_reads_var(r, x->var))
		return NULL;
	bool max;
	Expr *e = NULL;
	Stmt *n = NULL;
	if (r->kind == EX_BIN && (r->bop == OP_ADD || r->bop == OP_SUB) && expr_equal(r->args[0], x) && !expr_reads_var(r->args[1], x->var)) {
		n = accum_step_new(p, ACCUM_SUM, x, r->args[1], s->loc);
		n->aop = r->bop == OP_ADD ? AS_ADD : AS_SUB;
	} else if (r->kind == EX_BIN && r->bop == OP_ADD && expr_equal(r->args[1], x) && !expr_reads_var(r->args[0], x->var)) {
		n = accum_step_new(p, ACCUM_SUM, x, r->args[0], s->loc);
	} else if (r->kind == EX_CALL && (r->fn == FN_FMAX || r->fn == FN_FMIN) && expr_equal(r->args[1], x) && !expr_reads_var(r->args[0], x->var)) {
		n = accum_step_new(p, r->fn == FN_FMAX ? ACCUM_MAX : ACCUM_MIN, x, r->args[0], s->loc);
	} else if (scalar_is_float(x->ty) && (e = select_extreme(r, x, &max))) {
		n = accum_step_new(p, max ? ACCUM_MAX : ACCUM_MIN, x, e, s->loc);
	}
	return n;
}

/* In s, the steps into set-up scalars and constant elements (accum_target) written
 * long-hand take the forms accum_step reads (step_form); so does `if (e > x) x = e;`
 * (no else): a select. */
static void step_forms(Program *p, Stmt *s, const VarVec *svars)
{
	for (int i = 0; s && i < s->nbody; i++) {
		Stmt *b = s->body[i];
		if (!b)
			continue;
		if (b->kind == ST_IF && (b->nbody == 1 || !b->body[1])) { /* if (c) x = e; is x = c ? e : x; */
			Stmt *t = b->body[0];
			while (t->kind == ST_BLOCK && t->nbody == 1)
				t = t->body[0];
			if (t->kind == ST_ASSIGN && t->aop == AS_SET && accum_target(t->lhs, svars) && scalar_is_float(t->lhs->ty)) {
				Stmt sel = *t;
				sel.rhs = ex_cond(p, b->cond, t->rhs, t->lhs, b->loc);
				Stmt *n = step_form(p, &sel);
				if (n && n->aop == AS_SET) {
					s->body[i] = n;
					continue;
				}
			}
		}
		if (b->kind == ST_ASSIGN && accum_target(b->lhs, svars)) {
			Stmt *n = step_form(p, b);
			if (n)
				s->body[i] = n;
			continue;
		}
		step_forms(p, b, svars);
	}
}

/* Whether no identifier of the function's source is spelled name. */
static bool name_free(Parser *ps, const char *name)
{
	CXToken *toks;
	unsigned n;
	clang_tokenize(ps->tu, ps->fn_extent, &toks, &n);
	bool free_ = true;
	for (unsigned i = 0; free_ && i < n; i++) {
		CXString sp = clang_getTokenSpelling(ps->tu, toks[i]);
		free_ = strcmp(clang_getCString(sp), name) != 0;
		clang_disposeString(sp);
	}
	clang_disposeTokens(ps->tu, toks, n);
	return free_;
}

/* Whether one of svars is spelled name. */
static bool svar_named(const VarVec *svars, const char *name)
{
	for (int i = 0; i < svars->n; i++)
		if (!strcmp(svars->v[i]->name, name))
			return true;
	return false;
}

/* The name of the scalar that sums into element t: `loss_sum` (`amax_max`, `lo_min` for
 * a maximum, a minimum: kind k); with sums into several elements of the array, the
 * subscripts too (`stats0_sum`, `stats1_sum`). Neither an identifier of the source nor a
 * set-up scalar's name. */
static char *sum_name(Parser *ps, const Expr *t, AccumKind k, bool several, const VarVec *svars)
{
	const char *what = k == ACCUM_MAX ? "max" : k == ACCUM_MIN ? "min" : "sum";
	StrBuf b = {0};
	sb_puts(&b, t->var->name);
	for (int i = 0; several && i < t->nargs; i++)
		sb_printf(&b, "%s%lld", i ? "_" : "", t->args[i]->ival);
	char *base = arena_printf(&ps->prog->arena, "%s", b.s), *name = arena_printf(&ps->prog->arena, "%s_%s", base, what);
	sb_free(&b);
	for (int i = 2; !name_free(ps, name) || svar_named(svars, name); i++)
		name = arena_printf(&ps->prog->arena, "%s_%s%d", base, what, i);
	return name;
}

/* In s, `t += e` (t an element) becomes `acc += e`, `t = fmaxf(t, e)` becomes
 * `acc = fmaxf(acc, e)`. */
static void sum_into(Program *p, Stmt *s, const Expr *t, Var *acc)
{
	if (!s)
		return;
	if (s->kind == ST_ASSIGN && s->lhs->var == t->var && expr_equal(s->lhs, t))
		accum_retarget(p, s, acc);
	for (int i = 0; i < s->nbody; i++)
		sum_into(p, s->body[i], t, acc);
}

/* Whether set-up statement s starts a sum into another element than t's, at constant
 * subscripts (`stats[1] = 0;` beside `stats[0] = 0;`), not reading the array. */
static bool other_elem_start(const Stmt *s, const Expr *t)
{
	return s->kind == ST_ASSIGN && s->aop == AS_SET && s->lhs->var == t->var && const_elem(s->lhs) && !expr_equal(s->lhs, t) && !expr_reads_var(s->rhs, t->var);
}

/* Why set-up store setup->v[k] (an element) does not start a sum across the rows of the
 * last region, or NULL when it does: set with `=`, only added to in the last region,
 * untouched by the other regions and by the other set-up statements (but the starts of
 * other elements' sums). */
static const char *element_sum_why(Parser *ps, Region *const *regions, int nregions, const StmtVec *setup, int k)
{
	const Stmt *s = setup->v[k];
	const Var *a = s->lhs->var;
	if (!nregions)
		return "no region follows";
	if (s->aop != AS_SET)
		return "a sum starts with `=`";
	for (int r = 0; r + 1 < nregions; r++)
		if (touches(regions[r]->loop, a))
			return arena_printf(&ps->prog->arena, "region '%s' uses it, and only the last region may", regions[r]->name);
	if (!region_steps(regions[nregions - 1]->loop, s->lhs))
		return arena_printf(&ps->prog->arena, "region '%s' reads it, or sets it other than by `+=`, `-=` or `= fmaxf(it, ...)` at a constant element", regions[nregions - 1]->name);
	for (int t = 0; t < setup->n; t++)
		if (t != k && touches(setup->v[t], a) && !other_elem_start(setup->v[t], s->lhs))
			return arena_printf(&ps->prog->arena, "the statement at line %d, before the region, sets or reads it too", setup->v[t]->loc.line);
	return NULL;
}

/* An output element set before the last region and added to in it (`*loss = 0;` ...
 * `*loss += l;` ... `*loss /= n;`) is a sum across the rows from a set-up value: read as a
 * set-up scalar the region adds to (Var.accum), stored to the element first thing after
 * the regions. Set-up stores of another kind are refused. */
static void element_sums(Parser *ps, Region *const *regions, int nregions, StmtVec *setup, VarVec *svars, StmtVec *tail)
{
	/* several[k]: another set-up statement starts another element of k's array */
	bool *several = arena_alloc(&ps->prog->arena, sizeof(bool) * (size_t)(setup->n + 1));
	int nstores = 0;
	for (int k = 0; k < setup->n; k++) {
		Stmt *s = setup->v[k];
		several[k] = false;
		for (int t = 0; s->kind == ST_ASSIGN && const_elem(s->lhs) && t < setup->n; t++)
			several[k] |= other_elem_start(setup->v[t], s->lhs);
	}
	for (int k = 0; k < setup->n; k++) {
		Stmt *s = setup->v[k];
		if (s->kind != ST_ASSIGN || s->lhs->kind != EX_INDEX)
			continue;
		Var *a = s->lhs->var;
		const char *why = element_sum_why(ps, regions, nregions, setup, k);
		if (why) {
			fail(ps, s->loc, "'%s' is written outside a '#pragma fuse kernel' region, and not as the start of a sum across the rows (%s): only scalar set-up may go there, or the start of a sum that only the last region adds to (`%s[0] = 0;` before it, `%s[0] += x;` in it); write arrays inside a region",
			     a->name, why, a->name, a->name);
			continue;
		}
		Var *acc = var_new(ps->prog, VAR_LOCAL, sum_name(ps, s->lhs, region_steps(regions[nregions - 1]->loop, s->lhs), several[k], svars), a->ty, s->loc);
		acc->ctype = a->ctype;
		Stmt *d = st_new(ps->prog, ST_DECL, s->loc);
		d->var = acc;
		d->rhs = s->rhs;
		setup->v[k] = d;
		vec_push(*svars, acc);
		sum_into(ps->prog, regions[nregions - 1]->loop, s->lhs, acc);
		Stmt *st = st_new(ps->prog, ST_ASSIGN, s->loc);
		st->lhs = s->lhs;
		st->rhs = ex_var(ps->prog, acc, s->loc);
		st->aop = AS_SET;
		vec_push(*tail, st); /* after the stores before it, before the user's tail */
		memmove(&tail->v[nstores + 1], &tail->v[nstores], sizeof(Stmt *) * (size_t)(tail->n - 1 - nstores));
		tail->v[nstores++] = st;
	}
}

/* ---- locals declared before a region, the C89 way ---- */

/* The loop of region loop l whose body holds every use of v: l, or the one statement of
 * its body that touches v when that is a loop, and so on inward (for an array, only
 * through bodies that are one loop, where loop_private decided). */
static Stmt *use_loop(Stmt *l, const Var *v)
{
	for (;;) {
		Stmt *b = l->body[0];
		Stmt *const *body = b->kind == ST_BLOCK ? b->body : &l->body[0];
		int n = b->kind == ST_BLOCK ? b->nbody : 1, touching = 0;
		Stmt *only = NULL;
		for (int i = 0; i < n; i++)
			if (touches(body[i], v)) {
				only = body[i];
				touching++;
			}
		if (touching != 1 || only->kind != ST_FOR || (v->ndim && n != 1))
			return l;
		l = only;
	}
}

/* Whether s declares local v. */
static bool declares(const Stmt *s, const Var *v)
{
	if (s->kind == ST_DECL && s->var == v)
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (s->body[i] && declares(s->body[i], v))
			return true;
	return false;
}

/* Whether region loop l may have local v of its own: it assigns v, and each iteration
 * writes v before reading it, so that no iteration, and nothing after the region, needs
 * a value from outside its iteration (the latter finish_setup checks). */
static bool region_scratch(Stmt *l, const Var *v)
{
	if (!stmt_writes_var(l, v))
		return false;
	return v->ndim ? loop_private(l, v) : loop_sets_first(l, v);
}

/* Whether every access of array v in s has the iterators of chain[0..m) as its first m
 * subscripts (S[i][j] in the loop over i). */
static bool accessed_at_rows(const Expr *e, const Var *v, Var *const *chain, int m)
{
	if (!e)
		return true;
	if (e->kind == EX_INDEX && e->var == v) {
		if (e->nargs < m || (e->nargs == m && v->ndim > 1))
			return false;
		for (int k = 0; k < m; k++)
			if (e->args[k]->kind != EX_VAR || e->args[k]->var != chain[k])
				return false;
	}
	for (int i = 0; i < e->nargs; i++)
		if (!accessed_at_rows(e->args[i], v, chain, m))
			return false;
	return true;
}

static bool stmt_accessed_at_rows(const Stmt *s, const Var *v, Var *const *chain, int m)
{
	if (!s)
		return true;
	if (!accessed_at_rows(s->lhs, v, chain, m) || !accessed_at_rows(s->rhs, v, chain, m) || !accessed_at_rows(s->cond, v, chain, m) ||
	    !accessed_at_rows(s->lo, v, chain, m) || !accessed_at_rows(s->hi, v, chain, m))
		return false;
	for (int i = 0; i < s->nbody; i++)
		if (!stmt_accessed_at_rows(s->body[i], v, chain, m))
			return false;
	return true;
}

/* Drops the first m subscripts of every access of v in e (and what it nests). */
static void drop_row_subscripts(Expr *e, const Var *v, int m)
{
	if (!e)
		return;
	if (e->kind == EX_INDEX && e->var == v) {
		e->args += m;
		e->nargs -= m;
		/* every subscript of a vector dropped: the scalar it now is */
		if (!e->nargs)
			e->kind = EX_VAR;
	} else if (m < 0 && e->kind == EX_VAR && e->var == v) {
		e->kind = EX_INDEX;
		e->args += m;
		e->nargs -= m;
	}
	for (int i = 0; i < e->nargs; i++)
		drop_row_subscripts(e->args[i], v, m);
}

static void stmt_drop_row_subscripts(Stmt *s, const Var *v, int m)
{
	if (!s)
		return;
	drop_row_subscripts(s->lhs, v, m);
	drop_row_subscripts(s->rhs, v, m);
	drop_row_subscripts(s->cond, v, m);
	drop_row_subscripts(s->lo, v, m);
	drop_row_subscripts(s->hi, v, m);
	for (int i = 0; i < s->nbody; i++)
		stmt_drop_row_subscripts(s->body[i], v, m);
}

/* Gives back the first m subscripts that stmt_drop_row_subscripts dropped (the args
 * still lie before the pointers it moved; only for v's accesses, v a scalar now). */
static void stmt_restore_row_subscripts(Stmt *s, const Var *v, int m)
{
	stmt_drop_row_subscripts(s, v, -m);
}

/* Drops from matrix v, and from its accesses in body[0..n), the most leading subscripts
 * (at most all but one; all of a vector's, which leaves a scalar) that every access has
 * as the iterators of chain: its first ones (loops around the statements), or with
 * innermost its last ones (loops around v's declaration, innermost last). */
static void narrow_matrix(Stmt **body, int n, Var *v, Var *const *chain, int nchain, bool innermost)
{
	int keep = v->ndim == 1 ? 0 : 1;
	int m = v->ndim - keep < nchain ? v->ndim - keep : nchain;
	for (; m > 0; m--) {
		bool ok = true;
		for (int k = 0; ok && k < n; k++)
			ok = stmt_accessed_at_rows(body[k], v, innermost ? chain + nchain - m : chain, m);
		if (ok)
			break;
	}
	for (int k = 0; m && k < n; k++)
		stmt_drop_row_subscripts(body[k], v, m);
	v->dims += m;
	v->ndim -= m;
}

/* A student's matrices declared at the top of the function (`float S[SEQ][SEQ];`) and
 * read and written by region loop l only at its own rows (S[i][j] in the loop over i; with
 * `for (b) for (h) for (i)`, S[b][h][i][j], or S[i][j] reused by every head): each
 * iteration has a slice of its own (which localise_scratch checks it writes before it reads), so the
 * slice is all an iteration needs. The array loses those dimensions (S[j]) and is then a
 * local of the region like a row declared at the top (localise_scratch). Only when no
 * other set-up statement touches it. */
static void narrow_row_matrices(Stmt *l, StmtVec *setup)
{
	Var *chain[8];
	int nchain = 0;
	for (Stmt *t = l; t && t->kind == ST_FOR && nchain < 8;) {
		chain[nchain++] = t->var;
		Stmt *b = t->body[0];
		while (b->kind == ST_BLOCK && b->nbody == 1)
			b = b->body[0];
		t = b->kind == ST_FOR ? b : NULL;
	}
	for (int k = 0; k < setup->n; k++) {
		Stmt *d = setup->v[k];
		if (d->kind != ST_DECL || d->var->ndim < 1 || d->var->kind != VAR_LOCAL || d->rhs || !stmt_reads_var(l, d->var))
			continue;
		bool alone = true;
		for (int t = 0; alone && t < setup->n; t++)
			alone = t == k || !touches(setup->v[t], d->var);
		if (!alone)
			continue;
		int ndim = d->var->ndim;
		narrow_matrix(&l, 1, d->var, chain, nchain, false);
		/* `for (h) for (i)` around S[i][j]: the rows are the innermost loops' */
		if (d->var->ndim == ndim)
			narrow_matrix(&l, 1, d->var, chain, nchain, true);
		/* A row's value in a vector (`rowmax[n] = -INFINITY; rowmax[n] = fmaxf(rowmax[n],
		 * ..)`, PyTorch ops ported one by one) is the row's scalar only where each row sets
		 * it before reading it; else the vector stays as written (and is refused). */
		if (ndim == 1 && d->var->ndim == 0 && !loop_sets_first(l, d->var)) {
			stmt_restore_row_subscripts(l, d->var, 1);
			d->var->dims -= 1;
			d->var->ndim = 1;
		}
	}
}

/* The same for a matrix declared inside the region (`for (i) { float S[SEQ][SEQ]; ...
 * S[i][j] ... }`): its leading subscripts the iterators of the loops around its
 * declaration, innermost last (chain[0..nchain)). */
static void narrow_inner_row_matrices(Stmt *s, Var **chain, int nchain)
{
	if (!s)
		return;
	if (s->kind == ST_FOR && nchain < 8)
		chain[nchain++] = s->var;
	for (int i = 0; i < s->nbody; i++)
		narrow_inner_row_matrices(s->body[i], chain, nchain);
	if (s->kind != ST_BLOCK)
		return;
	for (int i = 0; i < s->nbody; i++) {
		Stmt *d = s->body[i];
		if (d->kind == ST_DECL && d->var->ndim >= 2 && !d->rhs && nchain)
			narrow_matrix(s->body + i + 1, s->nbody - i - 1, d->var, chain, nchain, true);
	}
}

/* Locals declared before region loop l at the top of the function (`float m, s;`,
 * `float acc[E];`, set-up so far in *setup) that the region assigns and that are scratch
 * of its iterations (region_scratch) become locals of the region: the declaration (its
 * value, if any, is never read) moves to the start of the innermost loop that holds every
 * use, where sink_decls then places it. Only when no other set-up statement touches it;
 * such a local of an earlier region (*moved) gets a new variable of its own here. */
static void localise_scratch(Parser *ps, Stmt *l, StmtVec *setup, VarVec *svars, VarVec *moved)
{
	Program *p = ps->prog;
	for (int i = 0; i < moved->n; i++) {
		Var *v = moved->v[i];
		if (!region_scratch(l, v))
			continue;
		Var *nv = var_like(p, v);
		rename_var(l, v, nv);
		Stmt *d = st_new(p, ST_DECL, v->loc);
		d->var = nv;
		prepend_stmt(p, use_loop(l, nv), d);
	}
	for (int k = 0; k < setup->n; k++) {
		Stmt *d = setup->v[k];
		if (d->kind != ST_DECL || !region_scratch(l, d->var))
			continue;
		bool alone = true;
		for (int t = 0; alone && t < setup->n; t++)
			alone = t == k || !touches(setup->v[t], d->var);
		if (!alone)
			continue;
		Stmt *nd = st_new(p, ST_DECL, d->loc);
		nd->var = d->var;
		prepend_stmt(p, use_loop(l, d->var), nd);
		vec_push(*moved, d->var);
		for (int t = 0; t < svars->n; t++)
			if (svars->v[t] == d->var)
				svars->v[t--] = svars->v[--svars->n];
		memmove(&setup->v[k], &setup->v[k + 1], sizeof(Stmt *) * (size_t)(setup->n - k - 1));
		setup->n--;
		k--;
	}
}

/* Set-up scalars initialised from an array (`const int W = windows[layer];`) and
 * read by region loop l: the set-up runs on the host, where arrays are device memory, so
 * the region computes its own copy, declared with the same initialiser at the start of
 * the innermost loop holding its uses (the value is the same at every iteration: what
 * it reads, const parameters and set-up scalars, no region changes). Recorded in *sunk;
 * finish_setup_sunk drops them from the set-up. */
static void sink_device_setup(Parser *ps, Stmt *l, StmtVec *setup, VarVec *sunk)
{
	Program *p = ps->prog;
	for (int k = 0; k < setup->n; k++) {
		Stmt *d = setup->v[k];
		if (d->kind != ST_DECL || d->var->ndim || !d->rhs || !setup_array_read(d->rhs) || !stmt_reads_var(l, d->var) || stmt_writes_var(l, d->var))
			continue;
		/* the loops down to where it goes must not bound themselves by it */
		bool header = false;
		for (Stmt *u = l, *to = use_loop(l, d->var);; ) {
			header |= expr_reads_var(u->lo, d->var) || expr_reads_var(u->hi, d->var);
			if (u == to)
				break;
			Stmt *b = u->body[0];
			Stmt *const *body = b->kind == ST_BLOCK ? b->body : &u->body[0];
			int n = b->kind == ST_BLOCK ? b->nbody : 1;
			Stmt *next = NULL;
			for (int i = 0; i < n && !next; i++)
				if (touches(body[i], d->var))
					next = body[i];
			u = next;
		}
		if (header)
			continue;
		bool seen = false;
		for (int i = 0; i < sunk->n; i++)
			seen |= sunk->v[i] == d->var;
		Var *v = d->var;
		if (seen) {
			v = var_like(p, d->var);
			rename_var(l, d->var, v);
		} else {
			vec_push(*sunk, d->var);
		}
		Stmt *nd = st_new(p, ST_DECL, d->loc);
		nd->var = v;
		nd->rhs = d->rhs;
		prepend_stmt(p, use_loop(l, v), nd);
	}
}

/* Takes the set-up scalars the regions copied (sunk) out of the set-up: no other set-up
 * statement may touch them, else the array read is refused as before. */
static void finish_setup_sunk(Parser *ps, StmtVec *setup, VarVec *svars, const VarVec *sunk, const StmtVec *tail)
{
	for (int i = 0; i < sunk->n; i++)
		for (int t = 0; t < tail->n; t++)
			if (touches(tail->v[t], sunk->v[i]))
				fail(ps, tail->v[t]->loc, "'%s' is read from an array before the regions, which read their own copies, and used after them: read it again here", sunk->v[i]->name);
	for (int k = 0; k < setup->n; k++) {
		Stmt *d = setup->v[k];
		bool mine = false;
		for (int i = 0; i < sunk->n; i++)
			mine |= d->kind == ST_DECL && d->var == sunk->v[i];
		if (!mine && d->kind == ST_DECL && !d->var->ndim && d->rhs) {
			const Expr *bad = setup_array_read(d->rhs);
			if (bad)
				fail(ps, bad->loc, "set-up outside a region may read only scalars: it runs on the host before the kernels, where '%s' is device memory; read it inside the region", bad->var->name);
		}
		if (!mine)
			continue;
		for (int t = 0; t < setup->n; t++)
			if (t != k && touches(setup->v[t], d->var))
				fail(ps, d->loc, "'%s' is read from an array before the regions and used by other set-up: set-up runs on the host, where arrays are device memory; read it inside the region", d->var->name);
		for (int t = 0; t < svars->n; t++)
			if (svars->v[t] == d->var)
				svars->v[t--] = svars->v[--svars->n];
		memmove(&setup->v[k], &setup->v[k + 1], sizeof(Stmt *) * (size_t)(setup->n - k - 1));
		setup->n--;
		k--;
	}
}

/* Hands the set-up over to f. Its scalars become read-only parameters of the regions:
 * a region may not assign one (each kernel receives it by value). A local that a region
 * took (moved) may not be used by the set-up, nor by a region that does not take it:
 * its value is the region's. */
static void finish_setup(Parser *ps, Func *f, StmtVec *setup, VarVec *svars, VarVec *moved)
{
	for (int i = 0; i < moved->n; i++) {
		for (int k = 0; k < setup->n; k++)
			if (touches(setup->v[k], moved->v[i]))
				fail(ps, setup->v[k]->loc, "'%s' is declared before a region that assigns it, and used outside it: declare a local copy inside the region", moved->v[i]->name);
		for (int r = 0; r < f->nregions; r++)
			if (touches(f->regions[r]->loop, moved->v[i]) && !declares(f->regions[r]->loop, moved->v[i]))
				fail(ps, moved->v[i]->loc, "'%s' is assigned inside a region and read by region '%s', which does not set it first: each region is its own kernel, so a value one computes for another must go through memory: make '%s' a parameter of the function (an output of one region, an input of the other), or compute it inside the region that reads it", moved->v[i]->name,
				     f->regions[r]->name, moved->v[i]->name);
	}
	for (int i = 0; i < setup->n; i++)
		if (setup->v[i]->kind == ST_DECL && setup->v[i]->var->ndim)
			fail(ps, setup->v[i]->loc, "array '%s' is declared outside a '#pragma fuse kernel' region: declare it inside the region", setup->v[i]->var->name);
	for (int i = 0; i < svars->n; i++) {
		svars->v[i]->accum = region_accum(svars->v[i], f->regions, f->nregions);
		for (int r = 0; r < f->nregions && !svars->v[i]->accum; r++)
			if (stmt_writes_var(f->regions[r]->loop, svars->v[i]))
				fail(ps, svars->v[i]->loc, "'%s' is set up outside region '%s' and assigned inside it: declare a local copy inside the region (a sum, a maximum or a minimum across the rows is allowed when only the last region takes it and nothing in it reads it; into an integer, a sum of integers)",
				     svars->v[i]->name, f->regions[r]->name);
	}
	for (int i = 0; i < svars->n; i++)
		svars->v[i]->kind = VAR_PARAM;
	f->nsetup = setup->n;
	f->setup = arena_alloc(&ps->prog->arena, sizeof(Stmt *) * (size_t)(setup->n ? setup->n : 1));
	if (setup->n)
		memcpy(f->setup, setup->v, sizeof(Stmt *) * (size_t)setup->n);
	f->nsvars = svars->n;
	f->svars = arena_alloc(&ps->prog->arena, sizeof(Var *) * (size_t)(svars->n ? svars->n : 1));
	if (svars->n)
		memcpy(f->svars, svars->v, sizeof(Var *) * (size_t)svars->n);
	vec_free(*setup);
	vec_free(*svars);
}

/* f's parameters with the fields of its struct parameters that it reads (Var.field_of),
 * each struct's in field order where the struct stands in the user's list. */
static void with_fields(Parser *ps, Func *f)
{
	int n = f->nparams;
	for (int k = 0; k < f->nstructs; k++)
		for (int i = 0; i < f->structs[k]->nfields; i++)
			n += f->structs[k]->fields[i].var != NULL;
	Var **all = arena_alloc(&ps->prog->arena, sizeof(Var *) * (size_t)(n ? n : 1));
	int m = 0, k = 0;
	for (int i = 0; i <= f->nparams; i++) {
		for (; k < f->nstructs && f->structs[k]->at == i; k++) {
			StructParam *s = f->structs[k];
			s->at = m;
			s->nvars = 0;
			for (int j = 0; j < s->nfields; j++)
				if (s->fields[j].var) {
					all[m++] = s->fields[j].var;
					s->nvars++;
				}
		}
		if (i < f->nparams)
			all[m++] = f->params[i];
	}
	f->params = all;
	f->nparams = m;
}

static void convert_function(Parser *ps, CXCursor fn, CXCursor body)
{
	CursorVec stmts = children(body);
	bool any = false;
	for (int i = 0; i < stmts.n; i++)
		if (pragma_for(ps, stmts.v[i]))
			any = true;
	if (!any) {
		vec_free(stmts);
		return;
	}
	CXString nm = clang_getCursorSpelling(fn);
	Func *f = NEW(&ps->prog->arena, Func);
	f->name = arena_strdup(&ps->prog->arena, clang_getCString(nm));
	clang_disposeString(nm);
	ps->fn_name = f->name;
	ps->fn_extent = clang_getCursorExtent(fn);
	macro_ops_scan(ps->mops, body);
	scan_iterators(ps, body);
	f->loc = loc_of_location(ps, clang_getCursorLocation(fn));
	if (clang_getCanonicalType(clang_getCursorResultType(fn)).kind != CXType_Void)
		fail(ps, f->loc, "a function with fuse regions must return void: results are written to array parameters");
	if (clang_Cursor_isVariadic(fn))
		fail(ps, f->loc, "a function with fuse regions may not be variadic");
	int np = clang_Cursor_getNumArguments(fn);
	f->params = arena_alloc(&ps->prog->arena, sizeof(Var *) * (size_t)(np > 0 ? np : 1));
	f->structs = arena_alloc(&ps->prog->arena, sizeof(StructParam *) * (size_t)(np > 0 ? np : 1));
	CXCursor *pcs = arena_alloc(&ps->prog->arena, sizeof(CXCursor) * (size_t)(np > 0 ? np : 1));
	ps->structs.n = 0;
	ps->consts.n = 0;
	bool params_ok = true;
	for (int i = 0; i < np; i++) {
		CXCursor pc = clang_Cursor_getArgument(fn, (unsigned)i);
		bool bad;
		StructParam *sp = declare_struct_param(ps, pc, &bad);
		if (sp) { /* its fields join the parameters as the function reads them (with_fields) */
			sp->at = f->nparams;
			f->structs[f->nstructs++] = sp;
			continue;
		}
		Var *v = bad ? NULL : declare_var(ps, pc, VAR_PARAM);
		if (v) {
			pcs[f->nparams] = pc;
			f->params[f->nparams++] = v;
		} else
			params_ok = false;
	}
	/* A pointer parameter the function advances (`x += C;` at the end of each row, K&R's
	 * walk of a matrix) is read as a pointer local set to it before the first region,
	 * `const float *x = x;`, which the walks then follow. */
	for (int i = 0; params_ok && i < f->nparams; i++) {
		CXCursor pc = pcs[i];
		Var *v = f->params[i];
		if (clang_getCanonicalType(clang_getCursorType(pc)).kind == CXType_Pointer && v->ndim == 1 && assigns_name(ps, body, v->name))
			vec_push(ps->aliases, ((PtrAlias){.decl = pc, .base = v, .depth = ps->depth}));
	}
	if (!params_ok) {
		/* Every use of a refused parameter would be reported again: stop here. */
		for (int i = 0; i < stmts.n; i++)
			if (pragma_for(ps, stmts.v[i]))
				pragma_for(ps, stmts.v[i])->used = true;
		vec_free(stmts);
		return;
	}
	VEC(Region *) regions = {0};
	StmtVec setup = {0}, tail = {0};
	VarVec svars = {0}, moved = {0}, sunk = {0};
	int last = 0;
	for (int i = 0; i < stmts.n; i++)
		if (pragma_for(ps, stmts.v[i]))
			last = i;
	for (int i = 0; i < stmts.n; i++) {
		CXCursor s = stmts.v[i];
		PragmaGroup *g = pragma_for(ps, s);
		if (!g && i > last) {
			int from = tail.n;
			convert_tail(ps, s, regions.n, &tail);
			finish_partials(ps, tail.v, from, tail.n);
			continue;
		}
		if (!g) {
			int from = setup.n;
			if (clang_getCursorKind(s) != CXCursor_NullStmt)
				convert_setup(ps, s, regions.v, regions.n, &setup, &svars, &f->exit_when);
			finish_partials(ps, setup.v, from, setup.n);
			continue;
		}
		g->used = true;
		Schedule *sched = NEW(&ps->prog->arena, Schedule);
		if (!pragma_parse(ps->prog, g->lines.v, g->lines.n, sched)) {
			ps->failed = true;
			continue;
		}
		Stmt *loop = convert_for(ps, s);
		finish_partials(ps, &loop, 0, loop ? 1 : 0);
		if (!loop)
			continue;
		int weight = region_weight(loop, 0);
		if (weight > MAX_REGION_WEIGHT) {
			fail(ps, g->loc, "this region is too large for the dependence analysis: its statements weigh %d (each counts once per loop around it), at most %d: split it into several regions", weight, MAX_REGION_WEIGHT);
			continue;
		}
		loop->sched = sched;
		narrow_row_matrices(loop, &setup);
		Var *chain[8];
		narrow_inner_row_matrices(loop, chain, 0);
		localise_scratch(ps, loop, &setup, &svars, &moved);
		sink_device_setup(ps, loop, &setup, &sunk);
		sink_decls(ps->prog, loop);
		fold_clamped_bounds(ps->prog, loop);
		shift_data_starts(ps->prog, loop);
		unshift_local_rows(loop, loop);
		LoopVec all = {0};
		collect_loops(loop, &all);
		narrow_guarded_loops(ps->prog, loop, NULL, &all);
		vec_free(all);
		if (!schedule_check(sched, loop)) {
			ps->failed = true;
			continue;
		}
		Region *r = NEW(&ps->prog->arena, Region);
		r->fn = f;
		r->loop = loop;
		r->loc = g->loc;
		r->name = sched->name ? sched->name : arena_printf(&ps->prog->arena, "%s_k%d", f->name, regions.n);
		for (int j = 0; j < regions.n; j++)
			if (!strcmp(regions.v[j]->name, r->name))
				fail(ps, sched->loc, "kernel name '%s' is used twice", r->name);
		if (name_taken(ps->prog, r->name))
			fail(ps, sched->loc, "kernel name '%s' is used twice", r->name);
		vec_push(regions, r);
	}
	f->regions = arena_alloc(&ps->prog->arena, sizeof(Region *) * (size_t)(regions.n ? regions.n : 1));
	if (regions.n)
		memcpy(f->regions, regions.v, sizeof(Region *) * (size_t)regions.n);
	f->nregions = regions.n;
	for (int r = 0; r < regions.n; r++)
		step_forms(ps->prog, regions.v[r]->loop, &svars);
	element_sums(ps, regions.v, regions.n, &setup, &svars, &tail);
	finish_setup_sunk(ps, &setup, &svars, &sunk, &tail);
	finish_setup(ps, f, &setup, &svars, &moved);
	vec_free(moved);
	vec_free(sunk);
	bool stores = false;
	for (int i = 0; i < tail.n; i++)
		stores |= stores_array(tail.v[i]);
	if (stores) {
		f->ntail = tail.n;
		f->tail = arena_alloc(&ps->prog->arena, sizeof(Stmt *) * (size_t)tail.n);
		memcpy(f->tail, tail.v, sizeof(Stmt *) * (size_t)tail.n);
	}
	vec_free(tail);
	with_fields(ps, f);
	if (!ps->failed && !front_delinearize(ps->prog, f, ps->opt))
		ps->failed = true;
	for (int i = 0; i < ps->reversals.n && !ps->failed; i++) {
		Loc why;
		if (!reversible(ps->reversals.v[i]->body[0], ps->reversals.v[i]->var, &why))
			fail(ps, why, COUNTS_DOWN);
	}
	ps->reversals.n = 0;
	vec_free(regions);
	vec_free(stmts);
	Func **fs = arena_alloc(&ps->prog->arena, sizeof(Func *) * (size_t)(ps->prog->nfuncs + 1));
	if (ps->prog->nfuncs)
		memcpy(fs, ps->prog->funcs, sizeof(Func *) * (size_t)ps->prog->nfuncs);
	fs[ps->prog->nfuncs++] = f;
	ps->prog->funcs = fs;
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	Parser *ps = d;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	CXCursor body = function_body(c);
	if (!clang_Cursor_isNull(body))
		convert_function(ps, c, body);
	return CXChildVisit_Continue;
}

/* libclang's own errors (C syntax and types), with our format and the caret. */
static bool report_clang_diagnostics(Parser *ps)
{
	bool bad = false;
	unsigned nd = clang_getNumDiagnostics(ps->tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic dg = clang_getDiagnostic(ps->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
		if (sev >= CXDiagnostic_Error) {
			CXString s = clang_getDiagnosticSpelling(dg);
			CXSourceLocation l = clang_getDiagnosticLocation(dg);
			CXFile f;
			clang_getSpellingLocation(l, &f, NULL, NULL, NULL);
			Loc loc = f ? loc_of_location(ps, l) : (Loc){ps->path, 0, 0};
			const char *m = clang_getCString(s);
			/* GCC 13 and clang 17 compute in __bf16; libclang 16 only stores it */
			error_at(loc, "%s%s", m,
			         strstr(m, "__bf16") ? " (fusecc's C parser, libclang 16, has no arithmetic or casts on __bf16: declare bf16 data as fusecc_bf16 from fusecc.h, read with fusecc_bf16_to_float and written with fusecc_float_to_bf16)" : "");
			clang_disposeString(s);
			bad = true;
		}
		clang_disposeDiagnostic(dg);
	}
	return !bad;
}

static void inclusion_visitor(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d)
{
	(void)stack;
	(void)n;
	void **ctx = d;
	Parser *ps = ctx[0];
	StrVec *deps = ctx[1];
	CXString s = clang_getFileName(f);
	const char *name = clang_getCString(s);
	bool seen = false;
	for (int i = 0; i < deps->n; i++)
		if (!strcmp(deps->v[i], name))
			seen = true;
	if (!seen && n > 0)
		vec_push(*deps, arena_strdup(&ps->prog->arena, name));
	clang_disposeString(s);
}

static bool looks_binary(const char *text, size_t len)
{
	return memchr(text, 0, len) != NULL;
}

/* The translation unit of the last file parsed, kept for the parses of the same file
 * with other specialised values (FrontOptions.reparse): libclang's parse is most of a
 * parse's cost, and the conversion reads the tree only. */
typedef struct TuCache {
	CXIndex idx;
	CXTranslationUnit tu;
	char *path;
} TuCache;
static TuCache cache;

Program *front_parse(const char *path, const FrontOptions *opt, StrVec *deps)
{
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		error_plain("cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	Program *prog = calloc(1, sizeof *prog);
	prog->path = arena_strdup(&prog->arena, path);
	/* The diagnostics quote lines from this copy: keep it as long as the program. */
	char *kept = arena_strndup(&prog->arena, text, len);
	free(text);
	if (!opt->reparse)
		diag_set_source(prog->path, kept, len);
	if (looks_binary(kept, len)) {
		error_at((Loc){prog->path, 0, 0}, "not a C source file (it contains NUL bytes)");
		program_free(prog);
		return NULL;
	}

	VEC(const char *) args = {0};
	vec_push(args, "-xc");
	/* gcc's default dialect is GNU C: <math.h> then declares M_PI and M_LOG2E, which
	 * FlashAttention ports use (a -std= given on the command line comes later and wins) */
	vec_push(args, "-std=gnu11");
	vec_push(args, "-Wno-unknown-pragmas");
	for (int i = 0; i < opt->nclang_args; i++)
		vec_push(args, opt->clang_args[i]);
	if (opt->include_dir) {
		vec_push(args, "-idirafter");
		vec_push(args, opt->include_dir);
	}

	Parser ps = {.prog = prog, .path = prog->path, .opt = opt};
	bool again = opt->reparse && cache.tu && !strcmp(cache.path, path);
	if (!again) {
		front_release();
		cache.idx = clang_createIndex(0, 0);
		enum CXErrorCode err = clang_parseTranslationUnit2(cache.idx, path, args.v, args.n, NULL, 0,
		                                                   CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &cache.tu);
		if (err != CXError_Success) {
			vec_free(args);
			error_plain("libclang could not parse '%s' (error %d)", path, (int)err);
			front_release();
			program_free(prog);
			return NULL;
		}
		cache.path = strdup(path);
	}
	vec_free(args);
	ps.tu = cache.tu;
	ps.main_file = clang_getFile(ps.tu, path);
	ps.mops = macro_ops_new(ps.tu);
	bool ok = again || report_clang_diagnostics(&ps);
	if (ok && scan_pragmas(&ps, kept, len)) {
		clang_visitChildren(clang_getTranslationUnitCursor(ps.tu), visit_top, &ps);
		for (int i = 0; i < ps.pragmas.n; i++)
			if (!ps.pragmas.v[i].used)
				fail(&ps, ps.pragmas.v[i].loc, "'#pragma fuse' is only allowed before a for statement at the top level of a function body");
		if (!ps.failed && prog->nfuncs == 0)
			fail(&ps, (Loc){prog->path, 0, 0}, "no '#pragma fuse kernel' region found: nothing to compile");
	}
	ok = ok && !ps.failed;
	if (ok && deps) {
		vec_push(*deps, prog->path);
		void *ctx[2] = {&ps, deps};
		clang_getInclusions(ps.tu, inclusion_visitor, ctx);
	}
	for (int i = 0; i < ps.pragmas.n; i++)
		vec_free(ps.pragmas.v[i].lines);
	vec_free(ps.pragmas);
	vec_free(ps.vars);
	vec_free(ps.binds);
	vec_free(ps.aliases);
	vec_free(ps.walks);
	vec_free(ps.heap);
	vec_free(ps.reversals);
	vec_free(ps.partials);
	vec_free(ps.structs);
	vec_free(ps.consts);
	vec_free(ps.iters);
	vec_free(ps.nonneg);
	vec_free(ps.unsigned_casts);
	macro_ops_free(ps.mops);
	if (!ok) {
		front_release();
		program_free(prog);
		return NULL;
	}
	return prog;
}

typedef struct ExternCtx {
	Program *p;
	StrVec *out;
} ExternCtx;

static enum CXChildVisitResult visit_extern(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	ExternCtx *x = data;
	if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) && clang_getCursorLinkage(c) == CXLinkage_External &&
	    !clang_Location_isInSystemHeader(clang_getCursorLocation(c))) {
		CXString name = clang_getCursorSpelling(c);
		vec_push(*x->out, arena_strdup(&x->p->arena, clang_getCString(name)));
		clang_disposeString(name);
	}
	return CXChildVisit_Continue;
}

void front_external_functions(Program *p, StrVec *out)
{
	if (cache.tu)
		clang_visitChildren(clang_getTranslationUnitCursor(cache.tu), visit_extern, &(ExternCtx){p, out});
}

void front_release(void)
{
	if (cache.tu)
		clang_disposeTranslationUnit(cache.tu);
	if (cache.idx)
		clang_disposeIndex(cache.idx);
	free(cache.path);
	cache = (TuCache){0};
}

void program_free(Program *p)
{
	if (!p)
		return;
	diag_forget_source(p->path);
	arena_free(&p->arena);
	free(p);
}

char *front_clang_version(void)
{
	CXString s = clang_getClangVersion();
	char *r = strdup(clang_getCString(s));
	clang_disposeString(s);
	return r;
}

