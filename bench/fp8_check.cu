/* fp8_check.cu: include/fusecc.h's fp8 e4m3 conversions on the GPU against the host's,
 * exhaustively.
 *   nvcc -std=c++17 -O3 -arch=sm_90a -Iinclude -Xcompiler -fopenmp bench/fp8_check.cu -o fp8_check && ./fp8_check
 * For all 2^32 float bit patterns: fusecc_float_to_fp8e4m3 run on the device (what the
 * kernels run: cvt.rn.satfinite.e4m3x2.f32 from sm_89) against the integer code run on the
 * host (the fused C's and the CPU reference's, fusecc_float_to_fp8e4m3_int), and the
 * integer code run on the device against the instruction. For all 256 codes:
 * fusecc_fp8e4m3_to_float on the device and the host against cvt.rn.f16x2.e4m3x2 widened
 * to float. Prints the mismatches (the first few of each kind and their count); exits 1 on
 * any. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "fusecc.h"

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(3); } } while (0)

__device__ __forceinline__ unsigned char hw_to_fp8(float f)
{
	unsigned short r;
	asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f)); /* the second operand in the low byte */
	return (unsigned char)(r & 0xff);
}

__global__ void to_fp8(unsigned long long base, unsigned n, unsigned char *mine, unsigned char *hw)
{
	for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		unsigned u = (unsigned)(base + i);
		float f = __uint_as_float(u);
		mine[i] = fusecc_float_to_fp8e4m3(f).bits;
		hw[i] = fusecc_float_to_fp8e4m3_int(f).bits ^ hw_to_fp8(f); /* 0: the integer code on the device is the instruction */
	}
}

__global__ void from_fp8(float *mine, float *hw)
{
	unsigned c = threadIdx.x;
	fusecc_fp8e4m3 x = {(unsigned char)c};
	mine[c] = fusecc_fp8e4m3_to_float(x);
	unsigned r;
	unsigned short in = (unsigned short)c;
	asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(in));
	hw[c] = __half2float(__ushort_as_half((unsigned short)(r & 0xffff)));
}

int main()
{
	const unsigned chunk = 1u << 28;
	unsigned char *d_mine, *d_hw;
	CHECK(cudaMalloc(&d_mine, chunk));
	CHECK(cudaMalloc(&d_hw, chunk));
	unsigned char *mine = (unsigned char *)malloc(chunk), *hw = (unsigned char *)malloc(chunk), *host = (unsigned char *)malloc(chunk);
	unsigned long long dev_host = 0, dev_hw = 0;
	for (unsigned long long base = 0; base < (1ull << 32); base += chunk) {
		to_fp8<<<4096, 256>>>(base, chunk, d_mine, d_hw);
		CHECK(cudaGetLastError());
#pragma omp parallel for
		for (long long i = 0; i < (long long)chunk; i++) {
			unsigned u = (unsigned)(base + i);
			float f;
			memcpy(&f, &u, 4);
			host[i] = fusecc_float_to_fp8e4m3_int(f).bits;
		}
		CHECK(cudaMemcpy(mine, d_mine, chunk, cudaMemcpyDeviceToHost));
		CHECK(cudaMemcpy(hw, d_hw, chunk, cudaMemcpyDeviceToHost));
		for (unsigned i = 0; i < chunk; i++) {
			unsigned u = (unsigned)(base + i);
			if (mine[i] != host[i] && dev_host++ < 5)
				printf("float %08x: device %02x, host %02x\n", u, mine[i], host[i]);
			if (hw[i] && dev_hw++ < 5)
				printf("float %08x: integer code %02x, instruction %02x\n", u, host[i], host[i] ^ hw[i]);
		}
	}
	float *d_f, *d_g, f[256], g[256];
	CHECK(cudaMalloc(&d_f, sizeof f));
	CHECK(cudaMalloc(&d_g, sizeof g));
	from_fp8<<<1, 256>>>(d_f, d_g);
	CHECK(cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(g, d_g, sizeof g, cudaMemcpyDeviceToHost));
	int back = 0, back_hw = 0;
	for (int c = 0; c < 256; c++) {
		fusecc_fp8e4m3 x = {(unsigned char)c};
		float h = fusecc_fp8e4m3_to_float(x);
		if (memcmp(&h, &f[c], 4) && back++ < 5)
			printf("code %02x: device %a, host %a\n", c, f[c], h);
		bool nan = h != h && g[c] != g[c];
		if (!nan && memcmp(&h, &g[c], 4) && back_hw++ < 5)
			printf("code %02x: fusecc %a, hardware %a\n", c, h, g[c]);
	}
	printf("fp8 e4m3: 2^32 floats: device (fusecc_float_to_fp8e4m3) vs host %llu differ; integer code vs cvt.rn.satfinite.e4m3x2.f32 on the device %llu differ\n", dev_host, dev_hw);
	printf("fp8 e4m3: 256 codes to float: device vs host %d differ; vs cvt.rn.f16x2.e4m3x2 %d differ (NaN as NaN)\n", back, back_hw);
	return dev_host || dev_hw || back || back_hw;
}
