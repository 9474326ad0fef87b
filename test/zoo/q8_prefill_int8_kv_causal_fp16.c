/* Causal prefill against an int8 KV cache with per-token, per-head scales (a serving
 * engine's chunked prefill reading back what it quantised): q fp16 [B][H][N][64], k/v int8
 * [B][H][N][64], scales float [B][H][N]. Scores scaled by the key scale after the dot;
 * the value scale folded into the probability (p * vs) before the P.V sum. */
#include <math.h>
#include <stdint.h>

void prefill_i8(int B, int H, int N, const _Float16 q[B][H][N][64],
		const int8_t kq[B][H][N][64], const float ks[B][H][N],
		const int8_t vq[B][H][N][64], const float vs[B][H][N],
		_Float16 o[B][H][N][64])
{
#pragma fuse kernel(prefill_i8) parallel(b, h, i) tile(i:64, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 64; d++)
						acc += (float)q[b][h][i][d] * kq[b][h][j][d];
					s[j] = acc * ks[b][h][j] * 0.125f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) {
						float p = s[j] * vs[b][h][j];
						acc += p * vq[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
