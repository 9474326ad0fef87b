/* The n20a_31 cross-attention written by someone who skips the dot for padded keys: if (attention_mask[b][s]) {
 * x = q.k * scale; } else x = -1e9f;  (the q.k loop inside the if arm). GQA by h / G, uint8 mask. */
#include <math.h>
#include <stdint.h>
void cross_gqa(int B, int H, int G, int T, int S, const _Float16 q[B][H][T][128], const _Float16 k[B][H / G][S][128],
	       const _Float16 v[B][H / G][S][128], const uint8_t attention_mask[B][S], _Float16 o[B][H][T][128])
{
#pragma fuse kernel(cross_gqa) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float w[S];
				float mx = -INFINITY;
				for (int s = 0; s < S; s++) {
					float x;
					if (attention_mask[b][s]) {
						x = 0.0f;
						for (int d = 0; d < 128; d++) x += (float)q[b][h][t][d] * (float)k[b][h / G][s][d];
						x = x * 0.08838834764831845f;
					} else
						x = -1e9f;
					w[s] = x;
					mx = fmaxf(mx, x);
				}
				float sum = 0.0f;
				for (int s = 0; s < S; s++) { w[s] = expf(w[s] - mx); sum += w[s]; }
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int s = 0; s < S; s++) acc += w[s] * (float)v[b][h / G][s][d];
					o[b][h][t][d] = (_Float16)(acc / sum);
				}
			}
}
