/* Decode over an int8 KV cache quantised per token (one scale for all heads of a
 * token, k_s[B][L]), written like a llama.cpp q8 port: `signed char` caches, a static
 * inline dot helper, the scale multiplying the dot from the left, the value scale
 * applied inside the P.V sum as one dequantised value. bf16 query and output, rolling. */
#include <math.h>
#include "fusecc.h"

#define HD 128

static inline float dot_q8(const fusecc_bf16 *x, const signed char *y)
{
	float r = 0.0f;
	for (int d = 0; d < HD; d++)
		r += fusecc_bf16_to_float(x[d]) * (float)y[d];
	return r;
}

void attn_decode_q8(int B, int H, int L, const fusecc_bf16 q[B][H][HD],
		    const signed char k_q[B][H][L][HD], const float k_s[B][L],
		    const signed char v_q[B][H][L][HD], const float v_s[B][L],
		    fusecc_bf16 out[B][H][HD])
{
	const float sm_scale = 1.0f / sqrtf((float)HD);
#pragma fuse kernel(attn_decode_q8) parallel(b, h) rolling(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float att[L];
			float mx = -INFINITY;
			for (int t = 0; t < L; t++) {
				att[t] = k_s[b][t] * dot_q8(q[b][h], k_q[b][h][t]) * sm_scale;
				if (att[t] > mx)
					mx = att[t];
			}
			float sum = 0.0f;
			for (int t = 0; t < L; t++) {
				att[t] = expf(att[t] - mx);
				sum += att[t];
			}
			for (int d = 0; d < HD; d++) {
				float o = 0.0f;
				for (int t = 0; t < L; t++)
					o += att[t] * ((float)v_q[b][h][t][d] * v_s[b][t]);
				out[b][h][d] = fusecc_float_to_bf16(o / sum);
			}
		}
}
