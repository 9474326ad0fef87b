/* Newer PyTorch SDPA math path semantics ported by hand: key_padding_mask (uint8, 1 = pad) filled with -inf,
 * softmax, then fully padded rows (NaN) zeroed with nan_to_num(0) before P @ V. fp16 storage. */
#include <math.h>
#include <stdint.h>
void sdpa_keypad(int B, int H, int Lq, int Lk, const uint8_t key_padding_mask[B][Lk], const _Float16 q[B][H][Lq][64],
		 const _Float16 k[B][H][Lk][64], const _Float16 v[B][H][Lk][64], _Float16 o[B][H][Lq][64])
{
#pragma fuse kernel(sdpa_keypad) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Lq; i++) {
				float a[Lk];
				float m = -INFINITY;
				for (int j = 0; j < Lk; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					a[j] = key_padding_mask[b][j] ? -INFINITY : s * 0.125f;
					m = fmaxf(m, a[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < Lk; j++) z += expf(a[j] - m);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < Lk; j++) {
						float p = expf(a[j] - m) / z;
						if (isnan(p)) p = 0.0f;
						acc += p * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
