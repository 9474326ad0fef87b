/* Online softmax as in Milakov & Gimelshein's paper with an if/else: a new max rescales and adds
 * weight 1, otherwise the key adds exp(s - m); decode against a cache with lengths, fp32. */
#include <math.h>
#include <stdint.h>

void decode_ifelse(int B, int H, int T, const int32_t lens[B], const float q[B][H][128], const float k[B][H][T][128],
		   const float v[B][H][T][128], float o[B][H][128])
{
#pragma fuse kernel(decode_ifelse) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int t = 0; t < lens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += q[b][h][d] * k[b][h][t][d];
				s *= 0.08838834764831845f;
				if (s > m) {
					const float c = expf(m - s);
					l = l * c + 1.0f;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + v[b][h][t][d];
					m = s;
				} else {
					const float p = expf(s - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * v[b][h][t][d];
				}
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = acc[d] / l;
		}
}
