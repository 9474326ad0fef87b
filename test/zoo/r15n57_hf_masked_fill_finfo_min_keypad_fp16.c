/* HuggingFace eager attention: scores.masked_fill(mask == 0, torch.finfo(torch.float32).min)
 * (not -inf), so a row whose keys are all padding gets uniform weights, not NaN. fp16, D=64. */
#include <float.h>
#include <math.h>
#include <stdint.h>

void hf_eager(int B, int H, int N, const uint8_t mask[B][N], const _Float16 q[B][H][N][64],
	      const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(hf_eager) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					w[j] = mask[b][j] == 0 ? -FLT_MAX : s * 0.125f;
					mx = fmaxf(mx, w[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) { w[j] = expf(w[j] - mx); z += w[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += w[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / z);
				}
			}
}
