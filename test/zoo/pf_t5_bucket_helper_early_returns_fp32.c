/* pf_t5_bucket_helper_early_returns_fp32: T5 encoder self-attention with the relative position bias looked up from a learned
 * table rel_emb[num_buckets][H] through a bucket computed by a helper (bidirectional, log
 * buckets), no scaling (T5), fp32, D64. Style: HF T5Attention._relative_position_bucket ported. */
#include <math.h>
static int rp_bucket(int rel, int num_buckets, int max_distance)
{
    int ret = 0;
    int nb = num_buckets / 2;
    if (rel > 0) ret += nb;
    int n = rel < 0 ? -rel : rel;
    int max_exact = nb / 2;
    if (n < max_exact) return ret + n;
    int v = max_exact + (int)(logf((float)n / max_exact) / logf((float)max_distance / max_exact) * (nb - max_exact));
    if (v > nb - 1) v = nb - 1;
    return ret + v;
}
void t5_attn(int B, int H, int N, int NB, int MAXD, const float rel_emb[NB][H],
             const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
             float o[B][H][N][64])
{
#pragma fuse kernel(t5_attn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
    for (int i = 0; i < N; i++) {
        float m = -INFINITY, l = 0, acc[64];
        for (int d = 0; d < 64; d++) acc[d] = 0;
        for (int j = 0; j < N; j++) {
            float s = rel_emb[rp_bucket(j - i, NB, MAXD)][h];
            for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
            float mn = fmaxf(m, s);
            float a = expf(m - mn), p = expf(s - mn);
            l = l * a + p;
            for (int d = 0; d < 64; d++) acc[d] = acc[d] * a + p * v[b][h][j][d];
            m = mn;
        }
        for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
    }
}
