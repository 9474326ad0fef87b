/* ggml-style CPU decode: flat float pointers with nb strides as long, ALiBi slope computed from
 * max_bias per head (m0^(h+1)), keys up to n_kv, D=128, H=16 (power of two). */
#include <math.h>

void ggml_decode_alibi(int B, int H, int NKV, float max_bias, const float *q, const float *k, const float *v, float *dst)
{
	const float scale = 0.08838834764831845f;
	const float m0 = powf(2.0f, -max_bias / (float)H);
#pragma fuse kernel(ggml_decode_alibi) parallel(ib, ih)
	for (long ib = 0; ib < B; ib++)
		for (long ih = 0; ih < H; ih++) {
			const float slope = powf(m0, (float)(ih + 1));
			const float *qp = q + (ib * H + ih) * 128;
			float M = -INFINITY, S = 0.0f;
			float VKQ[128];
			for (long d = 0; d < 128; d++) VKQ[d] = 0.0f;
			for (long ic = 0; ic < NKV; ic++) {
				float sv = 0.0f;
				for (long d = 0; d < 128; d++) sv += qp[d] * k[((ib * H + ih) * NKV + ic) * 128 + d];
				sv = sv * scale + slope * (float)(ic - NKV + 1);
				const float Mold = M;
				float ms = 1.0f, vs = 1.0f;
				if (sv > M) { M = sv; ms = expf(Mold - M); } else { vs = expf(sv - M); }
				for (long d = 0; d < 128; d++) VKQ[d] = VKQ[d] * ms + v[((ib * H + ih) * NKV + ic) * 128 + d] * vs;
				S = S * ms + vs;
			}
			for (long d = 0; d < 128; d++) dst[(ib * H + ih) * 128 + d] = VKQ[d] / S;
		}
}
