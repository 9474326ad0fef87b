/* QK^T into a 2-D local VLA per head, written inline (no helpers), causal by masking with -FLT_MAX
 * after the full product, row softmax over the matrix, then S.V: a numpy `np.triu` port. bf16 storage. */
#include <math.h>
#include <float.h>
#include "fusecc.h"
void attn_mat(int B, int H, int N, const fusecc_bf16 q[B][N][H][128], const fusecc_bf16 k[B][N][H][128],
	      const fusecc_bf16 v[B][N][H][128], fusecc_bf16 o[B][N][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(attn_mat) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float scores[N][N];
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h][d]);
					scores[i][j] = j > i ? -FLT_MAX : s * scale;
				}
			for (int i = 0; i < N; i++) {
				float mx = -FLT_MAX;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, scores[i][j]);
				float den = 0.0f;
				for (int j = 0; j < N; j++) den += expf(scores[i][j] - mx);
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += expf(scores[i][j] - mx) * fusecc_bf16_to_float(v[b][j][h][d]);
					o[b][i][h][d] = fusecc_float_to_bf16(a / den);
				}
			}
		}
}
