/* SageAttention-style int8 QK: q and k quantised to int8 with a float scale per query and per key,
 * the dot accumulated in int32 (exact), dequantised by q_scale * k_scale * sm_scale; P.V in float
 * with fp16 V. Decode, [B][H][S][128]. */
#include <math.h>
#include <stdint.h>

void sage_decode(int B, int H, int S, const int8_t q8[B][H][128], const float q_scale[B][H], const int8_t k8[B][H][S][128],
		 const float k_scale[B][H][S], const _Float16 v[B][H][S][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(sage_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S], mx = -INFINITY;
			for (int j = 0; j < S; j++) {
				int32_t dot = 0;
				for (int d = 0; d < 128; d++) dot += (int32_t)q8[b][h][d] * (int32_t)k8[b][h][j][d];
				sc[j] = (float)dot * q_scale[b][h] * k_scale[b][h][j] * 0.08838834764831845f;
				mx = fmaxf(mx, sc[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < S; j++) l += expf(sc[j] - mx);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += expf(sc[j] - mx) * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
