/* HF _prepare_4d_causal_attention_mask_with_cache_position ported inline: queries are a chunk of new tokens at
 * absolute positions cache_position[i] (int64), keys are the static cache 0..target_length; key j masked when
 * j > cache_position[i] or (sliding) cache_position[i] - j >= sliding_window. */
#include <math.h>
#include <stdint.h>
void cache_pos_attn(int B, int H, int Q, int target_length, int sliding_window, const int64_t cache_position[Q],
		    const _Float16 q[B][H][Q][64], const _Float16 k_cache[B][H][target_length][64],
		    const _Float16 v_cache[B][H][target_length][64], _Float16 o[B][Q][H][64])
{
	const float scaling = 0.125f;
#pragma fuse kernel(cache_pos_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Q; i++) {
				float w[target_length];
				float mx = -INFINITY;
				for (int j = 0; j < target_length; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k_cache[b][h][j][d];
					const int masked = j > cache_position[i] || cache_position[i] - j >= sliding_window;
					w[j] = masked ? -INFINITY : s * scaling;
					mx = fmaxf(mx, w[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < target_length; j++) z += expf(w[j] - mx);
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < target_length; j++) a += expf(w[j] - mx) / z * (float)v_cache[b][h][j][d];
					o[b][i][h][d] = (_Float16)a;
				}
			}
}
