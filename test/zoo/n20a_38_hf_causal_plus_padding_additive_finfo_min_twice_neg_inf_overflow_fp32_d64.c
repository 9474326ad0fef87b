/* HF's old _prepare_4d mask path: a causal additive mask (0 / finfo.min) plus an expanded padding mask
 * (0 / finfo.min) added to the scores; where both apply, finfo.min + finfo.min = -inf. A fully padded
 * sequence keeps -FLT_MAX at j <= i and -inf above: the softmax is uniform over j <= i. */
#include <math.h>
#include <float.h>
#include <stdint.h>
void hf_two_masks(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		  const int64_t attention_mask[B][N], float o[B][H][N][64])
{
#pragma fuse kernel(hf_two_masks) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					const float causal = j > i ? -FLT_MAX : 0.0f;
					const float pad = (1.0f - (float)attention_mask[b][j]) * -FLT_MAX;
					w[j] = s * 0.125f + causal + pad;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, w[j]);
				float z = 0.0f;
				for (int j = 0; j < N; j++) { w[j] = expf(w[j] - mx); z += w[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += w[j] / z * v[b][h][j][d];
					o[b][h][i][d] = acc;
				}
			}
}
