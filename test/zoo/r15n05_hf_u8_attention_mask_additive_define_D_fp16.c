/* HuggingFace BERT/RoBERTa: attention_mask uint8 [B][N] (1 keep, 0 pad) turned into the
 * additive (1 - mask) * finfo.min bias; #define D 64; fp16 storage. */
#include <math.h>
#include <stdint.h>
#define D 64

void hf_self_attn(int B, int H, int N, const uint8_t attention_mask[B][N],
		  const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D], const _Float16 v[B][H][N][D],
		  _Float16 ctx[B][H][N][D])
{
#pragma fuse kernel(hf_self_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					w[j] = s / 8.0f + (1.0f - (float)attention_mask[b][j]) * -65504.0f;
					if (w[j] > mx) mx = w[j];
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) { w[j] = expf(w[j] - mx); z += w[j]; }
				for (int j = 0; j < N; j++) w[j] /= z;
				for (int d = 0; d < D; d++) {
					float c = 0.0f;
					for (int j = 0; j < N; j++) c += w[j] * (float)v[b][h][j][d];
					ctx[b][h][i][d] = (_Float16)c;
				}
			}
}
