/* Symmetric KL (R-Drop's consistency loss) between two forward passes' logit rows:
 * 0.5 * (KL(p||q) + KL(q||p)) = 0.5 * sum (p - q) * (log p - log q). PyTorch port with
 * both log-softmaxes recomputed from the row stats; bf16 logits. */
#include <math.h>
#include "fusecc.h"

void rdrop_sym_kl(int N, int C, const fusecc_bf16 a[N][C], const fusecc_bf16 b[N][C], float kl[N])
{
#pragma fuse kernel(rdrop_sym_kl) parallel(n)
	for (int n = 0; n < N; n++) {
		float ma = -INFINITY, mb = -INFINITY;
		for (int c = 0; c < C; c++) {
			ma = fmaxf(ma, fusecc_bf16_to_float(a[n][c]));
			mb = fmaxf(mb, fusecc_bf16_to_float(b[n][c]));
		}
		float za = 0.0f, zb = 0.0f;
		for (int c = 0; c < C; c++) {
			za += expf(fusecc_bf16_to_float(a[n][c]) - ma);
			zb += expf(fusecc_bf16_to_float(b[n][c]) - mb);
		}
		const float lza = ma + logf(za), lzb = mb + logf(zb);
		float acc = 0.0f;
		for (int c = 0; c < C; c++) {
			float la = fusecc_bf16_to_float(a[n][c]) - lza;
			float lb = fusecc_bf16_to_float(b[n][c]) - lzb;
			acc += (expf(la) - expf(lb)) * (la - lb);
		}
		kl[n] = 0.5f * acc;
	}
}
