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

#endif
