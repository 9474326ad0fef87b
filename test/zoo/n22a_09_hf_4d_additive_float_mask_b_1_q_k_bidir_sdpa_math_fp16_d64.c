/* HuggingFace "sdpa" math fallback with a 4-D additive float mask [B][1][N][N] (0 or finfo.min), as
 * _prepare_4d_attention_mask builds it; a porter keeps the singleton head dim in the declaration. */
#include <math.h>

void sdpa_additive(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		   const _Float16 v[B][H][N][64], const float attn_mask[B][1][N][N], _Float16 o[B][H][N][64])
{
	const float scale_factor = 1.0f / sqrtf(64.0f);
#pragma fuse kernel(sdpa_additive)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					w[j] = s * scale_factor + attn_mask[b][0][i][j];
					mx = w[j] > mx ? w[j] : mx;
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++)
					sum += expf(w[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += expf(w[j] - mx) / sum * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
