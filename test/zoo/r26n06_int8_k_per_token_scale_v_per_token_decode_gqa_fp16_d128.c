/* An int8 KV-cache decode (per-token symmetric quantisation of K and V, as in QServe / TensorRT-LLM's
 * int8 KV option ported to a C reference): k = kq * k_scale[token], v = vq * v_scale[token], both
 * dequantised where they are used. GQA by h / G, fp16 query and output, D = 128. */
#include <math.h>
#include <stdint.h>

void int8kv_decode(int B, int H, int G, int L, const _Float16 q[B][H][128], const int8_t kq[B][H / G][L][128],
		   const float k_scale[B][H / G][L], const int8_t vq[B][H / G][L][128], const float v_scale[B][H / G][L],
		   _Float16 o[B][H][128])
{
#pragma fuse kernel(int8kv_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * ((float)kq[b][h / G][j][d] * k_scale[b][h / G][j]);
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * ((float)vq[b][h / G][j][d] * v_scale[b][h / G][j]);
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
