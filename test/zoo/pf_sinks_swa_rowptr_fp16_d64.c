/* pf_sinks_swa_rowptr_fp16_d64.c: gpt-oss sliding-window layer with sinks (window W, the
 * sink logit per head in a float array).
 * Style: pointers into flat [B][H][N][HEAD_DIM] tensors (row pointers q + ((b * H + h) *
 * N + i) * HEAD_DIM), #define HEAD_DIM 64, the window's start clamped in a local, max
 * seeded with the sink (fmaxf form), the sum starting at the sink's exponential
 * (float sum = expf(sink[h] - m);), one pass with `float acc[HEAD_DIM] = {0};` and the
 * score recomputed. rolling(j). */
#include <math.h>

#define HEAD_DIM 64

void swa_sinks_rows(int B, int H, int N, int W, float scale,
		    const _Float16 *q, const _Float16 *k, const _Float16 *v,
		    const float *sink, _Float16 *o)
{
#pragma fuse kernel(swa_sinks_rows) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const _Float16 *qrow = q + ((b * H + h) * N + i) * HEAD_DIM;
				const _Float16 *kb = k + (b * H + h) * N * HEAD_DIM;
				const _Float16 *vb = v + (b * H + h) * N * HEAD_DIM;
				_Float16 *orow = o + ((b * H + h) * N + i) * HEAD_DIM;
				int start = i - W + 1;
				if (start < 0)
					start = 0;
				float m = sink[h];
				for (int j = start; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						x += (float)qrow[d] * (float)kb[j * HEAD_DIM + d];
					m = fmaxf(m, x * scale);
				}
				float sum = expf(sink[h] - m);
				float acc[HEAD_DIM] = {0};
				for (int j = start; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						x += (float)qrow[d] * (float)kb[j * HEAD_DIM + d];
					float p = expf(x * scale - m);
					sum += p;
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] += p * (float)vb[j * HEAD_DIM + d];
				}
				for (int d = 0; d < HEAD_DIM; d++)
					orow[d] = (_Float16)(acc[d] / sum);
			}
}
