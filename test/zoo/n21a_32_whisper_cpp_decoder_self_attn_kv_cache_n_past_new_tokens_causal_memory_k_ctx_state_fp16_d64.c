/* whisper.cpp decoder self-attention: the layer's memory_k / memory_v hold n_ctx rows of n_state
 * (= H * 64) values; N new tokens were appended after n_past cached ones; token i attends to keys
 * 0 .. n_past + i. q for the new tokens in [N][n_state] (heads interleaved in the state). */
#include <math.h>

void whisper_self(int n_ctx, int H, int N, int n_past, const _Float16 q[N][H * 64], const _Float16 memory_k[n_ctx][H * 64],
		  const _Float16 memory_v[n_ctx][H * 64], float cur[N][H * 64])
{
	const float KQscale = 0.125f;
#pragma fuse kernel(whisper_self) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float KQ[n_ctx];
			float max = -INFINITY;
			for (int j = 0; j < n_past + i + 1; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[i][h * 64 + d] * (float)memory_k[j][h * 64 + d];
				KQ[j] = s * KQscale;
				if (KQ[j] > max) max = KQ[j];
			}
			float sum = 0.0f;
			for (int j = 0; j < n_past + i + 1; j++) { KQ[j] = expf(KQ[j] - max); sum += KQ[j]; }
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < n_past + i + 1; j++) acc += KQ[j] * (float)memory_v[j][h * 64 + d];
				cur[i][h * 64 + d] = acc / sum;
			}
		}
}
