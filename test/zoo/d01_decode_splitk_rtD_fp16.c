/* Single-token decode attention (one query row per head) over a contiguous KV cache of
 * length L, fp16, layout q[B][H][D], k/v[B][H][L][D]. Style: run-time int D, scale parameter,
 * scores in a local s[L]; fmaxf/expf; d-outer P.V; FlashDecoding-style splitk(j). */
#include <math.h>

void decode_attn(int B, int H, int L, int D, float scale,
		 const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
		 const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(decode_attn) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = dot * scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) {
				s[j] = expf(s[j] - m);
				l += s[j];
			}
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += s[j] * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
