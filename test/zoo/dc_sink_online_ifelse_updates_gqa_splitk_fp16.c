/* dc_sink_online_ifelse_updates_gqa_splitk_fp16: decode with attention sinks (gpt-oss): the
 * running max and sum seeded with the head's sink logit (M = sinks[h], S = 1), the online
 * softmax with the updates in both arms, llama.cpp's names (M, S, ms, vs, VKQ), GQA by
 * h / G, fp16 KV cache, fp32 query. Style: a ggml-cpu port written per element. */
#include <math.h>
void sink_decode(int B, int HKV, int G, int L, float scale, const float q[B][HKV * G][128],
                 const _Float16 k[B][HKV][L][128], const _Float16 v[B][HKV][L][128],
                 const float sinks[HKV * G], float o[B][HKV * G][128])
{
#pragma fuse kernel(sink_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < HKV * G; h++) {
			float M = sinks[h];
			float S = 1.0f;
			float VKQ[128];
			for (int d = 0; d < 128; d++)
				VKQ[d] = 0.0f;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += q[b][h][d] * (float)k[b][h / G][t][d];
				s *= scale;
				if (s > M) {
					const float ms = expf(M - s);
					for (int d = 0; d < 128; d++)
						VKQ[d] = VKQ[d] * ms + (float)v[b][h / G][t][d];
					S = S * ms + 1.0f;
					M = s;
				} else {
					const float vs = expf(s - M);
					for (int d = 0; d < 128; d++)
						VKQ[d] += vs * (float)v[b][h / G][t][d];
					S += vs;
				}
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = VKQ[d] / S;
		}
}
