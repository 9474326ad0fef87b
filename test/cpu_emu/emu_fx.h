/* cpu_emu/emu_fx.h: the fx:: functions of the tile libraries that the CTA-per-row and
 * fallback kernels call, for the CPU emulation; FUSECC_CPU_EMU_WAVE lanes per wave. */
#ifndef FUSECC_CPU_EMU_FX_H
#define FUSECC_CPU_EMU_FX_H

#include <cuda_runtime.h>
#include <fusecc.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstring>

/* The device intrinsics fusecc_tile_common.h's byte widening (fx::widen4) names. */
inline float __uint_as_float(uint32_t u)
{
	float f;
	std::memcpy(&f, &u, 4);
	return f;
}
inline uint32_t __float_as_uint(float f)
{
	uint32_t u;
	std::memcpy(&u, &f, 4);
	return u;
}
struct __half2 {
	__half x, y;
};
inline __half2 __float2half2_rn(float f) { return __half2{__half(f), __half(f)}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return __half2{__half((float)a.x - (float)b.x), __half((float)a.y - (float)b.y)}; }
inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d)
{
	uint4 r;
	r.x = a, r.y = b, r.z = c, r.w = d;
	return r;
}

#include <fusecc_tile_common.h>

namespace fx {

/* Every thread of the block calls it (as fx::cta_reduce does): the exchange goes through
 * a block-wide buffer. Lanes mask < the wave width stay in the thread's wave. */
template <class T> inline T lane_xor_of(T x, int mask)
{
	static T buf[1024];
	buf[threadIdx.x] = x;
	__syncthreads();
	T r = buf[threadIdx.x ^ (unsigned)mask];
	__syncthreads();
	return r;
}
inline float lane_xor(float x, int mask) { return lane_xor_of(x, mask); }
inline double lane_xor(double x, int mask) { return lane_xor_of(x, mask); }
/* A row kernel's group (the threads of one threadIdx.y) exchanges among its own threads
 * only, between two of its barriers: another group may have left. */
template <class T> inline T group_xor_of(T x, int mask)
{
	static T buf[1024];
	const unsigned t = threadIdx.x + blockDim.x * threadIdx.y;
	buf[t] = x;
	emu_group_sync();
	T r = buf[t ^ (unsigned)mask];
	emu_group_sync();
	return r;
}
inline float group_xor(float x, int mask) { return group_xor_of(x, mask); }
inline double group_xor(double x, int mask) { return group_xor_of(x, mask); }
inline void group_sync() { emu_group_sync(); }
inline int wave_width() { return FUSECC_CPU_EMU_WAVE; }
inline float exp2(float x) { return exp2f(x); }
inline unsigned char *dyn_smem() { return reinterpret_cast<unsigned char *>(emu::dyn_smem.data()); }
inline void let_next_start() {}
inline void after_previous() {}
template <class... P, class... A> inline cudaError_t launch_after(void (*k)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream, A... args)
{
	emu::Launch(grid, block, smem, stream).run([&] { k(static_cast<P>(args)...); });
	return cudaGetLastError();
}

} /* namespace fx */

#endif
