/* llama.cpp-style row LSE (the sampler's "logits to logprobs" helper): ggml_float (double)
 * accumulator, exps via exp2f with a log2(e) pre-multiply as the vectorised code does, a
 * row stride in floats (nb1 / sizeof(float)), flat pointers. Llama-3 vocab 128256. */
#include <math.h>
#include <stdint.h>

typedef double ggml_float;

void ggml_vec_lse_rows(int64_t ne00, int64_t ne01, int64_t s01, const float *src0, float *dst)
{
	const float log2e = 1.4426950408889634f;
#pragma fuse kernel(ggml_vec_lse_rows) parallel(i01)
	for (int64_t i01 = 0; i01 < ne01; i01++) {
		const float *x = src0 + i01 * s01;
		float max = -INFINITY;
		for (int64_t i = 0; i < ne00; i++)
			max = max > x[i] ? max : x[i];
		ggml_float sum = 0.0;
		for (int64_t i = 0; i < ne00; i++)
			sum += (ggml_float)exp2f((x[i] - max) * log2e);
		dst[i01] = max + (float)log(sum);
	}
}
