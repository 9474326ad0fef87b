/* emit_torch.c: the PyTorch printer (--emit=torch). It prints a C++ extension that
 * registers each function as the operator torch.ops.fusecc.<fn>, over the launcher
 * <fn>_launch of the CUDA file fusecc prints for the same input; the extension is built
 * from both files (torch.utils.cpp_extension.load, or fusecc.torch.load in Python).
 *
 * From the C parameter list:
 * - const arrays are input tensors; non-const arrays are outputs, allocated by the
 *   operator and returned (zero-filled when the kernel also reads them, o[i] += ...);
 * - an int parameter that is a whole extent of an input array (N in q[B][H][N][128]) is
 *   deduced from the first such array's shape; every other scalar is an operator
 *   argument (float -> `float` in the schema, int -> `int`);
 * - every input is checked for device, dtype, rank, shape (against the deduced sizes),
 *   contiguity and 16-byte alignment, with a message that names the argument.
 * One function template per operator serves two dispatch keys: CUDA (sizes as int64_t,
 * then the launch on the current stream) and Meta (sizes as SymInt, outputs allocated on
 * the meta device), which is what torch.compile's fake tensors run. Output is
 * deterministic: it follows the parameter lists in source order. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "../fuse/fuse.h"
#include "emit_tile.h"

/* The element types PyTorch has: one row each (a new C element type is one more row). */
typedef struct TorchType {
	ScalarType ty;
	const char *dtype;  /* Python's name, for messages: torch.float16 */
	const char *aten;   /* at::ScalarType: at::kHalf */
	const char *cpp;    /* the element type in C++ (the launcher's pointer): at::Half */
	const char *schema; /* a scalar parameter's type in the operator schema: float, int, bool */
	const char *arg;    /* ... and the C++ argument type that schema type comes as */
} TorchType;

static const TorchType torch_types[] = {
	{TY_HALF, "torch.float16", "at::kHalf", "at::Half", "float", "double"},
	{TY_BF16, "torch.bfloat16", "at::kBFloat16", "at::BFloat16", "float", "double"},
	{TY_FLOAT, "torch.float32", "at::kFloat", "float", "float", "double"},
	{TY_DOUBLE, "torch.float64", "at::kDouble", "double", "float", "double"},
	{TY_INT, "torch.int32", "at::kInt", "int", "int", "int64_t"},
	{TY_I64, "torch.int64", "at::kLong", "int64_t", "int", "int64_t"},
	{TY_U8, "torch.uint8", "at::kByte", "uint8_t", "int", "int64_t"},
	{TY_I8, "torch.int8", "at::kChar", "int8_t", "int", "int64_t"},
	{TY_BOOL, "torch.bool", "at::kBool", "bool", "bool", "bool"},
};
enum { NTYPES = sizeof torch_types / sizeof torch_types[0] };

static const TorchType *torch_type(ScalarType ty)
{
	for (int i = 0; i < NTYPES; i++)
		if (torch_types[i].ty == ty)
			return &torch_types[i];
	return NULL;
}

static bool is_integral(const TorchType *t) { return !strcmp(t->schema, "int"); }

typedef enum Role {
	R_INPUT,  /* const array: a tensor argument */
	R_OUTPUT, /* non-const array: allocated and returned */
	R_SIZE,   /* int deduced from an input's shape */
	R_SCALAR, /* an operator argument */
} Role;

typedef struct Op {
	const Func *f;
	Role *role;
	int *src, *src_dim; /* R_SIZE: the input array and its dimension it is read from */
	int first_input;    /* the first input array (the device, and a deduction source), or -1 */
	int noutputs;
} Op;

static bool stmt_reads(const Func *f, const Var *v)
{
	for (int r = 0; r < f->nregions; r++)
		if (stmt_reads_var(f->regions[r]->loop, v))
			return true;
	return false;
}

static bool op_plan(Op *op, const Func *f)
{
	memset(op, 0, sizeof *op);
	op->f = f;
	op->role = calloc((size_t)f->nparams + 1, sizeof *op->role);
	op->src = calloc((size_t)f->nparams + 1, sizeof *op->src);
	op->src_dim = calloc((size_t)f->nparams + 1, sizeof *op->src_dim);
	op->first_input = -1;
	bool ok = true;
	/* An operator's schema has tensors and numbers: the sizes it computes from its
	 * tensors' shapes have no field of a struct to go to. */
	for (int k = 0; k < f->nstructs; k++) {
		error_at(f->structs[k]->loc, "--emit=torch: parameter '%s' is a struct ('%s'): a PyTorch operator takes tensors and numbers; pass its fields as parameters of '%s' for --emit=torch (the CUDA and HIP launchers take the struct)",
		         f->structs[k]->name, f->structs[k]->type, f->name);
		ok = false;
	}
	for (int i = 0; ok && i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (!torch_type(v->ty)) {
			error_at(v->loc, "--emit=torch: PyTorch has no dtype for '%s' (parameter '%s')", scalar_type_c(v->ty), v->name);
			ok = false;
			continue;
		}
		if (v->ndim && !v->dims[0]) {
			error_at(v->loc, "--emit=torch: the outermost extent of '%s' is unknown (a pointer whose outermost subscript no loop of parameters bounds): declare it as an array with its extents", v->name);
			ok = false;
			continue;
		}
		if (v->ndim) {
			op->role[i] = v->is_const ? R_INPUT : R_OUTPUT;
			if (v->is_const && op->first_input < 0)
				op->first_input = i;
			op->noutputs += !v->is_const;
			continue;
		}
		op->role[i] = R_SCALAR;
		if (!is_integral(torch_type(v->ty)))
			continue;
		for (int a = 0; a < f->nparams && op->role[i] == R_SCALAR; a++) {
			const Var *arr = f->params[a];
			for (int d = 0; arr->ndim && arr->is_const && d < arr->ndim; d++)
				if (arr->dims[d] && arr->dims[d]->kind == EX_VAR && arr->dims[d]->var == v) {
					op->role[i] = R_SIZE;
					op->src[i] = a;
					op->src_dim[i] = d;
					break;
				}
		}
	}
	if (ok && !op->noutputs) {
		error_at(f->loc, "--emit=torch: '%s' has no output array (an array parameter without const) for its operator to return", f->name);
		ok = false;
	}
	return ok;
}

static void op_free(Op *op)
{
	free(op->role);
	free(op->src);
	free(op->src_dim);
}

/* Extents as the operator computes them: every operand a Size (int64_t, or SymInt under
 * the meta kernel), so that the arithmetic is the same for both. */
static bool size_hook(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	const Op *op = t->ctx;
	if (e->kind == EX_INT) {
		sb_printf(b, "@S(%lld)", e->ival);
		return true;
	}
	if (e->kind == EX_VAR)
		for (int i = 0; i < op->f->nparams; i++)
			if (op->f->params[i] == e->var && op->role[i] == R_SCALAR) {
				sb_printf(b, "@S(%s)", e->var->name);
				return true;
			}
	return false;
}

static void print_shape(StrBuf *out, const Var *v)
{
	for (int d = 0; d < v->ndim; d++) {
		sb_putc(out, '[');
		print_expr_to(out, v->dims[d], NULL);
		sb_putc(out, ']');
	}
}

static void print_return_type(StrBuf *out, const Op *op)
{
	if (op->noutputs == 1) {
		sb_puts(out, "at::Tensor");
		return;
	}
	sb_puts(out, "std::tuple<");
	for (int k = 0; k < op->noutputs; k++)
		sb_printf(out, "%sat::Tensor", k ? ", " : "");
	sb_putc(out, '>');
}

/* fn(Tensor q, Tensor k, Tensor v, float scale) -> Tensor */
static void print_schema(StrBuf *out, const Op *op)
{
	const Func *f = op->f;
	sb_printf(out, "%s(", f->name);
	bool first = true;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < f->nparams; i++) {
			if (pass == 0 && op->role[i] == R_INPUT)
				sb_printf(out, "%sTensor %s", first ? "" : ", ", f->params[i]->name);
			else if (pass == 1 && op->role[i] == R_SCALAR)
				sb_printf(out, "%s%s %s", first ? "" : ", ", torch_type(f->params[i]->ty)->schema, f->params[i]->name);
			else
				continue;
			first = false;
		}
	sb_puts(out, ") -> ");
	if (op->noutputs > 1)
		sb_putc(out, '(');
	first = true;
	for (int i = 0; i < f->nparams; i++)
		if (op->role[i] == R_OUTPUT) {
			sb_printf(out, "%sTensor", first ? "" : ", ");
			if (op->noutputs > 1)
				sb_printf(out, " %s", f->params[i]->name);
			first = false;
		}
	if (op->noutputs > 1)
		sb_putc(out, ')');
}

/* What the operator takes and returns, for the comment above it. */
static void print_op_comment(StrBuf *out, const Op *op)
{
	const Func *f = op->f;
	sb_puts(out, "\n/* torch.ops.fusecc.");
	print_schema(out, op);
	sb_puts(out, "\n");
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (op->role[i] == R_INPUT || op->role[i] == R_OUTPUT) {
			sb_printf(out, " *   %s: %s ", v->name, torch_type(v->ty)->dtype);
			print_shape(out, v);
			sb_puts(out, op->role[i] == R_INPUT ? "\n" : ", returned\n");
		}
	}
	for (int i = 0; i < f->nparams; i++)
		if (op->role[i] == R_SIZE)
			sb_printf(out, " *   %s: dimension %d of %s\n", f->params[i]->name, op->src_dim[i], f->params[op->src[i]]->name);
	sb_puts(out, " */\n");
}

/* The int parameters' combinations that the CUDA file has kernels for (a run-time head
 * dim): checked here too, so that a bad size fails with the shapes, before the launch. */
static void print_spec_check(StrBuf *out, const Op *op, const SpecPlan *sp)
{
	if (!sp->nparams)
		return;
	/* A specialised set-up quotient (`int hs = C / NH;`): computed as the launcher does,
	 * once its division is exact. */
	PrintTarget st = {.expr_hook = size_hook, .ctx = (void *)op};
	bool quotient[MAX_SPEC_PARAMS] = {0};
	for (int i = 0; i < op->f->ndivs; i++)
		for (int k = 0; k < sp->nparams; k++) {
			const SizeDiv *d = &op->f->divs[i];
			if (sp->params[k] != d->q)
				continue;
			quotient[k] = true;
			Expr num = {.kind = EX_VAR, .ty = TY_INT, .var = d->num}, den = {.kind = EX_VAR, .ty = TY_INT, .var = d->den};
			StrBuf n = {0}, m = {0};
			print_expr_to(&n, &num, &st);
			print_expr_to(&m, &den, &st);
			sb_printf(out, "\tTORCH_CHECK(%s > 0 && %s %% %s == 0, op, \": %s = \", num(%s), \" is not a multiple of %s = \", num(%s), \": the kernels read '%s = %s / %s' as exact\");\n", m.s, n.s,
			          m.s, d->num->name, n.s, d->den->name, m.s, d->q->name, d->num->name, d->den->name);
			sb_printf(out, "\tconst S %s = %s / %s;\n", d->q->name, n.s, m.s);
			sb_free(&n);
			sb_free(&m);
		}
	bool one = sp->nparams == 1;
	sb_puts(out, "\tTORCH_CHECK(");
	for (int c = 0; c < sp->ncombos; c++) {
		sb_puts(out, c ? " || " : "");
		sb_puts(out, one ? "" : "(");
		for (int k = 0; k < sp->nparams; k++) {
			bool size = quotient[k];
			for (int i = 0; i < op->f->nparams; i++)
				size |= op->f->params[i] == sp->params[k] && op->role[i] == R_SIZE;
			sb_printf(out, size ? "%s%s == @S(%ld)" : "%s%s == %ld", k ? " && " : "", sp->params[k]->name, sp->values[c][k]);
		}
		sb_puts(out, one ? "" : ")");
	}
	sb_puts(out, ",\n\t            @op, \": ");
	if (!one)
		sb_putc(out, '(');
	for (int k = 0; k < sp->nparams; k++)
		sb_printf(out, "%s%s", k ? ", " : "", sp->params[k]->name);
	sb_printf(out, "%s = %s\"", one ? "" : ")", one ? "" : "(");
	for (int k = 0; k < sp->nparams; k++)
		sb_printf(out, "%s, num(%s)", k ? ", \", \"" : "", sp->params[k]->name);
	sb_printf(out, ", \"%s is not a size the kernels were compiled for (", one ? "" : ")");
	for (int c = 0; c < sp->ncombos; c++) {
		sb_puts(out, c ? ", " : "");
		for (int k = 0; k < sp->nparams; k++)
			sb_printf(out, "%s%ld", k ? "/" : "", sp->values[c][k]);
	}
	sb_puts(out, "); add it with '#pragma fuse specialize(...)'\");\n");
}

static void print_op(StrBuf *out, const Op *op, const SpecPlan *sp)
{
	const Func *f = op->f;
	size_t start = out->len;
	PrintTarget st = {0};
	st.expr_hook = size_hook;
	st.ctx = (void *)op;
	print_op_comment(out, op);
	sb_puts(out, "template <bool META>\n");
	print_return_type(out, op);
	sb_printf(out, " %s_op(", f->name);
	bool first = true;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < f->nparams; i++) {
			if (pass == 0 && op->role[i] == R_INPUT)
				sb_printf(out, "%sconst at::Tensor &%s", first ? "" : ", ", f->params[i]->name);
			else if (pass == 1 && op->role[i] == R_SCALAR)
				sb_printf(out, "%s%s %s", first ? "" : ", ", torch_type(f->params[i]->ty)->arg, f->params[i]->name);
			else
				continue;
			first = false;
		}
	sb_puts(out, ")\n{\n\tusing @S = Size<META>;\n");
	sb_printf(out, "\tconst char *@op = \"fusecc.%s\";\n", f->name);
	if (op->first_input >= 0)
		sb_printf(out, "\tconst at::Device @dev = %s.device();\n", f->params[op->first_input]->name);
	else
		sb_puts(out, "\tconst at::Device @dev = META ? at::Device(at::kMeta) : at::Device(at::kCUDA, c10::cuda::current_device());\n");
	/* Each input: device, dtype, rank, contiguity, alignment. */
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (op->role[i] != R_INPUT)
			continue;
		sb_printf(out, "\tcheck_array<META>(@op, \"%s\", %s, @dev, %s, %d, \"", v->name, v->name, torch_type(v->ty)->aten, v->ndim);
		print_shape(out, v);
		sb_puts(out, "\");\n");
	}
	/* Scalar arguments: in range of the C type; sizes not negative. */
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		const TorchType *t = torch_type(v->ty);
		if (op->role[i] != R_SCALAR || !is_integral(t))
			continue;
		sb_printf(out, "\tTORCH_CHECK(%s >= std::numeric_limits<%s>::min() && %s <= std::numeric_limits<%s>::max(), @op, \": %s = \", num(%s), \" is out of the range of its C type %s\");\n",
		          v->name, t->cpp, v->name, t->cpp, v->name, v->name, scalar_type_c(v->ty));
		for (int a = 0; a < f->nparams; a++)
			if (f->params[a]->ndim) {
				bool used = false;
				for (int d = 0; d < f->params[a]->ndim; d++)
					used |= expr_reads_var(f->params[a]->dims[d], v);
				if (used) {
					sb_printf(out, "\tTORCH_CHECK(%s >= 0, @op, \": %s = \", num(%s), \" is a size: it cannot be negative\");\n", v->name, v->name, v->name);
					break;
				}
			}
	}
	/* The sizes, from the inputs' shapes. */
	for (int i = 0; i < f->nparams; i++)
		if (op->role[i] == R_SIZE)
			sb_printf(out, "\tconst @S %s = dim_size<META>(%s, %d);\n", f->params[i]->name, f->params[op->src[i]]->name, op->src_dim[i]);
	/* Every input's other extents against them. */
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (op->role[i] != R_INPUT)
			continue;
		StrBuf cond = {0};
		for (int d = 0; d < v->ndim; d++) {
			bool source = false;
			for (int s = 0; s < f->nparams; s++)
				source |= op->role[s] == R_SIZE && op->src[s] == i && op->src_dim[s] == d;
			if (source)
				continue;
			sb_printf(&cond, "%sdim_size<META>(%s, %d) == ", cond.len ? " && " : "", v->name, d);
			print_expr_to(&cond, v->dims[d], &st);
		}
		if (cond.len) {
			sb_printf(out, "\tTORCH_CHECK(%s,\n\t            @op, \": '%s' has shape \", shape_of<META>(%s), \", expected ", cond.s, v->name, v->name);
			print_shape(out, v);
			sb_puts(out, " = [\"");
			for (int d = 0; d < v->ndim; d++) {
				sb_puts(out, d ? ", \", \", num(" : ", num(");
				print_expr_to(out, v->dims[d], &st);
				sb_putc(out, ')');
			}
			sb_puts(out, ", \"]\");\n");
		}
		sb_free(&cond);
	}
	print_spec_check(out, op, sp);
	/* The outputs. */
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (op->role[i] != R_OUTPUT)
			continue;
		sb_printf(out, "\tat::Tensor %s = new_array<META>({", v->name);
		for (int d = 0; d < v->ndim; d++) {
			sb_puts(out, d ? ", " : "");
			print_expr_to(out, v->dims[d], &st);
		}
		sb_printf(out, "}, at::TensorOptions().device(@dev).dtype(%s), %s);\n", torch_type(v->ty)->aten, stmt_reads(f, v) ? "true" : "false");
	}
	/* The launch, on the current stream of the inputs' device. */
	sb_puts(out, "\tif constexpr (!META) {\n");
	for (int i = 0; i < f->nparams; i++)
		if (op->role[i] == R_SIZE)
			sb_printf(out, "\t\tTORCH_CHECK(%s <= std::numeric_limits<%s>::max(), @op, \": %s = \", num(%s), \" is larger than its C type %s holds\");\n", f->params[i]->name,
			          torch_type(f->params[i]->ty)->cpp, f->params[i]->name, f->params[i]->name, scalar_type_c(f->params[i]->ty));
	sb_puts(out, "\t\tconst c10::cuda::CUDAGuard @guard(@dev);\n");
	sb_printf(out, "\t\tconst cudaError_t @err = %s_launch(", f->name);
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		const TorchType *t = torch_type(v->ty);
		sb_puts(out, i ? ", " : "");
		if (v->ndim)
			sb_printf(out, "%s.data_ptr<%s>()", v->name, t->cpp);
		else
			sb_printf(out, "static_cast<%s>(%s)", t->cpp, v->name);
	}
	sb_printf(out, "%sat::cuda::getCurrentCUDAStream());\n", f->nparams ? ", " : "");
	sb_printf(out, "\t\tTORCH_CHECK(@err == cudaSuccess, @op, \": %s_launch failed: \", cudaGetErrorString(@err));\n\t}\n", f->name);
	sb_puts(out, "\treturn ");
	if (op->noutputs > 1)
		sb_puts(out, "std::make_tuple(");
	first = true;
	for (int i = 0; i < f->nparams; i++)
		if (op->role[i] == R_OUTPUT) {
			sb_printf(out, "%s%s", first ? "" : ", ", f->params[i]->name);
			first = false;
		}
	sb_puts(out, op->noutputs > 1 ? ");\n}\n" : ";\n}\n");
	name_generated(out, start, f); /* S, op, dev, err: never a parameter's name */
}

/* What every operator shares: the Size type and the checks of an input; the dtype names'
 * cases go between the two parts. */
static const char helpers_head[] =
	"/* A size: int64_t in the CUDA kernel, SymInt in the meta kernel (torch.compile). */\n"
	"template <bool META>\n"
	"using Size = typename std::conditional<META, c10::SymInt, int64_t>::type;\n"
	"\n"
	"template <bool META>\n"
	"Size<META> dim_size(const at::Tensor &t, int64_t d)\n"
	"{\n"
	"\tif constexpr (META)\n"
	"\t\treturn t.sym_size(d);\n"
	"\telse\n"
	"\t\treturn t.size(d);\n"
	"}\n"
	"\n"
	"/* Numbers in messages go through std::to_string, never an ostream: the extension may\n"
	" * run on another libstdc++ than torch's, and an integer streamed into torch's message\n"
	" * crashed the process there (torch 2.11, H100 machine; strings were safe). */\n"
	"template <class T>\n"
	"std::string num(T x)\n"
	"{\n"
	"\treturn std::to_string(x);\n"
	"}\n"
	"\n"
	"std::string num(const c10::SymInt &x)\n"
	"{\n"
	"\tconst auto v = x.maybe_as_int();\n"
	"\treturn v ? std::to_string(*v) : std::string(\"(symbolic)\");\n"
	"}\n"
	"\n"
	"template <bool META>\n"
	"std::string shape_of(const at::Tensor &t)\n"
	"{\n"
	"\tstd::string s = \"[\";\n"
	"\tfor (int64_t d = 0; d < t.dim(); d++)\n"
	"\t\ts += (d ? \", \" : \"\") + num(dim_size<META>(t, d));\n"
	"\treturn s + \"]\";\n"
	"}\n"
	"\n"
	"template <bool META>\n"
	"at::Tensor new_array(const std::vector<Size<META>> &shape, const at::TensorOptions &options, bool zero)\n"
	"{\n"
	"\tif constexpr (META)\n"
	"\t\treturn at::empty_symint(shape, options);\n"
	"\telse\n"
	"\t\treturn zero ? at::zeros(shape, options) : at::empty(shape, options);\n"
	"}\n"
	"\n"
	"const char *dtype_name(at::ScalarType t)\n"
	"{\n"
	"\tswitch (t) {\n";
static const char helpers_tail[] =
	"\tdefault: return c10::toString(t);\n"
	"\t}\n"
	"}\n"
	"\n"
	"/* An input array: on the device of the first (a CUDA device), of the C element type,\n"
	" * with the C array's rank, contiguous, and 16-byte aligned (the kernels load 16 bytes\n"
	" * at a time). */\n"
	"template <bool META>\n"
	"void check_array(const char *op, const char *name, const at::Tensor &t, const at::Device &dev, at::ScalarType type, int64_t rank, const char *shape)\n"
	"{\n"
	"\tTORCH_CHECK(META || dev.is_cuda(), op, \": '\", name, \"' must be a CUDA tensor, not \", t.device());\n"
	"\tTORCH_CHECK(t.device() == dev, op, \": '\", name, \"' is on \", t.device(), \", the first array argument on \", dev);\n"
	"\tTORCH_CHECK(t.scalar_type() == type, op, \": '\", name, \"' must be \", dtype_name(type), \", not \", dtype_name(t.scalar_type()));\n"
	"\tTORCH_CHECK(t.dim() == rank, op, \": '\", name, \"' must have \", num(rank), \" dimensions \", shape, \", not \", num(t.dim()));\n"
	"\tTORCH_CHECK(t.is_contiguous(), op, \": '\", name, \"' must be contiguous (call .contiguous())\");\n"
	"\tTORCH_CHECK(META || reinterpret_cast<uintptr_t>(t.data_ptr()) % 16 == 0, op, \": '\", name,\n"
	"\t            \"' must be 16-byte aligned (a view at an offset is not: pass a copy, .clone())\");\n"
	"}\n";

bool emit_torch(StrBuf *out, const Program *p, const char *input_name)
{
	Op *ops = calloc((size_t)p->nfuncs + 1, sizeof *ops);
	SpecPlan *plans = calloc((size_t)p->nfuncs + 1, sizeof *plans);
	bool ok = true;
	for (int f = 0; f < p->nfuncs; f++)
		ok &= op_plan(&ops[f], p->funcs[f]) & fuse_spec_plan(p->funcs[f], &plans[f]);
	if (ok) {
		size_t n = strlen(input_name);
		int stem = (int)(n > 2 && !strcmp(input_name + n - 2, ".c") ? n - 2 : n);
		emit_banner(out, "/*", input_name);
		sb_printf(out,
		          "/* PyTorch operators torch.ops.fusecc.<fn> over the launchers of %.*s.cu (fusecc %s -o %.*s.cu).\n"
		          " * Build the two files together, e.g. torch.utils.cpp_extension.load(\"%.*s\", [\"%.*s.cu\",\n"
		          " * \"%.*s_torch.cpp\"], extra_include_paths=[<fusecc --print-include-dir>], is_python_module=False),\n"
		          " * or let fusecc.torch.load(\"%s\") do all of it. */\n",
		          stem, input_name, input_name, stem, input_name, stem, input_name, stem, input_name, stem, input_name, input_name);
		sb_puts(out, "#include <ATen/ATen.h>\n#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDAGuard.h>\n#include <cuda_runtime.h>\n"
		             "#include <torch/library.h>\n\n#include <cstdint>\n#include <limits>\n#include <string>\n#include <tuple>\n#include <type_traits>\n#include <vector>\n");
		sb_printf(out, "\n/* The launchers in %.*s.cu. */\nextern \"C\" {\n", stem, input_name);
		for (int f = 0; f < p->nfuncs; f++) {
			const Func *fn = p->funcs[f];
			sb_printf(out, "cudaError_t %s_launch(", fn->name);
			for (int i = 0; i < fn->nparams; i++) {
				const Var *v = fn->params[i];
				const TorchType *t = torch_type(v->ty);
				if (v->ndim)
					sb_printf(out, "%s%s%s *%s", i ? ", " : "", v->is_const ? "const " : "", t->cpp, v->name);
				else
					sb_printf(out, "%s%s %s", i ? ", " : "", t->cpp, v->name);
			}
			sb_printf(out, "%scudaStream_t stream);\n", fn->nparams ? ", " : "");
		}
		sb_puts(out, "}\n\nnamespace {\n\n");
		StrBuf cases = {0};
		for (int i = 0; i < NTYPES; i++) {
			bool seen = false; /* two C types of one dtype (int and int32_t, say): one case */
			for (int j = 0; j < i; j++)
				seen |= !strcmp(torch_types[j].aten, torch_types[i].aten);
			if (!seen)
				sb_printf(&cases, "\tcase %s: return \"%s\";\n", torch_types[i].aten, torch_types[i].dtype);
		}
		sb_puts(out, helpers_head);
		sb_puts(out, cases.s);
		sb_puts(out, helpers_tail);
		sb_free(&cases);
		for (int f = 0; f < p->nfuncs; f++)
			print_op(out, &ops[f], &plans[f]);
		sb_puts(out, "\n} // namespace\n\n/* Fragments: several fusecc extensions can be loaded in one process. */\nTORCH_LIBRARY_FRAGMENT(fusecc, m)\n{\n");
		for (int f = 0; f < p->nfuncs; f++) {
			sb_puts(out, "\tm.def(\"");
			print_schema(out, &ops[f]);
			sb_puts(out, "\");\n");
		}
		/* CPU tensors reach the CUDA kernel's checks, which say what is wrong. */
		static const char *const keys[] = {"CUDA", "CPU", "Meta"};
		for (int k = 0; k < 3; k++) {
			sb_printf(out, "}\n\nTORCH_LIBRARY_IMPL(fusecc, %s, m)\n{\n", keys[k]);
			for (int f = 0; f < p->nfuncs; f++)
				sb_printf(out, "\tm.impl(\"%s\", TORCH_FN(%s_op<%s>));\n", p->funcs[f]->name, p->funcs[f]->name, k == 2 ? "true" : "false");
		}
		sb_puts(out, "}\n");
	}
	for (int f = 0; f < p->nfuncs; f++)
		op_free(&ops[f]);
	free(ops);
	free(plans);
	return ok;
}
