/* ir.h: the loop-scalar IR. A Program holds the functions that contain regions; a region
 * is one `for` statement after `#pragma fuse kernel`, with its Schedule. Variables are
 * tied to their declarations by identity (Var pointers), never by name. All nodes live
 * in the Program's arena. */
#ifndef FUSECC_IR_H
#define FUSECC_IR_H

#include "../util/util.h"

typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef VEC(Stmt *) StmtVec;
typedef struct Var Var;
typedef struct StructParam StructParam;

/* Scalar element types. Accumulation is always fp32 or wider; storage may be narrower.
 * The integer types other than int are those frameworks store index, offset and mask
 * arrays in (int64 class targets, bool and byte masks); their values promote as in C. */
typedef enum ScalarType {
	TY_VOID,
	TY_INT,    /* C int, int32_t (loop iterators, sizes, comparisons) */
	TY_FLOAT,  /* float */
	TY_DOUBLE, /* double */
	TY_HALF,   /* _Float16 */
	TY_BF16,   /* fusecc_bf16 from include/fusecc.h: storage only */
	TY_I64,    /* int64_t, long, long long (64 bits) */
	TY_U8,     /* uint8_t, unsigned char */
	TY_BOOL,   /* _Bool (bool from stdbool.h) */
	TY_I8,     /* int8_t, signed char: quantised values (an int8 KV cache, a quantiser's output) */
	TY_FP8,    /* fusecc_fp8e4m3 from include/fusecc.h: storage only, as TY_BF16 */
} ScalarType;

const char *scalar_type_c(ScalarType t); /* spelling in C: "float", "_Float16", "int64_t", ... */
bool scalar_is_float(ScalarType t);
bool scalar_is_int(ScalarType t); /* int, int64, int8, uint8 or bool */
bool scalar_is_storage(ScalarType t); /* bf16 and fp8: read and written only through conversions */
int scalar_size(ScalarType t);    /* bytes of an element */

/* How the steps of a value across the rows combine (Var.accum, grid sums): none, a sum
 * (`x += e;`, `x -= e;`), a maximum (`x = fmaxf(x, e);`), a minimum (fminf). */
typedef enum AccumKind { ACCUM_NONE, ACCUM_SUM, ACCUM_MAX, ACCUM_MIN } AccumKind;

typedef enum VarKind {
	VAR_PARAM, /* a function parameter: scalar (ndim == 0) or array (ndim > 0); also a
	              scalar set up from parameters outside the regions (Func.setup), which
	              the regions read like a parameter */
	VAR_LOCAL, /* declared inside a region: scalar or variable-length array */
	VAR_LOOP,  /* the iterator of a for loop */
} VarKind;

struct Var {
	VarKind kind;
	const char *name;
	ScalarType ty;
	int ndim;      /* 0 for scalars */
	Expr **dims;   /* ndim extents, outermost first */
	bool is_const; /* const-qualified elements (params) */
	/* The element type as the user spelled it (params of integer type: "long",
	 * "int32_t", "unsigned char"), which the fused C keeps; NULL: scalar_type_c(ty). */
	const char *ctype;
	/* A parameter declared as a pointer (`const float *q`, `q[]`) or a one-dimensional
	 * array (`q[B * N * D]`) whose flat subscripts (`q[(i * N + j) * D + d]`) the front
	 * end read as several dims; C and the launchers keep its declaration (flat_extent:
	 * the array's, NULL for a pointer) and print its subscripts linearised. dims[0] may
	 * be NULL: an outermost extent nothing in the function bounds. */
	bool flat;
	Expr *flat_extent;
	/* A flat pointer parameter whose subscripts step by strides passed as parameters
	 * (`q[b * sqb + h * sqh + i * sqm + d]`, a Triton reference's tensor.stride()): element
	 * (x0, .., xn) is at x0 * strides[0] + .. + xn * strides[n] (flat.c strided_view);
	 * dims are then the extents the loops give each subscript. NULL: row-major in dims. */
	Expr **strides;
	/* A local row the fuser shrank to one step of its pass, indexed from the step's start
	 * (shrink_step_arrays). */
	bool step_row;
	/* A loop's iterator counting blocks of a loop written stepping by block_step (`for (v =
	 * lo; v < hi; v += S)`, read as v = lo + vb * S); 0 for any other. */
	long block_step;
	/* Why fusecc could not read such a block loop one key at a time (blocks.c), located,
	 * for the fuser's message; NULL where it did or did not try. */
	const char *blocks_why;
	/* A set-up scalar (VAR_PARAM) that the function's last region only adds to
	 * (`total += l;`, `count++`) and its tail reads (`*loss = total / count;`): a sum
	 * across the rows (gridsum.c), started from its set-up value; or only takes the
	 * maximum (minimum) with (`amax = fmaxf(amax, fabsf(x[i]));`). */
	AccumKind accum;
	/* A field of a struct parameter that the function reads (`cfg.n_head`, `p->q`): a
	 * parameter of its own named <struct>_<field> (or a fresh variant), set from the field
	 * where the printers take the struct (StructParam). NULL for any other variable. */
	const StructParam *field_of;
	const char *field;
	int id;        /* unique within the Program, in declaration order */
	Loc loc;
};

typedef enum BinOp {
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
	OP_SHL, OP_SHR, OP_BAND, OP_BOR, OP_BXOR, /* integers only (ggml's `1 << floor(log2(n))`, bit masks) */
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
	OP_LAND, OP_LOR,
} BinOp;

typedef enum UnOp {
	UOP_NEG, /* -a */
	UOP_NOT, /* !a */
} UnOp;

/* Math functions the input may call. Each has a float and a double spelling in C. */
typedef enum MathFn {
#define MATHFN(id, f32, f64, nargs) FN_##id,
#include "mathfn.def"
#undef MATHFN
	FN_COUNT
} MathFn;

typedef struct MathFnInfo {
	const char *f32, *f64; /* C names: "expf", "exp" */
	int nargs;
} MathFnInfo;
extern const MathFnInfo mathfn_info[FN_COUNT];
/* Looks up a C function name; sets *fn and *is_double. false when unknown. */
bool mathfn_lookup(const char *name, MathFn *fn, bool *is_double);
/* Whether fn is a classification (isfinite, isnan, isinf, signbit): an int result. */
bool mathfn_classifies(MathFn fn);

typedef enum ExprKind {
	EX_INT,   /* ival */
	EX_FLT,   /* fval; ty is TY_FLOAT or TY_DOUBLE (infinities allowed) */
	EX_VAR,   /* var: read of a scalar variable (param, local or iterator) */
	EX_INDEX, /* var, args[nargs]: element of an array variable, one subscript per dimension */
	EX_UN,    /* uop, args[0] */
	EX_BIN,   /* bop, args[0], args[1] */
	EX_CALL,  /* fn, args[nargs] */
	EX_COND,  /* args[0] ? args[1] : args[2] */
	EX_CAST,  /* ty (target), args[0] */
} ExprKind;

struct Expr {
	ExprKind kind;
	ScalarType ty; /* type of the value, as C computes it */
	long long ival;
	double fval;
	Var *var;
	BinOp bop;
	UnOp uop;
	MathFn fn;
	int nargs;
	Expr **args;
	Loc loc;
};

typedef enum AssignOp { AS_SET, AS_ADD, AS_SUB, AS_MUL, AS_DIV } AssignOp;

typedef struct Schedule Schedule;

typedef enum StmtKind {
	ST_BLOCK,  /* body[nbody] */
	ST_FOR,    /* var (VAR_LOOP), lo, hi (exclusive bound), step (1 in user code; tile loops of the fuser step by more), body[0], sched (NULL unless a region) */
	ST_ASSIGN, /* lhs (EX_VAR or EX_INDEX), aop, rhs */
	ST_DECL,   /* var (VAR_LOCAL), rhs: initialiser or NULL */
	ST_IF,     /* cond, body[0] then, body[1] else or NULL (nbody is 1 or 2) */
} StmtKind;

struct Stmt {
	StmtKind kind;
	Var *var;
	Expr *lo, *hi;
	Expr *lhs, *rhs, *cond;
	AssignOp aop;
	long step;
	int nbody;
	Stmt **body;
	Schedule *sched;
	Loc loc;
};

/* ---- schedule: what the #pragma fuse lines of one region say ---- */
typedef struct LoopArg {
	const char *loop; /* loop name as written (matched to iterators by name, see DESIGN §1) */
	long value;       /* tile size / split count; 0 when not given */
	Loc loc;
} LoopArg;

typedef struct TuneAxis {
	const char *key; /* a loop name, or "warps" / "stages" */
	long *values;
	int nvalues;
	Loc loc;
} TuneAxis;

struct Schedule {
	Loc loc;          /* the first `#pragma fuse` line of the region */
	const char *name; /* kernel(name); NULL when not given */
	LoopArg *parallel;
	int nparallel;
	LoopArg *tile;
	int ntile;
	LoopArg *rolling;
	int nrolling;
	LoopArg *splitk; /* value: chunk count, 0 = automatic */
	int nsplitk;
	TuneAxis *tune;
	int ntune;
	TuneAxis *spec; /* specialize(D: 64, 128): key is an int parameter's name */
	int nspec;
	bool tf32;         /* precision(tf32): fp32 operands multiplied as one tf32 product */
	Loc precision_loc; /* of the precision clause's word, when there is one */
};

typedef struct Func Func;

/* A size computed by dividing sizes in the set-up, `int hs = C / NH;` (C and NH int
 * parameters), that the subscripts use as a stride: fusecc reads C as NH * hs there, which
 * holds when NH divides C. The fused C asserts it and the launcher refuses other sizes. */
typedef struct SizeDiv {
	Var *q, *num, *den;
} SizeDiv;

/* A field of a struct parameter as declared: a scalar (ptr false) or a pointer to
 * scalars; ctype the integer spelling as for Var.ctype; var the parameter the function
 * reads it as, NULL when it does not read it. */
typedef struct StructField {
	const char *name;
	ScalarType ty;
	const char *ctype;
	bool ptr;
	bool is_const; /* a pointer to const elements */
	/* A field of another builtin type or a pointer to one (`void *q_ptr`, `char`): its
	 * spelling, which the definitions keep; the function may not read it. NULL else. */
	const char *opaque;
	Var *var;
} StructField;

/* A parameter of struct type, as C APIs pass a kernel's configuration: by value
 * (`struct attn_cfg cfg`) or as a pointer to a const one (`const attn_params *p`), its
 * fields scalars or pointers to arrays. The fields the function reads are parameters of
 * their own (Var.field_of), Func.params[at .. at + nvars), where the struct stands in the
 * user's list; every stage but the printers of the user's signature (the fused C's
 * function, the GPU's extern launcher, the harness) sees only them. */
struct StructParam {
	const char *name;    /* "cfg" */
	const char *type;    /* "struct attn_cfg", "attn_params": as the parameter spells it */
	const char *tag;     /* the struct's tag, NULL for an anonymous struct */
	bool typedef_name;   /* type is a typedef's name (of the tagged or anonymous struct) */
	bool by_pointer;     /* `const T *p`: fields read as p->f */
	StructField *fields; /* all of them, in declaration order (the definition printed) */
	int nfields;
	int at, nvars;
	Loc loc;
};

/* One entry of a function's parameter list as the user wrote it: a parameter (v) or a
 * struct (s). */
typedef struct SigEntry {
	Var *v;
	const StructParam *s;
} SigEntry;

typedef struct Region {
	const char *name; /* kernel name: schedule's, else <fn>_k<index> */
	Func *fn;
	Stmt *loop; /* the ST_FOR that follows the pragma */
	Loc loc;
	/* Set by heads.c only while it plans its regrouped nest of interleaved heads: a group
	 * loop g writing rows g * group_stride + kv writes its own rows (the launcher checks
	 * group_stride > 0). NULL otherwise. */
	const Expr *group_stride;
	/* Set by the fuser where it leaves the region as written though a loop of it computes
	 * a product at each step (an attention it cannot fuse): why, in the input's names, for
	 * the GPU printers' fallback warning. NULL otherwise. */
	const char *unfused_why;
} Region;

struct Func {
	const char *name;
	Var **params;
	int nparams;
	/* Scalar set-up written between the regions (`const float scale = 1 / sqrtf(D);`):
	 * ST_DECL, ST_ASSIGN and ST_IF statements in source order that read only scalar
	 * parameters and earlier set-up scalars. It runs before the regions (the launcher
	 * on the host; the fused C at the top of the function); the variables it declares
	 * are svars, which the kernels take as extra scalar arguments after the params. */
	Stmt **setup;
	int nsetup;
	Var **svars;
	int nsvars;
	/* The function returns before doing anything when this holds (`if (N <= 0) return;`
	 * written before the first region; several are or-ed): it reads only scalar
	 * parameters. NULL: never. */
	Expr *exit_when;
	/* Statements after the last region (`*loss = count ? total / count : 0;`): scalar
	 * locals, stores to output elements at constant subscripts, ifs; they read scalars
	 * only (parameters, set-up, accumulators). They run once, after the regions: at the
	 * end of the fused C, and on a GPU by the last region's sum kernel. */
	Stmt **tail;
	int ntail;
	SizeDiv *divs; /* the set-up divisions the subscripts read as exact */
	int ndivs;
	Region **regions;
	int nregions;
	StructParam **structs; /* its struct parameters, in order */
	int nstructs;
	Loc loc;
};

typedef struct Program {
	Arena arena;
	const char *path; /* the input as named on the command line */
	Func **funcs;
	int nfuncs;
	int nvars; /* Var ids handed out so far */
	/* For the fuser: split a row reduction (a cascade whose levels hold no inner loop:
	 * softmax, norms, log-sum-exp) into chunks whatever its clause, the form the GPU's
	 * CTA-per-row lowering takes. Set by the driver for GPU output. */
	bool split_rows;
	/* For the fuser: a decode under `rolling` (rows that do not grow with the reduction)
	 * gets split-k instead. Set by the driver for the GPU's twin of such a region, whose
	 * launcher the rolling one calls for grids smaller than the GPU (emit_gpu_file). */
	bool decode_splitk;
} Program;

/* The kernels' scalar and array parameters: f's own, then its set-up scalars (svars). */
static inline int func_nkparams(const Func *f) { return f->nparams + f->nsvars; }
static inline Var *func_kparam(const Func *f, int i) { return i < f->nparams ? f->params[i] : f->svars[i - f->nparams]; }

/* f's parameter list as the user wrote it, into sig (room for nparams + nstructs
 * entries); returns the count. */
int func_signature(const Func *f, SigEntry *sig);
/* ---- constructors (ir.c) ---- */
Expr *ex_int(Program *p, long long v, Loc loc);
Expr *ex_flt(Program *p, double v, ScalarType ty, Loc loc);
Expr *ex_var(Program *p, Var *v, Loc loc);
Expr *ex_index(Program *p, Var *v, Expr **idx, Loc loc); /* idx has v->ndim entries, copied */
Expr *ex_un(Program *p, UnOp op, Expr *a, Loc loc);
Expr *ex_bin(Program *p, BinOp op, Expr *a, Expr *b, Loc loc); /* result type by C's rules */
Expr *ex_call(Program *p, MathFn fn, bool is_double, Expr **args, Loc loc);
Expr *ex_cond(Program *p, Expr *c, Expr *a, Expr *b, Loc loc);
Expr *ex_cast(Program *p, ScalarType ty, Expr *a, Loc loc);
/* e converted to ty as C's assignment converts it: e itself when it has that type. */
Expr *ex_as_type(Program *p, ScalarType ty, Expr *e);
Expr *ex_copy(Program *p, const Expr *e);
/* Copy of e with every EX_VAR of `from` replaced by a copy of `to`. */
Expr *expr_subst_expr(Program *p, const Expr *e, const Var *from, const Expr *to);
Var *var_new(Program *p, VarKind kind, const char *name, ScalarType ty, Loc loc);
Stmt *st_new(Program *p, StmtKind kind, Loc loc);
void st_set_body(Program *p, Stmt *s, Stmt **body, int n); /* copies the array */
ScalarType binop_result(BinOp op, ScalarType a, ScalarType b);
/* The comparison with its sides swapped (`a < b` is `b > a`); other operators as they are. */
BinOp binop_mirror(BinOp op);
/* The operator a compound assignment applies (`x += e` adds); AS_SET has none. */
BinOp assignop_binop(AssignOp op);
bool expr_equal(const Expr *a, const Expr *b);
/* expr_equal where a's variable v stands for map(v, ctx) (v itself where map is NULL or
 * returns NULL), and a pair of sub-expressions that hook decides (1 equal, 0 not; -1
 * compares them as usual) is taken at its word. */
typedef const Var *(*VarMap)(const Var *v, void *ctx);
typedef int (*ExprEqHook)(const Expr *a, const Expr *b, void *ctx);
bool expr_equal_map(const Expr *a, const Expr *b, VarMap map, ExprEqHook hook, void *ctx);
/* Whether neighbouring elements of the last dimension of array v are neighbours in memory
 * (false for a strided view whose innermost stride is not 1). */
bool var_last_contiguous(const Var *v);
/* Whether e reads v (as a scalar or any element), and whether s does: reads include the
 * subscripts of a written element and, for compound assignments, the element itself. */
bool expr_reads_var(const Expr *e, const Var *v);
/* The loop over v in s (s itself or nested), NULL if none. */
const Stmt *stmt_loop_of(const Stmt *s, const Var *v);
/* Whether e reads a variable (or an element of an array) of that name. */
bool expr_reads_named(const Expr *e, const char *name);
/* e without the casts around it. */
Expr *expr_uncast(Expr *e);
/* Whether e is a literal 0 (integer or floating), through casts. */
bool expr_is_zero_literal(const Expr *e);
/* Whether e reads an element of an array (a subscript read from an index array). */
bool expr_reads_element(const Expr *e);
/* Whether the schedule's parallel(...) names the loop `name`. */
bool sched_parallel(const Schedule *sc, const char *name);
bool stmt_reads_var(const Stmt *s, const Var *v);
/* Whether s assigns v, or declares it with an initialiser. */
bool stmt_writes_var(const Stmt *s, const Var *v);
/* Whether v is accessed in s only by assignments that mine(s, ctx) accepts (1), none it
 * rejects (0); at an assignment it leaves (-1), and at every other statement, v is neither
 * read nor written. */
bool stmt_only_accesses(const Stmt *s, const Var *v, int (*mine)(const Stmt *s, void *ctx), void *ctx);
/* Whether local v, declared before loop l and used only in it, is private to l: every
 * iteration writes each scalar or element it reads before reading it (scalars set, or
 * array elements written at a loop's iterator over a range later loops read again), so
 * that a declaration in l's body is the same program. A loop whose body is one loop
 * (`for (h) for (i)`) runs iterations of that loop: private to it, private to l. */
bool loop_private(const Stmt *l, const Var *v);
/* Whether every iteration of loop l (and of each loop in it) writes scalar v before any
 * read of v in it: through ifs (a write in a branch counts there) and inner loops; so no
 * iteration reads a value another left, and v may be declared in l's body. */
bool loop_sets_first(const Stmt *l, const Var *v);
/* Whether an extent of array a (a dim, or a flat pointer's declared size) reads a set-up
 * scalar of f (`const int nr = ne01 * ne02;` bounding a flat pointer's rows): code sizing
 * a before the set-up runs cannot name it. */
bool extents_read_setup(const Func *f, const Var *a);
/* Whether a and b are the same scalar or element. */
bool same_lvalue(const Expr *a, const Expr *b);
/* The step s takes into target t (a scalar's EX_VAR, or an element): `t += e;`, `t -= e;`
 * (ACCUM_SUM), `t = fmaxf(t, e);` (ACCUM_MAX), `t = fminf(t, e);` (ACCUM_MIN), e not
 * reading t's variable; ACCUM_NONE for any other statement. */
AccumKind accum_step(const Stmt *s, const Expr *t);
/* The statement that takes step k with e into t: `t += e;`, `t = fmaxf(t, e);`, ... */
Stmt *accum_step_new(Program *p, AccumKind k, Expr *t, Expr *e, Loc loc);
/* An fma step into its own addend, `x = fmaf(a, b, x)` (a float x) or `x = fma(a, b, x)`
 * (a float or double x), a and b not reading x, becomes the sum step `x += a * b` (in
 * place; s returned, changed or not), the product in fma's type: every stage reads it as
 * the sum it is (the fuser's reductions, the tiles' products). The value: fma's with
 * float operands exactly (their double product is exact), fmaf's up to the rounding of
 * a * b to float (half an ulp a step; the tiles round more). A rescale written with fma,
 * `x = fmaf(x, c, e)` (either factor x), becomes `x = x * c + e` likewise. */
Stmt *fma_step(Program *p, Stmt *s);
/* Step s (accum_step of its target) into scalar `to` instead: `to += e;`,
 * `to = fmaxf(to, e);`. */
void accum_retarget(Program *p, Stmt *s, Var *to);
/* The operand beside lvalue x of a select that picks the larger or the smaller of the
 * two: `x > e ? x : e` and its variants (`>=`, `<`, `<=`, the sides either way), with
 * *max whether it picks the larger; NULL when c is no such select or e reads x. */
Expr *select_extreme(Expr *c, const Expr *x, bool *max);
/* How many assignments in s store to v (the scalar, or any element of the array). */
int stmt_count_stores(const Stmt *s, const Var *v);
/* The scalar types p uses (params, set-up, the regions' variables and values) as a mask
 * of 1u << ScalarType: which headers a printer must include. */
unsigned program_types(const Program *p);

/* ---- printing (print.c): C syntax, deterministic, minimal parentheses ---- */
/* What differs when the same IR is printed for a GPU: type names, and parameter arrays
 * that are plain pointers there (C++ has no variably modified types). NULL: plain C. */
typedef struct PrintTarget PrintTarget;
struct PrintTarget {
	const char *(*type_name)(ScalarType t);
	bool flatten_params;
	/* Optional: prints a read or write of a variable (EX_VAR, EX_INDEX) differently and
	 * returns true; false prints it as usual. The tile lowering maps per-row scalars and
	 * register tiles through it. */
	bool (*var_hook)(StrBuf *b, const Expr *e, const PrintTarget *t);
	/* Optional: called for every expression first; prints it differently and returns
	 * true, or returns false. */
	bool (*expr_hook)(StrBuf *b, const Expr *e, const PrintTarget *t);
	/* Optional: the name of a math function (device intrinsics); NULL: the C name. */
	const char *(*fn_name)(MathFn fn, ScalarType ty);
	/* float division printed as a product with the divisor's reciprocal: a literal's
	 * rounded once here (exact for powers of two), otherwise __frcp_rn(b), which the
	 * compiler hoists when b is invariant (a per-row value in a loop over elements). Within
	 * about an ulp of a / b; an IEEE division costs a dozen instructions per element. */
	bool recip_div;
	/* float expf(a - b) printed as fx::exp_sub(a, b): one FFMA with b * log2(e), which the
	 * compiler hoists when b is invariant (the row's max), instead of FADD + FMUL. Also:
	 * (float)exp((double)x) of a float x printed as the float function of x (the double
	 * function rounded to float differs by an ulp or two, and costs many times more). */
	bool exp_sub;
	/* With exp_sub: the printer's caller knows every b is below 2^31 in magnitude, so
	 * fx::exp_sub<true>(a, b), which keeps log2 e a constant (include/fusecc_tile_common.h). */
	bool exp_sub_moderate;
	/* Optional: `#line N "file"` before each statement whose source line differs from the
	 * last one written (*line_last), so compilers and debuggers point at the input. */
	int *line_last;
	void *ctx; /* for the hooks */
};
void print_expr_to(StrBuf *b, const Expr *e, const PrintTarget *t);
void print_stmt_to(StrBuf *b, const Stmt *s, int indent, const PrintTarget *t);
/* e as the right operand of binary operator op, parenthesised where C needs it. */
void print_operand_to(StrBuf *b, const Expr *e, BinOp op, const PrintTarget *t);
/* e as the left operand of op, which binds left to right: parenthesised only where op
 * binds tighter (`a - b - c`, `(c ? a : b) - c`). */
void print_left_operand_to(StrBuf *b, const Expr *e, BinOp op, const PrintTarget *t);
void print_decl_to(StrBuf *b, const Var *v, const PrintTarget *t);
void print_expr(StrBuf *b, const Expr *e);
void print_stmt(StrBuf *b, const Stmt *s, int indent);
/* Declaration of a parameter or local, as C: `const _Float16 q[B][H][N][128]`. */
void print_decl(StrBuf *b, const Var *v);
/* `cfg.n_head` or `p->seq`: how the user reads field var v (v->field_of set). */
void print_field_ref(StrBuf *b, const Var *v);
/* The definition of s's struct as C (`struct attn_cfg {\n\tint n_head;\n ...};\n`), its
 * scalar type names t's (NULL: C's); a typedef name keeps its typedef. */
void print_struct_def(StrBuf *b, const StructParam *s, const PrintTarget *t);
/* s as a parameter declaration: `struct attn_cfg cfg`, `const attn_params *p`. */
void print_struct_param(StrBuf *b, const StructParam *s);
/* Shortest decimal that reads back as the same value in type ty (float or double). */
void print_float(StrBuf *b, double v, ScalarType ty);
const char *binop_c(BinOp op);
const char *assignop_c(AssignOp op);

#endif
