/* cpu_emu/cuda_fp16.h: __half for the CPU emulation (see cuda_runtime.h here): _Float16
 * storage, converted to and from float with round to nearest even, as __float2half. */
#ifndef FUSECC_CPU_EMU_CUDA_FP16_H
#define FUSECC_CPU_EMU_CUDA_FP16_H

struct __half {
	_Float16 v;
	__half() = default;
	__half(float f) : v((_Float16)f) {}
	operator float() const { return (float)v; }
};
inline __half __float2half(float f) { return __half(f); }
inline float __half2float(__half h) { return (float)h; }

#endif
