/* BERT self-attention as in the original TF/HF code: attention_mask given as float 0/1 [B][N],
 * extended mask (1.0 - mask) * -10000.0 added after the 1/sqrt(64) scaling; layout [B][N][H][64]. */
#include <math.h>

void bert_attn(int B, int N, int H, const float q[B][N][H][64], const float k[B][N][H][64],
	       const float v[B][N][H][64], const float attention_mask[B][N], float ctx[B][N][H][64])
{
#pragma fuse kernel(bert_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float probs[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][i][h][d] * k[b][j][h][d];
					s = s / 8.0f;
					probs[j] = s + (1.0f - attention_mask[b][j]) * -10000.0f;
				}
				float m = probs[0];
				for (int j = 1; j < N; j++) if (probs[j] > m) m = probs[j];
				float z = 0.0f;
				for (int j = 0; j < N; j++) { probs[j] = expf(probs[j] - m); z += probs[j]; }
				for (int j = 0; j < N; j++) probs[j] = probs[j] / z;
				for (int d = 0; d < 64; d++) {
					float c = 0.0f;
					for (int j = 0; j < N; j++) c += probs[j] * v[b][j][h][d];
					ctx[b][i][h][d] = c;
				}
			}
}
