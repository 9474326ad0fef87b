/* An OpenMP user's encoder attention: `omp simd reduction` on the dot products and a collapse(3)
 * parallel for under the fuse pragma, bidirectional, fp32, two passes. */
#include <math.h>

void omp_attn(int B, int H, int N, const float *restrict q, const float *restrict k, const float *restrict v,
	      float *restrict o)
{
#pragma fuse kernel(omp_attn) parallel(b, h, i)
#pragma omp parallel for collapse(3)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float *qi = q + (((long)b * H + h) * N + i) * 128;
				const float *kb = k + ((long)b * H + h) * N * 128;
				const float *vb = v + ((long)b * H + h) * N * 128;
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
#pragma omp simd reduction(+ : s)
					for (int d = 0; d < 128; d++) s += qi[d] * kb[j * 128 + d];
					mx = fmaxf(mx, s);
				}
				float sum = 0.0f, acc[128] = {0};
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
#pragma omp simd reduction(+ : s)
					for (int d = 0; d < 128; d++) s += qi[d] * kb[j * 128 + d];
					const float p = expf((s - mx) * 0.08838834764831845f);
					sum += p;
#pragma omp simd
					for (int d = 0; d < 128; d++) acc[d] += p * vb[j * 128 + d];
				}
				for (int d = 0; d < 128; d++) o[(((long)b * H + h) * N + i) * 128 + d] = acc[d] / sum;
			}
}
