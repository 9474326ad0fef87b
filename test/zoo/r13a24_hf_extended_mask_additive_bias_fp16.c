/* HuggingFace BERT: extended_attention_mask = (1.0 - mask) * finfo.min on a uint8 mask [B][N],
 * added to scaled scores; probabilities materialised then multiplied. */
#include <math.h>
#include <float.h>
#include <stdint.h>

void bert_self_attn(int B, int H, int N, const uint8_t attention_mask[B][N],
		    const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 ctx[B][H][N][64])
{
#pragma fuse kernel(bert_self_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float probs[N];
				float mx = -FLT_MAX;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					t = t / 8.0f + (1.0f - (float)attention_mask[b][j]) * -FLT_MAX;
					probs[j] = t;
					mx = fmaxf(mx, t);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { probs[j] = expf(probs[j] - mx); sum += probs[j]; }
				for (int j = 0; j < N; j++) probs[j] /= sum;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += probs[j] * (float)v[b][h][j][d];
					ctx[b][h][i][d] = (_Float16)a;
				}
			}
}
