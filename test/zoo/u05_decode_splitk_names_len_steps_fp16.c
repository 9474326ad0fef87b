/* u05: single-token decode attention, FlashDecoding split-k over the cache, fp16,
 * q[n][128], k/v[n][len][128]. Style: heads `n`, cache length `len`, the scale `per`, and
 * `steps`, `want`, `nrow`, `sms` as unused arguments: the split-k launcher's own names. */
#include <math.h>

void decode_names(int n, int len, int steps, int want, int nrow, int sms, float per, const _Float16 q[n][128], const _Float16 k[n][len][128],
		  const _Float16 v[n][len][128], _Float16 o[n][128])
{
#pragma fuse kernel(decode_names) parallel(h) splitk(j)
	for (int h = 0; h < n; h++) {
		float s[len];
		float m = -INFINITY;
		for (int j = 0; j < len; j++) {
			float dot = 0.0f;
			for (int d = 0; d < 128; d++)
				dot += (float)q[h][d] * (float)k[h][j][d];
			s[j] = dot * per;
			m = fmaxf(m, s[j]);
		}
		float l = 0.0f;
		for (int j = 0; j < len; j++) {
			s[j] = expf(s[j] - m);
			l += s[j];
		}
		for (int d = 0; d < 128; d++) {
			float acc = 0.0f;
			for (int j = 0; j < len; j++)
				acc += s[j] * (float)v[h][j][d];
			o[h][d] = (_Float16)(steps + want + nrow + sms >= 0 ? acc / l : acc / l);
		}
	}
}
