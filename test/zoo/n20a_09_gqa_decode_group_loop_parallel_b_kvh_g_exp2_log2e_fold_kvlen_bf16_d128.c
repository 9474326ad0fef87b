/* A decode by KV head with its query group as a loop named in parallel(b, kvh, g); scale folded with
 * log2(e) for exp2f (FlashInfer's habit: sm_scale * M_LOG2E); kv_len per request (int). bf16. */
#include <math.h>
#include "fusecc.h"
#define LOG2E 1.4426950408889634f
void gqa_decode(int B, int KVH, int G, int MAXL, const fusecc_bf16 q[B][KVH][G][128], const fusecc_bf16 k[B][KVH][MAXL][128],
		const fusecc_bf16 v[B][KVH][MAXL][128], const int kv_len[B], fusecc_bf16 o[B][KVH][G][128])
{
	const float sm_scale_log2 = (1.0f / sqrtf(128.0f)) * LOG2E;
#pragma fuse kernel(gqa_decode) parallel(b, kvh, g)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				float s[MAXL];
				float m = -INFINITY;
				for (int j = 0; j < kv_len[b]; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += fusecc_bf16_to_float(q[b][kvh][g][d]) * fusecc_bf16_to_float(k[b][kvh][j][d]);
					s[j] = dot * sm_scale_log2;
					m = fmaxf(m, s[j]);
				}
				float d_ = 0.0f;
				for (int j = 0; j < kv_len[b]; j++) d_ += exp2f(s[j] - m);
				for (int e = 0; e < 128; e++) {
					float acc = 0.0f;
					for (int j = 0; j < kv_len[b]; j++) acc += exp2f(s[j] - m) * fusecc_bf16_to_float(v[b][kvh][j][e]);
					o[b][kvh][g][e] = fusecc_float_to_bf16(acc / d_);
				}
			}
}
