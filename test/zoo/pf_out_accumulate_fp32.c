/* pf_out_accumulate_fp32.c: attention prefill that accumulates P.V straight into the
 * output row (zeroed first) and divides it in place after the pass, as code that reuses
 * the output buffer as its accumulator does.
 * Style: fp32, #define D 64, scores and the row max in one loop over j into s[N], p as a
 * local, o[b][h][i][d] += p * v, then o[b][h][i][d] /= l; rolling(j). fusecc accumulates
 * in a local o_acc[D] and stores o = o_acc / l after the pass (from the probe
 * a08_out_accumulate.c, which was refused: 'o' is stored during the pass). */
#include <math.h>
#define D 64
void attn_oacc(int B, int H, int N, float scale,
               const float q[B][H][N][D], const float k[B][H][N][D],
               const float v[B][H][N][D], float o[B][H][N][D])
{
#pragma fuse kernel(attn_oacc) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    float x = 0.0f;
                    for (int d = 0; d < D; d++)
                        x += q[b][h][i][d] * k[b][h][j][d];
                    s[j] = x * scale;
                    m = fmaxf(m, s[j]);
                }
                for (int d = 0; d < D; d++)
                    o[b][h][i][d] = 0.0f;
                float l = 0.0f;
                for (int j = 0; j < N; j++) {
                    float p = expf(s[j] - m);
                    l += p;
                    for (int d = 0; d < D; d++)
                        o[b][h][i][d] += p * v[b][h][j][d];
                }
                for (int d = 0; d < D; d++)
                    o[b][h][i][d] /= l;
            }
}
