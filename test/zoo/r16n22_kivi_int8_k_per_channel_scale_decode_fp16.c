/* KIVI-style decode: K cache int8 quantised per channel (scale ks[kh][d] per head dim), V cache
 * int8 per token (vs[b][kh][j]); dequantised inside the loops; GQA by h / G; D=128. */
#include <math.h>
#include <stdint.h>

void kivi_decode(int B, int H, int G, int L, const _Float16 q[B][H][128], const int8_t kq[B][H / G][L][128],
		 const float ks[H / G][128], const int8_t vq[B][H / G][L][128], const float vs[B][H / G][L],
		 _Float16 o[B][H][128])
{
#pragma fuse kernel(kivi_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kh = h / G;
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * ((float)kq[b][kh][j][d] * ks[kh][d]);
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)vq[b][kh][j][d] * vs[b][kh][j];
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
