/* HuggingFace BERT eager path: the extended attention mask [B][1][1][N] already holds 0 or
 * -10000 (or dtype min) and is added to every head's scores; the 1/sqrt(128) written as a literal. */
#include <math.h>

void bert_self_attn(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		    const _Float16 v[B][H][N][128], const float ext_mask[B][1][1][N], _Float16 ctx[B][H][N][128])
{
#pragma fuse kernel(bert_self_attn)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float probs[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					probs[j] = s * 0.08838834764831845f + ext_mask[b][0][0][j];
					m = fmaxf(m, probs[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) { probs[j] = expf(probs[j] - m); z += probs[j]; }
				for (int j = 0; j < N; j++) probs[j] = probs[j] / z;
				for (int d = 0; d < 128; d++) {
					float c = 0.0f;
					for (int j = 0; j < N; j++) c += probs[j] * (float)v[b][h][j][d];
					ctx[b][h][i][d] = (_Float16)c;
				}
			}
}
