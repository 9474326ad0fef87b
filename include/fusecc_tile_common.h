/* fusecc_tile_common.h: the parts of the device tile library that do not depend on the
 * GPU (included by fusecc_tile_cuda.h and fusecc_tile_hip.h): the masked/unmasked step
 * dispatch, clearing a register tile, tanh through exp2. */
#ifndef FUSECC_TILE_COMMON_H
#define FUSECC_TILE_COMMON_H

#if __cplusplus < 201402L
#error "fusecc's kernels are C++14 or later: compile with -std=c++17 (Debian's hipcc defaults to c++11)"
#endif

namespace fx {

template <bool B> struct bool_c {
	static constexpr bool value = B;
};

/* Calls f(bool_c<true>) or f(bool_c<false>): the masked and unmasked copies of a step. */
template <class F> __device__ __forceinline__ void dispatch(bool masked, F &&f)
{
	if (masked)
		f(bool_c<true>{});
	else
		f(bool_c<false>{});
}

/* Zeros a register tile. A step's per-element tile is cleared first so that no element
 * (those a masked step skips) lives on from the step before, in registers, for nothing. */
template <int MT, int W> __device__ __forceinline__ void clear(float (&t)[MT][W][4])
{
#pragma unroll
	for (int m = 0; m < MT; m++)
#pragma unroll
		for (int n = 0; n < W; n++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				t[m][n][e] = 0.0f;
}

/* tanh through exp2 (e2, the target's fast 2^x): 1 - 2 / (e^2x + 1), absolute error
 * about 1e-7 (tanhf costs several times more and dominates a soft-capped score). |x| >= 9
 * rounds to +-1. */
template <class E2> __device__ __forceinline__ float tanh_via(float x, E2 e2)
{
	x = fminf(fmaxf(x, -9.0f), 9.0f);
	return 1.0f - __fdividef(2.0f, e2(2.8853900817779268f * x) + 1.0f);
}

} /* namespace fx */

#endif
