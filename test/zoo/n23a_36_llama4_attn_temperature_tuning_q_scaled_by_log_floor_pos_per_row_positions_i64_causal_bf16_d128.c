/* Llama 4's attn_temperature_tuning (NoPE layers), ported from modeling_llama4.py:
 *   attn_scales = log(floor((cache_position + 1) / floor_scale) + 1) * attn_scale + 1
 *   query_states = query_states * attn_scales
 * a per-row factor computed from the token's position (int64 cache_position), applied to
 * q before the usual scaled causal attention. bf16, D = 128, GQA by h / G. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void llama4_nope_attn(int B, int H, int G, int N, float floor_scale, float attn_scale, const int64_t cache_position[N],
		      const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H / G][N][128],
		      const fusecc_bf16 v[B][H / G][N][128], fusecc_bf16 o[B][H][N][128])
{
	const float scaling = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(llama4_nope_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float t = logf(floorf(((float)cache_position[i] + 1.0f) / floor_scale) + 1.0f) * attn_scale + 1.0f;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * t * fusecc_bf16_to_float(k[b][h / G][j][d]);
					s *= scaling;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h / G][j][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
