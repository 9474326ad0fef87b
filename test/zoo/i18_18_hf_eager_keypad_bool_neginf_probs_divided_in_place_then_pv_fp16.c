/* HF eager attention with a key padding mask as bool [B][N] (true = keep), masked_fill(-inf),
 * softmax materialised in a local row (exp in place, then s[j] /= sum in its own loop), then
 * P.V with the d loop outside; a batch whose keys are all padding gives NaN as PyTorch does.
 * fp16, D = 64. Written as a literal port of modeling_*.py eager_attention_forward. */
#include <math.h>
#include <stdbool.h>
void eager_keypad(int B, int H, int N, const bool keep[B][N], const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(eager_keypad) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = keep[b][j] ? x * 0.125f : -INFINITY;
					m = fmaxf(m, s[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); sum += s[j]; }
				for (int j = 0; j < N; j++) s[j] /= sum;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}
