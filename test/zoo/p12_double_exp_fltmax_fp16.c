/* Non-causal attention (prefill), fp16, int D, written by someone porting from NumPy:
 * Style: double-precision exp() and sqrt() for the scale, max initialised to -FLT_MAX and
 * updated with a plain if; loop names bi/hi/qi/ki/di; scores in a local sc[N]; d-outer P.V. */
#include <math.h>
#include <float.h>

void attn_np(int B, int H, int N, int D,
	     const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	     const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
	const float scale = (float)(1.0 / sqrt((double)D));

#pragma fuse kernel(attn_np) parallel(bi, hi, qi) rolling(ki)
	for (int bi = 0; bi < B; bi++)
		for (int hi = 0; hi < H; hi++)
			for (int qi = 0; qi < N; qi++) {
				float sc[N];
				float mx = -FLT_MAX;
				for (int ki = 0; ki < N; ki++) {
					float dot = 0.0f;
					for (int di = 0; di < D; di++)
						dot += (float)q[bi][hi][qi][di] * (float)k[bi][hi][ki][di];
					sc[ki] = dot * scale;
					if (sc[ki] > mx)
						mx = sc[ki];
				}
				float total = 0.0f;
				for (int ki = 0; ki < N; ki++) {
					sc[ki] = (float)exp((double)(sc[ki] - mx));
					total += sc[ki];
				}
				for (int di = 0; di < D; di++) {
					float acc = 0.0f;
					for (int ki = 0; ki < N; ki++)
						acc += sc[ki] * (float)v[bi][hi][ki][di];
					o[bi][hi][qi][di] = (_Float16)(acc / total);
				}
			}
}
