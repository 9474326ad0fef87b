/* Multi-head attention forward (prefill, non-causal), fp16 q/k/v/o, layout [B][H][N][D].
 * Style: head dim is a run-time int D, softmax scale passed in; scores materialised in a
 * local float s[N]; expf + fmaxf; P.V written with d as the outer loop (one dot per output). */
#include <math.h>

void mha_fwd(int B, int H, int N, int D, float scale,
	     const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	     const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(mha_fwd) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
