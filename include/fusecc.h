/* fusecc.h: what fusecc's input language adds to C11, usable by gcc and clang unchanged.
 *
 * bf16: C has no portable bfloat16 arithmetic, so a bf16 array element is a plain 16-bit
 * storage type and every use goes through the two conversion functions below. fusecc's
 * front end reads those two calls as casts (bf16 -> float, float -> bf16); arithmetic on
 * fusecc_bf16 itself does not compile, which keeps the CPU reference honest. */
#ifndef FUSECC_H
#define FUSECC_H

/* The same conversions serve generated CUDA and HIP code, on the device and the host. */
#if defined(__CUDACC__) || defined(__HIPCC__)
#define FUSECC_HD __host__ __device__
#else
#define FUSECC_HD
#endif

typedef struct fusecc_bf16 {
	unsigned short bits;
} fusecc_bf16;

static inline FUSECC_HD float fusecc_bf16_to_float(fusecc_bf16 x)
{
	union {
		unsigned int u;
		float f;
	} c;
	c.u = (unsigned int)x.bits << 16;
	return c.f;
}

/* Round to nearest even, as the GPUs' __float2bfloat16 does; NaN stays NaN. */
static inline FUSECC_HD fusecc_bf16 fusecc_float_to_bf16(float f)
{
	union {
		unsigned int u;
		float f;
	} c;
	fusecc_bf16 r;
	c.f = f;
	if ((c.u & 0x7fffffffu) > 0x7f800000u) {
		r.bits = (unsigned short)((c.u >> 16) | 0x40u);
		return r;
	}
	c.u += 0x7fffu + ((c.u >> 16) & 1u);
	r.bits = (unsigned short)(c.u >> 16);
	return r;
}

/* fp8 e4m3 (OCP's E4M3FN, torch.float8_e4m3fn, CUDA's __nv_fp8_e4m3): 1 sign, 4 exponent
 * (bias 7) and 3 mantissa bits; no infinities, S.1111.111 is NaN, the largest finite
 * value 448, the smallest subnormal 2^-9. A storage type as fusecc_bf16 is: read with
 * fusecc_fp8e4m3_to_float, written with fusecc_float_to_fp8e4m3, which fusecc reads as
 * casts. Float to fp8 rounds to nearest even, a finite value or an infinity beyond 448
 * saturating to +-448, NaN giving the NaN 0x7f (whatever its sign): the semantics of
 * cvt.rn.satfinite.e4m3x2.f32 (__nv_fp8_e4m3's constructor, __NV_SATFINITE). The host
 * (the fused C, the CPU reference) runs the integer code below; an NVIDIA GPU of sm_89 or
 * later runs that instruction, which gives the same bits on all 2^32 floats
 * (bench/fp8_check.cu checks it exhaustively on the GPU), others the integer code. */
typedef struct fusecc_fp8e4m3 {
	unsigned char bits;
} fusecc_fp8e4m3;

static inline FUSECC_HD float fusecc_fp8e4m3_to_float(fusecc_fp8e4m3 x)
{
	union {
		unsigned int u;
		float f;
	} c;
	const unsigned int sign = (unsigned int)(x.bits & 0x80u) << 24, e = (x.bits >> 3) & 15u, m = x.bits & 7u;
	if (e == 15u && m == 7u)
		c.u = sign | 0x7fc00000u;
	else if (e)
		c.u = sign | (e + 120u) << 23 | m << 20;
	else { /* subnormal: m * 2^-9, exact in a float */
		c.f = (float)m * 0.001953125f;
		c.u |= sign;
	}
	return c.f;
}

static inline FUSECC_HD fusecc_fp8e4m3 fusecc_float_to_fp8e4m3_int(float f)
{
	union {
		unsigned int u;
		float f;
	} c;
	fusecc_fp8e4m3 r;
	c.f = f;
	const unsigned int sign = (c.u >> 24) & 0x80u, a = c.u & 0x7fffffffu;
	if (a > 0x7f800000u) /* NaN */
		r.bits = 0x7fu;
	else if (a >= 0x43e00000u) /* 448 and beyond, infinity included: 448 */
		r.bits = (unsigned char)(sign | 0x7eu);
	else if (a >= 0x3c800000u) /* 2^-6 and up: normal; the rounding may carry into the exponent */
		r.bits = (unsigned char)(sign | ((a - (120u << 23) + 0x7ffffu + ((a >> 20) & 1u)) >> 20));
	else { /* below 2^-6: m * 2^-9, m = the value * 2^9 rounded to nearest even (8: 2^-6) */
		const unsigned int exp = a >> 23, shift = 141u - exp; /* value * 2^9 = mant * 2^(exp - 141) */
		unsigned int q = 0;
		if (exp && shift < 25u) {
			const unsigned int mant = (a & 0x7fffffu) | 0x800000u, rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1u);
			q = mant >> shift;
			q += rem > half || (rem == half && (q & 1u));
		}
		r.bits = (unsigned char)(sign | q);
	}
	return r;
}

static inline FUSECC_HD fusecc_fp8e4m3 fusecc_float_to_fp8e4m3(float f)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
	unsigned short h;
	asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(0.0f), "f"(f)); /* f into the low byte */
	fusecc_fp8e4m3 r;
	r.bits = (unsigned char)(h & 0xffu);
	return r;
#else
	return fusecc_float_to_fp8e4m3_int(f);
#endif
}

/* FUSECC_INDEX(x, n, "array", dim): a subscript of a generated GPU kernel that was read
 * from an index array (a block table, cu_seqlens, class targets). An index out of range
 * is the caller's contract, as in every engine: by default the subscript is used as it is.
 * Compiled with -DFUSECC_CHECK_INDEX, the kernel checks 0 <= x < n (n < 0: the extent is
 * not known, only x >= 0 is checked) and stops with a message naming the array, the
 * dimension and the index. */
#if defined(FUSECC_CHECK_INDEX) && (defined(__CUDACC__) || defined(__HIPCC__))
#include <stdio.h>
#include <stdlib.h>
static inline __host__ __device__ long long fusecc_check_index(long long x, long long n, const char *name, int dim)
{
	if (x < 0 || (n >= 0 && x >= n)) {
		printf("fusecc: index %lld of '%s' (dimension %d, extent %lld) is out of range\n", x, name, dim, n);
#if defined(__CUDA_ARCH__)
		__trap();
#elif defined(__HIP_DEVICE_COMPILE__)
		__builtin_trap();
#else
		abort();
#endif
	}
	return x;
}
#define FUSECC_INDEX(x, n, name, dim) fusecc_check_index((long long)(x), (long long)(n), name, dim)
#else
#define FUSECC_INDEX(x, n, name, dim) (x)
#endif

#endif
