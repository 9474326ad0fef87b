/* Eager-mode attention step 2 of 3 (a PyTorch user materialised attn_weights = q @ k^T * s + mask
 * earlier): softmax over the last dim in place, mask [N][N] additive broadcast over B, H. fp16. */
#include <math.h>

void softmax_masked_inplace(int B, int H, int N, const float mask[N][N], _Float16 attn[B][H][N][N])
{
#pragma fuse kernel(softmax_masked_inplace) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) m = fmaxf(m, (float)attn[b][h][i][j] + mask[i][j]);
				float s = 0.0f;
				for (int j = 0; j < N; j++) s += expf((float)attn[b][h][i][j] + mask[i][j] - m);
				for (int j = 0; j < N; j++)
					attn[b][h][i][j] = (_Float16)(expf((float)attn[b][h][i][j] + mask[i][j] - m) / s);
			}
}
