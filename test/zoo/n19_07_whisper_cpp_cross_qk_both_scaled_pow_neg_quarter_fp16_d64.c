/* whisper.cpp decoder cross-attention: Q and K each scaled by pow(n_state/n_head, -0.25) (KQscale split in two),
 * memory K/V from the encoder (n_audio_ctx keys), decoder tokens n_tokens as queries, no mask. fp16. */
#include <math.h>
void whisper_cross(int n_tokens, int n_head, int n_audio_ctx, const _Float16 Qcur[n_tokens][n_head][64],
		   const _Float16 Kcross[n_head][n_audio_ctx][64], const _Float16 Vcross[n_head][n_audio_ctx][64],
		   _Float16 KQV[n_tokens][n_head][64])
{
	const float KQscale = powf(64.0f, -0.25f);
#pragma fuse kernel(whisper_cross) parallel(h, t)
	for (int h = 0; h < n_head; h++)
		for (int t = 0; t < n_tokens; t++) {
			float KQ[n_audio_ctx];
			float max = -INFINITY;
			for (int j = 0; j < n_audio_ctx; j++) {
				float sum = 0.0f;
				for (int d = 0; d < 64; d++) sum += ((float)Qcur[t][h][d] * KQscale) * ((float)Kcross[h][j][d] * KQscale);
				KQ[j] = sum;
				max = fmaxf(max, sum);
			}
			float sum = 0.0f;
			for (int j = 0; j < n_audio_ctx; j++) {
				const float val = expf(KQ[j] - max);
				sum += val;
				KQ[j] = val;
			}
			const float isum = 1.0f / sum;
			for (int d = 0; d < 64; d++) {
				float r = 0.0f;
				for (int j = 0; j < n_audio_ctx; j++) r += KQ[j] * isum * (float)Vcross[h][j][d];
				KQV[t][h][d] = (_Float16)r;
			}
		}
}
