/* flash_attn_func(window_size=(left, right)) semantics as FlashAttention's test reference
 * (construct_local_mask) has them, ported by a PyTorch user: -1 means unbounded on that
 * side; windows are aligned bottom-right (query i sits at key position i + Nk - Nq).
 * Key j is visible when j >= pos - left (if left >= 0) and j <= pos + right (if right >= 0),
 * and j < Nk. Rows with no visible key output zeros, as the reference's nan_to_num. */
#include <math.h>

void fa_local_ref(int B, int H, int Nq, int Nk, int left, int right, float softmax_scale,
		  const _Float16 q[B][Nq][H][128], const _Float16 k[B][Nk][H][128], const _Float16 v[B][Nk][H][128],
		  _Float16 o[B][Nq][H][128])
{
#pragma fuse kernel(fa_local_ref) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < Nq; i++)
			for (int h = 0; h < H; h++) {
				const int pos = i + Nk - Nq;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j < Nk; j++) {
					if (left >= 0 && j < pos - left)
						continue;
					if (right >= 0 && j > pos + right)
						continue;
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					s *= softmax_scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * (float)v[b][j][h][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][i][h][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
			}
}
