/* A decode (split-k clause) over a padded cache with a uint8 key mask (0 = padding), scores
 * filled with -inf where masked, softmax normalised in place, then P.V: a sequence whose slots are
 * all padding gives NaN in the C (exp(-inf - -inf)), as PyTorch's eager path does. */
#include <math.h>
#include <stdint.h>

void pad_decode(int B, int H, int S, const uint8_t kmask[B][S], const _Float16 q[B][H][128], const _Float16 k[B][H][S][128],
		const _Float16 v[B][H][S][128], float o[B][H][128])
{
#pragma fuse kernel(pad_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float p[S], mx = -INFINITY;
			for (int j = 0; j < S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				p[j] = kmask[b][j] ? s * 0.08838834764831845f : -INFINITY;
				mx = fmaxf(mx, p[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < S; j++) { p[j] = expf(p[j] - mx); l += p[j]; }
			for (int j = 0; j < S; j++) p[j] /= l;
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += p[j] * (float)v[b][h][j][d];
				o[b][h][d] = acc;
			}
		}
}
