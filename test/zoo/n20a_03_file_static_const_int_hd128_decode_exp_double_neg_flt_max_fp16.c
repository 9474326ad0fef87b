/* A C++-turned-C programmer: sizes as file-scope `static const int`, a decode over a KV cache with a
 * per-sequence length, scores into a VLA, max from -FLT_MAX, `exp` (double) on the float score. */
#include <math.h>
#include <float.h>
#include <stdint.h>
static const int HD = 128;
static const int MAX_CTX = 512;
void decode_step(int B, int NH, const _Float16 q[B][NH][128], const _Float16 kc[B][NH][512][128], const _Float16 vc[B][NH][512][128],
		 const int32_t ctx_len[B], _Float16 out[B][NH][128])
{
	const float inv = 1.0f / sqrtf((float)HD);
#pragma fuse kernel(decode_step) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < NH; h++) {
			float logit[MAX_CTX];
			float best = -FLT_MAX;
			for (int t = 0; t < ctx_len[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < HD; d++) s += (float)q[b][h][d] * (float)kc[b][h][t][d];
				logit[t] = s * inv;
				best = logit[t] > best ? logit[t] : best;
			}
			float tot = 0.0f;
			for (int t = 0; t < ctx_len[b]; t++) tot += (float)exp(logit[t] - best);
			for (int d = 0; d < HD; d++) {
				float acc = 0.0f;
				for (int t = 0; t < ctx_len[b]; t++) acc += (float)exp(logit[t] - best) / tot * (float)vc[b][h][t][d];
				out[b][h][d] = (_Float16)acc;
			}
		}
}
