/* HPC-style decode: restrict flat pointers, long indices, #pragma omp parallel for collapse(2), the key loop a
 * while loop with a long counter, GQA by h / group, running max/sum online, bf16 storage, split-k clause. */
#include <math.h>
#include "fusecc.h"
void decode_hpc(long B, long H, long HKV, long L, const fusecc_bf16 *restrict q, const fusecc_bf16 *restrict k,
		const fusecc_bf16 *restrict v, fusecc_bf16 *restrict o)
{
	const long group = H / HKV;
	const float sc = 0.08838834764831845f;
#pragma fuse kernel(decode_hpc) parallel(b, h) splitk(t)
#pragma omp parallel for collapse(2)
	for (long b = 0; b < B; ++b)
		for (long h = 0; h < H; ++h) {
			const long kvh = h / group;
			const fusecc_bf16 *restrict qh = q + (b * H + h) * 128;
			float mrun = -INFINITY, srun = 0.0f;
			float acc[128];
			for (long d = 0; d < 128; ++d) acc[d] = 0.0f;
			long t = 0;
			while (t < L) {
				const long kv = ((b * HKV + kvh) * L + t) * 128;
				float dot = 0.0f;
				for (long d = 0; d < 128; ++d) dot += fusecc_bf16_to_float(qh[d]) * fusecc_bf16_to_float(k[kv + d]);
				dot *= sc;
				const float mnew = dot > mrun ? dot : mrun;
				const float corr = expf(mrun - mnew);
				const float p = expf(dot - mnew);
				srun = srun * corr + p;
				for (long d = 0; d < 128; ++d) acc[d] = acc[d] * corr + p * fusecc_bf16_to_float(v[kv + d]);
				mrun = mnew;
				t++;
			}
			for (long d = 0; d < 128; ++d) o[(b * H + h) * 128 + d] = fusecc_float_to_bf16(acc[d] / srun);
		}
}
