/* HF Mistral eager with the sliding-window mask built inline: min_dtype = finfo(fp16).min, a key is masked
 * when j > i or i - j >= sliding_window; masked_fill then softmax(dtype=float32).to(fp16) then @ v. */
#include <math.h>
#define D 128
void mistral_swa(int B, int H, int N, int sliding_window, const _Float16 *query_states, const _Float16 *key_states,
		 const _Float16 *value_states, _Float16 *attn_output)
{
	const float min_dtype = -65504.0f;
	const float scaling = 0.08838834764831845f;
#pragma fuse kernel(mistral_swa) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const _Float16 *qrow = query_states + ((b * H + h) * N + i) * D;
				float w[N];
				float row_max = min_dtype;
				for (int j = 0; j < N; j++) {
					const _Float16 *krow = key_states + ((b * H + h) * N + j) * D;
					float acc = 0.0f;
					for (int d = 0; d < D; d++) acc += (float)qrow[d] * (float)krow[d];
					acc *= scaling;
					int masked = (j > i) || (i - j >= sliding_window);
					w[j] = masked ? min_dtype : acc;
					row_max = w[j] > row_max ? w[j] : row_max;
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) sum += expf(w[j] - row_max);
				for (int d = 0; d < D; d++) {
					float o = 0.0f;
					for (int j = 0; j < N; j++) {
						const _Float16 p = (_Float16)(expf(w[j] - row_max) / sum);
						o += (float)p * (float)value_states[((b * H + h) * N + j) * D + d];
					}
					attn_output[((b * N + i) * H + h) * D + d] = (_Float16)o;
				}
			}
}
