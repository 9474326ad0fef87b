/* Probe: the max is taken over all N keys (bidirectional) but the sum and P.V only over j <= i
 * (a half-converted causal port). Softmax is shift-invariant, so the C's result is the causal
 * softmax unless a future key's score exceeds every kept one by > 88: then the C underflows to
 * 0/0 = NaN. The fused code must subtract the same max. */
#include <math.h>

void attn_mixmax(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		 const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_mixmax) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					mx = fmaxf(mx, s * 0.125f);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					l += expf(s * 0.125f - mx);
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int e = 0; e < 64; e++) s += q[b][h][i][e] * k[b][h][j][e];
						acc += expf(s * 0.125f - mx) * v[b][h][j][d];
					}
					o[b][h][i][d] = acc / l;
				}
			}
}
