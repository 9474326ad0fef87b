/* The Annotated Transformer's LayerNorm: a_2 * (x - mean) / (std + eps) + b_2, with x.std(-1)
 * UNBIASED (divides by D - 1), eps added to the std. A student porting it literally. */
#include <math.h>

void ln_annotated(int N, int D, float eps, const float x[N][D], const float a_2[D], const float b_2[D],
		  float y[N][D])
{
#pragma fuse kernel(ln_annotated) parallel(n)
	for (int n = 0; n < N; n++) {
		float mean = 0.0f;
		for (int d = 0; d < D; d++)
			mean += x[n][d];
		mean /= D;
		float ss = 0.0f;
		for (int d = 0; d < D; d++)
			ss += (x[n][d] - mean) * (x[n][d] - mean);
		const float std = sqrtf(ss / (D - 1));
		for (int d = 0; d < D; d++)
			y[n][d] = a_2[d] * (x[n][d] - mean) / (std + eps) + b_2[d];
	}
}
