/* A careful decode: sequences may be empty (kv_len 0), and the author guards the division,
 * writing zeros where nothing was attended (l == 0). */
#include <math.h>

void dec_guarded(int B, int H, int L, const int kv_len[B], const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		 const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(dec_guarded) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L], m = -INFINITY;
			for (int j = 0; j < kv_len[b]; j++) {
				float x = 0.0f;
				for (int d = 0; d < 64; d++) x += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = x * 0.125f;
				if (s[j] > m) m = s[j];
			}
			float l = 0.0f;
			for (int j = 0; j < kv_len[b]; j++) { s[j] = expf(s[j] - m); l += s[j]; }
			for (int d = 0; d < 64; d++) {
				float a = 0.0f;
				for (int j = 0; j < kv_len[b]; j++) a += s[j] * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(l > 0.0f ? a / l : 0.0f);
			}
		}
}
