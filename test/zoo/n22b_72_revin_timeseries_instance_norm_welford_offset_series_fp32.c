/* RevIN (reversible instance normalisation, PatchTST/iTransformer) by a forecasting engineer who
 * learnt to use Welford for long series: each channel's series x[b][c][:] (stored as deviations
 * from a dataset reference `ref`, e.g. 273.15 for temperatures in Kelvin) is restored, then
 * normalised by its own mean and stdev; mean and stdev saved for the de-normalisation. */
#include <math.h>

void revin_norm(int B, int C, int L, float ref, float eps, const float x[B][C][L], const float aw[C],
		const float ab[C], float y[B][C][L], float mean_out[B][C], float std_out[B][C])
{
#pragma fuse kernel(revin_norm) parallel(b, c)
	for (int b = 0; b < B; b++)
		for (int c = 0; c < C; c++) {
			float mean = 0.0f, m2 = 0.0f;
			for (int t = 0; t < L; t++) {
				const float v = x[b][c][t] + ref;
				const float delta = v - mean;
				mean += delta / (float)(t + 1);
				m2 += delta * (v - mean);
			}
			const float stdev = sqrtf(m2 / L + eps);
			for (int t = 0; t < L; t++)
				y[b][c][t] = ((x[b][c][t] + ref - mean) / stdev) * aw[c] + ab[c];
			mean_out[b][c] = mean;
			std_out[b][c] = stdev;
		}
}
