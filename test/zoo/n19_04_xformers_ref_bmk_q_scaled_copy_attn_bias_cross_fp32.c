/* xformers ref_attention in BMK layout (batch*heads merged): q = q * scale; attn = q @ k^T; attn = attn + attn_bias;
 * attn = attn.softmax(-1); return attn @ v.  Cross attention: M queries, N keys, K head dim (run-time). */
#include <math.h>
void ref_attention_bmk(int BH, int M, int N, int K, const float q[BH][M][K], const float k[BH][N][K], const float v[BH][N][K],
		       const float attn_bias[BH][M][N], float out[BH][M][K])
{
	const float scale = 1.0f / sqrtf((float)K);
#pragma fuse kernel(ref_attention_bmk) parallel(z, m)
	for (int z = 0; z < BH; z++)
		for (int m = 0; m < M; m++) {
			float qs[K];
			for (int c = 0; c < K; c++) qs[c] = q[z][m][c] * scale;
			float attn[N];
			for (int n = 0; n < N; n++) {
				float a = 0.0f;
				for (int c = 0; c < K; c++) a += qs[c] * k[z][n][c];
				attn[n] = a + attn_bias[z][m][n];
			}
			float amax = -INFINITY;
			for (int n = 0; n < N; n++) amax = fmaxf(amax, attn[n]);
			float asum = 0.0f;
			for (int n = 0; n < N; n++) { attn[n] = expf(attn[n] - amax); asum += attn[n]; }
			for (int c = 0; c < K; c++) {
				float r = 0.0f;
				for (int n = 0; n < N; n++) r += attn[n] / asum * v[z][n][c];
				out[z][m][c] = r;
			}
		}
}
