/* Group-wise symmetric int8 quantisation of activations (per token, groups of G columns
 * along K, a scale per group), as a quantisation engineer writes the reference: the group
 * loop inside the token loop, G a run-time group size that divides K. */
#include <math.h>
#include <stdint.h>

void quant_groupwise_int8(int T, int K, int G, const _Float16 x[T][K], int8_t q[T][K],
			  float scales[T][K / G])
{
#pragma fuse kernel(quant_groupwise_int8) parallel(t, g)
	for (int t = 0; t < T; t++)
		for (int g = 0; g < K / G; g++) {
			float amax = 0.0f;
			for (int i = 0; i < G; i++)
				amax = fmaxf(amax, fabsf((float)x[t][g * G + i]));
			const float s = amax / 127.0f;
			scales[t][g] = s;
			const float inv = s > 0.0f ? 1.0f / s : 0.0f;
			for (int i = 0; i < G; i++) {
				float v = rintf((float)x[t][g * G + i] * inv);
				q[t][g * G + i] = (int8_t)fminf(fmaxf(v, -127.0f), 127.0f);
			}
		}
}
