/* pf_causal_tf32_optin_d128.c: causal prefill in fp32 with tf32 tensor cores asked for
 * (precision(tf32)), as a training script that already runs its matmuls in tf32 would.
 * Style: fp32, `#define HD 128`, triangular loops j <= i, three passes over the scores
 * kept in p[N] (max, exp and sum in place, then P.V d-outer), scale a parameter. */
#include <math.h>

#define HD 128

void causal_tf32(int B, int H, int N, float scale, const float q[B][H][N][HD],
		 const float k[B][H][N][HD], const float v[B][H][N][HD], float o[B][H][N][HD])
{
#pragma fuse kernel(causal_tf32) parallel(b, h, i) rolling(j) precision(tf32)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float p[N];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < HD; d++)
						s += q[b][h][i][d] * k[b][h][j][d];
					p[j] = s * scale;
					mx = fmaxf(mx, p[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j <= i; j++) {
					p[j] = expf(p[j] - mx);
					sum += p[j];
				}
				for (int d = 0; d < HD; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++)
						acc += p[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / sum;
				}
			}
}
