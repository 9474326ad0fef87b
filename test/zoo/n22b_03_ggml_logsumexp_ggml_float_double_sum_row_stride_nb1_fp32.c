/* llama.cpp/ggml style: a row op over src0 with a byte-free row stride (ne00 elements per row,
 * nb01 elements between rows), the sum in ggml_float (double) as ggml_vec_soft_max does. */
#include <math.h>

typedef double ggml_float;

void ggml_logsumexp_rows(int ne00, int ne01, int nb01, const float *src0, float *dst)
{
#pragma fuse kernel(ggml_logsumexp_rows) parallel(i1)
	for (int i1 = 0; i1 < ne01; i1++) {
		const float *sp = src0 + i1 * nb01;
		float max = -INFINITY;
		for (int i = 0; i < ne00; i++)
			max = fmaxf(max, sp[i]);
		ggml_float sum = 0.0;
		for (int i = 0; i < ne00; i++)
			sum += (ggml_float)expf(sp[i] - max);
		dst[i1] = max + (float)log(sum);
	}
}
