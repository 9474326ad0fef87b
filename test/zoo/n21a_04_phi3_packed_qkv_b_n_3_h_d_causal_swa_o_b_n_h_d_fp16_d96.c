/* Phi-3-mini attention (head_dim 96, sliding_window from the config) reading the fused qkv_proj
 * output reshaped as qkv[B][N][3][H][96] (q at [..][0], k at [1], v at [2]); output [B][N][H][96]. */
#include <math.h>

void phi3_attn(int B, int N, int H, int sliding_window, const _Float16 qkv[B][N][3][H][96],
	       _Float16 o[B][N][H][96])
{
	const float sm_scale = 0.10206207261596575f; /* 96 ** -0.5 */
#pragma fuse kernel(phi3_attn) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					if (j > i || i - j >= sliding_window) { sc[j] = -INFINITY; continue; }
					float s = 0.0f;
					for (int d = 0; d < 96; d++)
						s += (float)qkv[b][i][0][h][d] * (float)qkv[b][j][1][h][d];
					sc[j] = s * sm_scale;
					if (sc[j] > mx) mx = sc[j];
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - mx); sum += sc[j]; }
				for (int d = 0; d < 96; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += sc[j] * (float)qkv[b][j][2][h][d];
					o[b][i][h][d] = (_Float16)(acc / sum);
				}
			}
}
