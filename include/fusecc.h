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
