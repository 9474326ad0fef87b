/* gen.c: writes a test harness that runs a sample's original function and its fused
 * version on the same random inputs and compares every array they write.
 *
 *   roundtrip_gen SAMPLE.c > harness.c
 *   cc harness.c SAMPLE.c SAMPLE.fused.c -o h && ./h N=67 B=2 ... [range=R] [seed=S]
 *
 * With --gpu the harness is CUDA: the second run is `<fn>_launch` from SAMPLE.cu on device
 * copies of the same inputs (outputs poisoned with NaN on the device too), and a launch
 * with a negative size must be refused.
 *   roundtrip_gen --gpu SAMPLE.c > harness.cu
 *   gcc -c SAMPLE.c; nvcc harness.cu SAMPLE.cu SAMPLE.o -I include -o h && ./h N=67 ...
 *
 * Int parameters must all be given on the harness's command line; float parameters get
 * a fixed random value unless given. Const arrays are inputs (uniform in [-range, range]);
 * other arrays are outputs, poisoned with NaN in both runs: an element the fused version
 * fails to write, or writes as NaN, fails the comparison. */
#include <string.h>

#include "front/front.h"
#include "ir/ir.h"

static const char *tol_of(ScalarType t)
{
	switch (t) {
	case TY_DOUBLE: return "1e-10";
	case TY_HALF: return "2e-3";
	case TY_BF16: return "1.6e-2";
	default: return "1e-4";
	}
}

static void print_count(StrBuf *b, const Var *v)
{
	sb_puts(b, "(size_t)1");
	for (int d = 0; d < v->ndim; d++) {
		sb_puts(b, " * (size_t)(");
		print_expr(b, v->dims[d]);
		sb_puts(b, ")");
	}
}

static bool gpu;

/* Element type on the host side of the harness (C++ has no _Float16 under nvcc). */
static const char *host_type(ScalarType t) { return gpu && t == TY_HALF ? "__half" : scalar_type_c(t); }

static void gen_function(StrBuf *b, const Func *f)
{
	StrBuf params = {0};
	for (int i = 0; i < f->nparams; i++) {
		if (i)
			sb_puts(&params, ", ");
		if (gpu && f->params[i]->ndim)
			sb_printf(&params, "%svoid *%s", f->params[i]->is_const ? "const " : "", f->params[i]->name);
		else
			print_decl(&params, f->params[i]);
	}
	if (gpu)
		sb_printf(b, "extern \"C\" void %s(%s);\nextern \"C\" cudaError_t %s_launch(%s%scudaStream_t);\n\n", f->name, params.s ? params.s : "void", f->name,
		          params.s ? params.s : "", params.s ? ", " : "");
	else
		sb_printf(b, "void %s(%s);\nvoid %s_fused(%s);\n\n", f->name, params.s ? params.s : "void", f->name, params.s ? params.s : "void");
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
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (!v->ndim)
			continue;
		const char *t = host_type(v->ty);
		sb_printf(b, "\tsize_t n_%s = ", v->name);
		print_count(b, v);
		sb_printf(b, ";\n\t%s *%s_a = (%s *)malloc(n_%s * sizeof(%s) + 1), *%s_b = (%s *)malloc(n_%s * sizeof(%s) + 1);\n", t, v->name, t, v->name, t, v->name, t, v->name, t);
		sb_printf(b, "\tfor (size_t k = 0; k < n_%s; k++) {\n", v->name);
		if (v->is_const)
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = FROM_DOUBLE(%s, range * (2 * urand() - 1));\n", v->name, v->name, t);
		else
			sb_printf(b, "\t\t%s_a[k] = %s_b[k] = FROM_DOUBLE(%s, NAN);\n", v->name, v->name, t);
		sb_puts(b, "\t}\n");
	}
	if (gpu) {
		/* Device copies, the launch, and the results back into the _b arrays. */
		for (int i = 0; i < f->nparams; i++) {
			const Var *v = f->params[i];
			if (!v->ndim)
				continue;
			sb_printf(b, "\tvoid *%s_d = NULL;\n\tCHECK(cudaMalloc(&%s_d, n_%s * sizeof(*%s_b) + 1));\n", v->name, v->name, v->name, v->name);
			sb_printf(b, "\tCHECK(cudaMemcpy(%s_d, %s_b, n_%s * sizeof(*%s_b), cudaMemcpyHostToDevice));\n", v->name, v->name, v->name, v->name);
		}
		for (int neg = 1; neg >= 0; neg--) {
			/* First a launch with a negative size, which must be refused untouched. */
			const Var *sz = NULL;
			for (int i = 0; neg && i < f->nparams && !sz; i++)
				if (!f->params[i]->ndim && f->params[i]->ty == TY_INT)
					for (int k = 0; k < f->nparams; k++)
						for (int d = 0; d < f->params[k]->ndim; d++)
							if (f->params[k]->dims[d]->kind == EX_VAR && f->params[k]->dims[d]->var == f->params[i])
								sz = f->params[i];
			if (neg && !sz)
				continue;
			sb_printf(b, "\t%s%s_launch(", neg ? "if (" : "CHECK(", f->name);
			for (int i = 0; i < f->nparams; i++) {
				const Var *v = f->params[i];
				sb_printf(b, "%s%s%s", i ? ", " : "", v == sz ? "-" : "", v->name);
				if (v->ndim)
					sb_puts(b, "_d");
			}
			if (neg)
				sb_puts(b, ", 0) != cudaErrorInvalidValue) {\n\t\tfprintf(stderr, \"launch with a negative size was not refused\\n\");\n\t\tbad++;\n\t}\n");
			else
				sb_puts(b, ", 0));\n\tCHECK(cudaDeviceSynchronize());\n");
		}
		for (int i = 0; i < f->nparams; i++) {
			const Var *v = f->params[i];
			if (!v->ndim)
				continue;
			if (!v->is_const)
				sb_printf(b, "\tCHECK(cudaMemcpy(%s_b, %s_d, n_%s * sizeof(*%s_b), cudaMemcpyDeviceToHost));\n", v->name, v->name, v->name, v->name);
			sb_printf(b, "\tcudaFree(%s_d);\n", v->name);
		}
	}
	for (int pass = 0; pass < (gpu ? 1 : 2); pass++) {
		sb_printf(b, "\t%s%s(", f->name, pass ? "_fused" : "");
		for (int i = 0; i < f->nparams; i++) {
			const Var *v = f->params[i];
			sb_printf(b, "%s%s%s", i ? ", " : "", v->ndim ? "(void *)" : "", v->name);
			if (v->ndim)
				sb_puts(b, pass ? "_b" : "_a");
		}
		sb_puts(b, ");\n");
	}
	for (int i = 0; i < f->nparams; i++) {
		const Var *v = f->params[i];
		if (!v->ndim || v->is_const)
			continue;
		sb_printf(b, "\tbad += compare(\"%s\", \"%s\", n_%s, %s, ", f->name, v->name, v->name, tol_of(v->ty));
		sb_printf(b, "%s_a, %s_b, sizeof(%s), to_double_%s);\n", v->name, v->name, host_type(v->ty), v->ty == TY_HALF ? "half" : v->ty == TY_BF16 ? "bf16" : v->ty == TY_DOUBLE ? "double" : v->ty == TY_INT ? "int" : "float");
	}
	for (int i = 0; i < f->nparams; i++)
		if (f->params[i]->ndim)
			sb_printf(b, "\tfree(%s_a);\n\tfree(%s_b);\n", f->params[i]->name, f->params[i]->name);
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
	"#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"fusecc.h\"\n\n";
static const char prelude[] =
	"static unsigned long long rng = 88172645463325252ull;\n"
	"static double range = 3.0;\n"
	"static double urand(void)\n{\n\trng ^= rng << 13;\n\trng ^= rng >> 7;\n\trng ^= rng << 17;\n\treturn (double)(rng >> 11) / 9007199254740992.0;\n}\n"
	"static double arg(int argc, char **argv, const char *name, double dflt)\n{\n"
	"\tsize_t n = strlen(name);\n\tfor (int i = 1; i < argc; i++)\n"
	"\t\tif (!strncmp(argv[i], name, n) && argv[i][n] == '=')\n\t\t\treturn atof(argv[i] + n + 1);\n"
	"\tif (isnan(dflt)) {\n\t\tfprintf(stderr, \"harness: give %s=VALUE\\n\", name);\n\t\texit(2);\n\t}\n\treturn dflt;\n}\n"
	"#define FROM_DOUBLE(T, x) from_double_##T(x)\n"
	"static inline float from_double_float(double x) { return (float)x; }\n"
	"static inline double from_double_double(double x) { return x; }\n"
	"static inline int from_double_int(double x) { return x != x ? -1 : (int)x; }\n"
	"static inline half_t from_double__Float16(double x) { return to_half(x); }\n"
	"static inline half_t from_double___half(double x) { return to_half(x); }\n"
	"static inline fusecc_bf16 from_double_fusecc_bf16(double x) { return fusecc_float_to_bf16((float)x); }\n"
	"static double to_double_float(const void *p, size_t k) { return ((const float *)p)[k]; }\n"
	"static double to_double_double(const void *p, size_t k) { return ((const double *)p)[k]; }\n"
	"static double to_double_int(const void *p, size_t k) { return ((const int *)p)[k]; }\n"
	"static double to_double_half(const void *p, size_t k) { return from_half(((const half_t *)p)[k]); }\n"
	"static double to_double_bf16(const void *p, size_t k) { return fusecc_bf16_to_float(((const fusecc_bf16 *)p)[k]); }\n"
	"/* |fused - original| <= tol * max(1, |original|), and NaN never passes. */\n"
	"static int compare(const char *fn, const char *name, size_t n, double tol, const void *a, const void *b, size_t elem,\n"
	"                   double (*get)(const void *, size_t))\n{\n"
	"\t(void)elem;\n\tint bad = 0;\n\tdouble worst = 0;\n"
	"\tfor (size_t k = 0; k < n; k++) {\n"
	"\t\tdouble x = get(a, k), y = get(b, k);\n"
	"\t\tdouble err = fabs(x - y) / (fabs(x) > 1 ? fabs(x) : 1);\n"
	"\t\tif (isnan(x) || isnan(y) || !(err <= tol)) {\n"
	"\t\t\tif (bad++ < 5)\n\t\t\t\tfprintf(stderr, \"%s: %s[%zu]: original %.9g, fused %.9g\\n\", fn, name, k, x, y);\n"
	"\t\t} else if (err > worst) {\n\t\t\tworst = err;\n\t\t}\n\t}\n"
	"\tif (bad)\n\t\tfprintf(stderr, \"%s: %s: %d of %zu elements differ\\n\", fn, name, bad, n);\n"
	"\telse\n\t\tprintf(\"%s: %s: %zu elements, max rel err %.3g\\n\", fn, name, n, worst);\n"
	"\treturn bad;\n}\n\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: roundtrip_gen SAMPLE.c [-I DIR...]\n", stderr);
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
	sb_puts(&b, prelude_includes);
	sb_puts(&b, gpu ? prelude_gpu : prelude_cpu);
	sb_puts(&b, prelude);
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
