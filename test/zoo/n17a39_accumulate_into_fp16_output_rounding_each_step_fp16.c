/* As n17a38 but the output is fp16: in C every o += p * v rounds to fp16 (the accumulation is in
 * half precision). A fuser must keep that (or refuse), not silently accumulate in float. Decode. */
#include <math.h>

void decode_acc_half(int B, int H, int L, const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		     const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(decode_acc_half) parallel(b, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				m = fmaxf(m, s * 0.125f);
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = 0;
			float l = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) o[b][h][d] += (_Float16)(p * (float)v[b][h][j][d]);
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)((float)o[b][h][d] / l);
		}
}
