/* fp64.h: forced-include header for the float64 reference build of a sample.
 *
 *   gcc -std=c11 -Iinclude -include test/roundtrip/fp64.h -DFN=FN_ref64 -c SAMPLE.c
 *
 * Every `float` becomes `double` (locals, scalar parameters, float arrays, casts) and the
 * float math functions of src/ir/mathfn.def become their double versions, so all scalar
 * arithmetic runs in double; _Float16 and fusecc_bf16 arrays keep their storage type (the
 * inputs are the same bits, and an fp16 / bf16 output is rounded once, from double;
 * fusecc_float_to_bf16 is redirected to a double version below).
 * float literals (0.0f, 5e+01f) stay float constants: they are all exact in the samples
 * and promote to double in every expression. FLT_MAX and INFINITY keep their values.
 *
 * The headers a sample may include are included here first, before the macros, so their
 * own declarations are not rewritten; their include guards make the sample's #includes
 * no-ops. A sample that includes some other header that declares floats may need it
 * added to this list. */
#ifndef FUSECC_FP64_H
#define FUSECC_FP64_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fusecc.h"

/* A bf16 (or fp8) output is rounded once, from double: round to odd into float, then the
 * usual round to nearest even into bf16 (two plain roundings could differ on a tie). */
static inline float fusecc_fp64_round_odd(double x)
{
	float f = (float)x;
	if (!isnan(x) && !isinf(f) && (double)f != x) {
		union {
			float f;
			unsigned int u;
		} c;
		if (fabs((double)f) > fabs(x))
			f = nextafterf(f, 0.0f);
		c.f = f;
		c.u |= 1u;
		f = c.f;
	}
	return f;
}
static inline fusecc_bf16 fusecc_fp64_to_bf16(double x) { return fusecc_float_to_bf16(fusecc_fp64_round_odd(x)); }
static inline fusecc_fp8e4m3 fusecc_fp64_to_fp8e4m3(double x) { return fusecc_float_to_fp8e4m3(fusecc_fp64_round_odd(x)); }
#define fusecc_float_to_bf16 fusecc_fp64_to_bf16
#define fusecc_float_to_fp8e4m3 fusecc_fp64_to_fp8e4m3

#define float double

/* The list of src/ir/mathfn.def (isfinite is type-generic already). */
#define expf exp
#define exp2f exp2
#define logf log
#define log2f log2
#define sqrtf sqrt
#define tanhf tanh
#define fabsf fabs
#define fmaxf fmax
#define fminf fmin
#define powf pow
#define erff erf
#define sinf sin
#define cosf cos
#define floorf floor
#define ceilf ceil
#define roundf round
#define log1pf log1p
#define expm1f expm1
#define fmaf fma
#define truncf trunc
#define rintf rint
#define copysignf copysign

#endif
