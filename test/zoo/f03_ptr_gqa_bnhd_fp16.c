/* GQA prefill over flat pointers in flash_attn's layout [B][N][H][D] (k, v: [B][N][HK][D]),
 * run-time D, G = H / HK set up before the region, kv head as a const int local, scores in
 * a fixed buffer, ternary max, softmax_scale parameter. */
#include <math.h>
/* GQA prefill, layout [B, N, H, D] (as in flash_attn's q of shape (batch, seqlen, nheads, headdim)). */
void gqa_bnhd(int B, int N, int H, int HK, int D, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *out, float softmax_scale)
{
	const int G = H / HK;
#pragma fuse kernel(gqa_bnhd) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				const int kh = h / G;
				float scores[8192];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[((b * N + i) * H + h) * D + d] * (float)k[((b * N + j) * HK + kh) * D + d];
					scores[j] = dot * softmax_scale;
					mx = scores[j] > mx ? scores[j] : mx;
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					scores[j] = expf(scores[j] - mx);
					sum += scores[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += scores[j] * (float)v[((b * N + j) * HK + kh) * D + d];
					out[((b * N + i) * H + h) * D + d] = (_Float16)(acc / sum);
				}
			}
}
