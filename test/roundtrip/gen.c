/* gen.c: writes a test harness that runs a sample's original function and its fused
 * version on the same random inputs and compares every array they write.
 *
 *   roundtrip_gen SAMPLE.c > harness.c
 *   cc harness.c SAMPLE.c SAMPLE.fused.c -o h && ./h N=67 B=2 ... [range=R] [seed=S]
 *
 * With --gpu the harness is CUDA and runs three versions on the same inputs: `<fn>_launch`
 * from SAMPLE.cu on device copies (a launch with a negative size must be refused first),
 * the original C as written (fp32 math), and a float64 build of the original C, renamed
 * <fn>_ref64, in which every float is a double (test/roundtrip/fp64.h, forced-included;
 * float scalars and float arrays become double, _Float16 / bf16 arrays keep their type).
 * The GPU output must match the fp64 reference within the output type's tolerance; the
 * fp32 original's error against it is printed for context only.
 *   roundtrip_gen --gpu SAMPLE.c > harness.cu
 *   gcc -c SAMPLE.c -o orig.o
 *   gcc -include test/roundtrip/fp64.h $(sed -n 's|^// ref64-flags: ||p' harness.cu) -c SAMPLE.c -o ref64.o
 *   nvcc harness.cu SAMPLE.cu orig.o ref64.o -I include -lm -o h && ./h N=67 ...
 *
 * Int parameters must all be given on the harness's command line; float parameters get
 * a fixed random value unless given. Const arrays are inputs (uniform in [-range, range];
 * an integer array NAME given as NAME=LO..HI, an index array, uniform in [LO, HI), or as
 * NAME=+LO..HI, offsets: 0, then rising by steps uniform in [LO, HI) (cu_seqlens); a
 * bool or byte array, a mask, random 0 and 1 unless given so); other arrays are outputs,
 * poisoned with NaN in both runs: an element the fused version fails to write, or writes
 * as NaN, fails the comparison. An output the function also reads (a residual updated in
 * place, `res[r][c] += x[r][c]`) gets random values instead, the same in every run: NaN
 * there would make the original's result NaN. */
#include <stdlib.h>
#include <string.h>

#include "front/front.h"
#include "ir/ir.h"
#include "fuse/fuse.h"

static bool gpu; /* --gpu: the CUDA harness */

static const char *tol_of(ScalarType t)
{
	switch (t) {
	case TY_DOUBLE: return "1e-10";
	case TY_HALF: return "2e-3";
	case TY_BF16: return "1.6e-2";
	default: return "1e-4";
	}
}

/* GPU vs the fp64 reference: 2^(3 - p) for an output type of p significand bits, i.e. a
 * few roundings of the stored result; fp32 outputs are bounded by the fp32 arithmetic
 * before them, not by their storage, and keep the CPU roundtrip's 1e-4. */
static const char *tol_gpu_of(ScalarType t)
{
	switch (t) {
	case TY_DOUBLE: return "1e-10";
	case TY_HALF: return "4e-3";
	case TY_BF16: return "3.2e-2";
	default: return "1e-4";
	}
}

/* The type whose tolerance a GPU output of f gets: its own; fp16's for an fp32 output of a
 * region with precision(tf32); or for an fp32 output of a
 * function that multiplies array elements, one 16-bit (q.k), the narrowest 16-bit input type (the tensor-core tiles
 * round the probabilities to the values' 16-bit type before P.V, as FlashAttention does:
 * the output is as accurate as that type, not as fp32). */
/* Whether e is an array element (through casts), of a 16-bit float type when half. */
static bool is_elem(const Expr *e, bool half)
{
	if (e->kind == EX_INDEX)
		return !half || e->var->ty == TY_HALF || e->var->ty == TY_BF16;
	return e->kind == EX_CAST && is_elem(e->args[0], half);
}

/* Whether e or s multiplies two array elements, one of them 16-bit (q.k: what the tiles
 * take, fp32 q against a 16-bit cache included). */
static bool expr_16bit_product(const Expr *e)
{
	if (!e)
		return false;
	if (e->kind == EX_BIN && e->bop == OP_MUL && is_elem(e->args[0], false) && is_elem(e->args[1], false) &&
	    (is_elem(e->args[0], true) || is_elem(e->args[1], true)))
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (expr_16bit_product(e->args[i]))
			return true;
	return false;
}

static bool stmt_16bit_product(const Stmt *s)
{
	if (!s)
		return false;
	if (expr_16bit_product(s->rhs))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_16bit_product(s->body[i]))
			return true;
	return false;
}

/* The 16-bit type (bf16 over fp16) that e rounds a computed value to, else t. */
static ScalarType expr_rounds_16bit(const Expr *e, ScalarType t)
{
	if (!e)
		return t;
	if (e->kind == EX_CAST && (e->ty == TY_HALF || e->ty == TY_BF16) && !is_elem(e->args[0], false) && e->args[0]->kind != EX_FLT && e->args[0]->kind != EX_INT)
		t = t == TY_BF16 ? t : e->ty;
	for (int i = 0; i < e->nargs; i++)
		t = expr_rounds_16bit(e->args[i], t);
	return t;
}

static ScalarType stmt_rounds_16bit(const Stmt *s, ScalarType t)
{
	if (!s)
		return t;
	t = expr_rounds_16bit(s->rhs, expr_rounds_16bit(s->cond, t));
	const Var *to = s->kind == ST_DECL ? s->var : s->kind == ST_ASSIGN ? s->lhs->var : NULL;
	if (to && to->kind == VAR_LOCAL && (to->ty == TY_HALF || to->ty == TY_BF16) && s->rhs && !is_elem(s->rhs, false))
		t = t == TY_BF16 ? t : to->ty;
	for (int i = 0; i < s->nbody; i++)
		t = stmt_rounds_16bit(s->body[i], t);
	return t;
}

/* The 16-bit type a region of f rounds a computed value to (bf16 over fp16), else
 * TY_FLOAT. */
static ScalarType func_rounds_16bit(const Func *f)
{
	ScalarType r = TY_FLOAT;
	for (int i = 0; i < f->nregions; i++)
		r = stmt_rounds_16bit(f->regions[i]->loop, r);
	return r;
}

static ScalarType gpu_tol_type(const Func *f, ScalarType t)
{
	bool products = false, tf32 = false;
	for (int r = 0; r < f->nregions; r++) {
		products |= stmt_16bit_product(f->regions[r]->loop);
		tf32 |= f->regions[r]->loop->sched->tf32;
	}
	if (t == TY_FLOAT && tf32)
		return TY_HALF; /* precision(tf32): operands rounded to 10-bit mantissas, as fp16's */
	/* a computed value the C rounds to 16 bits (P before P.V), which the kernels round
	 * unnormalised (cpu_tol) */
	ScalarType r = t == TY_FLOAT ? func_rounds_16bit(f) : TY_FLOAT;
	if (r != TY_FLOAT)
		return r;
	if (t != TY_FLOAT || !products)
		return t;
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (v->ndim && v->is_const && (v->ty == TY_BF16 || (v->ty == TY_HALF && t != TY_BF16)))
			t = v->ty;
	}
	return t;
}

/* The tolerance of the fused program's output of type t on the CPU: its type's, or for a
 * float output of a function that rounds a computed value to 16 bits (P cast to _Float16
 * before P.V, a bf16 autocast), the GPU's for that 16-bit type (two roundings of it, the
 * original's and the fused program's): the fused program rounds the unnormalised value
 * instead, as FlashAttention does (docs/repair-terms.md). */
static const char *cpu_tol(const Func *f, ScalarType t)
{
	ScalarType r = t == TY_FLOAT ? func_rounds_16bit(f) : TY_FLOAT;
	return r != TY_FLOAT ? tol_gpu_of(r) : tol_of(t);
}

/* Element type in the fp64 reference build: fp64.h turns every float into a double. */
static ScalarType ref_type(ScalarType t) { return t == TY_FLOAT ? TY_DOUBLE : t; }

static const char *getter_of(ScalarType t)
{
	switch (t) {
	case TY_HALF: return "half";
	case TY_BF16: return "bf16";
	case TY_DOUBLE: return "double";
	case TY_INT: return "int";
	case TY_I64: return "int64";
	case TY_I8: return "i8";
	case TY_U8: return "u8";
	case TY_FP8: return "fp8";
	default: return "float";
	}
}

/* Whether outputs of type t are codes: bytes or fp8, compared by compare_codes. */
static bool is_code(ScalarType t) { return t == TY_I8 || t == TY_U8 || t == TY_FP8; }

/* Whether e adds to (or subtracts from) a float or double scalar: a sum, which the fused
 * C and the kernels may add in another order. */
static bool stmt_float_sum(const Stmt *s)
{
	if (!s)
		return false;
	if (s->kind == ST_ASSIGN && (s->aop == AS_ADD || s->aop == AS_SUB) && s->lhs->kind == EX_VAR && (s->lhs->ty == TY_FLOAT || s->lhs->ty == TY_DOUBLE))
		return true;
	for (int i = 0; i < s->nbody; i++)
		if (stmt_float_sum(s->body[i]))
			return true;
	return false;
}

/* How many elements of a code output (bytes, fp8) may be one step off the original's: 0
 * on the CPU when no region adds floats (the fused C computes each code with the same
 * operations, maxima being exact in any order); else a few (1 + n / 1000; the harness's
 * `steps` argument): a sum added in another order moves the scale by an ulp, and on a GPU
 * also nvcc's a * b + c as one fma, which moves a value across its code's rounding
 * boundary only when it lies within a few ulps of it (about 1e-5 of the elements for
 * random data), while a wrong rounding or a wrong scale moves most of them. */
static bool codes_exact(const Func *f)
{
	if (gpu)
		return false;
	for (int r = 0; r < f->nregions; r++)
		if (stmt_float_sum(f->regions[r]->loop))
			return false;
	return true;
}

static void print_count(StrBuf *b, const Var *v)
{
	if (v->flat_extent) { /* a flattened tensor q[B * N * D]: as declared */
		sb_puts(b, "(size_t)(");
		print_expr(b, v->flat_extent);
		sb_puts(b, ")");
		return;
	}
	if (v->strides) { /* a strided view: one past its last element (NAME_rows: dim 0's extent) */
		sb_puts(b, "(size_t)1");
		for (int d = 0; d < v->ndim; d++) {
			StrBuf n = {0};
			if (v->dims[d])
				print_expr(&n, v->dims[d]);
			else
				sb_printf(&n, "arg(argc, argv, \"%s_rows\", NAN)", v->name);
			sb_printf(b, " + ((%s) > 0 ? (size_t)((%s) - 1) * (size_t)(", n.s, n.s);
			sb_free(&n);
			print_expr(b, v->strides[d]);
			sb_puts(b, ") : 0)");
		}
		return;
	}
	sb_puts(b, "(size_t)1");
	if (!v->dims[0]) /* a pointer nothing in the function bounds (a pool of pages): NAME_rows=R */
		sb_printf(b, " * (size_t)arg(argc, argv, \"%s_rows\", NAN)", v->name);
	for (int d = !v->dims[0]; d < v->ndim; d++) {
		sb_puts(b, " * (size_t)(");
		print_expr(b, v->dims[d]);
		sb_puts(b, ")");
	}
}


/* Whether the count of an array parameter of f reads a set-up scalar: then the harness
 * computes the set-up as the function does before it sizes the arrays. */
static bool counts_read_setup(const Func *f)
{
	for (int i = 0; i < f->nparams; i++)
		if (f->params[i]->ndim && extents_read_setup(f, f->params[i]))
			return true;
	return false;
}

/* Whether a region of f reads array v (an element on a right-hand side, in a subscript or
 * a bound, or through a compound assignment). */
static bool reads_array(const Func *f, const Var *v)
{
	for (int r = 0; r < f->nregions; r++)
		if (stmt_reads_var(f->regions[r]->loop, v))
			return true;
	return false;
}

/* Element type on the host side of the harness (C++ has no _Float16 under nvcc, nor _Bool;
 * the C harness includes <stdbool.h>): one token, for FROM_DOUBLE. */
static const char *host_type(ScalarType t) { return gpu && t == TY_HALF ? "__half" : t == TY_BOOL ? "bool" : scalar_type_c(t); }

/* Whether a region of f adds to an element of v from every row (a grid sum: `loss[0] +=
 * l;`): the caller zeroes it, so the harness starts it at 0 rather than poisoned. */
static bool is_grid_sum(const Func *f, const Var *v)
{
	for (int r = 0; r < f->nregions; r++) {
		GridSums g;
		grid_sums(f->regions[r]->loop, &g);
		for (int i = 0; i < g.n; i++)
			if (g.vars[i] == v)
				return true;
	}
	return false;
}

/* The harness's definition of a struct parameter's type: the original's fields, pointers
 * as void pointers (the same layout; the harness sets them from its buffers), and for
 * the fp64 reference build (ref64) its float fields as doubles and the type's name with
 * _ref64 (fp64.h turns every float of the original into a double). */
static void print_harness_struct(StrBuf *b, const StructParam *s, bool ref64)
{
	const char *sfx = ref64 ? "_ref64" : "";
	sb_puts(b, s->typedef_name ? "typedef struct " : "struct ");
	if (s->tag)
		sb_printf(b, "%s%s ", s->tag, sfx);
	sb_puts(b, "{\n");
	for (int i = 0; i < s->nfields; i++) {
		const StructField *fl = &s->fields[i];
		if (fl->opaque)
			sb_printf(b, "\t%s%s%s;\n", strcmp(fl->opaque, "_Bool") ? fl->opaque : "bool", fl->opaque[strlen(fl->opaque) - 1] == '*' ? "" : " ", fl->name);
		else if (fl->ptr)
			sb_printf(b, "\t%svoid *%s;\n", fl->is_const ? "const " : "", fl->name);
		else
			sb_printf(b, "\t%s %s;\n", fl->ctype && fl->ty != TY_BOOL ? fl->ctype : host_type(ref64 ? ref_type(fl->ty) : fl->ty), fl->name);
	}
	sb_puts(b, "}");
	if (s->typedef_name)
		sb_printf(b, " %s%s", s->type, sfx);
	sb_puts(b, ";\n");
}

/* The type of struct parameter s in the harness (`struct cfg`, `Shape_ref64`). */
static const char *struct_type(const StructParam *s, bool ref64, StrBuf *tmp)
{
	tmp->len = 0;
	if (s->typedef_name)
		sb_printf(tmp, "%s%s", s->type, ref64 ? "_ref64" : "");
	else
		sb_printf(tmp, "struct %s%s", s->tag, ref64 ? "_ref64" : "");
	return tmp->s;
}

/* The text of parameter v's argument at one call. */
typedef void (*ArgText)(StrBuf *b, const Var *v, const void *ctx);

static int call_id;

/* Locals holding the struct arguments of one call (fxh_<s>_<id>), their fields set from
 * arg; returns the id print_call_args names them by. */
static int print_struct_args(StrBuf *b, const Func *f, const char *indent, bool ref64, ArgText arg, const void *ctx)
{
	int id = ++call_id;
	StrBuf tmp = {0};
	for (int k = 0; k < f->nstructs; k++) {
		const StructParam *s = f->structs[k];
		sb_printf(b, "%s%s fxh_%s_%d;\n%smemset(&fxh_%s_%d, 0, sizeof fxh_%s_%d);\n", indent, struct_type(s, ref64, &tmp), s->name, id, indent, s->name, id, s->name, id);
		for (int i = s->at; i < s->at + s->nvars; i++) {
			sb_printf(b, "%sfxh_%s_%d.%s = ", indent, s->name, id, f->params[i]->field);
			arg(b, f->params[i], ctx);
			sb_puts(b, ";\n");
		}
	}
	sb_free(&tmp);
	return id;
}

/* The arguments of a call in the user's signature: struct parameters from the locals of
 * print_struct_args(id), the others from arg. */
static void print_call_args(StrBuf *b, const Func *f, int id, ArgText arg, const void *ctx)
{
	SigEntry *sig = calloc((size_t)(f->nparams + f->nstructs + 1), sizeof *sig);
	int n = func_signature(f, sig);
	for (int i = 0; i < n; i++) {
		if (i)
			sb_puts(b, ", ");
		if (sig[i].s)
			sb_printf(b, "%sfxh_%s_%d", sig[i].s->by_pointer ? "&" : "", sig[i].s->name, id);
		else
			arg(b, sig[i].v, ctx);
	}
	free(sig);
}

/* The parameter list of a prototype in the user's signature: a struct as declared (the
 * harness's type, ref64's for the fp64 build), the others by decl. */
static void print_proto_params(StrBuf *b, const Func *f, bool ref64, void (*decl)(StrBuf *b, const Var *v))
{
	SigEntry *sig = calloc((size_t)(f->nparams + f->nstructs + 1), sizeof *sig);
	int n = func_signature(f, sig);
	StrBuf tmp = {0};
	for (int i = 0; i < n; i++) {
		if (i)
			sb_puts(b, ", ");
		if (sig[i].s)
			sb_printf(b, sig[i].s->by_pointer ? "const %s *%s" : "%s %s", struct_type(sig[i].s, ref64, &tmp), sig[i].s->name);
		else
			decl(b, sig[i].v);
	}
	if (!n)
		sb_puts(b, "void");
	sb_free(&tmp);
	free(sig);
}

/* A field in another parameter's extent (`x[cfg.n][cfg.d]`) as the prototype reads it. */
static bool field_ref(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	(void)t;
	if (e->kind != EX_VAR || !e->var->field_of)
		return false;
	print_field_ref(b, e->var);
	return true;
}

static void decl_c(StrBuf *b, const Var *v)
{
	PrintTarget pt = {.var_hook = field_ref};
	print_decl_to(b, v, &pt);
}
static void decl_gpu(StrBuf *b, const Var *v)
{
	if (v->ndim)
		sb_printf(b, "%svoid *%s", v->is_const ? "const " : "", v->name);
	else
		print_decl(b, v);
}
static void decl_ref64(StrBuf *b, const Var *v)
{
	if (v->ndim)
		sb_printf(b, "%svoid *%s", v->is_const ? "const " : "", v->name);
	else
		sb_printf(b, "%s %s", v->ctype ? v->ctype : host_type(ref_type(v->ty)), v->name); /* sizes as declared */
}
static void decl_launch(StrBuf *b, const Var *v)
{
	if (v->ndim)
		sb_printf(b, "%svoid *%s", v->is_const ? "const " : "", v->name);
	else
		sb_printf(b, "%s %s", scalar_type_c(v->ty), v->name);
}

typedef struct LaunchArgs {
	const Var *neg, *misaligned;
} LaunchArgs;

static void launch_arg(StrBuf *b, const Var *v, const void *ctx)
{
	const LaunchArgs *la = ctx;
	if (v == la->misaligned)
		sb_printf(b, "(void *)((char *)%s_d + 1)", v->name);
	else
		sb_printf(b, "%s%s%s", v == la->neg ? "-1 - " : "", v->name, v->ndim ? "_d" : ""); /* negative for a size of 0 too */
}

/* Before a statement that calls print_launch: the struct arguments of that launch. */
static int launch_structs(StrBuf *b, const Func *f, const char *indent, const Var *neg, const Var *misaligned)
{
	LaunchArgs la = {neg, misaligned};
	return print_struct_args(b, f, indent, false, launch_arg, &la);
}

/* `<fn>_launch(args, 0)` on the device copies; neg's size negated, misaligned's array one
 * byte off (either NULL); id: launch_structs' before it. */
static void print_launch(StrBuf *b, const Func *f, const Var *neg, const Var *misaligned, int id)
{
	LaunchArgs la = {neg, misaligned};
	sb_printf(b, "%s_launch(", f->name);
	print_call_args(b, f, id, launch_arg, &la);
	sb_puts(b, func_nkparams(f) || f->nstructs ? ", 0)" : "0)");
}

/* An argument of the CPU runs: an array's copy (suffix sfx) or the scalar. */
static void pass_arg(StrBuf *b, const Var *v, const void *ctx)
{
	const char *sfx = ctx;
	if (v->ndim)
		sb_printf(b, "(void *)%s%s", v->name, sfx);
	else
		sb_puts(b, v->name);
}

/* The third run's argument: outputs' _u copies, inputs' _a. */
static void pass_arg_u(StrBuf *b, const Var *v, const void *ctx)
{
	(void)ctx;
	pass_arg(b, v, v->ndim && !v->is_const ? "_u" : "_a");
}

static ArgText pass_arg_of(int pass) { return pass == 2 ? pass_arg_u : pass_arg; }

static void gen_function(StrBuf *b, const Func *f)
{
	/* The prototypes: the C function's, sizes as the user declared them (size_t N); the
	 * launcher's, which takes every size as an int. */
	StrBuf params = {0};
	print_proto_params(&params, f, false, gpu ? decl_gpu : decl_c);
	if (gpu) {
		StrBuf params64 = {0}, lparams = {0};
		print_proto_params(&params64, f, true, decl_ref64);
		print_proto_params(&lparams, f, false, decl_launch);
		bool none = !f->nparams && !f->nstructs;
		sb_printf(b, "extern \"C\" void %s(%s);\n", f->name, params.s);
		sb_printf(b, "extern \"C\" void %s_ref64(%s);\n", f->name, params64.s);
		sb_printf(b, "extern \"C\" cudaError_t %s_launch(%s%scudaStream_t);\n\n", f->name, none ? "" : lparams.s, none ? "" : ", ");
		sb_free(&params64);
		sb_free(&lparams);
	} else
		sb_printf(b, "void %s(%s);\nvoid %s_fused(%s);\n\n", f->name, params.s, f->name, params.s);
	sb_free(&params);
	sb_printf(b, "static int run_%s(int argc, char **argv)\n{\n\tint bad = 0;\n", f->name);
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (v->ndim)
			continue;
		if (v->ty == TY_INT)
			sb_printf(b, "\tint %s = (int)arg(argc, argv, \"%s\", NAN);\n", v->name, v->name);
		else
			sb_printf(b, "\t%s %s = (%s)arg(argc, argv, \"%s\", 0.05 + 0.95 * urand());\n", scalar_type_c(v->ty), v->name, scalar_type_c(v->ty), v->name);
	}
	for (int i = 0; counts_read_setup(f) && i < f->nsetup; i++) {
		sb_puts(b, "\t");
		print_stmt(b, f->setup[i], 1);
	}
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (!v->ndim)
			continue;
		const char *t = host_type(v->ty);
		sb_printf(b, "\tsize_t fxh_n_%s = ", v->name);
		print_count(b, v);
		sb_printf(b, ";\n\t%s *%s_a = (%s *)malloc(fxh_n_%s * sizeof(%s) + 1), *%s_b = (%s *)malloc(fxh_n_%s * sizeof(%s) + 1);\n", t, v->name, t, v->name, t, v->name, t, v->name, t);
		const char *rt = host_type(ref_type(v->ty));
		if (!v->is_const) /* _u: the original's outputs again, poisoned with a number */
			sb_printf(b, "\t%s *%s_u = (%s *)malloc(fxh_n_%s * sizeof(%s) + 1), %s_poison = FROM_DOUBLE(%s, 777.0);\n", t, v->name, t, v->name, t, v->name, t);
		if (gpu) /* _r: the fp64 reference's copy (float arrays as double arrays) */
			sb_printf(b, "\t%s *%s_r = (%s *)malloc(fxh_n_%s * sizeof(%s) + 1);\n", rt, v->name, rt, v->name, rt);
		bool index = v->is_const && scalar_is_int(v->ty);
		bool inout = !v->is_const && reads_array(f, v);
		if (index) /* an index array: NAME=LO..HI on the command line gives its values */
			sb_printf(b, "\tint lo_%s = 0, hi_%s = 0, is_%s = irange(argc, argv, \"%s\", &lo_%s, &hi_%s);\n", v->name, v->name, v->name, v->name, v->name,
			          v->name);
		sb_printf(b, "\tfor (size_t k = 0; k < fxh_n_%s; k++) {\n", v->name);
		if (v->ty == TY_I8 && v->is_const) /* quantised values: the whole signed range unless NAME=LO..HI */
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = is_%s ? lo_%s + (int)(urand() * (hi_%s - lo_%s)) : -127 + (int)(urand() * 255);\n", v->name, v->name, v->name, v->name,
			          v->name, v->name);
		else if (index && scalar_size(v->ty) == 1) /* a mask */
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = is_%s ? lo_%s + (int)(urand() * (hi_%s - lo_%s)) : urand() < 0.5;\n", v->name, v->name, v->name, v->name,
			          v->name, v->name);
		else if (index)
			sb_printf(b,
			          "\t\t%s_a[k] = %s_b[k] = is_%s == 2 ? (k ? %s_a[k - 1] + lo_%s + (int)(urand() * (hi_%s - lo_%s)) : 0)\n"
			          "\t\t\t: is_%s ? lo_%s + (int)(urand() * (hi_%s - lo_%s)) : FROM_DOUBLE(%s, range * (2 * urand() - 1));\n",
			          v->name, v->name, v->name, v->name, v->name, v->name, v->name, v->name, v->name, v->name, v->name, t);
		else if (v->is_const)
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = FROM_DOUBLE(%s, range * (2 * urand() - 1));\n", v->name, v->name, t);
		else if (is_grid_sum(f, v))
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = %s_u[k] = FROM_DOUBLE(%s, 0.0);\n", v->name, v->name, v->name, t);
		else if (inout)
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = %s_u[k] = FROM_DOUBLE(%s, range * (2 * urand() - 1));\n", v->name, v->name, v->name, t);
		else
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = FROM_DOUBLE(%s, NAN), %s_u[k] = %s_poison;\n", v->name, v->name, t, v->name, v->name);
		if (gpu && (v->is_const || inout || is_grid_sum(f, v)))
			sb_printf(b, "\t\t%s_r[k] = %s_a[k];\n", v->name, v->name);
		else if (gpu)
			sb_printf(b, "\t\t%s_r[k] = FROM_DOUBLE(%s, NAN);\n", v->name, rt);
		sb_puts(b, "\t}\n");
	}
	if (gpu) {
		/* Device copies, the launch, and the results back into the _b arrays. */
		for (int i = 0; i < f->nparams; i++) {
			const Var *v = f->params[i];
			if (!v->ndim)
				continue;
			sb_printf(b, "\tvoid *%s_d = NULL;\n\tCHECK(cudaMalloc(&%s_d, fxh_n_%s * sizeof(*%s_b) + 1));\n", v->name, v->name, v->name, v->name);
			sb_printf(b, "\tCHECK(cudaMemcpy(%s_d, %s_b, fxh_n_%s * sizeof(*%s_b), cudaMemcpyHostToDevice));\n", v->name, v->name, v->name, v->name);
		}
		/* First a launch with a negative size, which must be refused untouched. */
		const Var *sz = NULL;
		for (int i = 0; i < f->nparams && !sz; i++)
			if (!f->params[i]->ndim && f->params[i]->ty == TY_INT)
				for (int k = 0; k < f->nparams; k++)
					for (int d = 0; d < f->params[k]->ndim; d++)
						if (f->params[k]->dims[d] && f->params[k]->dims[d]->kind == EX_VAR && f->params[k]->dims[d]->var == f->params[i])
							sz = f->params[i];
		if (sz) {
			int id = launch_structs(b, f, "\t", sz, NULL);
			sb_puts(b, "	if (");
			print_launch(b, f, sz, NULL, id);
			sb_puts(b, " != cudaErrorInvalidValue) {\n\t\tfprintf(stderr, \"launch with a negative size was not refused\\n\");\n\t\tbad++;\n\t}\n");
			/* An array one byte off its alignment must be refused as well (one of
			 * elements wider than a byte). */
			const Var *arr = NULL;
			for (int i = 0; i < f->nparams && !arr; i++)
				if (f->params[i]->ndim && scalar_size(f->params[i]->ty) > 1)
					arr = f->params[i];
			if (arr) {
				int id = launch_structs(b, f, "\t", NULL, arr);
				sb_puts(b, "	if (");
				print_launch(b, f, NULL, arr, id);
				sb_puts(b, " != cudaErrorInvalidValue) {\n\t\tfprintf(stderr, \"launch with a misaligned array was not refused\\n\");\n\t\tbad++;\n\t}\n");
			}
			/* Poisoned again: whatever that launch did, the real one starts from NaN. */
			for (int i = 0; i < f->nparams; i++)
				if (f->params[i]->ndim && !f->params[i]->is_const)
					sb_printf(b, "\tCHECK(cudaMemcpy(%s_d, %s_b, fxh_n_%s * sizeof(*%s_b), cudaMemcpyHostToDevice));\n", f->params[i]->name, f->params[i]->name,
					          f->params[i]->name, f->params[i]->name);
		}
		int id = launch_structs(b, f, "\t", NULL, NULL);
		sb_puts(b, "\tCHECK(");
		print_launch(b, f, NULL, NULL, id);
		sb_puts(b, ");\n\tCHECK(cudaDeviceSynchronize());\n");
		/* time=N: the launch timed over N runs after 3 warm-ups (CUDA events, back to back,
		 * no L2 flush), and nothing compared: the CPU versions at benchmark sizes would take
		 * minutes. bench/zoo_time.sh reads the line. */
		sb_puts(b, "\tint time_n = (int)arg(argc, argv, \"time\", 0);\n\tif (time_n > 0) {\n\t\tcudaEvent_t t0, t1;\n"
		           "\t\tCHECK(cudaEventCreate(&t0));\n\t\tCHECK(cudaEventCreate(&t1));\n\t\tfor (int it = -3; it < time_n; it++) {\n"
		           "\t\t\tif (it == 0)\n\t\t\t\tCHECK(cudaEventRecord(t0, 0));\n\t\t\tCHECK(");
		print_launch(b, f, NULL, NULL, id);
		sb_printf(b, ");\n\t\t}\n\t\tCHECK(cudaEventRecord(t1, 0));\n\t\tCHECK(cudaEventSynchronize(t1));\n\t\tfloat ms = 0;\n"
		             "\t\tCHECK(cudaEventElapsedTime(&ms, t0, t1));\n\t\tprintf(\"%s: time %%.3f us\\n\", 1000.0 * ms / time_n);\n\t}\n", f->name);
		for (int i = 0; i < f->nparams; i++) {
			const Var *v = f->params[i];
			if (!v->ndim)
				continue;
			if (!v->is_const)
				sb_printf(b, "\tCHECK(cudaMemcpy(%s_b, %s_d, fxh_n_%s * sizeof(*%s_b), cudaMemcpyDeviceToHost));\n", v->name, v->name, v->name, v->name);
			sb_printf(b, "\tcudaFree(%s_d);\n", v->name);
		}
	}
	/* CPU: the original, then (GPU harness) its fp64 build on the _r copies; last the
	 * original again on outputs poisoned with a number, which tells the elements it
	 * leaves unwritten (rows past a sequence's end) from those it computes. */
	if (gpu)
		sb_puts(b, "\tif (!time_n) {\n");
	for (int pass = 0; pass < 3; pass++) {
		const char *sfx = pass == 1 ? gpu ? "_r" : "_b" : pass == 2 ? "_u" : "_a";
		/* inputs are the same in the third run: only outputs have a _u copy */
		StrBuf call = {0};
		int id = print_struct_args(b, f, "\t", pass == 1 && gpu, pass_arg_of(pass), sfx);
		sb_printf(&call, "\t%s%s(", f->name, pass == 1 ? gpu ? "_ref64" : "_fused" : "");
		print_call_args(&call, f, id, pass_arg_of(pass), sfx);
		sb_puts(&call, ");\n");
		sb_puts(b, call.s);
		sb_free(&call);
	}
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (!v->ndim || v->is_const)
			continue;
		if (is_code(v->ty)) { /* codes: against the fp32 original, gpu or fused C (_b) */
			sb_printf(b, "\tbad += compare_codes(\"%s\", \"%s\", fxh_n_%s, %d, %s_a, %s_b, code_%s);\n", f->name, v->name, v->name, !codes_exact(f), v->name, v->name,
			          getter_of(v->ty));
			continue;
		}
		if (gpu) {
			sb_printf(b, "\tbad += compare_ref64(\"%s\", \"%s\", fxh_n_%s, %s, %s_r, to_double_%s, ", f->name, v->name, v->name, tol_gpu_of(gpu_tol_type(f, v->ty)), v->name,
			          getter_of(ref_type(v->ty)));
			sb_printf(b, "%s_b, %s_a, %s_u, &%s_poison, to_double_%s);\n", v->name, v->name, v->name, v->name, getter_of(v->ty));
			continue;
		}
		sb_printf(b, "\tbad += compare(\"%s\", \"%s\", fxh_n_%s, %s, ", f->name, v->name, v->name, cpu_tol(f, v->ty));
		sb_printf(b, "%s_a, %s_b, %s_u, &%s_poison, to_double_%s);\n", v->name, v->name, v->name, v->name, getter_of(v->ty));
	}
	if (gpu)
		sb_puts(b, "\t}\n");
	for (int i = 0; i < f->nparams; i++)
		if (f->params[i]->ndim) {
			sb_printf(b, "\tfree(%s_a);\n\tfree(%s_b);\n", f->params[i]->name, f->params[i]->name);
			if (!f->params[i]->is_const)
				sb_printf(b, "\tfree(%s_u);\n", f->params[i]->name);
			if (gpu)
				sb_printf(b, "\tfree(%s_r);\n", f->params[i]->name);
		}
	sb_puts(b, "\treturn bad;\n}\n\n");
}

static const char prelude_gpu[] =
	"#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n"
	"#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, \"%s: %s\\n\", #x, cudaGetErrorString(e_)); exit(3); } } while (0)\n"
	"typedef __half half_t;\n"
	"static inline half_t to_half(double x) { return __float2half((float)x); }\n"
	"static inline double from_half(half_t x) { return __half2float(x); }\n";
static const char prelude_cpu[] =
	"typedef _Float16 half_t;\n"
	"static inline half_t to_half(double x) { return (half_t)x; }\n"
	"static inline double from_half(half_t x) { return x; }\n";
static const char prelude_includes[] =
	"#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"fusecc.h\"\n\n";
static const char prelude[] =
	"static unsigned long long rng = 88172645463325252ull;\n"
	"static double range = 3.0;\n"
	"static double urand(void)\n{\n\trng ^= rng << 13;\n\trng ^= rng >> 7;\n\trng ^= rng << 17;\n\treturn (double)(rng >> 11) / 9007199254740992.0;\n}\n"
	"static double arg(int argc, char **argv, const char *name, double dflt)\n{\n"
	"\tsize_t n = strlen(name);\n\tfor (int i = 1; i < argc; i++)\n"
	"\t\tif (!strncmp(argv[i], name, n) && argv[i][n] == '=')\n\t\t\treturn atof(argv[i] + n + 1);\n"
	"\tif (isnan(dflt)) {\n\t\tfprintf(stderr, \"harness: give %s=VALUE\\n\", name);\n\t\texit(2);\n\t}\n\treturn dflt;\n}\n"
	"/* NAME=LO..HI: the values of index array NAME, uniform in [LO, HI) (returns 1);\n"
	" * NAME=+LO..HI: offsets, 0 then rising by steps uniform in [LO, HI) (returns 2). */\n"
	"static int irange(int argc, char **argv, const char *name, int *lo, int *hi)\n{\n"
	"\tsize_t n = strlen(name);\n\tfor (int i = 1; i < argc; i++)\n"
	"\t\tif (!strncmp(argv[i], name, n) && argv[i][n] == '=') {\n"
	"\t\t\tconst char *v = argv[i] + n + 1;\n"
	"\t\t\tint rising = *v == '+';\n"
	"\t\t\tif (sscanf(v + rising, \"%d..%d\", lo, hi) == 2 && *lo < *hi)\n\t\t\t\treturn 1 + rising;\n"
	"\t\t}\n"
	"\treturn 0;\n}\n"
	"/* An output element the original leaves as it was: NaN when poisoned with NaN, the\n"
	" * number when poisoned with a number. */\n"
	"static int unwritten(double nan_run, double number_run, double number) { return isnan(nan_run) && number_run == number; }\n"
	"#define FROM_DOUBLE(T, x) from_double_##T(x)\n"
	"static inline float from_double_float(double x) { return (float)x; }\n"
	"static inline double from_double_double(double x) { return x; }\n"
	"static inline int from_double_int(double x) { return x != x ? -1 : (int)x; }\n"
	"static inline int64_t from_double_int64_t(double x) { return x != x ? -1 : (int64_t)x; }\n"
	"static inline half_t from_double__Float16(double x) { return to_half(x); }\n"
	"static inline half_t from_double___half(double x) { return to_half(x); }\n"
	"static inline fusecc_bf16 from_double_fusecc_bf16(double x) { return fusecc_float_to_bf16((float)x); }\n"
	"/* codes poisoned: NaN as fp8's NaN, int8's -128 (which a symmetric quantiser does not\n"
	" * write), uint8's 0xa5 */\n"
	"static inline fusecc_fp8e4m3 from_double_fusecc_fp8e4m3(double x) { return fusecc_float_to_fp8e4m3((float)x); }\n"
	"static inline int8_t from_double_int8_t(double x) { return x != x ? -128 : x < -128 ? -128 : x > 127 ? 127 : (int8_t)x; }\n"
	"static inline uint8_t from_double_uint8_t(double x) { return x != x ? 0xa5 : x < 0 ? 0 : x > 255 ? 255 : (uint8_t)x; }\n"
	"/* A code as a position on its type's number line (fp8: +0 and -0 both 0, NaN far off)\n"
	" * and its value, for the messages. */\n"
	"static inline long code_i8(const void *p, size_t k, double *v) { *v = ((const int8_t *)p)[k]; return ((const int8_t *)p)[k]; }\n"
	"static inline long code_u8(const void *p, size_t k, double *v) { *v = ((const uint8_t *)p)[k]; return ((const uint8_t *)p)[k]; }\n"
	"static inline long code_fp8(const void *p, size_t k, double *v)\n{\n"
	"\tfusecc_fp8e4m3 x = ((const fusecc_fp8e4m3 *)p)[k];\n\t*v = fusecc_fp8e4m3_to_float(x);\n"
	"\tif ((x.bits & 0x7f) == 0x7f)\n\t\treturn 100000;\n"
	"\treturn x.bits & 0x80 ? -(long)(x.bits & 0x7f) : (long)(x.bits & 0x7f);\n}\n"
	"static double to_double_float(const void *p, size_t k) { return ((const float *)p)[k]; }\n"
	"static double to_double_double(const void *p, size_t k) { return ((const double *)p)[k]; }\n"
	"static double to_double_int(const void *p, size_t k) { return ((const int *)p)[k]; }\n"
	"static double to_double_int64(const void *p, size_t k) { return (double)((const int64_t *)p)[k]; }\n"
	"static double to_double_half(const void *p, size_t k) { return from_half(((const half_t *)p)[k]); }\n"
	"static double to_double_bf16(const void *p, size_t k) { return fusecc_bf16_to_float(((const fusecc_bf16 *)p)[k]); }\n";
static const char prelude_compare_cpu[] =
	"/* |fused - original| <= tol * max(1, |original|), and NaN never passes, except at an\n"
	" * element the original leaves unwritten, which the fused version must leave too, or\n"
	" * computes as NaN (a row whose keys are all masked), which it must compute too; an\n"
	" * output with no element compared fails. */\n"
	"static int compare(const char *fn, const char *name, size_t n, double tol, const void *a, const void *b, const void *u,\n"
	"                   const void *poison, double (*get)(const void *, size_t))\n{\n"
	"\tint bad = 0;\n\tsize_t nan_rows = 0;\n\tdouble worst = 0;\n"
	"\tfor (size_t k = 0; k < n; k++) {\n"
	"\t\tdouble x = get(a, k), y = get(b, k);\n"
	"\t\tif (isnan(x)) {\n"
	"\t\t\tif (!isnan(y) && bad++ < 5)\n\t\t\t\tfprintf(stderr, \"%s: %s[%zu]: the original %s, the fused version writes %.9g\\n\", fn, name, k, unwritten(x, get(u, k), get(poison, 0)) ? \"leaves it unwritten\" : \"computes NaN\", y);\n"
	"\t\t\tnan_rows++;\n\t\t\tcontinue;\n\t\t}\n"
	"\t\tdouble err = x == y ? 0 : fabs(x - y) / (fabs(x) > 1 ? fabs(x) : 1); /* -inf == -inf */\n"
	"\t\tif (isnan(x) || isnan(y) || !(err <= tol)) {\n"
	"\t\t\tif (bad++ < 5)\n\t\t\t\tfprintf(stderr, \"%s: %s[%zu]: original %.9g, fused %.9g\\n\", fn, name, k, x, y);\n"
	"\t\t} else if (err > worst) {\n\t\t\tworst = err;\n\t\t}\n\t}\n"
	"\tif (n && nan_rows == n && !bad++)\n\t\tfprintf(stderr, \"%s: %s: the original writes no number\\n\", fn, name);\n"
	"\tif (bad)\n\t\tfprintf(stderr, \"%s: %s: %d of %zu elements differ\\n\", fn, name, bad, n);\n"
	"\telse\n\t\tprintf(\"%s: %s: %zu elements, max rel err %.3g\\n\", fn, name, n, worst);\n"
	"\treturn bad;\n}\n\n";
static const char prelude_compare_codes[] =
	"/* Codes (bytes, fp8) of the fused version (or the gpu's) against the original's, the fp32\n"
	" * C: equal; or, where steps, one step apart (adjacent codes) at no more than 1 + n / 1000\n"
	" * elements (test/roundtrip/gen.c, codes_exact: a scale moved by an ulp moves a value\n"
	" * across its rounding boundary only when it lies within a few ulps of it). A NaN\n"
	" * matches only a NaN. The fp64 reference is no yardstick here: x / s computed in double\n"
	" * rounds to other codes at the boundaries. */\n"
	"static inline int compare_codes(const char *fn, const char *name, size_t n, int steps, const void *orig, const void *got,\n"
	"                                long (*code)(const void *, size_t, double *))\n{\n"
	"\tint bad = 0;\n\tsize_t off = 0, most = steps ? 1 + n / 1000 : 0;\n"
	"\tfor (size_t k = 0; k < n; k++) {\n"
	"\t\tdouble x, y;\n\t\tlong a = code(orig, k, &x), b = code(got, k, &y);\n"
	"\t\tif (a == b)\n\t\t\tcontinue;\n"
	"\t\tif ((a - b == 1 || b - a == 1) && a != 100000 && b != 100000 && off < most) {\n\t\t\toff++;\n\t\t\tcontinue;\n\t\t}\n"
	"\t\tif (bad++ < 5)\n\t\t\tfprintf(stderr, \"%s: %s[%zu]: original %.9g, got %.9g\\n\", fn, name, k, x, y);\n"
	"\t}\n"
	"\tif (bad)\n\t\tfprintf(stderr, \"%s: %s: %d of %zu codes differ (%zu one step apart allowed)\\n\", fn, name, bad, n, most);\n"
	"\tprintf(\"%s: %s: %zu codes, %zu one step apart%s\\n\", fn, name, n, off, bad ? \", FAIL\" : \"\");\n"
	"\treturn bad;\n}\n\n";
static const char prelude_compare_gpu[] =
	"/* GPU against the fp64 reference: |gpu - ref| <= tol * max(1, |ref|), and NaN (in either)\n"
	" * never passes, except where the original (fp32, on the CPU) leaves the element unwritten or\n"
	" * computes NaN: the gpu must then give NaN too. tol is the output type's, or twice the worst error of the original C (fp32\n"
	" * on the CPU) against the same reference when that is larger: long fp32 dot products of\n"
	" * large inputs are that far from exact in the program being compiled, and the kernel is\n"
	" * held to the program, not to exact arithmetic. */\n"
	"static int compare_ref64(const char *fn, const char *name, size_t n, double tol, const void *ref, double (*get_ref)(const void *, size_t),\n"
	"                         const void *gpu, const void *cpu, const void *u, const void *poison, double (*get)(const void *, size_t))\n{\n"
	"\tint bad = 0, cpu_nan = 0;\n\tdouble worst = 0, worst_cpu = 0;\n\tsize_t at = 0, at_cpu = 0, nan_rows = 0;\n"
	"\tfor (size_t k = 0; k < n; k++) {\n"
	"\t\tdouble r = get_ref(ref, k), c = get(cpu, k);\n"
	"\t\tif (isnan(c))\n\t\t\tcontinue;\n"
	"\t\tdouble err_cpu = c == r ? 0 : fabs(c - r) / (fabs(r) > 1 ? fabs(r) : 1);\n"
	"\t\tif (isnan(err_cpu))\n\t\t\tcpu_nan++;\n"
	"\t\telse if (err_cpu > worst_cpu) {\n\t\t\tworst_cpu = err_cpu;\n\t\t\tat_cpu = k;\n\t\t}\n"
	"\t}\n"
	"\tif (2 * worst_cpu > tol)\n\t\ttol = 2 * worst_cpu;\n"
	"\tfor (size_t k = 0; k < n; k++) {\n"
	"\t\tdouble r = get_ref(ref, k), g = get(gpu, k), c = get(cpu, k);\n"
	"\t\tif (isnan(c)) {\n"
	"\t\t\tif (!isnan(g) && bad++ < 5)\n\t\t\t\tfprintf(stderr, \"%s: %s[%zu]: the original %s, the gpu writes %.9g\\n\", fn, name, k, unwritten(c, get(u, k), get(poison, 0)) ? \"leaves it unwritten\" : \"computes NaN\", g);\n"
	"\t\t\tnan_rows++;\n\t\t\tcontinue;\n\t\t}\n"
	"\t\tdouble err = g == r ? 0 : fabs(g - r) / (fabs(r) > 1 ? fabs(r) : 1);\n"
	"\t\tif (isnan(r) || isnan(g) || !(err <= tol)) {\n"
	"\t\t\tif (bad++ < 5)\n\t\t\t\tfprintf(stderr, \"%s: %s[%zu]: fp64 reference %.9g, gpu %.9g, cpu original %.9g\\n\", fn, name, k, r, g, c);\n"
	"\t\t}\n"
	"\t\tif (err > worst) {\n\t\t\tworst = err;\n\t\t\tat = k;\n\t\t}\n"
	"\t}\n"
	"\tif (n && nan_rows == n && !bad++)\n\t\tfprintf(stderr, \"%s: %s: the original writes no number\\n\", fn, name);\n"
	"\tif (bad)\n\t\tfprintf(stderr, \"%s: %s: %d of %zu elements differ from the fp64 reference by more than %g\\n\", fn, name, bad, n, tol);\n"
	"\tprintf(\"%s: %s: %zu elements, max rel err vs fp64: gpu %.3g (tol %g, at %zu), cpu original %.3g (at %zu)%s%s\\n\", fn, name, n, worst, tol, at,\n"
	"\t       worst_cpu, at_cpu, cpu_nan ? \", cpu original has NaN\" : \"\", bad ? \", FAIL\" : \"\");\n"
	"\treturn bad;\n}\n\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: roundtrip_gen [--gpu] SAMPLE.c [-I DIR...]\n", stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--gpu")) {
		gpu = true;
		argv++;
		argc--;
	}
	FrontOptions fo = {(const char *const *)argv + 2, argc - 2, FUSECC_INCLUDE_DIR};
	Program *p = front_parse(argv[1], &fo, NULL);
	if (!p)
		return 1;
	StrBuf b = {0};
	if (gpu) {
		/* The fp64 reference build's renames, read by bench/gpu_check.sh: every external
		 * function of the input (a helper not declared static too), else the two builds
		 * linked together define it twice. */
		StrVec ext = {0};
		front_external_functions(p, &ext);
		sb_puts(&b, "// ref64-flags:");
		for (int f = 0; f < ext.n; f++)
			sb_printf(&b, " -D%s=%s_ref64", ext.v[f], ext.v[f]);
		vec_free(ext);
		sb_printf(&b, "\n/* Harness for %s, from roundtrip_gen --gpu; see test/roundtrip/gen.c. */\n", argv[1]);
	}
	sb_puts(&b, prelude_includes);
	sb_puts(&b, gpu ? prelude_gpu : prelude_cpu);
	sb_puts(&b, prelude);
	sb_puts(&b, gpu ? prelude_compare_gpu : prelude_compare_cpu);
	sb_puts(&b, prelude_compare_codes);
	StrVec defs = {0};
	for (int f = 0; f < p->nfuncs; f++)
		for (int k = 0; k < p->funcs[f]->nstructs; k++)
			for (int ref64 = 0; ref64 <= gpu; ref64++) {
				StrBuf d = {0};
				print_harness_struct(&d, p->funcs[f]->structs[k], ref64);
				bool seen = false;
				for (int i = 0; i < defs.n && !seen; i++)
					seen = !strcmp(defs.v[i], d.s);
				if (!seen) {
					sb_puts(&b, d.s);
					vec_push(defs, d.s); /* freed with defs */
				} else
					sb_free(&d);
			}
	if (defs.n)
		sb_putc(&b, '\n');
	for (int i = 0; i < defs.n; i++)
		free((char *)defs.v[i]);
	vec_free(defs);
	for (int f = 0; f < p->nfuncs; f++)
		gen_function(&b, p->funcs[f]);
	sb_puts(&b, "int main(int argc, char **argv)\n{\n\tint bad = 0;\n\trange = arg(argc, argv, \"range\", 3.0);\n\trng += (unsigned long long)arg(argc, argv, \"seed\", 0);\n");
	for (int f = 0; f < p->nfuncs; f++)
		sb_printf(&b, "\tbad += run_%s(argc, argv);\n", p->funcs[f]->name);
	sb_puts(&b, "\treturn bad != 0;\n}\n");
	fputs(b.s, stdout);
	sb_free(&b);
	program_free(p);
	return 0;
}
