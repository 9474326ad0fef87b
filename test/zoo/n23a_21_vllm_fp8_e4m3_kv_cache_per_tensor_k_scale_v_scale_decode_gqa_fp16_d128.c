/* vLLM with kv_cache_dtype="fp8_e4m3": the decode reference dequantises the fp8 cache
 * with per-tensor k_scale and v_scale (floats) as it reads; q and out fp16; GQA by
 * h / (H / KVH); seq_lens int32; cache [B][KVH][Lmax][128]. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void fp8_kv_decode(int B, int H, int KVH, int Lmax, float scale, float k_scale, float v_scale,
		   const _Float16 q[B][H][128], const fusecc_fp8e4m3 k_cache[B][KVH][Lmax][128],
		   const fusecc_fp8e4m3 v_cache[B][KVH][Lmax][128], const int32_t seq_lens[B], _Float16 out[B][H][128])
{
#pragma fuse kernel(fp8_kv_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int t = 0; t < seq_lens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (fusecc_fp8e4m3_to_float(k_cache[b][kvh][t][d]) * k_scale);
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * fusecc_fp8e4m3_to_float(v_cache[b][kvh][t][d]) * v_scale;
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				out[b][h][d] = (_Float16)(acc[d] / l);
		}
}
