/* flash-attn tests attention_ref ported: bshd layout, key_padding_mask (bool), local window (left, right) aligned
 * bottom-right (row_idx + sk - sq), softcap (0 = off), fully masked rows give 0 (masked_fill(all(mask), 0)). */
#include <math.h>
#include <stdbool.h>
void attention_ref(int B, int SQ, int SK, int H, int D, int window_left, int window_right, float softcap,
		   const _Float16 q[B][SQ][H][D], const _Float16 k[B][SK][H][D], const _Float16 v[B][SK][H][D],
		   const bool key_padding_mask[B][SK], _Float16 out[B][SQ][H][D])
{
	const float sm = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attention_ref) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < SQ; i++)
			for (int h = 0; h < H; h++) {
				float scores[SK];
				float mx = -INFINITY;
				for (int j = 0; j < SK; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					s *= sm;
					if (softcap > 0.0f) s = tanhf(s / softcap) * softcap;
					if (!key_padding_mask[b][j]) s = -INFINITY;
					if (j > i + SK - SQ + window_right || j < i + SK - SQ - window_left) s = -INFINITY;
					scores[j] = s;
					mx = fmaxf(mx, s);
				}
				float l = 0.0f;
				for (int j = 0; j < SK; j++) l += (mx == -INFINITY) ? 0.0f : expf(scores[j] - mx);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < SK; j++) acc += (mx == -INFINITY ? 0.0f : expf(scores[j] - mx)) * (float)v[b][j][h][d];
					out[b][i][h][d] = (_Float16)(l > 0.0f ? acc / l : 0.0f);
				}
			}
}
