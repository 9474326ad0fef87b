/* dc_pv_double_acc_v_cast_double_splitk_fp16: a decode whose P.V sums in double, V cast
 * to double (`acc += expf(s[t] - mx) * (double)vc[..]`): each product of a 16-bit V is
 * exact, the tensor cores sum it in fp32; scores kept in s[T], d-outer P.V, splitk(t). */
#include <math.h>
#define D 64
void dec(int B, int H, int T, float scale, const _Float16 q[B][H][D], const _Float16 kc[B][H][T][D],
	 const _Float16 vc[B][H][T][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(dec) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[T];
			float mx = -INFINITY;
			for (int t = 0; t < T; t++) {
				float x = 0.0f;
				for (int d = 0; d < D; d++)
					x += (float)q[b][h][d] * (float)kc[b][h][t][d];
				s[t] = x * scale;
				mx = fmaxf(mx, s[t]);
			}
			float denom = 0.0f;
			for (int t = 0; t < T; t++)
				denom += expf(s[t] - mx);
			for (int d = 0; d < D; d++) {
				double acc = 0.0;
				for (int t = 0; t < T; t++)
					acc += expf(s[t] - mx) * (double)vc[b][h][t][d];
				o[b][h][d] = (_Float16)(acc / denom);
			}
		}
}
