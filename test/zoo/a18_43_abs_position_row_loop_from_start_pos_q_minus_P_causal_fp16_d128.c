/* llama-style prefill written over absolute positions: the row loop runs pos = P .. P + T - 1
 * (P tokens already cached), the query row is q[b][h][pos - P], and keys are j <= pos. */
#include <math.h>

void prefill_abs_pos(int B, int H, int P, int T, const _Float16 q[B][H][T][128], const _Float16 kc[B][H][P + T][128],
		     const _Float16 vc[B][H][P + T][128], _Float16 o[B][H][T][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(prefill_abs_pos) parallel(b, h, pos)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int pos = P; pos < P + T; pos++) {
				float att[P + T];
				float mx = -INFINITY;
				for (int j = 0; j <= pos; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][pos - P][d] * (float)kc[b][h][j][d];
					att[j] = s * scale;
					mx = fmaxf(mx, att[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j <= pos; j++) { att[j] = expf(att[j] - mx); sum += att[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j <= pos; j++) a += att[j] * (float)vc[b][h][j][d];
					o[b][h][pos - P][d] = (_Float16)(a / sum);
				}
			}
}
