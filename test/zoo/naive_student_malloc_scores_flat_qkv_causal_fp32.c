/* naive_student_malloc_scores_flat_qkv_causal_fp32.c: a student's first causal attention, as
 * written after a lecture on row-major storage: q, k, v and out passed as flat pointers, one
 * N x N score matrix malloc'd per (b, h) and indexed by hand, S[i * N + j], filled by one nest,
 * softmaxed row by row (masked entries set to zero) by a second, multiplied by V in a third,
 * then freed.
 * Style: fp32, run-time D, malloc/free inside the region, flat subscripts everywhere,
 * `if (j > i)` mask written as an if/else, no strategy clause. */
#include <math.h>
#include <stdlib.h>

void causal_attention(int B, int H, int N, int D, const float *q, const float *k, const float *v,
		      float *out)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(causal_attention) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int base = (b * H + h) * N * D;
			float *S = malloc(N * N * sizeof(float));
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					if (j > i) {
						S[i * N + j] = -INFINITY;
					} else {
						float dot = 0.0f;
						for (int d = 0; d < D; d++)
							dot += q[base + i * D + d] * k[base + j * D + d];
						S[i * N + j] = dot * scale;
					}
				}
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++)
					mx = fmaxf(mx, S[i * N + j]);
				float denom = 0.0f;
				for (int j = 0; j < N; j++) {
					S[i * N + j] = expf(S[i * N + j] - mx);
					denom += S[i * N + j];
				}
				for (int j = 0; j < N; j++)
					S[i * N + j] = S[i * N + j] / denom;
			}
			for (int i = 0; i < N; i++)
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += S[i * N + j] * v[base + j * D + d];
					out[base + i * D + d] = acc;
				}
			free(S);
		}
}
