/* pf_keypad_len_rtD.c: unmasked prefill over right-padded batches: sequence b has len[b]
 * valid keys (key_padding_mask as a length); rows past the length still get computed.
 * Style: fp32, run-time `int D`, the key loop bound read from len[b], stored scores,
 * max / sum / d-outer P.V; an empty row (len 0) writes zeros instead of NaN.
 * rolling(j), tile(i:64, j:64). */
#include <math.h>

void keypad_attention(int B, int H, int N, int D, float scale, const int len[B],
		      const float q[B][H][N][D], const float k[B][H][N][D],
		      const float v[B][H][N][D], float o[B][H][N][D])
{
#pragma fuse kernel(keypad_attention) parallel(b, h, i) tile(i:64, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j < len[b]; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					s[j] = dot * scale;
				}
				float m = -INFINITY;
				for (int j = 0; j < len[b]; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = 0; j < len[b]; j++)
					l += expf(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < len[b]; j++)
						acc += expf(s[j] - m) * v[b][h][j][d];
					o[b][h][i][d] = l > 0.0f ? acc / l : 0.0f;
				}
			}
}
